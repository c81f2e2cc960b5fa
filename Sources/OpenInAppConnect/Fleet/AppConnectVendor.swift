import OpenInCore
import OpenInFleet
import OpenInKit

/// AppConnect's adapter to the fleet analysis (``FleetAnalysis``): an AppConnect fleet file and its
/// resolved devices, as the vendor protocols ask them.
struct AppConnectFleetSource: FleetVendorFleet {
    package let fleet: Fleet

    package var vendor: FleetVendor { .appConnect }
    package var file: String? { fleet.file }
    package var devicesFile: String? { nil }
    package var deviceNames: [String] { fleet.devices.map(\.name) }
    package func device(named name: String) throws(FleetError) -> any FleetVendorDevice { AppConnectVendorDevice(device: try fleet.device(named: name)) }
    var noDeviceProfile: FleetError { FleetError("the fleet has no device profile: add one under devices", file: fleet.file) }
    package func lint() -> (findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)]) {
        (FleetLint.findings(fleet), FleetLint.checks)
    }
    var fileArguments: [String] { ["--fleet", fleet.file ?? "FLEET"] }

    package func fixSubject(bytes: [UInt8]?, path: String, scope: FixScope) throws(FixError) -> any FixSubject {
        let document: FixDocument
        do throws(FormatError) { document = try FixDocuments.read(bytes ?? [], file: path) } catch { throw FixError(error.description) }
        return try AppConnectFixSubject(document: document, fleet: fleet, scope: scope)
    }
}

/// AppConnect's device adapter: a resolved ``FleetDevice``, whose own searches, graph and matrix rows
/// (``FleetGraph``, ``FleetHopFinder``, `AppConnectMatrixRows`) make the decisions on concrete types.
struct AppConnectVendorDevice: FleetVendorDevice {
    package let device: FleetDevice

    package var name: String { device.name }
    package var nodes: [FleetNode] { device.nodes }
    /// The authorized AppConnect apps installed, in the profile's order.
    package var zone: [BundleID] { device.profile.installed.filter(device.appConnectApps.contains) }

    package var zoneDescription: String {
        "the authorized AppConnect apps on \(name) (\(zone.count)); outside: every other app, native Mail and any app the fleet does not list"
    }

    package func isOutside(_ node: FleetNode) -> Bool { device.isOutside(node) }
    package func isInstalled(_ app: BundleID) -> Bool { device.isInstalled(app) }
    /// Each fleet app installed on the device, in file order.
    package var startingApps: [BundleID] { device.fleet.apps.map(\.bundleID).filter(device.isInstalled) }
    package func decide(_ request: FleetRequest) throws(FleetError) -> FleetDecision { try device.decide(request) }
    package func reach(from app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach { try device.reach(from: app, maxHops: maxHops) }
    package func forEachReach(maxHops: Int?, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) { try device.forEachReach(maxHops: maxHops, body) }

    package func graph(for reach: FleetReach) -> any FleetEdges {
        if let kept = reach.graph as? FleetGraph, kept.device.table === device.table { return kept }
        return FleetGraph(device)
    }

    /// The hop finder of `reach`'s graph when it was searched on this device.
    package func hopFinder(for reach: FleetReach) -> (any FleetHopSource)? {
        guard let graph = reach.graph as? FleetGraph, graph.device.table === device.table else { return nil }
        return FleetHopFinder(graph)
    }

    package func matrixRows() -> FleetMatrixRows { device.matrixRows() }
    package var installed: [BundleID] { device.profile.installed }

    /// The app's decision under its effective policy: the outcome, with a copy's audience ("not set" when the policy sets no such control).
    package func control(_ channel: Channel, of app: BundleID) -> (text: String, reach: Int) {
        let decision: Decision
        do throws(InputError) {
            decision = try Evaluator(policy: device.effectivePolicy(for: app).policy).decideOrThrow(ShareRequest(channel: channel))
        } catch {
            return ("not set", 0)
        }
        guard decision.outcome == .allow else { return (decision.outcome.rawValue, 0) }
        switch decision.audience {
        case .appConnectApps?, .managedApps?: return ("allow (readable by AppConnect apps only)", 1)
        case .allApps?, nil: return ("allow", 2)
        }
    }
}

extension FleetDiff {
    /// The changes from `old` to `new` on the device profiles they share (and those in one only), or on `device` alone.
    /// - Complexity: per device, a matrix of each fleet and paths from each installed app: O(apps² × channels) decisions.
    /// - Throws: ``FleetError`` when either fleet cannot decide (a conflict, a control not set) or has no such device.
    public static func compare(old: Fleet, new: Fleet, device: String? = nil) throws(FleetError) -> [FleetChange] {
        try compare(old: FleetAnalysis(old), new: FleetAnalysis(new), device: device)
    }
}

/// What an AppConnect end-to-end decision was made under: the sender's effective policy and the receiver's, when it decides.
struct AppConnectDecisionSides: FleetDecisionSides {
    package let sender: EffectivePolicy
    package let receiver: EffectivePolicy?

    package func settings(of decision: FleetDecision) -> [FleetSetting] { FleetSettings.appConnect(decision, sender: sender) }
}

extension FleetDecision {
    /// An AppConnect decision, made under `senderPolicy` (and `receiverPolicy` when the receiver decides).
    package init(device: String, request: FleetRequest, outcome: Outcome, sender: Decision, receiver: Decision?, receiverApp: BundleID?,
         senderPolicy: EffectivePolicy, receiverPolicy: EffectivePolicy?) {
        self.init(device: device, request: request, outcome: outcome, sender: sender, receiver: receiver, receiverApp: receiverApp,
                  sides: AppConnectDecisionSides(sender: senderPolicy, receiver: receiverPolicy))
    }

    /// AppConnect: where the sender's policy came from; `nil` under another vendor.
    public var senderPolicy: EffectivePolicy? { (sides as? AppConnectDecisionSides)?.sender }
    /// AppConnect: where the receiver's policy came from, when it decides; `nil` under another vendor.
    public var receiverPolicy: EffectivePolicy? { (sides as? AppConnectDecisionSides)?.receiver }
}

extension FleetAnalysis {
    /// An AppConnect fleet.
    public init(_ fleet: Fleet) { self.init(AppConnectFleetSource(fleet: fleet)) }

    /// The AppConnect fleet, when it is one.
    public var appConnect: Fleet? { (fleet as? AppConnectFleetSource)?.fleet }
}

extension AnalyzedDevice {
    /// The AppConnect device, when the fleet is an AppConnect fleet.
    public var appConnect: FleetDevice? { (vendorDevice as? AppConnectVendorDevice)?.device }
}
