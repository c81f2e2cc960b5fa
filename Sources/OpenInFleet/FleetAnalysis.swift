import OpenInCore
import OpenInKit

/// One fleet of any vendor, as the fleet analyses see it: per device, its nodes, its zone of
/// trust (who is outside), and end-to-end decisions with the settings behind them
/// (``AnalyzedDevice``). Paths, the matrix and reachability are written once on it; what differs
/// between vendors is asked of the vendor's adapter, never by naming the vendor.
///
/// ```swift
/// let analysis = FleetAnalysis(try FleetJSON.read(bytes, file: "acme.json"))
/// for device in try analysis.devices() {
///     for path in try device.paths(from: try BundleID("com.acme.hr")) where device.isOutside(path.to) {
///         print(path.to, path.hops.flatMap(\.settings).map(\.key))
///     }
/// }
/// ```
public struct FleetAnalysis: Sendable {
    /// The vendor's fleet, as read, behind its adapter.
    package let fleet: any FleetVendorFleet

    /// The fleet behind `fleet`, a vendor's adapter.
    package init(_ fleet: any FleetVendorFleet) { self.fleet = fleet }

    /// The fleet file (AppConnect) or the policies' file or folder (Intune), when known.
    public var file: String? { fleet.file }
    /// The Intune devices file, when known.
    public var devicesFile: String? { fleet.devicesFile }
    /// The vendor's name.
    public var vendor: FleetVendor { fleet.vendor }
    /// The device profiles' names, in file order.
    public var deviceNames: [String] { fleet.deviceNames }

    /// The device profile named exactly `name`, resolved.
    /// - Throws: ``FleetError`` for an unknown name (with "Did you mean"), or a fleet that cannot
    ///   resolve the device (two container policies for one app on it).
    public func device(named name: String) throws(FleetError) -> AnalyzedDevice {
        AnalyzedDevice(try fleet.device(named: name), analysis: self)
    }

    /// The device named `name`, or every device profile when `name` is `nil`.
    /// - Throws: ``FleetError`` as ``device(named:)``, or when the fleet has no device profile.
    public func devices(named name: String? = nil) throws(FleetError) -> [AnalyzedDevice] {
        if let name { return [try device(named: name)] }
        let names = deviceNames
        if names.isEmpty { throw fleet.noDeviceProfile }
        var devices: [AnalyzedDevice] = []
        for name in names { devices.append(try device(named: name)) }
        return devices
    }

    /// What `fleet fixes` changes and verifies: the fleet's file (the bytes it was read from, `nil` for a
    /// folder of exports, read again from `path`), within `scope`.
    /// - Throws: ``FixError`` for a file that is not JSON, or a fleet the fixes cannot work on.
    package func fixSubject(bytes: [UInt8]?, path: String, scope: FixScope) throws(FixError) -> any FixSubject {
        try fleet.fixSubject(bytes: bytes, path: path, scope: scope)
    }

    /// `fleet fixes`: the changes to the fleet's file (`bytes` as read from `path`, `nil` for a folder of exports) that
    /// close the paths to outside within `scope`, verified and ranked, and a plan. With a baseline, only the paths it does
    /// not accept on `today` (new or expired) are paths to close; with `budget`, at most that many candidates are verified.
    /// - Throws: ``FixError`` for a file that is not JSON, or a fleet the fixes cannot work on.
    public func fixes(bytes: [UInt8]?, path: String, scope: FixScope = FixScope(), baseline: BaselineRun? = nil, today: BaselineDate,
                      budget: Int? = nil) throws(FixError) -> FleetFixReport {
        var counted: FleetFixes.Counted? = nil
        if let baseline {
            var judge = baseline.baseline.judge(today: today)
            counted = { path in
                guard let from = try? BundleID(path.from) else { return true }
                return judge.judge(device: path.device, from: from, to: path.toNode).state != .accepted
            }
        }
        return try FleetFixes.run(try fixSubject(bytes: bytes, path: path, scope: scope), counting: counted, budget: budget)
    }

