import OpenInCore
import OpenInFleet
import OpenInKit

/// A device's nodes as targets, by what the rules read of them (``TargetFact``): for the fast paths that
/// decide a sender's request once per kind of target and read each kind's targets a word of 64 at a time.
///
/// Made from the statement: the facts some rule reads on the channels asked (``TargetFacts/read(on:)``),
/// less those that hold for no target of the device under any sender's policy (a fleet that excludes no
/// share-sheet activity keys its targets by listed? and AppConnect app? alone). A kind is a number below
/// ``kindCount``: bit `i` says whether ``facts``[`i`] holds.
struct TargetKinds: Sendable {
    /// The facts kinds tell apart, in ``TargetFact`` order.
    package let facts: [TargetFact]
    /// The number of kinds: 2 to the number of ``facts``.
    var kindCount: Int { 1 << facts.count }

    /// One fact's targets under one sender: all or none, a bit set over the nodes, or the few nodes a sender's
    /// own list names (ascending, each once: a few positions take less than a word per 64 nodes, which every
    /// sender of a large device would otherwise hold at once).
    enum FactSet: Sendable {
        case constant(Bool)
        case set(NodeSet)
        case members([Int32])

        @inline(__always) package func contains(_ y: Int) -> Bool {
            switch self {
            case .constant(let value): return value
            case .set(let set): return set.contains(y)
            case .members(let members):
                // Binary search for the first member not below `y`.
                var (low, high) = (0, members.count)
                while low < high {
                    let middle = (low + high) / 2
                    if Int(members[middle]) < y { low = middle + 1 } else { high = middle }
                }
                return low < members.count && Int(members[low]) == y
            }
        }
    }

    /// One sender's targets by fact (``facts`` order).
    struct Sender: Sendable {
        package let sets: [FactSet]

        /// The kind of target `y`.
        @inline(__always) package func kind(of y: Int) -> Int {
            var kind = 0
            for (bit, set) in sets.enumerated() where set.contains(y) { kind |= 1 << bit }
            return kind
        }

        /// Whether a target of `kind` can exist: no fact that holds for every target (or none) says otherwise.
        func admits(_ kind: Int) -> Bool {
            for (bit, set) in sets.enumerated() {
                if case .constant(let value) = set, value != (kind & 1 << bit != 0) { return false }
            }
            return true
        }

        /// The kinds a target can be of (``admits(_:)``).
        package func kinds(_ count: Int) -> [Int] { (0..<count).filter(admits) }

        /// A row's masks of the targets of each kind: every fact's first `count` words in one array, fact after
        /// fact (a constant fact as all ones or all zeros), so a row's loop reads plain words (no fact copied,
        /// and no reference counted, per word).
        struct Masks {
            private let words: [UInt64]
            private let facts: Int
            private let count: Int

            init(_ sets: [FactSet], count: Int) {
                var words = [UInt64](repeating: 0, count: sets.count * count)
                for (bit, set) in sets.enumerated() {
                    switch set {
                    case .constant(let value):
                        if value { for w in 0..<count { words[bit * count + w] = ~0 } }
                    case .set(let nodes):
                        for w in 0..<Swift.min(count, nodes.words.count) { words[bit * count + w] = nodes.words[w] }
                    case .members(let members):
                        for y in members where Int(y) >> 6 < count { words[bit * count + Int(y) >> 6] |= 1 &<< UInt64(y & 63) }
                    }
                }
                (self.words, facts, self.count) = (words, sets.count, count)
            }

            /// The kind of target `y` (as ``Sender/kind(of:)`` gives it), read from the row's words.
            @inline(__always) package func kind(of y: Int) -> Int {
                var kind = 0
                for bit in 0..<facts where words[bit * count + y >> 6] >> UInt64(y & 63) & 1 != 0 { kind |= 1 << bit }
                return kind
            }

            /// Word `w` of the targets of `kind`: each fact's word, or its complement.
            @inline(__always) package func mask(_ kind: Int, word w: Int) -> UInt64 {
                var mask = ~UInt64(0)
                for bit in 0..<facts {
                    let word = words[bit * count + w]
                    mask &= kind &>> bit & 1 != 0 ? word : ~word
                }
                return mask
            }

            /// Word `w` of every kind's targets at once, kind `k`'s at `table[k]` (`table` holds a word per kind): the targets
            /// where each fact's word has the kind's bit (the word, or its complement, for each fact), made with one AND per
            /// kind and fact, each fact's word splitting the kinds of the facts before it in two.
            @inline(__always) package func table(word w: Int, into table: UnsafeMutablePointer<UInt64>) {
                table[0] = ~0
                words.withUnsafeBufferPointer { words in
                    for bit in 0..<facts {
                        let word = words[bit &* count &+ w], half = 1 &<< bit
                        for k in 0..<half {
                            table[k | half] = table[k] & word
                            table[k] &= ~word
                        }
                    }
                }
            }
        }

