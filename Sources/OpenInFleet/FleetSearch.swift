import OpenInCore
import OpenInKit

/// A device's graph as the searches see it, whichever vendor supplies it: its nodes, each node's
/// out-edges among a set of candidates, and the hop (the first delivering request, decided) of an edge.
/// AppConnect's (`FleetGraph`) decides a sender once per channel and kind of target; Intune's
/// (`IntuneGraph`) decides every candidate request.
package protocol FleetEdges: AnyObject, Sendable {
    /// The device's nodes, in order.
    var nodes: [FleetNode] { get }
    /// The nodes among `candidates` that node `x` delivers to.
    func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet
    /// The hop from `x` to `y`, decided; `nil` when no request delivers there.
    func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop?
    /// Whether no row or hop of the graph can throw, so a writer may decide only the hops it prints.
    var decidesWithoutError: Bool { get }
}

extension FleetEdges {
    package var decidesWithoutError: Bool { false }
}

/// Per node, the nodes with an edge into it, among the nodes a search asks about (shared by the
/// searches of one graph; a class, so a search result holds a reference). Each column is a bit set,
/// or a list when it holds few nodes, so the columns of a sparse graph take O(N + edges).
final class FleetColumns: Sendable {
    let columns: [GraphRow]
    /// Per node, when only these are kept (``init(firstOf:count:limit:)``): its first deliverers in node order,
    /// ``limit`` places per node (the first ``counts`` of them, at most ``limit``, are filled).
    let firsts: [Int32]
    /// Per node, when ``firsts`` is kept: how many nodes deliver to it.
    package let counts: [Int32]
    /// The places per node in ``firsts``.
    package let limit: Int

    /// Per node, the first `limit` nodes with an edge into it (in node order) and their number, from
    /// `rows` (node `x`'s out-edges) in one pass over them: O(N + edges) time, O(N × limit) memory.
    package init(firstOf rows: [(x: Int, row: NodeSet)], count: Int, limit: Int) {
        var firsts = [Int32](repeating: 0, count: count * limit)
        var counts = [Int32](repeating: 0, count: count)
        firsts.withUnsafeMutableBufferPointer { firsts in
            counts.withUnsafeMutableBufferPointer { counts in
                for (x, row) in rows.sorted(by: { $0.x < $1.x }) {
                    for (w, word) in row.words.enumerated() {
                        var bits = word
                        while bits != 0 {
                            let y = w << 6 | bits.trailingZeroBitCount
                            bits &= bits - 1
                            let known = Int(counts[y])
                            if known < limit { firsts[y * limit + known] = Int32(x) }
                            counts[y] = Int32(known + 1)
                        }
                    }
                }
            }
        }
        (columns, self.firsts, self.counts, self.limit) = ([], firsts, counts, limit)
    }

    /// Per node, the first `limit` nodes with an edge into it and their number, made one row at a time
    /// (``Builder/add(_:_:)``, in node order) without holding the rows: the first deliverers taken from the
    /// bits of nodes not yet full, the numbers added up as bit-sliced counters (one word of 64 nodes per
    /// step). O(N × limit + N / 64 × log N) memory, O(N / 64 × log N) per row beyond its first deliverers.
    struct Builder {
        private let count: Int, limit: Int, wordCount: Int, planeCount: Int
        private var firsts: [Int32], filled: [Int32]
        private var full: NodeSet
        /// Bit `k` of each node's count, as a set of nodes per `k`.
        private var planes: [UInt64]

        package init(count: Int, limit: Int) {
            (self.count, self.limit) = (count, limit)
            wordCount = (count + 63) / 64
            planeCount = Int.bitWidth - count.leadingZeroBitCount + 1
            firsts = [Int32](repeating: 0, count: count * limit)
            filled = [Int32](repeating: 0, count: count)
            full = NodeSet(count: count)
            planes = [UInt64](repeating: 0, count: planeCount * wordCount)
        }

