import OpenInPolicy

/// `fleet diff` with `--baseline` or a report format (markdown, sarif, dot), either vendor on each
/// side: the leak paths (a managed app's documents reaching an app outside) each fleet has per
/// device, those opened and those closed; the opened ones judged against the baseline.
enum LeakDiff {
    /// Every path to outside of `fleet` per device (each device, or `device` alone), keyed `FROM ⇒ TO`.
    static func leaks(_ fleet: VendorFleet, path: String, device: String?) throws(CLIError) -> [(device: String, paths: [String: ReportPath])] {
        var result: [(String, [String: ReportPath])] = []
        do throws(FleetError) {
            switch fleet {
            case .appConnect(let fleet):
                for profile in fleet.devices where device.map({ ExactText.same($0, profile.name) }) ?? true {
                    let resolved = try fleet.device(named: profile.name)
                    var paths: [String: ReportPath] = [:]
                    for app in fleet.apps where resolved.isInstalled(app.bundleID) && !resolved.isOutside(.app(app.bundleID)) {
                        for found in try resolved.paths(from: app.bundleID) where resolved.isOutside(found.to) {
                            let hops = found.hops.map { hop in
                                let at = place(hop, device: resolved)
                                return ReportHop(hop, file: at.file, line: at.line, grant: at.grant)
                            }
                            paths["\(app.bundleID) ⇒ \(found.to)"] = ReportPath(device: profile.name, from: app.bundleID, to: found.to, outside: true, hops: hops)
                        }
                    }
                    result.append((profile.name, paths))
                }
            case .intune(let fleet):
                for profile in fleet.devices where device.map({ ExactText.same($0, profile.name) }) ?? true {
                    var paths: [String: ReportPath] = [:]
                    for app in fleet.managedApps(on: profile) where fleet.isInstalled(app, on: profile) {
                        for found in try fleet.paths(device: profile.name, from: app) where fleet.isOutside(found.to, on: profile) {
                            let hops = found.hops.map { hop in
                                let at = place(hop, fleet: fleet)
                                return ReportHop(hop, file: at.file, line: at.line, grant: at.grant)
                            }
                            paths["\(app) ⇒ \(found.to)"] = ReportPath(device: profile.name, from: app, to: found.to, outside: true, hops: hops)
                        }
                    }
                    result.append((profile.name, paths))
                }
            }
        } catch {
            throw .invalidInput(error.description)
        }
        if let device, !result.contains(where: { ExactText.same($0.0, device) }) {
            result.append((device, [:]))
        }
        return result
    }

    /// Where the setting that lets an AppConnect hop through is: the sender's control for the channel
    /// (its container policy's line, or the fleet file for the global policy), in words.
    static func place(_ hop: FleetHop, device: FleetDevice) -> (file: String, line: Int?, grant: String?) {
        let file = device.fleet.file ?? "fleet"
        guard let control = hop.channel.control else { return (file, nil, nil) }
        let source = hop.decision.senderPolicy.source(of: control)
        var line: Int? = nil
        if case .containerPolicy(let name, _) = source {
            line = device.fleet.containerPolicies.first { ExactText.same($0.name, name) }?.line
        }
        return (file, line, "\(hop.from): \(source), \(control) [\(hop.decision.sender.rule)]")
    }

    /// Where the Intune policy that lets a hop through is: the sending app's policy, by display name.
    static func place(_ hop: IntuneHop, fleet: IntuneFleet) -> (file: String, line: Int?, grant: String?) {
        let file = fleet.file ?? "policies"
        guard case .app(let id) = hop.from, let policy = fleet.policy(for: id) else { return (file, nil, nil) }
        return (file, nil, "\(hop.from): Intune policy \(JSONWriter.quoted(policy.displayName)) [\(hop.decision.sender.rule)]")
    }

    static func run(old: VendorFleet, new: VendorFleet, oldPath: String, newPath: String, device: String?, format: FleetCommand.PathsFormat, rows: Bool,
                    baselinePath: String?, console: Console) throws(CLIError) -> ExitStatus {
        let names = old.deviceNames + new.deviceNames.filter { name in !old.deviceNames.contains { ExactText.same($0, name) } }
        if let device, !names.contains(where: { ExactText.same($0, device) }) {
            throw .invalidInput("neither fleet has a device profile named \(JSONWriter.quoted(device))\(Suggestion.phrase(for: device, among: names))")
        }
        var baseline = try BaselineRun.load(baselinePath, devices: names, onlyTo: nil, console: console)
        let before = try leaks(old, path: oldPath, device: device), after = try leaks(new, path: newPath, device: device)
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
            report.write(reports, subject: .diff(old: oldPath, new: newPath), baseline: baseline.map { gateOnly($0, judged) }, console: console)
            if baseline == nil { return reports.contains { !$0.paths.isEmpty } ? .notAllowed : .success }
            return fails ? .notAllowed : .success
        }
        // Text or JSON with a baseline: the diff as without one, then the baseline's part.
        let inner = Console(stdout: Output(), stderr: console.stderr, stdin: console.stdin)
        if case .appConnect(let a) = old, case .appConnect(let b) = new, !rows {
            _ = try FleetOutput.diff(old: a, new: b, device: device, format: format, console: inner)
        } else {
            _ = try IntuneFleetOutput.diff(old: old, new: new, device: device, format: format, rows: rows, console: inner)
        }
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
                if let hop = path.hops.last { text += "  (\(DecisionText.escaped(hop.grant))\(hop.line.map { ", line \($0)" } ?? ""))" }
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
