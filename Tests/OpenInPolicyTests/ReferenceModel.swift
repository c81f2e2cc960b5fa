/// A second, deliberately naive implementation of the rules as `Rules/*.md`
/// states them, in order, for differential testing against ``Evaluator``.
///
/// It shares no code with the engine: plain strings and arrays, linear scans,
/// its own input checks, its own Mail-pair test, its own config reading and
/// its own ASCII case folding. Rule ids are the strings of `RuleInfo.all`;
/// which one applies the model decides itself.
///
/// Every input string is compared as the SDK compares it, by its UTF-8 bytes
/// (``same(_:_:)``, its own loop), never with `String ==` or `Character`
/// sets, which use canonical equivalence: a Kelvin-sign `K` is not `K` here,
/// nor a Greek question mark `;`. Once an input is checked it is ASCII, and
/// only then do the rules below compare with `==`.
enum ReferenceModel {
    static let mailActivity = "com.apple.UIKit.activity.Mail"
    static let mobileMail = "com.apple.mobilemail"
    static let defaultEmailPlus = "com.mobileiron.ios.emailplus"
    static let defaultWebAtWork = "com.mobileiron.ios.webatwork"
    static let systemKeyboard = "com.apple.keyboard"
    static let customKeyboardsKey = "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS"

    static let openInBlocked = "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:"
    static let openURLBlocked = "appConnect:openURLAttemptedWhenUnauthorizedForURL:"
    static let dragAndDropBlocked = "appConnectAttemptedDragAndDropToNonAppConnectApp:"
    static let openFromBlocked = "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:"
    static let copyBlocked = "appConnect:copyAttemptedWhenUnauthorized:"

    static let documentChannels = ["document-interaction", "quick-look", "app-extension"]
    static let channels = documentChannels + ["activity-view", "open-url", "mail-link", "mail-compose", "drag-and-drop",
                                              "open-from", "copy", "print", "paste", "keyboard"]

    // MARK: Inputs, as written in a policy file and a request

    struct ConfigEntry: Hashable {
        var key: String
        var value: String
    }

    struct SchemeHandler: Hashable {
        var scheme: String
        var app: String
    }

    /// A policy and its context, as strings. Handlers are recorded in order: a later one for the same scheme wins.
    struct PolicyInput: Hashable {
        var policy: String
        var whitelist: [String] = []
        var config: [ConfigEntry] = []
        var plistOverride = false
        var emailPlusInstalled = false
        var emailPlusIDs: [String] = []
        var handlers: [SchemeHandler] = []
        var appConnectApps: [String] = []
        var appSchemes: [String] = []
        var dragAndDrop: String?
        var enforcing = true
        // Beyond Open In: each is absent unless set.
        var openFromPolicy: String?
        var openFromWhitelist: [String]?
        var pasteboardPolicy: String?
        var printPolicy: String?
        var secureServicesAvailable: Bool?
        // Web DLP, excluded activities, keyboards.
        var webDLP: String?
        var webAtWorkInstalled = false
        var webAtWorkIDs: [String] = []
        var excludedActivities: [String] = []
        var appAllowsCustomKeyboards = true
    }

    struct RequestInput: Hashable {
        var channel: String
        var target: String?
        var url: String?
        var source: String?
        var document: String?
    }

    /// The model's answer: the columns of a decision table row.
    struct Answer: Hashable {
        var outcome: String
        var to: String?
        var callbackSelector: String?
        var callbackArgument: String?
        var ui: String
        var rule: String
        var audience: String? = nil
        /// For a request the policy cannot decide: the policy key it lacks (outcome "error").
        var missingKey: String? = nil
    }

    /// Either what the model needs from a valid input, or every error kind the input deserves.
    enum Checked<Value: Sendable>: Sendable {
        case valid(Value)
        case invalid([String])
    }

    // MARK: Policy

