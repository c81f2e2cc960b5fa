import Foundation
import OpenInTestSupport

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): a tiny, fast, seedable generator, so a random run can
/// be repeated exactly from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (the tiny modulo bias does not matter here).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `percent` / 100.
    mutating func percent(_ percent: Int) -> Bool { below(100) < percent }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    /// Up to `maximum` elements drawn from `values` (repeats possible).
    mutating func some<T>(_ values: [T], upTo maximum: Int) -> [T] {
        (0..<below(maximum + 1)).map { _ in pick(values) }
    }

    /// A generator for the `index`-th item of a stream seeded with `seed`:
    /// items can be regenerated one by one without replaying the stream.
    static func stream(_ seed: UInt64, item index: Int) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        return SplitMix64(seed: mixer.next())
    }
}

/// How many random cases to run and from which seed: `OPENIN_DIFF_SEED`
/// (decimal or `0x` hex) and `OPENIN_DIFF_COUNT` override the defaults.
struct RandomRunSettings {
    /// The default seed: fixed, so a plain `swift test` is reproducible.
    static let defaultSeed: UInt64 = 0x6F70_656E_696E
    /// The default number of (policy, context, request) triples: 1,000,000 at soak size, a third under plain `swift test` (``Soak``).
    static let defaultCount = Soak.size(1_000_000)

    let seed: UInt64
    let count: Int
    /// How many parts a run is split into, to use every core.
    let shards = max(1, ProcessInfo.processInfo.activeProcessorCount)

    static func fromEnvironment() -> RandomRunSettings {
        let environment = ProcessInfo.processInfo.environment
        var seed = defaultSeed
        if let text = environment["OPENIN_DIFF_SEED"] {
            let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            seed = parsed ?? defaultSeed
        }
        let count = environment["OPENIN_DIFF_COUNT"].flatMap { Int($0) }.map { max($0, 1) } ?? defaultCount
        return RandomRunSettings(seed: seed, count: count)
    }

    var seedText: String { "0x" + String(seed, radix: 16) }
}

/// Random policies and requests as plain strings, valid ones and deliberately
/// invalid ones, drawn from small pools so every rule and every corner is hit often.
enum RandomInputs {
    static let mailActivity = "com.apple.UIKit.activity.Mail"
    static let mobileMail = "com.apple.mobilemail"
    static let emailPlus = "com.mobileiron.ios.emailplus"
    static let otherEmailPlus = "com.example.emailplus-alt"

    /// Well-formed bundle IDs, with case variants of the Mail and Email+ IDs
    /// (different IDs: matching is case-sensitive) and the longest valid ID.
    static let bundleIDs = [
        mailActivity, mobileMail, "com.apple.MobileMail", "com.apple.uikit.activity.mail",
        emailPlus, "com.mobileiron.ios.EmailPlus", otherEmailPlus,
        "com.example.viewer", "com.example.editor", "com.acme.docs", "com.acme.x-handler",
        "org.example.notes_2", "viewer", String(repeating: "a", count: 255),
    ]
    /// Targets drawn more often than the rest, so listed targets are common.
    static let commonTargets = [mailActivity, mobileMail, "com.example.viewer", "com.acme.docs", emailPlus]

    static let malformedBundleIDs = [
        "", "com..example", ".com.example", "com.example.", "com example", " com.example.viewer",
        "com.example.viewer;com.acme.docs", "com,example", "com/example", "com.ex\u{E4}mple",
        "com.example\t", "com.example\u{0}", "com.example.viewer\n", "com.example.viewer!",
        String(repeating: "a", count: 256),
        // Unicode the SDK's byte comparison does not fold: a Greek question mark for ';', a Kelvin sign
        // for 'K', a combining mark, right-to-left marks, full-width and Cyrillic look-alikes.
        "com.example.viewer\u{037E}com.acme.docs", "com.\u{212A}elvin.docs", "com.example.viewe\u{0301}r",
        "com.example.\u{200F}viewer", "com.example.viewer\u{200E}", "\u{FF43}om.example.viewer", "com.ex\u{0430}mple.viewer",
    ]

