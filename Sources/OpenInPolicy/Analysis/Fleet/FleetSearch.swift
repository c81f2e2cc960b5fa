/// A device's graph as the searches see it, whichever vendor supplies it: its nodes, each node's
/// out-edges among a set of candidates, and the hop (the first delivering request, decided) of an edge.
/// AppConnect's (`FleetGraph`) decides a sender once per channel and kind of target; Intune's
/// (`IntuneGraph`) decides every candidate request.
protocol FleetEdges: AnyObject, Sendable {
    /// The device's nodes, in order.
    var nodes: [FleetNode] { get }
    /// The nodes among `candidates` that node `x` delivers to.
    func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet
    /// The hop from `x` to `y`, decided; `nil` when no request delivers there.
    func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop?
}

/// Per node, the nodes with an edge into it, among the nodes a search asks about (shared by the
/// searches of one graph; a class, so a search result holds a reference).
final class FleetColumns: Sendable {
    let columns: [NodeSet]

    init(_ columns: [NodeSet]) { self.columns = columns }

    /// The columns of `rows` (node `x`'s out-edges), restricted to the rows given.
    convenience init(rows: [(x: Int, row: NodeSet)], count: Int) {
        var columns = [NodeSet](repeating: NodeSet(count: count), count: count)
        for (x, row) in rows {
            for (w, word) in row.words.enumerated() {
                var bits = word
                while bits != 0 {
                    columns[w << 6 | bits.trailingZeroBitCount].insert(x)
                    bits &= bits - 1
                }
            }
        }
        self.init(columns)
    }
}

/// The breadth-first searches, written once on ``FleetEdges``.
enum FleetSearch {
    /// Breadth-first search from `start` (`nil`: the app is not on the device; nothing is reached)
    /// over rows worked out among the nodes not yet reached; then, for ``FleetPath/deliveredBy``,
    /// each reached node's row among the nodes reached.
    static func reach(_ graph: any FleetEdges, from start: Int?, app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach {
        let count = graph.nodes.count
        var distance = [Int32](repeating: -1, count: count)
        var predecessor = [Int32](repeating: -1, count: count)
        guard let start else {
            return FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: [], graph: graph, columns: nil, origin: nil)
        }
        var unreached = NodeSet(count: count, full: true)
        unreached.remove(start)
        var order: [Int32] = []
        var frontier = [start]
        var depth: Int32 = 0
        while !frontier.isEmpty, !unreached.isEmpty, maxHops.map({ Int(depth) < $0 }) ?? true {
            var next: [Int] = []
            for x in frontier {
                let reached = try graph.row(x, among: unreached)
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
        var reachedSet = NodeSet(count: count)
        for y in order { reachedSet.insert(Int(y)) }
        var origin = reachedSet
        origin.insert(start)
        var rows: [(x: Int, row: NodeSet)] = []
        for x in [start] + order.map(Int.init) { rows.append((x, try graph.row(x, among: reachedSet))) }
        return FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: order, graph: graph,
                          columns: FleetColumns(rows: rows, count: count), origin: origin)
    }

    /// Every start's search over the full graph: every node's row once, then a breadth-first search
    /// over bit sets per start.
    static func reachAll(_ graph: any FleetEdges, starts: [(index: Int, app: BundleID)], maxHops: Int?) throws(FleetError) -> [FleetReach] {
        let count = graph.nodes.count
        let all = NodeSet(count: count, full: true)
        var rows: [NodeSet] = []
        rows.reserveCapacity(count)
        for x in 0..<count { rows.append(try graph.row(x, among: all)) }
        let columns = FleetColumns(rows: rows.enumerated().map { ($0.offset, $0.element) }, count: count)
        var result: [FleetReach] = []
        for (start, app) in starts {
            var distance = [Int32](repeating: -1, count: count)
            var predecessor = [Int32](repeating: -1, count: count)
            var seen = NodeSet(count: count)
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
            result.append(FleetReach(from: app, nodes: graph.nodes, distance: distance,
                                     predecessor: predecessor, order: order, graph: graph, columns: columns, origin: seen))
        }
        return result
    }

    /// The shortest chains of a search's result, each hop decided once (chains share their hops),
    /// with each destination's direct deliverers among the nodes reached.
    static func paths(_ reach: FleetReach, on graph: any FleetEdges) throws(FleetError) -> [FleetPath] {
        let nodes = graph.nodes
        var chains = [[FleetHop]](repeating: [], count: nodes.count)
        var paths: [FleetPath] = []
        paths.reserveCapacity(reach.order.count)
        for node in reach.order {
            let current = Int(node), before = Int(reach.predecessor[current])
            guard let hop = try graph.hop(from: before, to: current) else {
                preconditionFailure("the search found an edge \(nodes[before]) → \(nodes[current]) that no request makes")
            }
            // Breadth first: the predecessor's chain is made (or it is the start, whose chain is empty).
            var chain = chains[before]
            chain.append(hop)
            chains[current] = chain
            var deliveredBy: [FleetNode] = []
            var deliveredByCount = 0
            if let columns = reach.columns, let origin = reach.origin {
                let column = columns.columns[current]
                for w in column.words.indices {
                    var bits = column.words[w] & origin.words[w]
                    deliveredByCount += bits.nonzeroBitCount
                    while bits != 0, deliveredBy.count < FleetPath.deliveredByLimit {
                        deliveredBy.append(nodes[w << 6 | bits.trailingZeroBitCount])
                        bits &= bits - 1
                    }
                }
            } else {
                deliveredBy = [hop.from]
                deliveredByCount = 1
            }
            paths.append(FleetPath(to: nodes[current], hops: chain, deliveredBy: deliveredBy, deliveredByCount: deliveredByCount))
        }
        return paths
    }
}
