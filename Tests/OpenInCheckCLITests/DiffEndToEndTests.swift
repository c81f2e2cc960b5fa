import Foundation
import Testing

/// `openin-check diff`, through the built binary: the four verdicts, replay, JSON, exit statuses.
@Suite struct DiffEndToEndTests {
    @Test("less permissive: Box removed; exact output, exit 2")
    func lessPermissive() throws {
        let run = try BuiltBinary.run(["diff", "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            diff Examples/diff/old.json → Examples/diff/tightened.json: 39 request classes, 5 decide differently

            Newly blocked (5):
              document-interaction net.box.BoxNet
                old: allow to net.box.BoxNet  [document.listed-target]
                new: substitute-dummy-file to net.box.BoxNet, callback openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST)  [document.unlisted-target]
              quick-look net.box.BoxNet
                old: allow to net.box.BoxNet  [document.listed-target]
                new: substitute-dummy-file to net.box.BoxNet, callback openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST)  [document.unlisted-target]
              app-extension net.box.BoxNet
                old: allow to net.box.BoxNet  [document.listed-target]
                new: substitute-dummy-file to net.box.BoxNet, callback openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST)  [document.unlisted-target]
              open-url box://share
                old: allow to net.box.BoxNet  [open-url.listed-handler]
                new: deny, callback openURLAttemptedWhenUnauthorizedForURL(box://share)  [open-url.unlisted-handler]
              drag-and-drop net.box.BoxNet
                old: allow to net.box.BoxNet  [drag-and-drop.listed-target]
                new: deny  [drag-and-drop.unlisted-target]

            verdict: less permissive

            """)
    }

    @Test("more permissive: the same change the other way round")
    func morePermissive() throws {
        let run = try BuiltBinary.run(["diff", "Examples/diff/tightened.json", "Examples/diff/old.json"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("\nNewly allowed (5):\n"))
        #expect(!run.stdout.contains("Newly blocked"))
        #expect(run.stdout.hasSuffix("\nverdict: more permissive\n"))
    }

    @Test("incomparable: a notes app added and one Mail ID lost")
    func incomparable() throws {
        let run = try BuiltBinary.run(["diff", "Examples/diff/old.json", "Examples/diff/new.json"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("diff Examples/diff/old.json → Examples/diff/new.json: 43 request classes, 15 decide differently\n"))
        #expect(run.stdout.contains("\nNewly blocked (10):\n"))
        #expect(run.stdout.contains("\nNewly allowed (4):\n"))
        // mailto: still goes to a mail app, another one: a change of destination, not a block.
        #expect(run.stdout.contains("""

            Delivered elsewhere (1):
              open-url mailto:someone@example.com
                old: allow to com.apple.mobilemail  [mailto.mail-allowed]
                new: redirect to com.mobileiron.ios.emailplus  [mailto.email-plus-redirect]

            """))
        #expect(run.stdout.hasSuffix("\nverdict: incomparable\n"))
    }

    @Test("equivalent: the same policy retyped; exit 0")
    func equivalent() throws {
        let run = try BuiltBinary.run(["diff", "Examples/diff/old.json", "Examples/diff/reordered.json"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            diff Examples/diff/old.json → Examples/diff/reordered.json: 39 request classes, none decides differently

            verdict: equivalent

            """)
    }

    @Test func jsonFormat() throws {
        let run = try BuiltBinary.run(["diff", "--format", "json", "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(run.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "less permissive")
        #expect(object["requestClasses"] as? Int == 39)
        let blocked = try #require(object["newlyBlocked"] as? [[String: Any]])
        #expect(blocked.count == 5)
        #expect((object["newlyAllowed"] as? [Any])?.isEmpty == true)
        #expect((object["changed"] as? [Any])?.isEmpty == true)
        let first = try #require(blocked.first)
        #expect(first["request"] as? [String: String] == ["channel": "document-interaction", "target": "net.box.BoxNet"])
        #expect(first["direction"] as? String == "less permissive")
        #expect((first["old"] as? [String: Any])?["outcome"] as? String == "allow")
        #expect((first["new"] as? [String: Any])?["dummyFileName"] as? String == "AppConnect-Blocked-a88cb3aee6bb977d.acblocked")
    }

    @Test("--requests replays a log and counts what would change")
    func replay() throws {
        let run = try BuiltBinary.run(["diff", "--requests", "Examples/requests.jsonl", "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(run.status == 2)
        #expect(run.stdout == """
            replay of Examples/requests.jsonl under Examples/diff/old.json → Examples/diff/tightened.json: 54 lines, 54 requests
            4 of 54 requests would decide differently: 4 newly blocked, 0 newly allowed, 0 changed

            Newly blocked (4 requests):
              1×  document-interaction net.box.BoxNet (design.key)
                    old: allow to net.box.BoxNet  [document.listed-target]
                    new: substitute-dummy-file to net.box.BoxNet, callback openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST)  [document.unlisted-target]
              1×  quick-look net.box.BoxNet
                    old: allow to net.box.BoxNet  [document.listed-target]
                    new: substitute-dummy-file to net.box.BoxNet, callback openInAttemptedWhenACOpenInPolicyBlocked(WHITELIST)  [document.unlisted-target]
              1×  open-url box://files/123
                    old: allow to net.box.BoxNet  [open-url.listed-handler]
                    new: deny, callback openURLAttemptedWhenUnauthorizedForURL(box://files/123)  [open-url.unlisted-handler]
              1×  drag-and-drop net.box.BoxNet
                    old: allow to net.box.BoxNet  [drag-and-drop.listed-target]
                    new: deny  [drag-and-drop.unlisted-target]

            verdict on this log: less permissive

            """)
        let same = try BuiltBinary.run(["diff", "--requests", "-", "Examples/diff/old.json", "Examples/diff/tightened.json"],
                                       stdin: "{\"channel\": \"quick-look\", \"target\": \"com.example.docviewer\"}\n")
        #expect(same.status == 0)
        #expect(same.stdout.hasPrefix("replay of standard input under Examples/diff/old.json → Examples/diff/tightened.json: 1 lines, 1 requests\n0 of 1 requests would decide differently\n"))
        #expect(same.stdout.hasSuffix("\nverdict on this log: equivalent\n"))
    }

    @Test("--requests with invalid lines lists them and exits 1")
    func replayWithInvalidLines() throws {
        let run = try BuiltBinary.run(["diff", "--requests", "Examples/requests-with-errors.jsonl", "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(run.status == 1)
        #expect(run.stdout.contains(", 5 invalid lines\n  line 2: error  chanel: unknown key."))
        let json = try BuiltBinary.run(["diff", "--format", "json", "--requests", "Examples/requests-with-errors.jsonl",
                                        "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["invalid"] as? [[String: Any]])?.compactMap { $0["line"] as? Int } == [2, 3, 4, 5, 6])
        #expect(object["replayed"] as? Int == 2)
    }

    @Test func usageAndInvalidPolicies() throws {
        let one = try BuiltBinary.run(["diff", "Examples/diff/old.json"])
        #expect(one.status == 64)
        #expect(one.stderr.hasPrefix("Error: give two policy files, OLD and NEW (got 1)\nUsage: openin-check diff "))
        let invalid = try LintEndToEndTests.temporaryFile(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com..x"]}"#)
        let run = try BuiltBinary.run(["diff", "Examples/diff/old.json", invalid])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(invalid):1:51: openInWhitelist[0]: malformed bundle ID 'com..x': it has an empty segment (two dots, or a dot at the start)\n")
    }
}

/// `diff --build-setting`: a JSON policy whose `infoPlist` holds build-setting references is read as `eval` reads it.
@Suite struct DiffBuildSettingEndToEndTests {
    static let policy = """
        {"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"],
         "infoPlist": {"CFBundleURLTypes": [{"CFBundleURLSchemes": ["ac$(PRODUCT_BUNDLE_IDENTIFIER)"]}]}}
        """

    @Test("without --build-setting the reference is an error naming the key path and the flag diff takes")
    func unresolved() throws {
        let file = try TemporaryFile.write(Self.policy, name: "diff-build-setting.json")
        let run = try BuiltBinary.run(["diff", file, file])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(file):2:61: infoPlist.CFBundleURLTypes[0].CFBundleURLSchemes[0]: the build setting reference $(PRODUCT_BUNDLE_IDENTIFIER) in \"ac$(PRODUCT_BUNDLE_IDENTIFIER)\" is not resolved: pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE\n")
    }

    @Test("with --build-setting the own scheme is resolved in both policies: the app's own scheme is a request class")
    func resolved() throws {
        let old = try TemporaryFile.write(Self.policy, name: "diff-build-setting-old.json")
        let new = try TemporaryFile.write(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"]}"#, name: "diff-build-setting-new.json")
        let same = try BuiltBinary.run(["diff", "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.travel", old, old])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.hasSuffix("verdict: equivalent\n"))
        // Dropping the app's own scheme makes opening it Open In, so the verdict is less permissive.
        let run = try BuiltBinary.run(["diff", "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.travel", old, new])
        #expect(run.stderr == "")
        #expect(run.status == 2)
        #expect(run.stdout.contains("open-url accom.example.travel:"), "\(run.stdout)")
        #expect(run.stdout.contains("[open-url.own-scheme]"))
        #expect(run.stdout.hasSuffix("verdict: less permissive\n"))
    }

    @Test("--build-setting takes NAME=VALUE")
    func malformed() throws {
        let run = try BuiltBinary.run(["diff", "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER", "Examples/diff/old.json", "Examples/diff/new.json"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: 'PRODUCT_BUNDLE_IDENTIFIER' is not of the form NAME=VALUE (for --build-setting)\n"), "\(run.stderr)")
    }
}
