import AppConnect
import AppConnectTesting
import Foundation
import Testing

/// What the SDK raises or leaves undefined is recorded, with what and where; strict mode traps.
extension AppConnectDoubleTests {
    @Suite struct Misuses {
        @Test func gatedPropertyBeforeReadyIsRecordedAndFailsClosed() throws {
            let harness = try AppConnectHarness([.openInPolicy(.authorized, whitelist: []), .openFromPolicy(.authorized, whitelist: [])])
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            #expect(ac.openInPolicy == .unauthorized, "before ready the double answers the fail-closed value")
            #expect(ac.config.isEmpty)
            #expect(ac.openFromPolicy == .unauthorized)
            #expect(ac.secureServicesAvailability == .available, "readable at any time: no misuse")
            let misuses = harness.misuses
            #expect(misuses.map(\.call) == ["openInPolicy", "config", "openFromPolicy"])
            #expect(misuses.first?.problem.contains("ACPropertyAccessException") == true)
            #expect(harness.problems.count == 3)
            harness.checkIn()
            #expect(ac.openInPolicy == .authorized)
            #expect(ac.openFromPolicy == .authorized)
            #expect(harness.misuses.count == 3)
        }

        @Test func unsupportedAuthStateAcknowledgmentIsRecordedWithTheCallback() throws {
            let harness = try AppConnectHarness()
            final class RefusesAuth: NSObject, AppConnectDelegate {
                func appConnectIsReady(_ appConnect: AppConnect) {}
                func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
                    appConnect.authStateApplied(.unsupported, message: "not supported")
                }
            }
            let delegate = RefusesAuth()
            AppConnect.initWith(delegate)
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            harness.checkIn()
            let misuse = try #require(harness.misuses.first)
            #expect(misuse.call == "authStateApplied:message:")
            #expect(misuse.during == "appConnect:authStateChangedTo:withMessage:")
            #expect(!harness.acknowledgments.contains { $0.selector == "authStateApplied:message:" }, "the server receives nothing")
        }

        @Test func callsAfterStopAreRecorded() throws {
            let harness = try AppConnectHarness()
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            ac.stop()
            ac.openInPolicyApplied(.applied, message: nil)
            _ = ac.authState
            ac.stop()
            #expect(harness.misuses.map(\.call) == ["openInPolicyApplied:message:", "authState", "stop"])
            #expect(harness.misuses.allSatisfy { $0.problem.contains("after -stop") })
            AppConnect.log(at: .error, message: "still logs after stop")
            #expect(harness.misuses.count == 3, "logging after -stop is allowed")
        }

        @Test func initWithTwiceIsRecorded() throws {
            let harness = try AppConnectHarness()
            let first = RequiredOnly()
            let second = RequiredOnly()
            AppConnect.initWith(first)
            AppConnect.initWith(second)
            #expect(harness.misuses.map(\.call) == ["initWithDelegate:"])
            #expect(AppConnect.sharedInstance()?.appConnectDelegate === second)
        }

        @Test func strictModeTraps() async {
            await #expect(processExitsWith: .failure) {
                let harness = try AppConnectHarness(strict: true)
                let delegate = RequiredOnly()
                AppConnect.initWith(delegate)
                AppConnect.sharedInstance()?.start(launchOptions: nil)
                _ = AppConnect.sharedInstance()?.authState
                _ = harness
            }
        }
    }

    /// A method with an SDK callback's name and another signature is reported, not passed over.
    @Suite struct SilentMisses {
        final class NearMisses: NSObject, AppConnectDelegate {
            var configs = 0
            func appConnectIsReady(_ appConnect: AppConnect) {}
            func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
                appConnect.authStateApplied(.applied, message: nil)
            }
            // The dictionary type differs from the header's `[AnyHashable: Any]`: not the protocol's method.
            func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: Any]) {
                configs += 1
                appConnect.configApplied(.applied, message: nil)
            }
            // The label differs from the imported `openURLAttemptedWhenUnauthorizedFor`.
            func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL openURL: URL) {}
        }

        @Test func nearMissIsReportedAndAcknowledgedUnsupported() throws {
            let harness = try AppConnectHarness([.config(["serverURL": "https://example.com"]),
                                                 .openInPolicy(.unauthorized, whitelist: [])])
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter {
                !$0.isRequired && $0 != .configChanged && $0 != .openURLAttemptedWhenUnauthorized
            })
            let app = NearMisses()
            AppConnect.initWith(app)
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            harness.checkIn()
            try harness.share(channel: "open-url", url: "mailto:a@example.com")
            #expect(app.configs == 0)
            #expect(harness.problems == [
                "the app implements no method the SDK would call for appConnect:configChangedTo: "
                    + "(the library acknowledged configApplied:message: ACPolicyStateUnsupported for it)",
                "the app implements no method the SDK would call for appConnect:openURLAttemptedWhenUnauthorizedForURL:",
            ])
            #expect(harness.acknowledgments.contains { $0.selector == "configApplied:message:" && $0.automatic && $0.state == .unsupported })
        }
    }
}

extension AppConnectDoubleTests {
    @Suite struct WeakDelegate {
        @Test func aReleasedDelegateIsAProblemNotAnAcknowledgment() throws {
            let harness = try AppConnectHarness([.config(["k": "v"])])
            do {
                let delegate = RequiredOnly()
                AppConnect.initWith(delegate)
                AppConnect.sharedInstance()?.start(launchOptions: nil)
            }
            #expect(AppConnect.sharedInstance()?.appConnectDelegate == nil, "the SDK holds its delegate weakly")
            harness.checkIn()
            #expect(harness.problems.contains { $0.hasPrefix("appConnectIsReady: was due but the delegate is gone") })
            #expect(!harness.acknowledgments.contains { $0.selector == "authStateApplied:message:" })
            #expect(harness.acknowledgments.contains { $0.selector == "configApplied:message:" && $0.automatic })
        }
    }
}

extension AppConnectDoubleTests {
    @Suite struct HarnessReplacement {
        @Test func aReplacedHarnessSaysSo() throws {
            let first = try AppConnectHarness()
            #expect(first.problems.isEmpty)
            let second = try AppConnectHarness()
            #expect(first.problems == [
                "another AppConnectHarness made later in this test (aReplacedHarnessSaysSo()) took over: AppConnect.sharedInstance() "
                    + "and the app's calls now reach the newer one, so this one saw only what came before. Make one harness per test, "
                    + "or look at the newer harness's results"
            ])
            #expect(second.problems.isEmpty)
            // The app's calls reach the newer harness's double.
            AppConnect.initWith(RequiredOnly())
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            #expect(second.checkIn())
            #expect(!first.checkIn(), "the older harness's device saw no library start")
        }
    }
}
