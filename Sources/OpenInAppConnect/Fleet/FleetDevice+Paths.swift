import OpenInCore
import OpenInFleet
import OpenInKit

extension FleetDevice {
    /// The nodes documents can reach on this device, in order: the installed apps (as the profile
    /// lists them), native Mail (built into iOS, when the profile does not list it), and "any other app".
    public var nodes: [FleetNode] {
        var nodes = profile.installed.map(FleetNode.app)
        if !profile.installed.contains(where: \.isNativeMail) { nodes.append(.app(.mobileMail)) }
        nodes.append(.anyOtherApp)
        return nodes
    }

    /// Whether `node` is outside: not an authorized AppConnect app on this device (native Mail and
    /// "any other app" included).
    public func isOutside(_ node: FleetNode) -> Bool {
        switch node {
        case .app(let id): !appConnectApps.contains(id)
        case .anyOtherApp: true
        }
    }

    /// The bundle ID decisions use for "any other app": one no list of the fleet names.
    var anyOtherAppID: BundleID { table.anyOtherApp }

    /// The bundle ID a node's requests and decisions use.
    package func bundleID(of node: FleetNode) -> BundleID {
        switch node {
        case .app(let id): id
        case .anyOtherApp: anyOtherAppID
        }
    }

    /// The node an app a decision delivers to stands for, or `nil` when it is not on the device
    /// (an app the fleet lists but the profile does not install).
    package func node(receiving id: BundleID) -> FleetNode? {
        if id.isNativeMail { return .app(table.nativeMail) }
        if isInstalled(id) { return .app(id) }
        if id == anyOtherAppID || listedApp(id) == nil { return .anyOtherApp }
        return nil
    }

    /// The requests `node` can make that may deliver to another node, in a fixed order: for each other
    /// node, the channels that name a target (Open In's, drag and drop, paste) in ``FleetChannel`` order;
    /// then `open-url` with each custom scheme the device knows a handler for (not a web scheme: a web
    /// address is not Open In, and carries no document), `open-url` with `mailto:`, `mail-link` and `mail-compose`.
    public func candidateRequests(from node: FleetNode) -> [FleetRequest] {
        let from = bundleID(of: node)
        var requests: [FleetRequest] = []
        let targeted: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste]
        for other in nodes where other != node {
            let target = bundleID(of: other)
            for channel in targeted { requests.append(try! FleetRequest(from: from, channel: channel, target: target, document: FleetDevice.documentName)) }
        }
        return requests + untargetedRequests(from: from)
    }

    /// The requests of ``candidateRequests(from:)`` that name no target: `open-url` with each custom
    /// scheme, `open-url` with `mailto:`, `mail-link`, `mail-compose`.
    func untargetedRequests(from: BundleID) -> [FleetRequest] {
        var requests: [FleetRequest] = []
        for (scheme, _) in facts.schemeHandlers.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            where !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) {
            if let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") {
                requests.append(try! FleetRequest(from: from, channel: .openURL, url: url, document: FleetDevice.documentName))
            }
        }
        requests.append(try! FleetRequest(from: from, channel: .openURL, url: try! ShareURL("mailto:someone@example.com"), document: FleetDevice.documentName))
        requests.append(try! FleetRequest(from: from, channel: .mailLink, document: FleetDevice.documentName))
        requests.append(try! FleetRequest(from: from, channel: .mailCompose, document: FleetDevice.documentName))
        return requests
    }

    /// The document name the path finder's requests carry.
    static let documentName = "document.pdf"

    /// Every hop out of `node`: each candidate request (``candidateRequests(from:)``) whose end-to-end
    /// decision delivers to another node, first request first.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func hops(from node: FleetNode) throws(FleetError) -> [FleetHop] {
        var hops: [FleetHop] = []
        for request in candidateRequests(from: node) {
            let decision = try decide(request)
            guard decision.delivers, let receiving = decision.receiverApp, let to = self.node(receiving: receiving), to != node else { continue }
            hops.append(FleetHop(from: node, to: to, decision: decision))
        }
        return hops
    }

    /// Where `app`'s documents can end up on this device: for each node reachable in at most
    /// `maxHops` hops (every one when `nil`), the shortest chain, with each hop's decision. The search
    /// is breadth first; each level's nodes are taken in node order, and a node's chain goes through
    /// the first node of the level before that reaches it; a hop is the first candidate request
    /// (``candidateRequests(from:)`` order) that delivers. An app not installed on the device has no
    /// documents there: no paths.
    /// - Complexity: as ``reach(from:maxHops:)``, plus, per node reached, the decisions of its hop (``paths(_:)``).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func paths(from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> [FleetPath] {
        try paths(try reach(from: app, maxHops: maxHops))
    }
}
