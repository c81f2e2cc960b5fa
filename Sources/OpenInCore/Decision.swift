import OpenInKit

/// What happens to a share request (the brief's words).
public enum Outcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Delivered to the requested target.
    case allow
    /// Delivered to another app: Email+.
    case redirect
    /// The target receives a dummy file with a mangled name, so it cannot open it.
    case substituteDummyFile = "substitute-dummy-file"
    /// Nothing is delivered.
    case deny
    /// Delivered, encrypted by Intune: only apps managed by an Intune app protection policy can
    /// read it; any other app receives a file it cannot open.
    case deliverEncrypted = "deliver-encrypted"

    /// Reads an outcome from its name.
    public init?(parsing text: String) { self.init(rawValue: text) }

    public var description: String { rawValue }
}

/// What the app should do with its Open In menu items (Table 11 of the AppConnect for iOS SDK Developer Guide, Open In policy API details).
public enum OpenInUI: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Enable the Open In user interface.
    case enabled
    /// Disable the Open In user interface.
    case disabled

    public var description: String { rawValue }
}

/// A delegate callback the AppConnect library calls, with its argument.
///
/// The library calls it only if the app implements it; a decision lists what
/// the library would call.
public enum Callback: Sendable, Hashable, CustomStringConvertible {
    /// `appConnect:openInAttemptedWhenACOpenInPolicyBlocked:` with the current policy.
    case openInAttemptedWhenBlocked(OpenInStatus)
    /// `appConnect:openURLAttemptedWhenUnauthorizedForURL:` with the URL.
    case openURLAttemptedWhenUnauthorized(ShareURL)
    /// `appConnectAttemptedDragAndDropToNonAppConnectApp:`.
    case dragAndDropToNonAppConnectApp
    /// `appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:` with the
    /// current Open From policy and the sending app (`nil` when unknown, as the header allows).
    case openFromAttemptedWhenBlocked(OpenFromStatus, source: BundleID?)
    /// `appConnect:copyAttemptedWhenUnauthorized:` with the current pasteboard policy.
    case copyAttemptedWhenUnauthorized(PasteboardPolicy)

    /// The SDK selector.
    public var selector: String {
        switch self {
        case .openInAttemptedWhenBlocked: "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:"
        case .openURLAttemptedWhenUnauthorized: "appConnect:openURLAttemptedWhenUnauthorizedForURL:"
        case .dragAndDropToNonAppConnectApp: "appConnectAttemptedDragAndDropToNonAppConnectApp:"
        case .openFromAttemptedWhenBlocked: "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:"
        case .copyAttemptedWhenUnauthorized: "appConnect:copyAttemptedWhenUnauthorized:"
        }
    }

    /// The selector's distinguishing name, as tables write it (`openInAttemptedWhenACOpenInPolicyBlocked`).
    public var name: String {
        switch self {
        case .openInAttemptedWhenBlocked: "openInAttemptedWhenACOpenInPolicyBlocked"
        case .openURLAttemptedWhenUnauthorized: "openURLAttemptedWhenUnauthorizedForURL"
        case .dragAndDropToNonAppConnectApp: "appConnectAttemptedDragAndDropToNonAppConnectApp"
        case .openFromAttemptedWhenBlocked: "openFromAttemptedWhenACOpenFromPolicyBlocked"
        case .copyAttemptedWhenUnauthorized: "copyAttemptedWhenUnauthorized"
        }
    }

    /// The table form: `name(argument)` or `name(policy, source)` (`nil` for an
    /// unknown source), or the bare name when there is no argument.
    public var description: String {
        switch self {
        case .openInAttemptedWhenBlocked(let status): "\(name)(\(status))"
        case .openURLAttemptedWhenUnauthorized(let url): "\(name)(\(url.rawValue))"
        case .dragAndDropToNonAppConnectApp: name
        case .openFromAttemptedWhenBlocked(let status, let source): "\(name)(\(status), \(source?.rawValue ?? "nil"))"
        case .copyAttemptedWhenUnauthorized(let policy): "\(name)(\(policy))"
        }
    }
}

/// The answer for one share request: what happens, why, and what the app sees.
public struct Decision: Sendable, Hashable {
    /// What happens to the request.
    public let outcome: Outcome
    /// The app that receives something (the request's target, native Mail, Email+,
    /// or the URL's handler), or `nil` when nothing is delivered or the receiver is unknown.
    public let target: BundleID?
    /// The callback the library calls, if any (at most one per decision).
    public let callback: Callback?
    /// Who can read what an allowed `copy` puts on the pasteboard; `nil` for every other decision.
    public let audience: CopyAudience?
    /// What the app should do with its Open In user interface.
    public let openInUI: OpenInUI
    /// The rule that decided.
    public let rule: RuleID
    /// The original file's name when a dummy file is substituted; the dummy name is made from it on demand.
    @usableFromInline package let substitutedDocument: String?

    @inlinable
    package init(outcome: Outcome, target: BundleID?, callback: Callback? = nil, audience: CopyAudience? = nil, openInUI: OpenInUI, rule: RuleID, substitutedDocument: String? = nil) {
        self.outcome = outcome
        self.target = target
        self.callback = callback
        self.audience = audience
        self.openInUI = openInUI
        self.rule = rule
        self.substitutedDocument = substitutedDocument
    }

    /// The callbacks the library calls, in order (empty or one).
    public var callbacks: [Callback] { callback.map { [$0] } ?? [] }

    /// One sentence saying why: the deciding rule's reason.
    public var reason: String { rule.info.reason }
}
