import Foundation
import OpenInPolicy
import Testing

/// `openin-check test`, through the built binary.
@Suite struct TestVerbEndToEndTests {
    static let table = """
        # Mine

        | id | policy | whitelist | channel | target | outcome | rule |
        |----|--------|-----------|---------|--------|---------|------|
        | listed | whitelist | com.example.viewer | quick-look | com.example.viewer | allow | document.listed-target |
        | unlisted | whitelist | com.example.viewer | quick-look | com.example.other | substitute-dummy-file | document.unlisted-target |

        """

    /// Writes `text` to a fresh temporary file, in a folder of its own, and returns its path (`TemporaryFile.remove(_:)` removes it).
    static func temporaryTable(_ text: String) throws -> String {
        let file = try TemporaryFile.folder("openin-test").appendingPathComponent("mine.md")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func theBundledRulesPass() throws {
        let run = try BuiltBinary.run(["test"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let passed = Int(last.split(separator: " ").first ?? "") ?? 0
        #expect(last.hasSuffix(" passed, 0 failed"))
        #expect(passed >= 100)
    }

    @Test func aChangedOutcomeFailsAtItsFileAndLine() throws {
        let path = try Self.temporaryTable(Self.table.replacingOccurrences(of: "| substitute-dummy-file |", with: "| allow |"))
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["test", path])
        #expect(run.status == 2)
        #expect(run.stdout == """
            FAIL \(path):6: unlisted: outcome: expected allow, got substitute-dummy-file
            1 passed, 1 failed

            """)
    }

    @Test func verboseListsPassingRows() throws {
        let path = try Self.temporaryTable(Self.table)
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["test", "--verbose", path])
        #expect(run.status == 0)
        #expect(run.stdout == "pass \(path):5: listed\npass \(path):6: unlisted\n2 passed, 0 failed\n")
    }

    @Test func aMalformedTableIsInvalidInputWithFileAndLine() throws {
        let path = try Self.temporaryTable(Self.table.replacingOccurrences(of: "| quick-look | com.example.other |", with: "| quick-look |"))
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["test", path])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(path):6: this row has 6 cells but the header has 7; write '\\|' for a '|' inside a cell\n")
    }

    @Test func aMissingPathIsInvalidInput() throws {
        let run = try BuiltBinary.run(["test", "no/such/folder"])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: no/such/folder: no such file or directory\n")
    }

    // Issue 14: a run that checked nothing is not a pass.

    @Test func aWindowsLineEndingTableWithAFailingRowFails() throws {
        let crlf = Self.table.replacingOccurrences(of: "| substitute-dummy-file |", with: "| allow |").replacingOccurrences(of: "\n", with: "\r\n")
        let path = try Self.temporaryTable(crlf)
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["test", path])
        #expect(run.status == 2)
        #expect(run.stdout == "FAIL \(path):6: unlisted: outcome: expected allow, got substitute-dummy-file\n1 passed, 1 failed\n")
    }

    @Test func anEmptyFolderIsInvalidInput() throws {
        let folder = try TemporaryFile.folder("openin-empty").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try BuiltBinary.run(["test", folder])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(folder): no decision table found: this folder and its subfolders hold no Markdown (*.md) file\n")
    }

    @Test func aFolderOfMarkdownWithoutTablesIsInvalidInput() throws {
        let path = try Self.temporaryTable("# Notes\n\n| key | value |\n|-|-|\n| a | b |\n")
        defer { TemporaryFile.remove(path) }
        let folder = (path as NSString).deletingLastPathComponent
        let run = try BuiltBinary.run(["test", folder])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(folder): no decision table found in the 1 Markdown file of this folder and its subfolders (a pipe table whose header has 'id', 'policy', 'channel' and 'outcome' columns)\n")
    }

    @Test func aNamedFileWithoutATableIsInvalidInput() throws {
        let run = try BuiltBinary.run(["test", "README.md"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: README.md: holds no decision table (a pipe table whose header has 'id', 'policy', 'channel' and 'outcome' columns): name a file that has one\n")
    }

    @Test func lifecycleScenariosAreReplayedAgainstTheirExpectedTimelines() throws {
        let one = try BuiltBinary.run(["test", "Rules/lifecycle/acknowledgments.scenario"])
        #expect(one.status == 0)
        #expect(one.stderr == "")
        #expect(one.stdout == "1 passed, 0 failed\n")
        let count = try FileManager.default.contentsOfDirectory(atPath: BuiltBinary.packageRoot.appendingPathComponent("Rules/lifecycle").path)
            .filter { $0.hasSuffix(".scenario") }.count
        let folder = try BuiltBinary.run(["test", "Rules/lifecycle"])
        #expect(folder.status == 0)
        #expect(folder.stdout == "\(count) passed, 0 failed\n")
        #expect(count >= 10)
    }

    @Test func aTimelineThatDiffersFailsAtTheFirstLineThatDiffers() throws {
        let root = BuiltBinary.packageRoot.appendingPathComponent("Rules/lifecycle")
        let scenario = try String(contentsOf: root.appendingPathComponent("acknowledgments.scenario"), encoding: .utf8)
        var expected = try String(contentsOf: root.appendingPathComponent("acknowledgments.expected"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let original = expected[2]
        expected[2] = "something else"
        let directory = try TemporaryFile.folder("openin-test")
        defer { try? FileManager.default.removeItem(at: directory) }
        try scenario.write(to: directory.appendingPathComponent("mine.scenario"), atomically: true, encoding: .utf8)
        try expected.joined(separator: "\n").write(to: directory.appendingPathComponent("mine.expected"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("mine.scenario").path
        let run = try BuiltBinary.run(["test", directory.path])
        #expect(run.status == 2)
        #expect(run.stdout == "FAIL \(path):1: timeline: \(directory.path)/mine.expected:3: expected 'something else', got '\(original)'\n0 passed, 1 failed\n")
        // Windows line endings in both files read like any other.
        let crlf = expected.enumerated().map { $0.offset == 2 ? original : $0.element }.joined(separator: "\r\n")
        try crlf.write(to: directory.appendingPathComponent("windows.expected"), atomically: true, encoding: .utf8)
        try scenario.replacingOccurrences(of: "\n", with: "\r\n").write(to: directory.appendingPathComponent("windows.scenario"), atomically: true, encoding: .utf8)
        let windows = try BuiltBinary.run(["test", directory.appendingPathComponent("windows.scenario").path])
        #expect(windows.status == 0)
        #expect(windows.stdout == "1 passed, 0 failed\n")
        let github = try BuiltBinary.run(["test", "--format", "github", path])
        #expect(github.stdout.hasPrefix("::error file=\(path),line=1,title=scenario timeline::"))

        try FileManager.default.removeItem(at: directory.appendingPathComponent("mine.expected"))
        let missing = try BuiltBinary.run(["test", path])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr.hasPrefix("Error: \(path): no expected timeline to compare with (\(directory.path)/mine.expected: "))
        #expect(missing.stderr.contains("review the output of 'openin-check simulate \(path)'"))
    }

    @Test func aTableMissingItsOutcomeColumnIsInvalidInput() throws {
        let path = try Self.temporaryTable(Self.table.replacingOccurrences(of: "| outcome |", with: "| result |"))
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["test", path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: \(path):3: this table has 'id', 'policy', 'channel' columns like a decision table but no 'outcome' column"))
    }

    @Test func aWindowsLineEndingScenarioRunsLikeAUnixOne() throws {
        let text = "# a scenario\nserver openInPolicy whitelist com.example.viewer\nlaunch\nshare quick-look target=com.example.other\n"
        let unix = try TemporaryFile.write(text, name: "lf.scenario")
        let windows = try TemporaryFile.write(text.replacingOccurrences(of: "\n", with: "\r\n"), name: "crlf.scenario")
        defer {
            TemporaryFile.remove(unix)
            TemporaryFile.remove(windows)
        }
        let lf = try BuiltBinary.run(["simulate", unix]), crlf = try BuiltBinary.run(["simulate", windows])
        #expect(crlf.status == 2)
        #expect(crlf.stderr == "")
        #expect(crlf.stdout == lf.stdout)
        #expect(crlf.stdout.hasSuffix("1 share, 1 not allowed\n"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        let run = try BuiltBinary.run(["test", "--verbos"])
        #expect(run.status == 64)
        #expect(run.stderr == """
            Error: unknown option '--verbos'. Did you mean '--verbose'?
            Usage: openin-check test [--verbose] [--format FORMAT] [PATH…]
            See 'openin-check test --help' for more information.

            """)
    }
}

/// `openin-check rules`, through the built binary.
@Suite struct RulesVerbEndToEndTests {
    @Test func listsEveryRuleInOrder() throws {
        let run = try BuiltBinary.run(["rules"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == RuleInfo.all.count)
        #expect(lines.first?.hasPrefix(" 1  not-enforcing.allow ") == true)
        for (line, rule) in zip(lines, RuleInfo.all) {
            let step = rule.step < 10 ? " \(rule.step)" : "\(rule.step)"
            #expect(line.hasPrefix("\(step)  \(rule.id) "), "\(line)")
        }
    }

    @Test func explainQuotesTheSource() throws {
        let run = try BuiltBinary.run(["rules", "--explain"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("source: AppConnect for iOS SDK Developer Guide: Open In policy API details"))
        #expect(run.stdout.contains("\"However, if the AppConnect app Email+ is installed on the device, it is opened and the callback method is not called.\""))
    }

    @Test func argumentsAreAUsageError() throws {
        let run = try BuiltBinary.run(["rules", "extra"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: rules takes no arguments, not 'extra'\nUsage: openin-check rules [--intune] [--explain]\n"))
    }
}

/// `openin-check test` on tables that name their policy file.
@Suite struct NamedPolicyTablesEndToEndTests {
    @Test func theExamplesTablesRunAgainstTheirPolicyFile() throws {
        let run = try BuiltBinary.run(["test", "Examples/tables"])
        #expect(run.stderr == "")
        #expect(run.stdout == "14 passed, 0 failed\n")
        #expect(run.status == 0)
    }

    /// A fleet table of either vendor runs on the same runner: Intune's names its policies and devices file. Microsoft's
    /// template (`framework-templates.md`) targets an app group it does not list: its rows pass only when the runner resolves
    /// the group as the CLI does (it once read the template as targeting nothing, so every share was `allow`).
    @Test func theFleetTablesOfBothVendorsRun() throws {
        for (folder, count) in [("Examples/fleet", 6), ("Examples/intune", 8)] {
            let run = try BuiltBinary.run(["test", folder])
            #expect(run.stderr == "")
            #expect(run.stdout == "\(count) passed, 0 failed\n", "\(folder)")
            #expect(run.status == 0)
        }
    }

    @Test func aMissingPolicyFileIsInvalidInputAtThePolicyLine() throws {
        let table = """
            # Mine

            Policy: [ours](missing-policy.json)

            | id | channel | target | outcome |
            |---|---|---|---|
            | listed | quick-look | com.example.viewer | allow |

            """
        let path = try TestVerbEndToEndTests.temporaryTable(table)
        defer { TemporaryFile.remove(path) }
        let folder = String(path.dropLast("mine.md".count))
        let run = try BuiltBinary.run(["test", path])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(path):3: the policy 'missing-policy.json' this line names cannot be used: \(folder)missing-policy.json: cannot read the policy file: no such file or directory\n")
    }
}
