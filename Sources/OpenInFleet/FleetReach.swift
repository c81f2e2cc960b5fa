import OpenInCore
import OpenInKit

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
    package let predecessor: [Int32]
    /// The reached nodes' indices, in the order reached.
    package let order: [Int32]
    /// The graph the search ran on (its device's), for ``FleetDevice/paths(_:)`` to decide the hops on.
    package let graph: (any FleetEdges)?
    /// Who delivers to whom among the nodes reached (and the start): per node, the nodes with an edge into it.
    let columns: FleetColumns?
    /// The nodes reached and the start.
    package let origin: NodeSet?

    /// The nodes reached, in the order reached (breadth first, each level in node order).
    public var reached: [FleetNode] { order.map { nodes[Int($0)] } }
    /// ``reached`` as indices into ``nodes``.
    package var reachedIndices: [Int32] { order }

    /// The number of hops of the shortest chain to `node`, or `nil` when it is not reached.
    public func hops(to node: FleetNode) -> Int? {
        guard let index = nodes.firstIndex(of: node), distance[index] >= 0 else { return nil }
        return Int(distance[index])
    }
}

/// A fixed-size set of node indices, as bits.
package struct NodeSet {
    package var words: [UInt64]

    package init(count: Int, full: Bool = false) {
        words = Array(repeating: full ? ~0 : 0, count: (count + 63) / 64)
        if full, count % 64 != 0 { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

    @inline(__always) package func contains(_ index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
    @inline(__always) package mutating func insert(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }
    @inline(__always) package mutating func remove(_ index: Int) { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
    package var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Calls `body` with each index in the set, in increasing order.
    package func forEach(_ body: (Int) throws(FleetError) -> Void) throws(FleetError) {
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

    package init(_ set: NodeSet, count: Int) {
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
    package init(list: [Int32], count: Int) {
        guard list.count * 32 >= count else {
            self = .list(list)
            return
        }
        var set = NodeSet(count: count)
        for y in list { set.insert(Int(y)) }
        self = .bits(set)
    }
}
