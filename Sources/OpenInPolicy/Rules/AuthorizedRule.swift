/// Rule 6: AUTHORIZED allows every Open In channel.
enum AuthorizedRule: RuleUnit {
    static let allow = RuleInfo(
        "authorized.allow",
        summary: "Under AUTHORIZED the library performs no Open In actions: every Open In channel is allowed.",
        reason: "The Open In policy is AUTHORIZED, so the library performs no actions on Open In.",
        source: [.guide(.openIn)],
        quote: "The AppConnect library performs no actions on Open In behavior.")

    static let rules = [allow]

    static func applies(_ policy: PreparedPolicy) -> Bool { policy.status == .authorized }

    /// The Open In channels only: Open From, copy and print have controls of their own (rules 13 to 17).
    static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool { applies(policy) && request.channel.isOpenIn }

    static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .allow, target: Delivery.receiver(of: request, policy), openInUI: .enabled, rule: allow.id)
    }

    static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] { [facts.status] + facts.webDLPNotGiven }
}
