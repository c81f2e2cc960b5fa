import OpenInCore
import OpenInFleet
import OpenInKit

/// `fleet fixes` on Intune app protection policies (a file or a folder of exports): the candidate
/// changes of one data-transfer setting of one policy, each patch against the file that holds it.
///
/// Verification is incremental, as for AppConnect: a change of one policy alters only the decisions of
/// the apps it targets, as senders (their rows) and as receivers (every other app's edge to them), so
/// only those are decided again; the paths are searched again over the rows as bit sets.
struct IntuneFixSubject: FixSubject {
    package let documents: [FixDocument]
    package let paths: Set<LeakPath>
    package let exposure: Int
    package let fleet: IntuneFleet
    package let scope: FixScope
    /// Per policy of the fleet, in order: its document and the pointer to its object there.
    let locations: [(document: Int, pointer: JSONPointer)]
    /// How many of ``documents`` hold policies; the rest are assignments files (IntuneBackupAndRestore's `Assignments/`).
    let policyDocuments: Int
    /// Per policy whose assignments come from an assignments file, that file's document.
    let assignmentsDocument: [Int: Int]
    /// Per device in scope, the inside flows before any change.
    package let flows: Set<InsideFlow>
    /// Per device in scope, its graph as decided before any change.
    package let states: [DeviceState]

    /// One device as analysed: its graph's rows, and per policy-managed app the deliveries it makes to apps outside.
    struct DeviceState {
        let device: IntuneDeviceProfile
        let graph: IntuneGraph
        let rows: [NodeSet]
        /// Per node, how many of its requests deliver to an app outside (``FixSubject/exposure``); 0 for an app not managed.
        let exposure: [Int]
    }

    /// The policies at `path` (a file or a folder, read as ``IntuneGraphJSON/read(path:)`` reads it) with `fleet`'s apps and devices.
    package init(path: String, fleet: IntuneFleet, scope: FixScope) throws(FixError) {
        var documents: [FixDocument] = []
        let folder: IntuneExportFiles?
        do throws(FormatError) { folder = try IntuneExportFiles.list(path) } catch { throw FixError(error.description) }
        if let folder {
            // The files read as policies, as IntuneGraphJSON.read(path:) reads them (a backup's root: its app protection folder).
            for file in folder.paths(.policy) { documents.append(try IntuneFixSubject.readDocument(file)) }
        } else {
            documents.append(try IntuneFixSubject.readDocument(path))
        }
        var kept: [FixDocument] = []
        for document in documents where IntuneGraphJSON.skippedType(of: document.value) == nil { kept.append(document) }
        // IntuneBackupAndRestore keeps each policy's assignments in a file of its own: a change of who it reaches is a patch of that file.
        var assignments: [FixDocument] = []
        for file in folder?.paths(.assignments) ?? [] { assignments.append(try IntuneFixSubject.readDocument(file)) }
        try self.init(documents: kept, assignments: assignments, fleet: fleet, scope: scope)
    }