        /// The masks of a row of `count` words.
        func masks(count: Int) -> Masks { Masks(sets, count: count) }
    }

    /// The device's nodes (their bundle IDs), where each is, and the native Mail nodes.
    private let ids: [BundleID]
    private let index: [BundleID: Int]
    private let nativeMail: [Int]
    /// The facts read on the channels asked: ``facts`` and those left out (they hold for no target under any sender).
    private let read: [TargetFact]
    /// The facts that are the same for every sender on the device, per target (``TargetExtent/device``).
    private let deviceSets: [TargetFact: NodeSet]

    /// The kinds of a device whose nodes are `ids` (`index`: each ID's node), targets of requests on `channels`
    /// from senders with the policies `senders`; `device` is any policy prepared with the device's tables.
    package init(ids: [BundleID], index: [BundleID: Int], channels: [Channel], senders: [PreparedPolicy], device: PreparedPolicy) {
        self.ids = ids
        self.index = index
        nativeMail = ids.indices.filter { ids[$0].isNativeMail }
        read = TargetFacts.read(on: channels).facts
        var deviceSets: [TargetFact: NodeSet] = [:]
        for fact in read {
            guard case .device = fact.extent(under: device) else { continue }
            var set = NodeSet(count: ids.count)
            for y in ids.indices where fact.holds(for: ids[y], under: device) { set.insert(y) }
            deviceSets[fact] = set
        }
        self.deviceSets = deviceSets
        facts = TargetKinds.telling(read, deviceSets: deviceSets, senders: senders, [])
    }

    private init(_ kinds: TargetKinds, facts: [TargetFact]) {
        (ids, index, nativeMail, read, deviceSets) = (kinds.ids, kinds.index, kinds.nativeMail, kinds.read, kinds.deviceSets)
        self.facts = facts
    }

    /// The facts of `read` that tell targets apart: the device's, and those that hold for some target under one of `senders`
    /// (or are among `known`).
    private static func telling(_ read: [TargetFact], deviceSets: [TargetFact: NodeSet], senders: [PreparedPolicy], _ known: [TargetFact]) -> [TargetFact] {
        read.filter { fact in
            deviceSets[fact] != nil || known.contains(fact)
                || senders.contains { if case .constant(false) = fact.extent(under: $0) { false } else { true } }
        }
    }

    /// These kinds, with the facts `senders` (new policies of some nodes) make hold for some target added.
    func covering(_ senders: [PreparedPolicy]) -> TargetKinds {
        let facts = TargetKinds.telling(read, deviceSets: deviceSets, senders: senders, self.facts)
        return facts == self.facts ? self : TargetKinds(self, facts: facts)
    }

    /// `policy`'s targets by fact, each list read from its entries (O(its length)); `shared`, when given,
    /// keeps the sets of lists many senders share, so each is read once.
    package func sender(_ policy: PreparedPolicy, shared: inout [ObjectIdentifier: FactSet]) -> Sender {
        Sender(sets: facts.map { fact -> FactSet in
            switch fact.extent(under: policy) {
            case .constant(let value): return .constant(value)
            case .device: return .set(deviceSets[fact]!)
            case .members(let members, let identity, let mail):
                if let identity, let known = shared[identity] { return known }
                // The list's nodes, ascending and each once: kept as positions (4 bytes each) while they take less room
                // than a bit set (8 bytes per 64 nodes).
                var nodes: [Int32] = []
                for id in members { if let y = index[id], mail == nil || !ids[y].isNativeMail { nodes.append(Int32(y)) } }
                if mail == true { for y in nativeMail { nodes.append(Int32(y)) } }
                nodes.sort()
                var kept = 0
                for i in nodes.indices where kept == 0 || nodes[kept - 1] != nodes[i] {
                    nodes[kept] = nodes[i]
                    kept += 1
                }
                nodes.removeLast(nodes.count - kept)
                let made: FactSet
                if kept < 2 * ((ids.count + 63) / 64) {
                    made = .members(nodes)
                } else {
                    var set = NodeSet(count: ids.count)
                    for y in nodes { set.insert(Int(y)) }
                    made = .set(set)
                }
                if let identity { shared[identity] = made }
                return made
            }
        })
    }

    /// ``sender(_:shared:)`` without sharing.
    package func sender(_ policy: PreparedPolicy) -> Sender {
        var none: [ObjectIdentifier: FactSet] = [:]
        return sender(policy, shared: &none)
    }
}
