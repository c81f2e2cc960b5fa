/// Which nodes one app's documents reach on a device, and how far: a breadth-first search's result
/// (``FleetDevice/reach(from:maxHops:)``), without the decisions along the way (``FleetDevice/paths(from:maxHops:)`` adds them).
public struct FleetReach: Sendable {
    /// The starting app.
    public let from: BundleID
    /// The device's nodes (``FleetDevice/nodes``).
    public let nodes: [FleetNode]
    /// Per node, the hops from the start (`-1`: not reached; the start itself is `-1`).
    let distance: [Int32]
    /// Per node, the node before it on its shortest chain (`-1`: none).
    let predecessor: [Int32]
    /// The reached nodes' indices, in the order reached.
    let order: [Int32]
    /// The graph the search ran on (its device's), for ``FleetDevice/paths(_:)`` to decide the hops on.
    let graph: (any FleetEdges)?
    /// Who delivers to whom among the nodes reached (and the start): per node, the nodes with an edge into it.
    let columns: FleetColumns?
    /// The nodes reached and the start.
    let origin: NodeSet?

    /// The nodes reached, in the order reached (breadth first, each level in node order).
    public var reached: [FleetNode] { order.map { nodes[Int($0)] } }

    /// The number of hops of the shortest chain to `node`, or `nil` when it is not reached.
    public func hops(to node: FleetNode) -> Int? {
        guard let index = nodes.firstIndex(of: node), distance[index] >= 0 else { return nil }
        return Int(distance[index])
    }
}

/// A fixed-size set of node indices, as bits.
struct NodeSet {
    var words: [UInt64]

