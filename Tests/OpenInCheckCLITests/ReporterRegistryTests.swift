import Foundation
@testable import OpenInCheckCLI
import OpenInPolicy
import OpenInReports
import Testing

/// A new output format is one reporter and one registration: `--format csv` works in process without a change to the CLI.
@Suite struct ReporterRegistryTests {
    /// A format the CLI does not know: one line per finding, `code,severity,line`.
    struct CSVFleetLint: Reporter {
        let name = "csv"
        func write(_ report: FleetLintReport, to sink: any ReportSink) {
            sink.write("code,severity,line\n")
            for finding in report.findings { sink.write("\(finding.code),\(finding.severity.rawValue),\(finding.line.map(String.init) ?? "")\n") }
        }
    }

    static let fleet = BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/lint-mistakes.json").path

    static func run(_ arguments: [String], reporters: ReporterRegistry) -> (status: OpenInCheckCLI.ExitStatus, stdout: String, stderr: String) {
        let console = Console.memory()
        let status = CLI.run(arguments: arguments, console: console, reporters: reporters)
        return (status, console.stdout.text, console.stderr.text)
    }

    @Test("a reporter registered in a test is chosen by --format and writes the findings json gives")
    func csvFleetLint() throws {
        var reporters = ReporterRegistry.standard
        reporters.register(CSVFleetLint())
        #expect(reporters.names(for: FleetLintReport.self) == ["text", "json", "markdown", "github", "sarif", "csv"])
        let csv = Self.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "csv"], reporters: reporters)
        let json = Self.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "json"], reporters: reporters)
        #expect(csv.status == .notAllowed && json.status == .notAllowed)
        #expect(csv.stderr.isEmpty)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(record["findings"] as? [[String: Any]])
        #expect(findings.count > 2)
        let expected = "code,severity,line\n" + findings.map { "\($0["code"]!),\($0["severity"]!),\(($0["line"] as? Int).map(String.init) ?? "")\n" }.joined()
        #expect(csv.stdout == expected)
    }

    @Test("without the registration, csv is an unknown format worded from the registry")
    func unknownWithoutRegistration() {
        let result = Self.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "csv"], reporters: .standard)
        #expect(result.status == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: unknown format 'csv': use text, json, markdown, github or sarif.\n"))
        var reporters = ReporterRegistry.standard
        reporters.register(CSVFleetLint())
        let listed = Self.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "cvs"], reporters: reporters)
        #expect(listed.stderr.hasPrefix("Error: unknown format 'cvs': use text, json, markdown, github, sarif or csv. Did you mean 'csv'?\n"))
    }

    @Test("registering a format of the same name replaces it in place")
    func replaceInPlace() {
        struct Quiet: Reporter {
            let name = "json"
            func write(_ report: FleetLintReport, to sink: any ReportSink) { sink.write("{}\n") }
        }
        var reporters = ReporterRegistry.standard
        reporters.register(Quiet())
        #expect(reporters.names(for: FleetLintReport.self) == ["text", "json", "markdown", "github", "sarif"])
        let buffer = ReportBuffer()
        reporters.reporter(named: "json", for: FleetLintReport.self)?.write(FleetLintReport(findings: [], checks: [], file: "f"), to: buffer)
        #expect(buffer.text == "{}\n")
    }
}
