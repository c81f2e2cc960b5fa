// A sample AppConnect app, written against the AppConnect for iOS SDK's Swift
// interface exactly as an iOS app writes it. Only the UIKit glue differs: Linux
// has no UIKit, so `application(_:didFinishLaunchingWithOptions:)` takes the
// launch options alone, keyed by a stand-in for `UIApplication.LaunchOptionsKey`.
// Every AppConnect line is what the app would ship.
import AppConnect
import Foundation

/// Stands in for `UIApplication.LaunchOptionsKey` (UIKit is not on Linux).
public struct LaunchOptionsKey: Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The notes app's delegate: an AppConnect app that shares documents through Open In.
public class NotesAppDelegate: NSObject, AppConnectDelegate {
    /// Whether the user may see notes (the auth state is authorized).
    public private(set) var isUnlocked = false
    /// The apps the Open In menu may offer, or nil for every app.
    public private(set) var openInTargets: Set<String>? = []
    /// The server URL from the app configuration.
    public private(set) var serverURL: String?
    /// Alerts shown to the user.
    public private(set) var alerts: [String] = []
    /// Whether the app's own UI is paused for AppConnect's.
    public private(set) var pausedForAppConnect = false
    /// Notes; wiped on retire.
    public private(set) var notes: [String] = ["Quarterly numbers"]

    public override init() { super.init() }

    /// `application(_:didFinishLaunchingWithOptions:)`.
    @discardableResult
    public func application(didFinishLaunchingWithOptions launchOptions: [LaunchOptionsKey: Any]?) -> Bool {
        AppConnect.initWith(self)
        AppConnect.sharedInstance()?.start(launchOptions: launchOptions)
        return true
    }

    // MARK: AppConnectDelegate

    public func appConnectIsReady(_ appConnect: AppConnect) {
        AppConnect.log(at: .status, message: "AppConnect is ready (library \(AppConnect.version()))")
        isUnlocked = appConnect.authState == .authorized
        apply(appConnect.openInPolicy, whitelist: appConnect.openInWhitelist)
        serverURL = appConnect.config["serverURL"] as? String
    }

    public func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        switch newAuthState {
        case .authorized:
            isUnlocked = true
        case .unauthorized:
            isUnlocked = false
            appConnect.displayMessage(message ?? "Access to notes is not authorized", withCompletion: nil)
        case .retired:
            isUnlocked = false
            notes.removeAll()
        @unknown default:
            isUnlocked = false
        }
        appConnect.authStateApplied(.applied, message: nil)
    }

    public func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [AnyHashable: Any]) {
        guard let url = newConfig["serverURL"] as? String else {
            appConnect.configApplied(.error, message: "serverURL is missing")
            return
        }
        serverURL = url
        appConnect.configApplied(.applied, message: nil)
    }

    public func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy,
                           whitelist newWhitelist: Set<String>) {
        apply(newOpenInPolicy, whitelist: newWhitelist)
        appConnect.openInPolicyApplied(.applied, message: nil)
    }

    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: ACOpenInPolicy) {
        alerts.append("Sharing this note is not allowed (\(openInPolicy))")
    }

    public func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedFor openURL: URL) {
        alerts.append("Opening \(openURL.scheme ?? "the link") is not allowed")
    }

    public func applicationWillResignActiveForAppConnect(_ appConnect: AppConnect) { pausedForAppConnect = true }

    public func applicationDidBecomeActiveFromAppConnect(_ appConnect: AppConnect) { pausedForAppConnect = false }

    private func apply(_ policy: ACOpenInPolicy, whitelist: Set<String>) {
        switch policy {
        case .authorized: openInTargets = nil
        case .whitelist: openInTargets = whitelist
        case .unauthorized: openInTargets = []
        @unknown default: openInTargets = []
        }
    }
}

// An app's own description of an SDK enum: the SDK adds none, so this is the one used.
// (An app in another package may write `@retroactive` here, as it would for the SDK;
// inside this package, where the double lives, Swift rejects that attribute.)
extension ACOpenInPolicy: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .authorized: "authorized"
        case .whitelist: "whitelist"
        @unknown default: "unknown"
        }
    }
}
