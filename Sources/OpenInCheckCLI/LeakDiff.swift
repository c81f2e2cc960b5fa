import OpenInPolicy
import OpenInReports

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
    /// The diff: with a baseline or a report format, the leak paths opened and closed (``LeakDiff``);
    /// otherwise the changed flows (``changes(old:new:device:format:rows:console:)``).
    static func run(old: FleetAnalysis, new: FleetAnalysis, oldPath: String, newPath: String, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                    baselinePath: String?, limits: ReportLimits = ReportLimits(), console: Console) throws(CLIError) -> ExitStatus {
        if baselinePath != nil || format.report != nil {
            return try LeakDiff.run(old: old, new: new, oldPath: oldPath, newPath: newPath, device: device, format: format, rows: rows,
                                    baselinePath: baselinePath, limits: limits, console: console)
        }
        return try changes(old: old, new: new, device: device, format: format, rows: rows, console: console)
    }

    /// The flows that change, as text or JSON (``FleetChanges``: two AppConnect fleets compare effective policies,
    /// flows, leak paths and controls; with Intune on a side, or `--rows`, every flow under each side's rules).
    static func changes(old: FleetAnalysis, new: FleetAnalysis, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                        console: Console) throws(CLIError) -> ExitStatus {
        let changes: FleetChanges
        do throws(FleetError) {
            changes = try FleetChanges.compare(old: old, new: new, device: device, everyFlow: rows)
        } catch {
            throw .invalidInput(error.description)
        }
        // The report formats go through LeakDiff.
        console.stdout.write(changes.written(rows ? .rows : format == .json ? .json : .text))
        return changes.opensSomething ? .notAllowed : .success
    }
}