    /// A valid policy, read once.
    struct Setup {
        var status: String            // "UNAUTHORIZED", "AUTHORIZED" or "WHITELIST"
        var whitelist: [String]       // for "appconnect": the device's AppConnect apps
        var enforcing: Bool
        var enforcementDisabled: Bool // MI_AC_DISABLE_OPEN_IN_ENFORCEMENT yes/true, any case
        var schemeBlockingDisabled: Bool // Info.plist YES, or config exactly "true"
        var emailPlusInstalled: Bool
        var emailPlusTarget: String
        var handlers: [SchemeHandler] // schemes lowercased
        var appConnectApps: [String]
        var appSchemes: [String]      // lowercased
        var dragAndDrop: String?      // "all", "appconnect", "none" or nil
        var openFromStatus: String?   // "UNAUTHORIZED", "AUTHORIZED", "WHITELIST" or nil (not set)
        var openFromList: [String]    // for "appconnect": the device's AppConnect apps
        var pasteboard: String?       // "UNAUTHORIZED", "AUTHORIZED", "SECURECOPY" or nil
        var print: String?            // "UNAUTHORIZED", "AUTHORIZED" or nil
        var secureServices: Bool?
        var webDLP: String?           // "allowed", "not-allowed" or nil
        var webAtWorkInstalled: Bool
        var webAtWorkTarget: String
        var excludedActivities: [String]
        var keyboardsByConfig: String? // the raw value of MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS, when set
        var appAllowsCustomKeyboards: Bool
    }

    static func check(_ input: PolicyInput) -> Checked<Setup> {
        var problems: [String] = []
        var status = ""
        var whitelist = input.whitelist
        let policyName = lowercase(input.policy)
        func named(_ names: [String]) -> Bool { names.contains { same(policyName, $0) } }
        if named(["unauthorized", "acopeninpolicy_unauthorized", "acopeninpolicyunauthorized", "0"]) {
            status = "UNAUTHORIZED"
        } else if named(["authorized", "acopeninpolicy_authorized", "acopeninpolicyauthorized", "1"]) {
            status = "AUTHORIZED"
        } else if named(["whitelist", "acopeninpolicy_whitelist", "acopeninpolicywhitelist", "2"]) {
            status = "WHITELIST"
        } else if named(["appconnect"]) {
            // "All AppConnect apps" arrives as WHITELIST listing the device's AppConnect apps.
            status = "WHITELIST"
            whitelist = input.appConnectApps
        } else {
            problems.append("unknownPolicy")
        }
        let ids = input.whitelist + input.emailPlusIDs + input.appConnectApps + input.handlers.map(\.app)
        for id in ids where !isBundleID(id) { problems.append("malformedBundleID") }
        let schemes = input.handlers.map(\.scheme) + input.appSchemes
        for scheme in schemes where !isSchemeName(scheme) { problems.append("malformedScheme") }
        var dragAndDrop: String?
        if let text = input.dragAndDrop {
            let name = lowercase(text)
            if same(name, "all") || same(name, "appconnect") || same(name, "none") {
                dragAndDrop = name
            } else {
                problems.append("unknownDragAndDropPolicy")
            }
        }
        var openFromStatus: String?
        var openFromList = input.openFromWhitelist ?? []
        if let text = input.openFromPolicy {
            switch lowercase(text) {
            case "unauthorized", "acopenfrompolicyunauthorized", "acopenfrompolicy_unauthorized", "0": openFromStatus = "UNAUTHORIZED"
            case "authorized", "acopenfrompolicyauthorized", "acopenfrompolicy_authorized", "1": openFromStatus = "AUTHORIZED"
            case "whitelist", "acopenfrompolicywhitelist", "acopenfrompolicy_whitelist", "2": openFromStatus = "WHITELIST"
            case "appconnect":
                openFromStatus = "WHITELIST"
                openFromList = input.appConnectApps
            default: problems.append("unknownOpenFromPolicy")
            }
        }
        for id in input.openFromWhitelist ?? [] where !isBundleID(id) { problems.append("malformedBundleID") }
        var pasteboard: String?
        if let text = input.pasteboardPolicy {
            switch lowercase(text) {
            case "unauthorized", "acpasteboardpolicyunauthorized", "acpasteboardpolicy_unauthorized", "0": pasteboard = "UNAUTHORIZED"
            case "authorized", "acpasteboardpolicyauthorized", "acpasteboardpolicy_authorized", "1": pasteboard = "AUTHORIZED"
            case "securecopy", "acpasteboardpolicysecurecopy", "acpasteboardpolicy_securecopy", "2": pasteboard = "SECURECOPY"
            default: problems.append("unknownPasteboardPolicy")
            }
        }
        var print: String?
        if let text = input.printPolicy {
            switch lowercase(text) {
            case "unauthorized", "acprintpolicyunauthorized", "acprintpolicy_unauthorized", "0": print = "UNAUTHORIZED"
            case "authorized", "acprintpolicyauthorized", "acprintpolicy_authorized", "1": print = "AUTHORIZED"
            default: problems.append("unknownPrintPolicy")
            }
        }
        var webDLP: String?
        if let text = input.webDLP {
            let name = lowercase(text)
            if same(name, "allowed") || same(name, "not-allowed") { webDLP = name } else { problems.append("unknownWebDLPPolicy") }
        }
        for id in input.webAtWorkIDs + input.excludedActivities where !isBundleID(id) { problems.append("malformedBundleID") }
        if !problems.isEmpty { return .invalid(problems) }

        var keyboardsByConfig: String?
        for entry in input.config where same(entry.key, customKeyboardsKey) { keyboardsByConfig = entry.value }
        var schemeBlockingByConfig = false
        var enforcementDisabled = false
        for entry in input.config {
            if same(entry.key, "MI_AC_DISABLE_SCHEME_BLOCKING") && same(entry.value, "true") { schemeBlockingByConfig = true }
            if same(entry.key, "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT") {
                let value = lowercase(entry.value)
                if same(value, "yes") || same(value, "true") { enforcementDisabled = true }
            }
        }
        return .valid(Setup(
            status: status,
            whitelist: whitelist,
            enforcing: input.enforcing,
            enforcementDisabled: enforcementDisabled,
            schemeBlockingDisabled: input.plistOverride || schemeBlockingByConfig,
            emailPlusInstalled: input.emailPlusInstalled,
            emailPlusTarget: input.emailPlusIDs.first ?? defaultEmailPlus,
            handlers: input.handlers.map { SchemeHandler(scheme: lowercase($0.scheme), app: $0.app) },
            appConnectApps: input.appConnectApps,
            appSchemes: input.appSchemes.map(lowercase),
            dragAndDrop: dragAndDrop,
            openFromStatus: openFromStatus,
            openFromList: openFromList,
            pasteboard: pasteboard,
            print: print,
            secureServices: input.secureServicesAvailable,
            webDLP: webDLP,
            webAtWorkInstalled: input.webAtWorkInstalled,
            webAtWorkTarget: input.webAtWorkIDs.first ?? defaultWebAtWork,
            excludedActivities: input.excludedActivities,
            keyboardsByConfig: keyboardsByConfig,
            appAllowsCustomKeyboards: input.appAllowsCustomKeyboards
        ))
    }

