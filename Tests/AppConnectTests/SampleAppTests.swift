import AppConnect
import AppConnectTesting
import Foundation
import SDKSampleApp
import Testing

/// The sample app, written against the SDK, driven through the harness.
extension AppConnectDoubleTests {
    @Suite struct SampleApp {
        /// The callbacks the notes app leaves to the library, on purpose.
        static let skipped: [AppConnectHarness.Callback] = [
            .managedPolicyChanged, .openFromPolicyChanged, .pasteboardPolicyChanged, .printPolicyChanged,
            .secureFileIOPolicyChanged, .logLevelChanged, .secureServicesAvailabilityChanged, .copyAttemptedWhenUnauthorized,
        ]

        static func launch(_ changes: [AppConnectHarness.Change]) throws -> (AppConnectHarness, NotesAppDelegate) {
            let harness = try AppConnectHarness(changes)
            harness.appDoesNotImplement(skipped)
            let app = NotesAppDelegate()
            app.application(didFinishLaunchingWithOptions: [LaunchOptionsKey(rawValue: "url"): "notes://open"])
            return (harness, app)
        }

        @Test func startsReadsPoliciesAndAcknowledgesEveryChange() throws {
            let (harness, app) = try Self.launch([
                .openInPolicy(.whitelist, whitelist: ["com.example.viewer"]), .config(["serverURL": "https://notes.example.com"]),
            ])
            #expect(AppConnect.sharedInstance()?.isReady == false)
            #expect(harness.checkIn())
            #expect(app.isUnlocked)
            #expect(app.openInTargets == ["com.example.viewer"])
            #expect(app.serverURL == "https://notes.example.com")
            let acknowledged = harness.acknowledgments.filter { !$0.automatic }.map(\.selector)
            #expect(acknowledged.contains("configApplied:message:") && acknowledged.contains("openInPolicyApplied:message:"))
            #expect(harness.awaitedAcknowledgments.isEmpty)
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func blockedShareReachesTheAppsCallback() throws {
            let (harness, app) = try Self.launch([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])])
            harness.checkIn()
            let ac = try #require(AppConnect.sharedInstance())
            #expect(ac.isOpenInAllowed(to: "com.example.viewer"))
            #expect(!ac.isOpenInAllowed(to: "com.example.other"))
            #expect(harness.shareDecisions.isEmpty, "asking in advance records no share")
            #expect(try harness.share(channel: "document-interaction", target: "com.example.viewer").isAllowed)
            let blocked = try harness.share(channel: "document-interaction", target: "com.example.other")
            #expect(!blocked.isAllowed)
            #expect(app.alerts == ["Sharing this note is not allowed (whitelist)"], "the app's own description of ACOpenInPolicy is used")
            #expect(harness.deliveredCallbacks.last == "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:")
            #expect(harness.shareDecisions.count == 2)
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        /// The four callbacks the runtime's own protocol once missed silently are delivered to the app's methods.
        @Test func theFourFormerlySilentCallbacksAreCalled() throws {
            let (harness, app) = try Self.launch([.openInPolicy(.unauthorized, whitelist: [])])
            harness.checkIn()
            try harness.push(.config(["serverURL": "https://new.example.com"]))
            #expect(app.serverURL == "https://new.example.com")
            harness.showAppConnectUI()
            #expect(app.pausedForAppConnect)
            harness.dismissAppConnectUI()
            #expect(!app.pausedForAppConnect)
            let mailto = try harness.share(channel: "open-url", url: "mailto:a@example.com")
            #expect(mailto.callback == "appConnect:openURLAttemptedWhenUnauthorizedForURL:")
            let delivered = Set(harness.deliveredCallbacks)
            for selector in ["appConnect:configChangedTo:", "applicationWillResignActiveForAppConnect:",
                             "applicationDidBecomeActiveFromAppConnect:", "appConnect:openURLAttemptedWhenUnauthorizedForURL:"] {
                #expect(delivered.contains(selector))
            }
            #expect(app.alerts == ["Opening mailto is not allowed"])
            #expect(!harness.acknowledgments.contains { $0.automatic && $0.selector == "configApplied:message:" })
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func unauthorizedAndRetiredReachTheApp() throws {
            let (harness, app) = try Self.launch([])
            harness.checkIn()
            try harness.push(.authState(.unauthorized, message: "Passcode required"))
            #expect(!app.isUnlocked)
            #expect(harness.displayedMessages == ["Passcode required"])
            try harness.push(.authState(.retired, message: "Retired"))
            #expect(app.notes.isEmpty)
            #expect(AppConnect.sharedInstance()?.authMessage == "Retired")
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }
}

extension AppConnectDoubleTests {
    /// The harness example of `AppConnect.docc/TestingWithTheDouble.md`, as written there.
    @Suite struct ReadmeExample {
        @Test func blockedShareReachesTheApp() throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])])
            harness.appDoesNotImplement([.managedPolicyChanged, .openFromPolicyChanged, .pasteboardPolicyChanged,
                                         .printPolicyChanged, .secureFileIOPolicyChanged, .logLevelChanged,
                                         .secureServicesAvailabilityChanged, .copyAttemptedWhenUnauthorized])
            let app = NotesAppDelegate()
            app.application(didFinishLaunchingWithOptions: nil)   // the app's own AppConnect.initWith + start
            harness.checkIn()                                      // appConnectIsReady:, then every change callback
            let blocked = try harness.share(channel: "document-interaction", target: "com.example.other")
            #expect(!blocked.isAllowed)
            #expect(app.alerts.count == 1)                         // its openInAttemptedWhenACOpenInPolicyBlocked ran
            #expect(harness.problems.isEmpty)
        }
    }
}

