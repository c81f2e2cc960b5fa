import OpenInPolicy

/// What the Ivanti server says about the app: the values behind the AppConnect
/// instance properties, plus the drag-and-drop policy the engine reads.
///
/// The library's copy of these values is what an app reads from an
/// ``AppConnect`` once it is ready. The defaults are a managed, authorized app
/// under restrictive data loss prevention policies: Open In, Open From,
/// pasteboard and print unauthorized, secure file I/O required, no
/// app-specific config, no excluded activity types.
///
/// "All AppConnect apps" (``openInAllAppConnectApps``,
/// ``openFromAllAppConnectApps``) is WHITELIST of the AppConnect apps
/// installed now: a ``SimulatedDevice`` keeps that whitelist equal to its
/// ``DeviceFacts/appConnectApps`` as they change (AppConnect for iOS SDK
/// Developer Guide: Open In policy API details: "The openInWhitelist lists
/// all the currently authorized AppConnect apps").
public struct ServerState: Sendable, Hashable {
    /// The user's authorization status.
    public var authState: ACAuthState
    /// The message that comes with the authorization status.
    public var authMessage: String
    /// Whether Ivanti manages the app.
    public var managedPolicy: ACManagedPolicy
    /// The Open In policy.
    public var openInPolicy: OpenInStatus
    /// The Open In whitelist (meaningful under WHITELIST).
    public var openInWhitelist: Whitelist
    /// Whether the server's Open In setting is "All AppConnect apps": the
    /// policy is WHITELIST and the whitelist is the device's AppConnect apps.
    public var openInAllAppConnectApps: Bool
    /// The Open From policy: which apps may send documents to this app.
    public var openFromPolicy: ACOpenFromPolicy
    /// The Open From whitelist (meaningful under WHITELIST): apps allowed to send documents to this app.
    public var openFromWhitelist: Whitelist
    /// Whether the server's Open From setting is "All AppConnect apps".
    public var openFromAllAppConnectApps: Bool
    /// The Apple activity types the app should exclude from `UIActivityViewController`, as the server sends them.
    public var excludedAppleActivityTypes: [String]
    /// The app-specific configuration: string key-value pairs, empty when none is set.
    public var config: [String: String]
    /// The pasteboard policy.
    public var pasteboardPolicy: ACPasteboardPolicy
    /// The print policy.
    public var printPolicy: ACPrintPolicy
    /// The secure file I/O policy.
    public var secureFileIOPolicy: ACSecureFileIOPolicy
    /// Whether secure services are available on the device.
    public var secureServicesAvailability: ACSecureServicesAvailability
    /// The log level the server sets for the app.
    public var logLevel: ACLogLevel
    /// The separate drag-and-drop policy, when the server sends one (Rules/drag-and-drop.md).
    public var dragAndDropPolicy: DragAndDropPolicy?
    /// The AppConnect global policy's Web DLP setting, when the server gives one (Rules/web-links.md).
    public var webDLP: WebDLPPolicy? = nil

