import OpenInPolicy

/// A callback the AppConnect library calls on the app's delegate, with its arguments.
public enum DelegateCallback: Sendable, Hashable, CustomStringConvertible {
    /// `appConnectIsReady:` (required).
    case isReady
    /// `appConnect:authStateChangedTo:withMessage:` (required).
    case authStateChanged(ACAuthState, message: String)
    /// `appConnect:managedPolicyChangedTo:`.
    case managedPolicyChanged(ACManagedPolicy)
    /// `appConnect:configChangedTo:`.
    case configChanged([String: String])
    /// `appConnect:openInPolicyChangedTo:whitelist:`.
    case openInPolicyChanged(OpenInStatus, whitelist: Whitelist)
    /// `appConnect:openInAttemptedWhenACOpenInPolicyBlocked:` with the current Open In policy.
    case openInAttemptedWhenBlocked(OpenInStatus)
    /// `appConnect:openFromPolicyChangedTo:whitelist:`.
    case openFromPolicyChanged(ACOpenFromPolicy, whitelist: Whitelist)
    /// `appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:` with the
    /// current Open From policy and the sending app (`nil` when unknown: the header's argument is nullable).
    case openFromAttemptedWhenBlocked(ACOpenFromPolicy, sourceApplication: BundleID?)
    /// `appConnect:openURLAttemptedWhenUnauthorizedForURL:` with the URL.
    case openURLAttemptedWhenUnauthorized(ShareURL)
    /// `appConnectAttemptedDragAndDropToNonAppConnectApp:`.
    case dragAndDropToNonAppConnectApp
    /// `appConnect:pasteboardPolicyChangedTo:`.
    case pasteboardPolicyChanged(ACPasteboardPolicy)
    /// `appConnect:copyAttemptedWhenUnauthorized:` with the current pasteboard policy.
    case copyAttemptedWhenUnauthorized(ACPasteboardPolicy)
    /// `appConnect:printPolicyChangedTo:`.
    case printPolicyChanged(ACPrintPolicy)
    /// `appConnect:secureServicesAvailabilityChangedTo:`.
    case secureServicesAvailabilityChanged(ACSecureServicesAvailability)
    /// `appConnect:secureFileIOPolicyChangedTo:`.
    case secureFileIOPolicyChanged(ACSecureFileIOPolicy)
    /// `appConnect:logLevelChangedTo:`.
    case logLevelChanged(ACLogLevel)
    /// `applicationWillResignActiveForAppConnect:`.
    case willResignActive
    /// `applicationDidBecomeActiveFromAppConnect:`.
    case didBecomeActive

    /// Which callback this is, without its arguments.
    public var kind: Kind {
        switch self {
        case .isReady: .isReady
        case .authStateChanged: .authStateChanged
        case .managedPolicyChanged: .managedPolicyChanged
        case .configChanged: .configChanged
        case .openInPolicyChanged: .openInPolicyChanged
        case .openInAttemptedWhenBlocked: .openInAttemptedWhenBlocked
        case .openFromPolicyChanged: .openFromPolicyChanged
        case .openFromAttemptedWhenBlocked: .openFromAttemptedWhenBlocked
        case .openURLAttemptedWhenUnauthorized: .openURLAttemptedWhenUnauthorized
        case .dragAndDropToNonAppConnectApp: .dragAndDropToNonAppConnectApp
        case .pasteboardPolicyChanged: .pasteboardPolicyChanged
        case .copyAttemptedWhenUnauthorized: .copyAttemptedWhenUnauthorized
        case .printPolicyChanged: .printPolicyChanged
        case .secureServicesAvailabilityChanged: .secureServicesAvailabilityChanged
        case .secureFileIOPolicyChanged: .secureFileIOPolicyChanged
        case .logLevelChanged: .logLevelChanged
        case .willResignActive: .willResignActive
        case .didBecomeActive: .didBecomeActive
        }
    }

    /// The SDK selector, e.g. `appConnect:configChangedTo:`.
    public var selector: String { kind.selector }

    /// The arguments after the `AppConnect` instance, as text: SDK constant
    /// names, sets and dictionaries sorted, strings quoted.
    public var arguments: [String] {
        switch self {
        case .isReady, .dragAndDropToNonAppConnectApp, .willResignActive, .didBecomeActive: []
        case .authStateChanged(let state, let message): [state.sdkName, TextForm.quoted(message)]
        case .managedPolicyChanged(let policy): [policy.sdkName]
        case .configChanged(let config): [TextForm.dictionary(config)]
        case .openInPolicyChanged(let policy, let whitelist): [policy.sdkName, TextForm.set(whitelist.ids.map(\.rawValue))]
        case .openInAttemptedWhenBlocked(let policy): [policy.sdkName]
        case .openFromPolicyChanged(let policy, let whitelist): [policy.sdkName, TextForm.set(whitelist.ids.map(\.rawValue))]
        case .openFromAttemptedWhenBlocked(let policy, let source): [policy.sdkName, source?.rawValue ?? "nil"]
        case .openURLAttemptedWhenUnauthorized(let url): [url.rawValue]
        case .pasteboardPolicyChanged(let policy), .copyAttemptedWhenUnauthorized(let policy): [policy.sdkName]
        case .printPolicyChanged(let policy): [policy.sdkName]
        case .secureServicesAvailabilityChanged(let availability): [availability.sdkName]
        case .secureFileIOPolicyChanged(let policy): [policy.sdkName]
        case .logLevelChanged(let level): [level.sdkName]
        }
    }

