import Foundation
import Testing

/// `openin-check lint`, through the built binary: exact output and exit status for the examples.
@Suite struct LintEndToEndTests {
    @Test("a hand-typed whitelist: OI001, OI003, OI005, OI010, OI002, OI006; exit 2")
    func mistakes() throws {
        let run = try BuiltBinary.run(["lint", "Examples/lint/mistakes.json"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            Examples/lint/mistakes.json:5:5: error OI001 mail-pair-half: openInWhitelist[0]: the whitelist lists com.apple.UIKit.activity.Mail but not com.apple.mobilemail: native Mail counts as listed only when both are, so it stays blocked
                fix: add com.apple.mobilemail to openInWhitelist, or remove com.apple.UIKit.activity.Mail
            Examples/lint/mistakes.json:6:5: error OI003 well-known-id-case: openInWhitelist[1]: "com.apple.MobileMail" differs only in letter case from com.apple.mobilemail (native Mail): bundle IDs are case sensitive, so this entry matches no app
                fix: write com.apple.mobilemail
            Examples/lint/mistakes.json:7:5: error OI005 malformed-bundle-id: openInWhitelist[2]: "com.example.docviewer;net.box.BoxNet" holds 2 bundle IDs joined by ';' in one entry, so it matches no app
                fix: write one ID per entry: "com.example.docviewer", "net.box.BoxNet"
            Examples/lint/mistakes.json:8:5: info OI010 email-plus-without-mail: openInWhitelist[3]: Email+ (com.mobileiron.ios.emailplus) is listed but native Mail is not: documents can go to Email+, but mailto: links in web views and the mail compose sheet stay blocked, and openURL: with mailto: opens Email+ only when it is installed
                fix: nothing to do if Email+ is meant to be the only mail app; to allow native Mail as well, list both com.apple.UIKit.activity.Mail and com.apple.mobilemail
            Examples/lint/mistakes.json:10:5: warning OI002 case-duplicate: openInWhitelist[5]: "com.example.Notes" differs only in letter case from "com.example.notes" at openInWhitelist[4]: bundle IDs are case sensitive, so at most one of them names the real app
                fix: keep the spelling of the app's actual bundle ID and remove the other
            Examples/lint/mistakes.json:13:38: error OI006 override-value-ignored: config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is "True", which is read as off: the key takes exactly the string "true"
                fix: write "true" (in quotes) to let openURL: with mailto: open native Mail, or remove the key

            lint: 4 errors, 1 warning, 1 info in 1 file

            """)
    }

    @Test("overrides: OI004, OI008, OI009 within one file, OI007; exit 2")
    func overrides() throws {
        let run = try BuiltBinary.run(["lint", "Examples/lint/overrides.json"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            Examples/lint/overrides.json:4:3: warning OI004 whitelist-ignored: openInWhitelist: the whitelist is ignored: the Open In policy is AUTHORIZED, and only WHITELIST reads a whitelist
                fix: set openInPolicy to whitelist if the list should apply, or remove openInWhitelist
            Examples/lint/overrides.json:6:42: error OI008 enforcement-disabled: config.MI_AC_DISABLE_OPEN_IN_ENFORCEMENT: MI_AC_DISABLE_OPEN_IN_ENFORCEMENT is "Yes": the library stops enforcing the Open In policy, so documents can be shared with every app whatever the policy and whitelist say
                fix: remove the key unless Open In is meant to be unprotected for this app
            Examples/lint/overrides.json:7:5: warning OI009 override-in-both: config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is on both here and in the Info.plist (infoPlist.MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING): removing either one alone leaves scheme blocking disabled
                fix: keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it
            Examples/lint/overrides.json:8:5: error OI007 override-key-misspelled: config.mi_ac_disable_scheme_blocking: the key "mi_ac_disable_scheme_blocking" is not MI_AC_DISABLE_SCHEME_BLOCKING: keys are matched byte for byte, so the library never reads it
                fix: rename the key to MI_AC_DISABLE_SCHEME_BLOCKING

            lint: 2 errors, 2 warnings, 0 info in 1 file

            """)
    }

    @Test("an AppConnect.plist and an Info.plist linted together: key paths, and OI009 across files")
    func plistsTogether() throws {
        let run = try BuiltBinary.run(["lint", "Examples/lint/AppConnect.plist", "Examples/lint/Info.plist"])
        #expect(run.status == 2)
        #expect(run.stdout == """
            Examples/lint/AppConnect.plist: error OI001 mail-pair-half: policy.openinwhitelist (entry 1): the whitelist lists com.apple.mobilemail but not com.apple.UIKit.activity.Mail: native Mail counts as listed only when both are, so it stays blocked
                fix: add com.apple.UIKit.activity.Mail to policy.openinwhitelist, or remove com.apple.mobilemail
            Examples/lint/AppConnect.plist: error OI005 malformed-bundle-id: policy.openinwhitelist (entry 2): "com.example.docviewer com.example.notes" holds 2 bundle IDs joined by spaces in one entry, so it matches no app
                fix: separate the IDs with ';' only: com.example.docviewer;com.example.notes
            Examples/lint/AppConnect.plist: warning OI009 override-in-both: config.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is on both here and in the Info.plist (Examples/lint/Info.plist MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING): removing either one alone leaves scheme blocking disabled
                fix: keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it

            lint: 2 errors, 1 warning, 0 info in 2 files

            """)
        // Alone, the AppConnect.plist has no Info.plist to clash with.
        let alone = try BuiltBinary.run(["lint", "Examples/lint/AppConnect.plist"])
        #expect(!alone.stdout.contains("OI009"))
    }

    @Test func aCleanFileExitsZero() throws {
        let run = try BuiltBinary.run(["lint", "Examples/lint/clean.json"])
        #expect(run.status == 0)
        #expect(run.stdout == "lint: no findings in 1 file\n")
    }

    @Test("warnings exit 2; --strict reports them as errors, still exit 2")
    func warningsOnlyAndStrict() throws {
        let run = try BuiltBinary.run(["lint", "Examples/lint/ignored-whitelist.json"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("Examples/lint/ignored-whitelist.json:4:3: warning OI004 whitelist-ignored: openInWhitelist: "))
        #expect(run.stdout.hasSuffix("\nlint: 0 errors, 1 warning, 0 info in 1 file\n"))
        let strict = try BuiltBinary.run(["lint", "--strict", "Examples/lint/ignored-whitelist.json"])
        #expect(strict.status == 2)
        #expect(strict.stdout.hasPrefix("Examples/lint/ignored-whitelist.json:4:3: error OI004 whitelist-ignored: "))
        #expect(strict.stdout.hasSuffix("\nlint: 1 error, 0 warnings, 0 info in 1 file\n"))
    }

    @Test func infoFindingsAloneExitZero() throws {
        let file = try Self.temporaryFile(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.a", "com.example.a"]}"#)
        defer { TemporaryFile.remove(file) }
        let run = try BuiltBinary.run(["lint", "--strict", file])
        #expect(run.status == 0)
        #expect(run.stdout.contains(": info OI011 duplicate-id: openInWhitelist[1]: "))
    }

    @Test func jsonFormat() throws {
        let run = try BuiltBinary.run(["lint", "--format", "json", "Examples/lint/ignored-whitelist.json"])
        #expect(run.status == 2)
        #expect(run.stdout == """
            {
              "files": [
                "Examples/lint/ignored-whitelist.json"
              ],
              "findings": [
                {
                  "code": "OI004",
                  "name": "whitelist-ignored",
                  "severity": "warning",
                  "file": "Examples/lint/ignored-whitelist.json",
                  "line": 4,
                  "column": 3,
                  "keyPath": "openInWhitelist",
                  "message": "the whitelist is ignored: the Open In policy is UNAUTHORIZED, and only WHITELIST reads a whitelist",
                  "fix": "set openInPolicy to whitelist if the list should apply, or remove openInWhitelist"
                }
              ],
              "summary": {
                "errors": 0,
                "warnings": 1,
                "info": 0
              }
            }

            """)
    }

    @Test func aFileThatIsNeitherFormatIsAFinding() throws {
        let file = try Self.temporaryFile("openInPolicy: whitelist\n")
        defer { TemporaryFile.remove(file) }
        let run = try BuiltBinary.run(["lint", file])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("\(file):1: error OI000 invalid-input: not a policy file: "))
    }

    @Test func usageAndMissingFiles() throws {
        let none = try BuiltBinary.run(["lint"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: no file given: name one or more policy files, AppConnect.plists or Info.plists\nUsage: openin-check lint "))
        let format = try BuiltBinary.run(["lint", "--format", "jsn", "Examples/lint/clean.json"])
        #expect(format.status == 64)
        #expect(format.stderr.hasPrefix("Error: unknown format 'jsn': use text, json, sarif, markdown or github. Did you mean 'json'?\n"))
        let missing = try BuiltBinary.run(["lint", "Examples/lint/no-such-file.json"])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "Error: cannot read file to lint 'Examples/lint/no-such-file.json': no such file or directory\n")
    }

    @Test func helpListsEveryCheck() throws {
        let run = try BuiltBinary.run(["help", "lint"])
        #expect(run.status == 0)
        for code in (0...11).map({ String(format: "OI%03d", $0) }) {
            #expect(run.stdout.contains("  \(code)  "), "\(code)")
        }
    }

    /// Writes `text` to a fresh temporary file, in a folder of its own, and returns its path (`TemporaryFile.remove(_:)` removes it).
    static func temporaryFile(_ text: String, name: String = "policy.json") throws -> String {
        let file = try TemporaryFile.folder("openin-lint").appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
