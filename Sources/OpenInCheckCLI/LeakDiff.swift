import OpenInPolicy
import OpenInReports

/// `fleet diff OLD NEW`: what opens or closes between two fleet files, either vendor on each side.
struct FleetDiffCommand: FleetSubverb {
    static let name = "diff"
    static let summary = "The flows, leak paths and controls that open or close between two fleet files."
    static let usage = [
        "OLD NEW [--device NAME] [--baseline FILE] [--format \(formatBar)]\n[--max-results N] [--max-bytes N] [--show accepted]",
        "OLD NEW --devices FILE [--rows]   (Intune on either side)",
    ]
    static let details = """
        End-to-end flows (keyboards included), leak paths, and each installed app's
        print and copy (control) that open or close between two fleet files, per
        device. With Intune app protection policies (Graph JSON, with
        --devices) on either side: every flow (sender × receiver × channel, per
        device) that decides differently, grouped by what the receiving app can
        read: newly readable (a leak), no longer readable, and changed form (as
        readable as before: deny ↔ dummy file ↔ encrypted, allow ↔ redirect); --rows
        prints them as decision table rows; after them (text, json, --rows), each
        profile and app a different set of policies reaches. --format
        markdown|sarif|dot (or --baseline): the leak paths each fleet has per
        device, either vendor, opened and closed.
        """
    static let options: [FleetOption] = [.device, .format, .devices, .assumeAssigned, .conflicts, .baseline, .maxResults, .maxBytes, .show, .rows]
    static func formats(_ reporters: ReporterRegistry) -> [String] { FleetPathsFormat.allCases.map(\.rawValue) }

    /// OLD (with `--device`, `--devices`), NEW, `--format`, `--rows`, `--baseline`, `--max-results`, `--max-bytes`, `--show`.
    let input: FleetInput, new: String, format: FleetPathsFormat, rows: Bool, baselinePath: String?, limits: ReportLimits

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        guard options.positionals.count == 2 else {
            throw UsageError("fleet diff takes two fleet files, OLD NEW (got \(options.positionals.count))", verb: "fleet")
        }
        format = try FleetPathsFormat.parse(options, default: .text, verb: "fleet")
        if options.has("--rows"), format != .text {
            throw UsageError("'--rows' prints decision table rows: it does not go with --format \(format.rawValue)", verb: "fleet")
        }
        input = try Self.input(options, path: options.positionals[0], operands: true)
        (new, rows, baselinePath) = (options.positionals[1], options.has("--rows"), options.value("--baseline"))
        limits = try FleetCommand.limits(options, format: format)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        // OLD and NEW both read before either is loaded (a pipe gives its bytes to one reader only), each loaded once.
        let inputs = [try FleetLoader.File.reading(input.path), try FleetLoader.File.reading(new)]
        let analyses = try inputs.map { (read) throws(CLIError) in try read.load(devices: .file(input.devicesPath), options: input.intune, console: console) }
        // With a baseline or a report format, the leak paths opened and closed; otherwise the changed flows.
        guard baselinePath != nil || format.isReport else {
            return try FleetDiffOutput.changes(old: analyses[0], new: analyses[1], device: input.device, format: format, rows: rows, console: console)
        }
        return try LeakDiff.run(old: analyses[0], new: analyses[1], oldPath: input.path, newPath: new, device: input.device, format: format, rows: rows,
                                baselinePath: baselinePath, limits: limits, console: console)
    }
}

/// `fleet diff` with `--baseline` or a report format, either vendor on each side (``LeakPathDiff``): the leak paths
/// each fleet has per device, those opened and those closed; the opened ones judged against the baseline.
enum LeakDiff {
    static func run(old: FleetAnalysis, new: FleetAnalysis, oldPath: String, newPath: String, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                    baselinePath: String?, limits: ReportLimits = ReportLimits(), console: Console) throws(CLIError) -> ExitStatus {
        let names = LeakPathDiff.deviceNames(old: old, new: new)
        if let device, !names.contains(where: { ExactText.same($0, device) }) {
            throw .invalidInput("neither fleet has a device profile named \(JSONWriter.quoted(device))\(Suggestion.phrase(for: device, among: names))")
        }
        let baseline = try BaselineRun.load(baselinePath, devices: names, onlyTo: nil, console: console)
        let diff: LeakPathDiff
        do throws(FleetError) { diff = try LeakPathDiff(old: old, new: new, device: device, baseline: baseline) } catch { throw .invalidInput(error.description) }
        if diff.writeReport(format, old: oldPath, new: newPath, limits: limits, to: console.stdout) {
            if baseline == nil { return diff.opensSomething ? .notAllowed : .success }
            return diff.fails ? .notAllowed : .success
        }
        // Text or JSON with a baseline: the diff as without one, then the baseline's part.
        let inner = Console(stdout: Output(), stderr: console.stderr, stdin: console.stdin)
        _ = try FleetDiffOutput.changes(old: old, new: new, device: device, format: format, rows: rows, console: inner)
        console.stdout.write(diff.baselineSection(after: inner.stdout.text, asJSON: format == .json) ?? inner.stdout.text)
        return diff.fails ? .notAllowed : .success
    }
}

/// `fleet diff OLD NEW` on the two fleets' analyses, either vendor on each side.
enum FleetDiffOutput {
    /// The flows that change, as text or JSON (``FleetChanges``: two AppConnect fleets compare effective policies,
    /// flows, leak paths and controls; with Intune on a side, or `--rows`, every flow under each side's rules).
    static func changes(old: FleetAnalysis, new: FleetAnalysis, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                        console: Console) throws(CLIError) -> ExitStatus {
        let changes: FleetChanges
        do throws(FleetError) { changes = try FleetChanges.compare(old: old, new: new, device: device, everyFlow: rows) } catch { throw .invalidInput(error.description) }
        // The report formats go through LeakDiff.
        console.stdout.write(changes.written(rows ? .rows : format == .json ? .json : .text))
        return changes.opensSomething ? .notAllowed : .success
    }
}
