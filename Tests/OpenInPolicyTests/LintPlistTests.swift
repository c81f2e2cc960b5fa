import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Lint over `AppConnect.plist` and Info.plist files: key paths instead of lines.
@Suite("PolicyLint on property lists")
struct LintPlistTests {
    static func plist(_ body: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            \(body)
            </dict></plist>
            """.utf8)
    }

    static func appConnect(_ body: String) -> PolicyDocument {
        PolicyDocument(appConnectPlist: plist(body), file: "AppConnect.plist")
    }

    static func info(_ body: String) -> PolicyDocument {
        PolicyDocument(infoPlist: plist(body), file: "Info.plist")
    }

    @Test func appConnectPlistEntriesAreNamedByPosition() {
        let document = Self.appConnect("""
            <key>policy</key><dict>
              <key>openin</key><string>whitelist</string>
              <key>openinwhitelist</key><string>com.apple.mobilemail; com.example.docs;com.example.Docs;;com.example.a com.example.b</string>
            </dict>
            <key>config</key><dict><key>MI_AC_DISABLE_OPEN_IN_ENFORCEMENT</key><string>Yes</string></dict>
            """)
        #expect(LintTests.render(PolicyLint.lint([document])) == [
            "AppConnect.plist error OI001 mail-pair-half policy.openinwhitelist (entry 1): the whitelist lists com.apple.mobilemail but not com.apple.UIKit.activity.Mail: native Mail counts as listed only when both are, so it stays blocked | fix: add com.apple.UIKit.activity.Mail to policy.openinwhitelist, or remove com.apple.mobilemail",
            "AppConnect.plist warning OI002 case-duplicate policy.openinwhitelist (entry 3): \"com.example.Docs\" differs only in letter case from \"com.example.docs\" at policy.openinwhitelist (entry 2): bundle IDs are case sensitive, so at most one of them names the real app | fix: keep the spelling of the app's actual bundle ID and remove the other",
            "AppConnect.plist error OI005 malformed-bundle-id policy.openinwhitelist (entry 5): \"com.example.a com.example.b\" holds 2 bundle IDs joined by spaces in one entry, so it matches no app | fix: separate the IDs with ';' only: com.example.a;com.example.b",
            "AppConnect.plist error OI008 enforcement-disabled config.MI_AC_DISABLE_OPEN_IN_ENFORCEMENT: MI_AC_DISABLE_OPEN_IN_ENFORCEMENT is \"Yes\": the library stops enforcing the Open In policy, so documents can be shared with every app whatever the policy and whitelist say | fix: remove the key unless Open In is meant to be unprotected for this app",
        ])
        // The strict reader rejects entry 5 too; OI005 already says so, so no OI000 repeats it.
        #expect(document.readErrors.map(\.value.description).first?.hasPrefix("policy.openinwhitelist (entry 5): malformed bundle ID") == true)
    }

    @Test func appConnectPlistWhitelistIgnored() {
        let document = Self.appConnect("""
            <key>policy</key><dict><key>openin</key><string>allow</string><key>openinwhitelist</key><string>com.example.docs</string></dict>
            """)
        #expect(LintTests.render(PolicyLint.lint([document])) == [
            "AppConnect.plist warning OI004 whitelist-ignored policy.openinwhitelist: the whitelist is ignored: the Open In policy is AUTHORIZED, and only WHITELIST reads a whitelist | fix: set policy.openin to whitelist if the list should apply, or remove policy.openinwhitelist",
        ])
    }

    @Test func infoPlistStringYesIsOneFinding() {
        let document = Self.info("""
            <key>CFBundleIdentifier</key><string>com.example.app</string>
            <key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><string>YES</string></dict>
            """)
        #expect(LintTests.render(PolicyLint.lint([document])) == [
            "Info.plist error OI006 override-value-ignored MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is \"YES\", not a Boolean: the Info.plist key takes the boolean YES, and openin-check rejects the file until it is one | fix: make it the boolean YES (<true/> in XML; true, unquoted, in a policy file's infoPlist), or remove the key",
        ])
    }

    @Test func infoPlistMisspelledSectionAndKey() {
        let document = Self.info("""
            <key>MI_APP_CONECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><true/></dict>
            <key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKNG</key><true/></dict>
            """)
        #expect(LintTests.render(PolicyLint.lint([document])) == [
            "Info.plist error OI007 override-key-misspelled MI_APP_CONECT: the key \"MI_APP_CONECT\" is not MI_APP_CONNECT: keys are matched byte for byte, so the library never reads it | fix: rename the key to MI_APP_CONNECT",
            "Info.plist error OI007 override-key-misspelled MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKNG: the key \"MI_AC_DISABLE_SCHEME_BLOCKNG\" is not MI_AC_DISABLE_SCHEME_BLOCKING: keys are matched byte for byte, so the library never reads it | fix: rename the key to MI_AC_DISABLE_SCHEME_BLOCKING",
        ])
    }

    @Test func unrelatedKeysAreNotMisspellings() {
        let document = Self.info("""
            <key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_COPY_PASTE</key><true/></dict>
            <key>MI_APP_MANAGED</key><true/>
            """)
        #expect(PolicyLint.lint([document]).isEmpty)
    }

    @Test func aBrokenPlistIsInvalidInputWithItsLine() {
        let document = PolicyDocument(infoPlist: Array("<?xml version=\"1.0\"?>\n<plist><dict>\n<key>a</key>\n</dict></plist>".utf8), file: "Info.plist")
        let findings = PolicyLint.lint([document])
        #expect(findings.count == 1)
        #expect(findings.first?.check == .invalidInput)
        #expect(findings.first?.message.hasPrefix("not a valid property list") == true)
    }

    @Test func overrideInBothAcrossAPolicyFileAndAnInfoPlist() {
        let policy = PolicyDocument(policyJSON: Array(#"{"openInPolicy": "unauthorized", "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"}}"#.utf8),
                                    file: "policy.json")
        let plist = Self.info("<key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><true/></dict>")
        #expect(LintTests.render(PolicyLint.lint([plist, policy])) == [
            "1:45 warning OI009 override-in-both config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is on both here and in the Info.plist (Info.plist MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING): removing either one alone leaves scheme blocking disabled | fix: keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it",
        ])
    }
}