    static func readDocument(_ file: String) throws(FixError) -> FixDocument {
        let bytes: [UInt8]
        do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "Intune export") } catch { throw FixError(error.message) }
        do throws(FormatError) { return try FixDocuments.read(IntuneGraphJSON.text(bytes, file: file), file: file) } catch { throw FixError(error.description) }
    }

    /// The policies of `documents` with the assignments of `assignments` (IntuneBackupAndRestore's files, each
    /// joined to its policy by the id its name starts with), with `fleet`'s apps and devices.
    package init(documents: [FixDocument], assignments: [FixDocument] = [], fleet: IntuneFleet, scope: FixScope) throws(FixError) {
        self.documents = documents + assignments
        policyDocuments = documents.count
        self.scope = scope
        var locations: [(document: Int, pointer: JSONPointer)] = []
        var policies: [IntunePolicy] = []
        for (index, document) in documents.enumerated() {
            do throws(FormatError) {
                let read = try IntuneGraphJSON.read(document.value, at: document.start)
                policies += read
                for pointer in IntuneFixSubject.policyPointers(document.value) { locations.append((index, pointer)) }
            } catch {
                throw FixError(error.inFile(document.file).description)
            }
        }
        guard locations.count == policies.count else { throw FixError("the policies could not be located in their files") }
        // Assignments files joined to their policies by id; a file for a policy not read (another platform's) is left aside, as loading does.
        var assignmentsDocument: [Int: Int] = [:]
        for (offset, document) in assignments.enumerated() {
            guard let id = IntuneGraphJSON.assignmentsPolicyID(document.file),
                  let index = policies.firstIndex(where: { $0.id.map { ExactText.same($0, id) } == true }) else { continue }
            do throws(FormatError) {
                policies[index].assignments = try IntuneGraphJSON.assignmentsFile(document.value, at: document.start, file: document.file)
            } catch {
                throw FixError(error.description)
            }
            assignmentsDocument[index] = documents.count + offset
        }
        self.assignmentsDocument = assignmentsDocument
        // Assignments kept in their own files and not given here stay the policy's, as the fleet read them.
        for index in policies.indices where policies[index].assignments == nil {
            guard let id = policies[index].id, let original = fleet.policies.first(where: { $0.id.map { ExactText.same($0, id) } == true }) else { continue }
            policies[index].assignments = original.assignments
        }
        var fleet = fleet
        fleet.policies = policies
        self.locations = locations
        do throws(FleetError) {
            // The policies as read name their app groups without listing the apps: resolve them as the fleet's were.
            if let resolution = fleet.appGroupResolution { try fleet.resolveAppGroups(resolution.groups, devicesFile: resolution.devicesFile) }
            self.fleet = fleet
            try fleet.checkConflicts()
            let analysis = try IntuneFixSubject.analyze(fleet, scope: scope)
            paths = analysis.paths
            flows = analysis.flows
            exposure = analysis.states.reduce(0) { $0 + $1.exposure.reduce(0, +) }
            states = analysis.states
        } catch {
            throw FixError(error.description)
        }
    }

    /// Where each policy object of a document is: the document itself, each element, or each element of `value`.
    static func policyPointers(_ value: JSONValue) -> [JSONPointer] {
        switch value {
        case .array(let array): return array.indices.filter { IntuneGraphJSON.skippedType(of: array[$0]) == nil }.map { JSONPointer([String($0)]) }
        case .object(let object):
            if object["@odata.type"] == nil, case .array(let list)? = object["value"] {
                return list.indices.filter { IntuneGraphJSON.skippedType(of: list[$0]) == nil }.map { JSONPointer(["value", String($0)]) }
            }
            return [JSONPointer([])]
        default: return []
        }
    }

    /// The paths of `scope`, the flows inside each device's zone, and each device's graph.
    static func analyze(_ fleet: IntuneFleet, scope: FixScope) throws(FleetError) -> (paths: Set<LeakPath>, flows: Set<InsideFlow>, states: [DeviceState]) {
        var paths: Set<LeakPath> = []
        var flows: Set<InsideFlow> = []
        var states: [DeviceState] = []
        let names = scope.device.map { [$0] } ?? fleet.devices.map(\.name)
        for name in names {
            let graph = IntuneGraph(try fleet.index(device: name))
            let count = graph.nodes.count
            let all = NodeSet(count: count, full: true)
            var rows: [NodeSet] = []
            for x in 0..<count { rows.append(try graph.row(x, among: all)) }
            let managed = managedNodes(graph)
            let exposure = (0..<count).map { managed.contains($0) ? Self.exposure(of: $0, graph) : 0 }
            let state = DeviceState(device: graph.index.device, graph: graph, rows: rows, exposure: exposure)
            paths.formUnion(leaks(state, rows: rows, scope: scope))
            flows.formUnion(insideFlows(graph, among: managed, changed: nil))
            states.append(state)
        }
        return (paths, flows, states)
    }

    /// The nodes of the device's policy-managed apps.
    static func managedNodes(_ graph: IntuneGraph) -> NodeSet {
        var set = NodeSet(count: graph.nodes.count)
        for x in graph.nodes.indices where !graph.index.fleet.isOutside(graph.nodes[x], on: graph.index.device) { set.insert(x) }
        return set
    }

    /// The paths of `scope` on one device, from its rows: each policy-managed source (as installed) and each node it reaches.
    package static func leaks(_ state: DeviceState, rows: [NodeSet], scope: FixScope) -> [LeakPath] {
        let graph = state.graph, fleet = graph.index.fleet, device = state.device
        var result: [LeakPath] = []
        for source in graph.index.managed {
            if let from = scope.from, (try? BundleID(from)).map({ IntuneBundleID.same(source, $0) }) != true { continue }
            guard let start = graph.position(of: source) else { continue }
            var seen = FixFlows.reachable(from: start, rows: rows)
            seen.remove(start)
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? seen.forEach { (y) throws(FleetError) in
                let node = graph.nodes[y]
                let hit = scope.to.map { ExactText.same($0, "outside") ? fleet.isOutside(node, on: device) : ExactText.same($0, node.description) } ?? fleet.isOutside(node, on: device)
                if hit { result.append(LeakPath(device: device.name, from: source.rawValue, to: node.description)) }
            }
        }
        return result
    }

    /// How many of `x`'s requests deliver to an app outside.
    package static func exposure(of x: Int, _ graph: IntuneGraph) -> Int {
        let fleet = graph.index.fleet, device = graph.index.device
        var count = 0
        for node in graph.nodes where fleet.isOutside(node, on: device) {
            for request in requests(from: graph.ids[x], to: node, on: device) {
                let decision = graph.index.decide(request)
                if decision.outcome == .allow || decision.outcome == .redirect, let to = decision.receiverApp, IntuneBundleID.same(to, id(node)) { count += 1 }
            }
        }
        return count
    }

    /// The flows between policy-managed apps (`managed`) whose `fleet matrix` cell delivers (allowed, or
    /// redirected), on every grid the matrix has (`open-url` to the receiver's first custom scheme included),
    /// each request made as the matrix makes it (``IntuneDeviceIndex/matrixRequest(_:from:to:url:)``); only
    /// those from or to a node of `changed` when given.
    static func insideFlows(_ graph: IntuneGraph, among managed: NodeSet, changed: NodeSet?) -> [InsideFlow] {
        var result: [InsideFlow] = []
        let name = graph.index.device.name
        let schemes = graph.index.matrixSchemes()
        let urls = graph.nodes.map { IntuneDeviceIndex.matrixURL(to: $0, schemes: schemes) }
        // swift-format-ignore: ReplaceForEachWithForLoop
        try? managed.forEach { (x) throws(FleetError) in
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? managed.forEach { (y) throws(FleetError) in
                guard x != y, !IntuneBundleID.same(graph.ids[x], graph.ids[y]) else { return }
                if let changed, !changed.contains(x), !changed.contains(y) { return }
                for channel in FixFlows.flowChannels {
                    guard let request = IntuneDeviceIndex.matrixRequest(channel, from: graph.ids[x], to: graph.nodes[y], url: urls[y]) else { continue }
                    if FixFlows.delivers(graph.index.decide(request).outcome) {
                        result.append(InsideFlow(device: name, from: graph.ids[x].rawValue, channel: channel.rawValue, to: graph.ids[y].rawValue))
                    }
                }
            }
        }
        return result
    }

    package static func id(_ node: FleetNode) -> BundleID {
        if case .app(let id) = node { return id }
        return BundleID.anyOtherApp
    }

    /// The requests from `from` that can deliver to `node`, as ``IntuneFleet/paths(device:from:maxHops:)`` tries them.
    package static func requests(from: BundleID, to node: FleetNode, on device: IntuneDeviceProfile) -> [FleetRequest] {
        var requests: [FleetRequest] = []
        for channel in [FleetChannel.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste] {
            if let request = try? FleetRequest(from: from, channel: channel, target: id(node), document: channel == .paste ? nil : "report.pdf") { requests.append(request) }
        }
        if case .app(let receiving) = node {
            for (scheme, handler) in device.schemeHandlers where IntuneBundleID.same(handler, receiving) && !ExactText.isOne(scheme, of: ["http", "https"]) {
                if let url = try? ShareURL(scheme == "mailto" ? "mailto:someone@example.com" : "\(scheme)://report.pdf"),
                   let request = try? FleetRequest(from: from, channel: .openURL, url: url) { requests.append(request) }
            }
            if receiving.isNativeMail, let request = try? FleetRequest(from: from, channel: .mailCompose) { requests.append(request) }
        }
        return requests
    }

    package func replacing(_ document: Int, with value: JSONValue) throws(FixError) -> IntuneFixSubject {
        var documents = self.documents
        documents[document] = FixDocument(file: documents[document].file, value: value, start: documents[document].start)
        return try reading(documents)
    }

    /// The subject of `documents` (``documents`` with one changed): its policies' files, then its assignments files.
    private func reading(_ documents: [FixDocument]) throws(FixError) -> IntuneFixSubject {
        try IntuneFixSubject(documents: Array(documents[..<policyDocuments]), assignments: Array(documents[policyDocuments...]), fleet: fleet, scope: scope)
    }

    /// Why `patched` is not a fleet to verify: the error reading every document again, with it, gives.
    package func invalidity(_ patched: JSONValue, candidate: FixCandidate) -> String {
        var documents = self.documents
        let document = documents[candidate.document]
        documents[candidate.document] = FixDocument(file: document.file, value: patched, start: document.start)
        do throws(FixError) { _ = try reading(documents) } catch {
            return "the changed file is not a fleet to verify: \(error.message)"
        }
        return "the changed file could not be verified"
    }

    /// Intune fleets have no shared graph to prune against: every candidate is verified.
    package func cannotChangePaths(_ candidate: FixCandidate) -> Bool { false }

    /// Every path, for every candidate (no cheaper bound is worked out for Intune fleets).
    package func closingBounds(_ candidates: [FixCandidate]) -> [Int] { candidates.map { _ in paths.count } }

    /// The changed document's policies read back (the others are as read), the apps of the policies that
    /// differ found, and on each device only their rows and every other app's edges to them decided again.
    package func verify(_ patched: JSONValue, candidate: FixCandidate, collateral: Bool) -> FixVerdict? {
        let document = candidate.document
        var read: [IntunePolicy]
        let positions: [Int]
        if document >= policyDocuments {
            // An assignments file: its policy as read, with the file's assignments as patched.
            guard let position = assignmentsDocument.first(where: { $0.value == document })?.key else { return nil }
            var policy = fleet.policies[position]
            do throws(FormatError) {
                policy.assignments = try IntuneGraphJSON.assignmentsFile(patched, at: documents[document].start, file: documents[document].file)
            } catch {
                return nil
            }
            (read, positions) = ([policy], [position])
        } else {
            do throws(FormatError) { read = try IntuneGraphJSON.read(patched, at: documents[document].start) } catch { return nil }
            positions = locations.indices.filter { locations[$0].document == document }
        }
        if let resolution = fleet.appGroupResolution {
            do throws(FleetError) {
                for index in read.indices {
                    try IntuneAppGroups.resolve(&read[index], groups: resolution.groups, apps: resolution.devicesFile ? fleet.apps : nil, file: fleet.file)
                }
            } catch {
                return nil
            }
        }
        guard read.count == positions.count else { return nil }
        var changed = fleet
        var touched: Set<String> = []
        var apps: [BundleID] = []
        for (policy, position) in zip(read, positions) where policy != fleet.policies[position] {
            changed.policies[position] = policy
            for app in fleet.policies[position].apps {
                touched.insert(app.rawValue)
                apps.append(app)
            }
            apps += policy.apps
        }
        do throws(FleetError) { try changed.checkConflicts() } catch { return nil }
        var verdict = FixVerdict(paths: [], collateral: [], touched: touched, exposure: 0)
        for state in states {
            let count = state.graph.nodes.count
            guard let index = try? IntuneDeviceIndex(fleet: changed, device: state.device) else { return nil }
            let graph = IntuneGraph(index)
            // The nodes whose policy may differ: the apps of the changed policies.
            var changedNodes = NodeSet(count: count)
            for app in apps { if let x = graph.position(of: app) { changedNodes.insert(x) } }
            var receivers: [Int] = []
            // swift-format-ignore: ReplaceForEachWithForLoop
            try? changedNodes.forEach { (y) throws(FleetError) in receivers.append(y) }
            guard graph.nodes == state.graph.nodes else { return nil }
            if graph.index.managed != state.graph.index.managed {
                // A policy now reaches an app none reached (an assignment widened, IntuneAssignmentFixes.swift): every app's
                // context names the managed apps, so every row is decided again. A zone that loses an app is not verified:
                // that app would be unprotected, which is no path closed.
                guard let widened = Self.widened(state, graph, scope: scope, collateral: collateral) else { return nil }
                verdict.paths.formUnion(widened.paths)
                verdict.exposure += widened.exposure
                verdict.collateral.formUnion(widened.blocked)
                verdict.allowed.formUnion(widened.allowed)
                continue
            }
            var rows = state.rows
            var exposure = state.exposure
            do throws(FleetError) {
                let all = NodeSet(count: count, full: true)
                for x in 0..<count {
                    if changedNodes.contains(x) {
                        rows[x] = try graph.row(x, among: all)
                        exposure[x] = graph.index.fleet.isOutside(graph.nodes[x], on: state.device) ? 0 : Self.exposure(of: x, graph)
                    } else {
                        for y in receivers where y != x {
                            if try graph.hop(from: x, to: y) != nil { rows[x].insert(y) } else { rows[x].remove(y) }
                        }
                    }
                }
            } catch {
                return nil
            }
            verdict.paths.formUnion(Self.leaks(state, rows: rows, scope: scope))
            verdict.exposure += exposure.reduce(0, +)
            if collateral, !receivers.isEmpty {
                // The zone as it was: the apps a policy managed before the change.
                let managed = Self.managedNodes(state.graph)
                let before = Set(Self.insideFlows(state.graph, among: managed, changed: changedNodes))
                let after = Set(Self.insideFlows(graph, among: managed, changed: changedNodes))
                verdict.collateral.formUnion(before.subtracting(after))
                verdict.allowed.formUnion(after.subtracting(before))
            }
        }
        return verdict
    }

    /// One device whose zone of trust grew under a change (`graph`, the device as changed): its paths, exposure and
    /// inside flows (of the zone as it was) decided again in full; `nil` when an app left the zone.
    static func widened(_ state: DeviceState, _ graph: IntuneGraph, scope: FixScope, collateral: Bool)
        -> (paths: [LeakPath], exposure: Int, blocked: Set<InsideFlow>, allowed: Set<InsideFlow>)? {
        let now = Set(graph.index.managed.map(IntuneBundleID.key))
        guard state.graph.index.managed.allSatisfy({ now.contains(IntuneBundleID.key($0)) }) else { return nil }
        let count = graph.nodes.count
        let all = NodeSet(count: count, full: true)
        var rows: [NodeSet] = []
        do throws(FleetError) { for x in 0..<count { rows.append(try graph.row(x, among: all)) } } catch { return nil }
        let managed = managedNodes(graph)
        let exposure = (0..<count).map { managed.contains($0) ? Self.exposure(of: $0, graph) : 0 }
        let paths = leaks(DeviceState(device: state.device, graph: graph, rows: rows, exposure: exposure), rows: rows, scope: scope)
        guard collateral else { return (paths, exposure.reduce(0, +), [], []) }
        let zone = managedNodes(state.graph)
        let before = Set(insideFlows(state.graph, among: zone, changed: nil)), after = Set(insideFlows(graph, among: zone, changed: nil))
        return (paths, exposure.reduce(0, +), before.subtracting(after), after.subtracting(before))
    }

    package func candidates() -> [FixCandidate] {
        var result: [FixCandidate] = []
        for (index, policy) in fleet.policies.enumerated() {
            let (document, base) = locations[index]
            guard case .object(let object) = JSONPatch.value(at: base, in: documents[document].value) ?? .null else { continue }
            let owner = "policy \(JSONWriter.quoted(policy.displayName))"
            func set(_ key: String, _ value: JSONValue, _ change: String) {
                let pointer = base.appending(key)
                result.append(FixCandidate(change: change, document: document, patch: [object[key] == nil ? .add(pointer, value) : .replace(pointer, value)]))
            }
            if policy.send == .allApps {
                set("allowedOutboundDataTransferDestinations", .string("managedApps"), "Set Send org data to other apps (allowedOutboundDataTransferDestinations) of \(owner) from allApps to managedApps.")
            }
            if policy.send != .none {
                // Open-In/Share filtering applies only with managedApps: Graph refuses it beside none.
                let pointer = base.appending("allowedOutboundDataTransferDestinations")
                var patch: [JSONPatchOperation] = [object["allowedOutboundDataTransferDestinations"] == nil ? .add(pointer, .string("none")) : .replace(pointer, .string("none"))]
                if policy.filterOpenInToOnlyManagedApps { patch.append(.replace(base.appending("filterOpenInToOnlyManagedApps"), .bool(false))) }
                // OS sharing likewise (Graph allows it only with managedApps).
                if policy.disableProtectionOfManagedOutboundOpenInData { patch.append(.replace(base.appending("disableProtectionOfManagedOutboundOpenInData"), .bool(false))) }
                result.append(FixCandidate(change: "Set Send org data to other apps (allowedOutboundDataTransferDestinations) of \(owner) from \(policy.send) to none.",
                                           document: document, patch: patch))
            }
            if !policy.filterOpenInToOnlyManagedApps, policy.send == .managedApps, !policy.disableProtectionOfManagedOutboundOpenInData {
                set("filterOpenInToOnlyManagedApps", .bool(true), "Turn on Open-In/Share filtering (filterOpenInToOnlyManagedApps) in \(owner).")
            }
            if policy.receive == .allApps {
                set("allowedInboundDataTransferSources", .string("managedApps"), "Set Receive data from other apps (allowedInboundDataTransferSources) of \(owner) from allApps to managedApps.")
            }
            let clipboard: [IntuneClipboardLevel] = switch policy.clipboard {
            case .allApps: [.managedAppsWithPasteIn, .managedApps, .blocked]
            case .managedAppsWithPasteIn: [.managedApps, .blocked]
            case .managedApps: [.blocked]
            case .blocked: []
            }
            for level in clipboard {
                set("allowedOutboundClipboardSharingLevel", .string(level.rawValue), "Set the clipboard level (allowedOutboundClipboardSharingLevel) of \(owner) from \(policy.clipboard) to \(level).")
            }
            if !policy.managedBrowserRequired {
                set("managedBrowserToOpenLinksRequired", .bool(true), "Require the managed browser to open web links (managedBrowserToOpenLinksRequired) in \(owner).")
            }
            for key in ["exemptedAppProtocols", "exemptedUniversalLinks"] {
                guard case .array(let list)? = object[key] else { continue }
                // Each exemption of schemes read as the reader takes it ("tel;skype;…", as Microsoft's templates write it:
                // spaces and a "://" dropped, letters lowercased), and where each scheme is exempted, so that a fix names the
                // one scheme that lets a hop through and removes it from every exemption that holds it (its value written
                // again without it, or the exemption removed when it held nothing else).
                var pieces: [[Substring]?] = [], schemes: [[String?]] = [], distinct: [[String]] = []
                var exempting: [ExactKey: [Int]] = [:]
                for (position, entry) in list.enumerated() {
                    guard key == "exemptedAppProtocols", case .object(let pair) = entry, case .string(let value)? = pair["value"] else {
                        pieces.append(nil)
                        schemes.append([])
                        distinct.append([])
                        continue
                    }
                    let parts = value.split(separator: ";", omittingEmptySubsequences: false)
                    let read: [String?] = parts.map { piece in
                        var scheme = Substring(piece).trimmingSpaces
                        if scheme.hasSuffix("://") { scheme = scheme.dropLast(3) }
                        return scheme.isEmpty ? nil : (try? URLScheme.normalize(String(scheme))) ?? String(scheme)
                    }
                    var once: [String] = [], seen: Set<ExactKey> = []
                    for case let scheme? in read where seen.insert(ExactKey(scheme)).inserted {
                        once.append(scheme)
                        exempting[ExactKey(scheme), default: []].append(position)
                    }
                    pieces.append(parts)
                    schemes.append(read)
                    distinct.append(once)
                }
                func label(_ position: Int) -> String {
                    if case .object(let pair) = list[position], case .string(let name)? = pair["name"] { return name }
                    return "entry \(position)"
                }
                for (position, entry) in list.enumerated() {
                    let held = distinct[position]
                    // A scheme exempted once, alone in its exemption: the exemption removed, as any other entry.
                    if pieces[position] != nil, !held.isEmpty, held.count > 1 || exempting[ExactKey(held[0])]!.count > 1 {
                        for scheme in held {
                            let positions = exempting[ExactKey(scheme)]!
                            guard positions[0] == position else { continue }  // named with the first exemption that holds it
                            var patch: [JSONPatchOperation] = []
                            for at in positions.reversed() {
                                let pointer = base.appending(key).appending(at)
                                if distinct[at].count == 1 {
                                    patch.append(.remove(pointer))
                                } else {
                                    let rest = zip(pieces[at]!, schemes[at]).filter { $0.1.map { !ExactText.same($0, scheme) } ?? true }.map(\.0)
                                    patch.append(.replace(pointer.appending("value"), .string(rest.joined(separator: ";"))))
                                }
                            }
                            let names = positions.map { JSONWriter.quoted(label($0)) }
                            let within = positions.count == 1 ? "the exemption \(names[0])" : "the exemptions \(names.joined(separator: " and "))"
                            result.append(FixCandidate(change: "Remove the exempted scheme \(JSONWriter.quoted(scheme)) from \(key) of \(owner) (\(within)).",
                                                       document: document, patch: patch))
                        }
                        continue
                    }
                    let shown: String = switch entry {
                    case .string(let text): text
                    case .object(let pair): { if case .string(let text)? = pair["value"] { text } else { "entry \(position)" } }()
                    default: "entry \(position)"
                    }
                    let what = key == "exemptedAppProtocols" ? "the exempted scheme" : "the exempted universal link"
                    result.append(FixCandidate(change: "Remove \(what) \(JSONWriter.quoted(shown)) from \(key) of \(owner).", document: document,
                                               patch: [.remove(base.appending(key).appending(position))]))
                }
            }
        }
        // Then the changes of who a policy reaches (IntuneAssignmentFixes.swift).
        return result + assignmentCandidates()
    }
}

extension JSONPatch {
    /// The value `pointer` names in `document`, if it is there.
    package static func value(at pointer: JSONPointer, in document: JSONValue) -> JSONValue? {
        var value = document
        for token in pointer.tokens {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let array):
                guard let index = JSONPointer.index(token), index < array.count else { return nil }
                value = array[index]
            default:
                return nil
            }
        }
        return value
    }
}
