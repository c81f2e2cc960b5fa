import OpenInPolicy
import OpenInReports

/// `fleet report`: one self-contained HTML page of the fleet, for an auditor.
struct FleetReportCommand: FleetSubverb {
    static let name = "report"
    static let summary = "One self-contained HTML page for an auditor to open offline."
    static let usage = ["--fleet FILE [--baseline FILE] [--title TEXT] > report.html"]
    static let details = """
        One self-contained HTML page on stdout for an auditor to open offline: per
        device the zone of trust, counts, the leak graph (inline SVG), the paths with
        their hops; the fixes and plan; the channel matrix; lint findings; the data
        as JSON in <script type="application/json" id="openin-check-data">. Nothing
        is loaded from anywhere; every name from the input is escaped; long lists
        are capped with what was left out. The fixes: at most 1,000 candidates
        verified, those that can close the most paths first; the page says how many
        it left unverified (fleet fixes verifies every one).
        """
    static let options: [FleetOption] = [.fleet, .devices, .assumeAssigned, .conflicts, .baseline, .title]

    let input: FleetInput, baselinePath: String?, title: String?

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options)
        (baselinePath, title) = (options.value("--baseline"), options.value("--title"))
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let (read, analysis) = try input.load(console)
        let baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: input.names(analysis).known, onlyTo: nil, console: console)
        do throws(FleetReportOutput.Failure) {
            console.stdout.write(try FleetReportOutput.page(analysis, bytes: read.bytes, path: read.path, baseline: baseline, today: BaselineRun.today(), title: title))
        } catch {
            switch error {
            case .fleet(let error): throw FleetOutput.fail(error)
            case .fixes(let error): throw .invalidInput(error.message)
            }
        }
        return .success
    }
}
