import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 7: the share sheet cannot be checked, so it is blocked for every target.
enum ActivityViewRule: RuleUnit {
    static let blocksAll = RuleInfo(
        "activity-view.blocks-all",
        summary: "Under UNAUTHORIZED or WHITELIST, UIActivityViewController is denied for every target, listed or not.",
        reason: "The library cannot tell which app the user picks in the share sheet, so it allows Open In to no app.",
        source: [.guide(.openIn)],
        quote: "To ensure security, the AppConnect library does not allow Open In to any app when the Open In policy is ACOPENINPOLICY_WHITELIST and the class used is UIActivityViewController.")

    package static let rules = [blocksAll]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .activityView = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision { decide(policy) }

    package static func decide(_ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .deny, target: nil, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: blocksAll.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        var sentences = [facts.status, "the share sheet (UIActivityViewController) does not tell the library which app the user picks"]
        if let target = facts.target { sentences.append("so the picked app \(target) does not matter, listed or not") }
        return sentences
    }

    /// The share sheet decides without looking at its target: one class without a target, one with.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.activityView)), .one(space.request(.activityView, target: space.freshTarget))]
    }
}
