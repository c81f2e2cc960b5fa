import OpenInPolicy

/// The app's side of the AppConnect library: the callbacks of the AppConnect for iOS SDK Developer Guide: AppConnect-related notifications.
///
/// Implement the two required methods and only the optional ones your app
/// needs, exactly as with the SDK's `@optional` methods: every optional method
/// has a default implementation that tells the runtime "not implemented". The
/// runtime then behaves as the library does for a missing method: a change
/// callback is acknowledged ACPOLICY_UNSUPPORTED automatically with a standard
/// message, and a blocked-attempt callback is simply not called.
///
/// ```swift
/// final class NotesApp: AppConnectDelegate {
///     func appConnectIsReady(_ appConnect: AppConnect) { /* read the properties */ }
///     func appConnect(_ appConnect: AppConnect, authStateChangedTo state: ACAuthState, withMessage message: String) {
///         try? appConnect.authStateApplied(.applied, message: "ok")
///     }
///     func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo policy: OpenInStatus, whitelist: Whitelist) {
///         appConnect.openInPolicyApplied(.applied, message: "Open In menu updated")
///     }
/// }
/// ```
///
/// Two things to know, both plain Swift:
/// - A method counts as implemented only when its signature matches the
///   requirement exactly (the compiler warns about near misses).
/// - In a class hierarchy, implement optional methods in the class that
///   declares the conformance (or a subclass override is never called: Swift
///   dispatches protocol requirements through the conforming class).
///
/// Callbacks arrive one at a time, in the order the library produced them, on
/// the thread that caused them (a server push, a check-in, a share request).
/// A delegate may call back into its ``AppConnect`` (read properties,
/// acknowledge) from a callback.
public protocol AppConnectDelegate: Sendable {
    /// `appConnectIsReady:` (required): the instance properties are readable now.
    func appConnectIsReady(_ appConnect: AppConnect)
    /// `appConnect:authStateChangedTo:withMessage:` (required): answer with ``AppConnect/authStateApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String)

    /// `appConnect:managedPolicyChangedTo:` (optional; dual-mode apps).
    func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy)
    /// `appConnect:configChangedTo:` (optional): answer with ``AppConnect/configApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String])
    /// `appConnect:openInPolicyChangedTo:whitelist:` (optional): answer with ``AppConnect/openInPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist)
    /// `appConnect:openInAttemptedWhenACOpenInPolicyBlocked:` (optional): tell the user Open In is not allowed.
    func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus)
    /// `appConnect:openFromPolicyChangedTo:whitelist:` (optional): answer with ``AppConnect/openFromPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Whitelist)
    /// `appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:` (optional): tell
    /// the user the document cannot be received; `sourceApplication` is `nil` when the sender is unknown.
    func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                    sourceApplication: BundleID?)
    /// `appConnect:openURLAttemptedWhenUnauthorizedForURL:` (optional).
    func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL)
    /// `appConnectAttemptedDragAndDropToNonAppConnectApp:` (optional).
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect)
    /// `appConnect:pasteboardPolicyChangedTo:` (optional): answer with ``AppConnect/pasteboardPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy)
    /// `appConnect:copyAttemptedWhenUnauthorized:` (optional), with the current pasteboard policy.
    func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy)
    /// `appConnect:printPolicyChangedTo:` (optional): answer with ``AppConnect/printPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy)
    /// `appConnect:secureServicesAvailabilityChangedTo:` (optional).
    func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo availability: ACSecureServicesAvailability)
    /// `appConnect:secureFileIOPolicyChangedTo:` (optional): answer with ``AppConnect/secureFileIOPolicyApplied(_:message:)``.
    func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy)
    /// `appConnect:logLevelChangedTo:` (optional).
    func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel)
    /// `applicationWillResignActiveForAppConnect:` (optional): AppConnect is about to show its own UI.
    func applicationWillResignActive(forAppConnect appConnect: AppConnect)
    /// `applicationDidBecomeActiveFromAppConnect:` (optional): AppConnect's UI is gone.
    func applicationDidBecomeActive(fromAppConnect appConnect: AppConnect)
}

