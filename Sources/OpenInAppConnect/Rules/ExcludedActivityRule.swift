import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 4: a share-sheet activity the server excludes (`excludedAppleActivityTypes`) is not offered.
package enum ExcludedActivityRule: RuleUnit {
    package static let excluded = RuleInfo(
        "activity-view.excluded-activity",
        summary: "A share-sheet activity listed in excludedAppleActivityTypes is not offered, under every Open In policy: denied, with no callback.",
        reason: "The server excludes this activity from the share sheet (excludedAppleActivityTypes), so it is not offered.",
        source: [.header(.appConnectInterface, "excludedAppleActivityTypes"), .choice("Rules/activity-view.md", "Why the library decides it, not only the app")],
        quote: "The list of Apple activities that should be excluded from UIActivityViewController")

    package static let rules = [excluded]

    /// Whether the server excludes the share sheet's target.
    package static let targetReads = TargetReads(.excludedActivity, on: [.activityView])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        guard case .activityView(let target?) = request.route else { return false }
        return policy.excludes(activity: target)
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision { decide(policy) }

    package static func decide(_ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .deny, target: nil, openInUI: policy.openInUI, rule: excluded.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let list = facts.policy.excludedActivityTypes
        let target = facts.target.map(\.rawValue) ?? "-"
        return ["the server's excludedAppleActivityTypes holds \(target) (\(facts.count(list.count, "excluded activity")))",
                "an excluded activity is not offered in the share sheet, whatever the Open In policy, so the user cannot pick it and no callback is called"]
    }

    /// The share sheet's other classes are rule 7's (with and without a target, which stand for every
    /// activity offered); each activity either policy excludes tells excluded from offered.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.eachExcludedActivity]
    }
}
