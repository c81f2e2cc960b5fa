/// Rule 5: the share sheet cannot be checked, so it is blocked for every target.
enum ActivityViewRule: DecisionRule {
    static let blocksAll = RuleInfo(
        "activity-view.blocks-all", step: 5,
        summary: "Under UNAUTHORIZED or WHITELIST, UIActivityViewController is denied for every target, listed or not.",
        reason: "The library cannot tell which app the user picks in the share sheet, so it allows Open In to no app.",
        source: "open-in-policy.txt",
        quote: "To ensure security, the AppConnect library does not allow Open In to any app when the Open In policy is ACOPENINPOLICY_WHITELIST and the class used is UIActivityViewController.")

    static let rules = [blocksAll]

    static func decide(_ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .deny, target: nil, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: blocksAll.id)
    }
}
