import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 2: drag and drop under the server's own drag-and-drop policy.
enum DragAndDropPolicyRule: RuleUnit {
    package static let source: [Citation] = [.guide(.dragAndDrop), .header(.appConnectInterface, "-appConnectAttemptedDragAndDropToNonAppConnectApp:")]
    package static let quote = "Notification that the end user attempted to share content using drag and drop to non-AppConnect apps when the policy restricts sharing only to AppConnect apps."

    package static let all = RuleInfo(
        "drag-and-drop.policy-all",
        summary: "Under the drag-and-drop policy 'all', drag and drop to any app is allowed.",
        reason: "The drag-and-drop policy allows dragging to all apps.",
        source: source, quote: quote)
    package static let none = RuleInfo(
        "drag-and-drop.policy-none",
        summary: "Under the drag-and-drop policy 'none', drag and drop is denied, with no callback.",
        reason: "The drag-and-drop policy allows dragging to no app.",
        source: [.choice("Rules/drag-and-drop.md", "Our choices"), .guide(.dragAndDrop)],
        quote: "Under the policy none, a drag is denied with no callback.")
    package static let appConnectApp = RuleInfo(
        "drag-and-drop.policy-appconnect-app",
        summary: "Under the drag-and-drop policy 'appconnect', drag and drop to an AppConnect app is allowed.",
        reason: "The drag-and-drop policy allows dragging to AppConnect apps, and the target is one.",
        source: source, quote: quote)
    static let nonAppConnectApp = RuleInfo(
        "drag-and-drop.policy-non-appconnect-app",
        summary: "Under the drag-and-drop policy 'appconnect', drag and drop to any other app is denied with the drag-and-drop callback.",
        reason: "The drag-and-drop policy allows dragging to AppConnect apps only, and the target is not one.",
        source: source, quote: quote)

    package static let rules = [all, none, appConnectApp, nonAppConnectApp]

    /// Under "AppConnect apps only", whether the target is one.
    package static let targetReads = TargetReads(.appConnectApp, on: [.dragAndDrop])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .dragAndDrop = request.route, policy.dragAndDrop != nil { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .dragAndDrop(let target) = request.route, let dragPolicy = policy.dragAndDrop else {
            preconditionFailure("\(request) is not drag and drop under a drag-and-drop policy")
        }
        return decide(target: target, dragPolicy, policy)
    }

    /// Decides drag and drop to `target` under the server's drag-and-drop policy `dragPolicy`.
    package static func decide(target: BundleID, _ dragPolicy: DragAndDropPolicy, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        switch dragPolicy {
        case .all:
            return Decision(outcome: .allow, target: target, openInUI: ui, rule: all.id)
        case .none:
            // No callback: it reports only the "AppConnect apps only" policy (Rules/drag-and-drop.md).
            return Decision(outcome: .deny, target: nil, openInUI: ui, rule: none.id)
        case .appConnect:
            if policy.isAppConnectApp(target) {
                return Decision(outcome: .allow, target: target, openInUI: ui, rule: appConnectApp.id)
            }
            return Decision(outcome: .deny, target: nil, callback: .dragAndDropToNonAppConnectApp, openInUI: ui, rule: nonAppConnectApp.id)
        }
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        switch decision.rule {
        case all.id: return ["the server's drag-and-drop policy is 'all'"]
        case none.id: return ["the server's drag-and-drop policy is 'none'"]
        default: return ["the server's drag-and-drop policy is 'appconnect'"] + (facts.target.map { [facts.appConnectMembership($0)] } ?? [])
        }
    }

    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.eachTarget(.dragAndDrop)]
    }
}