    /// Scheme names for the app's schemes and the device's handlers, in several cases.
    static let schemes = ["x-docs", "X-Docs", "acme+viewer", "Acme+Viewer", "dropbox", "myapp", "MyApp",
                          "http", "HTTPS", "mailto", "ftp", "a", "mailto2", "v1.2"]
    static let ownSchemes = ["myapp", "MyApp", "MYAPP", "myapp", "x-docs", "http", "mailto"]
    static let malformedSchemes = ["", "1abc", "my app", "x_y", "-x", "\u{E9}", "+a", "x-doc\u{0455}", "\u{212A}ey", "myapp\u{200F}"]

    static let mailtoURLs = ["mailto:a@example.com", "MAILTO:b@example.com", "Mailto:", "mailto:?subject=Hi%20there",
                             "mailto:a@example.com,c@example.org"]
    static let otherURLs = [
        "http://example.com/x", "HTTPS://example.com", "https:", "Http://example.com/?q=a%2Fb",
        "myapp://open?doc=1", "MYAPP:x", "x-docs://file/1", "X-DOCS:abc", "acme+viewer:doc",
        "ftp://example.com/f", "unknown-scheme:zzz", "dropbox://x", "a:", "tel:+15551234",
        "mailto2:x", "v1.2:y", "file:///tmp/a%2Fb#frag", "x-docs:[::1]!$&'()*+,;=~",
    ]
    static let malformedURLs = [
        " mailto:a@example.com", "example.com", "://x", "1http://x", "mailto:a b", "mailto:%zz",
        "mailto:%4", "http://exa<mple", "", "http://ex\u{E4}mple", ":mailto", "mailto", "https://x|y",
        "mailto:a\u{7F}", "x-docs:\"q\"", "http://x/{y}", "my_app://x", "\u{E9}cole:x", "mailto:a\r\nb",
        "mailto:a%", "HTTP//example.com", "mailto\u{037E}a@example.com", "\u{FF4D}ailto:a@example.com", "mailto:a@example.com\u{202E}",
    ]

    static let channels = ["document-interaction", "quick-look", "app-extension", "activity-view",
                           "open-url", "mail-link", "mail-compose", "drag-and-drop", "open-from", "copy", "print", "paste", "keyboard"]
    /// Channels drawn with extra weight: open-url has the most rules.
    static let weightedChannels = channels + ["open-url", "open-url", "drag-and-drop", "mail-link"]
    static let unknownChannels = ["Document-Interaction", "open_url", "", "share-sheet", "drag_and_drop", " open-url",
                                  "open_from", "Copy", "Paste", "openfrom", "keyboards", "key-board",
                                  "quick-loo\u{212A}", "open-url\u{200F}", "mail\u{2010}link", "mail-compose\u{0301}"]

    static let policyNames = [
        "unauthorized", "UNAUTHORIZED", "ACOPENINPOLICY_UNAUTHORIZED", "0",
        "authorized", "Authorized", "ACOPENINPOLICY_AUTHORIZED", "1",
        "whitelist", "Whitelist", "ACOPENINPOLICY_WHITELIST", "acopeninpolicy_whitelist", "2", "whitelist",
        "appconnect", "AppConnect", "appconnect",
        "ACOpenInPolicyUnauthorized", "ACOpenInPolicyAuthorized", "ACOpenInPolicyWhitelist", "acopeninpolicywhitelist",
    ]
    static let unknownPolicyNames = ["", "3", "-1", "allow", "white list", "ACOPENINPOLICY_APPCONNECT", "authorised", " whitelist",
                                     "whitelis\u{0074}\u{0301}", "\u{FF57}hitelist", "ACOPENINPOLICY_WHITELIST\u{200F}", "AC\u{041E}penInPolicyWhitelist"]

