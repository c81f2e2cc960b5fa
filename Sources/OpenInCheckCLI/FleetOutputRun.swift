import OpenInPolicy
import OpenInReports

/// `fleet matrix`: senders × receivers, one grid per channel, each cell the end-to-end outcome.
struct FleetMatrixCommand: FleetSubverb {
    static let name = "matrix"
    static let summary = "Senders × receivers, one grid per channel, each cell the end-to-end outcome."
    static let usage = ["--fleet FILE [--device NAME] [--format \(formatBar)]"]
    static let details = """
        Senders (the fleet's apps) × receivers (the fleet's apps, native Mail and any
        other app), one grid per channel that names its receiver, each cell the
        end-to-end outcome;
        then each sender's keyboard line: a third-party keyboard, the system keyboard;
        then each sender's one-sided decisions: copy (its audience), print, and
        for Intune save-as and open-into-org-document at each location.
        """
    static let options: [FleetOption] = [.fleet, .device, .format, .devices, .assumeAssigned, .conflicts]
    static func formats(_ reporters: ReporterRegistry) -> [String] { FleetOutput.FleetMatrixFormat.allCases.map(\.rawValue) }

    let input: FleetInput, format: FleetOutput.FleetMatrixFormat

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options)
        format = try FleetOutput.FleetMatrixFormat.parse(options, default: .text, verb: "fleet")
    }

    /// Each device's matrix (``FleetOutput/print(_:format:to:)``).
    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let devices = try input.devices(try input.load(console).analysis, console)
        do throws(FleetError) {
            try FleetOutput.print(devices, format: format, to: console.stdout)
        } catch {
            throw FleetOutput.fail(error)
        }
        return .success
    }
}

/// `fleet lint`: the fleet's mistakes, in a format of the registry.
struct FleetLintCommand: FleetSubverb {
    static let name = "lint"
    static let summary = "Fleet-level mistakes, each with a code and a fix."
    static let usage = ["--fleet FILE [--format \(formatBar)]"]
    static let details = """
        Fleet-level mistakes, each with a code and a fix. --format sarif: SARIF \(FleetLintSARIF.version)
        for code scanning, every check a rule, every finding a result with the
        fleet file, its line and the finding's key path. A receiver whose Open From
        refuses more than three senders gets one FL003 finding: the first three and
        the count.
        """
    static let options: [FleetOption] = [.fleet, .format, .devices, .assumeAssigned, .conflicts]
    static func formats(_ reporters: ReporterRegistry) -> [String] { reporters.names(for: FleetLintReport.self) }

    let input: FleetInput, reporter: AnyReporter<FleetLintReport>

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options)
        reporter = try reporters.choice(options, for: FleetLintReport.self, default: "text", verb: "fleet")
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let analysis = try input.load(console).analysis
        let lint = analysis.lint()
        let report = FleetLintReport(findings: lint.findings, checks: lint.checks, file: analysis.file ?? "fleet")
        reporter.write(report, to: console.stdout)
        console.keepUntilExit((analysis, report))
        // As `lint`: findings at warning level or above exit 2; 1 is kept for input that cannot be read.
        return report.findings.contains { $0.severity >= .warning } ? .notAllowed : .success
    }
}

extension FleetOutput {
    static func fail(_ error: FleetError) -> CLIError { .invalidInput(error.description) }

    // MARK: paths

    /// The `--from` value that asks for every app: each fleet app installed on the device, in file order.
    static let everyApp = PathsWriter.everyApp

    /// `fleet paths` on a fleet of either vendor (``PathsWriter/write(_:maxHops:)``); `finished` is given the writer after.
    static func paths(_ devices: [AnalyzedDevice], maxHops: Int?, writer: PathsWriter, finished: (PathsWriter) -> Void = { _ in }) throws(CLIError) -> ExitStatus {
        var writer = writer
        let fails: Bool
        do throws(FleetError) { fails = try writer.write(devices, maxHops: maxHops) } catch { throw fail(error) }
        finished(writer)
        return fails ? .notAllowed : .success
    }
}
