/// Which acknowledgment method the app calls (AppConnect for iOS SDK Developer Guide: AppConnect-related notifications, "Notification acknowledgments").
public enum AcknowledgmentKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `authStateApplied:message:`; may not be ACPOLICY_UNSUPPORTED.
    case authState
    /// `configApplied:message:`.
    case config
    /// `openInPolicyApplied:message:`.
    case openInPolicy
    /// `openFromPolicyApplied:message:`.
    case openFromPolicy
    /// `pasteboardPolicyApplied:message:`.
    case pasteboardPolicy
    /// `printPolicyApplied:message:`.
    case printPolicy
    /// `secureFileIOPolicyApplied:message:`.
    case secureFileIOPolicy

    /// The SDK selector, e.g. `configApplied:message:`.
    public var selector: String { rawValue + "Applied:message:" }

    /// The name as scenarios write it: `authState`, `config`, `openInPolicy`, …
    public var name: String { rawValue }

    public var description: String { selector }

    /// The change callback this acknowledgment answers.
    public var callback: DelegateCallback.Kind {
        switch self {
        case .authState: .authStateChanged
        case .config: .configChanged
        case .openInPolicy: .openInPolicyChanged
        case .openFromPolicy: .openFromPolicyChanged
        case .pasteboardPolicy: .pasteboardPolicyChanged
        case .printPolicy: .printPolicyChanged
        case .secureFileIOPolicy: .secureFileIOPolicyChanged
        }
    }

    /// Reads a kind from its name (`config`) or selector (`configApplied:message:`).
    public init?(parsing text: String) {
        guard let kind = AcknowledgmentKind.allCases.first(where: {
            $0.name == text || $0.selector == text || $0.rawValue + "Applied" == text
        }) else { return nil }
        self = kind
    }
}

/// One acknowledgment as the server sees it: which change, how it went, and the app's message.
public struct Acknowledgment: Sendable, Hashable, CustomStringConvertible {
    /// Which acknowledgment method.
    public let kind: AcknowledgmentKind
    /// How applying the change went.
    public let state: ACPolicyState
    /// The app's explanation, reported in the server's log.
    public let message: String
    /// Whether the library made it because the app does not implement the change callback.
    public let automatic: Bool

    /// Creates an acknowledgment.
    public init(_ kind: AcknowledgmentKind, _ state: ACPolicyState, message: String, automatic: Bool = false) {
        self.kind = kind
        self.state = state
        self.message = message
        self.automatic = automatic
    }

    /// The standard message of an automatic ACPOLICY_UNSUPPORTED acknowledgment.
    public static func unsupportedMessage(for callback: DelegateCallback.Kind) -> String {
        "The app does not implement \(callback.selector)"
    }

    /// `configApplied:message: ACPOLICY_APPLIED "message"`.
    public var description: String { "\(kind.selector) \(state.sdkName) \(TextForm.quoted(message))" }
}
