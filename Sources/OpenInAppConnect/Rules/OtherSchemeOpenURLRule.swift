import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 9: the app's own `openURL:` with any scheme but `mailto:`.
enum OtherSchemeOpenURLRule: RuleUnit {
    package static let source: [Citation] = [.guide(.openIn)]
    package static let choices: [Citation] = [.choice("Rules/other-url-schemes.md", "Our choices")]
    static let customURLQuote = "includes sending documents or document portions by encoding them in custom URLs handled by other applications."

    static let ownScheme = RuleInfo(
        "open-url.own-scheme",
        summary: "openURL: with one of the app's own URL schemes is not Open In and is allowed.",
        reason: "The URL uses one of the app's own schemes, which is not Open In to another app.",
        source: choices,
        quote: "The app's own schemes and web schemes (http, https) are not Open In.")
    static let webScheme = RuleInfo(
        "open-url.web-scheme",
        summary: "openURL: with http or https is not Open In and is allowed.",
        reason: "The URL is a web address (http or https), which is not Open In.",
        source: choices,
        quote: "The app's own schemes and web schemes (http, https) are not Open In.")
    static let listedHandler = RuleInfo(
        "open-url.listed-handler",
        summary: "openURL: with a custom scheme is allowed when the app that handles it is listed.",
        reason: "The app that handles the URL's scheme is in the whitelist.",
        source: source, quote: customURLQuote)
    static let unlistedHandler = RuleInfo(
        "open-url.unlisted-handler",
        summary: "openURL: with a custom scheme is denied, with the URL callback, when the app that handles it is not listed.",
        reason: "The app that handles the URL's scheme is not listed (UNAUTHORIZED lists no app; WHITELIST only the apps in its whitelist).",
        source: source,
        quote: "the Open In policy is ACOPENINPOLICY_WHITELIST, and the whitelist does not contain the bundle ID of an app that can handle the URL")
    static let unknownHandler = RuleInfo(
        "open-url.unknown-handler",
        summary: "openURL: with a custom scheme whose handler is unknown is denied with the URL callback: unknown never means allowed.",
        reason: "No app is known to handle the URL's scheme, and an unknown handler is never taken as listed.",
        source: choices,
        quote: "Unknown never means allowed under WHITELIST.")

    package static let rules = [ownScheme, webScheme, listedHandler, unlistedHandler, unknownHandler]

    /// Whether the Open In policy lists the scheme's handler.
    package static let targetReads = TargetReads(.listed, on: [.openURL])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .otherURL = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .otherURL(let url) = request.route else { preconditionFailure("\(request) is not openURL: with a scheme but mailto:") }
        return decide(url: url, policy)
    }

    package static func decide(url: ShareURL, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        let handler = policy.handler(for: url)
        if policy.isOwnScheme(url) {
            return Decision(outcome: .allow, target: nil, openInUI: ui, rule: ownScheme.id)
        }
        if url.scheme == "http" || url.scheme == "https" {
            return Decision(outcome: .allow, target: handler, openInUI: ui, rule: webScheme.id)
        }
        guard let handler else {
            return Decision(outcome: .deny, target: nil, callback: .openURLAttemptedWhenUnauthorized(url), openInUI: ui, rule: unknownHandler.id)
        }
        if policy.lists(handler) {
            return Decision(outcome: .allow, target: handler, openInUI: ui, rule: listedHandler.id)
        }
        return Decision(outcome: .deny, target: nil, callback: .openURLAttemptedWhenUnauthorized(url), openInUI: ui, rule: unlistedHandler.id)
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let scheme = facts.scheme
        switch decision.rule {
        case ownScheme.id:
            // The policy never names the app's own bundle ID, so a handler may be the app or another app
            // declaring the scheme (Rules/other-url-schemes.md, "Our choices").
            let routed = facts.policy.device.handler(forScheme: scheme).map {
                ["the device facts route '\(scheme)' to \($0): if that is another app, not this one, iOS delivers the URL to it "
                    + "(no Open In decides that; a fleet does, fleet.own-scheme-elsewhere)"]
            } ?? []
            return ["'\(scheme)' is one of the app's own URL schemes: opening it is not Open In"]
                + facts.policy.app.schemeOrigins[scheme, default: []].map { "'\(scheme)' is declared by \($0)" } + routed
        case webScheme.id:
            return ["'\(scheme)' is a web scheme: opening a web address is not Open In"] + facts.webDLPNotGiven
        case unknownHandler.id:
            return [facts.status, "no handler is known for scheme '\(scheme)' (policy key device.schemeHandlers.\(scheme))",
                    "an unknown handler is never taken as listed"]
        default:
            guard let handler = facts.policy.device.handler(forScheme: scheme) else { return [] }
            return [facts.status, "the device's handler for scheme '\(scheme)' is \(handler)", facts.listing(handler)]
        }
    }

    /// Every scheme but `mailto` (rule 8's): web schemes, own and handled schemes, and a fresh one.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.eachSchemeButMailto]
    }
}
