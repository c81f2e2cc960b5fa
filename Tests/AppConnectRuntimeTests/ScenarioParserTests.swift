import AppConnectRuntime
import Foundation
import OpenInPolicy
import Testing

/// The scenario format: what parses, and malformed scenarios as errors with file:line and a fix.
@Suite struct ScenarioParserTests {
    @Test func aScenarioParsesIntoStepsWithTheirLines() throws {
        let scenario = try Scenario.parse("""
            # a comment line
            app implements configChangedTo openInAttemptedWhenACOpenInPolicyBlocked
            app acknowledges config ERROR "bad key"
            server openInPolicy whitelist com.example.viewer   # trailing comment

            launch waiting
            check-in
            share document-interaction target=com.example.viewer document="q3 report #2.pdf"
            log STATUS "a # in quotes, and a \\"quote\\""
            """, name: "s.scenario")
        #expect(scenario.app.implements == [.configChanged, .openInAttemptedWhenBlocked])
        #expect(scenario.steps.map(\.line) == [3, 4, 6, 7, 8, 9])
        #expect(scenario.steps[0].action == .acknowledges(.config, .acknowledge(.error, "bad key")))
        #expect(scenario.steps[1].action == .server([.openInPolicy(.whitelist, whitelist: Whitelist([Fixture.viewer]))]))
        #expect(scenario.steps[2].action == .launch(waiting: true))
        #expect(scenario.steps[4].action == .share(try ShareRequest(channel: .documentInteraction, target: Fixture.viewer, document: "q3 report #2.pdf")))
        #expect(scenario.steps[5].action == .log(.status, "a # in quotes, and a \"quote\""))
    }

