/// The set of bundle IDs Open In may send documents to under WHITELIST.
///
/// Membership is exact and case-sensitive. Native Mail counts as listed only
/// when both `com.apple.UIKit.activity.Mail` and `com.apple.mobilemail` are in
/// the set: "To put the iOS native email app in the whitelist, the whitelist
/// must contain both of these bundle IDs" (open-in-policy.txt).
public struct Whitelist: Sendable, Hashable, Sequence {
    /// The bundle IDs in the whitelist.
    public let ids: Set<BundleID>
    /// Whether both IDs of the native Mail pair are in the set.
    public let containsMailPair: Bool
    /// The same IDs in an open-addressing table keyed by each ID's precomputed hash: lookups hash nothing.
    let index: BundleIDTable

    /// Creates a whitelist from bundle IDs.
    public init<S: Sequence>(_ ids: S) where S.Element == BundleID {
        let list = Array(ids)
        let set = Set(list)
        self.ids = set
        // From the list, not the set: an array is quicker to walk, and the table drops repeats itself.
        index = BundleIDTable(list)
        containsMailPair = index.contains(.mailActivity) && index.contains(.mobileMail)
    }

    public static func == (lhs: Whitelist, rhs: Whitelist) -> Bool { lhs.ids == rhs.ids }

    public func hash(into hasher: inout Hasher) { hasher.combine(ids) }

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

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }
    public func makeIterator() -> Set<BundleID>.Iterator { ids.makeIterator() }
}

/// A read-only hash set of bundle IDs that uses each ID's stored hash, with linear probing.
///
/// The hashes sit in an array of their own, so a probe compares 8-byte
/// integers and touches a string only when the hashes match (the ID is
/// almost certainly there); no probe copies an ID, so none retains one.
struct BundleIDTable: Sendable {
    /// Each slot's ID (meaningless when the slot is free).
    private let texts: [String]
    /// Each slot's ``key(_:)``, 0 when the slot is free: a probe reads only this array until a key matches.
    private let keys: [UInt64]
    private let mask: Int

    /// A table of `ids`; an ID given twice is kept once.
    init<IDs: Collection>(_ ids: IDs) where IDs.Element == BundleID {
        var capacity = 8
        while capacity < ids.count * 2 { capacity <<= 1 }
        var texts = [String](repeating: "", count: capacity)
        var keys = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in ids {
            let key = BundleIDTable.key(id)
            var slot = Int(truncatingIfNeeded: id.storedHash) & mask
            var repeated = false
            while keys[slot] != 0 {
                if keys[slot] == key, texts[slot] == id.rawValue {
                    repeated = true
                    break
                }
                slot = (slot + 1) & mask
            }
            if repeated { continue }
            texts[slot] = id.rawValue
            keys[slot] = key
        }
        self.texts = texts
        self.keys = keys
        self.mask = mask
    }

    /// The stored hash, with 0 (which marks a free slot) read as 1.
    @inline(__always)
    private static func key(_ id: BundleID) -> UInt64 { id.storedHash == 0 ? 1 : id.storedHash }

    /// Whether `id` is in the table. Always inlined, so the evaluator's rules probe in place.
    @inline(__always)
    func contains(_ id: BundleID) -> Bool {
        let key = BundleIDTable.key(id)
        var slot = Int(truncatingIfNeeded: id.storedHash) & mask
        while keys[slot] != 0 {
            if keys[slot] == key, texts[slot] == id.rawValue { return true }
            slot = (slot + 1) & mask
        }
        return false
    }
}