        /// Node `x`'s row; rows are added in node order.
        package mutating func add(_ x: Int, _ row: NodeSet) {
            let (limit, wordCount) = (self.limit, self.wordCount)
            firsts.withUnsafeMutableBufferPointer { firsts in
                filled.withUnsafeMutableBufferPointer { filled in
                    planes.withUnsafeMutableBufferPointer { planes in
                        for w in 0..<wordCount {
                            let word = row.words[w]
                            guard word != 0 else { continue }
                            var bits = word & ~full.words[w]
                            while bits != 0 {
                                let y = w << 6 | bits.trailingZeroBitCount
                                let known = Int(filled[y])
                                firsts[y * limit + known] = Int32(x)
                                filled[y] = Int32(known + 1)
                                if known + 1 == limit { full.words[w] |= 1 << UInt64(y & 63) }
                                bits &= bits - 1
                            }
                            var carry = word, k = 0
                            while carry != 0 {
                                let i = k * wordCount + w
                                let next = planes[i] & carry
                                planes[i] ^= carry
                                carry = next
                                k += 1
                            }
                        }
                    }
                }
            }
        }

        /// The columns of the rows added.
        func columns() -> FleetColumns {
            var counts = [Int32](repeating: 0, count: count)
            for k in 0..<planeCount {
                for w in 0..<wordCount {
                    var bits = planes[k * wordCount + w]
                    while bits != 0 {
                        counts[w << 6 | bits.trailingZeroBitCount] |= Int32(1) << Int32(k)
                        bits &= bits - 1
                    }
                }
            }
            return FleetColumns(firsts: firsts, counts: counts, limit: limit)
        }
    }

    private init(firsts: [Int32], counts: [Int32], limit: Int) {
        (columns, self.firsts, self.counts, self.limit) = ([], firsts, counts, limit)
    }

    /// The columns of `rows` (node `x`'s out-edges), restricted to the rows given.
    package init(rows: [(x: Int, row: GraphRow)], count: Int) {
        var lists = [[Int32]](repeating: [], count: count)
        for (x, row) in rows.sorted(by: { $0.x < $1.x }) {
            switch row {
            case .bits(let set):
                for (w, word) in set.words.enumerated() {
                    var bits = word
                    while bits != 0 {
                        lists[w << 6 | bits.trailingZeroBitCount].append(Int32(x))
                        bits &= bits - 1
                    }
                }
            case .list(let targets):
                for y in targets { lists[Int(y)].append(Int32(x)) }
            }
        }
        var columns: [GraphRow] = []
        columns.reserveCapacity(count)
        for y in lists.indices {
            columns.append(GraphRow(list: lists[y], count: count))
            lists[y] = []
        }
        (self.columns, firsts, counts, limit) = (columns, [], [], 0)
    }
}

/// The order of a breadth-first search's levels that makes its chains independent of the order of the input.
///
/// Among the equally short chains to a node, a search keeps the first in chain order: chains compared node by node
/// from the start, a node by its key (an app's bundle ID, byte for byte; "any other app" after every app). A level is
/// searched in that order — a node's rank in its level is its predecessor's rank, then its own key — so the first node
/// of the level before that reaches a node is its predecessor, whatever order the fleet file lists apps, devices or
/// entries in. The level is listed (``FleetReach/order``) in node order. O(N log N) for the keys, once per search
/// or set of searches; O(L log L) per level of L nodes.
struct Levels {
    /// Per node, its place when the nodes are sorted by key.
    let keyRank: [Int32]
    /// The nodes sorted by key (the inverse of ``keyRank``).
    let sortedNodes: [Int32]
    /// Per node of the current and previous level, its place in chain order within its level.
    var chainRank: [Int32]

    package init(_ nodes: [FleetNode]) {
        func key(_ node: FleetNode) -> String.UTF8View? {
            if case .app(let id) = node { id.rawValue.utf8 } else { nil }
        }
        let sorted = nodes.indices.sorted { a, b in
            switch (key(nodes[a]), key(nodes[b])) {
            case (let x?, let y?): x.lexicographicallyPrecedes(y) || (x.elementsEqual(y) && a < b)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a < b
            }
        }
        var keyRank = [Int32](repeating: 0, count: nodes.count)
        for (rank, node) in sorted.enumerated() { keyRank[node] = Int32(rank) }
        self.keyRank = keyRank
        sortedNodes = sorted.map { Int32($0) }
        chainRank = [Int32](repeating: 0, count: nodes.count)
    }

