import OpenInCore
import OpenInKit

/// The baseline gate of a run (`fleet paths`, `fleet diff`, `fleet report`, `fleet fixes` with `--baseline`):
/// the baseline as the run applies it. It judges each path to outside, remembers what was examined (a
/// `--device`, `--from` or `--to` run examines part of the fleet: an entry outside that part is not
/// called resolved), and counts.
public struct BaselineRun: Sendable {
    /// The baseline file read.
    public let baseline: FleetBaseline
    package private(set) var judge: FleetBaseline.Judge
    /// (device, from) pairs examined; `to` when only one destination was.
    private var examined: Set<String> = []
    private var examinedFrom: Set<BundleID> = []
    private let onlyTo: FleetNode?
    /// How many judged paths are in each state.
    package private(set) var counts: [FleetBaseline.State: Int] = [:]

    /// A run judging against `baseline` on `today`; `onlyTo` when the run examines one destination alone.
    public init(_ baseline: FleetBaseline, today: BaselineDate, onlyTo: FleetNode?) {
        self.baseline = baseline
        judge = baseline.judge(today: today)
        self.onlyTo = onlyTo
    }

    /// Notes that `device`'s paths from `from` were examined.
    package mutating func examine(device: String, from: BundleID) {
        examined.insert(device + "\u{0}" + from.rawValue)
        examinedFrom.insert(from)
    }

    /// Judges a path to outside.
    package mutating func judge(device: String, from: BundleID, to: FleetNode) -> (state: FleetBaseline.State, entry: FleetBaseline.Entry?) {
        let result = judge.judge(device: device, from: from, to: to)
        counts[result.state, default: 0] += 1
        return result
    }

    /// The entries no path matched, among those the run examined.
    public var resolved: [FleetBaseline.Entry] {
        judge.resolved.filter { entry in
            if let onlyTo, entry.to != onlyTo { return false }
            if let device = entry.device { return examined.contains(device + "\u{0}" + entry.from.rawValue) }
            return examinedFrom.contains(entry.from)
        }
    }

    /// Counts `states` alone (a diff gates on the paths it opens, not on every path it matched).
    mutating func recount(_ states: [FleetBaseline.State]) {
        counts = [:]
        for state in states { counts[state, default: 0] += 1 }
    }

    /// The run with its counts taken from `states` alone: a diff gates on the paths it opens, not on every path it matched.
    package func counting(_ states: [FleetBaseline.State]) -> BaselineRun {
        var run = self
        run.recount(states)
        return run
    }

    /// The paths judged new, in the order judged, when the baseline ``FleetBaseline/recordsNewPaths`` (for writing a baseline).
    public var newPaths: [(device: String, from: BundleID, to: FleetNode)] { judge.newPaths }

    /// Whether some judged path fails the gate (new or expired).
    public var fails: Bool { counts[.new, default: 0] + counts[.expired, default: 0] > 0 }
}
