import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Where the repository's `Rules/` folder is, found from this file's path.
enum RulesFolder {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Rules").path
    }()

    /// Every row of every table in `Rules/`, or only the file named by `OPENIN_RULES_FILE`.
    static let cases: [TableCase] = {
        var paths = [path]
        if let only = ProcessInfo.processInfo.environment["OPENIN_RULES_FILE"], !only.isEmpty {
            paths = [only.hasPrefix("/") ? only : path + "/" + only]
        }
        return (try? DecisionTables.load(paths: paths)) ?? []
    }()
}

extension TableCase: CustomTestStringConvertible {
    public var testDescription: String {
        "\(file.replacingOccurrences(of: RulesFolder.path + "/", with: "")): \(id)"
    }
}

@Suite("Rules/ decision tables")
struct RulesTablesTests {
    @Test("every table in Rules/ parses")
    func tablesParse() throws {
        let cases = try DecisionTables.load(paths: [RulesFolder.path])
        #expect(!cases.isEmpty)
    }

    @Test("row", arguments: RulesFolder.cases)
    func row(_ tableCase: TableCase) {
        let result = DecisionTables.run(tableCase)
        #expect(result.passed, "\(result.failureMessage ?? "")")
    }

    @Test("every rule id has a row, and every row names a rule that exists")
    func coverage() throws {
        let cases = try DecisionTables.load(paths: [RulesFolder.path])
        let covered = Set(cases.compactMap { $0.expected.rule?.rawValue })
        let missing = (RuleInfo.all + RuleInfo.intune).map(\.id.rawValue).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a row in Rules/: \(missing)")
        for tableCase in cases {
            if let rule = tableCase.cells["rule"], rule != "-" {
                #expect(RuleID(parsing: rule) != nil, "\(tableCase.location) names unknown rule \(rule)")
            }
        }
    }

    @Test("the tables hold at least 100 rows, and all pass")
    func enoughRowsAllPassing() throws {
        let cases = try DecisionTables.load(paths: [RulesFolder.path])
        #expect(cases.count >= 100)
        let failures = cases.map(DecisionTables.run).compactMap(\.failureMessage)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

@Suite("Rules/README.md")
struct RulesReadmeTests {
    @Test("lists every rule id, in order, with its step and summary")
    func listsEveryRule() throws {
        let text = try String(contentsOfFile: RulesFolder.path + "/README.md", encoding: .utf8)
        let listed = text.split(separator: "\n").compactMap { line -> (Int, String, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[2].hasPrefix("`"), let step = Int(cells[1]) else { return nil }
            return (step, cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[3].replacingOccurrences(of: "\\|", with: "|"))
        }
        #expect(listed.map(\.1) == RuleInfo.all.map(\.id.rawValue))
        #expect(listed.map(\.0) == RuleInfo.all.map(\.step))
        #expect(listed.map(\.2) == RuleInfo.all.map(\.summary))
    }

    @Test("Rules/intune/README.md lists every Intune rule id, in order, with its step and summary")
    func listsEveryIntuneRule() throws {
        let text = try String(contentsOfFile: RulesFolder.path + "/intune/README.md", encoding: .utf8)
        let listed = text.split(separator: "\n").compactMap { line -> (Int, String, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[2].hasPrefix("`"), let step = Int(cells[1]) else { return nil }
            return (step, cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[3])
        }
        #expect(!listed.isEmpty)
        #expect(listed.map(\.1) == RuleInfo.intune.map(\.id.rawValue))
        #expect(listed.map(\.0) == RuleInfo.intune.map(\.step))
        #expect(listed.map(\.2) == RuleInfo.intune.map(\.summary))
    }
}
