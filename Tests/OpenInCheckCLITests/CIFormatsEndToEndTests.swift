import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 14: the formats CI systems read, each through the built binary with its exact output
/// (kept in `Tests/Expected/ci-formats/`, reviewed by hand: regenerate only for a deliberate change).
@Suite struct CIFormatsEndToEndTests {
    static let folder = "Tests/Expected/ci-formats"
    static let table = "\(folder)/table.md"
    static let lintFiles = ["Examples/lint/mistakes.json", "Examples/lint/AppConnect.plist", "Examples/lint/Info.plist"]

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
    }

    @Test(arguments: [
        (["test", "--format", "junit", table], "test.junit.xml", Int32(2)),
        (["test", "--format", "markdown", "--verbose", table], "test.verbose.md", 2),
        (["test", "--format", "github", table], "test.github.txt", 2),
        (["lint", "--format", "sarif"] + lintFiles, "lint.sarif", 2),
        (["fleet", "lint", "--fleet", "Examples/fleet/lint-mistakes.json", "--format", "sarif"], "fleet-lint.sarif", 2),
        (["fleet", "lint", "--fleet", "Examples/intune/lint-mistakes.json", "--devices", "Examples/intune/lint-devices.json", "--format", "sarif"], "intune-lint.sarif", 2),
        (["lint", "--format", "markdown", "Examples/lint/mistakes.json"], "lint.md", 2),
        (["lint", "--format", "github"] + lintFiles, "lint.github.txt", 2),
        (["diff", "--format", "markdown", "Examples/diff/old.json", "Examples/diff/new.json"], "diff.md", 2),
        (["diff", "--format", "markdown", "--requests", "Examples/requests-with-errors.jsonl", "Examples/diff/old.json", "Examples/diff/tightened.json"], "diff-replay.md", 1),
        (["matrix", "--format", "markdown", "--policy", "Examples/AppConnect.plist"], "matrix.md", 0),
    ])
    func exactOutput(_ arguments: [String], _ file: String, _ status: Int32) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.stderr == "")
        #expect(run.status == status)
        #expect(run.stdout == (try Self.expected(file)), "regenerate \(file) with: openin-check \(arguments.joined(separator: " "))")
    }

    @Test func markdownWithNothingToShowIsTheClosingLine() throws {
        let run = try BuiltBinary.run(["test", "--format", "markdown", "Rules/mail-pair.md"])
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+ passed, 0 failed\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
        let lint = try BuiltBinary.run(["lint", "--format", "markdown", "Examples/lint/clean.json"])
        #expect(lint.stdout == "lint: no findings in 1 file\n")
    }

    /// The members SARIF 2.1.0's schema requires (oasis-tcs/sarif-spec, sarif-schema-2.1.0.json), and the
    /// enumerations it restricts, checked on the logs `lint --format sarif` and `fleet lint --format sarif` write.
    @Test(arguments: [
        (["lint", "--format", "sarif"] + lintFiles, "OI000", 9),
        (["fleet", "lint", "--fleet", "Examples/fleet/lint-mistakes.json", "--format", "sarif"], "FL001", 13),
        (["fleet", "lint", "--fleet", "Examples/intune/acme-app-protection.json", "--devices", "Examples/intune/devices.json", "--format", "sarif"], "IN001", 2),
        (["fleet", "lint", "--fleet", "Examples/intune/lint-mistakes.json", "--devices", "Examples/intune/lint-devices.json", "--format", "sarif"], "IN001", 8),
    ])
    func sarifHasEveryMemberTheSchemaRequires(_ arguments: [String], _ firstRule: String, _ resultCount: Int) throws {
        let run = try BuiltBinary.run(arguments)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let tool = try #require(runs[0]["tool"] as? [String: Any])
        let driver = try #require(tool["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "openin-check")
        #expect(["utf16CodeUnits", "unicodeCodePoints"].contains(runs[0]["columnKind"] as? String ?? ""))
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(ruleIDs.count == rules.count && ruleIDs.first == firstRule)
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["none", "note", "warning", "error"].contains(level ?? ""))
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == resultCount)
        for result in results {
            #expect((result["message"] as? [String: Any])?["text"] is String)
            #expect(["none", "note", "warning", "error"].contains(result["level"] as? String ?? ""))
            let ruleID = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ruleIDs[index] == ruleID)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(URL(string: uri) != nil)
            if let region = physical["region"] as? [String: Any] {
                // A region needs startLine (or an offset); lines and columns start at 1.
                #expect((region["startLine"] as? Int ?? 0) >= 1)
                if let column = region["startColumn"] as? Int { #expect(column >= 1) }
            }
        }
        // Plist findings, and fleet findings about a device or the whole fleet, have no line: their location is the
        // file and the key path, with no region.
        #expect(firstRule == "IN001" || results.contains { result in
            let location = (result["locations"] as? [[String: Any]])?.first
            return (location?["physicalLocation"] as? [String: Any])?["region"] == nil && location?["logicalLocations"] != nil
        })
    }

    /// `fleet lint --format sarif`: the rules are the fleet checks with their levels; each result names its key path,
    /// and a device's finding names the device in its message.
    @Test func fleetSarifRulesAreTheFleetChecks() throws {
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", "Examples/fleet/lint-mistakes.json", "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { "\($0["id"] ?? "") \((($0["defaultConfiguration"] as? [String: Any])?["level"]) ?? "")" }
                == ["FL001 warning", "FL002 warning", "FL003 warning", "FL004 error", "FL005 error", "FL006 note", "FL007 warning", "FL008 error", "FL009 error", "FL010 warning", "FL011 warning", "FL012 note"])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        let places = results.map { result -> String in
            let location = (result["locations"] as? [[String: Any]])?.first
            let line = ((location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int
            let path = (location?["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String
            return "\(result["ruleId"] ?? "") \(line.map(String.init) ?? "-") \(path ?? "-")"
        }
        #expect(places == [
            "FL005 16 containerPolicies[3].app", "FL004 15 containerPolicies[2].labels", "FL008 19 appConfigurations[0].config", "FL009 20 appConfigurations[1].labels",
            "FL001 12 containerPolicies[0].openInWhitelist", "FL002 14 containerPolicies[1].openInPolicy", "FL010 21 appConfigurations[2].labels",
            "FL007 - global.printPolicy", "FL003 - devices.employee-iphone", "FL011 32 devices.employee-iphone.schemeHandlers.acmehr",
            "FL006 13 containerPolicies[1].labels", "FL006 15 containerPolicies[2].labels", "FL012 32 devices.employee-iphone.schemeHandlers.acmeview",
        ])
        let device = try #require(results.first { $0["ruleId"] as? String == "FL003" })
        #expect(((device["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("device employee-iphone: com.acme.hr may send documents") == true)
    }

    /// The JUnit report as a consumer reads it: well-formed XML, one testcase per row, counts that add up.
    @Test func junitIsWellFormedAndCountsAddUp() throws {
        let run = try BuiltBinary.run(["test", "--format", "junit", "Rules"])
        #expect(run.status == 0)
        let document = try XMLDocument(data: Data(run.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        let cases = suites.flatMap { $0.elements(forName: "testcase") }
        #expect(cases.count >= 100)
        #expect(root.attribute(forName: "tests")?.stringValue == "\(cases.count)")
        for suite in suites {
            let name = suite.attribute(forName: "name")?.stringValue ?? ""
            #expect(name.hasPrefix("Rules/") && (name.hasSuffix(".md") || name.hasSuffix(".scenario")))
            #expect(suite.attribute(forName: "tests")?.stringValue == "\(suite.elements(forName: "testcase").count)")
            #expect(Set((suite.attributes ?? []).compactMap(\.name)).isSubset(of: ["name", "tests", "failures", "errors", "skipped"]))
            for testCase in suite.elements(forName: "testcase") {
                #expect(testCase.attribute(forName: "name")?.stringValue?.hasPrefix(name + ": ") == true)
                // The attributes the Jenkins (junit-10.xsd) and Ant (junit-4.xsd) schemas allow on a test case, no others.
                #expect(Set((testCase.attributes ?? []).compactMap(\.name)).isSubset(of: ["name", "classname"]))
            }
        }
        let failing = try XMLDocument(data: Data(try BuiltBinary.run(["test", "--format", "junit", Self.table]).stdout.utf8))
        let failures = try failing.nodes(forXPath: "//testcase/failure")
        #expect(failures.count == 2)
        #expect(failures.last?.stringValue == "\(Self.table):9: a<b & \"c\" | d, e: f\noutcome: expected deny, got substitute-dummy-file\nrule: expected document.listed-target, got document.unlisted-target")
    }

    @Test(arguments: [
        (["test", "--format", "sarif"], "Error: unknown format 'sarif': use text, junit, markdown or github.\nUsage: openin-check test"),
        (["lint", "--format", "sarf", "x.json"], "Error: unknown format 'sarf': use text, json, sarif, markdown or github. Did you mean 'sarif'?\n"),
        (["diff", "--format", "markdwon", "a", "b"], "Error: unknown format 'markdwon': use text, json or markdown. Did you mean 'markdown'?\n"),
        (["matrix", "--policy", "p", "--format", "jsonl"], "Error: unknown format 'jsonl': use text or markdown.\n"),
        (["eval", "--policy", "p", "--format", "github", "-"], "Error: unknown format 'github': use text, json or jsonl.\n"),
        (["simulate", "--format", "jsn", "s"], "Error: unknown format 'jsn': use text or json. Did you mean 'json'?\n"),
        (["diff", "--fail-on", "less", "a", "b"], "Error: unknown --fail-on value 'less': use less-permissive, more-permissive, any-change or never. Did you mean 'less-permissive'?\n"),
        (["completions", "zhs"], "Error: unknown shell 'zhs': use bash, zsh or fish. Did you mean 'zsh'?\n"),
    ])
    func unknownFormatsListWhatTheVerbWrites(_ arguments: [String], _ prefix: String) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)")
    }
}

