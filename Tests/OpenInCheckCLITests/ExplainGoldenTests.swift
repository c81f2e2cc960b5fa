import Foundation
@testable import OpenInCheckCLI
import OpenInReports
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// `--explain` stays byte-identical: every row of `Rules/` and every bundled
/// example policy × request, in the text and JSON formats, compared with a
/// checked-in copy (`Tests/Golden/explain.txt`).
///
/// A change to what `--explain` says is deliberate: regenerate the file with
/// `OPENIN_UPDATE_GOLDEN=1 swift test --filter ExplainGoldenTests` and review
/// the diff.
@Suite struct ExplainGoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let goldenPath = root.appendingPathComponent("Tests/Golden/explain.txt").path

    /// One decision explained in every format: the block, the stream line, and the JSON record.
    static func render(_ title: String, _ inputs: PolicyInputs, _ request: ShareRequest) -> String {
        let decision = Evaluator(policy: inputs.policy).decide(request)
        let explanation = Explanation(decision, request: request, policyInputs: inputs)
        let record = JSONObject(members: DecisionRecord.json(decision, id: nil).members + [JSONObject.Member("explanation", explanation.json)])
        return "## \(title)\n"
            + DecisionText.block(decision, request: request, explanation: explanation, inputs: PolicyOptions.withFlags)
            + DecisionText.line(1, decision, request: request, id: nil, explanation: explanation, inputs: PolicyOptions.withFlags)
            + JSONWriter.compact(.object(record)) + "\n"
    }

    /// A table row's policy as the inputs a policy file would give.
    static func inputs(of tableCase: TableCase, _ policy: Policy) throws -> PolicyInputs {
        let setting = try PolicySetting(parsing: tableCase.cells["policy"] ?? "")
        var stated = policy
        if setting == .allAppConnectApps { stated.whitelist = .empty }
        return PolicyInputs(setting: setting, stated: stated)
    }

    static func output() throws -> String {
        var text = ""
        let rules = root.appendingPathComponent("Rules").path
        for tableCase in try DecisionTables.load(paths: [rules]) {
            guard case .valid(let policy, let request) = tableCase.inputs else { continue }
            let title = tableCase.file.replacingOccurrences(of: root.path + "/", with: "") + ": " + tableCase.id
            text += render(title, try inputs(of: tableCase, policy), request)
        }
        let policies = root.appendingPathComponent("Examples/policies")
        let names = try FileManager.default.contentsOfDirectory(atPath: policies.path).filter { $0.hasSuffix(".json") }.sorted()
        let requestLines = try String(contentsOf: root.appendingPathComponent("Examples/requests.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        for name in names {
            let inputs = try PolicyOptions(policyPath: policies.appendingPathComponent(name).path).load()
            for (index, line) in requestLines.enumerated() {
                guard let parsed = try? RequestLine.read(Array(line.utf8), reader: JSONReader()) else { continue }
                text += render("Examples/policies/\(name) × Examples/requests.jsonl:\(index + 1)", inputs, parsed.request)
            }
        }
        return text
    }

    @Test func explainOutputIsUnchanged() throws {
        let actual = try Self.output()
        if ProcessInfo.processInfo.environment["OPENIN_UPDATE_GOLDEN"] == "1" {
            // Rewriting compares nothing: never in CI.
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "OPENIN_UPDATE_GOLDEN=1 under CI=true: the golden file is rewritten, not compared")
            try FileManager.default.createDirectory(atPath: (Self.goldenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try actual.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let index = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actualLines.count, expectedLines.count)
        let heading = actualLines[..<min(index + 1, actualLines.count)].last { $0.hasPrefix("## ") } ?? ""
        Issue.record("""
            --explain output differs from Tests/Golden/explain.txt at line \(index + 1) (\(heading)):
              expected: \(index < expectedLines.count ? String(expectedLines[index]) : "<end>")
              actual:   \(index < actualLines.count ? String(actualLines[index]) : "<end>")
            """)
    }
}
