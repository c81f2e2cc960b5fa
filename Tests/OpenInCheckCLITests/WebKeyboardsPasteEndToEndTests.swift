import Testing

/// Web DLP, keyboards, paste and excluded activities through the built binary: the
/// bundled example decides as `Rules/web-links.md` and `Rules/keyboards-and-paste.md`
/// say, and bad input for the new keys and channels is an error naming the file and
/// line (or the flag), never a decision.
@Suite struct WebKeyboardsPasteEndToEndTests {
    static let policy = "Examples/policies/web-keyboards-paste.json"

    @Test("the bundled stream: Web@Work redirect, excluded activity, refused keyboard, system keyboard, pastes, unknown sender")
    func bundledStream() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, "Examples/requests-web-keyboards-paste.jsonl"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        let rules = run.stdout.split(separator: "\n").map { line in
            line.split(separator: ",").first { $0.hasPrefix("\"rule\":") }.map { String($0.dropFirst(8).dropLast()) } ?? "?"
        }
        #expect(rules == ["web-dlp.web-at-work-redirect", "open-url.unknown-handler", "activity-view.excluded-activity",
                          "keyboard.custom-refused-by-config", "keyboard.system", "paste.not-restricted", "paste.not-restricted",
                          "open-from.unknown-source"])
        #expect(run.stdout.contains(#""id":"web-1","outcome":"redirect","target":"com.mobileiron.ios.webatwork","callbacks":[]"#))
        // The unknown sender: the callback carries the policy, and no sourceApplication (the SDK passes nil).
        #expect(run.stdout.contains(#"{"id":"from-1","outcome":"deny","callbacks":[{"selector":"appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:","policy":"ACOpenFromPolicyWhitelist"}]"#))
    }

    @Test("the flags: --web-dlp, --web-at-work, --excluded-activity; the user-chooses record says the user is prompted")
    func flags() throws {
        let base = ["eval", "--policy", "Examples/policies/whitelist-mail-pair.json"]
        let chooses = try BuiltBinary.run(base + ["--channel", "open-url", "--url", "https://example.com/", "--web-dlp", "allowed", "--web-at-work", "--format", "json"])
        #expect(chooses.status == 0)
        #expect(chooses.stdout.contains(#""rule": "web-dlp.user-chooses""#))
        #expect(chooses.stdout.contains("the user is prompted to choose between Web@Work and the unsecured browsers"))
        let blocked = try BuiltBinary.run(base + ["--channel", "open-url", "--url", "https://example.com/", "--web-dlp", "not-allowed"])
        #expect(blocked.status == 2)
        #expect(blocked.stdout.hasPrefix("deny: nothing is delivered\n"))
        #expect(blocked.stdout.contains("rule        web-dlp.blocked\n"))
        let notGiven = try BuiltBinary.run(base + ["--channel", "open-url", "--url", "https://example.com/", "--explain"])
        #expect(notGiven.stdout.contains("the Web DLP setting was not given (webDLP, --web-dlp)"))
        let excluded = try BuiltBinary.run(base + ["--channel", "activity-view", "--target", "com.apple.UIKit.activity.AirDrop",
                                                   "--excluded-activity", "com.apple.UIKit.activity.Print",
                                                   "--excluded-activity", "com.apple.UIKit.activity.AirDrop"])
        #expect(excluded.stdout.contains("rule        activity-view.excluded-activity\n"))
        let explained = try BuiltBinary.run(base + ["--channel", "keyboard", "--target", "com.example.keys", "--config", "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS=TRUE", "--explain"])
        #expect(explained.status == 2)
        #expect(explained.stdout.contains("source   MobileIron Core AppConnect Guide: Custom keyboard control; Rules/keyboards-and-paste.md: Our choices\n"))
        #expect(explained.stdout.contains("which is not 'true', so custom keyboards are refused (fail closed)"))
    }

    @Test("bad input for the new keys is an error with file, line and column, never a decision", arguments: [
        (#"{"openInPolicy": "whitelist",\#n "webDLP": true}"#, ":2:12: webDLP: must be the string \"allowed\" or \"not-allowed\""),
        (#"{"openInPolicy": "whitelist",\#n "webDLP": "no"}"#, ":2:12: webDLP: unknown Web DLP setting 'no': use allowed or not-allowed"),
        (#"{"openInPolicy": "whitelist",\#n "webDlp": "allowed"}"#, ":2:2: webDlp: unknown key. Did you mean 'webDLP'?"),
        (#"{"openInPolicy": "whitelist",\#n "device": {"webAtWorkInstaled": true}}"#, ":2:13: device.webAtWorkInstaled: unknown key. Did you mean 'webAtWorkInstalled'?"),
        (#"{"openInPolicy": "whitelist",\#n "excludedAppleActivityTypes": [true]}"#, ":2:33: excludedAppleActivityTypes[0]: must be a string"),
        (#"{"openInPolicy": "whitelist",\#n "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": false}}"#, ":2:49: config.MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS: must be a string"),
        (#"{"openInPolicy": "whitelist",\#n "app": {"allowsCustomKeyboards": "no"}}"#, ":2:35: app.allowsCustomKeyboards: must be true or false"),
    ])
    func badPolicyFiles(_ json: String, _ message: String) throws {
        let path = try TemporaryFile.write(json, name: "policy.json")
        for request in [["--channel", "open-url", "--url", "https://example.com/"], ["--channel", "keyboard", "--target", "com.example.keys"]] {
            let run = try BuiltBinary.run(["eval", "--policy", path] + request)
            #expect(run.status == 1)
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("Error: \(path)\(message)"), "\(run.stderr)")
        }
    }

    @Test("paste and keyboard with malformed or misplaced fields: an error record with the line, or a flag error; never an allow")
    func badRequests() throws {
        let stream = try TemporaryFile.write("""
            {"id":"p1","channel":"paste","source":"com..notes"}
            {"id":"p2","channel":"paste","target":"com.example.viewer"}
            {"id":"k1","channel":"keyboard","url":"https://example.com/"}
            {"id":"k2","channel":"keyboard","source":"com.example.notes"}
            {"id":"ok","channel":"paste","source":"com.example.notes"}

            """, name: "requests.jsonl")
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", stream])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == #"{"line":1,"id":"p1","error":"malformed bundle ID 'com..notes': it has an empty segment (two dots, or a dot at the start)"}"#)
        #expect(lines[1].hasPrefix(#"{"line":2,"id":"p2","error":"channel paste does not take 'target'"#))
        #expect(lines[2].hasPrefix(#"{"line":3,"id":"k1","error":"channel keyboard does not take 'url'"#))
        #expect(lines[3].hasPrefix(#"{"line":4,"id":"k2","error":"channel keyboard does not take 'source'"#))
        #expect(lines[4].contains(#""rule":"paste.not-restricted""#))
        let flag = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", "--channel", "paste", "--source", "com..notes"])
        #expect(flag.status == 1)
        #expect(flag.stdout == "")
        #expect(flag.stderr.hasPrefix("Error: --source: malformed bundle ID 'com..notes'"))
        let badFlag = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", "--channel", "activity-view",
                                           "--excluded-activity", "com.apple.UIKit.activity.*"])
        #expect(badFlag.status == 1)
        #expect(badFlag.stderr.hasPrefix("Error: --excluded-activity com.apple.UIKit.activity.*: malformed bundle ID"))
    }

    @Test("lint reports the custom-keyboards key spelled almost right and a value that is not \"true\" or \"false\", with file and line")
    func lintFindsKeyboardMistakes() throws {
        let path = try TemporaryFile.write("""
            {"openInPolicy": "whitelist",
             "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARD": "false",
                        "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "yes"}}
            """, name: "policy.json")
        let run = try BuiltBinary.run(["lint", path])
        #expect(run.status == 2)
        #expect(run.stdout.contains("\(path):2:13: error OI020 custom-keyboards-key-misspelled:"))
        #expect(run.stdout.contains("\(path):3:49: error OI019 custom-keyboards-value:"))
    }
}