    /// The fleet's lint findings (AppConnect: FL001–FL008; Intune: IN001–IN005) and every check that could make them.
    public func lint() -> (findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)]) {
        fleet.lint()
    }
}

/// One device of a ``FleetAnalysis``: its nodes, its zone of trust, end-to-end decisions with
/// their settings, and the paths documents take.
public struct AnalyzedDevice: Sendable {
    /// The vendor's device, behind its adapter.
    package let vendorDevice: any FleetVendorDevice
    /// The fleet it belongs to.
    public let analysis: FleetAnalysis

    package init(_ vendorDevice: any FleetVendorDevice, analysis: FleetAnalysis) {
        self.vendorDevice = vendorDevice
        self.analysis = analysis
    }

    /// The device profile's name.
    public var name: String { vendorDevice.name }

    /// The nodes documents can reach: the installed apps (as the profile lists them), native Mail
    /// (when the profile does not list it), and "any other app".
    public var nodes: [FleetNode] { vendorDevice.nodes }

    /// The apps inside the zone of trust, in the profile's order: AppConnect, the authorized AppConnect
    /// apps installed; Intune, the policy-managed apps installed.
    public var zone: [BundleID] { vendorDevice.zone }

    /// What the zone of trust is on this device and what outside means, as one sentence:
    /// `the authorized AppConnect apps on employee-iphone (4); outside: every other app, native Mail and any app the fleet does not list`.
    public var zoneDescription: String { vendorDevice.zoneDescription }

    /// Whether `node` is outside the zone of trust (native Mail and "any other app" always are).
    public func isOutside(_ node: FleetNode) -> Bool { vendorDevice.isOutside(node) }

    /// Whether `app` is installed on the device.
    public func isInstalled(_ app: BundleID) -> Bool { vendorDevice.isInstalled(app) }

    /// The apps `paths` starts from for every app: AppConnect, each fleet app installed on the device,
    /// in file order; Intune, each policy-managed app installed, in the profile's order.
    public var startingApps: [BundleID] { vendorDevice.startingApps }

    /// Decides `request` end to end on this device, with the settings behind it (``FleetDecision/settings``).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs (AppConnect).
    public func decide(_ request: FleetRequest) throws(FleetError) -> FleetDecision { try vendorDevice.decide(request) }