    // MARK: Request

    /// A valid request, read once.
    struct Share {
        var channel: String
        var target: String?
        var url: String?
        var scheme: String? // the URL's scheme, lowercased
        var source: String?
        var document: String?
    }

    static func check(_ input: RequestInput) -> Checked<Share> {
        var problems: [String] = []
        let knownChannel = has(channels, input.channel)
        if !knownChannel { problems.append("unknownChannel") }
        if let target = input.target, !isBundleID(target) { problems.append("malformedBundleID") }
        if let source = input.source, !isBundleID(source) { problems.append("malformedBundleID") }
        if input.source != nil && input.channel != "open-from" && input.channel != "paste" { problems.append("unexpectedField") }
        var scheme: String?
        if let url = input.url {
            scheme = schemeOfURL(url)
            if scheme == nil { problems.append("malformedURL") }
        }
        if knownChannel {
            switch input.channel {
            case "document-interaction", "quick-look", "app-extension", "drag-and-drop":
                if input.target == nil { problems.append("missingTarget") }
                if input.url != nil { problems.append("unexpectedField") }
            case "activity-view":
                if input.url != nil { problems.append("unexpectedField") }
            case "open-url":
                if input.url == nil { problems.append("missingURL") }
                if input.target != nil { problems.append("unexpectedField") }
            case "mail-link":
                if input.target != nil { problems.append("unexpectedField") }
                if let scheme, scheme != "mailto" { problems.append("notMailto") }
            case "copy", "keyboard":
                if input.url != nil { problems.append("unexpectedField") }
            default: // mail-compose, open-from, print, paste
                if input.target != nil || input.url != nil { problems.append("unexpectedField") }
            }
        }
        if !problems.isEmpty { return .invalid(problems) }
        return .valid(Share(channel: input.channel, target: input.target, url: input.url, scheme: scheme,
                            source: input.source, document: input.document))
    }

