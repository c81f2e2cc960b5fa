import AppConnect
import AppConnectTesting
import Foundation
import Testing

/// An iOS app delegate is main-actor isolated (`UIResponder` is); the SDK's
/// protocol, like the double's, is not, so such an app conforms with `@preconcurrency`.
@MainActor
final class MainActorAppDelegate: NSObject, @preconcurrency AppConnectDelegate {
    var readyCount = 0
    var policy: ACOpenInPolicy?

    func appConnectIsReady(_ appConnect: AppConnect) { readyCount += 1 }
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>) {
        policy = newOpenInPolicy
        appConnect.openInPolicyApplied(.applied, message: nil)
    }
}

extension AppConnectDoubleTests {
    /// Callbacks arrive on the thread that caused them: a main-actor test delivers on the main actor.
    @Suite struct MainActorDelegates {
        @MainActor @Test func mainActorDelegateReceivesCallbacks() throws {
            let harness = try AppConnectHarness([.openInPolicy(.authorized, whitelist: [])])
            let app = MainActorAppDelegate()
            AppConnect.initWith(app)
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            harness.checkIn()
            #expect(app.readyCount == 1)
            #expect(app.policy == .authorized)
        }
    }
}
