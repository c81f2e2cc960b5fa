import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 3: a web address opened with `openURL:`, under the AppConnect global policy's Web DLP setting.
enum WebDLPRule: RuleUnit {
    package static let source: [Citation] = [.ivanti(.core, "Web-related DLP policies, Web DLP policy for browser launching")]

    static let webAtWorkRedirect = RuleInfo(
        "web-dlp.web-at-work-redirect",
        summary: "Under the Web DLP setting 'not allowed', an http or https URL opens in Web@Work when it is installed, without a callback.",
        reason: "The Web DLP setting does not allow unsecured browsers, so Web@Work displays the web page.",
        source: source,
        quote: "Web@Work displays the web page.")
    package static let blocked = RuleInfo(
        "web-dlp.blocked",
        summary: "Under the Web DLP setting 'not allowed', an http or https URL is denied, without a callback, when Web@Work is not installed.",
        reason: "The Web DLP setting does not allow unsecured browsers and Web@Work is not installed, so the web page does not display.",
        source: source,
        quote: "Web page does not display. An error message is displayed that indicates that a secure browser is required but not installed.")
    static let userChooses = RuleInfo(
        "web-dlp.user-chooses",
        summary: "Under the Web DLP setting 'allowed', an http or https URL is allowed, and with Web@Work installed the user is prompted to choose the browser.",
        reason: "The Web DLP setting allows unsecured browsers and Web@Work is installed, so the user is prompted to choose between Web@Work and the unsecured browsers.",
        source: source,
        quote: "The user is prompted to choose between Web@Work and available unsecured browsers to attempt to display the web page.")
    package static let allowed = RuleInfo(
        "web-dlp.allowed",
        summary: "Under the Web DLP setting 'allowed', an http or https URL opens in an unsecured browser when Web@Work is not installed.",
        reason: "The Web DLP setting allows unsecured browsers, so an unsecured browser displays the web page.",
        source: source,
        quote: "Unsecured browser attempts to display the web page.")

    package static let rules = [webAtWorkRedirect, blocked, userChooses, allowed]

    /// Whether the request is an `openURL:` with a web address and the policy gives the Web DLP setting.
    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        guard policy.webDLP != nil, case .otherURL(let url) = request.route else { return false }
        return url.isWeb
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .otherURL(let url) = request.route, let setting = policy.webDLP else {
            preconditionFailure("\(request) is not a web address under a Web DLP setting")
        }
        return decide(url: url, setting, policy)
    }

    /// Decides a web address under the Web DLP setting `setting`.
    package static func decide(url: ShareURL, _ setting: WebDLPPolicy, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        switch (setting, policy.webAtWorkInstalled) {
        case (.notAllowed, true):
            return Decision(outcome: .redirect, target: policy.webAtWorkTarget, openInUI: ui, rule: webAtWorkRedirect.id)
        case (.notAllowed, false):
            return Decision(outcome: .deny, target: nil, openInUI: ui, rule: blocked.id)
        case (.allowed, true):
            // The user picks the browser: the receiver is not known in advance.
            return Decision(outcome: .allow, target: nil, openInUI: ui, rule: userChooses.id)
        case (.allowed, false):
            return Decision(outcome: .allow, target: policy.handler(for: url), openInUI: ui, rule: allowed.id)
        }
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let device = facts.policy.device
        let setting = facts.policy.webDLP.map { "the Web DLP setting (AppConnect global policy) is \($0 == .allowed ? "allowed" : "not allowed") (webDLP \"\($0)\")" } ?? ""
        let webAtWork = device.webAtWorkInstalled
            ? "Web@Work (\(device.webAtWorkTarget)) is installed"
            : "Web@Work is not installed (--web-at-work or device.webAtWorkInstalled)"
        var sentences = ["'\(facts.scheme)' is a web scheme", setting, webAtWork]
        switch decision.rule {
        case blocked.id: sentences.append("the page does not display and the library shows an error; the SDK has no callback for it")
        case userChooses.id: sentences.append("the user is prompted to choose between Web@Work and the unsecured browsers, so the receiving app is not known in advance")
        case allowed.id:
            if let handler = decision.target { sentences.append("the device's handler for scheme '\(facts.scheme)' is \(handler)") }
        default: break
        }
        return sentences
    }

    /// None of its own: rule 9's family of `open-url` classes already holds both web schemes.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] { [] }
}
