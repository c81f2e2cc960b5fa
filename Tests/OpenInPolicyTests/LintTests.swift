import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Every lint check, with the exact text of its findings.
@Suite("PolicyLint")
struct LintTests {
    /// Lints one JSON policy file and writes each finding on one line:
    /// `line:column severity code name keyPath: message | fix: …`.
    /// The findings for one policy file; OI023 whitelist-empty is left out unless asked for, since most
    /// tests here write `"openInPolicy": "whitelist"` with no list to test another check.
    static func lint(_ json: String, file: String = "policy.json", keepingEmptyWhitelist: Bool = false) -> [String] {
        render(PolicyLint.lint([PolicyDocument(policyJSON: Array(json.utf8), file: file)])
            .filter { keepingEmptyWhitelist || $0.check != .whitelistEmpty })
    }

    @Test("OI023 whitelist-empty: WHITELIST with no list, or an empty one, blocks everything, mail included")
    func whitelistEmpty() {
        let fix = "list the apps that may receive documents in openInWhitelist (both com.apple.UIKit.activity.Mail and com.apple.mobilemail for native Mail), or set openInPolicy to unauthorized if none may"
        #expect(Self.lint(#"{"openInPolicy": "whitelist"}"#, keepingEmptyWhitelist: true) == [
            "1:18 warning OI023 whitelist-empty openInPolicy: the Open In policy is WHITELIST but no openInWhitelist is given: every app is blocked, native Mail included | fix: \(fix)",
        ])
        #expect(Self.lint(#"{"openInPolicy": 2, "openInWhitelist": []}"#, keepingEmptyWhitelist: true) == [
            "1:21 warning OI023 whitelist-empty openInWhitelist: the Open In policy is WHITELIST but openInWhitelist is empty: every app is blocked, native Mail included | fix: \(fix)",
        ])
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.a"]}"#, keepingEmptyWhitelist: true) == [])
        #expect(Self.lint(#"{"openInPolicy": "appconnect"}"#, keepingEmptyWhitelist: true) == [])
        #expect(Self.lint(#"{"openInPolicy": "unauthorized"}"#, keepingEmptyWhitelist: true) == [])
    }

    static func render(_ findings: [LintFinding]) -> [String] {
        findings.map { finding in
            let place = finding.location.line.map { "\($0):\(finding.location.column ?? 0)" } ?? finding.location.file
            return "\(place) \(finding.severity) \(finding.check) \(finding.location.keyPath): \(finding.message) | fix: \(finding.fix)"
        }
    }

    @Test func aCleanPolicyHasNoFindings() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist",
             "openInWhitelist": ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.docs"],
             "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "false", "other": "x"}}
            """) == [])
    }

    @Test("OI001 mail-pair-half names the missing ID")
    func mailPairHalf() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist",
             "openInWhitelist": ["com.example.docs", "com.apple.mobilemail"]}
            """) == [
            "2:42 error OI001 mail-pair-half openInWhitelist[1]: the whitelist lists com.apple.mobilemail but not com.apple.UIKit.activity.Mail: native Mail counts as listed only when both are, so it stays blocked | fix: add com.apple.UIKit.activity.Mail to openInWhitelist, or remove com.apple.mobilemail",
        ])
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.apple.UIKit.activity.Mail"]}"#) == [
            "1:51 error OI001 mail-pair-half openInWhitelist[0]: the whitelist lists com.apple.UIKit.activity.Mail but not com.apple.mobilemail: native Mail counts as listed only when both are, so it stays blocked | fix: add com.apple.mobilemail to openInWhitelist, or remove com.apple.UIKit.activity.Mail",
        ])
    }

    @Test("OI002 case-duplicate: two entries differ only by case")
    func caseDuplicate() {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.notes", "com.example.Notes"]}"#) == [
            "1:72 warning OI002 case-duplicate openInWhitelist[1]: \"com.example.Notes\" differs only in letter case from \"com.example.notes\" at openInWhitelist[0]: bundle IDs are case sensitive, so at most one of them names the real app | fix: keep the spelling of the app's actual bundle ID and remove the other",
        ])
    }

    @Test("OI003 well-known-id-case: com.apple.MobileMail")
    func wellKnownIDCase() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist",
             "openInWhitelist": ["com.apple.UIKit.activity.Mail", "com.apple.MobileMail", "com.mobileiron.ios.EmailPlus"]}
            """) == [
            "2:22 error OI001 mail-pair-half openInWhitelist[0]: the whitelist lists com.apple.UIKit.activity.Mail but not com.apple.mobilemail: native Mail counts as listed only when both are, so it stays blocked | fix: add com.apple.mobilemail to openInWhitelist, or remove com.apple.UIKit.activity.Mail",
            "2:55 error OI003 well-known-id-case openInWhitelist[1]: \"com.apple.MobileMail\" differs only in letter case from com.apple.mobilemail (native Mail): bundle IDs are case sensitive, so this entry matches no app | fix: write com.apple.mobilemail",
            "2:79 error OI003 well-known-id-case openInWhitelist[2]: \"com.mobileiron.ios.EmailPlus\" differs only in letter case from com.mobileiron.ios.emailplus (Email+): bundle IDs are case sensitive, so this entry matches no app | fix: write com.mobileiron.ios.emailplus",
        ])
    }

    @Test("OI003 also knows the device's own Email+ IDs; a variant before the real ID is not also a case duplicate")
    func wellKnownIncludesConfiguredEmailPlus() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist", "device": {"emailPlusBundleIDs": ["com.example.Mail"]},
             "openInWhitelist": ["com.example.mail", "com.apple.MobileMail", "com.apple.mobilemail", "com.apple.UIKit.activity.Mail"]}
            """).map { String($0.prefix(45)) } == [
            "2:22 error OI003 well-known-id-case openInWhi",
            "2:42 error OI003 well-known-id-case openInWhi",
        ])
    }

    @Test("OI004 whitelist-ignored under AUTHORIZED, UNAUTHORIZED and All AppConnect apps")
    func whitelistIgnored() {
        #expect(Self.lint(#"{"openInPolicy": "authorized", "openInWhitelist": ["com.example.docs"]}"#) == [
            "1:32 warning OI004 whitelist-ignored openInWhitelist: the whitelist is ignored: the Open In policy is AUTHORIZED, and only WHITELIST reads a whitelist | fix: set openInPolicy to whitelist if the list should apply, or remove openInWhitelist",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "openInWhitelist": ["com.example.docs"]}"#).first?.contains("the Open In policy is UNAUTHORIZED") == true)
        #expect(Self.lint(#"{"openInPolicy": "appconnect", "openInWhitelist": ["com.example.docs"]}"#).first == 
            "1:32 warning OI004 whitelist-ignored openInWhitelist: the whitelist is ignored: the Open In policy is \"All AppConnect apps\", which lists the device's AppConnect apps instead | fix: set openInPolicy to whitelist if the list should apply, or remove openInWhitelist")
        #expect(Self.lint(#"{"openInPolicy": "authorized", "openInWhitelist": []}"#) == [])
    }

    @Test("OI005 malformed-bundle-id: a joined list, stray spaces, an empty segment, an empty entry")
    func malformedBundleIDs() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist", "openInWhitelist": [
              "com.example.docs;com.example.notes",
              "com.example.viewer ",
              "com..example",
              "",
              "com.example.a com.example.b",
              "com.example.c\\ncom.example.d"
            ]}
            """) == [
            "2:3 error OI005 malformed-bundle-id openInWhitelist[0]: \"com.example.docs;com.example.notes\" holds 2 bundle IDs joined by ';' in one entry, so it matches no app | fix: write one ID per entry: \"com.example.docs\", \"com.example.notes\"",
            "3:3 error OI005 malformed-bundle-id openInWhitelist[1]: \"com.example.viewer \" has a space or separator at its start or end, so it matches no app | fix: write \"com.example.viewer\"",
            "4:3 error OI005 malformed-bundle-id openInWhitelist[2]: \"com..example\" is not a bundle ID: it has an empty segment (two dots, or a dot at the start) | fix: write the app's bundle ID: letters, digits, '-' and '_' in segments separated by single dots, e.g. com.example.app",
            "5:3 error OI005 malformed-bundle-id openInWhitelist[3]: the entry is empty | fix: remove the empty entry",
            "6:3 error OI005 malformed-bundle-id openInWhitelist[4]: \"com.example.a com.example.b\" holds 2 bundle IDs joined by spaces in one entry, so it matches no app | fix: write one ID per entry: \"com.example.a\", \"com.example.b\"",
            "7:3 error OI005 malformed-bundle-id openInWhitelist[5]: \"com.example.c\\ncom.example.d\" holds 2 bundle IDs joined by line breaks in one entry, so it matches no app | fix: write one ID per entry: \"com.example.c\", \"com.example.d\"",
        ])
    }

    @Test("OI006 override-value-ignored: values that look on but are read as off")
    func overrideValueIgnored() {
        #expect(Self.lint("""
            {"openInPolicy": "unauthorized",
             "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "True", "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": "1"},
             "infoPlist": {"MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": "YES"}}}
            """) == [
            "2:46 error OI006 override-value-ignored config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is \"True\", which is read as off: the key takes exactly the string \"true\" | fix: write \"true\" (in quotes) to let openURL: with mailto: open native Mail, or remove the key",
            "2:91 error OI006 override-value-ignored config.MI_AC_DISABLE_OPEN_IN_ENFORCEMENT: MI_AC_DISABLE_OPEN_IN_ENFORCEMENT is \"1\", which is read as off: the key takes the string \"yes\" or \"true\", in any letter case | fix: remove the key to keep Open In enforced (write \"yes\", in quotes, only if Open In is meant to be unprotected)",
            "3:68 error OI006 override-value-ignored infoPlist.MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is \"YES\", not a Boolean: the Info.plist key takes the boolean YES, and openin-check rejects the file until it is one | fix: make it the boolean YES (<true/> in XML; true, unquoted, in a policy file's infoPlist), or remove the key",
        ])
    }

    @Test("OI006: values that say off are not findings", arguments: ["false", "no", "NO", "0", "off", ""])
    func valuesThatSayOff(_ value: String) {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "\#(value)", "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": "\#(value)"}}"#) == [])
    }

    @Test("OI006: a boolean where the config takes a string")
    func booleanInConfig() {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}}"#) == [
            "1:75 error OI006 override-value-ignored config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is true, not a string: app-specific configuration values are strings, and openin-check rejects the file until it is one | fix: write \"true\" (in quotes) to let openURL: with mailto: open native Mail, or remove the key",
        ])
    }

    @Test("OI007 override-key-misspelled: case and separators")
    func overrideKeyMisspelled() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist",
             "config": {"mi_ac_disable_scheme_blocking": "true", "MI-AC-DISABLE-OPEN-IN-ENFORCEMENT": "yes"},
             "infoPlist": {"MI_App_Connect": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}}}
            """) == [
            "2:13 error OI007 override-key-misspelled config.mi_ac_disable_scheme_blocking: the key \"mi_ac_disable_scheme_blocking\" is not MI_AC_DISABLE_SCHEME_BLOCKING: keys are matched byte for byte, so the library never reads it | fix: rename the key to MI_AC_DISABLE_SCHEME_BLOCKING",
            "2:54 error OI007 override-key-misspelled config.MI-AC-DISABLE-OPEN-IN-ENFORCEMENT: the key \"MI-AC-DISABLE-OPEN-IN-ENFORCEMENT\" is not MI_AC_DISABLE_OPEN_IN_ENFORCEMENT: keys are matched byte for byte, so the library never reads it | fix: rename the key to MI_AC_DISABLE_OPEN_IN_ENFORCEMENT",
            "3:16 error OI007 override-key-misspelled infoPlist.MI_App_Connect: the key \"MI_App_Connect\" is not MI_APP_CONNECT: keys are matched byte for byte, so the library never reads it | fix: rename the key to MI_APP_CONNECT",
        ])
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "infoPlist": {"MI_APP_CONNECT": {"MI_AC_Disable_Scheme_Blocking": true}}}"#).first?
            .hasPrefix("1:64 error OI007 override-key-misspelled infoPlist.MI_APP_CONNECT.MI_AC_Disable_Scheme_Blocking: the key") == true)
    }

    @Test("OI008 enforcement-disabled, for yes or true in any case", arguments: ["yes", "Yes", "TRUE"])
    func enforcementDisabled(_ value: String) {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "config": {"MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": "\#(value)"}}"#) == [
            "1:79 error OI008 enforcement-disabled config.MI_AC_DISABLE_OPEN_IN_ENFORCEMENT: MI_AC_DISABLE_OPEN_IN_ENFORCEMENT is \"\(value)\": the library stops enforcing the Open In policy, so documents can be shared with every app whatever the policy and whitelist say | fix: remove the key unless Open In is meant to be unprotected for this app",
        ])
    }

    @Test("OI009 override-in-both, within one policy file")
    func overrideInBothInOneFile() {
        #expect(Self.lint("""
            {"openInPolicy": "whitelist",
             "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"},
             "infoPlist": {"MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}}}
            """) == [
            "2:13 warning OI009 override-in-both config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is on both here and in the Info.plist (infoPlist.MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING): removing either one alone leaves scheme blocking disabled | fix: keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it",
        ])
    }

    @Test("OI009 override-in-both, across a policy file and an Info.plist linted together")
    func overrideInBothAcrossFiles() {
        let policy = PolicyDocument(policyJSON: Array(#"{"openInPolicy": 2, "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"}}"#.utf8), file: "policy.json")
        let plistFile = "App/Info.plist"
        let section = SourceLocation(file: plistFile, line: 7, keyPath: "MI_APP_CONNECT")
        let value = SourceLocation(file: plistFile, line: 9, keyPath: "MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING")
        let plist = PolicyDocument(kind: .infoPlist, file: plistFile, appConnectSections: [
            WrittenSection(key: Written("MI_APP_CONNECT", at: section),
                           entries: [WrittenEntry(key: Written("MI_AC_DISABLE_SCHEME_BLOCKING", at: value), value: Written(.bool(true), at: value))]),
        ])
        #expect(Self.render(PolicyLint.lint([policy, plist]).filter { $0.check != .whitelistEmpty }) == [
            "1:32 warning OI009 override-in-both config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is on both here and in the Info.plist (App/Info.plist:9 MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING): removing either one alone leaves scheme blocking disabled | fix: keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it",
        ])
        #expect(PolicyLint.lint([policy]).map(\.check) == [.whitelistEmpty])
    }

    @Test("OI010 email-plus-without-mail")
    func emailPlusWithoutMail() {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.mobileiron.ios.emailplus"]}"#) == [
            "1:51 info OI010 email-plus-without-mail openInWhitelist[0]: Email+ (com.mobileiron.ios.emailplus) is listed but native Mail is not: documents can go to Email+, but mailto: links in web views and the mail compose sheet stay blocked, and openURL: with mailto: opens Email+ only when it is installed | fix: nothing to do if Email+ is meant to be the only mail app; to allow native Mail as well, list both com.apple.UIKit.activity.Mail and com.apple.mobilemail",
        ])
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.mobileiron.ios.emailplus", "com.apple.mobilemail", "com.apple.UIKit.activity.Mail"]}"#) == [])
    }

    @Test("OI011 duplicate-id")
    func duplicateID() {
        #expect(Self.lint(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.docs", "com.example.docs"]}"#) == [
            "1:71 info OI011 duplicate-id openInWhitelist[1]: com.example.docs is listed twice, first at openInWhitelist[0] | fix: remove this entry",
        ])
    }

    @Test("OI016 open-from-whitelist-ignored")
    func openFromWhitelistIgnored() {
        #expect(Self.lint(#"{"openInPolicy": 0, "openFromPolicy": "authorized", "openFromWhitelist": ["com.example.docs"]}"#) == [
            "1:53 warning OI016 open-from-whitelist-ignored openFromWhitelist: the Open From whitelist is ignored: the Open From policy is AUTHORIZED, and only WHITELIST reads an Open From whitelist | fix: set openFromPolicy to whitelist if the list should apply, or remove openFromWhitelist",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "openFromWhitelist": ["com.example.docs"]}"#) == [
            "1:21 warning OI016 open-from-whitelist-ignored openFromWhitelist: the Open From whitelist is ignored: openFromPolicy is not set, so open-from requests are errors | fix: add \"openFromPolicy\": \"whitelist\" if the list should apply, or remove openFromWhitelist",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "openFromPolicy": 2, "openFromWhitelist": ["com.example.docs"]}"#) == [])
    }

    @Test("OI017 open-from-whitelist-empty")
    func openFromWhitelistEmpty() {
        #expect(Self.lint(#"{"openInPolicy": 0, "openFromPolicy": "whitelist", "openFromWhitelist": []}"#) == [
            "1:52 warning OI017 open-from-whitelist-empty openFromWhitelist: the Open From policy is WHITELIST but openFromWhitelist is empty: no app can send documents to this app | fix: list the apps that may send documents in openFromWhitelist, or set openFromPolicy to unauthorized if none may",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "openFromPolicy": "ACOpenFromPolicyWhitelist"}"#) == [
            "1:39 warning OI017 open-from-whitelist-empty openFromPolicy: the Open From policy is WHITELIST but no openFromWhitelist is given: no app can send documents to this app | fix: list the apps that may send documents in openFromWhitelist, or set openFromPolicy to unauthorized if none may",
        ])
    }

    @Test("OI018 secure-services-not-given")
    func secureServicesNotGiven() {
        #expect(Self.lint(#"{"openInPolicy": 0, "pasteboardPolicy": "securecopy"}"#) == [
            "1:41 warning OI018 secure-services-not-given pasteboardPolicy: the pasteboard policy is SECURECOPY but device.secureServicesAvailable is not given: whether a copy succeeds depends on it, so copy requests are errors | fix: add \"device\": {\"secureServicesAvailable\": true} (or false, to see copies fail while secure services are unavailable)",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "pasteboardPolicy": 2, "device": {"secureServicesAvailable": false}}"#) == [])
        #expect(Self.lint(#"{"openInPolicy": 0, "pasteboardPolicy": "authorized"}"#) == [])
    }

    @Test("OI019 custom-keyboards-value and OI020 custom-keyboards-key-misspelled")
    func customKeyboards() {
        #expect(Self.lint(#"{"openInPolicy": 0, "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "TRUE"}}"#) == [
            "1:68 error OI019 custom-keyboards-value config.MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS: MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS is \"TRUE\", which is neither \"true\" nor \"false\": values are compared byte for byte, so custom keyboards are refused | fix: write \"true\" to allow custom keyboards or \"false\" to refuse them (lowercase, in quotes)",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": true}}"#) == [
            "1:68 error OI019 custom-keyboards-value config.MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS: MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS is true, not a string: app-specific configuration values are strings, and openin-check rejects the file until it is one | fix: write \"true\" or \"false\" in quotes",
        ])
        #expect(Self.lint(#"{"openInPolicy": 0, "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARD": "false"}}"#) == [
            "1:32 error OI020 custom-keyboards-key-misspelled config.MI_AC_IOS_ALLOW_CUSTOM_KEYBOARD: the key \"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARD\" is not MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS: keys are matched byte for byte, so the library never reads it and the app decides about custom keyboards | fix: rename the key to MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS",
        ])
        #expect(Self.lint("{\"openInPolicy\": 0, \"config\": {\"MI_AC_IOS_ALLOW_CUSTOM_\u{212A}EYBOARDS\": \"true\"}}").map { $0.contains("OI020") } == [true])
        #expect(Self.lint(#"{"openInPolicy": 0, "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "false"}}"#) == [])
        #expect(Self.lint(#"{"openInPolicy": 0, "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "true"}}"#) == [])
    }

    @Test("OI021 excluded-activity-case and OI022 web-links-blocked")
    func excludedActivityCaseAndWebLinksBlocked() {
        #expect(Self.lint(#"{"openInPolicy": 1, "excludedAppleActivityTypes": ["com.apple.UIKit.activity.Airdrop", "com.apple.UIKit.activity.Print", "com.example.share"]}"#) == [
            "1:52 error OI021 excluded-activity-case excludedAppleActivityTypes[0]: \"com.apple.UIKit.activity.Airdrop\" differs only in letter case from Apple's com.apple.UIKit.activity.AirDrop: activity types are compared byte for byte, so this entry excludes nothing | fix: write com.apple.UIKit.activity.AirDrop",
        ])
        #expect(Self.lint(#"{"openInPolicy": 1, "webDLP": "not-allowed"}"#) == [
            "1:31 info OI022 web-links-blocked webDLP: the Web DLP setting is 'not allowed' and device.webAtWorkInstalled is not true: every http or https link the app opens is denied (the page does not display) | fix: add \"device\": {\"webAtWorkInstalled\": true} if Web@Work is on the device, or set webDLP to \"allowed\" to let unsecured browsers open links",
        ])
        #expect(Self.lint(#"{"openInPolicy": 1, "webDLP": "not-allowed", "device": {"webAtWorkInstalled": true}}"#) == [])
        #expect(Self.lint(#"{"openInPolicy": 1, "webDLP": "allowed"}"#) == [])
    }

    @Test("OI000 invalid-input: a file that is not JSON")
    func invalidJSON() {
        #expect(Self.lint("{\"openInPolicy\": \"whitelist\",\n}") == [
            "2:1 error OI000 invalid-input : not valid JSON: trailing comma: remove the ',' before '}' | fix: correct it as the message says: until then no decision can be made with this file",
        ])
    }

    @Test func strictTurnsWarningsIntoErrorsOnly() throws {
        let findings = PolicyLint.lint([PolicyDocument(policyJSON: Array("""
            {"openInPolicy": "authorized", "openInWhitelist": ["com.example.docs", "com.example.docs"]}
            """.utf8), file: "p.json")])
        #expect(findings.map(\.severity) == [.warning, .info])
        #expect(findings.map(\.strict.severity) == [.error, .info])
    }

    @Test func checkCodesAreUniqueAndInOrder() {
        let codes = LintCheck.all.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(Set(LintCheck.all.map(\.name)).count == codes.count)
        #expect(codes == (0..<codes.count).map { "OI" + String(repeating: "0", count: $0 < 10 ? 2 : 1) + String($0) })
    }
}
