/// Rule 8: a `mailto:` link tapped in a web or text view, or `MFMailComposeViewController`.
enum MailViewRule: DecisionRule {
    static let quote = "For example, with these policy settings, this method is called when the device user taps a :mailTo link in a UIWebView, WKWebView, or UITextView, or when the app attempts to display a MFMailComposeViewController."

    static let mailAllowed = RuleInfo(
        "mail-view.mail-allowed", step: 8,
        summary: "A mailto: link tapped in a web or text view, or the mail compose sheet, opens native Mail when Mail is allowed.",
        reason: "Native Mail is allowed: the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail.",
        source: "open-in-policy.txt", quote: quote)
    static let blocked = RuleInfo(
        "mail-view.blocked", step: 8,
        summary: "A mailto: link tapped in a web or text view, or the mail compose sheet, is denied with the Open In callback when Mail is not allowed; the scheme-blocking override does not apply.",
        reason: "Native Mail is not in the whitelist (both Mail IDs are needed), and the scheme-blocking override covers only the app's own openURL: call.",
        source: "open-in-policy.txt", quote: quote)

    static let rules = [mailAllowed, blocked]

    static func decide(_ policy: PreparedPolicy) -> Decision {
        if policy.mailAllowed {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: policy.openInUI, rule: mailAllowed.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: blocked.id)
    }
}
