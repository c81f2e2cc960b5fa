import OpenInCore
import OpenInFleet
import OpenInKit

/// `fleet fixes` on an AppConnect fleet file: the candidate changes (one setting of the global
/// policy, a container policy or an app configuration, or a new container policy), each verified
/// incrementally: only the graph rows and columns of the apps whose effective policy the change
/// alters are decided again, and the searches run again on bit sets.
struct AppConnectFixSubject: FixSubject {
    package let documents: [FixDocument]
    package let paths: Set<LeakPath>
    package let exposure: Int
    package let fleet: Fleet
    package let scope: FixScope
    package let states: [DeviceState]

    /// One device as the analysis left it: its graph and every node's row.
    struct DeviceState {
        let device: FleetDevice
        let graph: FleetGraph
        let rows: [NodeSet]
        /// Per node, what its decisions read: authorization, policy, the controls its policies leave unset.
        let signatures: [Signature]
        /// The device's paths of the scope, and its exposure (``FixSubject/exposure``).
        let paths: [LeakPath]
        let exposure: Int
    }

    struct Signature: Equatable {
        let authorized: Bool
        package let policy: Policy
        let unset: [FleetControl]
    }

    /// The fleet file `file`, as read, and the paths of `scope`.
    /// - Throws: ``FixError`` for a fleet that is not valid or a scope naming what the fleet lacks.
    package init(document: FixDocument, scope: FixScope) throws(FixError) {
        let fleet: Fleet
        do throws(FormatError) { fleet = try FleetJSON.read(document.value) } catch { throw FixError(error.inFile(document.file).description) }
        try self.init(document: document, fleet: fleet, scope: scope)
    }

    package init(document: FixDocument, fleet: Fleet, scope: FixScope) throws(FixError) {
        var fleet = fleet
        fleet.file = document.file
        documents = [document]
        self.fleet = fleet
        self.scope = scope
        var states: [DeviceState] = []
        var paths: Set<LeakPath> = []
        var exposure = 0
        do throws(FleetError) {
            let profiles = try scope.device.map { name throws(FleetError) in [try fleet.device(named: name).profile] } ?? fleet.devices
            if let from = scope.from, !fleet.apps.contains(where: { ExactText.same($0.bundleID.rawValue, from) }) {
                throw FleetError("\(from) is not one of the fleet's apps: give a bundle ID from apps, or all")
            }
            for profile in profiles {
                let device = try FleetDevice(fleet: fleet, profile: profile)
                let graph = FleetGraph(device)
                let all = NodeSet(count: graph.ids.count, full: true)
                var rows: [NodeSet] = []
                rows.reserveCapacity(graph.ids.count)
                for x in graph.ids.indices { rows.append(try graph.row(x, among: all)) }
                let first = DeviceState(device: device, graph: graph, rows: rows, signatures: [], paths: [], exposure: 0)
                let state = DeviceState(device: device, graph: graph, rows: rows, signatures: AppConnectFixSubject.signatures(graph),
                                        paths: AppConnectFixSubject.leaks(first, rows: rows, scope: scope), exposure: AppConnectFixSubject.exposure(first, rows: rows))
                states.append(state)
                paths.formUnion(state.paths)
                exposure += state.exposure
            }
        } catch {
            throw FixError(error.description)
        }
        self.states = states
        self.paths = paths
        self.exposure = exposure
    }

    static func signatures(_ graph: FleetGraph) -> [Signature] {
        graph.sides.indices.map { index in
            let policy = graph.sides[index].policy
            return Signature(authorized: graph.authorized[index], policy: policy.policy, unset: FleetControl.allCases.filter { policy.source(of: $0) == .notSet })
        }
    }

