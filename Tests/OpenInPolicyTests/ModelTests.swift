import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@Suite("Model values")
struct ModelTests {
    @Test(arguments: ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail", "a", "com.example.app-1", "com.example.my_app"])
    func validBundleIDs(_ text: String) throws {
        #expect(try BundleID(text).rawValue == text)
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("com..apple", "it has an empty segment (two dots, or a dot at the start)"),
        (".com.apple", "it has an empty segment (two dots, or a dot at the start)"),
        ("com.apple.", "it has an empty segment (a dot at the end)"),
        ("com.apple mail", "it contains a space"),
        ("com.a;com.b", "it contains ';': write one ID per entry"),
        ("com.a\u{7}", "it contains a control character"),
        ("com.äpple", "it contains 'ä' (U+00E4 LATIN SMALL LETTER A WITH DIAERESIS), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')"),
        ("com.example.viewer\u{037E}com.evil.exfil", "it contains ';' (U+037E GREEK QUESTION MARK), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')"),
        ("com.\u{200F}evil", "it contains (U+200F RIGHT-TO-LEFT MARK), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')"),
        ("com/apple", "it contains '/' (allowed: letters, digits, '-', '_', '.')"),
    ])
    func malformedBundleIDs(_ text: String, _ reason: String) {
        #expect(throws: InputError.malformedBundleID(text, reason: reason)) { try BundleID(text) }
    }

    @Test func bundleIDsAreCaseSensitive() throws {
        #expect(try BundleID("com.apple.MobileMail") != .mobileMail)
        #expect(try !BundleID("com.apple.MobileMail").isNativeMail)
    }

    @Test(arguments: [("mailto:a@example.com", "mailto"), ("MAILTO:a@example.com", "mailto"), ("HTTPS://x.example", "https"),
                      ("my-app+v2.x:open?doc=%20a", "my-app+v2.x")])
    func urlSchemes(_ text: String, _ scheme: String) throws {
        #expect(try ShareURL(text).scheme == scheme)
    }

    @Test(arguments: [
        (" mailto:a", "it starts with a space"),
        ("example.com/a", "it has no scheme (expected e.g. 'mailto:' or 'https:')"),
        ("", "it is empty"),
        (":x", "the scheme before ':' is empty"),
        ("1http://x", "it does not start with a scheme (a letter)"),
        ("mailto:a b", "it contains a space (write %20)"),
        ("mailto:a%2", "'%' is not followed by two hex digits"),
        ("mailto:a%zz", "'%' is not followed by two hex digits"),
        ("mailto:a\u{0}", "it contains a control character"),
        ("mailto:é", "it contains a raw non-ASCII character (percent-encode it)"),
        ("mailto:<a>", "it contains '<', which a URL may not hold unencoded"),
    ])
    func malformedURLs(_ text: String, _ reason: String) {
        #expect(throws: InputError.malformedURL(text, reason: reason)) { try ShareURL(text) }
    }

    @Test func requestsCheckTheirFields() throws {
        #expect(throws: InputError.missingTarget(.quickLook)) { try ShareRequest(channel: "quick-look") }
        #expect(throws: InputError.missingURL(.openURL)) { try ShareRequest(channel: "open-url") }
        #expect(throws: InputError.unexpectedField("target", .openURL)) {
            try ShareRequest(channel: "open-url", target: "com.apple.mobilemail", url: "mailto:a")
        }
        #expect(throws: InputError.unexpectedField("url", .documentInteraction)) {
            try ShareRequest(channel: "document-interaction", target: "com.x.y", url: "mailto:a")
        }
        #expect(throws: InputError.notMailto("https://x")) { try ShareRequest(channel: "mail-link", url: "https://x") }
        #expect(throws: InputError.unexpectedField("target", .mailCompose)) { try ShareRequest(channel: "mail-compose", target: "com.x.y") }
        #expect(throws: InputError.unknownChannel("share-sheet")) { try ShareRequest(channel: "share-sheet") }
    }

    @Test(arguments: ["whitelist", "WHITELIST", "ACOPENINPOLICY_WHITELIST", "acopeninpolicy_whitelist", "2"])
    func policyNames(_ text: String) throws {
        #expect(try OpenInStatus(parsing: text) == .whitelist)
    }

    @Test(arguments: ["3", "-1", "allow", "", "whitelisted", "2.0"])
    func unknownPolicies(_ text: String) {
        #expect(throws: InputError.unknownPolicy(text)) { try OpenInStatus(parsing: text) }
    }

    @Test func allAppConnectAppsIsAWhitelistOfTheDevicesAppConnectApps() throws {
        var device = DeviceFacts()
        device.appConnectApps = [try BundleID("com.example.docs")]
        let policy = PolicyInputs(setting: try PolicySetting(parsing: "appconnect"),
                                  stated: Policy(status: .authorized, whitelist: Whitelist([.emailPlus]), device: device)).policy
        #expect(policy.status == .whitelist)
        #expect(policy.whitelist.ids == [try BundleID("com.example.docs")])
    }

    @Test func theMailPairNeedsBothHalves() {
        #expect(!Whitelist([.mobileMail]).lists(.mobileMail))
        #expect(!Whitelist([.mailActivity]).lists(.mailActivity))
        #expect(Whitelist([.mobileMail, .mailActivity]).lists(.mailActivity))
        #expect(!Policy(status: .whitelist, whitelist: Whitelist([.mobileMail])).mailAllowed)
    }

    @Test(arguments: [("true", true), ("True", false), ("TRUE", false), ("yes", false), ("1", false), ("", false)])
    func schemeBlockingConfigAcceptsExactlyTrue(_ value: String, _ honoured: Bool) {
        #expect(AppConfig([AppConfig.disableSchemeBlockingKey: value]).disablesSchemeBlocking == honoured)
    }

    @Test(arguments: [("yes", true), ("Yes", true), ("TRUE", true), ("true", true), ("1", false), ("no", false)])
    func enforcementConfigAcceptsYesOrTrue(_ value: String, _ honoured: Bool) {
        #expect(AppConfig([AppConfig.disableOpenInEnforcementKey: value]).disablesOpenInEnforcement == honoured)
    }

    @Test func schemesAreValidatedAndFolded() throws {
        var app = AppFacts()
        try app.addScheme("MyApp")
        #expect(app.urlSchemes == ["myapp"])
        #expect(throws: InputError.malformedScheme("my app")) { try app.addScheme("my app") }
        #expect(throws: InputError.malformedScheme("1x")) { try app.addScheme("1x") }
    }

    @Test func everyRuleHasAnIDSummaryReasonAndSource() {
        let ids = RuleInfo.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        for rule in RuleInfo.all {
            #expect(!rule.summary.isEmpty && !rule.reason.isEmpty && !rule.source.isEmpty && !rule.quote.isEmpty, "\(rule.id)")
            #expect(rule.reason.hasSuffix("."), "\(rule.id): a reason is one sentence")
            #expect((1...RuleInfo.stepCount).contains(rule.step))
        }
        #expect(RuleInfo.all.map(\.step) == RuleInfo.all.map(\.step).sorted())
    }
}
