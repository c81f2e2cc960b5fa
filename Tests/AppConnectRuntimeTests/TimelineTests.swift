import AppConnectRuntime
import Foundation
import OpenInPolicy
import Testing

/// Running scenarios, and the timeline's text and JSON forms.
@Suite struct TimelineTests {
    static func run(_ text: String) throws -> Timeline {
        ScenarioRunner.run(try Scenario.parse(text, name: "t.scenario"))
    }

    @Test func eventsAreTiedToTheLineThatCausedThem() throws {
        let timeline = try Self.run("""
            launch waiting
            check-in
            """)
        #expect(timeline.entries.prefix(3).map(\.line) == [1, 1, 2])
        #expect(timeline.entries.prefix(3).map(\.event) == [.launch(1), .call(.start(launchOptions: [:])), .checkIn(answered: true)])
        #expect(timeline.entries.allSatisfy { $0.line <= 2 })
    }

    @Test func theTextFormHasLineWhoWhatAndASummary() throws {
        let timeline = try Self.run("""
            server openInPolicy whitelist com.example.viewer
            launch
            share document-interaction target=com.example.viewer
            """)
        let lines = timeline.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "   1  server   openInPolicy = ACOPENINPOLICY_WHITELIST, whitelist {com.example.viewer}")
        #expect(lines.contains("   3  user     share document-interaction target=com.example.viewer → allow to com.example.viewer [document.listed-target]"))
        #expect(lines.last == "1 share, 0 not allowed")
        #expect(timeline.everyShareAllowed)
    }

    @Test func aShareNotAllowedIsCounted() throws {
        let timeline = try Self.run("""
            launch
            share activity-view
            share open-url url=https://example.com
            """)
        #expect(timeline.sharesNotAllowed == 1)
        #expect(!timeline.everyShareAllowed)
        #expect(timeline.text.hasSuffix("2 shares, 1 not allowed\n"))
    }

    @Test func theJSONFormIsOneValidDocumentWithEveryEvent() throws {
        for file in ScenarioFile.all {
            let timeline = ScenarioRunner.run(try Scenario.load(path: file.path))
            let object = try JSONSerialization.jsonObject(with: Data(timeline.json.utf8)) as? [String: Any]
            let events = object?["events"] as? [[String: Any]]
            #expect(events?.count == timeline.entries.count, "\(file.relativePath)")
            #expect(object?["notAllowed"] as? Int == timeline.sharesNotAllowed)
            #expect(object?["shares"] as? Int == timeline.decisions.count)
            #expect(events?.allSatisfy { $0["line"] is Int && $0["actor"] is String && $0["event"] is String } == true)
        }
    }

    @Test func theJSONFormEscapesWhatItMust() throws {
        let timeline = try Self.run("""
            launch
            log STATUS "tab\there \\"quoted\\" back\\\\slash"
            """)
        let object = try JSONSerialization.jsonObject(with: Data(timeline.json.utf8)) as? [String: Any]
        let events = try #require(object?["events"] as? [[String: Any]])
        #expect(events.last?["message"] as? String == "tab\there \"quoted\" back\\slash")
    }

    @Test func aShareRecordIsTheDecisionRecordOfTheCLI() throws {
        let timeline = try Self.run("""
            launch
            share quick-look target=com.example.other document=a.pdf
            """)
        let object = try JSONSerialization.jsonObject(with: Data(timeline.json.utf8)) as? [String: Any]
        let share = try #require((object?["events"] as? [[String: Any]])?.first { $0["event"] as? String == "share" })
        let decision = try #require(share["decision"] as? [String: Any])
        #expect(decision["outcome"] as? String == "substitute-dummy-file")
        #expect(decision["rule"] as? String == "document.unlisted-target")
        #expect((decision["dummyFileName"] as? String)?.hasSuffix(".acblocked") == true)
        let callbacks = try #require(decision["callbacks"] as? [[String: Any]])
        #expect(callbacks.first?["selector"] as? String == "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:")
        #expect(share["request"] as? [String: String] == ["channel": "quick-look", "target": "com.example.other", "document": "a.pdf"])
    }

    @Test func theLibraryStillWaitingIsReported() throws {
        let timeline = try Self.run("""
            app implements configChangedTo
            app acknowledges config never
            launch
            """)
        #expect(timeline.awaitedAcknowledgments == [.config])
        #expect(timeline.text.hasSuffix("the library still waits for configApplied:message:\n"))
    }

    @Test func aDualModeAppReadsFromTheLibraryItStopped() throws {
        let timeline = try Self.run("""
            app dual-mode
            server managedPolicy unmanaged
            launch
            read openInPolicy
            """)
        #expect(timeline.entries.last?.event == .read(.openInPolicy, .failure(ACPropertyAccessException(property: "openInPolicy", reason: .stopped))))
    }
}
