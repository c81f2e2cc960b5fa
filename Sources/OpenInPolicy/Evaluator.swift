/// Decides share requests under one policy: DESIGN's rules in order, first match decides.
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

    /// Creates an evaluator for `policy`.
    public init(policy: Policy) {
        self.policy = policy
    }

    /// Decides one request.
    /// - Complexity: O(1) expected: a few hash lookups, no heap allocation.
    public func decide(_ request: ShareRequest) -> Decision {
        // Rules 1 to 4 apply to every channel (rule 2 to drag and drop only); rules 5 to 10 each own a channel.
        if let decision = NotEnforcingRule.apply(request, policy) { return decision }
        if case .dragAndDrop(let target) = request.route, let decision = DragAndDropPolicyRule.apply(target: target, policy) {
            return decision
        }
        if let decision = EnforcementDisabledRule.apply(request, policy) { return decision }
        if let decision = AuthorizedRule.apply(request, policy) { return decision }
        switch request.route {
        case .activityView: return ActivityViewRule.decide(policy)
        case .mailto(let url): return MailtoOpenURLRule.decide(url: url, policy)
        case .otherURL(let url): return OtherSchemeOpenURLRule.decide(url: url, policy)
        case .mailView: return MailViewRule.decide(policy)
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
    static func receiver(of request: ShareRequest, _ policy: Policy) -> BundleID? {
        switch request.route {
        case .activityView(let target): target
        case .mailto, .mailView: .mobileMail
        case .otherURL(let url): policy.app.urlSchemes.contains(url.scheme) ? nil : policy.device.handler(forScheme: url.scheme)
        case .document(let target), .dragAndDrop(let target): target
        }
    }
}