    /// The paths of `scope` on one device, given every node's row.
    package static func leaks(_ state: DeviceState, rows: [NodeSet], scope: FixScope) -> [LeakPath] {
        let graph = state.graph, device = state.device
        var targets = NodeSet(count: graph.ids.count)
        for (index, node) in graph.nodes.enumerated() {
            if let to = scope.to, !ExactText.same(to, "outside") {
                if ExactText.same(node.description, to) { targets.insert(index) }
            } else if device.isOutside(node) {
                targets.insert(index)
            }
        }
        var result: [LeakPath] = []
        // A path starts inside the zone of trust: an app outside is not AppConnect's to protect.
        for app in device.fleet.apps where device.isInstalled(app.bundleID) && !device.isOutside(.app(app.bundleID)) {
            if let from = scope.from, !ExactText.same(from, app.bundleID.rawValue) { continue }
            guard let start = graph.index[app.bundleID] else { continue }
            var seen = FixFlows.reachable(from: start, rows: rows)
            seen.remove(start)
            for w in seen.words.indices {
                var hits = seen.words[w] & targets.words[w]
                while hits != 0 {
                    let y = w << 6 | hits.trailingZeroBitCount
                    hits &= hits - 1
                    result.append(LeakPath(device: device.name, from: app.bundleID.rawValue, to: graph.nodes[y].description))
                }
            }
        }
        return result
    }

    /// The edges from an authorized AppConnect app to an app outside, on one device.
    package static func exposure(_ state: DeviceState, rows: [NodeSet]) -> Int {
        let graph = state.graph
        var outside = NodeSet(count: graph.ids.count)
        for (index, node) in graph.nodes.enumerated() where state.device.isOutside(node) { outside.insert(index) }
        var count = 0
        for x in graph.ids.indices where graph.authorized[x] {
            for w in rows[x].words.indices { count += (rows[x].words[w] & outside.words[w]).nonzeroBitCount }
        }
        return count
    }

    package func replacing(_ document: Int, with value: JSONValue) throws(FixError) -> AppConnectFixSubject {
        try AppConnectFixSubject(document: FixDocument(file: documents[0].file, value: value, start: documents[0].start), scope: scope)
    }

