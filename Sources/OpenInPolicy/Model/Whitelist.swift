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
        let set = Set(ids)
        self.ids = set
        index = BundleIDTable(set)
        containsMailPair = set.contains(.mailActivity) && set.contains(.mobileMail)
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
struct BundleIDTable: Sendable {
    private let slots: [BundleID?]
    private let mask: Int

    init(_ ids: Set<BundleID>) {
        var capacity = 8
        while capacity < ids.count * 2 { capacity <<= 1 }
        var slots = [BundleID?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for id in ids {
            var slot = Int(truncatingIfNeeded: id.storedHash) & mask
            while slots[slot] != nil { slot = (slot + 1) & mask }
            slots[slot] = id
        }
        self.slots = slots
        self.mask = mask
    }

    func contains(_ id: BundleID) -> Bool {
        var slot = Int(truncatingIfNeeded: id.storedHash) & mask
        while let candidate = slots[slot] {
            if candidate == id { return true }
            slot = (slot + 1) & mask
        }
        return false
    }
}
