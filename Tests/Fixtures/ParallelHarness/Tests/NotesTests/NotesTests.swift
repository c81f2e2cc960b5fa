import AppConnect         // the double, in place of AppConnect.framework
import AppConnectTesting  // the harness
import Foundation
import Testing

/// The app's AppConnect delegate (in an app, it is in the app's own code).
final class NotesAppDelegate: NSObject, AppConnectDelegate {
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
}

@Test func theAppUsesTheSDKAsTheHeaderAsks() throws {
    let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])], callbacks: .declaredByTheApp)
    harness.launch(NotesAppDelegate())  // initWith, start, check-in: ready, then every change callback
    #expect(harness.problems.isEmpty)   // misuses, and methods that nearly match an SDK callback
}