    // MARK: The rules, in order (first match decides)

    static func decide(_ policy: Setup, _ request: Share) -> Answer {
        let ui: String
        if !policy.enforcing || policy.enforcementDisabled {
            ui = "enabled"
        } else {
            ui = policy.status == "UNAUTHORIZED" ? "disabled" : "enabled"
        }
        func answer(_ outcome: String, to: String?, _ rule: String, callback: String? = nil, argument: String? = nil) -> Answer {
            Answer(outcome: outcome, to: to, callbackSelector: callback, callbackArgument: argument, ui: ui, rule: rule)
        }
        func missing(_ key: String) -> Answer {
            Answer(outcome: "error", to: nil, callbackSelector: nil, callbackArgument: nil, ui: "-", rule: "-", missingKey: key)
        }
        let channel = request.channel

        // Before any rule: open-from, copy and print need their control set; no default.
        if channel == "open-from" && policy.openFromStatus == nil { return missing("openFromPolicy") }
        if channel == "copy" && policy.pasteboard == nil { return missing("pasteboardPolicy") }
        if channel == "copy" && policy.pasteboard == "SECURECOPY" && policy.secureServices == nil { return missing("device.secureServicesAvailable") }
        if channel == "print" && policy.print == nil { return missing("printPolicy") }

        // 1. Not enforcing.
        if !policy.enforcing {
            var allowed = answer("allow", to: receiver(policy, request), "not-enforcing.allow")
            if channel == "copy" { allowed.audience = "all-apps" }
            return allowed
        }

        // 13. Open From: what other apps may send here, by the Open From whitelist alone (no Mail pair).
        if channel == "open-from" {
            let status = policy.openFromStatus!
            let source = request.source
            let argument = status + ", " + (source ?? "nil")
            if status == "AUTHORIZED" { return answer("allow", to: nil, "open-from.authorized") }
            if status == "UNAUTHORIZED" { return answer("deny", to: nil, "open-from.unauthorized", callback: openFromBlocked, argument: argument) }
            guard let source else { return answer("deny", to: nil, "open-from.unknown-source", callback: openFromBlocked, argument: argument) }
            if has(policy.openFromList, source) { return answer("allow", to: nil, "open-from.listed-source") }
            return answer("deny", to: nil, "open-from.unlisted-source", callback: openFromBlocked, argument: argument)
        }

        // 14. Copy.
        if channel == "copy" {
            switch policy.pasteboard! {
            case "UNAUTHORIZED":
                return answer("deny", to: nil, "copy.unauthorized", callback: copyBlocked, argument: "UNAUTHORIZED")
            case "AUTHORIZED":
                var allowed = answer("allow", to: request.target, "copy.authorized")
                allowed.audience = "all-apps"
                return allowed
            default: // SECURECOPY
                if policy.secureServices != true { return answer("deny", to: nil, "copy.secure-services-unavailable") }
                if let target = request.target, !has(policy.appConnectApps, target) {
                    return answer("deny", to: nil, "copy.secure-non-appconnect-app")
                }
                var allowed = answer("allow", to: request.target, "copy.secure-appconnect-apps")
                allowed.audience = "appconnect-apps"
                return allowed
            }
        }

        // 15. Print: no callback either way.
        if channel == "print" {
            return policy.print == "AUTHORIZED" ? answer("allow", to: nil, "print.authorized") : answer("deny", to: nil, "print.unauthorized")
        }

        // 16. Paste: this app's pasteboard policy governs copying out, never pasting in.
        if channel == "paste" { return answer("allow", to: nil, "paste.not-restricted") }

        // 17. Keyboards: the system keyboard always; a custom one by the config key's exact bytes, else by the app.
        if channel == "keyboard" {
            guard let keyboard = request.target, keyboard != systemKeyboard else { return answer("allow", to: request.target, "keyboard.system") }
            if let value = policy.keyboardsByConfig {
                return value == "true" ? answer("allow", to: keyboard, "keyboard.custom-allowed-by-config")
                    : answer("deny", to: nil, "keyboard.custom-refused-by-config")
            }
            return policy.appAllowsCustomKeyboards ? answer("allow", to: keyboard, "keyboard.custom-allowed")
                : answer("deny", to: nil, "keyboard.custom-refused-by-app")
        }

        // 2. Drag and drop under a drag-and-drop policy.
        if channel == "drag-and-drop", let dragAndDrop = policy.dragAndDrop {
            let target = request.target
            if dragAndDrop == "all" { return answer("allow", to: target, "drag-and-drop.policy-all") }
            // The drag-and-drop callback reports only "AppConnect apps only": none calls nothing.
            if dragAndDrop == "none" { return answer("deny", to: nil, "drag-and-drop.policy-none") }
            if let target, has(policy.appConnectApps, target) {
                return answer("allow", to: target, "drag-and-drop.policy-appconnect-app")
            }
            return answer("deny", to: nil, "drag-and-drop.policy-non-appconnect-app", callback: dragAndDropBlocked)
        }

        // 3. A web address under the Web DLP setting, before anything about Open In.
        if channel == "open-url", let setting = policy.webDLP, request.scheme == "http" || request.scheme == "https" {
            if setting == "not-allowed" {
                return policy.webAtWorkInstalled ? answer("redirect", to: policy.webAtWorkTarget, "web-dlp.web-at-work-redirect")
                    : answer("deny", to: nil, "web-dlp.blocked")
            }
            return policy.webAtWorkInstalled ? answer("allow", to: nil, "web-dlp.user-chooses")
                : answer("allow", to: handler(policy, request.scheme!), "web-dlp.allowed")
        }

        // 4. A share-sheet activity the server excludes is not offered, whatever the Open In policy.
        if channel == "activity-view", let target = request.target, has(policy.excludedActivities, target) {
            return answer("deny", to: nil, "activity-view.excluded-activity")
        }

        // 5. Open In enforcement disabled by the server.
        if policy.enforcementDisabled { return answer("allow", to: receiver(policy, request), "enforcement-disabled.allow") }

        // 6. AUTHORIZED.
        if policy.status == "AUTHORIZED" { return answer("allow", to: receiver(policy, request), "authorized.allow") }

        // From here the policy is UNAUTHORIZED or WHITELIST.
        let mailAllowed = policy.status == "WHITELIST" && has(policy.whitelist, mailActivity) && has(policy.whitelist, mobileMail)
        func listed(_ id: String) -> Bool {
            if policy.status != "WHITELIST" { return false }
            if id == mailActivity || id == mobileMail { return mailAllowed }
            return has(policy.whitelist, id)
        }

        switch channel {
        case "activity-view":
            // 7. The library cannot tell which app the user picks.
            return answer("deny", to: nil, "activity-view.blocks-all", callback: openInBlocked, argument: policy.status)

        case "open-url":
            let url = request.url!
            let scheme = request.scheme!
            if scheme == "mailto" {
                // 8. openURL: with mailto: goes to the device's mail app.
                let app = mailApp(policy)
                let native = app == mobileMail
                if native && mailAllowed { return answer("allow", to: mobileMail, "mailto.mail-allowed") }
                if !native && listed(app) { return answer("allow", to: app, "mailto.listed-handler") }
                if policy.schemeBlockingDisabled { return answer("allow", to: app, "mailto.scheme-blocking-disabled") }
                if policy.emailPlusInstalled { return answer("redirect", to: policy.emailPlusTarget, "mailto.email-plus-redirect") }
                return answer("deny", to: nil, "mailto.blocked", callback: openURLBlocked, argument: url)
            }
            // 9. openURL: with another scheme.
            if has(policy.appSchemes, scheme) { return answer("allow", to: nil, "open-url.own-scheme") }
            if scheme == "http" || scheme == "https" {
                return answer("allow", to: handler(policy, scheme), "open-url.web-scheme")
            }
            guard let app = handler(policy, scheme) else {
                return answer("deny", to: nil, "open-url.unknown-handler", callback: openURLBlocked, argument: url)
            }
            if listed(app) { return answer("allow", to: app, "open-url.listed-handler") }
            return answer("deny", to: nil, "open-url.unlisted-handler", callback: openURLBlocked, argument: url)

        case "mail-link", "mail-compose":
            // 10. A tapped mailto link goes to the device's mail app; the composer is always native Mail.
            let app = channel == "mail-link" ? mailApp(policy) : mobileMail
            if app == mobileMail {
                if mailAllowed { return answer("allow", to: mobileMail, "mail-view.mail-allowed") }
            } else if listed(app) {
                return answer("allow", to: app, "mail-view.listed-handler")
            }
            return answer("deny", to: nil, "mail-view.blocked", callback: openInBlocked, argument: policy.status)

        case "drag-and-drop":
            // 12. Drag and drop with no drag-and-drop policy: follows the Open In listing.
            let target = request.target!
            if listed(target) { return answer("allow", to: target, "drag-and-drop.listed-target") }
            return answer("deny", to: nil, "drag-and-drop.unlisted-target")

        default:
            // 11. Document interaction, Quick Look, app extensions.
            let target = request.target!
            if listed(target) { return answer("allow", to: target, "document.listed-target") }
            return answer("substitute-dummy-file", to: target, "document.unlisted-target",
                          callback: openInBlocked, argument: policy.status)
        }
    }

