import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 1: a regular (non-AppConnect) app is not restricted.
enum NotEnforcingRule: RuleUnit {
    package static let allow = RuleInfo(
        "not-enforcing.allow",
        summary: "When AppConnect is not enforcing (library not started, or Non-AppConnect Mode), every share is allowed.",
        reason: "AppConnect is not enforcing policy, so the app shares like a regular app.",
        source: [.guide(.dualMode)],
        quote: "The app begins behaving as a regular, non-AppConnect app.")

    package static let rules = [allow]

    package static func applies(_ policy: PreparedPolicy) -> Bool { !policy.enforcing }

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool { applies(policy) }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        // A regular app's copy goes to the ordinary pasteboard, readable by every app.
        Decision(outcome: .allow, target: Delivery.receiver(of: request, policy), audience: request.channel == .copy ? .allApps : nil,
                 openInUI: .enabled, rule: allow.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        ["AppConnect is not enforcing policy (enforcing is false), so the app is not restricted"]
    }
}
