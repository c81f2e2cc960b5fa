/// Rule 6: the app's own `openURL:` with a `mailto:` URL.
enum MailtoOpenURLRule: RuleUnit {
    static let mailAllowed = RuleInfo(
        "mailto.mail-allowed", step: 6,
        summary: "openURL: with mailto: opens native Mail when Mail is allowed (AUTHORIZED, or WHITELIST holding both Mail IDs).",
        reason: "Native Mail is allowed: the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail.",
        source: "open-in-policy.txt",
        quote: "To put the iOS native email app in the whitelist, the whitelist must contain both of these bundle IDs: com.apple.UIKit.activity.Mail and com.apple.mobilemail.")
    static let schemeBlockingDisabled = RuleInfo(
        "mailto.scheme-blocking-disabled", step: 6,
        summary: "openURL: with mailto: opens native Mail when MI_AC_DISABLE_SCHEME_BLOCKING is set in the Info.plist (YES) or the app config (true).",
        reason: "MI_AC_DISABLE_SCHEME_BLOCKING overrides the Open In policy for openURL: with mailto:, so native Mail opens.",
        source: "open-in-policy.txt",
        quote: "To override the Open In policy for this scenario, add the key MI_AC_DISABLE_SCHEME_BLOCKING with the value YES in the MI_APP_CONNECT dictionary in the app’s Info.plist.")
    static let emailPlusRedirect = RuleInfo(
        "mailto.email-plus-redirect", step: 6,
        summary: "openURL: with mailto: blocked from native Mail opens Email+ when it is installed, without a callback.",
        reason: "Native Mail is not allowed and Email+ is installed, so Email+ opens instead and no callback is called.",
        source: "open-in-policy.txt",
        quote: "However, if the AppConnect app Email+ is installed on the device, it is opened and the callback method is not called.")
    static let blocked = RuleInfo(
        "mailto.blocked", step: 6,
        summary: "openURL: with mailto: is denied, with the URL callback, when Mail is not allowed, nothing overrides and Email+ is not installed.",
        reason: "Native Mail is not allowed, scheme blocking is not disabled and Email+ is not installed.",
        source: "open-in-policy.txt",
        quote: "This method is called when your app has called -openURL: with the mailto scheme and either: the Open In policy is ACOPENINPOLICY_UNAUTHORIZED [or] the Open In policy is ACOPENINPOLICY_WHITELIST, and the whitelist does not contain the bundle ID of an app that can handle the URL, such as the native iOS email app.")

    static let rules = [mailAllowed, schemeBlockingDisabled, emailPlusRedirect, blocked]

    static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .mailto = request.route { true } else { false }
    }

    static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .mailto(let url) = request.route else { preconditionFailure("\(request) is not openURL: with mailto:") }
        return decide(url: url, policy)
    }

    static func decide(url: ShareURL, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        if policy.mailAllowed {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: ui, rule: mailAllowed.id)
        }
        // Our choice (DESIGN rule 6): the explicit override of the app or the admin wins over Email+.
        if policy.schemeBlockingDisabled {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: ui, rule: schemeBlockingDisabled.id)
        }
        if policy.emailPlusInstalled {
            return Decision(outcome: .redirect, target: policy.emailPlusTarget, openInUI: ui, rule: emailPlusRedirect.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openURLAttemptedWhenUnauthorized(url), openInUI: ui, rule: blocked.id)
    }

    static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let sentences = [facts.status, facts.mailPair]
        switch decision.rule {
        case mailAllowed.id: return sentences
        case schemeBlockingDisabled.id: return sentences + facts.schemeBlockingOverrides.filter(\.isSet).map(\.sentence)
        default: return sentences + facts.schemeBlockingOverrides.map(\.sentence) + [facts.emailPlus]
        }
    }

    static func requestClasses(_ space: RequestSpace) -> [ShareRequest] {
        [space.request(.openURL, url: RequestClasses.sampleURL(scheme: "mailto"))]
    }
}
