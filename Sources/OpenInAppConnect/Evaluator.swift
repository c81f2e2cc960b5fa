import OpenInCore
import OpenInFleet
import OpenInKit

/// Decides share requests under one policy: the rules in order, first match decides.
///
/// The evaluator is pure: it reads no files and keeps no state, so one value
/// can be shared by any number of tasks. Requests and policies are validated
/// when they are built, so ``decide(_:)`` cannot fail. The one check left is
/// between the two: a request on `open-from`, `copy` or `print` needs the
/// policy to set that channel's control; ``decideOrThrow(_:)`` makes its absence
/// an error, and ``decide(_:)`` then refuses the request. The names say which is which:
/// `decide` always answers, `decideOrThrow` throws.
///
/// ```swift
/// let policy = Policy(status: .whitelist, whitelist: Whitelist([.mailActivity, .mobileMail]))
/// let request = try ShareRequest(channel: "open-url", url: "mailto:a@example.com")
/// let decision = Evaluator(policy: policy).decide(request)   // allow, rule mailto.mail-allowed
/// ```
public struct Evaluator: Sendable {
    /// The policy requests are decided under.
    public let policy: Policy
    /// The same policy with what the rules ask worked out once.
    package let prepared: PreparedPolicy

    /// Creates an evaluator for `policy`.
    /// - Complexity: O(n) in the size of the policy's lists, once; deciding is then O(1).
    public init(policy: Policy) {
        self.policy = policy
        prepared = PreparedPolicy(policy)
    }

    /// Decides one request; never throws (a request on a channel whose control the policy does not
    /// set is refused: use ``decideOrThrow(_:)`` to make that an error).
    /// - Complexity: O(1) expected: a few table lookups by precomputed hashes, no heap allocation.
    public func decide(_ request: ShareRequest) -> Decision { Self.decide(request, prepared) }

    /// Decides `request` under the prepared `policy`: what ``decide(_:)`` does, for a caller that
    /// keeps only the prepared policy (a reference) and so copies no ``Policy`` per request.
    /// Always inlined: ``decide(_:)`` compiles to the same code as when the body was its own.
    @inline(__always)
    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        // The units of `RuleCatalog.units`, in that order, each called directly (no existential, no array):
        // rule 1 applies to every channel, rule 2 to drag and drop only, rule 3 to web addresses under a
        // Web DLP setting, rule 4 to excluded share-sheet activities; rules 5 and 6 to every Open In channel;
        // rules 7 to 17 each own a route.
        // A test checks that this decides exactly as walking `RuleCatalog.units` does.
        if NotEnforcingRule.applies(policy) { return NotEnforcingRule.decide(request, policy) }
        if case .dragAndDrop(let target) = request.route, let dragPolicy = policy.dragAndDrop {
            return DragAndDropPolicyRule.decide(target: target, dragPolicy, policy)
        }
        if let setting = policy.webDLP, case .otherURL(let url) = request.route, url.isWeb {
            return WebDLPRule.decide(url: url, setting, policy)
        }
        if policy.excludesActivities, case .activityView(let target?) = request.route, policy.excludes(activity: target) {
            return ExcludedActivityRule.decide(policy)
        }
        // Rules 5 and 6 concern the Open In channels only: Open From, copy, print, paste and keyboards (rules 13 to 17)
        // have controls of their own. The channel is looked at only when one of them applies.
        if EnforcementDisabledRule.applies(policy), request.channel.isOpenIn { return EnforcementDisabledRule.decide(request, policy) }
        if AuthorizedRule.applies(policy), request.channel.isOpenIn { return AuthorizedRule.decide(request, policy) }
        switch request.route {
        case .activityView: return ActivityViewRule.decide(policy)
        case .mailto(let url): return MailtoOpenURLRule.decide(url: url, policy)
        case .otherURL(let url): return OtherSchemeOpenURLRule.decide(url: url, policy)
        case .mailView: return MailViewRule.decide(request, policy)
        case .document(let target): return DocumentInteractionRule.decide(target: target, document: request.document, policy)
        case .dragAndDrop(let target): return DragAndDropListingRule.decide(target: target, policy)
        case .openFrom(let source): return OpenFromRule.decide(source: source, policy)
        case .copy(let target): return CopyRule.decide(target: target, policy)
        case .print: return PrintRule.decide(policy)
        case .paste: return PasteRule.decide(policy)
        case .keyboard(let keyboard): return KeyboardRule.decide(keyboard: keyboard, policy)
        }
    }

    /// Decides one request given as strings, or throws: the request is validated first, then
    /// checked against the policy as ``decideOrThrow(_:)`` checks it.
    /// - Throws: ``InputError`` when the request is invalid, or when it is on a channel
    ///   whose control the policy does not set (``Policy/check(_:)``); never a decision for bad input.
    public func decideOrThrow(channel: String, target: String? = nil, url: String? = nil, source: String? = nil, document: String? = nil) throws(InputError) -> Decision {
        try decideOrThrow(try ShareRequest(channel: channel, target: target, url: url, source: source, document: document))
    }

    /// Decides one request, or throws when the policy does not set the control its channel needs.
    ///
    /// ``decide(_:)`` never allows a request on `open-from`, `copy` or `print` under a
    /// policy that does not set that control (it refuses it as under UNAUTHORIZED);
    /// this method makes that case the error it is.
    /// - Throws: ``InputError/policyKeyNotSet(_:_:)`` naming the missing policy key.
    public func decideOrThrow(_ request: ShareRequest) throws(InputError) -> Decision {
        try policy.check(request)
        return decide(request)
    }

    /// Decides one request given as strings (renamed ``decideOrThrow(channel:target:url:source:document:)``:
    /// every method named `decide` answers, every method that throws says so).
    @available(*, deprecated, renamed: "decideOrThrow(channel:target:url:source:document:)")
    public func decide(channel: String, target: String? = nil, url: String? = nil, source: String? = nil, document: String? = nil) throws(InputError) -> Decision {
        try decideOrThrow(channel: channel, target: target, url: url, source: source, document: document)
    }

    /// Decides one request after checking the policy (renamed ``decideOrThrow(_:)``).
    @available(*, deprecated, renamed: "decideOrThrow(_:)")
    public func decision(for request: ShareRequest) throws(InputError) -> Decision {
        try decideOrThrow(request)
    }
}

/// Who receives a request that a rule allows without looking at the target.
enum Delivery {
    package static func receiver(of request: ShareRequest, _ policy: PreparedPolicy) -> BundleID? {
        switch request.route {
        case .activityView(let target): target
        case .mailto: policy.thirdPartyMailApp ?? .mobileMail
        case .mailView: request.channel == .mailLink ? policy.thirdPartyMailApp ?? .mobileMail : .mobileMail
        case .otherURL(let url): policy.isOwnScheme(url) ? nil : policy.handler(for: url)
        case .document(let target), .dragAndDrop(let target): target
        case .copy(let target), .keyboard(let target): target
        case .openFrom, .print, .paste: nil
        }
    }
}
