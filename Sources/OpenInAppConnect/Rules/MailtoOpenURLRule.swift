import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 8: the app's own `openURL:` with a `mailto:` URL, which goes to the device's mail app
/// (the `mailto` handler of the device facts, or native Mail when none is given).
enum MailtoOpenURLRule: RuleUnit {
    static let mailAllowed = RuleInfo(
        "mailto.mail-allowed",
        summary: "openURL: with mailto: opens native Mail when native Mail is the device's mail app and Mail is allowed (AUTHORIZED, or WHITELIST holding both Mail IDs).",
        reason: "Native Mail is allowed: the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail.",
        source: [.guide(.openIn)],
        quote: "To put the iOS native email app in the whitelist, the whitelist must contain both of these bundle IDs: com.apple.UIKit.activity.Mail and com.apple.mobilemail.")
    static let listedHandler = RuleInfo(
        "mailto.listed-handler",
        summary: "openURL: with mailto: opens the device's mail app when it is an app other than native Mail and is listed.",
        reason: "The device's mail app, which handles mailto:, is in the whitelist.",
        source: [.header(.appConnectInterface, "-appConnect:openURLAttemptedWhenUnauthorizedForURL:"), .guide(.openIn)],
        quote: "The notification is sent when openInPolicy is ACOpenInPolicyUnauthorized or ACOpenInPolicyWhitelist and the whitelist does not contain the bundle ID of the app that will process the URL.")
    static let schemeBlockingDisabled = RuleInfo(
        "mailto.scheme-blocking-disabled",
        summary: "openURL: with mailto: opens the device's mail app when MI_AC_DISABLE_SCHEME_BLOCKING is set in the Info.plist (YES) or the app config (true).",
        reason: "MI_AC_DISABLE_SCHEME_BLOCKING overrides the Open In policy for openURL: with mailto:, so the device's mail app opens.",
        source: [.guide(.openIn)],
        quote: "To override the Open In policy for this scenario, add the key MI_AC_DISABLE_SCHEME_BLOCKING with the value YES in the MI_APP_CONNECT dictionary in the app’s Info.plist.")
    static let emailPlusRedirect = RuleInfo(
        "mailto.email-plus-redirect",
        summary: "openURL: with mailto: blocked from the device's mail app opens Email+ when it is installed, without a callback.",
        reason: "The device's mail app is not allowed and Email+ is installed, so Email+ opens instead and no callback is called.",
        source: [.guide(.openIn)],
        quote: "However, if the AppConnect app Email+ is installed on the device, it is opened and the callback method is not called.")
    package static let blocked = RuleInfo(
        "mailto.blocked",
        summary: "openURL: with mailto: is denied, with the URL callback, when the device's mail app is not allowed, nothing overrides and Email+ is not installed.",
        reason: "The device's mail app is not allowed, scheme blocking is not disabled and Email+ is not installed.",
        source: [.guide(.openIn)],
        quote: "This method is called when your app has called -openURL: with the mailto scheme and either: the Open In policy is ACOPENINPOLICY_UNAUTHORIZED [or] the Open In policy is ACOPENINPOLICY_WHITELIST, and the whitelist does not contain the bundle ID of an app that can handle the URL, such as the native iOS email app.")

    package static let rules = [mailAllowed, listedHandler, schemeBlockingDisabled, emailPlusRedirect, blocked]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .mailto = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .mailto(let url) = request.route else { preconditionFailure("\(request) is not openURL: with mailto:") }
        return decide(url: url, policy)
    }

    package static func decide(url: ShareURL, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        let mailApp = policy.thirdPartyMailApp
        if let mailApp {
            if policy.lists(mailApp) {
                return Decision(outcome: .allow, target: mailApp, openInUI: ui, rule: listedHandler.id)
            }
        } else if policy.mailAllowed {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: ui, rule: mailAllowed.id)
        }
        // Our choice (Rules/mailto-open-url.md): the explicit override of the app or the admin wins over Email+.
        if policy.schemeBlockingDisabled {
            return Decision(outcome: .allow, target: mailApp ?? .mobileMail, openInUI: ui, rule: schemeBlockingDisabled.id)
        }
        if policy.emailPlusInstalled {
            return Decision(outcome: .redirect, target: policy.emailPlusTarget, openInUI: ui, rule: emailPlusRedirect.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openURLAttemptedWhenUnauthorized(url), openInUI: ui, rule: blocked.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let sentences = [facts.status] + facts.mailApp(for: .openURL)
        switch decision.rule {
        case mailAllowed.id, listedHandler.id: return sentences
        case schemeBlockingDisabled.id: return sentences + facts.schemeBlockingOverrides.filter(\.isSet).map(\.sentence)
        default: return sentences + facts.schemeBlockingOverrides.map(\.sentence) + [facts.emailPlus]
        }
    }

    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.openURL, url: RequestClasses.sampleURL(scheme: "mailto")))]
    }
}
