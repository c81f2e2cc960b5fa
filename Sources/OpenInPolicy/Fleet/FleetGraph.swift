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

/// A device's graph, worked out as a search needs it: each node's sender evaluator, the requests
/// every sender makes (the same for all senders), and each node's out-edges among the nodes asked about.
///
/// An edge X → Y exists when some request of ``FleetDevice/candidateRequests(from:)`` from X delivers
/// to Y end to end. For the requests that name a target, the sender's rules read the target only
/// through whether its policy lists it and whether it is one of the device's AppConnect apps (the
/// prepared policy's two questions), so X's decision is made once per channel and kind of target and
/// reused for every target of that kind; the receiver's Open From is then asked per target. The
/// reference model in the tests decides every request instead, and must agree.
final class FleetGraph {
    let device: FleetDevice
    let nodes: [FleetNode]
    let ids: [BundleID]
    let index: [BundleID: Int]
    let authorized: [Bool]
    /// Per node as target, its request on each targeted channel (``targetedChannels``).
    let targeted: [[ShareRequest]]
    /// The requests that name no target: `open-url` with each custom scheme, `mailto:`, `mail-link`, `mail-compose`;
    /// for a custom scheme, the node of its handler (the only app such a request can deliver to).
    let untargeted: [(channel: FleetChannel, request: ShareRequest, handler: Int?)]
    private var evaluators: [(EffectivePolicy, Evaluator)?]

