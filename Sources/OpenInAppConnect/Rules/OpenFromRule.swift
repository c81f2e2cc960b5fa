import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 13: a document another app sends to this app, under the Open From policy.
enum OpenFromRule: RuleUnit {
    static let blockedCallback: [Citation] = [.header(.appConnectInterface, "-appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:")]

    static let unauthorized = RuleInfo(
        "open-from.unauthorized",
        summary: "Under the Open From policy UNAUTHORIZED, a document from any app is refused with the Open From callback.",
        reason: "The Open From policy is UNAUTHORIZED, so this app accepts documents from no app.",
        source: blockedCallback,
        quote: "This notification is sent only when the status is ACOpenFromPolicyUnauthorized or ACOpenFromPolicyWhitelist.")
    static let authorized = RuleInfo(
        "open-from.authorized",
        summary: "Under the Open From policy AUTHORIZED, a document from any app, known or not, is accepted.",
        reason: "The Open From policy is AUTHORIZED, so this app accepts documents from every app.",
        source: [.header(.types, "ACOpenFromPolicyAuthorized")],
        quote: "The application may use Open from.")
    static let listedSource = RuleInfo(
        "open-from.listed-source",
        summary: "Under the Open From policy WHITELIST, a document from an app in the Open From whitelist is accepted (exact bundle IDs, no mail pair).",
        reason: "The sending app is in the Open From whitelist.",
        source: [.header(.types, "ACOpenFromPolicyWhitelist")],
        quote: "The application may only use Open from to receive documents from applications in the whitelist")
    static let unlistedSource = RuleInfo(
        "open-from.unlisted-source",
        summary: "Under the Open From policy WHITELIST, a document from an app not in the Open From whitelist is refused with the Open From callback.",
        reason: "The sending app is not in the Open From whitelist.",
        source: blockedCallback,
        quote: "This notification is sent only when the status is ACOpenFromPolicyUnauthorized or ACOpenFromPolicyWhitelist.")
    static let unknownSource = RuleInfo(
        "open-from.unknown-source",
        summary: "Under the Open From policy WHITELIST, a document from an unknown app is refused with the Open From callback: unknown never means listed.",
        reason: "The sending app is unknown, and an unknown app is never taken as listed.",
        source: [.choice("Rules/open-from.md", "Our choices"), .guide(.revisionHistory440)] + blockedCallback,
        quote: "An unknown source under WHITELIST is denied, as an unknown URL handler is under Open In (rule 9): the library cannot show that it is listed.")

    package static let rules = [unauthorized, authorized, listedSource, unlistedSource, unknownSource]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .openFrom = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .openFrom(let source) = request.route else { preconditionFailure("\(request) is not open-from") }
        return decide(source: source, policy)
    }

    /// Decides a document from `source` (`nil`: unknown). A policy without Open From
    /// is refused as under UNAUTHORIZED; the entry points reject it first (``Policy/check(_:)``).
    package static func decide(source: BundleID?, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        switch policy.openFromStatus ?? .unauthorized {
        case .authorized:
            return Decision(outcome: .allow, target: nil, openInUI: ui, rule: authorized.id)
        case .unauthorized:
            return Decision(outcome: .deny, target: nil, callback: .openFromAttemptedWhenBlocked(.unauthorized, source: source),
                            openInUI: ui, rule: unauthorized.id)
        case .whitelist:
            guard let source else {
                return Decision(outcome: .deny, target: nil, callback: .openFromAttemptedWhenBlocked(.whitelist, source: nil),
                                openInUI: ui, rule: unknownSource.id)
            }
            if policy.openFromLists(source) {
                return Decision(outcome: .allow, target: nil, openInUI: ui, rule: listedSource.id)
            }
            return Decision(outcome: .deny, target: nil, callback: .openFromAttemptedWhenBlocked(.whitelist, source: source),
                            openInUI: ui, rule: unlistedSource.id)
        }
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let policy = facts.policy
        let status: String
        switch policy.openFrom?.setting {
        case nil:
            return ["the policy does not set openFromPolicy"]
        case .allAppConnectApps?:
            status = "the Open From policy is \"All AppConnect apps\": WHITELIST of the device's \(facts.count(policy.device.appConnectApps.count, "AppConnect app"))"
        case .status(let value)?:
            status = "the Open From policy is \(value) (\(value.sdkName))"
        }
        switch decision.rule {
        case listedSource.id, unlistedSource.id:
            guard let source = facts.request.source else { return [status] }
            let list = policy.openFrom?.setting == .allAppConnectApps ? "the device's AppConnect apps" : "the Open From whitelist"
            let ids = policy.openFromWhitelist ?? .empty
            if ids.contains(source) { return [status, "\(list) holds \(source)"] }
            return [status, "\(list) does not hold \(source) (it holds \(facts.summary(ids.firstIDs, count: ids.count)); there is no Mail pair for Open From)"]
        case unknownSource.id:
            return [status, "the request names no source app (request key source), and an unknown app is never taken as listed",
                    "iOS 13 does not give the sending app's bundle ID when its team ID differs (AP-5179), so the callback's sourceApplication is nil"]
        default:
            return [status, "the Open In policy, MI_AC_DISABLE_OPEN_IN_ENFORCEMENT and the whitelist do not concern Open From"]
        }
    }

    /// A source is read only through membership of the Open From whitelist: every ID that
    /// can matter, the fresh one, and an unknown source.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.openFrom)), .eachSource(.openFrom)]
    }
}
