import AppConnectRuntime
import OpenInPolicy
import Testing

/// The embedding example of the runtime's lifecycle article (`AppConnectRuntime.docc/Lifecycle.md`), as written there.
@Suite struct ReadmeExampleTests {
    final class NotesApp: AppConnectDelegate {
        func appConnectIsReady(_ appConnect: AppConnect) {
            // Read the policies here: before this callback, the properties throw ACPropertyAccessException.
        }
        func appConnect(_ appConnect: AppConnect, authStateChangedTo state: ACAuthState, withMessage message: String) {
            try? appConnect.authStateApplied(.applied, message: "UI updated")
        }
        // Optional callbacks: implement only what the app needs.
        func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo policy: OpenInStatus, whitelist: Whitelist) {
            appConnect.openInPolicyApplied(.applied, message: "Open In menu updated")
        }
    }

    @Test func theEmbeddingExampleDoesWhatTheREADMESays() throws {
        let device = SimulatedDevice(server: ServerState(openInPolicy: .whitelist,
                                                         openInWhitelist: try Whitelist(parsing: ["com.example.viewer"])))
        let appConnect = AppConnect(delegate: NotesApp(), device: device)
        try appConnect.start(launchOptions: nil)      // not ready: properties throw ACPropertyAccessException
        device.checkIn()                              // ready, then every change callback (a first launch)

        let request = try ShareRequest(channel: "document-interaction", target: "com.example.dropbox", document: "q3.pdf")
        #expect(appConnect.share(request).outcome == .substituteDummyFile)
        device.push(.config([AppConfig.disableOpenInEnforcementKey: "yes"]))   // read live by the evaluator
        #expect(appConnect.share(request).outcome == .allow)

        #expect(device.acknowledgments.map(\.description).prefix(3) == [
            "authStateApplied:message: ACPOLICY_APPLIED \"UI updated\"",
            "configApplied:message: ACPOLICY_UNSUPPORTED \"The app does not implement appConnect:configChangedTo:\"",
            "openInPolicyApplied:message: ACPOLICY_APPLIED \"Open In menu updated\"",
        ])
    }
}
