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
            report.write(reports, subject: .diff(old: oldPath, new: newPath), baseline: baseline.map { gateOnly($0, judged) }, limits: limits, to: console.stdout)
            if baseline == nil { return reports.contains { !$0.paths.isEmpty } ? .notAllowed : .success }
            return fails ? .notAllowed : .success
        }
        // Text or JSON with a baseline: the diff as without one, then the baseline's part.
        let inner = Console(stdout: Output(), stderr: console.stderr, stdin: console.stdin)
        _ = try FleetDiffOutput.changes(old: old, new: new, device: device, format: format, rows: rows, console: inner)
        var text = inner.stdout.text
        let run = gateOnly(baseline!, judged)
        if format == .json {
            // The array of changes gains a last record: {"baseline": {…, "paths": [opened paths with their state], "resolved": [...]}}.
            var bytes: [UInt8] = []
            JSONWriter.append(run.json(paths: judged), to: &bytes, pretty: true, level: 1)
            let record = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("[]\n") {
                text = String(text.dropLast(3)) + "[\n  " + record + "\n]\n"
            } else if text.hasSuffix("\n]\n") {
                text = String(text.dropLast(3)) + ",\n  " + record + "\n]\n"
            }
        } else {
            text += "\nleak paths opened, against the baseline:\n"
            if judged.isEmpty { text += "  none\n" }
            for path in judged {
                text += "  \(DecisionText.escaped(path.device)): \(DecisionText.escaped(path.from.rawValue)) ⇒ \(DecisionText.escaped(path.to.description))  \(BaselineRun.mark(path.state!, path.entry))"
                if let hop = path.hops.last { text += "  (\(DecisionText.escaped(hop.grant)))" }
                text += "\n"
            }
            text += run.text
        }
        console.stdout.write(text)
        return fails ? .notAllowed : .success
    }

    /// The run with its counts taken from the opened paths alone (those a diff gates on).
    static func gateOnly(_ run: BaselineRun, _ judged: [ReportPath]) -> BaselineRun {
        var run = run
        run.recount(judged.compactMap(\.state))
        return run
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

    /// The flows that change, as text or JSON: two AppConnect fleets compare effective policies, flows, leak paths
    /// and controls (``FleetDiff``); with Intune on a side (or `--rows`), every flow is decided under each side's
    /// rules and the changes grouped by what the receiver can read (``CrossVendorDiff``).
    static func changes(old: FleetAnalysis, new: FleetAnalysis, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                        console: Console) throws(CLIError) -> ExitStatus {
        if let before = old.appConnect, let after = new.appConnect, !rows {
            return try FleetOutput.diff(old: before, new: after, device: device, format: format, console: console)
        }
        return try IntuneFleetOutput.diff(old: old.source, new: new.source, device: device, format: format, rows: rows, console: console)
    }
}