    init(count: Int, full: Bool = false) {
        words = Array(repeating: full ? ~0 : 0, count: (count + 63) / 64)
        if full, count % 64 != 0 { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

    @inline(__always) func contains(_ index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
    @inline(__always) mutating func insert(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }
    @inline(__always) mutating func remove(_ index: Int) { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Calls `body` with each index in the set, in increasing order.
    func forEach(_ body: (Int) throws(FleetError) -> Void) throws(FleetError) {
        for (w, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                try body(w << 6 | bit)
                bits &= bits - 1
            }
        }
    }
}

/// One node's out-edges in a device's graph: a bit set of N bits, or the list of the nodes when it
/// holds fewer than N / 32 of them (smaller then), so the rows of a sparse graph take O(edges).
enum GraphRow {
    case bits(NodeSet)
    case list([Int32])

    init(_ set: NodeSet, count: Int) {
        var members = 0
        for word in set.words { members += word.nonzeroBitCount }
        guard members * 32 < count else {
            self = .bits(set)
            return
        }
        var list: [Int32] = []
        list.reserveCapacity(members)
        for (w, word) in set.words.enumerated() {
            var bits = word
            while bits != 0 {
                list.append(Int32(w << 6 | bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        self = .list(list)
    }

    /// The row of the nodes in `list` (in increasing order): the list itself when it holds fewer than
    /// N / 32 of them, a bit set otherwise.
    init(list: [Int32], count: Int) {
        guard list.count * 32 >= count else {
            self = .list(list)
            return
        }
        var set = NodeSet(count: count)
        for y in list { set.insert(Int(y)) }
        self = .bits(set)
    }
}

/// A device's graph, worked out as a search needs it: each node's side (effective and prepared policy),
/// the requests every sender makes (the same for all senders), and each node's out-edges among the nodes
/// asked about. Immutable once made, so the searches of ``FleetDevice/reachAll(maxHops:)`` share it and
/// ``FleetDevice/paths(_:)`` reuses it for the hops of their results.
///
/// An edge X → Y exists when some request of ``FleetDevice/candidateRequests(from:)`` from X delivers
/// to Y end to end. For the requests that name a target, the sender's rules read the target only
/// through whether its policy lists it and whether it is one of the device's AppConnect apps (the
/// prepared policy's two questions), so X's decision is made once per channel and kind of target and
/// reused for every target of that kind; the receiver's Open From is then asked per target. The
/// reference model in the tests decides every request instead, and must agree.
final class FleetGraph: FleetEdges {
    let device: FleetDevice
    let nodes: [FleetNode]
    let ids: [BundleID]
    let index: [BundleID: Int]
    let authorized: [Bool]
    /// Per node as target, its request on each targeted channel (``targetedChannels``).
    let targeted: [[ShareRequest]]
    /// The requests that name no target: `open-url` with each custom scheme, `mailto:`, `mail-link`, `mail-compose`;
    /// for a custom scheme, the node of its handler (the only app such a request can deliver to; -1: none on the device).
    let untargeted: [(channel: FleetChannel, request: ShareRequest, handler: Int?)]
    /// Per node, the positions in ``untargeted`` of the custom schemes whose handler lands on it, in order.
    let schemesLandingOn: [[Int]]
    /// The positions in ``untargeted`` of the mail requests (`mailto:`, `mail-link`, `mail-compose`), which may land anywhere.
    let mailPositions: [Int]
    /// Per node, its effective policy and prepared policy (``FleetDevice/side(for:)``).
    let sides: [FleetSide]
    /// Per node as sender, the Open From request a receiver decides with it as source.
    let openFrom: [ShareRequest]
    /// Per node, whether a delivery to its own bundle ID lands on it (``FleetDevice/node(receiving:)``).
    let landsOnItself: [Bool]
    /// Per node, what makes its decisions throw: the controls its policy does not set (``FleetGraph/bit(_:)``),
    /// and ``FleetGraph/secureCopyUnknown`` when its paste is a secure copy on a device that does not say
    /// whether secure services are available.
    let lacks: [UInt8]

    /// The bit of `control` in ``lacks``.
    @inline(__always) static func bit(_ control: FleetControl) -> UInt8 {
        switch control {
        case .openIn: 1
        case .openFrom: 2
        case .pasteboard: 4
        case .print: 8
        case .dragAndDrop: 16
        }
    }
    static let secureCopyUnknown: UInt8 = 32

    static let targetedChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste]

    init(_ device: FleetDevice) {
        self.device = device
        nodes = device.nodes
        let ids = nodes.map(device.bundleID(of:))
        self.ids = ids
        var index: [BundleID: Int] = [:]
        for (position, id) in ids.enumerated() { index[id] = position }
        self.index = index
        authorized = ids.map(device.appConnectApps.contains)
        targeted = ids.map { target in
            FleetGraph.targetedChannels.map { try! ShareRequest(channel: $0.senderChannel!, target: target, document: FleetDevice.documentName) }
        }
        let untargeted = device.untargetedRequests(from: device.anyOtherAppID).map { request -> (channel: FleetChannel, request: ShareRequest, handler: Int?) in
            guard let url = request.url, !url.isMailto else { return (request.channel, request.senderRequest!, nil) }
            // Where a delivery to the handler lands (-1: nowhere on the device).
            let landing = device.facts.handler(forScheme: url.scheme).flatMap(device.node(receiving:)).flatMap { index[device.bundleID(of: $0)] }
            return (request.channel, request.senderRequest!, landing ?? -1)
        }
        self.untargeted = untargeted
        var schemesLandingOn = [[Int]](repeating: [], count: ids.count), mailPositions: [Int] = []
        for (position, request) in untargeted.enumerated() {
            if let handler = request.handler {
                if handler >= 0 { schemesLandingOn[handler].append(position) }
            } else {
                mailPositions.append(position)
            }
        }
        self.schemesLandingOn = schemesLandingOn
        self.mailPositions = mailPositions
        sides = ids.map(device.side(for:))
        openFrom = ids.map { try! ShareRequest(channel: .openFrom, source: $0) }
        let nodes = self.nodes
        landsOnItself = nodes.indices.map { device.node(receiving: ids[$0]) == nodes[$0] }
        lacks = sides.map { side in
            var bits: UInt8 = 0
            for control in FleetControl.allCases where side.policy.source(of: control) == .notSet { bits |= FleetGraph.bit(control) }
            if side.policy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil { bits |= FleetGraph.secureCopyUnknown }
            return bits
        }
    }

    /// The node a delivery to `id` lands on (``FleetDevice/node(receiving:)``), as an index.
    func landing(_ id: BundleID) -> Int? {
        guard let node = device.node(receiving: id) else { return nil }
        return index[device.bundleID(of: node)]
    }

    /// The nodes among `candidates` that `x` delivers to.
    /// - Throws: ``FleetError`` when a policy that must decide lacks a control, as ``FleetDevice/decide(_:)`` does.
    func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet {
        let (senderPolicy, prepared) = sides[x]
        let from = ids[x]
        let probe = try! FleetRequest(from: from, channel: .paste, target: from)
        for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] {
            try device.check(senderPolicy, needs: channel.control, for: probe, on: channel)
        }
        if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil {
            _ = try device.decide(probe)  // throws the same error as any paste from this app
        }
        let openFrom = self.openFrom[x]
        func receiverAllows(_ y: Int) throws(FleetError) -> Bool {
            let (receiverPolicy, receiver) = sides[y]
            try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: from, channel: .documentInteraction, target: ids[y]))
            return Evaluator.decide(openFrom, receiver).outcome == .allow
        }
        var result = NodeSet(count: ids.count)
        // Per kind of target (listed?, AppConnect app?), which targeted channels deliver: decided once.
        var kinds: [UInt8?] = [nil, nil, nil, nil]
        // The bit set's own forEach (typed throws), not a Sequence's.
        // swift-format-ignore: ReplaceForEachWithForLoop
        try candidates.forEach { (y) throws(FleetError) in
            guard y != x else { return }
            let kind = (prepared.lists(ids[y]) ? 2 : 0) | (prepared.isAppConnectApp(ids[y]) ? 1 : 0)
            let delivering: UInt8
            if let known = kinds[kind] {
                delivering = known
            } else {
                var bits: UInt8 = 0
                for (c, request) in targeted[y].enumerated() {
                    let outcome = Evaluator.decide(request, prepared).outcome
                    if outcome == .allow || outcome == .redirect { bits |= 1 << UInt8(c) }
                }
                kinds[kind] = bits
                delivering = bits
            }
            // Drag and drop, paste: no receiving side. The other targeted channels: the receiver's Open From.
            if delivering & 0b11_0000 != 0 {
                result.insert(y)
            } else if delivering & 0b00_1111 != 0 {
                if !authorized[y] {
                    result.insert(y)
                } else if try receiverAllows(y) {
                    result.insert(y)
                }
            }
        }
        for (channel, request, handler) in untargeted {
            // A custom scheme's request delivers to its handler or to no one: skip it when that node is not asked about.
            if let handler, handler < 0 || !candidates.contains(handler) || result.contains(handler) { continue }
            let decision = Evaluator.decide(request, prepared)
            guard let target = device.receiving(decision, channel: channel, request: request, from: from),
                  let y = landing(target), y != x, candidates.contains(y), !result.contains(y) else { continue }
            if !authorized[y] {
                result.insert(y)
            } else if try receiverAllows(y) {
                result.insert(y)
            }
        }
        return result
    }

    /// The hop from `x` to `y`: the first candidate request of `x` (``FleetDevice/candidateRequests(from:)``
    /// order) whose end-to-end decision delivers to `y`, with that decision; `nil` when none does.
    ///
    /// The requests are those of the candidate list that can land on `y` (the targeted ones to `y`, the
    /// custom schemes `y` handles, the mail requests), tried in order until one delivers; the others land
    /// elsewhere whatever they decide, so skipping them changes nothing.
    /// - Throws: ``FleetError`` as ``FleetDevice/decide(_:)``, for the requests tried.
    func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
        for (c, channel) in FleetGraph.targetedChannels.enumerated() {
            if let hop = try attempt(channel, targeted[y][c], from: x, to: y) { return hop }
        }
        // The custom schemes `y` handles come before the mail requests in ``untargeted`` (they are listed first).
        for position in schemesLandingOn[y] {
            if let hop = try attempt(untargeted[position].channel, untargeted[position].request, from: x, to: y) { return hop }
        }
        for position in mailPositions {
            if let hop = try attempt(untargeted[position].channel, untargeted[position].request, from: x, to: y) { return hop }
        }
        return nil
    }

    /// The request from `x` on `channel` (its sender's part `request`), decided end to end as
    /// ``FleetDevice/decide(_:)`` decides it, as a hop when it delivers to `y`; `nil` otherwise.
    ///
    /// The same steps, in the same order, with what they read made once per node: a request whose
    /// sender or receiver lacks a control it needs goes to ``FleetDevice/decide(_:)``, which throws;
    /// the decision record is made only for the request that delivers to `y`.
    @inline(__always)
    func attempt(_ channel: FleetChannel, _ request: ShareRequest, from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
        func full() throws(FleetError) -> FleetDecision {
            try device.decide(FleetRequest(from: ids[x], channel: channel, checked: request), sender: sides[x], openFrom: openFrom[x], receiver: side(for:))
        }
        if lacks[x] & (channel.control.map(FleetGraph.bit) ?? 0) != 0 || (channel == .paste && lacks[x] & FleetGraph.secureCopyUnknown != 0) {
            return hop(try full(), from: x, to: y)  // throws: the sender lacks what the request needs
        }
        let sender = Evaluator.decide(request, sides[x].prepared)
        guard let receiving = device.receiving(sender, channel: channel, request: request, from: ids[x]) else { return nil }
        let isY = receiving == ids[y]
        let lands = isY ? landsOnItself[y] : device.node(receiving: receiving) == nodes[y]
        guard channel.hasReceiverPart, isY ? authorized[y] : device.appConnectApps.contains(receiving) else {
            guard lands else { return nil }
            return FleetHop(from: nodes[x], to: nodes[y], decision: FleetDecision(
                device: device.name, request: FleetRequest(from: ids[x], channel: channel, checked: request), outcome: sender.outcome, sender: sender,
                receiver: nil, receiverApp: receiving, senderPolicy: sides[x].policy, receiverPolicy: nil))
        }
        let (receiverPolicy, receiverPrepared) = isY ? sides[y] : side(for: receiving)
        // Before the landing: a receiver that lacks Open From makes the request an error wherever it lands.
        if receiverPolicy.source(of: .openFrom) == .notSet { return hop(try full(), from: x, to: y) }  // throws
        guard lands else { return nil }
        let receiver = Evaluator.decide(openFrom[x], receiverPrepared)
        let outcome = receiver.outcome == .allow ? sender.outcome : receiver.outcome
        guard outcome == .allow || outcome == .redirect else { return nil }
        return FleetHop(from: nodes[x], to: nodes[y], decision: FleetDecision(
            device: device.name, request: FleetRequest(from: ids[x], channel: channel, checked: request), outcome: outcome, sender: sender,
            receiver: receiver, receiverApp: receiving, senderPolicy: sides[x].policy, receiverPolicy: receiverPolicy))
    }

    /// A node's side, by bundle ID: the graph's for its nodes, the device's otherwise.
    func side(for id: BundleID) -> FleetSide {
        if let known = index[id] { return sides[known] }
        return device.side(for: id)
    }

    /// `decision` as a hop from `x` to `y` when it delivers there.
    func hop(_ decision: FleetDecision, from x: Int, to y: Int) -> FleetHop? {
        guard decision.delivers, let receiving = decision.receiverApp, device.node(receiving: receiving) == nodes[y] else { return nil }
        return FleetHop(from: nodes[x], to: nodes[y], decision: decision)
    }

}

extension FleetDevice {
    /// Which nodes `app`'s documents reach on this device, and in how many hops: the search of
    /// ``paths(from:maxHops:)`` without the decisions along the way. An app not installed reaches nothing.
    /// - Complexity: O(N + Σ unreached candidates per visited node) target checks (each a few table
    ///   lookups, the sender's decisions made once per channel and kind of target), plus the receiver's
    ///   Open From per delivered target: at most O(N²) for N nodes, O(edges) when most nodes are reached early.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reach(from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> FleetReach {
        let graph = FleetGraph(self)
        return try FleetSearch.reach(graph, from: isInstalled(app) ? graph.index[app] : nil, app: app, maxHops: maxHops)
    }

    /// Where each installed fleet app's documents can end up on this device: the full graph once
    /// (every node's row, N² target checks), then a breadth-first search over the rows per app.
    /// - Complexity: O(N² + N × channels) decisions for the graph, then O(N × (N + edges)) for all searches.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reachAll(maxHops: Int? = nil) throws(FleetError) -> [FleetReach] {
        var result: [FleetReach] = []
        try forEachReach(maxHops: maxHops) { (reach) throws(FleetError) in result.append(reach) }
        return result
    }

