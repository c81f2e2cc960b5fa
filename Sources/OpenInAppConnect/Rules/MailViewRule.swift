import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 10: a `mailto:` link tapped in a web or text view, which goes to the device's mail app,
/// or `MFMailComposeViewController`, which is always native Mail.
enum MailViewRule: RuleUnit {
    package static let quote = "For example, with these policy settings, this method is called when the device user taps a :mailTo link in a UIWebView, WKWebView, or UITextView, or when the app attempts to display a MFMailComposeViewController."

    static let mailAllowed = RuleInfo(
        "mail-view.mail-allowed",
        summary: "A mailto: link tapped in a web or text view (when native Mail is the device's mail app), or the mail compose sheet, opens native Mail when Mail is allowed.",
        reason: "Native Mail is allowed: the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail.",
        source: [.guide(.openIn)], quote: quote)
    static let listedHandler = RuleInfo(
        "mail-view.listed-handler",
        summary: "A mailto: link tapped in a web or text view opens the device's mail app when it is an app other than native Mail and is listed.",
        reason: "The device's mail app, which handles mailto: links, is in the whitelist.",
        source: [.choice("Rules/mail-links-and-compose.md", "Our choices"), .header(.appConnectInterface, "-appConnect:openInAttemptedWhenACOpenInPolicyBlocked:")],
        quote: "A tapped link goes where iOS sends mailto: links, so it follows the device's mail app as openURL: does.")
    package static let blocked = RuleInfo(
        "mail-view.blocked",
        summary: "A mailto: link tapped in a web or text view, or the mail compose sheet, is denied with the Open In callback when its mail app is not allowed; the scheme-blocking override and Email+ do not apply.",
        reason: "The mail app is not listed (UNAUTHORIZED lists no app; WHITELIST lists native Mail only with both Mail IDs), and the scheme-blocking override covers only the app's own openURL: call.",
        source: [.guide(.openIn)], quote: quote)

    package static let rules = [mailAllowed, listedHandler, blocked]

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .mailView = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        // A link goes to the device's mail app; the compose sheet is always native Mail.
        if request.channel == .mailLink, let mailApp = policy.thirdPartyMailApp {
            if policy.lists(mailApp) {
                return Decision(outcome: .allow, target: mailApp, openInUI: policy.openInUI, rule: listedHandler.id)
            }
        } else if policy.mailAllowed {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: policy.openInUI, rule: mailAllowed.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: blocked.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        var sentences = [facts.status] + facts.mailApp(for: facts.request.channel)
        if decision.rule == blocked.id, facts.policy.schemeBlockingDisabled {
            sentences.append("MI_AC_DISABLE_SCHEME_BLOCKING is set, but it covers only the app's own openURL: call, not \(facts.request.channel)")
        }
        return sentences
    }

    /// Neither channel looks at the URL: one class each.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.mailLink, url: RequestClasses.sampleURL(scheme: "mailto"))), .one(space.request(.mailCompose))]
    }
}
