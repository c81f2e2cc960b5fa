// The Objective-C samples of the AppConnect for iOS SDK Developer Guide, transliterated
// statement by statement: "AppConnect ready API details" (the isReady pseudocode),
// "Open In policy API details" (the blocked Open In alert) and "App-specific
// configuration API details" (acknowledging with the guide's ACPOLICY_… names, which
// the header's ACCompatibility.h keeps). UIKit is not on Linux: `AlertView` stands in
// for `UIAlertView`, and the UIApplicationDelegate methods take no application.
import AppConnect
import Foundation

/// Stands in for `UIAlertView`: records what it would show.
public final class AlertView {
    /// Every alert shown, as "title: message".
    nonisolated(unsafe) public private(set) static var shown: [String] = []
    let title: String
    let message: String

    /// `-initWithTitle:message:delegate:cancelButtonTitle:otherButtonTitles:`.
    public init(title: String, message: String, delegate: Any?, cancelButtonTitle: String, otherButtonTitles: String?) {
        self.title = title
        self.message = message
    }

    /// `-show`.
    public func show() { Self.shown.append("\(title): \(message)") }

    /// Forgets the alerts shown (between tests).
    public static func reset() { shown = [] }
}

/// An app delegate following the guide's snippets.
public final class GuideAppDelegate: NSObject, AppConnectDelegate {
    /// "The class has an instance property called appConnect for saving the AppConnect singleton."
    public var appConnect: AppConnect?
    /// The "initializing" message on screen, if any.
    public private(set) var initializingMessage: String?
    /// How many times the app applied the policies.
    public private(set) var policyUpdates = 0
    /// The configuration the app applied.
    public private(set) var appliedConfig: [AnyHashable: Any] = [:]

    public override init() { super.init() }

    /// `-application:didFinishLaunchingWithOptions:`.
    public func applicationDidFinishLaunching(withOptions launchOptions: [AnyHashable: Any]?) {
        AppConnect.initWith(self)
        self.appConnect = AppConnect.sharedInstance()
        self.appConnect?.start(launchOptions: launchOptions)
    }

    /// `-applicationDidBecomeActive:`.
    public func applicationDidBecomeActive() {
        if self.appConnect?.isReady == true {
            self.updateWithAppConnectPolicies()
        } else {
            self.presentAppInitializing(withMessage: NSLocalizedString("Authorizing. Please wait...", comment: ""))
        }
    }

    public func appConnectIsReady(_ appConnect: AppConnect) {
        self.updateWithAppConnectPolicies()
        self.dismissAppInitializing()
    }

    /// `-updateAppConnectPolicies` (the guide calls it `-updateWithAppConnectPolicies` too).
    func updateWithAppConnectPolicies() {
        // Check isReady since this method can be called from methods besides
        // -appConnectIsReady:
        if self.appConnect?.isReady == true {
            // Check the app's authorization, policies, and configuration status
            // and update the app appropriately.
            _ = self.appConnect?.authState
            _ = self.appConnect?.openInPolicy
            appliedConfig = self.appConnect?.config ?? [:]
            policyUpdates += 1
        }
    }

    func presentAppInitializing(withMessage message: String) { initializingMessage = message }

    func dismissAppInitializing() { initializingMessage = nil }

    public func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(ACPOLICY_APPLIED, message: "")
    }

    public func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [AnyHashable: Any]) {
        appliedConfig = newConfig
        appConnect.configApplied(ACPOLICY_APPLIED, message: "")
    }

    // The guide's sample names the parameter OpenInPolicy.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked OpenInPolicy: ACOpenInPolicy) {
        let alert = AlertView(title: "Open In not allowed",
                              message: "You are not allowed to share a document with this app.",
                              delegate: nil, cancelButtonTitle: "OK", otherButtonTitles: nil)
        alert.show()
    }
}
