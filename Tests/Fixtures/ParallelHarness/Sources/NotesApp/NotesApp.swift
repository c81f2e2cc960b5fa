import AppConnect
import Foundation

/// The app's AppConnect delegate: it keeps what the library told it, and its share button asks the
/// library through `AppConnect.sharedInstance()`, as app code does.
public final class NotesDelegate: NSObject, AppConnectDelegate, @unchecked Sendable {
    /// The Open In whitelists the library announced, in order.
    public private(set) var whitelists: [Set<String>] = []
    /// How many times the app was told a share was blocked.
    public private(set) var blockedShares = 0

    /// Creates the delegate.
    override public init() {}

    /// The app's launch: creates and starts the library.
    public func launch() {
        AppConnect.initWith(self)
        AppConnect.sharedInstance()?.start(launchOptions: nil)
    }

    public func appConnectIsReady(_ appConnect: AppConnect) {}

    public func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }

    public func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>) {
        whitelists.append(newWhitelist)
        appConnect.openInPolicyApplied(.applied, message: nil)
    }

    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: ACOpenInPolicy) {
        blockedShares += 1
    }
}

/// The app's share button: enabled when the library lets documents go to `app`.
public enum ShareButton {
    /// Whether the library, as the app reaches it, lists `app` for Open In.
    public static func canShare(to app: String) -> Bool {
        guard let library = AppConnect.sharedInstance(), library.isReady else { return false }
        return library.openInPolicy == .authorized || library.openInWhitelist.contains(app)
    }
}
