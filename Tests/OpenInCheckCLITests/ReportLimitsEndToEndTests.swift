import Foundation
@testable import OpenInCheckBench
import Testing

/// Issue 41: the report formats within the limits of where GitHub shows them, at 1,000 generated apps
/// (`openin-check-bench --generate-fleet 1000`, 161,600 paths to outside) and on the examples.
@Suite struct ReportLimitsEndToEndTests {
    /// The benchmark's fleet of 1,000 apps, written once.
    static let fleet1000: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openin-limits-\(UUID().uuidString)-fleet1000.json")
        try! FleetBenchmark.fleet(apps: 1000, seed: 1).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }()

    /// The run's `properties`, its notifications' texts and its results.
    static func run(_ log: [String: Any]) throws -> (properties: [String: Any]?, notes: [String], results: [[String: Any]]) {
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let notes = ((run["invocations"] as? [[String: Any]]) ?? []).flatMap { ($0["toolExecutionNotifications"] as? [[String: Any]]) ?? [] }
            .compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        return (run["properties"] as? [String: Any], notes, try #require(run["results"] as? [[String: Any]]))
    }

    /// gzip's size of `text`, when a `gzip` is at hand.
    static func gzipped(_ text: String) throws -> Int? {
        guard let gzip = ["/usr/bin/gzip", "/bin/gzip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("openin-limits-\(UUID().uuidString).sarif")
        try text.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzip)
        process.arguments = ["-c", "-6", input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.count
    }

    /// SARIF at 1,000 apps: at most 25,000 results and within the byte bound (so under 10 MB gzipped), valid as the
    /// other SARIF tests check it; what was left out counted in the run's properties and a notification.
    @Test func sarifAtAThousandAppsFitsCodeScanning() throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet1000, "--from", "all", "--format", "sarif"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        #expect(run.stdout.utf8.count <= 9_500_000)
        if let size = try Self.gzipped(run.stdout) { #expect(size <= 10_000_000) }
        let results = try FleetReportEndToEndTests.checkSARIF(run.stdout)
        #expect(results.count <= 25_000 && results.count > 1_000)
        let log = try #require(try DOTSARIFMermaidEscapingTests.checkSARIF(run.stdout) as? [String: Any])
        let (properties, notes, _) = try Self.run(log)
        #expect(properties?["resultsOffered"] as? Int == 161_600)
        #expect(properties?["resultsOmitted"] as? Int == 161_600 - results.count)
        #expect(notes.count == 1 && notes.first?.contains("--format json or text, which are never cut") == true)
        // The results kept are the first offered: those of the first managed app (app00000 is outside) lead.
        #expect(((results.first?["message"] as? [String: Any])?["text"] as? String)?.contains("documents from com.bench.app00001 reach") == true)
    }

    /// `--max-results`: the most severe kept (the expired path before the accepted ones), in the order offered, the
    /// rest counted by state; without a cut, no properties or notification.
    @Test func maxResultsKeepsTheMostSevere() throws {
        let arguments = ["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "com.acme.hr", "--baseline", "Examples/fleet/acme-baseline-expired.json", "--format", "sarif"]
        let whole = try BuiltBinary.run(arguments)
        let all = try FleetReportEndToEndTests.checkSARIF(whole.stdout, resultCount: 5)
        #expect(try Self.run(try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])).properties == nil)
        #expect(try BuiltBinary.run(arguments + ["--max-results", "5"]).stdout == whole.stdout)
        let one = try BuiltBinary.run(arguments + ["--max-results", "1"])
        #expect(one.status == 2)
        let kept = try FleetReportEndToEndTests.checkSARIF(one.stdout, resultCount: 1)
        #expect(kept.first?["suppressions"] == nil)
        #expect(((kept.first?["message"] as? [String: Any])?["text"] as? String)?.contains("The acceptance expired") == true)
        let (properties, notes, _) = try Self.run(try #require(try DOTSARIFMermaidEscapingTests.checkSARIF(one.stdout) as? [String: Any]))
        #expect(properties?["resultsOmitted"] as? Int == 4)
        #expect((properties?["resultsOmittedByState"] as? [String: Any])?["accepted"] as? Int == 4)
        #expect(notes.first?.hasPrefix("4 of 5 results left out (4 accepted;") == true)
        // Three: the expired one and the first two accepted ones, in the order the whole log has them.
        let three = try FleetReportEndToEndTests.checkSARIF(try BuiltBinary.run(arguments + ["--max-results", "3"]).stdout, resultCount: 3)
        let prints = { (results: [[String: Any]]) in results.map { ($0["partialFingerprints"] as? [String: String])?["leakPath/v1"] ?? "" } }
        let expired = prints(all.filter { $0["suppressions"] == nil })
        let accepted = prints(all.filter { $0["suppressions"] != nil })
        #expect(Set(prints(three)) == Set(expired + accepted.prefix(2)))
        #expect(prints(three) == prints(all).filter { Set(prints(three)).contains($0) })
    }

    /// `fleet diff --format sarif` takes `--max-results` too.
    @Test func diffTakesMaxResults() throws {
        let arguments = ["fleet", "diff", FleetReportEndToEndTests.acme, "Examples/fleet/acme-contractors.json", "--format", "sarif"]
        let whole = try FleetReportEndToEndTests.checkSARIF(try BuiltBinary.run(arguments).stdout)
        #expect(whole.count > 1)
        let cut = try BuiltBinary.run(arguments + ["--max-results", "1"])
        #expect(cut.status == 2)
        _ = try FleetReportEndToEndTests.checkSARIF(cut.stdout, resultCount: 1)
        #expect(cut.stdout.contains("\"resultsOmitted\": \(whole.count - 1)"))
    }

    @Test(arguments: [
        (["--max-results", "0", "--format", "sarif"], "'--max-results' must be a whole number of results, at least 1, not '0'"),
        (["--max-results", "ten", "--format", "sarif"], "'--max-results' must be a whole number of results, at least 1, not 'ten'"),
        (["--max-results", "5", "--format", "json"], "'--max-results' cuts SARIF: it does not go with --format json"),
    ])
    func maxResultsIsCheckedAsAUsage(_ extra: [String], _ message: String) throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all"] + extra)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains(message))
    }
}