    @Test func theWhitelistStaysUnlessIDsAreGiven() throws {
        let scenario = try Scenario.parse("""
            server openInPolicy whitelist com.example.viewer
            server openInPolicy authorized
            server openInPolicy whitelist
            server openInWhitelist -
            """, name: "s")
        let viewer = Whitelist([Fixture.viewer])
        #expect(scenario.steps.map(\.action) == [
            .server([.openInPolicy(.whitelist, whitelist: viewer)]),
            .server([.openInPolicy(.authorized, whitelist: viewer)]),
            .server([.openInPolicy(.whitelist, whitelist: viewer)]),
            .server([.openInPolicy(.whitelist, whitelist: .empty)]),
        ])
    }

    @Test func valuesTakeShortNamesSDKNamesAndNumbers() throws {
        let scenario = try Scenario.parse("""
            server pasteboardPolicy ACPASTEBOARDPOLICY_SECURECOPY
            server printPolicy 1
            server logLevel Verbose
            server authState retired "wiped"
            server config A=1 "B=two words" C=
            server dragAndDropPolicy -
            """, name: "s")
        #expect(scenario.steps.map(\.action) == [
            .server([.pasteboardPolicy(.secureCopy)]),
            .server([.printPolicy(.authorized)]),
            .server([.logLevel(.verbose)]),
            .server([.authState(.retired, message: "wiped")]),
            .server([.config(["A": "1", "B": "two words", "C": ""])]),
            .server([.dragAndDropPolicy(nil)]),
        ])
    }

    static let malformed: [(text: String, line: Int, message: String)] = [
        ("lunch", 1, "unknown statement 'lunch': a line starts with app, server, device, launch, check-in, quit, share, copy, read, ack, log, stop, retire or switch-mode. Did you mean 'launch'?"),
        ("share document-interaction target=com.example.viewer", 1, "'share' needs a running app: add 'launch' above this line"),
        ("launch\nquit\ncopy", 3, "'copy' needs a running app, and it quit: add 'launch' above this line"),
        ("launch\nshare document-interaction", 2, "channel document-interaction needs a target bundle ID"),
        ("launch\nshare document-interaction to=com.example.viewer", 2, "share takes target=ID, url=URL, source=ID and document=NAME, not 'to=com.example.viewer'"),
        ("launch\nshare open-url url=mailto:a@example.com url=mailto:b@example.com", 2, "'url' is given twice: keep one"),
        ("launch\napp implements configChangedTo", 2, "'app implements' describes the app: move it above the first launch (line 1)"),
        ("app implements appConnectIsReady", 1, "appConnectIsReady: is required, so every app implements it: leave it out"),
        ("server openInPolicy sometimes", 1, "unknown Open In policy 'sometimes': use unauthorized, authorized, whitelist, appconnect, an SDK constant name (ACOPENINPOLICY_WHITELIST or ACOpenInPolicyWhitelist), or 0, 1, 2"),
        ("server openInPolicy appconnect com.example.a", 1, "'appconnect' (All AppConnect apps) takes its whitelist from the device: remove the IDs, and list the apps with 'device appconnect-apps ID…'"),
        ("server openInPolicy appconnect\nserver openInWhitelist com.example.a", 2, "the Open In policy is 'appconnect', whose whitelist follows the device's AppConnect apps: write 'server openInPolicy whitelist ID…' for a whitelist of your own, or change the apps with 'device appconnect-apps ID…'"),
        ("server openFromPolicy sometimes", 1, "unknown Open From policy 'sometimes': use unauthorized, authorized, whitelist (or the ACOPENFROMPOLICY_… or ACOpenFromPolicy… constant, or 0 to 2), or appconnect (All AppConnect apps)"),
        ("server openFromWhitelist com..bad", 1, "malformed bundle ID 'com..bad': it has an empty segment (two dots, or a dot at the start)"),
        ("server openInWhitelist com..example", 1, "malformed bundle ID 'com..example': it has an empty segment (two dots, or a dot at the start)"),
        ("server config FOO", 1, "config entries are KEY=VALUE (quote a value with spaces: KEY=\"a b\"), not 'FOO'; write 'server config -' for none"),
        ("server config A=1 A=2", 1, "config key 'A' is given twice: keep one"),
        ("server authState maybe", 1, "unknown auth state 'maybe': use unauthorized, authorized, retired (or the ACAUTHSTATE_… or ACAuthState… constant, or 0 to 2)"),
        ("server secureServicesAvailability available", 1, "secure services are the device's: write 'device secureServicesAvailability available|unavailable'"),
        ("server pasteboard unauthorized", 1, "unknown server property 'pasteboard': use openInPolicy, openInWhitelist, openFromPolicy, openFromWhitelist, config, authState, managedPolicy, pasteboardPolicy, printPolicy, secureFileIOPolicy, excludedAppleActivityTypes, logLevel, dragAndDropPolicy or webDLP. Did you mean 'pasteboardPolicy'?"),
        ("device handler 1abc com.example.viewer", 1, "malformed URL scheme '1abc': a scheme is a letter followed by letters, digits, '+', '-' or '.'"),
        ("device ivanti-client gone", 1, "write 'device ivanti-client installed|not-installed|deleted'"),
        ("launch now", 1, "'launch' takes only 'waiting' (the Ivanti client does not answer until a 'check-in' line), found 'now'"),
        ("launch\nswitch-mode appconnect", 2, "switch-mode is for dual-mode apps: add 'app dual-mode' above the first launch"),
        ("launch\nack config maybe", 2, "unknown policy state 'maybe': use unsupported, applied, error (or the ACPOLICY_… or ACPolicyState… constant, or 0 to 2)"),
        ("launch\nread password", 2, "write 'read PROPERTY' with one of isReady, managedPolicy, authState, authMessage, pasteboardPolicy, openInPolicy, openInWhitelist, openFromPolicy, openFromWhitelist, excludedAppleActivityTypes, printPolicy, secureFileIOPolicy, config, secureServicesAvailability, logLevel"),
        ("launch\nlog STATUS \"never closed", 2, "a quote is not closed: end the quoted text with \""),
        ("launch\nlog STATUS \"a \\n b\"", 2, "unknown escape '\\n' in quotes: write \\\" for a quote and \\\\ for a backslash"),
        ("\"launch\"", 1, "a line starts with a statement (app, server, device, launch, check-in, quit, share, copy, read, ack, log, stop, retire or switch-mode), not quoted text"),
        ("app info-plist MI_AC_DISABLE_SCHEME_BLOCKING=maybe", 1, "MI_AC_DISABLE_SCHEME_BLOCKING is a boolean: write YES or NO"),
    ]

    @Test(arguments: ScenarioParserTests.malformed)
    func aMalformedScenarioIsAnErrorAtItsLine(_ example: (text: String, line: Int, message: String)) {
        #expect(throws: ScenarioError(file: "bad.scenario", line: example.line, message: example.message)) {
            try Scenario.parse(example.text, name: "bad.scenario")
        }
    }

    @Test func errorsReadFileColonLine() {
        #expect(ScenarioError(file: "a.scenario", line: 3, message: "m").description == "a.scenario:3: m")
        #expect(ScenarioError(file: "a.scenario", line: 0, message: "m").description == "a.scenario: m")
    }

    @Test func anEmptyScenarioIsAnError() {
        #expect(throws: ScenarioError(file: "empty", line: 0, message: "has no statements: a scenario needs at least a 'launch' line")) {
            try Scenario.parse("# only a comment\n\n", name: "empty")
        }
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        #expect {
            try Scenario.load(path: "/nonexistent/x.scenario")
        } throws: { error in
            (error as? ScenarioError).map { $0.line == nil && $0.description.hasPrefix("/nonexistent/x.scenario: cannot be read") } ?? false
        }
    }

    @Test func everyPrefixOfEveryExampleLineParsesOrFailsCleanly() throws {
        // Fail closed, never crash: cut each line of each example at every position.
        var outcomes = (parsed: 0, failed: 0)
        for file in ScenarioFile.all where file.relativePath.hasPrefix("Examples/") {
            let lines = try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where !line.hasPrefix("#") && !line.isEmpty {
                for cut in line.indices {
                    var mutated = lines
                    mutated[index] = line[..<cut]
                    do {
                        _ = try Scenario.parse(mutated.joined(separator: "\n"), name: file.relativePath)
                        outcomes.parsed += 1
                    } catch {
                        #expect((error.line ?? 0) >= index + 1, "an error before the cut line: \(error)")
                        outcomes.failed += 1
                    }
                }
            }
        }
        #expect(outcomes.parsed > 0)
        #expect(outcomes.failed > 0)
    }
}
