import AppConnect
import AppConnectTesting
import Foundation
import Testing

/// Open From through the double: the properties, the change callback with the SDK's types, and its acknowledgment.
extension AppConnectDoubleTests {
    @Suite struct OpenFrom {
        final class Receiver: NSObject, AppConnectDelegate {
            var allowedSources: Set<String>?
            func appConnectIsReady(_ appConnect: AppConnect) {}
            func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
                appConnect.authStateApplied(.applied, message: nil)
            }
            func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy,
                            whitelist newWhitelist: Set<String>) {
                allowedSources = newOpenFromPolicy == .whitelist ? newWhitelist : nil
                appConnect.openFromPolicyApplied(.applied, message: "import menu updated")
            }
            var refusedSources: [String?] = []
            func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                            sourceApplication sourceApplicationId: String?) {
                refusedSources.append(sourceApplicationId)
            }
        }

        @Test func openFromReachesTheAppAndIsAcknowledged() throws {
            let harness = try AppConnectHarness([.openFromPolicy(.whitelist, whitelist: ["com.example.scanner"]),
                                                 .excludedAppleActivityTypes(["com.apple.UIKit.activity.AirDrop"])])
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter {
                !$0.isRequired && $0 != .openFromPolicyChanged && $0 != .openFromAttemptedWhenBlocked
            })
            let app = Receiver()
            AppConnect.initWith(app)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            #expect(app.allowedSources == ["com.example.scanner"])
            #expect(ac.openFromPolicy == .whitelist && ac.openFromWhitelist == ["com.example.scanner"])
            #expect(ac.excludedAppleActivityTypes as? [String] == ["com.apple.UIKit.activity.AirDrop"])
            #expect(harness.acknowledgments.contains {
                $0.selector == "openFromPolicyApplied:message:" && !$0.automatic && $0.message == "import menu updated"
            })
            #expect(try harness.share(channel: "open-from", source: "com.example.scanner").isAllowed)
            let refused = try harness.share(channel: "open-from", source: "com.example.other")
            #expect(refused.callback == "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:")
            try harness.share(channel: "open-from")
            #expect(app.refusedSources == ["com.example.other", nil], "the header's sourceApplication is nullable")
            try harness.push(.openFromPolicy(.authorized, whitelist: []))
            #expect(app.allowedSources == nil)
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func allAppConnectAppsFollowsTheDevice() throws {
            let harness = try AppConnectHarness([.openFromAllAppConnectApps], appConnectApps: ["com.example.mail", "com.example.docs"])
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter {
                !$0.isRequired && $0 != .openFromPolicyChanged && $0 != .openFromAttemptedWhenBlocked
            })
            let app = Receiver()
            AppConnect.initWith(app)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            #expect(ac.openFromPolicy == .whitelist)
            #expect(app.allowedSources == ["com.example.mail", "com.example.docs"])
            #expect(ac.isOpenFromAllowed(from: "com.example.docs") && !ac.isOpenFromAllowed(from: "com.example.other"))
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }
}