    static let targetedChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste]

    init(_ device: FleetDevice) {
        self.device = device
        nodes = device.nodes
        ids = nodes.map(device.bundleID(of:))
        var index: [BundleID: Int] = [:]
        for (position, id) in ids.enumerated() { index[id] = position }
        self.index = index
        authorized = ids.map(device.appConnectApps.contains)
        targeted = ids.map { target in
            FleetGraph.targetedChannels.map { try! ShareRequest(channel: $0.senderChannel, target: target, document: FleetDevice.documentName) }
        }
        untargeted = device.untargetedRequests(from: device.anyOtherAppID).map { request in
            guard let url = request.url, !url.isMailto else { return (request.channel, request.senderRequest, nil) }
            // Where a delivery to the handler lands (-1: nowhere on the device).
            let landing = device.facts.handler(forScheme: url.scheme).flatMap(device.node(receiving:)).flatMap { index[device.bundleID(of: $0)] }
            return (request.channel, request.senderRequest, landing ?? -1)
        }
        evaluators = Array(repeating: nil, count: ids.count)
    }

    func evaluator(_ node: Int) -> (EffectivePolicy, Evaluator) {
        if let known = evaluators[node] { return known }
        let made = device.evaluator(for: ids[node])
        evaluators[node] = made
        return made
    }

    /// The node a delivery to `id` lands on (``FleetDevice/node(receiving:)``), as an index.
    func landing(_ id: BundleID) -> Int? {
        guard let node = device.node(receiving: id) else { return nil }
        return index[device.bundleID(of: node)]
    }

    /// The nodes among `candidates` that `x` delivers to.
    /// - Throws: ``FleetError`` when a policy that must decide lacks a control, as ``FleetDevice/decide(_:)`` does.
    func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet {
        let (senderPolicy, sender) = evaluator(x)
        let from = ids[x]
        let probe = try! FleetRequest(from: from, channel: .paste, target: from)
        for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] {
            try device.check(senderPolicy, needs: channel.control, for: probe)
        }
        if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil {
            _ = try device.decide(probe)  // throws the same error as any paste from this app
        }
        let openFrom = try! ShareRequest(channel: .openFrom, source: from)
        func receiverAllows(_ y: Int) throws(FleetError) -> Bool {
            let (receiverPolicy, receiver) = evaluator(y)
            try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: from, channel: .documentInteraction, target: ids[y]))
            return receiver.decide(openFrom).outcome == .allow
        }
        var result = NodeSet(count: ids.count)
        // Per kind of target (listed?, AppConnect app?), which targeted channels deliver: decided once.
        var kinds: [UInt8?] = [nil, nil, nil, nil]
        let prepared = sender.prepared
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
                    let outcome = sender.decide(request).outcome
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
        for (_, request, handler) in untargeted {
            // A custom scheme's request delivers to its handler or to no one: skip it when that node is not asked about.
            if let handler, handler < 0 || !candidates.contains(handler) || result.contains(handler) { continue }
            let decision = sender.decide(request)
            guard decision.outcome == .allow || decision.outcome == .redirect, let target = decision.target,
                  let y = landing(target), y != x, candidates.contains(y), !result.contains(y) else { continue }
            if !authorized[y] {
                result.insert(y)
            } else if try receiverAllows(y) {
                result.insert(y)
            }
        }
        return result
    }

    /// Breadth-first search from `start` over rows worked out among the nodes not yet reached.
    func reach(from start: Int, maxHops: Int?) throws(FleetError) -> FleetReach {
        var distance = [Int32](repeating: -1, count: ids.count)
        var predecessor = [Int32](repeating: -1, count: ids.count)
        var unreached = NodeSet(count: ids.count, full: true)
        unreached.remove(start)
        var order: [Int32] = []
        var frontier = [start]
        var depth: Int32 = 0
        while !frontier.isEmpty, !unreached.isEmpty, maxHops.map({ Int(depth) < $0 }) ?? true {
            var next: [Int] = []
            for x in frontier {
                let reached = try row(x, among: unreached)
                // The bit set's own forEach (typed throws), not a Sequence's.
                // swift-format-ignore: ReplaceForEachWithForLoop
                try reached.forEach { (y) throws(FleetError) in
                    unreached.remove(y)
                    distance[y] = depth + 1
                    predecessor[y] = Int32(x)
                    order.append(Int32(y))
                    next.append(y)
                }
                if unreached.isEmpty { break }
            }
            frontier = next
            depth += 1
        }
        return FleetReach(from: ids[start], nodes: nodes, distance: distance, predecessor: predecessor, order: order)
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
        guard isInstalled(app), let start = graph.index[app] else {
            let none = [Int32](repeating: -1, count: graph.ids.count)
            return FleetReach(from: app, nodes: graph.nodes, distance: none, predecessor: none, order: [])
        }
        return try graph.reach(from: start, maxHops: maxHops)
    }

    /// Where each installed fleet app's documents can end up on this device: the full graph once
    /// (every node's row, N² target checks), then a breadth-first search over bit sets per app.
    /// - Complexity: O(N² + N × channels) decisions for the graph, then O(N × N²/64) word operations for all searches.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func reachAll(maxHops: Int? = nil) throws(FleetError) -> [FleetReach] {
        let graph = FleetGraph(self)
        let all = NodeSet(count: graph.ids.count, full: true)
        var rows: [NodeSet] = []
        rows.reserveCapacity(graph.ids.count)
        for x in graph.ids.indices { rows.append(try graph.row(x, among: all)) }
        var result: [FleetReach] = []
        for app in fleet.apps where isInstalled(app.bundleID) {
            guard let start = graph.index[app.bundleID] else { continue }
            var distance = [Int32](repeating: -1, count: graph.ids.count)
            var predecessor = [Int32](repeating: -1, count: graph.ids.count)
            var seen = NodeSet(count: graph.ids.count)
            seen.insert(start)
            var order: [Int32] = []
            var frontier = [start]
            var depth: Int32 = 0
            while !frontier.isEmpty, maxHops.map({ Int(depth) < $0 }) ?? true {
                var next: [Int] = []
                for x in frontier {
                    for w in rows[x].words.indices {
                        var fresh = rows[x].words[w] & ~seen.words[w]
                        guard fresh != 0 else { continue }
                        seen.words[w] |= fresh
                        while fresh != 0 {
                            let y = w << 6 | fresh.trailingZeroBitCount
                            fresh &= fresh - 1
                            distance[y] = depth + 1
                            predecessor[y] = Int32(x)
                            order.append(Int32(y))
                            next.append(y)
                        }
                    }
                }
                frontier = next
                depth += 1
            }
            result.append(FleetReach(from: app.bundleID, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: order))
        }
        return result
    }

    /// The hop from `from` to `to`: the first candidate request of `from` (``candidateRequests(from:)``
    /// order) that delivers to `to`, with its decision.
    func hop(from: FleetNode, to: FleetNode, untargeted: Untargeted) throws(FleetError) -> FleetHop? {
        let sender = bundleID(of: from), target = bundleID(of: to)
        // In candidate order: the targeted channels to `to`, then the untargeted requests that can reach it (a custom
        // scheme's only its handler; the mail requests any node), each made only when the one before did not deliver.
        for channel in FleetGraph.targetedChannels {
            let request = FleetRequest(from: sender, channel: channel,
                                       checked: try! ShareRequest(channel: channel.senderChannel, target: target, document: FleetDevice.documentName))
            let decision = try decide(request)
            if decision.delivers, let receiving = decision.receiverApp, node(receiving: receiving) == to { return FleetHop(from: from, to: to, decision: decision) }
        }
        let relevant = ((untargeted.byLanding[to] ?? []) + untargeted.mail).sorted()
        for position in relevant {
            let template = untargeted.requests[position]
            let decision = try decide(FleetRequest(from: sender, channel: template.channel, checked: template.senderRequest))
            if decision.delivers, let receiving = decision.receiverApp, node(receiving: receiving) == to { return FleetHop(from: from, to: to, decision: decision) }
        }
        return nil
    }

    /// The requests that name no target, by the node each can deliver to (a custom scheme's handler), or any (`mail`).
    struct Untargeted {
        let requests: [FleetRequest]
        let byLanding: [FleetNode: [Int]]
        let mail: [Int]

        init(_ device: FleetDevice) {
            requests = device.untargetedRequests(from: device.anyOtherAppID)
            var byLanding: [FleetNode: [Int]] = [:], mail: [Int] = []
            for (position, request) in requests.enumerated() {
                if let url = request.url, !url.isMailto {
                    if let landing = device.facts.handler(forScheme: url.scheme).flatMap(device.node(receiving:)) { byLanding[landing, default: []].append(position) }
                } else {
                    mail.append(position)
                }
            }
            self.byLanding = byLanding
            self.mail = mail
        }
    }

    /// The shortest chains of a search's result, with the decision of every hop.
    public func paths(_ reach: FleetReach) throws(FleetError) -> [FleetPath] {
        var hopCache: [Int: FleetHop] = [:]
        var paths: [FleetPath] = []
        // The requests that name no target, the same from every sender (``candidateRequests(from:)``'s last ones).
        let untargeted = Untargeted(self)
        for node in reach.order {
            var chain: [FleetHop] = []
            var current = Int(node)
            while reach.predecessor[current] >= 0 {
                let before = Int(reach.predecessor[current])
                if hopCache[current] == nil {
                    guard let hop = try hop(from: reach.nodes[before], to: reach.nodes[current], untargeted: untargeted) else {
                        preconditionFailure("the search found an edge \(reach.nodes[before]) → \(reach.nodes[current]) that no request makes")
                    }
                    hopCache[current] = hop
                }
                chain.append(hopCache[current]!)
                current = before
            }
            paths.append(FleetPath(to: reach.nodes[Int(node)], hops: chain.reversed()))
        }
        return paths
    }
}