    /// Who receives a request that is allowed without looking at its target.
    static func receiver(_ policy: Setup, _ request: Share) -> String? {
        switch request.channel {
        case "mail-link": return mailApp(policy)
        case "mail-compose": return mobileMail
        case "open-from", "print", "paste": return nil
        case "open-url":
            let scheme = request.scheme!
            if scheme == "mailto" { return mailApp(policy) }
            if has(policy.appSchemes, scheme) { return nil }
            return handler(policy, scheme)
        default: return request.target // documents, drag and drop, and the app picked in the share sheet (if any)
        }
    }

    /// The device's mail app: its `mailto` handler, native Mail when there is none.
    /// Either Mail ID as the handler means native Mail, the app `com.apple.mobilemail`.
    static func mailApp(_ policy: Setup) -> String {
        guard let app = handler(policy, "mailto") else { return mobileMail }
        return app == mailActivity ? mobileMail : app
    }

    /// The app the device opens for `scheme` (lowercase): the last one recorded.
    static func handler(_ policy: Setup, _ scheme: String) -> String? {
        var found: String?
        for entry in policy.handlers where entry.scheme == scheme { found = entry.app }
        return found
    }

    // MARK: Plain helpers

    static func has(_ list: [String], _ value: String) -> Bool {
        for element in list where same(element, value) { return true }
        return false
    }

