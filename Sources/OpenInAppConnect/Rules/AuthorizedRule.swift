import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 6: AUTHORIZED allows every Open In channel.
enum AuthorizedRule: RuleUnit {
    package static let allow = RuleInfo(
        "authorized.allow",
        summary: "Under AUTHORIZED the library performs no Open In actions: every Open In channel is allowed.",
        reason: "The Open In policy is AUTHORIZED, so the library performs no actions on Open In.",
        source: [.guide(.openIn)],
        quote: "The AppConnect library performs no actions on Open In behavior.")

    package static let rules = [allow]

    package static func applies(_ policy: PreparedPolicy) -> Bool { policy.status == .authorized }

    /// The Open In channels only: Open From, copy and print have controls of their own (rules 13 to 17).
    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool { applies(policy) && request.channel.isOpenIn }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .allow, target: Delivery.receiver(of: request, policy), openInUI: .enabled, rule: allow.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] { [facts.status] + facts.webDLPNotGiven }
}
