internal import AppConnectRuntime
import Foundation

/// `AppConnectDelegate` (AppConnectInterface.h: `@protocol AppConnectDelegate <NSObject>`): the app's side of
/// the library, with the SDK's Swift names, labels and types.
///
/// The two `@required` methods are requirements without defaults. Every
/// `@optional` method has a default implementation here (Swift on Linux has no
/// `@objc optional`): the default tells the double "the app does not implement
/// this", and the double then does what the SDK does for a missing method: a
/// change callback is acknowledged `ACPolicyState.unsupported` with a standard
/// message, a notification is dropped. The test harness lists every delivered
/// callback that reached a default, so a method whose name is right but whose
/// signature is not (`configChangedTo newConfig: [String: Any]`) is reported,
/// never silently passed over.
///
/// Implement the optional methods in the class that declares the conformance:
/// Swift dispatches a protocol requirement through the conforming class, so an
/// optional method declared only in a subclass is never called (the SDK, through
/// the Objective-C runtime, would call it).
public protocol AppConnectDelegate: NSObjectProtocol {
    /// `- (void)appConnectIsReady:(AppConnect *)appConnect;` (required): the properties are readable now.
    func appConnectIsReady(_ appConnect: AppConnect)
    /// `- (void)appConnect:authStateChangedTo:withMessage:` (required): answer with
    /// ``AppConnect/authStateApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?)

    /// `- (void)appConnect:managedPolicyChangedTo:` (optional; dual-mode apps).
    func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy)
    /// `- (void)appConnect:configChangedTo:(NSDictionary *)` (optional): answer with ``AppConnect/configApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [AnyHashable: Any])
    /// `- (void)appConnect:openInPolicyChangedTo:whitelist:` (optional): answer with
    /// ``AppConnect/openInPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>)
    /// `- (void)appConnect:openFromPolicyChangedTo:whitelist:` (optional): answer with
    /// ``AppConnect/openFromPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Set<String>)
    /// `- (void)appConnect:pasteboardPolicyChangedTo:` (optional): answer with
    /// ``AppConnect/pasteboardPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy)
    /// `- (void)appConnect:printPolicyChangedTo:` (optional): answer with ``AppConnect/printPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy)
    /// `- (void)appConnect:secureFileIOPolicyChangedTo:` (optional): answer with
    /// ``AppConnect/secureFileIOPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy)
    /// `- (void)appConnect:logLevelChangedTo:` (optional).
    func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel)
    /// `- (void)appConnect:secureServicesAvailabilityChangedTo:` (optional).
    func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo secureServicesAvailability: ACSecureServicesAvailability)
    /// `- (void)appConnect:copyAttemptedWhenUnauthorized:` (optional): the user tapped Copy under an unauthorized policy.
    func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy)
    /// `- (void)appConnect:openURLAttemptedWhenUnauthorizedForURL:(NSURL *)` (optional; Swift drops the
    /// trailing `URL`, which repeats the parameter's type).
    func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedFor openURL: URL)
    /// `- (void)appConnect:openInAttemptedWhenACOpenInPolicyBlocked:` (optional): a share was blocked.
    func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: ACOpenInPolicy)
    /// `- (void)appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:` (optional).
    func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                    sourceApplication sourceApplicationId: String?)
    /// `- (void)appConnectAttemptedDragAndDropToNonAppConnectApp:` (optional).
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect)
    /// `- (void)applicationWillResignActiveForAppConnect:` (optional): AppConnect is about to show its own UI.
    func applicationWillResignActiveForAppConnect(_ appConnect: AppConnect)
    /// `- (void)applicationDidBecomeActiveFromAppConnect:` (optional): AppConnect's UI is gone.
    func applicationDidBecomeActiveFromAppConnect(_ appConnect: AppConnect)
}

// The `@optional` methods: each default tells the runtime that the app has no
// method for the callback it is delivering (the runtime's delivery probe), so the
// runtime acknowledges UNSUPPORTED and records the delivery as not implemented.
extension AppConnectDelegate {
    public func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [AnyHashable: Any]) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy,
                           whitelist newWhitelist: Set<String>) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy,
                           whitelist newWhitelist: Set<String>) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect,
                           secureServicesAvailabilityChangedTo secureServicesAvailability: ACSecureServicesAvailability) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedFor openURL: URL) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: ACOpenInPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                           sourceApplication sourceApplicationId: String?) {
        DeliveryProbe.notImplemented()
    }
    public func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
    public func applicationWillResignActiveForAppConnect(_ appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
    public func applicationDidBecomeActiveFromAppConnect(_ appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
}