    /// Which nodes `app`'s documents reach, and how far (an app not installed reaches nothing).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reach(from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> FleetReach {
        try vendorDevice.reach(from: app, maxHops: maxHops)
    }

    /// Every starting app's search (``startingApps``), over one graph of the device.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reachAll(maxHops: Int? = nil) throws(FleetError) -> [FleetReach] {
        var result: [FleetReach] = []
        try vendorDevice.forEachReach(maxHops: maxHops) { (reach) throws(FleetError) in result.append(reach) }
        return result
    }

    /// ``reachAll(maxHops:)`` one starting app at a time, in ``startingApps`` order: `body` may let each
    /// search go before the next is made, so memory stays O(nodes + edges) plus one search.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs, or what `body` throws.
    package func forEachReach(maxHops: Int? = nil, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
        try vendorDevice.forEachReach(maxHops: maxHops, body)
    }

    /// The shortest chains of a search's result, with every hop decided and each destination's direct deliverers.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func paths(_ reach: FleetReach) throws(FleetError) -> [FleetPath] {
        try FleetSearch.paths(reach, on: vendorDevice.graph(for: reach))
    }

    /// A search's shortest-path tree with the hops into its nodes decided (``paths(_:)`` without a chain
    /// per node): every hop, or with `only` the hops on the chains to those nodes (every hop when some
    /// decision of the device could throw, so the error is the one ``paths(_:)`` gives).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    package func tree(_ reach: FleetReach, only: ((Int) -> Bool)? = nil) throws(FleetError) -> FleetTree {
        let graph = vendorDevice.graph(for: reach)
        guard let only else { return try FleetTree(reach, on: graph) }
        var wanted = NodeSet(count: reach.nodes.count)
        for node in reach.order where only(Int(node)) { wanted.insert(Int(node)) }
        return try FleetTree(reach, on: graph, only: wanted)
    }

    /// A finder of the hops of `reach`'s graph one at a time, each decided from parts made once
    /// (``FleetHopFinder``): when the vendor has one (AppConnect, for a device whose decisions cannot throw)
    /// and `reach` was searched on this device; `nil` otherwise (decide the hops with ``tree(_:only:)``).
    package func hopFinder(for reach: FleetReach) -> (any FleetHopSource)? { vendorDevice.hopFinder(for: reach) }

    /// Where `app`'s documents can end up: for each node reachable in at most `maxHops` hops, the
    /// shortest chain (each hop decided, with its settings) and the apps that deliver to it directly.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func paths(from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> [FleetPath] {
        try paths(try reach(from: app, maxHops: maxHops))
    }

    /// The device's end-to-end outcomes at a glance (senders × receivers × channels).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func matrix() throws(FleetError) -> FleetMatrix { try matrixRows().matrix() }

    /// ``matrix()`` made one sender's row at a time, as it is printed: memory for one row, not every cell.
    package func matrixRows() -> FleetMatrixRows { vendorDevice.matrixRows() }

    /// The counts of a set of paths from one app: the nodes reached, those outside, and the paths
    /// into `target` (every outside node when `nil`).
    /// As ``summary(of:to:)``, with the gated set given as a test on each node reached (the CLI's `--to`,
    /// which may stand for any other app, or compare IDs ignoring case for Intune).
    package func summary(of paths: [FleetPath], gatedBy inSet: (FleetNode) -> Bool) -> FleetPathSummary {
        FleetPathSummary(reachable: paths.count, outside: paths.filter { isOutside($0.to) }.count, paths: paths.filter { inSet($0.to) }.count)
    }

    /// How many of `paths` there are, how many reach outside the zone of trust, and how many end at `target` (outside, without one).
    public func summary(of paths: [FleetPath], to target: BundleID? = nil) -> FleetPathSummary {
        var outside = 0, gated = 0
        for path in paths {
            if isOutside(path.to) { outside += 1 }
            if let target { if path.to == .app(target) { gated += 1 } } else if isOutside(path.to) { gated += 1 }
        }
        return FleetPathSummary(reachable: paths.count, outside: outside, paths: gated)
    }

    /// The `openin-check fleet eval` arguments that decide `hop` alone on this device (with the same
    /// `--fleet` and `--devices` files): it prints the hop's outcome, `allow` (or `redirect`, for a
    /// `mailto:` that goes to Email+).
    public func reproduce(_ hop: FleetHop) -> [String] {
        var arguments = ["openin-check", "fleet", "eval"] + analysis.fleet.fileArguments
        let request = hop.decision.request
        arguments += ["--device", name, "--from", request.from.rawValue, "--channel", request.channel.rawValue]
        if let target = request.target { arguments += ["--target", target.rawValue] }
        if let url = request.url { arguments += ["--url", url.rawValue] }
        return arguments
    }

    /// ``reproduce(_:)`` as one shell command line, each argument quoted when it needs it.
    public func reproduceCommand(_ hop: FleetHop) -> String {
        reproduce(hop).map(ShellQuoting.quoted).joined(separator: " ")
    }
}

/// The counts a `paths` answer leads with, for one device and starting app.
public struct FleetPathSummary: Sendable, Hashable {
    /// The nodes reached.
    public let reachable: Int
    /// The nodes reached that are outside the zone of trust.
    public let outside: Int
    /// The paths into the set asked about (`--to`; every outside node by default).
    public let paths: Int
}

/// Quoting for a POSIX shell.
package enum ShellQuoting {
    /// `text` as one shell word: as is when it holds only characters no shell treats specially,
    /// otherwise in single quotes (a single quote written `'\''`).
    package static func quoted(_ text: String) -> String {
        let safe = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "%"),
                    UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "=")].contains(byte)
        }
        if safe, !text.isEmpty { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
