import OpenInCore
import OpenInFleet
import OpenInKit

/// Intune's adapter to the fleet analysis (``FleetAnalysis``): app protection policies with the
/// devices file they were read with, and each device's index, as the vendor protocols ask them.
struct IntuneFleetSource: FleetVendorFleet {
    package let fleet: IntuneFleet
    package let devicesFile: String?
    /// Who each policy may reach, indexed once for every device's index.
    let reach: IntuneReachIndex

    init(fleet: IntuneFleet, devicesFile: String?) {
        self.fleet = fleet
        self.devicesFile = devicesFile
        reach = IntuneReachIndex(fleet)
    }

    package var vendor: FleetVendor { .intune }
    package var file: String? { fleet.file }
    package var deviceNames: [String] { fleet.devices.map(\.name) }
    package func device(named name: String) throws(FleetError) -> any FleetVendorDevice { try fleet.index(device: name, reach: reach) }
    var noDeviceProfile: FleetError { FleetError("the Intune devices file has no device profile: add one under devices") }
    package func lint() -> (findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)]) {
        (IntuneLint.findings(fleet), IntuneLint.checks)
    }
    var fileArguments: [String] { ["--fleet", fleet.file ?? "FLEET", "--devices", devicesFile ?? "DEVICES"] }

    package func fixSubject(bytes: [UInt8]?, path: String, scope: FixScope) throws(FixError) -> any FixSubject {
        guard let bytes else { return try IntuneFixSubject(path: path, fleet: fleet, scope: scope) }
        let document: FixDocument
        do throws(FormatError) { document = try FixDocuments.read(bytes, file: path) } catch { throw FixError(error.description) }
        return try IntuneFixSubject(documents: [document], fleet: fleet, scope: scope)
    }
}

extension IntuneDeviceIndex: FleetVendorDevice {
    package var name: String { device.name }
    package var nodes: [FleetNode] { fleet.nodes(on: device) }
    /// The policy-managed apps installed, in the profile's order.
    package var zone: [BundleID] { managed }

    package var zoneDescription: String {
        "the policy-managed apps on \(name) (\(zone.count)); outside: every other app, native Mail and any app no policy targets"
    }

    package func isOutside(_ node: FleetNode) -> Bool {
        guard case .app(let id) = node else { return true }
        return !isManaged(id)
    }

    package func isInstalled(_ app: BundleID) -> Bool { fleet.isInstalled(app, on: device) }

    /// Each policy-managed app installed, in the profile's order.
    package var startingApps: [BundleID] { managed }

    package func reach(from app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach {
        let graph = IntuneGraph(self)
        return try FleetSearch.reach(graph, from: isInstalled(app) ? graph.position(of: app) : nil, app: app, maxHops: maxHops)
    }

    package func forEachReach(maxHops: Int?, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
        let graph = IntuneGraph(self)
        try FleetSearch.forEachReach(graph, starts: startingApps.compactMap { app in graph.position(of: app).map { ($0, app) } }, maxHops: maxHops, body)
    }

    package func graph(for reach: FleetReach) -> any FleetEdges { reach.graph ?? IntuneGraph(self) }
    package var installed: [BundleID] { device.installed }

    /// The app's Intune decision: the outcome, with a copy's audience (an app no policy targets decides as Intune leaves it).
    package func control(_ channel: Channel, of app: BundleID) -> (text: String, reach: Int) {
        let decision = IntuneEvaluator(context: context(for: app)).decide(try! ShareRequest(channel: channel))
        guard decision.outcome == .allow else { return (decision.outcome.rawValue, 0) }
        switch decision.audience {
        case .appConnectApps?, .managedApps?: return ("allow (readable by policy-managed apps only)", 1)
        case .allApps?, nil: return ("allow", 2)
        }
    }
}

extension FleetAnalysis {
    /// Intune app protection policies, with the devices file they were read with.
    public init(_ fleet: IntuneFleet, devicesFile: String? = nil) { self.init(IntuneFleetSource(fleet: fleet, devicesFile: devicesFile)) }

