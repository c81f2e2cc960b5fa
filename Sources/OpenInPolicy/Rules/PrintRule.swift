/// Rule 13: printing, under the print policy (the SDK has no blocked-print callback).
enum PrintRule: DecisionRule {
    static let unauthorized = RuleInfo(
        "print.unauthorized", step: 13,
        summary: "Under the print policy UNAUTHORIZED, printing is refused; the SDK has no callback for a blocked print.",
        reason: "The print policy is UNAUTHORIZED, so the app may not print.",
        source: "ACTypes.h, ACPrintPolicyUnauthorized",
        quote: "The application may not use Print.")
    static let authorized = RuleInfo(
        "print.authorized", step: 13,
        summary: "Under the print policy AUTHORIZED, printing is allowed.",
        reason: "The print policy is AUTHORIZED, so the app may print.",
        source: "ACTypes.h, ACPrintPolicyAuthorized",
        quote: "The application may use Print.")

    static let rules = [unauthorized, authorized]

    /// Decides a print. A policy without a print policy is refused as under
    /// UNAUTHORIZED; the entry points reject it first (``Policy/check(_:)``).
    static func decide(_ policy: PreparedPolicy) -> Decision {
        if policy.print == .authorized {
            return Decision(outcome: .allow, target: nil, openInUI: policy.openInUI, rule: authorized.id)
        }
        return Decision(outcome: .deny, target: nil, openInUI: policy.openInUI, rule: unauthorized.id)
    }
}
