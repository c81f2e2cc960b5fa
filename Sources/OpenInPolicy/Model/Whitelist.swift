/// The set of bundle IDs Open In may send documents to under WHITELIST.
///
/// Membership is exact and case-sensitive. Native Mail counts as listed only
/// when both `com.apple.UIKit.activity.Mail` and `com.apple.mobilemail` are in
/// the set: "To put the iOS native email app in the whitelist, the whitelist
/// must contain both of these bundle IDs" (AppConnect for iOS SDK Developer Guide: Open In policy API details).
public struct Whitelist: Sendable, Hashable, Sequence {
    /// The bundle IDs in the whitelist, as a set made on each call (iterate the whitelist to walk them without one).
    public var ids: Set<BundleID> { Set(members) }
    /// Each bundle ID once, in the order first given: the whitelist keeps no `Set`, whose
    /// construction was half the time of loading a large policy.
    let members: [BundleID]
    /// Whether both IDs of the native Mail pair are in the set.
    public let containsMailPair: Bool
    /// The same IDs in the engine's hash table, keyed by each ID's precomputed hash: lookups hash nothing.
    let index: BundleIDTable

    /// The first few IDs in byte order (at most ``summaryLength``), chosen once so an explanation
    /// naming "what the whitelist holds" never sorts the whole list per request.
    let firstIDs: [BundleID]
    /// How many IDs ``firstIDs`` keeps.
    static let summaryLength = 4

    /// Creates a whitelist from bundle IDs.
    public init<S: Sequence>(_ ids: S) where S.Element == BundleID {
        let list = Array(ids)
        // The table drops repeats itself and says which entries it kept.
        var unique: [BundleID] = []
        unique.reserveCapacity(list.count)
        index = BundleIDTable(list) { unique.append($0) }
        members = unique
        firstIDs = Whitelist.smallest(Whitelist.summaryLength, of: unique)
        containsMailPair = index.contains(.mailActivity) && index.contains(.mobileMail)
    }

    /// The same IDs, in any order.
    public static func == (lhs: Whitelist, rhs: Whitelist) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy(rhs.index.contains)
    }

    /// The `count` smallest of `ids` in byte order, in one pass (no sort of the whole set).
    /// - Complexity: O(n × count).
    static func smallest<IDs: Sequence>(_ count: Int, of ids: IDs) -> [BundleID] where IDs.Element == BundleID {
        var kept: [BundleID] = []
        kept.reserveCapacity(count + 1)
        for id in ids where kept.count < count || id < kept[kept.count - 1] {
            let position = kept.firstIndex { id < $0 } ?? kept.count
            kept.insert(id, at: position)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// Order-independent, as equality is: the count and the wrapping sum of the IDs' hashes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        hasher.combine(members.reduce(UInt64(0)) { $0 &+ $1.storedHash })
    }

    /// Creates a whitelist from strings, validating each.
    /// - Throws: ``InputError/malformedBundleID(_:reason:)`` for the first invalid entry.
    public init<S: Sequence>(parsing strings: S) throws(InputError) where S.Element == String {
        var ids: [BundleID] = []
        for string in strings { ids.append(try BundleID(string)) }
        self.init(ids)
    }

    /// The empty whitelist.
    public static let empty = Whitelist([BundleID]())

    /// Whether `id` is in the set, exactly (no special handling of the Mail pair).
    public func contains(_ id: BundleID) -> Bool { index.contains(id) }

    /// Whether `target` counts as listed: a Mail ID needs the whole pair, any other ID itself.
    public func lists(_ target: BundleID) -> Bool {
        target.isNativeMail ? containsMailPair : index.contains(target)
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    /// The IDs, each once, in the order first given.
    public func makeIterator() -> IndexingIterator<[BundleID]> { members.makeIterator() }
}

/// A read-only set of bundle IDs: a ``ByteKeyTable`` looked up with each ID's stored ``TableHash``.
struct BundleIDTable: Sendable {
    private let table: ByteKeyTable<Bool>

    /// A table of `ids`; an ID given twice is kept once.
    init<IDs: Collection>(_ ids: IDs) where IDs.Element == BundleID {
        table = ByteKeyTable(hashed: ids.lazy.map { (key: $0.rawValue, hash: $0.storedHash, value: true) })
    }

    /// A table of `ids`, calling `kept` with each ID the table keeps (the first of repeats), in order.
    init(_ ids: [BundleID], kept: (BundleID) -> Void) {
        table = ByteKeyTable(hashed: ids.lazy.map { (key: $0.rawValue, hash: $0.storedHash, value: true) }) { index in kept(ids[index]) }
    }

    /// Whether `id` is in the table. Always inlined, so the evaluator's rules probe in place.
    @inline(__always)
    func contains(_ id: BundleID) -> Bool { table.value(for: id.rawValue, hash: id.storedHash) != nil }
}