    /// Puts `level` (nodes just reached, each with its predecessor) in chain order, ranks them, and adds them to
    /// `order` in node order.
    package mutating func append(level: inout [Int], predecessor: [Int32], to order: inout [Int32]) {
        guard !level.isEmpty else { return }
        // One word per node, its predecessor's rank above its own key's: sorted, the level in chain order.
        var keys: [UInt64] = []
        keys.reserveCapacity(level.count)
        for node in level {
            keys.append(UInt64(UInt32(chainRank[Int(predecessor[node])])) << 32 | UInt64(UInt32(keyRank[node])))
        }
        keys.sort()
        for (rank, key) in keys.enumerated() {
            let node = Int(sortedNodes[Int(key & 0xFFFF_FFFF)])
            level[rank] = node
            chainRank[node] = Int32(rank)
        }
        let first = order.count
        order.reserveCapacity(first + level.count)
        for node in level { order.append(Int32(node)) }
        order[first...].sort()
    }
}

/// The breadth-first searches, written once on ``FleetEdges``.
package enum FleetSearch {
    /// Breadth-first search from `start` (`nil`: the app is not on the device; nothing is reached)
    /// over rows worked out among the nodes not yet reached; then, for ``FleetPath/deliveredBy``,
    /// each reached node's row among the nodes reached.
    /// The rows a search makes at once, across the cores, when it counts who delivers to whom.
    static let rowBatch = 256

    package static func reach(_ graph: any FleetEdges, from start: Int?, app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach {
        let count = graph.nodes.count
        var distance = [Int32](repeating: -1, count: count)
        var predecessor = [Int32](repeating: -1, count: count)
        guard let start else {
            return FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: [], graph: graph, columns: nil, origin: nil)
        }
        var unreached = NodeSet(count: count, full: true)
        unreached.remove(start)
        var order: [Int32] = []
        var levels = Levels(graph.nodes)
        var frontier = [start]
        var depth: Int32 = 0
        while !frontier.isEmpty, !unreached.isEmpty, maxHops.map({ Int(depth) < $0 }) ?? true {
            var next: [Int] = []
            // The frontier in chain order, so a node's predecessor is, of those that reach it, the one whose chain
            // comes first (``Levels``).
            for x in frontier {
                let reached = try graph.row(x, among: unreached)
                // The bit set's own forEach (typed throws), not a Sequence's.
                // swift-format-ignore: ReplaceForEachWithForLoop
                try reached.forEach { (y) throws(FleetError) in
                    unreached.remove(y)
                    distance[y] = depth + 1
                    predecessor[y] = Int32(x)
                    next.append(y)
                }
                if unreached.isEmpty { break }
            }
            levels.append(level: &next, predecessor: predecessor, to: &order)
            frontier = next
            depth += 1
        }
        var reachedSet = NodeSet(count: count)
        for y in order { reachedSet.insert(Int(y)) }
        var origin = reachedSet
        origin.insert(start)
        // Who delivers to whom among the nodes reached: only each node's first deliverers and their number are kept,
        // each row added as it is made (in node order), none held.
        // Where a row may throw, they are made in the order reached (the error is the first met that way), and held.
        guard graph.decidesWithoutError else {
            var rows: [(x: Int, row: NodeSet)] = []
            for x in [start] + order.map(Int.init) { rows.append((x, try graph.row(x, among: reachedSet))) }
            return FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: order, graph: graph,
                              columns: FleetColumns(firstOf: rows, count: count, limit: FleetPath.deliveredByLimit), origin: origin)
        }
        var columns = FleetColumns.Builder(count: count, limit: FleetPath.deliveredByLimit)
        // The rows are independent: made across the cores a batch at a time (at most ``rowBatch`` held, O(batch × N) bits),
        // each batch added in node order.
        var xs: [Int] = []
        xs.reserveCapacity(order.count + 1)
        // The bit set's own forEach (typed throws), not a Sequence's.
        // swift-format-ignore: ReplaceForEachWithForLoop
        try origin.forEach { (x) throws(FleetError) in xs.append(x) }
        var first = 0
        while first < xs.count {
            let batch = xs[first..<min(xs.count, first + rowBatch)]
            let rows = try Parallel.map(batch.count, minimum: 16) { (range) throws(FleetError) in
                try range.map { (i) throws(FleetError) in try graph.row(batch[batch.startIndex + i], among: reachedSet) }
            }
            for (x, row) in zip(batch, rows) { columns.add(x, row) }
            first += batch.count
        }
        return FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: order, graph: graph,
                          columns: columns.columns(), origin: origin)
    }

    /// Every start's search over the full graph, held together (``forEachReach(_:starts:maxHops:_:)`` collected).
    static func reachAll(_ graph: any FleetEdges, starts: [(index: Int, app: BundleID)], maxHops: Int?) throws(FleetError) -> [FleetReach] {
        var result: [FleetReach] = []
        try forEachReach(graph, starts: starts, maxHops: maxHops) { (reach) throws(FleetError) in result.append(reach) }
        return result
    }

    /// Every start's search over the full graph, one at a time: every node's row once (kept as a bit
    /// set, or a list when sparse), then a breadth-first search per start, given to `body` in order;
    /// `body` may let it go before the next is made, so memory stays O(N + edges) plus one search.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs (before
    ///   any search is given to `body`), or what `body` throws.
    package static func forEachReach(
        _ graph: any FleetEdges, starts: [(index: Int, app: BundleID)], maxHops: Int?, _ body: (FleetReach) throws(FleetError) -> Void
    ) throws(FleetError) {
        let count = graph.nodes.count
        let all = NodeSet(count: count, full: true)
        // Every row, across the cores (each kept compact as it is made); the first error in node order, as one loop meets it.
        let rows = try Parallel.map(count, minimum: 64) { (range) throws(FleetError) in
            try range.map { (x) throws(FleetError) in GraphRow(try graph.row(x, among: all), count: count) }
        }
        let columns = FleetColumns(rows: rows.enumerated().map { ($0.offset, $0.element) }, count: count)
        var distance = [Int32](repeating: -1, count: count)
        var predecessor = [Int32](repeating: -1, count: count)
        var seen = NodeSet(count: count)
        var levels = Levels(graph.nodes)
        for (start, app) in starts {
            var order: [Int32] = []
            seen.insert(start)
            var frontier = [start]
            var depth: Int32 = 0
            func visit(_ y: Int, from x: Int, _ next: inout [Int]) {
                distance[y] = depth + 1
                predecessor[y] = Int32(x)
                next.append(y)
            }
            while !frontier.isEmpty, maxHops.map({ Int(depth) < $0 }) ?? true {
                var next: [Int] = []
                for x in frontier {
                    switch rows[x] {
                    case .bits(let row):
                        for w in row.words.indices {
                            var fresh = row.words[w] & ~seen.words[w]
                            guard fresh != 0 else { continue }
                            seen.words[w] |= fresh
                            while fresh != 0 {
                                let y = w << 6 | fresh.trailingZeroBitCount
                                fresh &= fresh - 1
                                visit(y, from: x, &next)
                            }
                        }
                    case .list(let targets):
                        for target in targets where !seen.contains(Int(target)) {
                            seen.insert(Int(target))
                            visit(Int(target), from: x, &next)
                        }
                    }
                }
                levels.append(level: &next, predecessor: predecessor, to: &order)
                frontier = next
                depth += 1
            }
            try body(
                FleetReach(from: app, nodes: graph.nodes, distance: distance, predecessor: predecessor, order: order, graph: graph,
                           columns: columns, origin: seen))
            // Ready for the next search: only what this one touched is reset (the result, once let go,
            // no longer shares these arrays, so no copy is made).
            seen.remove(start)
            for y in order {
                distance[Int(y)] = -1
                predecessor[Int(y)] = -1
                seen.remove(Int(y))
            }
        }
    }

    /// The shortest chains of a search's result, each hop decided once (chains share their hops),
    /// with each destination's direct deliverers among the nodes reached.
    package static func paths(_ reach: FleetReach, on graph: any FleetEdges) throws(FleetError) -> [FleetPath] {
        let nodes = graph.nodes
        let tree = try FleetTree(reach, on: graph)
        var chains = [[FleetHop]](repeating: [], count: nodes.count)
        var paths: [FleetPath] = []
        paths.reserveCapacity(reach.order.count)
        var deliverers: [Int32] = []
        for node in reach.order {
            let current = Int(node), before = Int(reach.predecessor[current])
            let hop = tree.hops[current]!
            // Breadth first: the predecessor's chain is made (or it is the start, whose chain is empty).
            var chain = chains[before]
            chain.append(hop)
            chains[current] = chain
            let count = tree.deliveredBy(current, into: &deliverers)
            paths.append(FleetPath(to: nodes[current], hops: chain, deliveredBy: deliverers.map { nodes[Int($0)] }, deliveredByCount: count))
        }
        return paths
    }
}

