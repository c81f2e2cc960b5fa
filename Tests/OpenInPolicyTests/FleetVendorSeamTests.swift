import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The fleet analysis is written once over the vendor protocols: a third vendor, defined here and
/// nowhere in the library, gets paths, reachability, the matrix, lint and reproduce commands from
/// ``FleetAnalysis`` and ``AnalyzedDevice`` without any library code naming it.
@Suite struct FleetVendorSeamTests {
    /// "Relay": each app shares by document interaction with the apps its link list names, and nothing else.
    struct RelayFleet: FleetVendorFleet {
        let devices: [RelayDevice]
        var vendor: FleetVendor { FleetVendor(rawValue: "Relay") }
        var file: String? { "relay.json" }
        var devicesFile: String? { nil }
        var deviceNames: [String] { devices.map(\.name) }
        func device(named name: String) throws(FleetError) -> any FleetVendorDevice {
            guard let device = devices.first(where: { $0.name == name }) else { throw FleetError("no relay device \(name)") }
            return device
        }
        var noDeviceProfile: FleetError { FleetError("the relay has no device") }
        func lint() -> (findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)]) {
            ([], [("RL001", "relay", "a relay check", .warning)])
        }
        var fileArguments: [String] { ["--relay", "relay.json"] }
    }

    struct RelaySides: FleetDecisionSides {
        func settings(of decision: FleetDecision) -> [FleetSetting] { [] }
    }

    struct RelayDevice: FleetVendorDevice {
        let name: String
        let apps: [BundleID]
        let trusted: Set<BundleID>
        let links: [BundleID: [BundleID]]

        var nodes: [FleetNode] { apps.map(FleetNode.app) + [.anyOtherApp] }
        var zone: [BundleID] { apps.filter(trusted.contains) }
        var zoneDescription: String { "the trusted relay apps on \(name) (\(zone.count))" }
        func isOutside(_ node: FleetNode) -> Bool { if case .app(let id) = node { !trusted.contains(id) } else { true } }
        func isInstalled(_ app: BundleID) -> Bool { apps.contains(app) }
        var startingApps: [BundleID] { zone }

        func decide(_ request: FleetRequest) throws(FleetError) -> FleetDecision {
            let rule = RuleInfo.all[0].id
            let allowed = request.channel == .documentInteraction && request.target.map { links[request.from, default: []].contains($0) } == true
            let sender = Decision(outcome: allowed ? .allow : .deny, target: allowed ? request.target : nil, openInUI: .enabled, rule: rule)
            return FleetDecision(device: name, request: request, outcome: sender.outcome, sender: sender, receiver: nil,
                                 receiverApp: sender.target, sides: RelaySides())
        }

        func reach(from app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach {
            let graph = RelayGraph(self)
            return try FleetSearch.reach(graph, from: apps.firstIndex(of: app), app: app, maxHops: maxHops)
        }

        func forEachReach(maxHops: Int?, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
            let graph = RelayGraph(self)
            try FleetSearch.forEachReach(graph, starts: startingApps.map { (apps.firstIndex(of: $0)!, $0) }, maxHops: maxHops, body)
        }

        func graph(for reach: FleetReach) -> any FleetEdges { reach.graph ?? RelayGraph(self) }

        var installed: [BundleID] { apps }
        func control(_ channel: Channel, of app: BundleID) -> (text: String, reach: Int) { trusted.contains(app) ? ("deny", 0) : ("allow", 2) }

        func matrixRows() -> FleetMatrixRows {
            FleetMatrixRows(device: name, channels: [.documentInteraction], senders: apps, receivers: nodes, rows: RelayRows(device: self))
        }
    }

    final class RelayGraph: FleetEdges {
        let device: RelayDevice
        let nodes: [FleetNode]
        init(_ device: RelayDevice) {
            self.device = device
            nodes = device.nodes
        }

        func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
            guard case .app(let from) = nodes[x], case .app(let to) = nodes[y] else { return nil }
            let decision = try device.decide(try! FleetRequest(from: from, channel: .documentInteraction, target: to))
            return decision.delivers ? FleetHop(from: nodes[x], to: nodes[y], decision: decision) : nil
        }

        func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet {
            var result = NodeSet(count: nodes.count)
            for y in nodes.indices where y != x && candidates.contains(y) {
                if try hop(from: x, to: y) != nil { result.insert(y) }
            }
            return result
        }
    }

    struct RelayRows: FleetMatrixRowMaker {
        let device: RelayDevice
        var canThrow: Bool { false }
        func row(sender s: Int, only: FleetChannel?) throws(FleetError) -> FleetMatrixRow? {
            var row = FleetMatrixRow(channels: [.documentInteraction], columns: device.nodes.count, only: only)
            guard only == nil || only == .documentInteraction else { return row }
            for (r, node) in device.nodes.enumerated() {
                guard case .app(let to) = node, to != device.apps[s] else { continue }
                row.set(grid: 0, receiver: r, try device.decide(try! FleetRequest(from: device.apps[s], channel: .documentInteraction, target: to)).outcome)
            }
            return row
        }
    }

    static let hr = try! BundleID("com.relay.hr"), mail = try! BundleID("com.relay.mail"), cloud = try! BundleID("com.example.cloud")

    static func analysis() -> FleetAnalysis {
        let device = RelayDevice(name: "phone", apps: [hr, mail, cloud], trusted: [hr, mail], links: [hr: [mail], mail: [cloud]])
        return FleetAnalysis(RelayFleet(devices: [device]))
    }

    @Test func aThirdVendorGetsPathsFromTheOneAnalysis() throws {
        let analysis = Self.analysis()
        #expect(analysis.vendor.description == "Relay")
        #expect(analysis.appConnect == nil && analysis.intune == nil)
        let device = try #require(try analysis.devices().first)
        #expect(device.name == "phone" && device.zone == [Self.hr, Self.mail] && device.appConnect == nil)
        #expect(device.zoneDescription == "the trusted relay apps on phone (2)")
        // hr → mail → cloud: the second hop leaves the zone.
        let paths = try device.paths(from: Self.hr)
        #expect(paths.map(\.to) == [.app(Self.mail), .app(Self.cloud)])
        #expect(paths.map { $0.hops.count } == [1, 2])
        #expect(paths.map { device.isOutside($0.to) } == [false, true])
        #expect(device.summary(of: paths) == FleetPathSummary(reachable: 2, outside: 1, paths: 1))
        let leak = try #require(paths.last?.hops.last)
        #expect(leak.decision.senderPolicy == nil && leak.settings.isEmpty)
        #expect(device.reproduceCommand(leak) == "openin-check fleet eval --relay relay.json --device phone --from com.relay.mail --channel document-interaction --target com.example.cloud")
        // One search per starting app (the zone), over one graph, and the paths of each search through the vendor's graph.
        let all = try device.reachAll()
        #expect(all.map(\.from) == [Self.hr, Self.mail])
        #expect(try all.map { try device.paths($0).map(\.to) } == [[.app(Self.mail), .app(Self.cloud)], [.app(Self.cloud)]])
        #expect(device.hopFinder(for: all[0]) == nil)
        #expect(try device.tree(all[0]).hops.compactMap { $0?.to } == [.app(Self.mail), .app(Self.cloud)])
    }

    @Test func aThirdVendorGetsTheMatrixLintAndErrorsFromTheOneAnalysis() throws {
        let analysis = Self.analysis()
        let matrix = try analysis.device(named: "phone").matrix()
        #expect(matrix.senders == [Self.hr, Self.mail, Self.cloud])
        #expect(matrix.outcome(.documentInteraction, sender: 0, receiver: 1) == .allow)
        #expect(matrix.outcome(.documentInteraction, sender: 0, receiver: 2) == .deny)
        #expect(matrix.outcome(.documentInteraction, sender: 1, receiver: 2) == .allow)
        #expect(matrix.outcome(.documentInteraction, sender: 0, receiver: 0) == nil)
        #expect(matrix.outcome(.documentInteraction, sender: 0, receiver: 3) == nil)
        #expect(matrix.outcome(.quickLook, sender: 0, receiver: 1) == nil)
        #expect(analysis.lint().checks.map(\.code) == ["RL001"])
        #expect(throws: FleetError("the relay has no device")) { try FleetAnalysis(RelayFleet(devices: [])).devices() }
        #expect(throws: FleetError("no relay device tablet")) { try analysis.devices(named: "tablet") }
        let fixes = #expect(throws: FixError.self) { try analysis.fixSubject(bytes: [], path: "relay.json", scope: FixScope()) }
        #expect(fixes?.message == "fleet fixes does not work on Relay fleets yet")
    }

    @Test func aThirdVendorGetsTheFleetDiff() throws {
        let before = FleetAnalysis(RelayFleet(devices: [RelayDevice(name: "phone", apps: [Self.hr, Self.mail, Self.cloud], trusted: [Self.hr, Self.mail, Self.cloud],
                                                                    links: [Self.hr: [Self.mail]])]))
        let changes = try FleetDiff.compare(old: before, new: Self.analysis())
        #expect(changes.map(\.kind) == [.leakPath, .leakPath, .flow, .control, .control])
        #expect(changes.map(\.subject) == ["com.relay.hr ⇒ com.example.cloud", "com.relay.mail ⇒ com.example.cloud",
                                           "document-interaction com.relay.mail → com.example.cloud", "print com.example.cloud", "copy com.example.cloud"])
        #expect(changes[0].detail == "com.relay.hr document-interaction → com.relay.mail document-interaction → com.example.cloud")
        #expect(changes[2].detail == "deny → allow" && changes[3].detail == "deny → allow" && changes.allSatisfy(\.opened))
    }
}
