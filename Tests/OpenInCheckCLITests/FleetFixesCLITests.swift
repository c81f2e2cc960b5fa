import Foundation
import Testing

@testable import OpenInCheckCLI
import OpenInReports
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// `fleet fixes` and `fleet report` end to end: baselines, the typo gate, and each fix's JSON Patch
/// applied to the very file given, then `fleet paths` run on the patched file.
@Suite struct FleetFixesCLITests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The paths `fleet paths --from all --to outside --format json` prints, as (device, from, to).
    static func paths(_ arguments: [String]) throws -> Set<String> {
        let run = try BuiltBinary.run(["fleet", "paths", "--from", "all", "--to", "outside", "--format", "json"] + arguments)
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        var result: [(device: String, from: String, to: String)] = []
        let records = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        for record in records {
            guard let device = record["device"] as? String, let from = record["from"] as? String else { continue }
            for path in record["paths"] as? [[String: Any]] ?? [] where path["outside"] as? Bool == true {
                result.append((device, from, path["to"] as? String ?? ""))
            }
        }
        // Fixes count the paths from apps inside the zone of trust: a source some path reaches outside is not one.
        let outside = Set(result.map { "\($0.device) \($0.to)" })
        return Set(result.filter { !outside.contains("\($0.device) \($0.from)") }.map { "\($0.device) \($0.from) \($0.to)" })
    }

    @Test("--baseline: accepted paths are not paths to close (exit 0); an expired acceptance is (exit 2), in fixes and in the report")
    func baseline() throws {
        let scope = ["--fleet", "Examples/fleet/acme.json", "--device", "employee-iphone", "--from", "com.acme.hr"]
        let accepted = try BuiltBinary.run(["fleet", "fixes"] + scope + ["--baseline", "Examples/fleet/acme-baseline.json"])
        #expect(accepted.status == 0 && accepted.stdout == "no path to close\n", "\(accepted.stdout)\(accepted.stderr)")
        let expired = try BuiltBinary.run(["fleet", "fixes"] + scope + ["--baseline", "Examples/fleet/acme-baseline-expired.json", "--format", "json"])
        #expect(expired.status == 2, "\(expired.stderr)")
        let report = try Self.json(expired.stdout)
        #expect(report["paths"] as? Int == 1)
        let plan = try #require(report["plan"] as? [String: Any])
        #expect(plan["remaining"] as? Int == 0)
        for fix in report["fixes"] as? [[String: Any]] ?? [] {
            let closed = fix["closed"] as? [[String: Any]] ?? []
            #expect(closed.map { $0["to"] as? String } == ["com.getdropbox.Dropbox"], "only the expired path counts: \(closed)")
        }
        let without = try BuiltBinary.run(["fleet", "fixes"] + scope + ["--format", "json"])
        #expect(try Self.json(without.stdout)["paths"] as? Int == 5)
        let page = try BuiltBinary.run(["fleet", "report", "--fleet", "Examples/fleet/acme.json", "--baseline", "Examples/fleet/acme-baseline-expired.json"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("<th>Baseline</th>") && page.stdout.contains("EXPIRED on 2026-06-30") && page.stdout.contains("accepted until 2099-12-31"))
    }

    @Test("--from and --to go through the typo gate: a near miss is invalid input with Did you mean")
    func typoGate() throws {
        let from = try BuiltBinary.run(["fleet", "fixes", "--fleet", "Examples/fleet/acme.json", "--from", "com.acme.hrr"])
        #expect(from.status == 1 && from.stderr.contains("Did you mean"), "\(from.stderr)")
        let to = try BuiltBinary.run(["fleet", "fixes", "--fleet", "Examples/fleet/acme.json", "--to", "com.getdropbox.Dropbx"])
        #expect(to.status == 1 && to.stderr.contains("Did you mean"), "\(to.stderr)")
        let usage = try BuiltBinary.run(["fleet", "report", "--fleet", "Examples/fleet/acme.json", "--from", "com.acme.hr"])
        #expect(usage.status == 64)
    }

    @Test("each printed fix's patch, applied to the file given (a fleet file, an Intune export object), makes fleet paths print what the fix claims",
          arguments: [(["--fleet", "Examples/fleet/acme.json"], "acme.json"),
                      (["--fleet", "Examples/intune/acme-app-protection-loosened.json", "--devices", "Examples/intune/devices.json"], "intune.json"),
                      // Microsoft's template targets an app group its export does not list: each changed copy is resolved as the fleet was
                      // (it once said "no path to close", exit 0, while fleet paths found 20), and the fix names the one scheme.
                      (["--fleet", "Examples/intune/framework/level-3-enterprise-high-data-protection-iOS.json", "--devices", "Examples/intune/framework-devices.json"],
                       "level-3.json")])
    func patchesCloseWhatTheyClaim(arguments: [String], name: String) throws {
        let run = try BuiltBinary.run(["fleet", "fixes", "--format", "json"] + arguments)
        #expect(run.status == 2, "\(run.stderr)")
        let report = try Self.json(run.stdout)
        let before = try Self.paths(arguments)
        #expect(report["paths"] as? Int == before.count)
        let file = arguments[1]
        let original = try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-fixes-cli-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let patchedFile = directory.appendingPathComponent(name).path
        func pathsAfter(_ patch: Any) throws -> Set<String> {
            let operations = try (patch as? [Any] ?? []).map { element in
                try JSONPatchOperation(json: try JSONReader().read(Array(try JSONSerialization.data(withJSONObject: element))))
            }
            try Data(JSONWriter.pretty(try JSONPatch.apply(operations, to: original)).utf8).write(to: URL(fileURLWithPath: patchedFile))
            var patchedArguments = arguments
            patchedArguments[1] = patchedFile
            return try Self.paths(patchedArguments)
        }
        let fixes = report["fixes"] as? [[String: Any]] ?? []
        #expect(!fixes.isEmpty)
        if name == "level-3.json" {
            #expect(fixes.first?["change"] as? String == "Remove the exempted scheme \"skype\" from exemptedAppProtocols of policy \"iOS/iPadOS Enterprise High Data Protection v1.5\" (the exemption \"Default\").")
        }
        for fix in fixes {
            #expect(fix["file"] as? String == file)
            let after = try pathsAfter(fix["patch"] as Any)
            #expect(fix["remaining"] as? Int == after.count, "\(name): \(fix["change"] ?? "")")
            #expect(fix["closes"] as? Int == before.subtracting(after).count, "\(name): \(fix["change"] ?? "")")
            #expect(after.isSubset(of: before), "\(name): \(fix["change"] ?? "") opens a path")
        }
        let plan = try #require(report["plan"] as? [String: Any])
        #expect(try pathsAfter(plan["patch"] as Any).count == plan["remaining"] as? Int, "\(name): the plan")
    }
}