    /// Whether two strings are the same UTF-8 bytes, one by one.
    static func same(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        if left.count != right.count { return false }
        for index in 0..<left.count where left[index] != right[index] { return false }
        return true
    }

    /// ASCII-only lowercasing.
    static func lowercase(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value >= 65 && scalar.value <= 90 {
                scalars.append(Unicode.Scalar(scalar.value + 32)!)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    // Byte sets: a `Set<Character>` would take a Kelvin sign for `K`.
    static let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let digits = Set("0123456789".utf8)
    static let hexDigits = Set("0123456789abcdefABCDEF".utf8)

    /// 1 to 255 bytes; dot-separated segments of letters, digits, `-` and `_`, none empty.
    static func isBundleID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.isEmpty || bytes.count > 255 { return false }
        for segment in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            if segment.isEmpty { return false }
            for byte in segment where !(letters.contains(byte) || digits.contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) {
                return false
            }
        }
        return true
    }

    /// A letter, then letters, digits, `+`, `-` or `.` (RFC 3986 section 3.1).
    static func isSchemeName(_ text: String) -> Bool { isSchemeBytes(Array(text.utf8)) }

    static func isSchemeBytes(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, letters.contains(first) else { return false }
        for byte in bytes where !(letters.contains(byte) || digits.contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")) {
            return false
        }
        return true
    }

    /// Bytes RFC 3986 allows in a URL: unreserved, gen-delims, sub-delims (and `%` escapes, checked apart).
    static let urlCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=".utf8)

    /// The lowercased scheme of a well-formed URL, or nil when the URL is malformed.
    static func schemeOfURL(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = Array(bytes[..<colon])
        if !isSchemeBytes(scheme) { return nil }
        let rest = Array(bytes[(colon + 1)...])
        var index = 0
        while index < rest.count {
            let byte = rest[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 >= rest.count { return nil }
                if !(hexDigits.contains(rest[index + 1]) && hexDigits.contains(rest[index + 2])) { return nil }
                index += 3
            } else {
                if !urlCharacters.contains(byte) { return nil }
                index += 1
            }
        }
        return lowercase(String(decoding: scheme, as: UTF8.self))
    }
}
