import OpenInPolicy

/// What the Ivanti server says about the app: the values behind the AppConnect
/// instance properties, plus the drag-and-drop policy the engine reads.
///
/// The library's copy of these values is what an app reads from an
/// ``AppConnect`` once it is ready. The defaults are a managed, authorized app
/// under restrictive data loss prevention policies: Open In, pasteboard and
/// print unauthorized, secure file I/O required, no app-specific config.
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
    /// The separate drag-and-drop policy, when the server sends one (DESIGN rules 2 and 10).
    public var dragAndDropPolicy: DragAndDropPolicy?

    /// Creates a server state; see the type's summary for the defaults.
    public init(
        authState: ACAuthState = .authorized,
        authMessage: String = "",
        managedPolicy: ACManagedPolicy = .managed,
        openInPolicy: OpenInStatus = .unauthorized,
        openInWhitelist: Whitelist = .empty,
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
        self.config = config
        self.pasteboardPolicy = pasteboardPolicy
        self.printPolicy = printPolicy
        self.secureFileIOPolicy = secureFileIOPolicy
        self.secureServicesAvailability = secureServicesAvailability
        self.logLevel = logLevel
        self.dragAndDropPolicy = dragAndDropPolicy
    }

    /// Applies one change.
    public mutating func apply(_ change: ServerChange) {
        switch change {
        case .authState(let state, let message):
            authState = state
            authMessage = message
        case .managedPolicy(let policy): managedPolicy = policy
        case .openInPolicy(let policy, let whitelist):
            openInPolicy = policy
            openInWhitelist = whitelist
        case .config(let values): config = values
        case .pasteboardPolicy(let policy): pasteboardPolicy = policy
        case .printPolicy(let policy): printPolicy = policy
        case .secureFileIOPolicy(let policy): secureFileIOPolicy = policy
        case .secureServicesAvailability(let availability): secureServicesAvailability = availability
        case .logLevel(let level): logLevel = level
        case .dragAndDropPolicy(let policy): dragAndDropPolicy = policy
        }
    }

    /// The change callbacks that tell an app at `previous` (or a new app, when
    /// `nil`) about this state, in delivery order: only the values that differ,
    /// all of them the first time.
    ///
    /// The order is our choice (the seeds give none): authorization first,
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
}
