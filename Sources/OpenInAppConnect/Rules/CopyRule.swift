import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 14: copying to the general pasteboard, under the pasteboard policy.
enum CopyRule: RuleUnit {
    static let unauthorized = RuleInfo(
        "copy.unauthorized",
        summary: "Under the pasteboard policy UNAUTHORIZED, copying is refused with the copy callback.",
        reason: "The pasteboard policy is UNAUTHORIZED, so the app cannot write to the pasteboard.",
        source: [.header(.appConnectInterface, "-appConnect:copyAttemptedWhenUnauthorized:")],
        quote: "The notification is sent only when the status is ACPasteboardPolicyUnauthorized and the end user taps the \"Copy\" button.")
    static let authorized = RuleInfo(
        "copy.authorized",
        summary: "Under the pasteboard policy AUTHORIZED, copying is allowed and every app can paste the copy.",
        reason: "The pasteboard policy is AUTHORIZED, so the copy is readable by every app, AppConnect or not.",
        source: [.header(.types, "ACPasteboardPolicyAuthorized")],
        quote: "The application may write data to the pasteboard which gets shared among all apps (Both AppConnect and non-AppConnect apps can read this data).")
    static let secureServicesUnavailable = RuleInfo(
        "copy.secure-services-unavailable",
        summary: "Under the pasteboard policy SECURECOPY, copying is refused, without a callback, while the device's secure services are unavailable.",
        reason: "The pasteboard policy is SECURECOPY and secure services are unavailable, so writing to the pasteboard fails.",
        source: [.header(.appConnectInterface, "-appConnect:secureServicesAvailabilityChangedTo:")],
        quote: "When secure services are not available, writing to the general pasteboard will fail and reading from it will read unsecured content, if any.")
    static let secureAppConnectApps = RuleInfo(
        "copy.secure-appconnect-apps",
        summary: "Under the pasteboard policy SECURECOPY with secure services available, copying is allowed for AppConnect apps only, and pasting into one is allowed.",
        reason: "The pasteboard policy is SECURECOPY, so the copy is readable by authorized AppConnect apps only.",
        source: [.header(.types, "ACPasteboardPolicySecureCopy")],
        quote: "the data written to the general pasteboard by one AppConnect app is only readable by authorized AppConnect apps.")
    static let secureNonAppConnectApp = RuleInfo(
        "copy.secure-non-appconnect-app",
        summary: "Under the pasteboard policy SECURECOPY, pasting into an app that is not one of the device's AppConnect apps is refused, without a callback.",
        reason: "The pasteboard policy is SECURECOPY and the paste target is not an AppConnect app, so it cannot read the copy.",
        source: [.choice("Rules/copy-and-print.md", "Our choices"), .header(.types, "ACPasteboardPolicySecureCopy")],
        quote: "A paste target outside the AppConnect apps is denied under SECURECOPY: the header says only authorized AppConnect apps can read the copy.")

    package static let rules = [unauthorized, authorized, secureServicesUnavailable, secureAppConnectApps, secureNonAppConnectApp]

    /// Under SECURECOPY, whether the paste target is an AppConnect app.
    package static let targetReads = TargetReads(.appConnectApp, on: [.copy])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .copy = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .copy(let target) = request.route else { preconditionFailure("\(request) is not copy") }
        return decide(target: target, policy)
    }

    /// Decides a copy, pasted into `target` when one is named. A policy without a
    /// pasteboard policy (or, under SECURECOPY, without secure services) is refused as
    /// under UNAUTHORIZED (or as unavailable); the entry points reject it first (``Policy/check(_:)``).
    package static func decide(target: BundleID?, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        switch policy.pasteboard ?? .unauthorized {
        case .unauthorized:
            return Decision(outcome: .deny, target: nil, callback: .copyAttemptedWhenUnauthorized(.unauthorized), openInUI: ui, rule: unauthorized.id)
        case .authorized:
            return Decision(outcome: .allow, target: target, audience: .allApps, openInUI: ui, rule: authorized.id)
        case .secureCopy:
            guard policy.secureServicesAvailable == true else {
                return Decision(outcome: .deny, target: nil, openInUI: ui, rule: secureServicesUnavailable.id)
            }
            if let target, !policy.isAppConnectApp(target) {
                return Decision(outcome: .deny, target: nil, openInUI: ui, rule: secureNonAppConnectApp.id)
            }
            return Decision(outcome: .allow, target: target, audience: .appConnectApps, openInUI: ui, rule: secureAppConnectApps.id)
        }
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        guard let pasteboard = facts.policy.pasteboard else { return ["the policy does not set pasteboardPolicy"] }
        let status = "the pasteboard policy is \(pasteboard) (\(pasteboard.sdkName))"
        switch decision.rule {
        case secureServicesUnavailable.id:
            return [status, "the device's secure services are unavailable (device.secureServicesAvailable is false), so writing to the pasteboard fails"]
        case secureAppConnectApps.id, secureNonAppConnectApp.id:
            return [status, "the device's secure services are available"] + (facts.target.map { [facts.appConnectMembership($0)] } ?? [])
        default:
            return [status]
        }
    }

    /// A paste target is read only through membership of the AppConnect apps: a copy
    /// without one, and one for every ID that can matter and the fresh one.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.copy)), .eachTarget(.copy)]
    }
}
