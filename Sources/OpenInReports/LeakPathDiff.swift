import OpenInPolicy

/// `fleet diff` with a baseline or a report format, either vendor on each side: the leak paths (a managed app's
/// documents reaching an app outside) each fleet has per device, those opened and those closed, the opened ones
/// judged against the baseline.
public struct LeakPathDiff: Sendable {
    /// Per device, the paths opened (with their state against the baseline) and those closed.
    package private(set) var reports: [DeviceReport] = []
    /// The opened paths the baseline judged.
    package private(set) var judged: [ReportPath] = []
    /// The baseline as the diff applied it: every path of the new fleet matched (so its entry is not resolved), only
    /// the opened ones counted.
    package private(set) var baseline: BaselineRun?

    /// The device profiles of either fleet: the old fleet's, then the new one's it does not have, in file order.
    public static func deviceNames(old: FleetAnalysis, new: FleetAnalysis) -> [String] {
        old.deviceNames + new.deviceNames.filter { name in !old.deviceNames.contains { ExactText.same($0, name) } }
    }

    /// Every path to outside of `analysis` per device (each device, or `device` alone), from each app inside the zone
    /// of trust, keyed `FROM ⇒ TO`.
    static func leaks(_ analysis: FleetAnalysis, device: String?) throws(FleetError) -> [(device: String, paths: [String: ReportPath])] {
        var result: [(String, [String: ReportPath])] = []
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
        return result
    }

    /// The paths to outside `new` opens and closes against `old`, on each device of either fleet (``deviceNames(old:new:)``)
    /// or on `device` alone; with `baseline`, each opened path is judged against it.
    /// - Throws: `FleetError` when a fleet cannot answer.
    public init(old: FleetAnalysis, new: FleetAnalysis, device: String?, baseline: BaselineRun?) throws(FleetError) {
        self.baseline = baseline
        let before = try Self.leaks(old, device: device), after = try Self.leaks(new, device: device)
        for name in device.map({ [$0] }) ?? Self.deviceNames(old: old, new: new) {
            let was = before.first { ExactText.same($0.device, name) }?.paths ?? [:]
            let now = after.first { ExactText.same($0.device, name) }?.paths ?? [:]
            var opened: [ReportPath] = []
            for (key, path) in now.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                var path = path
                if self.baseline != nil {
                    self.baseline!.examine(device: name, from: path.from)
                    let result = self.baseline!.judge(device: name, from: path.from, to: path.to)
                    // Paths that were there before are matched (so their entries are not resolved) but do not gate a diff.
                    if was[key] == nil { (path.state, path.entry) = result }
                }
                if was[key] == nil {
                    opened.append(path)
                    if path.state != nil { judged.append(path) }
                }
            }
            let closed = was.filter { now[$0.key] == nil }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
            if self.baseline != nil { for path in closed { self.baseline!.examine(device: name, from: path.from) } }
            reports.append(DeviceReport(device: name, paths: opened, closed: closed))
        }
        self.baseline = self.baseline?.counting(judged.compactMap(\.state))
    }

    /// Whether the diff opens a path to outside on some device.
    public var opensSomething: Bool { reports.contains { !$0.paths.isEmpty } }

    /// Whether the baseline gate fails: an opened path is new or expired.
    public var fails: Bool { judged.contains { $0.state != .accepted } }

    /// Writes the report in `format` (Markdown, SARIF, DOT) of the diff from the fleet `old` to the fleet `new` (their
    /// files' names), within `limits`, to `sink`.
    /// - Returns: `false`, having written nothing, when `format` is not a report format (text or JSON).
    public func writeReport(_ format: FleetPathsFormat, old: String, new: String, limits: ReportLimits = ReportLimits(), to sink: any ReportSink) -> Bool {
        guard let report = format.report else { return false }
        report.write(reports, subject: .diff(old: old, new: new), baseline: baseline, limits: limits, to: sink)
        return true
    }

    /// `diff` (the text or JSON `fleet diff` writes without a baseline) followed by the baseline's part on the opened
    /// paths: a last JSON record, or their lines and the counts; `nil` without a baseline.
    public func baselineSection(after diff: String, asJSON: Bool) -> String? {
        baseline?.diffSection(after: diff, opened: judged, asJSON: asJSON)
    }
}