    static let configKeys = ["MI_AC_DISABLE_SCHEME_BLOCKING", "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT",
                             "mi_ac_disable_scheme_blocking", "Mi_Ac_Disable_Open_In_Enforcement", "OTHER_SETTING",
                             "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS", "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARD"]
    /// No value has surrounding spaces: a table cell could not hold them, and a mismatch must print as a faithful row.
    static let configValues = ["true", "True", "TRUE", "yes", "Yes", "YES", "1", "false", "no", "",
                               "\u{FF54}rue", "true\u{200E}", "ye\u{0073}\u{0307}"]
    /// Keys that look like the two override keys but are other bytes: the library never reads them.
    static let lookalikeConfigKeys = [
        "MI_AC_DISABLE_SCHEME_BLOCKING": ["MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING", "MI_AC_DISABLE_SCHEME_BLOCKING\u{200F}",
                                          "MI_AC_DISABLE_SCHEME_BLOC\u{041A}ING"],
        "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": ["MI_AC_DISABLE_OPEN_IN_ENFORCEMEN\u{0054}\u{0301}", "\u{FF2D}I_AC_DISABLE_OPEN_IN_ENFORCEMENT"],
        "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": ["MI_AC_IOS_ALLOW_CUSTOM_\u{212A}EYBOARDS", "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS\u{200F}"],
    ]

    static let dragAndDropPolicies = ["all", "ALL", "appconnect", "AppConnect", "none", "None"]
    static let unknownDragAndDropPolicies = ["some", "", "app-connect", "true", "AppConnect apps", "\u{0430}ll", "none\u{200F}", "appconnec\u{0074}\u{0307}"]

    static let emailPlusIDLists = [[], [emailPlus], [otherEmailPlus, emailPlus], [otherEmailPlus]]

    static let openFromNames = [
        "unauthorized", "ACOpenFromPolicyUnauthorized", "ACOPENFROMPOLICY_UNAUTHORIZED", "0",
        "authorized", "Authorized", "acopenfrompolicyauthorized", "1",
        "whitelist", "WHITELIST", "ACOpenFromPolicyWhitelist", "2", "whitelist", "whitelist",
        "appconnect", "AppConnect",
    ]
    static let unknownOpenFromNames = ["", "3", "some", "ACOPENINPOLICY_WHITELIST", "white-list", "-1"]
    static let pasteboardNames = [
        "unauthorized", "ACPasteboardPolicyUnauthorized", "0",
        "authorized", "ACPASTEBOARDPOLICY_AUTHORIZED", "1",
        "securecopy", "SecureCopy", "ACPasteboardPolicySecureCopy", "2", "securecopy",
    ]
    static let unknownPasteboardNames = ["secure", "3", "secure-copy", "whitelist", ""]
    static let webDLPNames = ["allowed", "not-allowed", "Allowed", "NOT-ALLOWED", "not-allowed"]
    static let unknownWebDLPNames = ["no", "true", "not_allowed", "", "allow", "not allowed", "allowe\u{0064}\u{0307}"]
    static let activityTypes = ["com.apple.UIKit.activity.AirDrop", "com.apple.UIKit.activity.Print", mailActivity, "com.example.viewer"]
    static let keyboards = ["com.apple.keyboard", "com.apple.Keyboard", "com.example.swipekeys", "com.acme.keys"]
    static let printNames = ["unauthorized", "ACPrintPolicyUnauthorized", "0", "authorized", "Authorized", "ACPRINTPOLICY_AUTHORIZED", "1"]
    static let unknownPrintNames = ["2", "securecopy", "allow", ""]

    /// Shared file names: none of them, nor their stems or extensions, can
    /// appear by chance in a dummy name made of a fixed word and hex digits.
    static let documents = ["Q3 report.pdf", "secret-plan.docx", "payroll.xlsx", "notes.txt", "IMG_0042.HEIC",
                            "archive.tar.gz", "no-extension", "r\u{E9}sum\u{E9}.pages", ".hidden", "Keynote talk.key",
                            "strange.acblocked"]

