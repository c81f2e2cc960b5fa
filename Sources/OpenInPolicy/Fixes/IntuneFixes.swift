/// `fleet fixes` on Intune app protection policies (a file or a folder of exports): the candidate
/// changes of one data-transfer setting of one policy, each patch against the file that holds it.
///
/// Verification decides the fleet again with the changed policy (Intune fleets here are tens of
/// apps; ``IntuneFleet/paths(device:from:maxHops:)`` has no shared graph).
package struct IntuneFixSubject: FixSubject {
    package let documents: [FixDocument]
    package let paths: Set<LeakPath>
    package let exposure: Int
    let fleet: IntuneFleet
    let scope: FixScope
    /// Per policy of the fleet, in order: its document and the pointer to its object there.
    let locations: [(document: Int, pointer: JSONPointer)]
    /// Per device in scope, the inside flows before any change.
    let flows: Set<InsideFlow>

    /// The policies at `path` (a file or a folder, read as ``IntuneGraphJSON/read(path:)`` reads it) with `fleet`'s apps and devices.
    package init(path: String, fleet: IntuneFleet, scope: FixScope) throws(FixError) {
        var documents: [FixDocument] = []
        if let files = DecisionTables.subpaths(of: path) {
            for relative in files.filter({ $0.hasSuffix(".json") }).sorted() {
                let file = (path.hasSuffix("/") ? path : path + "/") + relative
                documents.append(try IntuneFixSubject.readDocument(file))
            }
        } else {
            documents.append(try IntuneFixSubject.readDocument(path))
        }
        var kept: [FixDocument] = []
        for document in documents {
            if let type = IntuneGraphJSON.odataType(of: JSONCursor(document.value)),
               IntuneGraphJSON.otherPlatformTypes.contains(where: { ExactText.same($0, type) }) { continue }
            kept.append(document)
        }
        try self.init(documents: kept, fleet: fleet, scope: scope)
    }

    static func readDocument(_ file: String) throws(FixError) -> FixDocument {
        let bytes: [UInt8]
        do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "Intune export") } catch { throw FixError(error.message) }
        do throws(FormatError) { return try FixDocuments.read(bytes, file: file) } catch { throw FixError(error.description) }
    }

    package init(documents: [FixDocument], fleet: IntuneFleet, scope: FixScope) throws(FixError) {
        self.documents = documents
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
        var fleet = fleet
        fleet.policies = policies
        self.fleet = fleet
        self.locations = locations
        do throws(FleetError) {
            try fleet.checkConflicts()
            let analysis = try IntuneFixSubject.analyze(fleet, scope: scope)
            paths = analysis.paths
            flows = analysis.flows
            exposure = analysis.exposure
        } catch {
            throw FixError(error.description)
        }
    }

    /// Where each policy object of a document is: the document itself, each element, or each element of `value`.
    static func policyPointers(_ value: JSONValue) -> [JSONPointer] {
        switch value {
        case .array(let array): return array.indices.map { JSONPointer([String($0)]) }
        case .object(let object):
            if object["@odata.type"] == nil, case .array(let list)? = object["value"] { return list.indices.map { JSONPointer(["value", String($0)]) } }
            return [JSONPointer([])]
        default: return []
        }
    }

    /// The paths of `scope` and the flows inside each device's zone.
    static func analyze(_ fleet: IntuneFleet, scope: FixScope) throws(FleetError) -> (paths: Set<LeakPath>, flows: Set<InsideFlow>, exposure: Int) {
        var paths: Set<LeakPath> = []
        var flows: Set<InsideFlow> = []
        var exposure = 0
        let names = scope.device.map { [$0] } ?? fleet.devices.map(\.name)
        for name in names {
            let device = try fleet.device(named: name)
            let managed = fleet.managedApps(on: device)
            for source in managed {
                if let from = scope.from, (try? BundleID(from)).map({ IntuneBundleID.same(source, $0) }) != true { continue }
                for path in try fleet.paths(device: name, from: source) {
                    let hit = scope.to.map { ExactText.same($0, "outside") ? fleet.isOutside(path.to, on: device) : ExactText.same($0, path.to.description) } ?? fleet.isOutside(path.to, on: device)
                    if hit { paths.insert(LeakPath(device: name, from: source.rawValue, to: path.to.description)) }
                }
            }
            for x in managed {
                for node in fleet.nodes(on: device) where fleet.isOutside(node, on: device) {
                    for request in requests(from: x, to: node, on: device) {
                        let decision = try fleet.decide(device: name, request)
                        if decision.outcome == .allow || decision.outcome == .redirect, let to = decision.receiverApp, IntuneBundleID.same(to, id(node)) { exposure += 1 }
                    }
                }
                for y in managed where !IntuneBundleID.same(x, y) {
                    for channel in AppConnectFixSubject.flowChannels {
                        guard let request = try? FleetRequest(from: x, channel: channel, target: y, document: channel == .paste ? nil : "report.pdf") else { continue }
                        let decision = try fleet.decide(device: name, request)
                        if decision.outcome == .allow || decision.outcome == .redirect, let to = decision.receiverApp, IntuneBundleID.same(to, y) {
                            flows.insert(InsideFlow(device: name, from: x.rawValue, channel: channel.rawValue, to: y.rawValue))
                        }
                    }
                }
            }
        }
        return (paths, flows, exposure)
    }

    static func id(_ node: FleetNode) -> BundleID {
        if case .app(let id) = node { return id }
        return CrossVendorDiff.anyOtherApp
    }

    /// The requests from `from` that can deliver to `node`, as ``IntuneFleet/paths(device:from:maxHops:)`` tries them.
    static func requests(from: BundleID, to node: FleetNode, on device: IntuneDeviceProfile) -> [FleetRequest] {
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
        return try IntuneFixSubject(documents: documents, fleet: fleet, scope: scope)
    }

    /// Intune fleets have no shared graph to prune against: every candidate is verified.
    package func cannotChangePaths(_ candidate: FixCandidate) -> Bool { false }

    /// Every path, for every candidate (no cheaper bound is worked out for Intune fleets).
    package func closingBounds(_ candidates: [FixCandidate]) -> [Int] { candidates.map { _ in paths.count } }

    package func verify(_ patched: JSONValue, candidate: FixCandidate, collateral: Bool) -> FixVerdict? {
        let document = candidate.document
        var documents = self.documents
        documents[document] = FixDocument(file: documents[document].file, value: patched, start: documents[document].start)
        guard let changed = try? IntuneFixSubject(documents: documents, fleet: fleet, scope: scope) else { return nil }
        var touched: Set<String> = []
        for (old, new) in zip(fleet.policies, changed.fleet.policies) where old != new {
            for app in old.apps { touched.insert(app.rawValue) }
        }
        return FixVerdict(paths: changed.paths, collateral: flows.subtracting(changed.flows), touched: touched, exposure: changed.exposure)
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
                for (position, entry) in list.enumerated() {
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
        return result
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