/// The report's fixes section under a verification budget: what it did not verify is on the page.
@Suite struct FleetReportBudgetTests {
    @Test("a budget that leaves candidates unverified says so on the page, with their bound, and the data carries the counts")
    func budgetIsStated() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let text = try String(contentsOfFile: root + "/Examples/fleet/acme.json", encoding: .utf8)
        let subject = try AppConnectFixSubject(document: try FixDocuments.read(Array(text.utf8), file: "acme.json"), scope: FixScope())
        let report = try FleetFixes.run(subject, budget: 1)
        let budget = try #require(report.budget)
        #expect(budget.unverified > 0)
        let page = FleetReportOutput.fixes(report)
        #expect(page.contains("Not verified: \(budget.unverified) more candidate changes"))
        // The bound is stated against the paths, and only where it bounds something (a bound of every path says nothing).
        if budget.unverifiedBound < report.paths.count {
            #expect(page.contains("none of the others can close more than \(budget.unverifiedBound) of the \(report.paths.count) paths"))
        } else {
            #expect(page.contains("no bound below all \(report.paths.count) paths is known for the others: any of them might close some"))
        }
        #expect(!page.contains("close more than \(report.paths.count) "), "a bound of every path bounds nothing")
        #expect(report.fixes.count <= 1)
        let data = JSONWriter.compact(report.json(listing: 300))
        #expect(data.contains("\"unverified\":\(budget.unverified)") || data.contains("\"unverified\": \(budget.unverified)"))
        // Without a budget, nothing is said about one.
        #expect(!FleetReportOutput.fixes(try FleetFixes.run(subject)).contains("Not verified"))
    }
}