    /// The selector followed by its arguments.
    public var description: String { ([selector] + arguments).joined(separator: " ") }

    /// The name of a delegate callback: what an app implements or not.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `appConnectIsReady:`.
        case isReady = "appConnectIsReady"
        /// `appConnect:authStateChangedTo:withMessage:`.
        case authStateChanged = "authStateChangedTo"
        /// `appConnect:managedPolicyChangedTo:`.
        case managedPolicyChanged = "managedPolicyChangedTo"
        /// `appConnect:configChangedTo:`.
        case configChanged = "configChangedTo"
        /// `appConnect:openInPolicyChangedTo:whitelist:`.
        case openInPolicyChanged = "openInPolicyChangedTo"
        /// `appConnect:openInAttemptedWhenACOpenInPolicyBlocked:`.
        case openInAttemptedWhenBlocked = "openInAttemptedWhenACOpenInPolicyBlocked"
        /// `appConnect:openFromPolicyChangedTo:whitelist:`.
        case openFromPolicyChanged = "openFromPolicyChangedTo"
        /// `appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:`.
        case openFromAttemptedWhenBlocked = "openFromAttemptedWhenACOpenFromPolicyBlocked"
        /// `appConnect:openURLAttemptedWhenUnauthorizedForURL:`.
        case openURLAttemptedWhenUnauthorized = "openURLAttemptedWhenUnauthorizedForURL"
        /// `appConnectAttemptedDragAndDropToNonAppConnectApp:`.
        case dragAndDropToNonAppConnectApp = "appConnectAttemptedDragAndDropToNonAppConnectApp"
        /// `appConnect:pasteboardPolicyChangedTo:`.
        case pasteboardPolicyChanged = "pasteboardPolicyChangedTo"
        /// `appConnect:copyAttemptedWhenUnauthorized:`.
        case copyAttemptedWhenUnauthorized = "copyAttemptedWhenUnauthorized"
        /// `appConnect:printPolicyChangedTo:`.
        case printPolicyChanged = "printPolicyChangedTo"
        /// `appConnect:secureServicesAvailabilityChangedTo:`.
        case secureServicesAvailabilityChanged = "secureServicesAvailabilityChangedTo"
        /// `appConnect:secureFileIOPolicyChangedTo:`.
        case secureFileIOPolicyChanged = "secureFileIOPolicyChangedTo"
        /// `appConnect:logLevelChangedTo:`.
        case logLevelChanged = "logLevelChangedTo"
        /// `applicationWillResignActiveForAppConnect:`.
        case willResignActive = "applicationWillResignActiveForAppConnect"
        /// `applicationDidBecomeActiveFromAppConnect:`.
        case didBecomeActive = "applicationDidBecomeActiveFromAppConnect"

        /// The SDK selector.
        public var selector: String {
            switch self {
            case .isReady: "appConnectIsReady:"
            case .authStateChanged: "appConnect:authStateChangedTo:withMessage:"
            case .openInPolicyChanged: "appConnect:openInPolicyChangedTo:whitelist:"
            case .openFromPolicyChanged: "appConnect:openFromPolicyChangedTo:whitelist:"
            case .openFromAttemptedWhenBlocked: "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:"
            case .dragAndDropToNonAppConnectApp, .willResignActive, .didBecomeActive: rawValue + ":"
            default: "appConnect:" + rawValue + ":"
            }
        }

        /// The name as scenarios write it (the selector's distinguishing part), e.g. `configChangedTo`.
        public var name: String { rawValue }

        public var description: String { selector }

        /// Whether the app must implement it (`appConnectIsReady:` and the auth state callback).
        public var isRequired: Bool { self == .isReady || self == .authStateChanged }

        /// The acknowledgment that answers this callback, if any.
        public var acknowledgment: AcknowledgmentKind? {
            switch self {
            case .authStateChanged: .authState
            case .configChanged: .config
            case .openInPolicyChanged: .openInPolicy
            case .openFromPolicyChanged: .openFromPolicy
            case .pasteboardPolicyChanged: .pasteboardPolicy
            case .printPolicyChanged: .printPolicy
            case .secureFileIOPolicyChanged: .secureFileIOPolicy
            default: nil
            }
        }

        /// Reads a kind from its name (`configChangedTo`) or selector (`appConnect:configChangedTo:`).
        public init?(parsing text: String) {
            guard let kind = Kind.allCases.first(where: { $0.name == text || $0.selector == text }) else { return nil }
            self = kind
        }
    }
}

/// How values are written in timelines: one form everywhere, so outputs are predictable.
enum TextForm {
    /// `"text"` with `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// `[a, b]` in order (a list, not a set: the order is the server's).
    static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// `{a, b}` sorted.
    static func set(_ items: [String]) -> String { "{" + items.sorted().joined(separator: ", ") + "}" }

    /// `{KEY=value, …}` sorted by key.
    static func dictionary(_ values: [String: String]) -> String {
        "{" + values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }.joined(separator: ", ") + "}"
    }
}
