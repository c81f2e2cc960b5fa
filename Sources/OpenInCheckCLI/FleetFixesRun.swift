import OpenInPolicy
import OpenInReports

/// `fleet fixes [--from ID|all] [--to ID|outside]`: the changes of one setting that close paths, ranked, and a plan.
struct FleetFixesCommand: FleetSubverb {
    static let name = "fixes"
    static let summary = "What to change: the fixes that close paths, ranked, and a plan."
    static let usage = ["--fleet FILE [--device NAME] [--from ID|all] [--to ID|outside] [--baseline FILE]\n[--format \(formatBar)]"]
    static let details = """
        What to change: every change of one setting in the fleet file (or Intune
        export) that can close a path from an app inside the zone of trust to the
        --to set, each applied to a copy and the paths found again. A fix gives the
        change in one sentence, an RFC 6902 JSON Patch against the file as given,
        the file and line, closes and remaining (paths: one device, from, to), and
        collateral: the flows between apps inside the zone that it also blocks,
        on every channel fleet matrix decides (and those it newly allows). A
        candidate that cannot be made is listed, with why.
        Ranked: most closed, least collateral, fewest apps touched. Then the plan:
        changes chosen greedily, each verified with the earlier ones applied, with
        one patch per file (none when no change closes a path); the paths left and why.
        """
    static let options: [FleetOption] = [.fleet, .device, .from, .to, .format, .devices, .assumeAssigned, .conflicts, .baseline]
    static func formats(_ reporters: ReporterRegistry) -> [String] { FleetFixesOutput.Format.allCases.map(\.rawValue) }

    /// `--from` (`nil`: every app, `all`, the default), `--to`, `--format`, `--baseline`.
    let input: FleetInput, from: String?, to: String?, format: FleetFixesOutput.Format, baselinePath: String?

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options)
        (from, to) = (options.value("--from").flatMap { ExactText.same($0, "all") ? nil : $0 }, options.value("--to"))
        format = try FleetFixesOutput.Format.parse(options, default: .text, verb: "fleet")
        baselinePath = options.value("--baseline")
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let (read, analysis) = try input.load(console)
        // --from and --to checked as fleet paths checks them; a --to the fleet does not know is any other app.
        let checked = try PathsWriter.checked(from: from ?? FleetOutput.everyApp, to: to, names: input.names(analysis), format: .text, console: console)
        let scope = FixScope(device: input.device, from: from, to: checked.targetNode?.description)
        let baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: input.names(analysis).known, onlyTo: checked.targetNode, console: console)
        let report: FleetFixReport
        do throws(FixError) {
            report = try analysis.fixes(bytes: read.bytes, path: read.path, scope: scope, baseline: baseline, today: BaselineRun.today())
        } catch {
            throw .invalidInput(error.message)
        }
        switch format {
        case .json: console.stdout.write(JSONWriter.pretty(report.json) + "\n")
        case .text: console.stdout.write(FleetFixesOutput.text(report))
        case .markdown: console.stdout.write(FleetFixesOutput.markdown(report))
        }
        return report.paths.isEmpty ? .success : .notAllowed
    }
}

extension FleetFixesOutput {
    /// `fleet fixes --format`.
    enum Format: String, OptionChoice { case text, json, markdown }
}
