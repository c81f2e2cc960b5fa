/// Rule 8: a `mailto:` link tapped in a web or text view, or `MFMailComposeViewController`.
enum MailViewRule: RuleUnit {
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

    static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .mailView = request.route { true } else { false }
    }

    static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision { decide(policy) }

    static func decide(_ policy: PreparedPolicy) -> Decision {
        if policy.mailAllowed {
            return Decision(outcome: .allow, target: .mobileMail, openInUI: policy.openInUI, rule: mailAllowed.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openInAttemptedWhenBlocked(policy.status),
                        openInUI: policy.openInUI, rule: blocked.id)
    }

    static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        var sentences = [facts.status, facts.mailPair]
        if decision.rule == blocked.id, facts.policy.schemeBlockingDisabled {
            sentences.append("MI_AC_DISABLE_SCHEME_BLOCKING is set, but it covers only the app's own openURL: call, not \(facts.request.channel)")
        }
        return sentences
    }

    /// Neither channel looks at the URL: one class each.
    static func requestClasses(_ space: RequestSpace) -> [ShareRequest] {
        [space.request(.mailLink, url: RequestClasses.sampleURL(scheme: "mailto")), space.request(.mailCompose)]
    }
}