    /// A policy; `deliberatelyInvalid` says the generator broke one of its parts on purpose.
    static func policy(_ rng: inout SplitMix64) -> (policy: ReferenceModel.PolicyInput, deliberatelyInvalid: Bool) {
        var broken = false
        func maybeBreak(_ percent: Int, _ rng: inout SplitMix64) -> Bool {
            let yes = rng.percent(percent)
            if yes { broken = true }
            return yes
        }
        var input = ReferenceModel.PolicyInput(policy: rng.pick(policyNames))
        if maybeBreak(2, &rng) { input.policy = rng.pick(unknownPolicyNames) }

        input.whitelist = rng.some(bundleIDs, upTo: 4) + rng.some(commonTargets, upTo: 2)
        if rng.percent(40) { input.whitelist += [mailActivity, mobileMail] }
        if rng.percent(15) { input.whitelist.append(rng.pick([mailActivity, mobileMail])) }
        input.whitelist.shuffle(using: &rng)
        if maybeBreak(1, &rng) { input.whitelist.append(rng.pick(malformedBundleIDs)) }

        for key in configKeys where rng.percent(key == "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT" ? 15 : 30) {
            // Now and then a look-alike in the key's place (never beside it: a Swift dictionary would merge the two).
            let written = rng.percent(20) ? lookalikeConfigKeys[key].map { rng.pick($0) } ?? key : key
            // A look-alike set to a value that would turn the real key on is the case that matters.
            let value = written != key && rng.percent(60) ? rng.pick(["true", "yes"]) : rng.pick(configValues)
            input.config.append(.init(key: written, value: value))
        }
        input.plistOverride = rng.percent(20)

        input.emailPlusInstalled = rng.percent(40)
        input.emailPlusIDs = rng.pick(emailPlusIDLists)
        if maybeBreak(1, &rng) { input.emailPlusIDs.append(rng.pick(malformedBundleIDs)) }

        for _ in 0..<rng.below(5) {
            input.handlers.append(.init(scheme: rng.pick(schemes), app: rng.percent(70) ? rng.pick(commonTargets) : rng.pick(bundleIDs)))
        }
        // The device's mail app: a mailto handler, often a third-party app (listed or not), sometimes a Mail ID.
        if rng.percent(25) { input.handlers.append(.init(scheme: rng.pick(["mailto", "MAILTO"]), app: rng.pick(bundleIDs))) }
        if maybeBreak(1, &rng) { input.handlers.append(.init(scheme: rng.pick(malformedSchemes), app: rng.pick(bundleIDs))) }
        if maybeBreak(1, &rng) { input.handlers.append(.init(scheme: rng.pick(schemes), app: rng.pick(malformedBundleIDs))) }

        input.appConnectApps = rng.some(bundleIDs, upTo: 4) + rng.some(commonTargets, upTo: 3)
        if rng.percent(25) { input.appConnectApps += [mailActivity, mobileMail] }
        if maybeBreak(1, &rng) { input.appConnectApps.append(rng.pick(malformedBundleIDs)) }

        input.appSchemes = rng.some(ownSchemes, upTo: 2)
        if maybeBreak(1, &rng) { input.appSchemes.append(rng.pick(malformedSchemes)) }

        if rng.percent(50) { input.dragAndDrop = rng.pick(dragAndDropPolicies) }
        if maybeBreak(1, &rng) { input.dragAndDrop = rng.pick(unknownDragAndDropPolicies) }

        input.enforcing = rng.percent(85)

        // Beyond Open In: each control is set in most policies and left out in some.
        if rng.percent(80) { input.openFromPolicy = rng.pick(openFromNames) }
        if maybeBreak(1, &rng) { input.openFromPolicy = rng.pick(unknownOpenFromNames) }
        if rng.percent(70), input.openFromPolicy.map(ReferenceModel.lowercase) != "appconnect" {
            input.openFromWhitelist = rng.some(bundleIDs, upTo: 3) + rng.some(commonTargets, upTo: 2)
            if maybeBreak(1, &rng) { input.openFromWhitelist!.append(rng.pick(malformedBundleIDs)) }
        }
        if rng.percent(80) { input.pasteboardPolicy = rng.pick(pasteboardNames) }
        if maybeBreak(1, &rng) { input.pasteboardPolicy = rng.pick(unknownPasteboardNames) }
        if rng.percent(85) { input.secureServicesAvailable = rng.percent(70) }
        if rng.percent(80) { input.printPolicy = rng.pick(printNames) }
        if maybeBreak(1, &rng) { input.printPolicy = rng.pick(unknownPrintNames) }

        // Web DLP, excluded activities, keyboards.
        if rng.percent(60) { input.webDLP = rng.pick(webDLPNames) }
        if maybeBreak(1, &rng) { input.webDLP = rng.pick(unknownWebDLPNames) }
        input.webAtWorkInstalled = rng.percent(50)
        if rng.percent(20) { input.webAtWorkIDs = ["com.example.securebrowser"] + (rng.percent(50) ? ["com.mobileiron.ios.webatwork"] : []) }
        if maybeBreak(1, &rng) { input.webAtWorkIDs.append(rng.pick(malformedBundleIDs)) }
        input.excludedActivities = rng.some(activityTypes, upTo: 2)
        if maybeBreak(1, &rng) { input.excludedActivities.append(rng.pick(malformedBundleIDs)) }
        input.appAllowsCustomKeyboards = rng.percent(70)
        return (input, broken)
    }

