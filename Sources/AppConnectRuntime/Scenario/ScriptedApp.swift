import OpenInPolicy

/// The app of a scenario: implements what its ``AppProfile`` says and
/// answers each change as scripted (ACPOLICY_APPLIED by default).
public final class ScriptedApp: AppConnectDelegate {
    /// How the app answers a change callback it implements.
    public enum Reply: Sendable, Hashable {
        /// Calls the acknowledgment at once with this state and message.
        case acknowledge(ACPolicyState, String)
        /// Does not acknowledge (the scenario's `ack` lines do it).
        case never
    }

    /// The default reply: `ACPOLICY_APPLIED` with the message `applied`.
    public static let defaultReply = Reply.acknowledge(.applied, "applied")

    /// The optional callbacks implemented.
    public let implements: Set<DelegateCallback.Kind>
    private let replies = Locked<[AcknowledgmentKind: Reply]>([:])

    /// Creates an app implementing `implements` besides the required callbacks.
    public init(implements: Set<DelegateCallback.Kind>) { self.implements = implements }

    /// Sets how the app answers `kind` from now on.
    public func setReply(_ reply: Reply, for kind: AcknowledgmentKind) { replies.withLock { $0[kind] = reply } }

    private func handle(_ kind: DelegateCallback.Kind, _ appConnect: AppConnect) {
        guard kind.isRequired || implements.contains(kind) else {
            DeliveryProbe.notImplemented()
            return
        }
        guard let acknowledgment = kind.acknowledgment else { return }
        let reply = replies.withLock { $0[acknowledgment] } ?? ScriptedApp.defaultReply
        if case .acknowledge(let state, let message) = reply {
            try? appConnect.acknowledge(acknowledgment, state, message)
        }
    }

    public func appConnectIsReady(_ appConnect: AppConnect) { handle(.isReady, appConnect) }
    public func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {
        handle(.authStateChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        handle(.managedPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
        handle(.configChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist) {
        handle(.openInPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) {
        handle(.openInAttemptedWhenBlocked, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Whitelist) {
        handle(.openFromPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                           sourceApplication: BundleID?) {
        handle(.openFromAttemptedWhenBlocked, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL) {
        handle(.openURLAttemptedWhenUnauthorized, appConnect)
    }
    public func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) {
        handle(.dragAndDropToNonAppConnectApp, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        handle(.pasteboardPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {
        handle(.copyAttemptedWhenUnauthorized, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) {
        handle(.printPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo availability: ACSecureServicesAvailability) {
        handle(.secureServicesAvailabilityChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        handle(.secureFileIOPolicyChanged, appConnect)
    }
    public func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) {
        handle(.logLevelChanged, appConnect)
    }
    public func applicationWillResignActive(forAppConnect appConnect: AppConnect) { handle(.willResignActive, appConnect) }
    public func applicationDidBecomeActive(fromAppConnect appConnect: AppConnect) { handle(.didBecomeActive, appConnect) }
}
