import Foundation
import OpenInPolicy
import Testing

/// The CLI contract of `eval` (its `--help` and the README), pinned by running the built binary.
@Suite struct EvalEndToEndTests {
    static let mailPair = "Examples/policies/whitelist-mail-pair.json"
    static let halfPair = "Examples/policies/whitelist-half-pair.json"

    // MARK: Exit statuses 0 and 2, text format

    @Test func oneAllowedRequestExitsZeroWithTextOutcomeFirst() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--channel", "document-interaction", "--target", "com.example.docviewer"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            allow: delivered to com.example.docviewer
              request     document-interaction com.example.docviewer
              to          com.example.docviewer
              Open In UI  enabled
              rule        document.listed-target
              reason      The target app is in the whitelist.

            """)
    }

    @Test func oneBlockedRequestExitsTwo() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.halfPair, "--channel", "mail-compose"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("deny: nothing is delivered\n"))
        #expect(run.stdout.contains("  callback    appConnect:openInAttemptedWhenACOpenInPolicyBlocked: with ACOPENINPOLICY_WHITELIST\n"))
        #expect(run.stderr == "")
    }

    @Test func explainNamesRuleSourceAndInputs() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.halfPair, "--channel", "mail-link", "--url", "mailto:a@example.com", "--explain"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("Why\n  rule     mail-view.blocked (step \(RuleID(parsing: "mail-view.blocked")?.info.step ?? 0) of \(RuleInfo.stepCount))\n"))
        #expect(run.stdout.contains("  source   AppConnect for iOS SDK Developer Guide: Open In policy API details\n"))
        #expect(run.stdout.contains("- the whitelist holds com.apple.mobilemail but not com.apple.UIKit.activity.Mail: both are needed for native Mail"))
    }

    @Test func singleRequestAsJSONAndJSONL() throws {
        let arguments = ["eval", "--policy", Self.halfPair, "--channel", "open-url", "--url", "mailto:a@example.com"]
        let jsonl = try BuiltBinary.run(arguments + ["--format", "jsonl"])
        #expect(jsonl.status == 2)
        #expect(jsonl.stdout == #"{"outcome":"redirect","target":"com.mobileiron.ios.emailplus","callbacks":[],"openInUI":"enabled","rule":"mailto.email-plus-redirect","reason":"The device's mail app is not allowed and Email+ is installed, so Email+ opens instead and no callback is called."}"# + "\n")
        let json = try BuiltBinary.run(arguments + ["--format=json", "--explain"])
        #expect(json.status == 2)
        #expect(json.stdout.hasPrefix("{\n  \"outcome\": \"redirect\",\n"))
        #expect(json.stdout.contains("\"explanation\": {\n    \"step\": \(RuleID(parsing: "mailto.email-plus-redirect")?.info.step ?? 0),\n"))
        #expect(json.stdout.contains("\"Email+ (com.mobileiron.ios.emailplus) is installed\""))
    }

    // MARK: Streams

    @Test func bundledRequestsGiveOneRecordPerLineInOrder() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "Examples/requests.jsonl"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let requests = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/requests.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        #expect(requests.count >= 50)
        #expect(lines.count == requests.count)
        for (index, line) in lines.enumerated() {
            #expect(line.hasPrefix(String(format: "{\"id\":\"r%02d\",\"outcome\":", index + 1)), "line \(index + 1): \(line)")
        }
        #expect(lines[0] == #"{"id":"r01","outcome":"allow","target":"com.example.docviewer","callbacks":[],"openInUI":"enabled","rule":"document.listed-target","reason":"The target app is in the whitelist."}"#)
    }

    @Test func invalidLinesGiveErrorRecordsAndTheStreamGoesOn() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "Examples/requests-with-errors.jsonl"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[0].hasPrefix(#"{"id":"ok-1","outcome":"allow""#))
        #expect(lines[1] == #"{"line":2,"id":"typo","error":"chanel: unknown key. Did you mean 'channel'? Known keys: id, channel, target, url, source, document"}"#)
        #expect(lines[2] == #"{"line":3,"id":"no-target","error":"channel quick-look needs a target bundle ID"}"#)
        #expect(lines[3] == #"{"line":4,"error":"blank line: write one JSON request per line"}"#)
        #expect(lines[4] == #"{"line":5,"error":"column 54: not valid JSON: expected ',' or '}', found the end of the input: the object is not closed"}"#)
        #expect(lines[5] == #"{"line":6,"id":"bad-id","error":"malformed bundle ID 'com example': it contains a space"}"#)
        #expect(lines[6].hasPrefix(#"{"id":"ok-2","outcome":"allow""#))
    }

    @Test func streamFromStandardInputInTextAndJSON() throws {
        let input = "{\"channel\": \"mail-compose\"}\r\n{\"id\": 2, \"channel\": \"activity-view\"}"
        let text = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--format", "text", "-"], stdin: input)
        #expect(text.status == 2)
        #expect(text.stdout == """
            line 1: allow  mail-compose → com.apple.mobilemail  [mail-view.mail-allowed]
            line 2 (id 2): deny  activity-view  [activity-view.blocks-all]