/// One search's shortest-path tree with its hops decided: per node reached, the hop into it from its
/// predecessor (a chain is its predecessor's chain plus that hop), and who delivers to it. What
/// ``FleetSearch/paths(_:on:)`` makes paths of, for writers that print each hop once per search
/// without making a path (a chain) per node.
package struct FleetTree {
    /// The search.
    package let reach: FleetReach
    /// Per node, the hop into it (`nil`: not reached, not asked for, or the start).
    package let hops: [FleetHop?]

    /// Decides the hop into every node reached, in the order reached (as ``FleetSearch/paths(_:on:)`` does:
    /// the first error met is the one thrown); with `only`, the hops on the chains to those nodes, when the
    /// graph cannot throw (otherwise every hop, so the same error is thrown).
    package init(_ reach: FleetReach, on graph: any FleetEdges, only: NodeSet? = nil) throws(FleetError) {
        let nodes = graph.nodes
        var hops = [FleetHop?](repeating: nil, count: nodes.count)
        var needed: NodeSet? = nil
        if let only, graph.decidesWithoutError {
            // Every node on a chain to one asked for: walk each chain back until a node already marked.
            var marked = NodeSet(count: nodes.count)
            for node in reach.order where only.contains(Int(node)) {
                var current = Int(node)
                while current >= 0, reach.predecessor[current] >= 0, !marked.contains(current) {
                    marked.insert(current)
                    current = Int(reach.predecessor[current])
                }
            }
            needed = marked
        }
        for node in reach.order {
            let current = Int(node), before = Int(reach.predecessor[current])
            if let needed, !needed.contains(current) { continue }
            guard let hop = try graph.hop(from: before, to: current) else {
                preconditionFailure("the search found an edge \(nodes[before]) → \(nodes[current]) that no request makes")
            }
            hops[current] = hop
        }
        self.reach = reach
        self.hops = hops
    }

    /// The search's tree with no hop decided (``hops`` empty): for a writer that finds each hop itself (``FleetHopFinder``).
    package init(undecided reach: FleetReach) {
        self.reach = reach
        hops = []
    }

    /// The nodes reached, in the order reached.
    package var order: [Int32] { reach.order }
    /// The device's nodes.
    package var nodes: [FleetNode] { reach.nodes }
    /// The node before `node` on its shortest chain (`-1`: none: the start, or not reached).
    package func predecessor(_ node: Int) -> Int { Int(reach.predecessor[node]) }
    /// The hops of `node`'s shortest chain.
    package func hopCount(_ node: Int) -> Int { Int(reach.distance[node]) }

    /// The nodes reached from the start (the start included) that deliver to `node` in one hop, in node order,
    /// at most ``FleetPath/deliveredByLimit`` of them, written to `deliverers`; returns how many deliver.
    package func deliveredBy(_ current: Int, into deliverers: inout [Int32]) -> Int {
        deliverers.removeAll(keepingCapacity: true)
        var count = 0
        if let columns = reach.columns, !columns.counts.isEmpty {
            // Rows among the nodes reached (and the start) only: every deliverer counted is in the origin.
            count = Int(columns.counts[current])
            let start = current * columns.limit
            deliverers += columns.firsts[start..<start + min(count, columns.limit)]
        } else if let columns = reach.columns, let origin = reach.origin {
            switch columns.columns[current] {
            case .bits(let column):
                for w in column.words.indices {
                    var bits = column.words[w] & origin.words[w]
                    count += bits.nonzeroBitCount
                    while bits != 0, deliverers.count < FleetPath.deliveredByLimit {
                        deliverers.append(Int32(w << 6 | bits.trailingZeroBitCount))
                        bits &= bits - 1
                    }
                }
            case .list(let senders):
                for x in senders where origin.contains(Int(x)) {
                    count += 1
                    if deliverers.count < FleetPath.deliveredByLimit { deliverers.append(x) }
                }
            }
        } else {
            deliverers.append(reach.predecessor[current])
            count = 1
        }
        return count
    }
}