// Every optional method: "not implemented". The runtime notices during delivery.
extension AppConnectDelegate {
    public func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Whitelist) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                           sourceApplication: BundleID?) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL) {
        DeliveryProbe.notImplemented()
    }
    public func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo availability: ACSecureServicesAvailability) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        DeliveryProbe.notImplemented()
    }
    public func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) {
        DeliveryProbe.notImplemented()
    }
    public func applicationWillResignActive(forAppConnect appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
    public func applicationDidBecomeActive(fromAppConnect appConnect: AppConnect) {
        DeliveryProbe.notImplemented()
    }
}

/// How the runtime tells a real implementation from a default one: it delivers
/// each callback inside a probe scope, and the defaults mark the probe.
///
/// The scope is a task-local value, bound for the synchronous duration of one
/// delivery on the delivering thread, so concurrent deliveries (on other
/// devices) never see each other's probe.
package enum DeliveryProbe {
    /// One delivery's verdict.
    final class Verdict: @unchecked Sendable {
        // Written and read only on the delivering thread, inside one synchronous call.
        var implemented = true
    }

    @TaskLocal static var current: Verdict?

    /// Marks the callback being delivered as not implemented (the protocol's defaults call this).
    package static func notImplemented() { current?.implemented = false }

    /// Calls `deliver` and reports whether the delegate implements what it called.
    static func isImplemented(_ deliver: () -> Void) -> Bool {
        let verdict = Verdict()
        $current.withValue(verdict) { deliver() }
        return verdict.implemented
    }
}

extension DelegateCallback {
    /// Calls the delegate's method for this callback.
    func deliver(to delegate: any AppConnectDelegate, from appConnect: AppConnect) {
        switch self {
        case .isReady: delegate.appConnectIsReady(appConnect)
        case .authStateChanged(let state, let message):
            delegate.appConnect(appConnect, authStateChangedTo: state, withMessage: message)
        case .managedPolicyChanged(let policy): delegate.appConnect(appConnect, managedPolicyChangedTo: policy)
        case .configChanged(let config): delegate.appConnect(appConnect, configChangedTo: config)
        case .openInPolicyChanged(let policy, let whitelist):
            delegate.appConnect(appConnect, openInPolicyChangedTo: policy, whitelist: whitelist)
        case .openInAttemptedWhenBlocked(let policy):
            delegate.appConnect(appConnect, openInAttemptedWhenACOpenInPolicyBlocked: policy)
        case .openFromPolicyChanged(let policy, let whitelist):
            delegate.appConnect(appConnect, openFromPolicyChangedTo: policy, whitelist: whitelist)
        case .openFromAttemptedWhenBlocked(let policy, let source):
            delegate.appConnect(appConnect, openFromAttemptedWhenACOpenFromPolicyBlocked: policy, sourceApplication: source)
        case .openURLAttemptedWhenUnauthorized(let url):
            delegate.appConnect(appConnect, openURLAttemptedWhenUnauthorizedForURL: url)
        case .dragAndDropToNonAppConnectApp: delegate.appConnectAttemptedDragAndDropToNonAppConnectApp(appConnect)
        case .pasteboardPolicyChanged(let policy): delegate.appConnect(appConnect, pasteboardPolicyChangedTo: policy)
        case .copyAttemptedWhenUnauthorized(let policy): delegate.appConnect(appConnect, copyAttemptedWhenUnauthorized: policy)
        case .printPolicyChanged(let policy): delegate.appConnect(appConnect, printPolicyChangedTo: policy)
        case .secureServicesAvailabilityChanged(let availability):
            delegate.appConnect(appConnect, secureServicesAvailabilityChangedTo: availability)
        case .secureFileIOPolicyChanged(let policy): delegate.appConnect(appConnect, secureFileIOPolicyChangedTo: policy)
        case .logLevelChanged(let level): delegate.appConnect(appConnect, logLevelChangedTo: level)
        case .willResignActive: delegate.applicationWillResignActive(forAppConnect: appConnect)
        case .didBecomeActive: delegate.applicationDidBecomeActive(fromAppConnect: appConnect)
        }
    }
}
