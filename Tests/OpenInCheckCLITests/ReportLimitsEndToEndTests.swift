import Foundation
@testable import OpenInCheckBench
import OpenInPolicy
import OpenInReports
import Testing

/// Issue 41: the report formats within the limits of where GitHub shows them, at 1,000 generated apps
/// (`openin-check-bench --generate-fleet 1000`, 161,600 paths to outside) and on the examples.
@Suite struct ReportLimitsEndToEndTests {
    /// The benchmark's fleet of 1,000 apps, written once (shared by suites, so removed with `TemporaryFile.directory` at exit).
    static let fleet1000: String = try! TemporaryFile.write(FleetBenchmark.fleet(apps: 1000, seed: 1), name: "openin-limits-fleet1000.json")

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
        let input = try TemporaryFile.write(text, name: "openin-limits.sarif")
        defer { TemporaryFile.remove(input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzip)
        process.arguments = ["-c", "-6", input]
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

/// Issue 41: Markdown for a pull request: what a reviewer acts on first, within a comment's 65,536 characters.
@Suite struct MarkdownLimitsEndToEndTests {
    static let note = ". Every path: the same command with `--format json` or `--format text`, which are never cut.\n"

    /// The rows of the Markdown's tables.
    static func rows(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.hasPrefix("| `") || $0.hasPrefix("| opened") || $0.hasPrefix("| closed") } }

    /// At 1,000 apps (161,600 paths): under 65,536 bytes (so characters), the rows that fit, the device's diagram
    /// in the room they left, then the note that says how many paths were left out and how to get them all.
    @Test func markdownAtAThousandAppsFitsAComment() throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", ReportLimitsEndToEndTests.fleet1000, "--from", "all", "--format", "markdown"])
        #expect(run.status == 2)
        #expect(run.stderr == "")
        #expect(run.stdout.utf8.count <= 65_536 && run.stdout.utf8.count > 50_000)
        let rows = Self.rows(run.stdout).count
        #expect(rows > 100)
        #expect(run.stdout.hasSuffix(Self.note))
        #expect(run.stdout.contains("(`--max-bytes`; a pull-request comment takes 65,536 characters): \(161_600 - rows) of 161600 paths to act on not listed."))
        #expect(run.stdout.contains("```mermaid\nflowchart LR\n"))
        // Whole pieces only: every fence closed, every table row whole.
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("```") }.count == 2)
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("|") }.allSatisfy { $0.hasSuffix("|") })
        let small = try BuiltBinary.run(["fleet", "paths", "--fleet", ReportLimitsEndToEndTests.fleet1000, "--from", "all", "--format", "markdown", "--max-bytes", "20000"])
        #expect(small.stdout.utf8.count <= 20_000 && small.stdout.hasSuffix(Self.note))
    }

    /// With a baseline, the new and expired paths are listed and the accepted ones counted; `--show accepted` lists
    /// them too (the report as it was before the limits).
    @Test func acceptedPathsAreCountedUnlessShown() throws {
        let arguments = ["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all", "--baseline", "Examples/fleet/acme-baseline-expired.json", "--format", "markdown"]
        let run = try BuiltBinary.run(arguments)
        #expect(run.status == 2)
        #expect(!run.stdout.contains("accepted until"))
        #expect(run.stdout.contains("| **expired** on 2026-06-30: SEC-151: the Dropbox pilot |"))
        #expect(Self.rows(run.stdout).count == 16)
        #expect(run.stdout.contains("\n4 accepted paths not listed (`--show accepted` lists them).\n"))
        let shown = try BuiltBinary.run(arguments + ["--show", "accepted"])
        #expect(Self.rows(shown.stdout).count == 20)
        #expect(shown.stdout.components(separatedBy: "| accepted until 2099-12-31: ").count == 5)
        #expect(!shown.stdout.contains("not listed"))
    }

    /// `fleet diff` counts the accepted paths it opens; a report is cut at any `--max-bytes`, after whole rows.
    @Test func diffCountsAcceptedAndReportsAreCut() throws {
        let diff = try BuiltBinary.run(["fleet", "diff", FleetReportEndToEndTests.acme, "Examples/fleet/acme-contractors.json", "--baseline", FleetReportEndToEndTests.baseline, "--format", "markdown"])
        #expect(diff.stdout.contains("\n1 accepted path opened and not listed (`--show accepted` lists them).\n"))
        #expect(!diff.stdout.contains("Cut to stay within"))
        let arguments = ["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all", "--baseline", "Examples/fleet/acme-baseline-expired.json", "--format", "markdown", "--show", "accepted"]
        let whole = try BuiltBinary.run(arguments)
        #expect(whole.stdout.utf8.count > 4096 && !whole.stdout.contains("Cut to stay within"))
        let cut = try BuiltBinary.run(arguments + ["--max-bytes", "4096"])
        #expect(cut.status == whole.status)
        #expect(cut.stdout.utf8.count <= 4096 && cut.stdout.hasSuffix(Self.note))
        let rows = Self.rows(cut.stdout).count
        #expect(rows > 0 && rows < 20)
        #expect(cut.stdout.contains("\(20 - rows) of 20 paths not listed"))
    }

    /// A diff that opens 20,000 paths on one device (3 in 4 new, 1 in 4 accepted): the new ones listed first as many
    /// as fit, under 65,536 bytes, the accepted counted, and the note.
    @Test func diffOfManyOpenedPathsFits() throws {
        var device = DOTSARIFMermaidEscapingTests.report(device: "bench")
        let model = device.paths[0]
        device.paths = (0..<20_000).map { index in
            var path = model
            path.to = .app(DOTSARIFMermaidEscapingTests.bundle("com.acme.out\(index)"))
            path.state = index % 4 == 3 ? .accepted : .new
            return path
        }
        let text = MarkdownReport.report([device], subject: .diff(old: "old.json", new: "new.json"), baseline: nil)
        #expect(text.utf8.count <= 65_536)
        #expect(text.hasSuffix(Self.note))
        let rows = Self.rows(text).count
        #expect(rows > 100)
        #expect(text.contains("\(15_000 - rows) of 15000 paths opened not listed"))
        #expect(text.contains("\n5000 accepted paths opened and not listed"))
        #expect(!text.contains("accepted until"))
    }

    @Test(arguments: [
        (["--max-bytes", "4095", "--format", "markdown"], "'--max-bytes' must be a whole number of bytes, at least 4096, not '4095'"),
        (["--max-bytes", "5000", "--format", "sarif"], "'--max-bytes' cuts Markdown: it does not go with --format sarif"),
        (["--show", "rejected", "--format", "markdown"], "'--show' takes accepted (the accepted paths), not 'rejected'"),
        (["--show", "accepted"], "'--show accepted' lists accepted paths in Markdown: it does not go with --format text, which lists them all"),
    ])
    func optionsAreCheckedAsAUsage(_ extra: [String], _ message: String) throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all"] + extra)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains(message))
    }
}
