import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 5: the server's app-specific config turns Open In enforcement off.
enum EnforcementDisabledRule: RuleUnit {
    package static let allow = RuleInfo(
        "enforcement-disabled.allow",
        summary: "When the app config sets MI_AC_DISABLE_OPEN_IN_ENFORCEMENT to yes or true, Open In is allowed to all apps.",
        reason: "The server's app config sets MI_AC_DISABLE_OPEN_IN_ENFORCEMENT, so Open In is allowed to all apps.",
        source: [.choice("Rules/enforcement-off.md", "Our choices")],
        quote: "The server's app-specific configuration key MI_AC_DISABLE_OPEN_IN_ENFORCEMENT, set to yes or true in any case, allows Open In to all apps.")

    package static let rules = [allow]

    package static func applies(_ policy: PreparedPolicy) -> Bool { policy.enforcementDisabled }

    /// The Open In channels only: Open From, copy and print have controls of their own (rules 13 to 17).
    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool { applies(policy) && request.channel.isOpenIn }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .allow, target: Delivery.receiver(of: request, policy), openInUI: .enabled, rule: allow.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let key = AppConfig.disableOpenInEnforcementKey
        return ["the app config sets \(key) to '\(facts.policy.config[key] ?? "")'"] + facts.webDLPNotGiven
    }
}