            """)
        let json = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--format", "json", "-"], stdin: input)
        #expect(json.status == 2)
        #expect(json.stdout.hasPrefix("[\n  {\n    \"outcome\": \"allow\",\n"))
        #expect(json.stdout.hasSuffix("}\n]\n"))
    }

    @Test func allAllowedStreamExitsZero() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/authorized.json", "Examples/requests.jsonl"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\"outcome\":\"deny\""))
    }

    @Test func emptyStreamIsInvalidInput() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "-"], stdin: "")
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: the request stream on standard input is empty: write one JSON request per line\n")
    }

    // MARK: Policy sources

    @Test(arguments: [false, true])
    func appConnectPlistXMLAndBinary(binary: Bool) throws {
        let path: String
        if binary {
            let data = try Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/AppConnect.plist"))
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            path = try TemporaryFile.plist(object, binary: true, name: "AppConnect.plist")
        } else {
            path = "Examples/AppConnect.plist"
        }
        let run = try BuiltBinary.run(["eval", "--policy", path, "--channel", "open-url", "--url", "mailto:a@example.com", "--format", "jsonl"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""rule":"mailto.mail-allowed""#))
        let blocked = try BuiltBinary.run(["eval", "--policy", path, "--channel", "quick-look", "--target", "com.other.app", "--format", "jsonl"])
        #expect(blocked.status == 2)
        #expect(blocked.stdout.contains(#""outcome":"substitute-dummy-file""#))
    }

    @Test func appConnectPlistAppConnectAppsFromFileAndFlag() throws {
        let path = try TemporaryFile.plist(["policy": ["openin": "appconnect"], "appconnectapps": "com.example.a"], binary: true, name: "AppConnect.plist")
        let fromFile = try BuiltBinary.run(["eval", "--policy", path, "--channel", "app-extension", "--target", "com.example.a", "--format", "jsonl"])
        #expect(fromFile.status == 0)
        let notListed = try BuiltBinary.run(["eval", "--policy", path, "--channel", "app-extension", "--target", "com.example.b", "--format", "jsonl"])
        #expect(notListed.status == 2)
        let fromFlag = try BuiltBinary.run(["eval", "--policy", path, "--appconnect-app", "com.example.b", "--channel", "app-extension", "--target", "com.example.b", "--format", "jsonl"])
        #expect(fromFlag.status == 0)
    }

    @Test(arguments: ["Examples/Info.plist", "Examples/Info-binary.plist"])
    func infoPlistOverrideXMLAndBinary(path: String) throws {
        let arguments = ["eval", "--policy", "Examples/policies/unauthorized.json", "--channel", "open-url", "--url", "mailto:a@example.com", "--format", "jsonl"]
        let without = try BuiltBinary.run(arguments)
        #expect(without.status == 2)
        #expect(without.stdout.contains(#""rule":"mailto.blocked""#))
        let with = try BuiltBinary.run(arguments + ["--info-plist", path, "--explain"])
        #expect(with.status == 0)
        #expect(with.stdout.contains(#""rule":"mailto.scheme-blocking-disabled""#))
        #expect(with.stdout.contains("MI_AC_DISABLE_SCHEME_BLOCKING is set to YES in the Info.plist (MI_APP_CONNECT)"))
    }

    @Test func flagsAddToAndOverrideTheFile() throws {
        let policy = "Examples/policies/unauthorized.json"
        let config = try BuiltBinary.run(["eval", "--policy", policy, "--config", "MI_AC_DISABLE_SCHEME_BLOCKING=true", "--channel", "open-url", "--url", "mailto:a@b.c"])
        #expect(config.status == 0)
        let emailPlus = try BuiltBinary.run(["eval", "--policy", policy, "--email-plus-installed", "--channel", "open-url", "--url", "mailto:a@b.c"])
        #expect(emailPlus.status == 2)
        #expect(emailPlus.stdout.hasPrefix("redirect: delivered to com.mobileiron.ios.emailplus instead\n"))
        let own = try BuiltBinary.run(["eval", "--policy", policy, "--app-scheme", "notes", "--channel", "open-url", "--url", "notes://x"])
        #expect(own.status == 0)
        let handler = try BuiltBinary.run(["eval", "--policy", "Examples/policies/authorized.json", "--scheme-handler", "foo=com.example.foo",
                                           "--channel", "open-url", "--url", "foo://x"])
        #expect(handler.status == 0)
        #expect(handler.stdout.contains("  to          com.example.foo\n"))
        let override = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--scheme-handler", "box=com.other.box",
                                            "--channel", "open-url", "--url", "box://x"])
        #expect(override.status == 2)
    }

    // MARK: Invalid input (exit 1)

    @Test func invalidPolicyFilesNameFileLineAndKey() throws {
        let json = try TemporaryFile.write("{\n  \"openInPolicy\": \"whitelist\",\n  \"enforcing\": \"no\"\n}\n", name: "p.json")
        let run = try BuiltBinary.run(["eval", "--policy", json, "--channel", "mail-compose"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(json):3:16: enforcing: must be true or false, not the string \"no\"\n")

        let plist = try TemporaryFile.plist(["policy": ["openin": "sometimes"]], binary: true, name: "AppConnect.plist")
        let plistRun = try BuiltBinary.run(["eval", "--policy", plist, "--channel", "mail-compose"])
        #expect(plistRun.status == 1)
        #expect(plistRun.stderr == "Error: \(plist): policy.openin: unknown value \"sometimes\". Use allow, disable, whitelist or appconnect\n")

        let broken = try TemporaryFile.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>policy</key>\n</dict>\n</plist>\n", name: "broken.plist")
        let brokenRun = try BuiltBinary.run(["eval", "--policy", broken, "--channel", "mail-compose"])
        #expect(brokenRun.status == 1)
        #expect(brokenRun.stderr.hasPrefix("Error: \(broken):"))
        #expect(brokenRun.stderr.contains("not a valid property list (XML or binary)"))
    }

    @Test func invalidInfoPlistFailsClosed() throws {
        let plist = try TemporaryFile.plist(["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": "YES"]], binary: false, name: "Info.plist")
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/policies/unauthorized.json", "--info-plist", plist, "--channel", "open-url", "--url", "mailto:a@b.c"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(plist): MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: must be a Boolean, not a <string> (\"YES\"): write <true/> (in Xcode: type Boolean, value YES)\n")
    }

    @Test func missingFilesAndInvalidFlagValues() throws {
        let missing = try BuiltBinary.run(["eval", "--policy", "no-such-policy.json", "--channel", "mail-compose"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: cannot read policy file 'no-such-policy.json': no such file or directory\n")
        let missingStream = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "no-such-requests.jsonl"])
        #expect(missingStream.status == 1)
        #expect(missingStream.stderr == "Error: cannot read request stream 'no-such-requests.jsonl': no such file or directory\n")
        let directory = try BuiltBinary.run(["eval", "--policy", "Examples", "--channel", "mail-compose"])
        #expect(directory.status == 1)
        #expect(directory.stderr == "Error: cannot read policy file 'Examples': it is a directory; give a file\n")
        let target = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--channel", "quick-look", "--target", "com..x"])
        #expect(target.status == 1)
        #expect(target.stderr == "Error: --target: malformed bundle ID 'com..x': it has an empty segment (two dots, or a dot at the start)\n")
        let channel = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--channel", "quicklook", "--target", "com.x"])
        #expect(channel.status == 1)
        #expect(channel.stderr.hasSuffix("Did you mean 'quick-look'?\n"))
        let needsTarget = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--channel", "drag-and-drop"])
        #expect(needsTarget.status == 1)
        #expect(needsTarget.stderr == "Error: channel drag-and-drop needs a target bundle ID: give it with --target BUNDLE_ID\n")
        let handler = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--scheme-handler", "box=not valid", "--channel", "mail-compose"])
        #expect(handler.status == 1)
        #expect(handler.stderr == "Error: --scheme-handler box=not valid: malformed bundle ID 'not valid': it contains a space\n")
        let scheme = try BuiltBinary.run(["eval", "--policy", Self.mailPair, "--app-scheme", "9x", "--channel", "mail-compose"])
        #expect(scheme.status == 1)
        #expect(scheme.stderr.hasPrefix("Error: --app-scheme 9x: malformed URL scheme '9x'"))
    }

    // MARK: Usage errors (exit 64)

    @Test func usageErrorsPrintErrorUsageAndSee() throws {
        let run = try BuiltBinary.run(["eval", "--polcy", Self.mailPair, "-"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            Error: unknown option '--polcy'. Did you mean '--policy'?
            Usage: openin-check eval --policy FILE [options] (--channel CHANNEL [--target ID] [--url URL] | REQUESTS.jsonl | -)
            See 'openin-check eval --help' for more information.

            """)
    }

    @Test(arguments: [
        (["eval", "--channel", "mail-compose"], "Error: missing '--policy FILE': give the policy to decide under"),
        (["eval", "--policy", mailPair], "Error: no request given: give one with --channel (and --target or --url), or a stream: a JSON Lines file, or - for standard input"),
        (["eval", "--policy", mailPair, "--channel", "mail-compose", "-"], "Error: give one request with --channel or a stream file, not both (unexpected argument '-')"),
        (["eval", "--policy", mailPair, "--target", "a.b", "-"], "Error: '--target' describes one request given with --channel; it cannot be used with a stream"),
        (["eval", "--policy", mailPair, "--format", "jsn", "-"], "Error: unknown format 'jsn': use text, json or jsonl. Did you mean 'json'?"),
        (["eval", "--policy", mailPair, "--config", "NOEQUALS", "-"], "Error: 'NOEQUALS' is not of the form KEY=VALUE (for --config)"),
        (["eval", "--policy"], "Error: missing value for '--policy FILE'"),
        (["eval", "--policy", mailPair, "--policy", mailPair, "-"], "Error: option '--policy' is given more than once; give it once"),
        (["eval", "--policy", mailPair, "--explain=yes", "-"], "Error: option '--explain' takes no value"),
    ])
    func usageErrors(arguments: [String], firstLine: String) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(firstLine + "\nUsage: openin-check eval "))
        #expect(run.stderr.hasSuffix("See 'openin-check eval --help' for more information.\n"))
    }

    // MARK: Help

    @Test func helpIsTheSameThreeWays() throws {
        let short = try BuiltBinary.run(["eval", "-h"])
        let long = try BuiltBinary.run(["eval", "--policy", "x", "--help"])
        let verb = try BuiltBinary.run(["help", "eval"])
        for run in [short, long, verb] {
            #expect(run.status == 0)
            #expect(run.stderr == "")
            #expect(run.stdout == short.stdout)
        }
        #expect(short.stdout.hasPrefix("Decide share requests under a policy"))
        for option in ["--policy FILE", "--info-plist FILE", "--config KEY=VALUE", "--email-plus-installed", "--scheme-handler SCHEME=BUNDLE_ID",
                       "--secure-services available|unavailable", "--app-scheme SCHEME", "--appconnect-app BUNDLE_ID", "--channel CHANNEL", "--target BUNDLE_ID", "--url URL",
                       "--document NAME", "--format FORMAT", "--explain", "-h, --help"] {
            #expect(short.stdout.contains("  \(option) "), "\(option)")
        }
    }

    /// `--secure-services` sets what `device.secureServicesAvailable` says, over the file, and a copy under
    /// securecopy follows it; without either, the copy is an error that names both ways to give it.
    @Test func secureServicesFromTheCommandLine() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": "unauthorized", "pasteboardPolicy": "securecopy", "device": {"appConnectApps": ["com.example.docs"]}}"#, name: "securecopy.json")
        let missing = try BuiltBinary.run(["eval", "--policy", policy, "--channel", "copy"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("device.secureServicesAvailable"))
        #expect(missing.stderr.contains("--secure-services available|unavailable"))
        let available = try BuiltBinary.run(["eval", "--format", "jsonl", "--policy", policy, "--secure-services", "available", "--channel", "copy", "--target", "com.example.docs"])
        #expect(available.status == 0)
        #expect(available.stdout.contains(#""rule":"copy.secure-appconnect-apps""#))
        let unavailable = try BuiltBinary.run(["eval", "--format", "jsonl", "--policy", "Examples/policies/all-five-controls.json", "--secure-services", "unavailable", "--channel", "copy"])
        #expect(unavailable.status == 2)
        #expect(unavailable.stdout.contains(#""rule":"copy.secure-services-unavailable""#))
        let wrong = try BuiltBinary.run(["eval", "--policy", policy, "--secure-services", "yes", "--channel", "copy"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("'--secure-services' takes available or unavailable, not 'yes'"))
    }
}