    /// Whether the one delivery `candidate` can stop (a whitelist entry's) is absent on every device, or its
    /// receiver is reached from its sender another way: then no app reaches less, and no path closes.
    package func cannotChangePaths(_ candidate: FixCandidate) -> Bool {
        guard let edge = candidate.edge else { return false }
        for state in states {
            guard let x = state.graph.index[edge.from], let y = state.graph.index[edge.to], state.rows[x].contains(y) else { continue }
            // Does x reach y without the edge x → y?
            var seen = NodeSet(count: state.graph.ids.count)
            seen.insert(x)
            var frontier: [Int] = []
            var first = state.rows[x]
            first.remove(y)
            for w in first.words.indices {
                var bits = first.words[w]
                seen.words[w] |= bits
                while bits != 0 {
                    frontier.append(w << 6 | bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            var found = false
            while let z = frontier.popLast(), !found {
                for w in state.rows[z].words.indices {
                    var fresh = state.rows[z].words[w] & ~seen.words[w]
                    guard fresh != 0 else { continue }
                    seen.words[w] |= fresh
                    while fresh != 0 {
                        frontier.append(w << 6 | fresh.trailingZeroBitCount)
                        fresh &= fresh - 1
                    }
                }
                found = seen.contains(y)
            }
            if !found && !seen.contains(y) { return false }
        }
        return true
    }

    /// Per candidate, at most how many paths it can close: a change of some apps' policies alters only the
    /// edges out of and into them, so it can close only a path (source, destination) whose source reaches
    /// one of them and whose destination is reached from it: the sum over its apps and devices of (sources
    /// that reach the app) × (destinations the app reaches, itself included). A change of the global policy: every path.
    package func closingBounds(_ candidates: [FixCandidate]) -> [Int] {
        var perApp: [BundleID: Int] = [:]
        var wanted: Set<BundleID> = []
        for candidate in candidates { for app in candidate.apps ?? [] { wanted.insert(app) } }
        for state in states {
            let graph = state.graph, count = graph.ids.count
            var targets = NodeSet(count: count)
            var sources: [Int] = []
            for path in state.paths {
                if let y = graph.index[AppConnectFixSubject.id(of: path.toNode, in: state.device)] { targets.insert(y) }
            }
            var seenSources: Set<Int> = []
            for path in state.paths {
                if let x = (try? BundleID(path.from)).flatMap({ graph.index[$0] }), seenSources.insert(x).inserted { sources.append(x) }
            }
            // How many sources reach each node.
            var reachedBy = [Int](repeating: 0, count: count)
            for x in sources {
                // swift-format-ignore: ReplaceForEachWithForLoop
                try? FixFlows.reachable(from: x, rows: state.rows).forEach { (y) throws(FleetError) in reachedBy[y] += 1 }
            }
            for app in wanted {
                guard let a = graph.index[app], reachedBy[a] > 0 else { continue }
                let reach = FixFlows.reachable(from: a, rows: state.rows)
                var out = 0
                for w in reach.words.indices { out += (reach.words[w] & targets.words[w]).nonzeroBitCount }
                perApp[app, default: 0] += reachedBy[a] * out
            }
        }
        return candidates.map { candidate in
            guard let apps = candidate.apps else { return paths.count }
            return min(paths.count, apps.reduce(0) { $0 + (perApp[$1] ?? 0) })
        }
    }

    /// The bundle ID of a node's graph entry (any other app's stand-in for it).
    package static func id(of node: FleetNode, in device: FleetDevice) -> BundleID { device.bundleID(of: node) }

    /// The fleet with `patched` read back where `patch` changed it (the global policy, one container
    /// policy or one app configuration): the rest of the fleet is the one already read. `nil` when the
    /// changed part is not valid.
    func reread(_ patched: JSONValue, patch: [JSONPatchOperation]) -> Fleet? {
        guard let section = patch.first?.path.tokens.first,
              patch.allSatisfy({ $0.path.tokens.first == section && $0.path.tokens.dropFirst().first == patch[0].path.tokens.dropFirst().first }),
              let fields = try? JSONCursor(patched).members(allowed: FleetJSON.topLevelKeys, what: "the fleet") else { return nil }
        var changed = fleet
        do throws(FormatError) {
            switch section {
            case "global":
                guard let global = fields["global"] else { return nil }
                changed.global = try FleetJSON.readGlobal(global)
            case "containerPolicies":
                guard let list = fields["containerPolicies"], case .array(let array) = list.value else { return nil }
                let token = patch[0].path.tokens.count > 1 ? patch[0].path.tokens[1] : "-"
                guard let index = JSONPointer.index(token) ?? (array.isEmpty ? nil : array.count - 1), let element = list.element(index) else { return nil }
                let policy = try FleetJSON.readContainerPolicy(element)
                if index < changed.containerPolicies.count {
                    changed.containerPolicies[index] = policy
                } else {
                    guard index == changed.containerPolicies.count,
                          !changed.containerPolicies.contains(where: { ExactText.same($0.name, policy.name) }) else { return nil }
                    changed.containerPolicies.append(policy)
                }
            case "appConfigurations":
                guard let list = fields["appConfigurations"], patch[0].path.tokens.count > 1, let index = JSONPointer.index(patch[0].path.tokens[1]) else { return nil }
                guard let element = list.element(index), index < changed.appConfigurations.count else { return nil }
                changed.appConfigurations[index] = try FleetJSON.readConfiguration(element)
            default:
                return nil
            }
        } catch {
            return nil
        }
        changed.file = fleet.file
        return changed
    }

    package func verify(_ patched: JSONValue, candidate: FixCandidate, collateral: Bool) -> FixVerdict? {
        guard let changed = reread(patched, patch: candidate.patch) ?? (try? FleetJSON.read(patched)).map({ (fleet: Fleet) -> Fleet in
            var fleet = fleet
            fleet.file = self.fleet.file
            return fleet
        }) else { return nil }
        var verdict = FixVerdict(paths: [], collateral: [], touched: [], exposure: 0)
        var unchanged = true
        var samePaths = false
        // The devices whose paths stay as they were (gathered only when another device's change).
        var kept: [Int] = []
        for (number, state) in states.enumerated() {
            let old = state.graph
            let count = old.ids.count
            // A change of some apps' policies: their sides made alone, on the device as resolved (its
            // tables, facts and authorized apps), unless the collateral needs the device itself.
            var quick: [Int: FleetSide]? = nil
            if !collateral, let apps = candidate.apps {
                quick = [:]
                for app in apps {
                    guard let x = old.index[app], let side = AppConnectFixSubject.side(of: app, in: changed, on: state.device),
                          side.policy.authorization.isAuthorized == old.authorized[x],
                          !(side.policy.policy.pasteboard == .secureCopy && state.device.facts.secureServicesAvailable == nil) else {
                        quick = nil
                        break
                    }
                    quick?[x] = side
                }
            }
            let device: FleetDevice
            if quick != nil {
                device = state.device
            } else {
                guard let resolved = try? FleetDevice(fleet: changed, resolving: state.device.profile) else { return nil }
                device = resolved
            }
            // The same nodes and authorized apps: only the candidate's apps' policies can differ.
            guard device.appConnectApps == state.device.appConnectApps, device.nodes == old.nodes else {
                unchanged = false
                guard let full = fullVerdict(state, device: device, collateral: collateral) else { return nil }
                verdict.paths.formUnion(full.paths)
                verdict.collateral.formUnion(full.collateral)
                verdict.allowed.formUnion(full.allowed)
                verdict.touched.formUnion(full.touched)
                verdict.exposure += full.exposure
                continue
            }
            var sides = old.sides
            var changedNodes = NodeSet(count: count)
            // The changed nodes whose policy as a receiver may differ: only their columns are decided again.
            var receiving = NodeSet(count: count)
            let affected: [Int] = candidate.apps.map { $0.compactMap { old.index[$0] } } ?? Array(0..<count)
            for x in affected {
                let side = quick?[x] ?? device.side(for: old.ids[x])
                let signature = Signature(authorized: old.authorized[x], policy: side.policy.policy,
                                          unset: FleetControl.allCases.filter { side.policy.source(of: $0) == .notSet })
                if signature != state.signatures[x] {
                    sides[x] = side
                    changedNodes.insert(x)
                    if !AppConnectFixSubject.sendsOnly(from: state.signatures[x], to: signature) { receiving.insert(x) }
                }
            }
            if changedNodes.isEmpty {
                verdict.exposure += state.exposure
                kept.append(number)
                continue
            }
            let graph = FleetGraph(old, device: device, sides: sides, changed: changedNodes)
            var rows: [NodeSet] = []
            rows.reserveCapacity(count)
            var same = true
            var receivers: [Int] = []
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? receiving.forEach { (y) throws(FleetError) in receivers.append(y) }
            do throws(FleetError) {
                let all = NodeSet(count: count, full: true)
                for x in 0..<count {
                    if changedNodes.contains(x) {
                        rows.append(try graph.row(x, among: all))
                    } else if receiving.isEmpty {
                        rows.append(state.rows[x])
                    } else if receivers.count <= AppConnectFixSubject.maxReceiversOneByOne {
                        // A few receivers changed what they accept: only x's edge to each is decided again.
                        var row = state.rows[x]
                        for y in receivers {
                            if try graph.delivers(x, to: y) { row.insert(y) } else { row.remove(y) }
                        }
                        rows.append(row)
                    } else {
                        var row = state.rows[x]
                        let fresh = try graph.row(x, among: receiving)
                        for w in row.words.indices { row.words[w] = row.words[w] & ~receiving.words[w] | fresh.words[w] }
                        rows.append(row)
                    }
                    if same, rows[x].words != state.rows[x].words { same = false }
                }
            } catch {
                return nil
            }
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? changedNodes.forEach { (index) throws(FleetError) in
                if case .app(let id) = old.nodes[index] { verdict.touched.insert(id.rawValue) }
            }
            if same {
                // Every delivery as before: the same paths, the same exposure (the policies differ in what no delivery reads).
                verdict.exposure += state.exposure
                kept.append(number)
            } else if let same = AppConnectFixSubject.sameReach(old: state.rows, new: rows) {
                // Some deliveries gone, but every app reaches what it reached: the same paths; the exposure may fall.
                _ = same
                samePaths = true
                verdict.exposure += AppConnectFixSubject.exposure(DeviceState(device: device, graph: graph, rows: rows, signatures: [], paths: [], exposure: 0), rows: rows)
                kept.append(number)
            } else {
                unchanged = false
                let newState = DeviceState(device: device, graph: graph, rows: rows, signatures: state.signatures, paths: [], exposure: 0)
                verdict.paths.formUnion(AppConnectFixSubject.leaks(newState, rows: rows, scope: scope))
                verdict.exposure += AppConnectFixSubject.exposure(newState, rows: rows)
            }
            if collateral {
                let flows = AppConnectFixSubject.collateral(old: state.device, new: device, changed: changedNodes, graph: old)
                verdict.collateral.formUnion(flows.blocked)
                verdict.allowed.formUnion(flows.allowed)
            }
        }
        if unchanged {
            // No device reaches otherwise: the paths are the fleet's as given (not gathered again).
            verdict.paths = paths
            verdict.unchanged = !samePaths
            verdict.samePaths = true
        } else {
            // A device left as it was keeps its paths.
            for number in kept { verdict.paths.formUnion(states[number].paths) }
        }
        return verdict
    }

    /// Up to how many receivers whose Open From changed each other node's edges to them are decided one
    /// by one (``FleetGraph/delivers(_:to:)``) rather than as part of a row.
    static let maxReceiversOneByOne = 8

    /// Whether a node's policy changed only in what it decides as a sender (Open In, its whitelist, drag
    /// and drop, pasteboard, print): then no delivery to it changes.
    static func sendsOnly(from old: Signature, to new: Signature) -> Bool {
        guard old.authorized == new.authorized, old.unset.contains(.openFrom) == new.unset.contains(.openFrom) else { return false }
        var sameReceiving = new.policy
        sameReceiving.status = old.policy.status
        sameReceiving.whitelist = old.policy.whitelist
        sameReceiving.dragAndDrop = old.policy.dragAndDrop
        sameReceiving.pasteboard = old.policy.pasteboard
        sameReceiving.print = old.policy.print
        return sameReceiving == old.policy
    }


    /// Whether every node reaches, through `new`'s rows, what it reached through `old`'s, when `new` only
    /// drops edges: each dropped edge's receiver is still reached from its sender. `nil` when it is not so,
    /// when `new` adds an edge, or when too many senders lost one to check cheaply.
    static func sameReach(old: [NodeSet], new: [NodeSet]) -> Bool? {
        var senders: [Int] = []
        for x in old.indices {
            var dropped = false
            for w in old[x].words.indices {
                if new[x].words[w] & ~old[x].words[w] != 0 { return nil }
                if old[x].words[w] & ~new[x].words[w] != 0 { dropped = true }
            }
            if dropped { senders.append(x) }
        }
        guard senders.count <= 16 else { return nil }
        for x in senders {
            let seen = FixFlows.reachable(from: x, rows: new)
            for w in old[x].words.indices where old[x].words[w] & ~seen.words[w] != 0 { return nil }
        }
        return true
    }

    /// `app`'s effective policy and prepared policy in `changed`, on `device` as resolved for the fleet as
    /// given (its tables, facts and labels): what ``FleetDevice`` works out for one app. `nil` when it
    /// cannot (an app the fleet does not list, two policies for the app).
    package static func side(of app: BundleID, in changed: Fleet, on device: FleetDevice) -> FleetSide? {
        guard let position = device.table.appIndex[app], position < changed.apps.count else { return nil }
        let fleetApp = changed.apps[position]
        let carried = device.profile.labelSet
        do throws(FleetError) {
            let (authorization, container) = try FleetDevice.authorization(of: fleetApp, installed: device.table.installed,
                                                                           positions: changed.containerPolicies.indices.lazy.filter { changed.containerPolicies[$0].app == app },
                                                                           fleet: changed, profile: device.profile, carried: carried)
            let configuration = try FleetDevice.configuration(of: app, positions: changed.appConfigurations.indices.lazy.filter { changed.appConfigurations[$0].app == app },
                                                              fleet: changed, profile: device.profile, carried: carried)
            let policy = FleetDevice.effectivePolicy(app: fleetApp, authorization: authorization, container: container, of: changed.containerPolicies,
                                                     configuration: configuration.map { (changed.appConfigurations[$0.position], $0.label) },
                                                     global: changed.global, facts: device.facts, allAppConnect: device.table.tables.appConnectWhitelist,
                                                     device: device.profile.name, fleet: changed, profile: device.profile,
                                                     places: .init(app: position, container: container, configuration: configuration?.position))
            return (policy, PreparedPolicy(policy.policy, tables: device.table.tables))
        } catch {
            return nil
        }
    }

    /// One device's verdict with its graph built again (a change that alters which apps are authorized).
    func fullVerdict(_ state: DeviceState, device: FleetDevice, collateral: Bool) -> FixVerdict? {
        let graph = FleetGraph(device)
        let all = NodeSet(count: graph.ids.count, full: true)
        var rows: [NodeSet] = []
        do throws(FleetError) {
            for x in graph.ids.indices { rows.append(try graph.row(x, among: all)) }
        } catch {
            return nil
        }
        let newState = DeviceState(device: device, graph: graph, rows: rows, signatures: [], paths: [], exposure: 0)
        var touched: Set<String> = []
        for id in state.graph.ids where device.side(for: id).policy.policy != state.device.side(for: id).policy.policy { touched.insert(id.rawValue) }
        let flows = collateral ? AppConnectFixSubject.collateral(old: state.device, new: device, changed: nil, graph: state.graph) : (blocked: [], allowed: [])
        var verdict = FixVerdict(paths: Set(AppConnectFixSubject.leaks(newState, rows: rows, scope: scope)), collateral: Set(flows.blocked),
                                 touched: touched, exposure: AppConnectFixSubject.exposure(newState, rows: rows))
        verdict.allowed = Set(flows.allowed)
        return verdict
    }



    /// The flows between the old device's zone apps (authorized and installed) whose `fleet matrix` cell
    /// delivers before and not after (`blocked`), or not before and after (`allowed`); only those from or to
    /// a changed node when `changed` is given (no other cell can differ). A cell is decided as the matrix
    /// decides it (``FleetDevice/matrixRequest(_:from:to:schemes:)``, ``FleetDevice/decide(_:)``); one
    /// whose decision throws delivers nothing.
    package static func collateral(old: FleetDevice, new: FleetDevice, changed: NodeSet?, graph: FleetGraph) -> (blocked: [InsideFlow], allowed: [InsideFlow]) {
        let zone = graph.ids.indices.filter { graph.authorized[$0] && old.isInstalled(graph.ids[$0]) }
        var blocked: [InsideFlow] = [], allowed: [InsideFlow] = []
        let oldSchemes = old.customSchemes(), newSchemes = new.customSchemes()
        func outcome(_ device: FleetDevice, _ schemes: [BundleID: String], _ channel: FleetChannel, _ x: Int, _ y: Int) -> Outcome? {
            guard let request = device.matrixRequest(channel, from: graph.ids[x], to: .app(graph.ids[y]), schemes: schemes) else { return nil }
            return try? device.decide(request).outcome
        }
        for x in zone {
            for y in zone where x != y {
                if let changed, !changed.contains(x), !changed.contains(y) { continue }
                for channel in FixFlows.flowChannels {
                    let before = FixFlows.delivers(outcome(old, oldSchemes, channel, x, y)), after = FixFlows.delivers(outcome(new, newSchemes, channel, x, y))
                    guard before != after else { continue }
                    let flow = InsideFlow(device: old.name, from: graph.ids[x].rawValue, channel: channel.rawValue, to: graph.ids[y].rawValue)
                    if before { blocked.append(flow) } else { allowed.append(flow) }
                }
            }
        }
        return (blocked, allowed)
    }

    /// Why `patched` is not a fleet to verify: the error reading it whole, or resolving its devices, gives.
    package func invalidity(_ patched: JSONValue, candidate: FixCandidate) -> String {
        let document = documents[candidate.document]
        do throws(FixError) {
            _ = try AppConnectFixSubject(document: FixDocument(file: document.file, value: patched, start: document.start), scope: scope)
        } catch {
            return "the changed file is not a fleet to verify: \(error.message)"
        }
        return "the changed file could not be verified"
    }

    // MARK: Candidates

    package func candidates() -> [FixCandidate] {
        guard case .object(let root) = documents[0].value else { return [] }
        var result: [FixCandidate] = []
        func add(_ change: String, _ patch: [JSONPatchOperation], apps: [BundleID]? = nil, edge: (from: BundleID, to: BundleID)? = nil) {
            result.append(FixCandidate(change: change, document: 0, patch: patch, apps: apps, edge: edge))
        }
        let interesting = interestingApps()
        // The global policy's controls.
        if case .object(let global)? = root["global"] {
            let base = JSONPointer(["global"])
            for (change, patch, _) in AppConnectFixSubject.tightenings(global, at: base, owner: "the global policy") { add(change, patch) }
        }
        // Container policies.
        var covered: Set<BundleID> = []
        if case .array(let policies)? = root["containerPolicies"] {
            for (index, element) in policies.enumerated() {
                guard case .object(let policy) = element, index < fleet.containerPolicies.count else { continue }
                let model = fleet.containerPolicies[index]
                covered.insert(model.app)
                guard interesting.contains(model.app) else { continue }
                let base = JSONPointer(["containerPolicies", String(index)])
                let owner = "container policy \(JSONWriter.quoted(model.name))"
                for (change, patch, entry) in AppConnectFixSubject.tightenings(policy, at: base, owner: owner) {
                    // A whitelist entry stops one delivery: from the app to the entry (Open In), or from the entry to the app (Open From).
                    let edge = entry.flatMap { entry in (try? BundleID(entry.id)).map { id in entry.openIn ? (model.app, id) : (id, model.app) } }
                    add(change, patch, apps: [model.app], edge: edge)
                }
                // A control it takes from the global policy: set it here, tighter.
                if case .object(let global)? = root["global"] {
                    for (change, patch, _) in AppConnectFixSubject.tightenings(global, at: base, owner: owner, inheritedBy: policy) { add(change, patch, apps: [model.app]) }
                }
            }
        }
        // App configurations that switch enforcement off.
        if case .array(let configurations)? = root["appConfigurations"] {
            for (index, element) in configurations.enumerated() {
                guard case .object(let configuration) = element, case .object(let config)? = configuration["config"], index < fleet.appConfigurations.count else { continue }
                let model = fleet.appConfigurations[index]
                guard interesting.contains(model.app) else { continue }
                for member in config.members where ExactText.isOne(member.key, of: ["MI_AC_DISABLE_SCHEME_BLOCKING", "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT"]) {
                    let pointer = JSONPointer(["appConfigurations", String(index), "config", member.key])
                    add("Remove \(member.key) from the app configuration of \(model.app)\(model.labels.isEmpty ? "" : " (labels \(model.labels.joined(separator: ", ")))").",
                        [.remove(pointer)], apps: [model.app])
                }
            }
        }
        // A container policy for an app that takes a leaky control from the global policy.
        if fleet.global.authorizeAppsWithoutContainerPolicy, case .object(let global)? = root["global"] {
            for app in fleet.apps where app.appConnect && !covered.contains(app.bundleID) && interesting.contains(app.bundleID) {
                var labels: [String] = []
                for profile in fleet.devices where profile.installed.contains(app.bundleID) {
                    for label in profile.labels where !labels.contains(where: { ExactText.same($0, label) }) { labels.append(label) }
                }
                guard !labels.isEmpty else { continue }
                let name = "\(app.bundleID) (tightened)"
                let taken = fleet.containerPolicies.first { ExactText.same($0.name, name) }
                for (key, current, value, _) in AppConnectFixSubject.tighterValues(global) {
                    let change = "Add a container policy \(JSONWriter.quoted(name)) for \(app.bundleID) (labels \(labels.joined(separator: ", "))) that sets \(key) to \(JSONWriter.quoted(value)) instead of the global policy's \(JSONWriter.quoted(current))."
                    if let taken {
                        // Policy names are unique in a fleet: the change cannot be written as proposed. Said, not dropped.
                        result.append(FixCandidate(change: change, document: 0, patch: [], apps: [app.bundleID],
                                                   unbuilt: "the fleet already has a container policy named \(JSONWriter.quoted(name)) (for \(taken.app)), and names are unique: add one for \(app.bundleID) under another name"))
                        continue
                    }
                    let policy = JSONValue.object(JSONObject(members: [
                        .init("name", .string(name)), .init("app", .string(app.bundleID.rawValue)),
                        .init("labels", .array(JSONArray(labels.map(JSONValue.string)))), .init(key, .string(value)),
                    ]))
                    let operation: JSONPatchOperation = root["containerPolicies"] == nil
                        ? .add(JSONPointer(["containerPolicies"]), .array(JSONArray([policy])))
                        : .add(JSONPointer(["containerPolicies", "-"]), policy)
                    add(change, [operation], apps: [app.bundleID])
                }
            }
        }
        return result
    }

    /// The apps whose settings can matter to a path: every app a leaking source reaches, and the source.
    func interestingApps() -> Set<BundleID> {
        var result: Set<BundleID> = []
        let sources = Set(paths.map { "\($0.device)\u{0}\($0.from)" })
        for state in states {
            let graph = state.graph
            // The union of the sources' reachable sets first, then each app in it once (not once per source).
            var union = NodeSet(count: graph.ids.count)
            for (index, id) in graph.ids.enumerated() where sources.contains("\(state.device.name)\u{0}\(id.rawValue)") {
                let reach = FixFlows.reachable(from: index, rows: state.rows)
                for w in union.words.indices { union.words[w] |= reach.words[w] }
            }
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? union.forEach { (y) throws(FleetError) in result.insert(graph.ids[y]) }
        }
        return result
    }

    /// The tighter values of each control `policy` sets, with the keys that go with the old value
    /// (a whitelist), and the current value's text.
    static func tighterValues(_ policy: JSONObject) -> [(key: String, current: String, value: String, removing: [String])] {
        var result: [(key: String, current: String, value: String, removing: [String])] = []
        func text(_ value: JSONValue?) -> String? {
            switch value {
            case .string(let text)?: text
            case .number(let number)?: number.literal
            default: nil
            }
        }
        if let current = text(policy["openInPolicy"]), let setting = try? PolicySetting(parsing: current) {
            let values: [String] = switch setting {
            case .status(.authorized), .status(.whitelist): ["appconnect", "unauthorized"]
            case .allAppConnectApps: ["unauthorized"]
            case .status(.unauthorized): []
            }
            for value in values { result.append(("openInPolicy", current, value, ["openInWhitelist"])) }
        }
        if let current = text(policy["openFromPolicy"]), let setting = try? OpenFromPolicy.Setting(parsing: current) {
            let values: [String] = switch setting {
            case .status(.authorized): ["appconnect", "unauthorized"]
            case .status(.whitelist), .allAppConnectApps: ["unauthorized"]
            case .status(.unauthorized): []
            }
            for value in values { result.append(("openFromPolicy", current, value, ["openFromWhitelist"])) }
        }
        if let current = text(policy["pasteboardPolicy"]), (try? PasteboardPolicy(parsing: current)) == .authorized {
            result.append(("pasteboardPolicy", current, "securecopy", []))
        }
        if let current = text(policy["dragAndDropPolicy"]), let setting = try? DragAndDropPolicy(parsing: current) {
            if setting == .all { result.append(("dragAndDropPolicy", current, "appconnect", [])) }
            if setting != .none { result.append(("dragAndDropPolicy", current, "none", [])) }
        }
        return result
    }

    /// The changes that tighten one control `policy` sets, or one whitelist entry it lists; with
    /// `inheritedBy`, the controls `policy` (the global policy) sets and `inheritedBy` does not, each
    /// set in `inheritedBy` (at `base`) to a tighter value.
    static func tightenings(_ policy: JSONObject, at base: JSONPointer, owner: String, inheritedBy: JSONObject? = nil)
        -> [(String, [JSONPatchOperation], (id: String, openIn: Bool)?)] {
        var result: [(String, [JSONPatchOperation], (id: String, openIn: Bool)?)] = []
        for (key, current, value, removing) in tighterValues(policy) {
            if let inheritedBy {
                guard inheritedBy[key] == nil else { continue }
                result.append(("Set \(key) to \(JSONWriter.quoted(value)) in \(owner), which today takes \(JSONWriter.quoted(current)) from the global policy.",
                               [.add(base.appending(key), .string(value))], nil))
                continue
            }
            var operations: [JSONPatchOperation] = [.replace(base.appending(key), .string(value))]
            for other in removing where policy[other] != nil { operations.append(.remove(base.appending(other))) }
            result.append(("Set \(key) of \(owner) from \(JSONWriter.quoted(current)) to \(JSONWriter.quoted(value)).", operations, nil))
        }
        guard inheritedBy == nil else { return result }
        for key in ["openInWhitelist", "openFromWhitelist"] {
            guard case .array(let list)? = policy[key] else { continue }
            for (index, entry) in list.enumerated() {
                guard case .string(let id) = entry else { continue }
                result.append(("Remove \(id) from \(key) of \(owner).", [.remove(base.appending(key).appending(index))], (id, key == "openInWhitelist")))
            }
        }
        return result
    }
}
