import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 15: printing, under the print policy (the SDK has no blocked-print callback).
enum PrintRule: RuleUnit {
    static let unauthorized = RuleInfo(
        "print.unauthorized",
        summary: "Under the print policy UNAUTHORIZED, printing is refused; the SDK has no callback for a blocked print.",
        reason: "The print policy is UNAUTHORIZED, so the app may not print.",
        source: [.header(.types, "ACPrintPolicyUnauthorized")],
        quote: "The application may not use Print.")
    static let authorized = RuleInfo(
        "print.authorized",
        summary: "Under the print policy AUTHORIZED, printing is allowed.",
        reason: "The print policy is AUTHORIZED, so the app may print.",
        source: [.header(.types, "ACPrintPolicyAuthorized")],
        quote: "The application may use Print.")

    package static let rules = [unauthorized, authorized]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .print = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision { decide(policy) }

    /// Decides a print. A policy without a print policy is refused as under
    /// UNAUTHORIZED; the entry points reject it first (``Policy/check(_:)``).
    package static func decide(_ policy: PreparedPolicy) -> Decision {
        if policy.print == .authorized {
            return Decision(outcome: .allow, target: nil, openInUI: policy.openInUI, rule: authorized.id)
        }
        return Decision(outcome: .deny, target: nil, openInUI: policy.openInUI, rule: unauthorized.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        guard let print = facts.policy.print else { return ["the policy does not set printPolicy"] }
        let status = "the print policy is \(print) (\(print.sdkName))"
        return decision.outcome == .deny ? [status, "the SDK has no callback for a blocked print: the app should hide its print command"] : [status]
    }

    /// Print reads nothing of the request: one class.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] { [.one(space.request(.print))] }
}