    /// Creates a server state; see the type's summary for the defaults.
    public init(
        authState: ACAuthState = .authorized,
        authMessage: String = "",
        managedPolicy: ACManagedPolicy = .managed,
        openInPolicy: OpenInStatus = .unauthorized,
        openInWhitelist: Whitelist = .empty,
        openInAllAppConnectApps: Bool = false,
        openFromPolicy: ACOpenFromPolicy = .unauthorized,
        openFromWhitelist: Whitelist = .empty,
        openFromAllAppConnectApps: Bool = false,
        excludedAppleActivityTypes: [String] = [],
        config: [String: String] = [:],
        pasteboardPolicy: ACPasteboardPolicy = .unauthorized,
        printPolicy: ACPrintPolicy = .unauthorized,
        secureFileIOPolicy: ACSecureFileIOPolicy = .required,
        secureServicesAvailability: ACSecureServicesAvailability = .available,
        logLevel: ACLogLevel = .status,
        dragAndDropPolicy: DragAndDropPolicy? = nil
    ) {
        self.authState = authState
        self.authMessage = authMessage
        self.managedPolicy = managedPolicy
        self.openInPolicy = openInPolicy
        self.openInWhitelist = openInWhitelist
        self.openInAllAppConnectApps = openInAllAppConnectApps
        self.openFromPolicy = openFromPolicy
        self.openFromWhitelist = openFromWhitelist
        self.openFromAllAppConnectApps = openFromAllAppConnectApps
        self.excludedAppleActivityTypes = excludedAppleActivityTypes
        self.config = config
        self.pasteboardPolicy = pasteboardPolicy
        self.printPolicy = printPolicy
        self.secureFileIOPolicy = secureFileIOPolicy
        self.secureServicesAvailability = secureServicesAvailability
        self.logLevel = logLevel
        self.dragAndDropPolicy = dragAndDropPolicy
    }

    /// Applies one change.
    ///
    /// "All AppConnect apps" sets the policy to WHITELIST; the whitelist is
    /// then the device's AppConnect apps, which ``follow(appConnectApps:)``
    /// fills in (a ``SimulatedDevice`` does it after every change).
    public mutating func apply(_ change: ServerChange) {
        switch change {
        case .authState(let state, let message):
            authState = state
            authMessage = message
        case .managedPolicy(let policy): managedPolicy = policy
        case .openInPolicy(let policy, let whitelist):
            openInPolicy = policy
            openInWhitelist = whitelist
            openInAllAppConnectApps = false
        case .openInAllAppConnectApps:
            openInPolicy = .whitelist
            openInAllAppConnectApps = true
        case .openFromPolicy(let policy, let whitelist):
            openFromPolicy = policy
            openFromWhitelist = whitelist
            openFromAllAppConnectApps = false
        case .openFromAllAppConnectApps:
            openFromPolicy = .whitelist
            openFromAllAppConnectApps = true
        case .excludedAppleActivityTypes(let types): excludedAppleActivityTypes = types
        case .config(let values): config = values
        case .pasteboardPolicy(let policy): pasteboardPolicy = policy
        case .printPolicy(let policy): printPolicy = policy
        case .secureFileIOPolicy(let policy): secureFileIOPolicy = policy
        case .secureServicesAvailability(let availability): secureServicesAvailability = availability
        case .logLevel(let level): logLevel = level
        case .dragAndDropPolicy(let policy): dragAndDropPolicy = policy
        case .webDLP(let setting): webDLP = setting
        }
    }

    /// Makes the whitelists of "All AppConnect apps" settings the AppConnect apps installed now.
    public mutating func follow(appConnectApps apps: Set<BundleID>) {
        if openInAllAppConnectApps {
            openInPolicy = .whitelist
            openInWhitelist = Whitelist(apps)
        }
        if openFromAllAppConnectApps {
            openFromPolicy = .whitelist
            openFromWhitelist = Whitelist(apps)
        }
    }

    /// What the library holds after `-retire`: the authState ACAUTHSTATE_RETIRED
    /// with ``retiredMessage``, the managed policy ACMANAGEDPOLICY_UNKNOWN, and
    /// every other policy at its default (AppConnectInterface.h, `-retire`).
    ///
    /// The header does not name the defaults; ours fail closed (the type's
    /// defaults): Open In and Open From UNAUTHORIZED with empty whitelists,
    /// pasteboard and print UNAUTHORIZED, secure file I/O REQUIRED, no
    /// app-specific config (the header: retiring "erases any secure
    /// information in the policies, such as certificates or passwords in the
    /// configuration"), no excluded activity types, no drag-and-drop policy.
    /// Secure services availability and the log level are not policies: they
    /// stay as they were.
    func retired() -> ServerState {
        ServerState(authState: .retired, authMessage: ServerState.retiredMessage, managedPolicy: .unknown,
                    secureServicesAvailability: secureServicesAvailability, logLevel: logLevel)
    }