extension AppConnectDoubleTests {
    /// The device and app facts the harness sets reach the evaluator.
    @Suite struct HarnessFacts {
        @Test func schemeHandlersAndTheAppsOwnSchemesDecideOpenURL() throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])],
                                                schemeHandlers: ["viewer": "com.example.viewer", "other": "com.example.other"],
                                                appURLSchemes: ["notes"])
            let app = NotesAppDelegate()
            app.application(didFinishLaunchingWithOptions: nil)
            harness.checkIn()
            let ac = try #require(AppConnect.sharedInstance())
            #expect(ac.isURLAllowed(URL(string: "viewer://doc/1")!))
            #expect(!ac.isURLAllowed(URL(string: "other://doc/1")!))
            #expect(ac.isURLAllowed(URL(string: "notes://new")!), "the app's own scheme is not Open In")
        }

        @Test func malformedFactsAreClearErrors() {
            #expect(throws: AppConnectHarness.HarnessError.self) { try AppConnectHarness(schemeHandlers: ["not a scheme": "com.example.a"]) }
            #expect(throws: AppConnectHarness.HarnessError.self) { try AppConnectHarness(appConnectApps: ["no spaces allowed"]) }
            #expect(throws: AppConnectHarness.HarnessError.self) {
                try AppConnectHarness([.openInPolicy(.whitelist, whitelist: [""])])
            }
        }
    }
}

extension AppConnectDoubleTests {
    /// The guide's Objective-C snippets, transliterated into `GuideAppDelegate`.
    @Suite struct GuideSnippets {
        @Test func readyGatingOpenInAlertAndConfig() throws {
            AlertView.reset()
            let harness = try AppConnectHarness([.openInPolicy(.unauthorized, whitelist: []), .config(["mode": "strict"])])
            harness.appDoesNotImplement([.managedPolicyChanged, .openInPolicyChanged, .openFromPolicyChanged, .pasteboardPolicyChanged,
                                         .printPolicyChanged, .secureFileIOPolicyChanged, .logLevelChanged,
                                         .secureServicesAvailabilityChanged])
            let app = GuideAppDelegate()
            app.applicationDidFinishLaunching(withOptions: nil)
            app.applicationDidBecomeActive()
            #expect(app.initializingMessage == "Authorizing. Please wait...")
            #expect(app.policyUpdates == 0)
            harness.checkIn()
            #expect(app.initializingMessage == nil)
            #expect(app.policyUpdates == 1)
            #expect(app.appliedConfig["mode"] as? String == "strict")
            app.applicationDidBecomeActive()
            #expect(app.policyUpdates == 2)
            try harness.share(channel: "document-interaction", target: "com.example.other")
            #expect(AlertView.shown == ["Open In not allowed: You are not allowed to share a document with this app."])
            #expect(harness.acknowledgments.contains { $0.selector == "configApplied:message:" && !$0.automatic && $0.state == .applied })
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }
}
