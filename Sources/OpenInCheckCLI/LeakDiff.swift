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
        guard baselinePath != nil || format.report != nil else {
            return try FleetDiffOutput.changes(old: analyses[0], new: analyses[1], device: input.device, format: format, rows: rows, console: console)
        }
        return try LeakDiff.run(old: analyses[0], new: analyses[1], oldPath: input.path, newPath: new, device: input.device, format: format, rows: rows,
                                baselinePath: baselinePath, limits: limits, console: console)
    }
}

/// `fleet diff` with `--baseline` or a report format (markdown, sarif, dot), either vendor on each
/// side: the leak paths (a managed app's documents reaching an app outside) each fleet has per
/// device, those opened and those closed; the opened ones judged against the baseline.
enum LeakDiff {
    /// Every path to outside of `analysis` per device (each device, or `device` alone), from each app inside the zone
    /// of trust, keyed `FROM ⇒ TO`.
    static func leaks(_ analysis: FleetAnalysis, device: String?) throws(CLIError) -> [(device: String, paths: [String: ReportPath])] {
        var result: [(String, [String: ReportPath])] = []
        do throws(FleetError) {
            for resolved in try analysis.devices(named: device.flatMap { name in analysis.deviceNames.contains { ExactText.same($0, name) } ? name : nil }) {
                if let device, !ExactText.same(device, resolved.name) { continue }
                var paths: [String: ReportPath] = [:]
                for app in resolved.startingApps where !resolved.isOutside(.app(app)) {
                    for found in try resolved.paths(from: app) where resolved.isOutside(found.to) {
                        paths["\(app) ⇒ \(found.to)"] = ReportPath(device: resolved.name, from: app, to: found.to, outside: true,
                                                                    hops: found.hops.map { ReportHop($0, file: analysis.file) })
                    }
                }
                result.append((resolved.name, paths))
            }
        } catch {
            throw .invalidInput(error.description)
        }
        return result
    }

    static func run(old: FleetAnalysis, new: FleetAnalysis, oldPath: String, newPath: String, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                    baselinePath: String?, limits: ReportLimits = ReportLimits(), console: Console) throws(CLIError) -> ExitStatus {
        let names = old.deviceNames + new.deviceNames.filter { name in !old.deviceNames.contains { ExactText.same($0, name) } }
        if let device, !names.contains(where: { ExactText.same($0, device) }) {
            throw .invalidInput("neither fleet has a device profile named \(JSONWriter.quoted(device))\(Suggestion.phrase(for: device, among: names))")
        }
        var baseline = try BaselineRun.load(baselinePath, devices: names, onlyTo: nil, console: console)
        let before = try leaks(old, device: device), after = try leaks(new, device: device)
        var reports: [DeviceReport] = []
        var judged: [ReportPath] = []
        for name in device.map({ [$0] }) ?? names {
            let was = before.first { ExactText.same($0.device, name) }?.paths ?? [:]
            let now = after.first { ExactText.same($0.device, name) }?.paths ?? [:]
            var opened: [ReportPath] = []
            for (key, path) in now.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                var path = path
                if baseline != nil {
                    baseline!.examine(device: name, from: path.from)
                    let result = baseline!.judge(device: name, from: path.from, to: path.to)
                    // Paths that were there before are matched (so their entries are not resolved) but do not gate a diff.
                    if was[key] == nil { (path.state, path.entry) = result }
                }
                if was[key] == nil {
                    opened.append(path)
                    if path.state != nil { judged.append(path) }
                }
            }
            let closed = was.filter { now[$0.key] == nil }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
            if baseline != nil { for path in closed { baseline!.examine(device: name, from: path.from) } }
            reports.append(DeviceReport(device: name, paths: opened, closed: closed))
        }
        let fails = judged.contains { $0.state != .accepted }
        if let report = format.report {
            report.write(reports, subject: .diff(old: oldPath, new: newPath), baseline: baseline?.counting(judged.compactMap(\.state)), limits: limits,
                         to: console.stdout)
            if baseline == nil { return reports.contains { !$0.paths.isEmpty } ? .notAllowed : .success }
            return fails ? .notAllowed : .success
        }
        // Text or JSON with a baseline: the diff as without one, then the baseline's part.
        let inner = Console(stdout: Output(), stderr: console.stderr, stdin: console.stdin)
        _ = try FleetDiffOutput.changes(old: old, new: new, device: device, format: format, rows: rows, console: inner)
        console.stdout.write(baseline!.counting(judged.compactMap(\.state)).diffSection(after: inner.stdout.text, opened: judged, asJSON: format == .json))
        return fails ? .notAllowed : .success
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