    /// The authMessage after `-retire`: the header says only that it states the app retired itself.
    public static let retiredMessage = "The application has retired itself."

    /// The change callbacks that tell an app at `previous` (or a new app, when
    /// `nil`) about this state, in delivery order: only the values that differ,
    /// all of them the first time.
    ///
    /// The order is our choice (the guide gives none): authorization first,
    /// then the managed policy a dual-mode app waits for, then config and the
    /// data loss prevention policies, then secure services and the log level.
    func changeCallbacks(since previous: ServerState?) -> [DelegateCallback] {
        var callbacks: [DelegateCallback] = []
        func differs<Value: Equatable>(_ value: (ServerState) -> Value) -> Bool {
            previous.map { value($0) != value(self) } ?? true
        }
        if differs(\.authState) || differs(\.authMessage) {
            callbacks.append(.authStateChanged(authState, message: authMessage))
        }
        if differs(\.managedPolicy) { callbacks.append(.managedPolicyChanged(managedPolicy)) }
        if differs(\.config) { callbacks.append(.configChanged(config)) }
        if differs(\.openInPolicy) || differs(\.openInWhitelist) {
            callbacks.append(.openInPolicyChanged(openInPolicy, whitelist: openInWhitelist))
        }
        if differs(\.openFromPolicy) || differs(\.openFromWhitelist) {
            callbacks.append(.openFromPolicyChanged(openFromPolicy, whitelist: openFromWhitelist))
        }
        if differs(\.pasteboardPolicy) { callbacks.append(.pasteboardPolicyChanged(pasteboardPolicy)) }
        if differs(\.printPolicy) { callbacks.append(.printPolicyChanged(printPolicy)) }
        if differs(\.secureServicesAvailability) {
            callbacks.append(.secureServicesAvailabilityChanged(secureServicesAvailability))
        }
        if differs(\.secureFileIOPolicy) { callbacks.append(.secureFileIOPolicyChanged(secureFileIOPolicy)) }
        if differs(\.logLevel) { callbacks.append(.logLevelChanged(logLevel)) }
        return callbacks
    }
}

/// One change the server (or the device) makes to a ``ServerState``.
public enum ServerChange: Sendable, Hashable {
    /// A new authorization status and message.
    case authState(ACAuthState, message: String)
    /// A new managed policy.
    case managedPolicy(ACManagedPolicy)
    /// A new Open In policy with its whitelist (they change together).
    case openInPolicy(OpenInStatus, whitelist: Whitelist)
    /// The Open In setting "All AppConnect apps": WHITELIST of the device's AppConnect apps, as they change.
    case openInAllAppConnectApps
    /// A new Open From policy with its whitelist (they change together).
    case openFromPolicy(ACOpenFromPolicy, whitelist: Whitelist)
    /// The Open From setting "All AppConnect apps": WHITELIST of the device's AppConnect apps, as they change.
    case openFromAllAppConnectApps
    /// A new list of Apple activity types to exclude from the activity view (no change callback in the SDK).
    case excludedAppleActivityTypes([String])
    /// A new app-specific configuration (the whole dictionary).
    case config([String: String])
    /// A new pasteboard policy.
    case pasteboardPolicy(ACPasteboardPolicy)
    /// A new print policy.
    case printPolicy(ACPrintPolicy)
    /// A new secure file I/O policy.
    case secureFileIOPolicy(ACSecureFileIOPolicy)
    /// Secure services become available or unavailable on the device.
    case secureServicesAvailability(ACSecureServicesAvailability)
    /// A new log level.
    case logLevel(ACLogLevel)
    /// A new drag-and-drop policy, or none.
    case dragAndDropPolicy(DragAndDropPolicy?)
    /// A new Web DLP setting, or none (no SDK property or callback: the library applies it to web links).
    case webDLP(WebDLPPolicy?)
}