/// `diff --fail-on`, `eval --summary`, `help help`, `completions`, `--version`.
@Suite struct CIOptionsEndToEndTests {
    @Test(arguments: [
        // old → tightened is less permissive; tightened → old more permissive; old → new incomparable; old → reordered equivalent.
        ("any-change", [2, 2, 2, 0]),
        ("less-permissive", [2, 0, 2, 0]),
        ("more-permissive", [0, 2, 2, 0]),
        ("never", [0, 0, 0, 0]),
    ])
    func failOnPicksTheVerdictsThatExit2(_ failOn: String, _ statuses: [Int32]) throws {
        let pairs = [("old", "tightened"), ("tightened", "old"), ("old", "new"), ("old", "reordered")]
        for ((old, new), status) in zip(pairs, statuses) {
            let run = try BuiltBinary.run(["diff", "--fail-on", failOn, "Examples/diff/\(old).json", "Examples/diff/\(new).json"])
            #expect(run.status == status, "\(failOn) \(old) → \(new)")
        }
        let replay = try BuiltBinary.run(["diff", "--fail-on", failOn, "--requests", "Examples/requests.jsonl", "Examples/diff/old.json", "Examples/diff/tightened.json"])
        #expect(replay.status == statuses[0])
    }

    @Test func failOnNeverStillFailsOnInvalidInput() throws {
        let run = try BuiltBinary.run(["diff", "--fail-on", "never", "--requests", "Examples/requests-with-errors.jsonl", "Examples/diff/old.json", "Examples/diff/new.json"])
        #expect(run.status == 1)
    }

