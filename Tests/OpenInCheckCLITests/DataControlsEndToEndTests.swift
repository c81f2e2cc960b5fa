import Testing

/// Open From, copy and print through the built binary: eval, matrix, lint and diff.
@Suite struct DataControlsEndToEndTests {
    static let allFive = "Examples/policies/all-five-controls.json"
    static let mailPair = "Examples/policies/whitelist-mail-pair.json"

    @Test func theBundledDLPRequestsGiveOneRecordEach() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.allFive, "Examples/requests-dlp.jsonl"])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0].contains(#""outcome":"allow","callbacks":[],"openInUI":"enabled","rule":"open-from.listed-source""#))
        #expect(lines[1].contains(#""sourceApplication":"com.example.personal-mail""#))
        #expect(lines[2].contains(#""rule":"open-from.unknown-source""#))
        #expect(lines[3].contains(#""outcome":"allow","audience":"appconnect-apps""#))
        #expect(lines[4].contains(#""target":"com.example.docviewer","audience":"appconnect-apps""#))
        #expect(lines[5].contains(#""outcome":"deny","callbacks":[],"openInUI":"enabled","rule":"copy.secure-non-appconnect-app""#))
        #expect(lines[6].contains(#""rule":"print.unauthorized""#))
    }

    @Test func aPolicyWithoutTheControlMakesEveryNewRequestAnError() throws {
        let stream = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "Examples/requests-dlp.jsonl"])
        #expect(stream.status == 1)
        let lines = stream.stdout.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { $0.contains(#""error":"channel "#) && $0.contains("which the policy does not set") })
        #expect(lines[0].contains("needs openFromPolicy"))
        #expect(lines[6].contains("needs printPolicy"))
        let one = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--channel", "copy"])
        #expect(one.status == 1)
        #expect(one.stdout == "")
        #expect(one.stderr.hasPrefix("Error: Examples/policies/whitelist-mail-pair.json: channel copy needs pasteboardPolicy, which the policy does not set"))
    }

    @Test("an AppConnect.plist sets no Open From, copy or print control: the error says where to set it")
    func appConnectPlistSetsNoNewControl() throws {
        for (arguments, key) in [(["--channel", "copy"], "pasteboardPolicy"), (["--channel", "print"], "printPolicy"),
                                 (["--channel", "open-from", "--source", "com.example.docviewer"], "openFromPolicy")] {
            let run = try BuiltBinary.run(["eval", "--policy", "Examples/AppConnect.plist"] + arguments)
            #expect(run.status == 1)
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("Error: Examples/AppConnect.plist: channel \(arguments[1]) needs \(key), which the policy does not set"), "\(run.stderr)")
            #expect(run.stderr.hasSuffix("to a JSON policy file (an AppConnect.plist cannot set it)\n"), "\(run.stderr)")
            #expect(!run.stderr.contains("context"), "a CLI user is not told about a table row's context")
        }
    }

    @Test func sourceFlag() throws {
        let listed = try BuiltBinary.run(["eval", "--policy", Self.allFive, "--channel", "open-from", "--source", "com.example.scanner"])
        #expect(listed.status == 0)
        #expect(listed.stdout.hasPrefix("allow: delivered\n  request     open-from from com.example.scanner\n"))
        let unknown = try BuiltBinary.run(["eval", "--policy", Self.allFive, "--channel", "open-from", "--explain"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.contains("  callback    appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication: with ACOpenFromPolicyWhitelist, nil (unknown source)\n"))
        #expect(unknown.stdout.contains("(step 13 of 17)"))
        let malformed = try BuiltBinary.run(["eval", "--policy", Self.allFive, "--channel", "open-from", "--source", "com..scanner"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.hasPrefix("Error: --source: malformed bundle ID 'com..scanner'"))
        let misplaced = try BuiltBinary.run(["eval", "--policy", Self.allFive, "--channel", "print", "--source", "com.example.scanner"])
        #expect(misplaced.status == 1)
        #expect(misplaced.stderr.hasPrefix("Error: --source: channel print does not take 'source'"))
        let copy = try BuiltBinary.run(["eval", "--policy", Self.allFive, "--channel", "copy"])
        #expect(copy.stdout.contains("  readable by  AppConnect apps only\n"))
    }

    @Test func matrixShowsWhatComesInAndWhatLeavesOnlyWhenAControlIsSet() throws {
        let run = try BuiltBinary.run(["matrix", "--policy", Self.allFive])
        #expect(run.status == 0)
        #expect(run.stdout.contains("""
            Beyond Open In:
              Open From: WHITELIST of 2 bundle IDs
              copy: SECURECOPY (ACPasteboardPolicySecureCopy), secure services available
              print: UNAUTHORIZED (ACPrintPolicyUnauthorized)

                           listed  unlisted  unknown
            What comes in  source  source    source
            open-from      allow   deny*     deny*

                                       paste into      paste into
            Copy and print  no target  AppConnect app  other app
            copy            allow-ac   allow-ac        deny
            print           deny       ·               ·

            """))
        let plain = try BuiltBinary.run(["matrix", "--policy", Self.mailPair])
        #expect(!plain.stdout.contains("Beyond Open In"))
        let markdown = try BuiltBinary.run(["matrix", "--format", "markdown", "--policy", Self.allFive])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("| `open-from` | allow | deny\\* | deny\\* |\n"))
        #expect(markdown.stdout.contains("| `copy` | allow-ac | allow-ac | deny |\n| `print` | deny | · | · |\n"))
        let plainMarkdown = try BuiltBinary.run(["matrix", "--format", "markdown", "--policy", Self.mailPair])
        #expect(!plainMarkdown.stdout.contains("Beyond Open In"))
        let unset = try TemporaryFile.write(#"{"openInPolicy": 1, "printPolicy": 1}"#, name: "print-only.json")
        let partial = try BuiltBinary.run(["matrix", "--policy", unset])
        #expect(partial.stdout.contains("  Open From: not set (openFromPolicy)\n"))
        #expect(partial.stdout.contains("open-from      -       error     error\n"))
        #expect(partial.stdout.contains("print           allow      ·               ·\n"))
    }

    @Test func lintAndDiffKnowTheNewControls() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": 1, "openFromPolicy": "authorized", "openFromWhitelist": ["com.example.a"], "pasteboardPolicy": "secure"}"#, name: "half.json")
        let lint = try BuiltBinary.run(["lint", policy])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("warning OI016 open-from-whitelist-ignored: openFromWhitelist: "))
        #expect(lint.stdout.contains("Did you mean 'securecopy'?"))
        let diff = try BuiltBinary.run(["diff", Self.mailPair, Self.allFive])
        #expect(diff.status == 2)
        #expect(diff.stdout.contains("Decided by one policy only (3):\n  open-from: the old policy does not set openFromPolicy, so its open-from requests are errors; the new one decides them\n"))
        #expect(diff.stdout.hasSuffix("verdict: incomparable\n"))
    }
}