    /// A request; `deliberatelyInvalid` says the generator broke it on purpose.
    static func request(_ rng: inout SplitMix64) -> (request: ReferenceModel.RequestInput, deliberatelyInvalid: Bool) {
        var broken = false
        func maybeBreak(_ percent: Int, _ rng: inout SplitMix64) -> Bool {
            let yes = rng.percent(percent)
            if yes { broken = true }
            return yes
        }
        func target(_ rng: inout SplitMix64) -> String {
            if maybeBreak(1, &rng) { return rng.pick(malformedBundleIDs) }
            return rng.percent(60) ? rng.pick(commonTargets) : rng.pick(bundleIDs)
        }
        func url(_ rng: inout SplitMix64, mailto: Int) -> String {
            if maybeBreak(2, &rng) { return rng.pick(malformedURLs) }
            return rng.percent(mailto) ? rng.pick(mailtoURLs) : rng.pick(otherURLs)
        }
        var request = ReferenceModel.RequestInput(channel: rng.pick(weightedChannels))
        switch request.channel {
        case "document-interaction", "quick-look", "app-extension", "drag-and-drop":
            if !maybeBreak(1, &rng) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "activity-view":
            if rng.percent(75) { request.target = rng.percent(30) ? rng.pick(activityTypes) : target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "open-url":
            if !maybeBreak(1, &rng) { request.url = url(&rng, mailto: 35) }
            if maybeBreak(1, &rng) { request.target = target(&rng) }
        case "open-from":
            if rng.percent(80) { request.source = target(&rng) }
            if maybeBreak(1, &rng) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "copy":
            if rng.percent(50) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "print":
            if maybeBreak(1, &rng) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "paste":
            if rng.percent(75) { request.source = target(&rng) }
            if maybeBreak(1, &rng) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "keyboard":
            if rng.percent(85) { request.target = rng.percent(70) ? rng.pick(keyboards) : target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        case "mail-link":
            if rng.percent(80) {
                if maybeBreak(3, &rng) { request.url = rng.pick(otherURLs) } else { request.url = url(&rng, mailto: 100) }
            }
            if maybeBreak(1, &rng) { request.target = target(&rng) }
        default:
            if maybeBreak(1, &rng) { request.target = target(&rng) }
            if maybeBreak(1, &rng) { request.url = url(&rng, mailto: 50) }
        }
        if request.channel != "open-from", request.channel != "paste", maybeBreak(1, &rng) { request.source = target(&rng) }
        if maybeBreak(1, &rng) { request.channel = rng.pick(unknownChannels) }
        if rng.percent(75) { request.document = rng.percent(70) ? rng.pick(documents) : randomDocumentName(&rng) }
        return (request, broken)
    }

    /// A made-up file name from letters that are neither hex digits nor in
    /// "AppConnect-Blocked", so a dummy name cannot hold its parts by chance.
    static func randomDocumentName(_ rng: inout SplitMix64) -> String {
        let letters = Array("ghijmqrsuvwxyzGHIJMQRSUVWXYZ _")
        let stem = String((0..<(3 + rng.below(10))).map { _ in rng.pick(letters) })
        let ext = String((0..<(2 + rng.below(3))).map { _ in rng.pick(Array("ghijmqrsuvwxyz")) })
        return stem + "." + ext
    }
}