    /// The Intune fleet, when it is one.
    public var intune: IntuneFleet? { (fleet as? IntuneFleetSource)?.fleet }
}

extension IntuneFleet {
    /// Intune app protection policies read from `file`, with the devices file's apps, devices and app groups
    /// (`devices`: the devices file's bytes and its path, when given), each policy's app group resolved and no
    /// app targeted twice: the one way the fleet verbs and the decision tables load an Intune fleet.
    /// - Throws: ``IntuneFleet/LoadError/devices(_:)`` for a devices file that cannot be read, and
    ///   ``IntuneFleet/LoadError/policies(_:)`` for an app group nothing resolves or an app two policies target.
    /// `facts`: what the export folder holds beside its policies (a migration table, filter files), merged with the devices file's.
    package static func load(policies: [IntunePolicy], file: String?, devices: (bytes: [UInt8], file: String)?, assumeAssigned: Bool = false,
                             conflicts: ConflictMode = .mostRestrictive, facts: IntuneExportFacts = IntuneExportFacts()) throws(LoadError) -> IntuneFleet {
        var fleet = IntuneFleet(policies: policies, file: file)
        fleet.assumeAssigned = assumeAssigned
        fleet.conflictMode = conflicts
        var groups: [(name: String, apps: [BundleID])] = []
        if let devices {
            do throws(FormatError) {
                // The file parsed once, each of its parts read from the one value.
                let read = try FormatError.readJSON(IntuneGraphJSON.text(devices.bytes, file: devices.file), file: devices.file) { value throws(FormatError) in
                    (try IntuneDevicesJSON.read(value), try IntuneDevicesJSON.appGroups(value), try IntuneDevicesJSON.groupNames(value),
                     try IntuneDevicesJSON.assignmentFilters(value, file: devices.file))
                }
                (fleet.apps, fleet.devices) = read.0
                groups = read.1
                fleet.groupNames = read.2
                let filters = read.3
                do throws(FleetError) { fleet.filters = try AssignmentFilters(filters) } catch { throw FormatError(error.description) }
            } catch {
                throw .devices(error)
            }
        }
        do throws(FleetError) {
            // A policy that names an app group (Microsoft's templates: Core Microsoft apps) targets its apps.
            try fleet.resolveAppGroups(groups, devicesFile: devices != nil)
            try fleet.join(facts, devicesFile: devices?.file)
            try fleet.checkConflicts()
        } catch {
            throw .policies(error)
        }
        return fleet
    }

    /// Why ``load(policies:file:devices:)`` could not load a fleet.
    package enum LoadError: Error {
        /// The devices file cannot be read.
        case devices(FormatError)
        /// The policies cannot be resolved: an app group nothing resolves, or an app two policies target.
        case policies(FleetError)

        /// What went wrong, as a message names it.
        package var message: String {
            switch self {
            case .devices(let error): error.description
            case .policies(let error): error.description
            }
        }
    }

    /// Whether `json` (a file's bytes) reads as Intune app protection policies (a Graph export: an array,
    /// or an object with `@odata.type` or a list's `value`) rather than an AppConnect fleet file (an
    /// object with `global`). Text that is not JSON is not: it is left to the fleet reader, whose error names the line.
    package static func holdsPolicies(_ json: [UInt8]) -> Bool {
        // A fleet file names `global` at its top level, most often among its first keys: seen there, the answer is
        // no whatever follows (read whole, the file is a fleet's or malformed), and the file is not read twice.
        if JSONSkim.topLevelObjectNames("global", in: json) { return false }
        return switch try? JSONReader().read(json) {
        case .array?: true
        case .object(let object)?: object["global"] == nil && (object["@odata.type"] != nil || object["value"] != nil)
        default: false
        }
    }
}

/// How an Intune fleet is loaded for the verbs: `--assume-assigned` and `--conflicts`.
package struct IntuneLoadOptions: Sendable {
    /// Analyse a policy assigned to no one as if it reached every profile.
    package var assumeAssigned = false
    /// How several policies that reach one app on one profile combine.
    package var conflicts = ConflictMode.mostRestrictive

    package init() {}

    /// The options from their command-line values (`--assume-assigned` given; `--conflicts MODE`).
    /// - Throws: a message for an unknown mode, with "Did you mean".
    package init(assumeAssigned: Bool, conflicts: String?) throws(FleetError) {
        self.assumeAssigned = assumeAssigned
        if let conflicts {
            guard let mode = ConflictMode(rawValue: conflicts) else {
                let modes = ConflictMode.allCases.map(\.rawValue)
                throw FleetError("unknown --conflicts mode '\(Printable.text(conflicts))': use \(modes.joined(separator: " or ")).\(Suggestion.phrase(for: conflicts, among: modes))")
            }
            self.conflicts = mode
        }
    }
}
