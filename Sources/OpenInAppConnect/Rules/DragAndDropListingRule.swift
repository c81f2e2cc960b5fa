import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 12: drag and drop with no drag-and-drop policy follows the Open In listing.
enum DragAndDropListingRule: RuleUnit {
    package static let source: [Citation] = [.choice("Rules/drag-and-drop.md", "Our choices")]
    package static let quote = "With no drag-and-drop policy given, drag and drop follows the Open In listing."

    package static let listed = RuleInfo(
        "drag-and-drop.listed-target",
        summary: "With no drag-and-drop policy, drag and drop to a listed target is allowed.",
        reason: "No drag-and-drop policy is given, and the target is listed by the Open In policy.",
        source: source, quote: quote)
    static let unlisted = RuleInfo(
        "drag-and-drop.unlisted-target",
        summary: "With no drag-and-drop policy, drag and drop to an unlisted target is denied, with no callback.",
        reason: "No drag-and-drop policy is given, and the target is not listed by the Open In policy.",
        source: source, quote: quote)

    package static let rules = [listed, unlisted]

    /// Whether the Open In policy lists the target.
    package static let targetReads = TargetReads(.listed, on: [.dragAndDrop])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .dragAndDrop = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .dragAndDrop(let target) = request.route else { preconditionFailure("\(request) is not drag and drop") }
        return decide(target: target, policy)
    }

    package static func decide(target: BundleID, _ policy: PreparedPolicy) -> Decision {
        if policy.lists(target) {
            return Decision(outcome: .allow, target: target, openInUI: policy.openInUI, rule: listed.id)
        }
        // No callback: it reports only the "AppConnect apps only" drag-and-drop policy (Rules/drag-and-drop.md).
        return Decision(outcome: .deny, target: nil, openInUI: policy.openInUI, rule: unlisted.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        ["no drag-and-drop policy is given, so drag and drop follows the Open In listing", facts.status] + (facts.target.map { [facts.listing($0)] } ?? [])
    }

    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.eachTarget(.dragAndDrop)]
    }
}
