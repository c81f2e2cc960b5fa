import SDKSampleApp
import AppConnectTesting
import AppConnect
import AppConnectTesting
import Foundation

/// A delegate with only the two required methods.
final class RequiredOnly: NSObject, AppConnectDelegate {
    var acknowledgeAuth = true
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        if acknowledgeAuth { appConnect.authStateApplied(.applied, message: nil) }
    }
}

enum AppConnectHarnessFixture {
    /// A fresh double: an authorized, managed app with the runtime's default policies.
    static func make(_ changes: [AppConnectHarness.Change] = [], ivantiClient: AppConnectHarness.IvantiClient = .installed,
                     strict: Bool = false) throws -> AppConnectHarness {
        try AppConnectHarness(changes, ivantiClient: ivantiClient, strict: strict)
    }
}

/// A dual-mode app's persisted states, kept across simulated launches.
final class MemoryStore: DualModeStateStore {
    var dualModeState: DualModeState?
    var encrypted = false
}

/// A key's bytes, copied while the key is alive.
func bytes(_ key: ACSensitiveData) -> [UInt8] {
    withExtendedLifetime(key) { Array(UnsafeRawBufferPointer(start: key.bytes, count: key.length)) }
}
