import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Decision tables that name their policy file: `Policy: [title](PATH)` above a table.
@Suite struct TablePolicyTests {
    /// A folder of its own with `files` (relative path → contents) written into it; returns its path.
    static func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openin-table-policy-\(UUID().uuidString)")
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root.path
    }

    static let policy = """
        {"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"], "device": {"schemeHandlers": {"box": "net.box.BoxNet"}}}
        """

    static let table = """
        # Mine

        Policy: [our policy](../policies/ours.json)

        | id | channel | target | outcome | rule |
        |---|---|---|---|---|
        | listed | quick-look | com.example.viewer | allow | document.listed-target |
        | unlisted | quick-look | com.example.other | substitute-dummy-file | document.unlisted-target |

        """

    func load(_ table: String, policy: String? = TablePolicyTests.policy, policyName: String = "policies/ours.json") throws -> [TableCase] {
        var files = ["tables/mine.md": table]
        if let policy { files[policyName] = policy }
        let root = try Self.folder(files)
        // Loading reads every file: the rows run without them.
        defer { try? FileManager.default.removeItem(atPath: root) }
        return try DecisionTables.load(paths: [root + "/tables"])
    }

    /// The error `load` throws, or nil.
    func loadError(_ table: String, policy: String? = TablePolicyTests.policy) -> TableError? {
        do {
            _ = try load(table, policy: policy)
            return nil
        } catch let error as TableError {
            return error
        } catch {
            return nil
        }
    }

    @Test func rowsRunUnderTheNamedPolicyWithoutPolicyColumns() throws {
        let results = try load(Self.table).map(DecisionTables.run)
        #expect(results.count == 2)
        #expect(results.allSatisfy { $0.passed }, "\(results.compactMap(\.failureMessage))")
    }

    @Test func aChangeToThePolicyFileFailsTheRows() throws {
        let tightened = Self.policy.replacingOccurrences(of: "\"com.example.viewer\"", with: "\"com.example.other\"")
        let results = try load(Self.table, policy: tightened).map(DecisionTables.run)
        #expect(results.map(\.passed) == [false, false])
        #expect(results[0].mismatches.first == "outcome: expected allow, got substitute-dummy-file")
    }

    @Test func aRowsColumnsAndContextStillOverride() throws {
        let table = Self.table.replacingOccurrences(of: "| id | channel | target | outcome | rule |\n|---|---|---|---|---|", with: "| id | policy | whitelist | context | channel | target | outcome | rule |\n|---|---|---|---|---|---|---|---|")
            .replacingOccurrences(of: "|---|---|---|---|---|", with: "|---|---|---|---|---|---|---|---|")
                .replacingOccurrences(of: "| listed | quick-look |", with: "| listed | - | - | - | quick-look |")
            .replacingOccurrences(of: "| unlisted | quick-look | com.example.other | substitute-dummy-file | document.unlisted-target |",
                                  with: "| unlisted | authorized | com.example.other | not-enforcing | quick-look | com.example.other | allow | not-enforcing.allow |")
        let cases = try load(table)
        #expect(cases.map(DecisionTables.run).allSatisfy { $0.passed }, "\(cases.map(DecisionTables.run).compactMap(\.failureMessage))")
        guard case .valid(let policy, _) = cases[1].inputs else { Issue.record("row 2 is invalid"); return }
        #expect(policy.status == .authorized)
        #expect(policy.whitelist == (try Whitelist(parsing: ["com.example.other"])))
        #expect(policy.enforcing == false)
        #expect(policy.device.handler(forScheme: "box") == (try BundleID("net.box.BoxNet")), "what the row does not override comes from the file")
        guard case .valid(let first, _) = cases[0].inputs else { Issue.record("row 1 is invalid"); return }
        #expect(first.whitelist == (try Whitelist(parsing: ["com.example.viewer"])), "'-' keeps the file's whitelist")
    }

    @Test func anAppConnectPlistCanBeNamed() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>policy</key><dict><key>openin</key><string>whitelist</string>
            <key>openinwhitelist</key><string>com.example.viewer</string></dict></dict></plist>
            """
        let table = Self.table.replacingOccurrences(of: "(../policies/ours.json)", with: "(<../policies/App Connect.plist>)")
        let root = try Self.folder(["tables/mine.md": table, "policies/App Connect.plist": plist])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let results = try DecisionTables.load(paths: [root + "/tables/mine.md"]).map(DecisionTables.run)
        #expect(results.count == 2 && results.allSatisfy { $0.passed })
        let escaped = Self.table.replacingOccurrences(of: "(../policies/ours.json)", with: "(../policies/App%20Connect.plist)")
        let root2 = try Self.folder(["tables/mine.md": escaped, "policies/App Connect.plist": plist])
        defer { try? FileManager.default.removeItem(atPath: root2) }
        #expect(try DecisionTables.load(paths: [root2 + "/tables"]).map(DecisionTables.run).allSatisfy { $0.passed })
    }

    @Test("a 1 MB link path (Policy: or Fleet:) gives an error line quoting a short prefix", arguments: ["Policy: [ours](", "Fleet: [ours]("])
    func aHugeLinkPathIsQuotedShort(_ opening: String) throws {
        let long = String(repeating: "p", count: 1_000_000)
        let line = opening + "../" + long + ".json)" + (opening.hasPrefix("Fleet") ? ", device d" : "")
        var table = Self.table.replacingOccurrences(of: "Policy: [our policy](../policies/ours.json)", with: line)
        if opening.hasPrefix("Fleet") {
            table = table.replacingOccurrences(of: "| id | channel | target | outcome | rule |", with: "| id | from | channel | target | outcome | to | sender rule | receiver rule |")
                .replacingOccurrences(of: "|---|---|---|---|---|", with: "|---|---|---|---|---|---|---|---|")
                .replacingOccurrences(of: "| listed | quick-look | com.example.viewer | allow | document.listed-target |", with: "| listed | com.a | quick-look | com.b | allow | com.b | document.listed-target | - |")
                .replacingOccurrences(of: "| unlisted | quick-look | com.example.other | substitute-dummy-file | document.unlisted-target |", with: "| unlisted | com.a | quick-look | com.c | allow | com.c | document.listed-target | - |")
        }
        let error = try #require(loadError(table))
        #expect(error.line == 3)
        #expect(error.description.utf8.count < 1_000, "\(error.description.utf8.count) bytes")
        #expect(error.description.contains("more bytes]"), "\(error.description.prefix(300))")
        #expect(!error.description.contains("\n"))
    }

    @Test("a number in quotes is refused in a table's policy cell and context, saying to write it without quotes", arguments: [
        ("\"1\"", "-"), ("'2'", "-"), ("whitelist", "pasteboard=\"1\""), ("whitelist", "print=\"0\""), ("whitelist", "open-from=\u{201C}2\u{201D}"),
    ])
    func aQuotedNumberInATableIsRefused(_ policy: String, _ context: String) throws {
        let text = """
            | id | policy | context | channel | target | outcome | rule |
            |---|---|---|---|---|---|---|
            | quoted | \(policy) | \(context) | quick-look | com.example.viewer | allow | document.listed-target |
            """
        let result = try #require(try DecisionTables.parse(text, file: "t.md").map(DecisionTables.run).first)
        #expect(!result.passed)
        let message = try #require(result.failureMessage)
        #expect(message.contains("t.md:3"), "\(message)")
        #expect(message.contains("a number in quotes is not a policy value: write"), "\(message)")
        #expect(message.contains("without quotes"), "\(message)")
    }

    @Test func aMissingFileIsAnErrorAtThePolicyLine() throws {
        let error = try #require(loadError(Self.table, policy: nil))
        #expect(error.line == 3)
        #expect(error.file?.hasSuffix("/tables/mine.md") == true)
        #expect(error.message.hasPrefix("the policy '../policies/ours.json' this line names cannot be used: "))
        #expect(error.message.hasSuffix("policies/ours.json: cannot read the policy file: no such file or directory"))
    }

    @Test func aConfigKeyThatOnlyLooksLikeThePolicysIsAnErrorNeverAnOverride() throws {
        // The policy sets MI_AC_DISABLE_SCHEME_BLOCKING to "false"; a row's KELVIN SIGN look-alike once
        // replaced that value in a Swift dictionary (canonical equivalence), so the row decided allow.
        let policy = #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"], "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "false"}}"#
        let table = """
            # Mine

            Policy: [our policy](../policies/ours.json)

            | id | context | channel | url | outcome | rule |
            |---|---|---|---|---|---|
            | exact | config:MI_AC_DISABLE_SCHEME_BLOCKING=true | open-url | mailto:a@example.com | allow | mailto.scheme-blocking-disabled |
            | look-alike | config:MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING=true | open-url | mailto:a@example.com | deny | mailto.blocked |

            """
        let error = try #require(loadError(table, policy: policy))
        #expect(error.line == 8)
        #expect(error.message.contains("U+212A KELVIN SIGN"))
        #expect(error.message.contains("canonically equivalent"))
        let exactOnly = table.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("look-alike") }.joined(separator: "\n")
        #expect(try load(exactOnly, policy: policy).map(DecisionTables.run).allSatisfy(\.passed))
    }

    @Test func aNamedPipeIsAnErrorAtThePolicyLineNotAWaitForAWriter() throws {
        // Opening a FIFO with no writer blocks forever: the link is refused before it is opened.
        let root = try Self.folder(["tables/mine.md": Self.table])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/policies", withIntermediateDirectories: true)
        #expect(mkfifo(root + "/policies/ours.json", 0o600) == 0)
        let result = Result { try DecisionTables.load(paths: [root + "/tables"]) }
        guard case .failure(let failure) = result, let error = failure as? TableError else {
            Issue.record("a table whose Policy link names a FIFO loaded, or failed without a TableError")
            return
        }
        #expect(error.line == 3)
        #expect(error.message.hasSuffix("policies/ours.json: it is a named pipe (FIFO), which a table link does not wait on; name a regular file"))
    }

    @Test func anInvalidPolicyIsAnErrorAtThePolicyLineNamingItsOwnLine() throws {
        let error = try #require(loadError(Self.table, policy: "{\n  \"openInPolicy\": \"sometimes\"\n}\n"))
        #expect(error.line == 3)
        #expect(error.message.contains("policies/ours.json:2:"))
        #expect(error.message.contains("sometimes"))
    }

    @Test(arguments: [
        ("Policy: ../policies/ours.json", "is not a link"),
        ("Policy: [ours]()", "links to nothing"),
        ("Policy: [ours](https://example.com/p.json)", "not a file"),
        ("Policy: [ours](../policies/our policy.json)", "has no spaces"),
        ("Policy: [ours](../policies/ours%2.json)", "two hex digits"),
    ])
    func aMalformedPolicyLineIsAnError(line: String, message: String) throws {
        let error = try #require(loadError(Self.table.replacingOccurrences(of: "Policy: [our policy](../policies/ours.json)", with: line)))
        #expect(error.line == 3)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func aPolicyLineWithNoTableAfterItInItsSectionIsAnError() throws {
        let table = Self.table.replacingOccurrences(of: "\n| id |", with: "\n## Another section\n\n| id | policy |")
            .replacingOccurrences(of: "|---|---|---|---|---|", with: "|---|---|---|---|---|---|")
            .replacingOccurrences(of: "| listed |", with: "| listed | whitelist |")
            .replacingOccurrences(of: "| unlisted |", with: "| unlisted | whitelist |")
        let error = try #require(loadError(table))
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("this 'Policy:' line names what the decision tables below it run against, but no decision table follows it"))
    }

    @Test func twoPolicyLinesBeforeOneTableAreAnError() throws {
        let table = Self.table.replacingOccurrences(of: "Policy: [our policy](../policies/ours.json)\n", with: "Policy: [our policy](../policies/ours.json)\nPolicy: [again](../policies/ours.json)\n")
        let error = try #require(loadError(table))
        #expect(error.line == 4)
        #expect(error.message.hasPrefix("a second 'Policy:' line before any table: line 3 already"))
    }

    @Test func withoutAPolicyLineThePolicyColumnIsStillRequired() throws {
        let error = try #require(loadError(Self.table.replacingOccurrences(of: "Policy: [our policy](../policies/ours.json)\n", with: "")))
        #expect(error.message == "a decision table needs a 'policy' column, or a line 'Policy: [title](path/to/policy.json)' above it in its section")
    }

    @Test func aPolicyLineInACodeBlockIsProse() throws {
        let text = "```\nPolicy: [x](nowhere.json)\n```\n\n| id | policy | channel | outcome |\n|---|---|---|---|\n| a | authorized | print | error |\n"
        #expect(try DecisionTables.parse(text, file: "t.md").count == 1)
    }

    @Test func aRowOnAControlThePolicyDoesNotSetSaysWhichContextSettingSetsIt() throws {
        let text = "| id | policy | channel | outcome |\n|---|---|---|---|\n| a | authorized | copy | allow |\n"
        let result = try #require(try DecisionTables.parse(text, file: "t.md").map(DecisionTables.run).first)
        #expect(result.mismatches.count == 1)
        #expect(result.mismatches[0].hasSuffix("to a JSON policy file (an AppConnect.plist cannot set it), or add pasteboard=… to the row's context"))
        #expect(!result.mismatches[0].contains("--"), "a table user is not told about CLI flags")
    }

    @Test func theExamplesTablesPass() throws {
        let folder = RulesFolder.path.replacingOccurrences(of: "/Rules", with: "/Examples/tables")
        let cases = try DecisionTables.load(paths: [folder])
        #expect(cases.count >= 10)
        let failures = cases.map(DecisionTables.run).compactMap(\.failureMessage)
        #expect(failures.isEmpty, "\(failures)")
    }
}
