import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 16: pasting into this app; the app's own pasteboard policy does not govern it.
enum PasteRule: RuleUnit {
    static let notRestricted = RuleInfo(
        "paste.not-restricted",
        summary: "Pasting into the app is allowed: the app's pasteboard policy governs what it copies out, not what it pastes in.",
        reason: "The pasteboard policy does not restrict what is pasted into this app.",
        source: [.guide(.pasteboard), .choice("Rules/keyboards-and-paste.md", "Our choices")],
        quote: "This policy does not impact whether your app is allowed to paste content from the pasteboard into your app.")

    package static let rules = [notRestricted]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .paste = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision { decide(policy) }

    package static func decide(_ policy: PreparedPolicy) -> Decision {
        Decision(outcome: .allow, target: nil, openInUI: policy.openInUI, rule: notRestricted.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let pasteboard = facts.policy.pasteboard.map { "the pasteboard policy is \($0) (\($0.sdkName)), which concerns what this app copies out" }
            ?? "the policy does not set pasteboardPolicy, and a paste does not need it"
        let source = facts.request.source.map { "the copy comes from \($0); whether that app lets its copy be read here is its own policy (openin-check fleet decides it)" }
            ?? "the request names no source app (--source or \"source\")"
        return [pasteboard, "the pasteboard policy does not impact pasting into the app", source]
    }

    /// A paste decides without looking at its source: one class without one, one with.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.paste)), .one(space.request(.paste, source: space.freshTarget))]
    }
}
