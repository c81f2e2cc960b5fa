import Foundation
import Testing

/// Issue 23's smaller frictions, each through the built binary: every test fails if its friction comes back.
@Suite struct FrontDoorEndToEndTests {
    static func file(_ text: String, name: String) throws -> String {
        try TemporaryFile.write(text, name: name)
    }

    @Test func lintWarnsAboutAWhitelistPolicyWithNothingListed() throws {
        for (json, said) in [(#"{"openInPolicy": "whitelist"}"#, "no openInWhitelist is given"),
                             (#"{"openInPolicy": "whitelist", "openInWhitelist": []}"#, "openInWhitelist is empty")] {
            let path = try Self.file(json, name: "empty-whitelist.json")
            let run = try BuiltBinary.run(["lint", path])
            #expect(run.status == 2)
            #expect(run.stdout.contains(": warning OI023 whitelist-empty: "))
            #expect(run.stdout.contains("the Open In policy is WHITELIST but \(said): every app is blocked, native Mail included"))
        }
        let plist = try Self.file("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>policy</key><dict><key>openin</key><string>whitelist</string></dict></dict></plist>
            """, name: "AppConnect.plist")
        let run = try BuiltBinary.run(["lint", plist])
        #expect(run.stdout.contains("OI023 whitelist-empty: policy.openin: the Open In policy is WHITELIST but no openinwhitelist is given"))
    }

    @Test func lintExitsTwoForFindingsAndOneForInputItCannotRead() throws {
        let findings = try BuiltBinary.run(["lint", "Examples/lint/mistakes.json"])
        #expect(findings.status == 2, "errors are findings: exit 2, as eval's 'some decision is not allow'")
        #expect(findings.stderr == "")
        let missing = try BuiltBinary.run(["lint", "Examples/lint/clean.json", "Examples/lint/no-such-file.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: cannot read file to lint 'Examples/lint/no-such-file.json': no such file or directory\n")
        let broken = try Self.file("{\"openInPolicy\": \"whitelist\",}\n", name: "broken.json")
        let rejected = try BuiltBinary.run(["lint", "Examples/lint/mistakes.json", broken])
        #expect(rejected.status == 1, "a file the reader rejects (OI000) is invalid input, whatever else is found")
        #expect(rejected.stdout.contains(" error OI000 invalid-input: "))
        let help = try BuiltBinary.run(["help", "lint"])
        #expect(help.stdout.contains("  2   every file was read, and some finding is an error or a warning\n"))
    }

    @Test func lintDoesNotProposeAWordAsABundleID() throws {
        let path = try Self.file(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.acme notes"]}"#, name: "notes.json")
        let run = try BuiltBinary.run(["lint", path])
        #expect(!run.stdout.contains(#""notes""#))
        #expect(run.stdout.contains(#""com.acme notes" is not a bundle ID: it contains a space"#))
        #expect(run.stdout.contains(#"e.g. "com.acme.notes" if the space stands for a dot"#))
    }

    @Test func aCommentInAJSONPolicySaysCommentsAreNotJSON() throws {
        let path = try Self.file("{\n  // the sales policy\n  \"openInPolicy\": \"authorized\"\n}\n", name: "comment.json")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "quick-look", "--target", "com.example.viewer"])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(path):2:3: not valid JSON: expected a key in double quotes, found '/' (a comment, and comments are not JSON: remove it)\n")
    }

    @Test func aMissingControlTellsACLIUserTheFlagNotATableContext() throws {
        let path = try Self.file(#"{"openInPolicy": "authorized", "pasteboardPolicy": "securecopy"}"#, name: "securecopy.json")
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "copy"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("add \"device\": {\"secureServicesAvailable\": true or false} to the policy file, or give --secure-services available|unavailable on the command line\n"))
        #expect(!run.stderr.contains("context"))
    }

    @Test func theReasonUnderUnauthorizedDoesNotBlameTheWhitelist() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/unauthorized.json", "--channel", "quick-look", "--target", "com.example.viewer"])
        #expect(run.status == 2)
        #expect(!run.stdout.contains("not in the whitelist"))
        #expect(run.stdout.contains("reason      The target app is not listed (UNAUTHORIZED lists no app; WHITELIST only the apps in its whitelist), so it receives a dummy file it cannot open.\n"))
    }

    @Test func scenarioErrorsSuggestTheWordMeant() throws {
        let cases = [
            ("lunch\n", "unknown statement 'lunch': a line starts with app, server, device, launch, check-in, quit, share, copy, read, ack, log, stop, retire or switch-mode. Did you mean 'launch'?"),
            ("server openInPolcy whitelist\nlaunch\n", "Did you mean 'openInPolicy'?"),
            ("app implements confgChangedTo\nlaunch\n", "Did you mean 'configChangedTo'?"),
            ("launch\ncheck-in\nshare quick-look traget=com.example.a\n", "Did you mean 'target='?"),
            ("device emial-plus installed\nlaunch\n", "Did you mean 'email-plus'?"),
        ]
        for (text, said) in cases {
            let path = try Self.file(text, name: "typo.scenario")
            let run = try BuiltBinary.run(["simulate", path])
            #expect(run.status == 1)
            #expect(run.stderr.contains(said), "\(run.stderr)")
        }
    }

    @Test func explainNamesThePolicyKeyAndTheCLIAddsItsFlag() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/unauthorized.json", "--channel", "open-url", "--url", "acme://x", "--explain"])
        #expect(run.stdout.contains("- no handler is known for scheme 'acme' (policy key device.schemeHandlers.acme, flag --scheme-handler acme=BUNDLE_ID)\n"))
        let json = try BuiltBinary.run(["eval", "--policy", "Examples/policies/unauthorized.json", "--channel", "open-url", "--url", "acme://x", "--explain", "--format", "json"])
        #expect(json.stdout.contains("no handler is known for scheme 'acme' (policy key device.schemeHandlers.acme)"))
    }
}