    @Test func summaryCountsOnStandardErrorAndLeavesTheRecordsAlone() throws {
        let arguments = ["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", "Examples/requests-with-errors.jsonl"]
        let plain = try BuiltBinary.run(arguments), summarized = try BuiltBinary.run(arguments + ["--summary"])
        #expect(summarized.stdout == plain.stdout)
        #expect(summarized.status == plain.status)
        #expect(summarized.stderr == """
            summary: 7 lines: 2 allow, 0 redirect, 0 substitute-dummy-file, 0 deny, 5 invalid
              open-url.web-scheme     1
              document.listed-target  1

            """)
        let text = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", "--format", "text", "--summary", "Examples/requests.jsonl"])
        #expect(text.stderr.hasPrefix("summary: 54 lines: 27 allow, 0 redirect, 12 substitute-dummy-file, 15 deny, 0 invalid\n  activity-view.blocks-all       6\n"))
        let flags = try BuiltBinary.run(["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", "--channel", "mail-compose", "--summary"])
        #expect(flags.status == 64)
        #expect(flags.stderr.hasPrefix("Error: '--summary' counts the decisions of a stream; it cannot be used with --channel\n"))
    }

    @Test func helpHelpWorks() throws {
        let run = try BuiltBinary.run(["help", "help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Show the help of a verb"))
        #expect(run.stdout.contains("Usage: openin-check help [VERB]\n"))
    }

    @Test func completionScriptsNameEveryVerbOptionAndChannel() throws {
        let help = try BuiltBinary.run(["--help"]).stdout
        let verbs = help.components(separatedBy: "\nVerbs:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        for shell in ["bash", "zsh", "fish"] {
            let run = try BuiltBinary.run(["completions", shell])
            #expect(run.status == 0)
            for verb in verbs { #expect(run.stdout.contains(verb), "\(shell): \(verb)") }
            for option in ["--policy", "--channel", "--fail-on", "--summary", "--strict"] {
                #expect(run.stdout.contains(shell == "fish" ? "-l \(option.dropFirst(2))" : option), "\(shell): \(option)")
            }
            #expect(run.stdout.contains("document-interaction quick-look app-extension"))
            // fleet SUBVERB --format: the formats that subverb writes (lint's from the reporter registry, the report formats of
            // paths and diff included); fish's description is the subverb's own --format help.
            for (subverb, formats, listed) in [
                ("lint", "text json markdown github sarif", "text, json, markdown, github or sarif"), ("paths", "text json markdown sarif dot", "text, json, markdown, sarif or dot"),
                ("eval", "text json jsonl", "text, json or jsonl"),
            ] {
                let expected = switch shell {
                case "bash": "\"fleet \(subverb) --format\") COMPREPLY=($(compgen -W \"\(formats)\" -- \"$cur\")); return ;;"
                case "zsh": "'fleet \(subverb) --format') compadd -- \(formats); return ;;"
                default: "__fish_seen_subcommand_from \(subverb)' -l format -x -a '\(formats)' -d '\(subverb): \(listed).'"
                }
                #expect(run.stdout.contains(expected), "\(shell): fleet \(subverb) --format")
            }
            // fleet paths: --from all (every app), --to outside.
            #expect(run.stdout.contains(shell == "fish" ? "-l from -x -a 'all'" : "--from"), "\(shell): --from all")
            #expect(run.stdout.contains(shell == "fish" ? "-l to -x -a 'outside'" : "outside"), "\(shell): --to outside")
        }
        // The bash script is valid bash and completes as it should.
        let script = try TemporaryFile.write(try BuiltBinary.run(["completions", "bash"]).stdout, name: "completion.bash")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", """
            source "$0"
            COMP_WORDS=(openin-check eval --chan); COMP_CWORD=2; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check eval --channel mail); COMP_CWORD=3; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check di); COMP_CWORD=1; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check fleet eval --channel key); COMP_CWORD=4; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check fleet paths --from a); COMP_CWORD=4; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check fleet paths --to o); COMP_CWORD=4; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check fleet lint --format s); COMP_CWORD=4; _openin_check; echo "${COMPREPLY[*]}"
            COMP_WORDS=(openin-check fleet lint --); COMP_CWORD=3; _openin_check; echo "${COMPREPLY[*]}"
            """, script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == "--channel\nmail-link mail-compose\ndiff\nkeyboard\nall\noutside\nsarif\n--fleet --format --devices --assume-assigned --conflicts --help\n")
    }

    @Test func versionNamesTheCommitOnlyWhenTheBuildDid() throws {
        let run = try BuiltBinary.run(["--version"])
        #expect(run.stdout.range(of: #"^openin-check 0\.1\.0( \(commit [0-9A-Za-z.-]+\))?\n$"#, options: .regularExpression) != nil)
    }
}
