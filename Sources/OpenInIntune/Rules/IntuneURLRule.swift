import OpenInCore
import OpenInFleet
import OpenInKit

/// Intune rule 3: URLs the app opens (`open-url`) and `mailto:` links tapped in its views (`mail-link`):
/// web links under the browser settings and universal links, exemptions, `tel` under the dialer
/// settings, `sms` under the messaging settings, any other scheme under "Send org data to other apps".
enum IntuneURLRule: IntuneRuleUnit {
    static let ownScheme = RuleInfo(
        "intune.url.own-scheme",
        summary: "Opening one of the app's own URL schemes does not leave the app and is allowed.",
        reason: "The URL's scheme is one of the app's own: nothing leaves the app.",
        source: [.choice("Rules/intune/url-schemes.md", "Our choices")],
        quote: "A URL with one of the app's own schemes stays in the app, so no Intune setting concerns it.")
    static let exemptedUniversalLink = RuleInfo(
        "intune.url.exempted-universal-link",
        summary: "A web link that matches an exempted universal link opens in the app that claims it, managed or not.",
        reason: "The link matches one of the policy's exempted universal links, which may invoke an unmanaged app.",
        source: [.graph("exemptedUniversalLinks"), .learn(.iosSettings, "Data transfer")],
        quote: "A list of custom urls that are allowed to invocate an unmanaged app")
    static let managedUniversalLink = RuleInfo(
        "intune.url.managed-universal-link",
        summary: "A web link that matches a managed universal link opens in the app that claims it when that app is policy-managed.",
        reason: "The link matches one of the policy's managed universal links, and a policy-managed app claims it.",
        source: [.graph("managedUniversalLinks"), .learn(.iosSettings, "Data transfer")],
        quote: "A list of custom urls that are allowed to invocate a managed app")
    static let managedBrowser = RuleInfo(
        "intune.url.managed-browser",
        summary: "Under Restrict web content transfer = Microsoft Edge, a web link opens in Edge instead of the default browser.",
        reason: "The policy requires web links to open in the managed browser, Microsoft Edge.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("managedBrowserToOpenLinksRequired")],
        quote: "Indicates whether internet links should be opened in the managed browser app, or any custom browser specified by CustomBrowserProtocol (for iOS)")
    static let customBrowser = RuleInfo(
        "intune.url.custom-browser",
        summary: "Under Restrict web content transfer = Unmanaged browser, a web link opens in the browser of the Unmanaged Browser Protocol (http to PROTOCOL, https to PROTOCOLs).",
        reason: "The policy sends web links to the browser named by its custom browser protocol.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("customBrowserProtocol")],
        quote: "A custom browser protocol to open weblink on iOS.")
    static let customBrowserMissing = RuleInfo(
        "intune.url.custom-browser-unknown",
        summary: "Under Restrict web content transfer = Unmanaged browser, a web link is not opened when no app on the device handles the browser protocol.",
        reason: "The policy sends web links to its custom browser protocol, and no app on the device handles that scheme.",
        source: [.choice("Rules/intune/url-schemes.md", "Our choices")],
        quote: "A redirection to a scheme no app on the device handles delivers nothing: unknown never means allowed.")
    static let anyBrowser = RuleInfo(
        "intune.url.any-browser",
        summary: "Under Restrict web content transfer = Any app (the default), a web link opens in the device's browser.",
        reason: "The policy does not restrict web content transfer.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("managedBrowserToOpenLinksRequired")],
        quote: "Indicates whether internet links should be opened in the managed browser app, or any custom browser specified by CustomBrowserProtocol (for iOS)")
    static let exemptedScheme = RuleInfo(
        "intune.url.exempted-scheme",
        summary: "A URL whose scheme is in Select apps to exempt opens in the app that handles it, managed or not.",
        reason: "The URL's scheme is exempted from the data transfer policy.",
        source: [.learn(.exceptions, "iOS data transfer exceptions"), .graph("exemptedAppProtocols")],
        quote: "Apps in this list will be exempt from the policy and will be able to receive data from managed apps.")
    static let dialerAny = RuleInfo(
        "intune.url.dialer-any",
        summary: "A tel or telprompt URL opens in the device's dialer under Transfer telecommunication data to = Any dialer app (the default).",
        reason: "Telecommunication data may go to any dialer app.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("dialerRestrictionLevel")],
        quote: "The classes of dialer apps that are allowed to click-to-open a phone number.")
    static let dialerManaged = RuleInfo(
        "intune.url.dialer-managed",
        summary: "Under Any policy-managed dialer app, a tel URL opens in its handler when that handler is policy-managed.",
        reason: "Telecommunication data may go to policy-managed dialers, and the handler is one.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("dialerRestrictionLevel")],
        quote: "The classes of dialer apps that are allowed to click-to-open a phone number.")
    static let dialerCustom = RuleInfo(
        "intune.url.dialer-custom",
        summary: "Under A specific dialer app, a tel URL goes to the app of the Dialer App URL Scheme instead.",
        reason: "Telecommunication data goes to the one dialer app the policy names by its URL scheme.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("customDialerAppProtocol")],
        quote: "Protocol of a custom dialer app to click-to-open a phone number on iOS, for example, skype:.")
    static let dialerBlocked = RuleInfo(
        "intune.url.dialer-blocked",
        summary: "A tel URL is not opened under None, do not transfer this data, under Any policy-managed dialer app when its handler is not managed, or when the specific dialer app is not on the device.",
        reason: "The dialer setting does not allow this phone number to leave the app.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("dialerRestrictionLevel")],
        quote: "The classes of dialer apps that are allowed to click-to-open a phone number.")
    static let messagingAny = RuleInfo(
        "intune.url.messaging-any",
        summary: "An sms URL opens in the device's messaging app under Transfer messaging data to = Any messaging app (the default).",
        reason: "Messaging data may go to any messaging app.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("protectedMessagingRedirectAppType")],
        quote: "Defines how app messaging redirection is protected by an App Protection Policy. Default is anyApp.")
    static let messagingManaged = RuleInfo(
        "intune.url.messaging-managed",
        summary: "Under Any policy-managed messaging app, an sms URL opens in its handler when that handler is policy-managed.",
        reason: "Messaging data may go to policy-managed messaging apps, and the handler is one.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("protectedMessagingRedirectAppType")],
        quote: "Defines how app messaging redirection is protected by an App Protection Policy. Default is anyApp.")
    static let messagingSpecific = RuleInfo(
        "intune.url.messaging-specific",
        summary: "Under A specific messaging app, an sms URL goes to the app of the Messaging App URL Scheme instead.",
        reason: "Messaging data goes to the one messaging app the policy names by its URL scheme.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("messagingRedirectAppUrlScheme")],
        quote: "When a specific app redirection is enforced by protectedMessagingRedirectAppType in an App Protection Policy, this value defines the app url redirect schemes which are allowed to be used.")
    static let messagingBlocked = RuleInfo(
        "intune.url.messaging-blocked",
        summary: "An sms URL is not opened under None, under Any policy-managed messaging app when its handler is not managed, or when the specific messaging app is not on the device.",
        reason: "The messaging setting does not allow this message to leave the app.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("protectedMessagingRedirectAppType")],
        quote: "Defines how app messaging redirection is protected by an App Protection Policy. Default is anyApp.")
    package static let allApps = RuleInfo(
        "intune.url.all-apps",
        summary: "Under Send org data to other apps = All apps, a URL with any other scheme opens in the app that handles it.",
        reason: "Send org data to other apps is All apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "Allow transfer to any app. The receiving app will have the ability to read and edit the data.")
    static let managedHandler = RuleInfo(
        "intune.url.managed-handler",
        summary: "Under Policy managed apps, a URL with any other scheme opens when the app that handles it is policy-managed.",
        reason: "The URL's handler is policy-managed, and the policy allows transfer to policy-managed apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "Allow transfer only to other policy-managed apps.")
    package static let blocked = RuleInfo(
        "intune.url.blocked",
        summary: "Under Policy managed apps or None, a URL with any other scheme (mailto included) is not opened when its handler is not policy-managed or is unknown, and the scheme is not exempted.",
        reason: "The URL's handler is not a policy-managed app (or is unknown) and its scheme is not exempted.",
        source: [.learn(.exceptions, "iOS data transfer exceptions"), .graph("exemptedAppProtocols")],
        quote: "Apps in this list will be exempt from the policy and will be able to receive data from managed apps.")

    package static let rules = [ownScheme, exemptedUniversalLink, managedUniversalLink, managedBrowser, customBrowser, customBrowserMissing,
                        anyBrowser, exemptedScheme, dialerAny, dialerManaged, dialerCustom, dialerBlocked,
                        messagingAny, messagingManaged, messagingSpecific, messagingBlocked, allApps, managedHandler, blocked]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        switch request.route {
        case .mailto, .otherURL: true
        case .mailView: request.channel == .mailLink
        default: false
        }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy else { preconditionFailure("an unmanaged app is decided by rule 1") }
        let scheme = request.url?.scheme ?? "mailto"
        let handler = IntuneDelivery.handler(for: scheme, context)
        if context.isOwn(scheme) { return .intune(.allow, to: nil, ownScheme) }
        if scheme == "http" || scheme == "https", let url = request.url {
            if policy.exemptedUniversalLinks.contains(where: { UniversalLink.matches($0, url.rawValue) }) {
                return .intune(.allow, to: handler, exemptedUniversalLink)
            }
            if let claimed = context.handler(forScheme: scheme), context.isManaged(claimed),
               policy.managedUniversalLinks.contains(where: { UniversalLink.matches($0, url.rawValue) }) {
                return .intune(.allow, to: claimed, managedUniversalLink)
            }
            guard policy.managedBrowserRequired else { return .intune(.allow, to: handler, anyBrowser) }
            if !policy.customBrowserProtocol.isEmpty {
                let base = ExactText.asciiLowercased(policy.customBrowserProtocol)
                guard let browser = context.handler(forScheme: scheme == "https" ? base + "s" : base) ?? context.handler(forScheme: base) else {
                    return .intune(.deny, to: nil, customBrowserMissing)
                }
                return .intune(.redirect, to: browser, customBrowser)
            }
            return .intune(.redirect, to: .microsoftEdge, managedBrowser)
        }
        if policy.exempts(scheme: scheme) { return .intune(.allow, to: handler, exemptedScheme) }
        if scheme == "tel" || scheme == "telprompt" {
            switch policy.dialer {
            case .allApps: return .intune(.allow, to: handler, dialerAny)
            case .managedApps:
                if let handler, context.isManaged(handler) { return .intune(.allow, to: handler, dialerManaged) }
                return .intune(.deny, to: nil, dialerBlocked)
            case .customApp:
                guard let dialer = customHandler(policy.customDialerAppProtocol, context) else { return .intune(.deny, to: nil, dialerBlocked) }
                return .intune(.redirect, to: dialer, dialerCustom)
            case .blocked: return .intune(.deny, to: nil, dialerBlocked)
            }
        }
        if scheme == "sms" {
            switch policy.messaging {
            case .anyApp: return .intune(.allow, to: handler, messagingAny)
            case .anyManagedApp:
                if let handler, context.isManaged(handler) { return .intune(.allow, to: handler, messagingManaged) }
                return .intune(.deny, to: nil, messagingBlocked)
            case .specificApps:
                guard let app = customHandler(policy.messagingRedirectAppUrlScheme, context) else { return .intune(.deny, to: nil, messagingBlocked) }
                return .intune(.redirect, to: app, messagingSpecific)
            case .blocked: return .intune(.deny, to: nil, messagingBlocked)
            }
        }
        switch policy.send {
        case .allApps: return .intune(.allow, to: handler, allApps)
        case .managedApps:
            if let handler, context.isManaged(handler) { return .intune(.allow, to: handler, managedHandler) }
            return .intune(.deny, to: nil, blocked)
        case .none: return .intune(.deny, to: nil, blocked)
        }
    }

    /// The app of a scheme the policy names (`skype:`, `skype`, `skype://`), when the device has one.
    static func customHandler(_ protocolText: String, _ context: IntuneContext) -> BundleID? {
        var name = Substring(protocolText)
        while let last = name.last, last == ":" || last == "/" { name = name.dropLast() }
        guard !name.isEmpty else { return nil }
        return context.handler(forScheme: ExactText.asciiLowercased(name))
    }
}

/// Intune rule 4: the mail compose sheet (`MFMailComposeViewController`), which is native Mail and not a URL.
enum IntuneMailComposeRule: IntuneRuleUnit {
    package static let allApps = RuleInfo(
        "intune.mail-compose.all-apps",
        summary: "Under Send org data to other apps = All apps, the mail compose sheet is allowed.",
        reason: "Send org data to other apps is All apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "Allow transfer to any app. The receiving app will have the ability to read and edit the data.")
    static let exempted = RuleInfo(
        "intune.mail-compose.mailto-exempted",
        summary: "Under Policy managed apps or None, the mail compose sheet is allowed when mailto is exempted and the app has Intune SDK 14.5.0 or later.",
        reason: "mailto is exempted and the app's Intune SDK (14.5.0 or later) extends the exemption to the mail compose sheet.",
        source: [.learn(.iosSettings, "Data transfer")],
        quote: "In Intune SDK 14.5.0 or later, including sms and mailto URL schemes in the data transfer exemptions will also allow sharing of Org data to the MFMessageCompose (for sms) and MFMailCompose (for mailto) view controllers.")
    package static let blocked = RuleInfo(
        "intune.mail-compose.blocked",
        summary: "Under Policy managed apps or None, the mail compose sheet is refused unless mailto is exempted and the app has Intune SDK 14.5.0 or later (an unknown SDK version does not count).",
        reason: "Native Mail is not a policy-managed app, and no mailto exemption the app's SDK honours covers the compose sheet.",
        source: [.learn(.iosSettings, "Data transfer")],
        quote: "In Intune SDK 14.5.0 or later, including sms and mailto URL schemes in the data transfer exemptions will also allow sharing of Org data to the MFMessageCompose (for sms) and MFMailCompose (for mailto) view controllers.")

    package static let rules = [allApps, exempted, blocked]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool { request.channel == .mailCompose }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy else { preconditionFailure("an unmanaged app is decided by rule 1") }
        if policy.send == .allApps { return .intune(.allow, to: .mobileMail, allApps) }
        if policy.exempts(scheme: "mailto"), let version = context.senderSDKVersion, version >= IntuneSDKVersion.composeExemptions {
            return .intune(.allow, to: .mobileMail, exempted)
        }
        return .intune(.deny, to: nil, blocked)
    }
}

/// Universal link patterns as Intune writes them: `https://*.sharepoint.com/*`, `http://maps.apple.com`.
enum UniversalLink {
    /// Whether `url` matches `pattern`: `*` stands for any run of characters, letters compare ignoring
    /// ASCII case, and a pattern without a trailing `*` also matches the URL's longer forms that
    /// continue with `/`, `?` or `#`.
    static func matches(_ pattern: String, _ url: String) -> Bool {
        let p = Array(ExactText.asciiLowercased(pattern).utf8), u = Array(ExactText.asciiLowercased(url).utf8)
        if glob(p, u) { return true }
        guard p.last != UInt8(ascii: "*") else { return false }
        for (index, byte) in u.enumerated() where byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
            if index > 0, glob(p, Array(u[..<index])) { return true }
        }
        return false
    }

    /// `*`-only glob over bytes, iterative (linear backtracking).
    static func glob(_ p: [UInt8], _ s: [UInt8]) -> Bool {
        var i = 0, j = 0, star = -1, mark = 0
        while j < s.count {
            if i < p.count, p[i] != UInt8(ascii: "*"), p[i] == s[j] { i += 1; j += 1 }
            else if i < p.count, p[i] == UInt8(ascii: "*") { star = i; mark = j; i += 1 }
            else if star >= 0 { i = star + 1; mark += 1; j = mark }
            else { return false }
        }
        while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }
}
