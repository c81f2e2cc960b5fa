/// Decides share requests under one policy: the rules in order, first match decides.
///
/// The evaluator is pure: it reads no files and keeps no state, so one value
/// can be shared by any number of tasks. Requests and policies are validated
/// when they are built, so ``decide(_:)`` cannot fail.
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
    let prepared: PreparedPolicy

    /// Creates an evaluator for `policy`.
    /// - Complexity: O(n) in the size of the policy's lists, once; deciding is then O(1).
    public init(policy: Policy) {
        self.policy = policy
        prepared = PreparedPolicy(policy)
    }

    /// Decides one request.
    /// - Complexity: O(1) expected: a few table lookups by precomputed hashes, no heap allocation.
    public func decide(_ request: ShareRequest) -> Decision {
        let policy = prepared
        // The units of `RuleCatalog.units`, in that order, each called directly (no existential, no array):
        // rules 1 to 4 apply to every channel (rule 2 to drag and drop only); rules 5 to 10 each own a route.
        // A test checks that this decides exactly as walking `RuleCatalog.units` does.
        if NotEnforcingRule.applies(policy) { return NotEnforcingRule.decide(request, policy) }
        if case .dragAndDrop(let target) = request.route, let dragPolicy = policy.dragAndDrop {
            return DragAndDropPolicyRule.decide(target: target, dragPolicy, policy)
        }
        if EnforcementDisabledRule.applies(policy) { return EnforcementDisabledRule.decide(request, policy) }
        if AuthorizedRule.applies(policy) { return AuthorizedRule.decide(request, policy) }
        switch request.route {
        case .activityView: return ActivityViewRule.decide(policy)
        case .mailto(let url): return MailtoOpenURLRule.decide(url: url, policy)
        case .otherURL(let url): return OtherSchemeOpenURLRule.decide(url: url, policy)
        case .mailView: return MailViewRule.decide(request, policy)
        case .document(let target): return DocumentInteractionRule.decide(target: target, document: request.document, policy)
        case .dragAndDrop(let target): return DragAndDropListingRule.decide(target: target, policy)
        }
    }

    /// Decides one request given as strings.
    /// - Throws: ``InputError`` when the request is invalid; never a decision for bad input.
    public func decide(channel: String, target: String? = nil, url: String? = nil, document: String? = nil) throws(InputError) -> Decision {
        decide(try ShareRequest(channel: channel, target: target, url: url, document: document))
    }
}

/// Who receives a request that a rule allows without looking at the target.
enum Delivery {
    static func receiver(of request: ShareRequest, _ policy: PreparedPolicy) -> BundleID? {
        switch request.route {
        case .activityView(let target): target
        case .mailto: policy.thirdPartyMailApp ?? .mobileMail
        case .mailView: request.channel == .mailLink ? policy.thirdPartyMailApp ?? .mobileMail : .mobileMail
        case .otherURL(let url): policy.isOwnScheme(url) ? nil : policy.handler(for: url)
        case .document(let target), .dragAndDrop(let target): target
        }
    }
}