    /// ``reachAll(maxHops:)`` one app at a time: `body` gets each installed fleet app's search, in file
    /// order, and may let it go before the next is made, so the searches are never held together.
    /// The graph's rows (and who delivers to whom) are kept as bit sets, or as lists when they hold few
    /// nodes: memory O(N + edges), never N² when the graph is sparse.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs (before
    ///   any search is given to `body`), or what `body` throws.
    package func forEachReach(maxHops: Int? = nil, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
        let graph = FleetGraph(self)
        let starts = fleet.apps.compactMap { app in isInstalled(app.bundleID) ? graph.index[app.bundleID].map { ($0, app.bundleID) } : nil }
        try FleetSearch.forEachReach(graph, starts: starts, maxHops: maxHops, body)
    }

    /// The shortest chains of a search's result, with the decision of every hop.
    ///
    /// Each hop is decided once, as the edge into the node it reaches (`FleetGraph.hop(from:to:)`:
    /// the first delivering candidate request of `candidateRequests(from:)`), and a chain is the
    /// chain of its node's predecessor plus that hop, so chains share their hops. A result of
    /// ``reachAll(maxHops:)`` or ``reach(from:maxHops:)`` on this device keeps the graph of its search,
    /// and its hops reuse it.
    /// - Complexity: O(N) for the graph when the result does not carry one, then per reached node O(1)
    ///   decisions (at most the 6 targeted requests, the custom schemes its node handles and the 3 mail
    ///   requests) and its chain's length.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func paths(_ reach: FleetReach) throws(FleetError) -> [FleetPath] {
        let graph: any FleetEdges
        if let kept = reach.graph as? FleetGraph, kept.device.table === table { graph = kept } else { graph = FleetGraph(self) }
        return try FleetSearch.paths(reach, on: graph)
    }
}
