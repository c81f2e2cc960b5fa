import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 11: document interaction, Quick Look and app extensions.
enum DocumentInteractionRule: RuleUnit {
    package static let listed = RuleInfo(
        "document.listed-target",
        summary: "Document interaction, Quick Look and app extensions deliver to a listed target.",
        reason: "The target app is in the whitelist.",
        source: [.guide(.openIn)],
        quote: "ACOPENINPOLICY_WHITELIST -- The application is allowed to use Open In to send documents only to apps in the whitelist.")
    static let unlisted = RuleInfo(
        "document.unlisted-target",
        summary: "Document interaction, Quick Look and app extensions give an unlisted target a dummy file with a mangled name, and call the Open In callback.",
        reason: "The target app is not listed (UNAUTHORIZED lists no app; WHITELIST only the apps in its whitelist), so it receives a dummy file it cannot open.",
        source: [.guide(.openIn)],
        quote: "the AppConnect library substitutes a dummy file with a mangled name. Therefore, the target app cannot open the file.")

    package static let rules = [listed, unlisted]

    /// Whether the Open In policy lists the target.
    package static let targetReads = TargetReads(.listed, on: [.documentInteraction, .quickLook, .appExtension])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .document = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .document(let target) = request.route else { preconditionFailure("\(request) is not document interaction") }
        return decide(target: target, document: request.document, policy)
    }

    package static func decide(target: BundleID, document: String?, _ policy: PreparedPolicy) -> Decision {
        if policy.lists(target) {
            return Decision(outcome: .allow, target: target, openInUI: policy.openInUI, rule: listed.id)
        }
        return Decision(outcome: .substituteDummyFile, target: target, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: unlisted.id,
                        substitutedDocument: document)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        var sentences = [facts.status] + (facts.target.map { [facts.listing($0)] } ?? [])
        if let dummy = decision.dummyFileName { sentences.append("the target receives the dummy file \(dummy) instead") }
        return sentences
    }

    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.eachTarget(.documentInteraction), .eachTarget(.quickLook), .eachTarget(.appExtension)]
    }
}
