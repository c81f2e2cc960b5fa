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
    /// The same IDs in the engine's hash table, keyed by each ID's precomputed hash: lookups hash nothing.
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

/// A read-only set of bundle IDs: a ``ByteKeyTable`` looked up with each ID's stored ``TableHash``.
struct BundleIDTable: Sendable {
    private let table: ByteKeyTable<Bool>

    /// A table of `ids`; an ID given twice is kept once.
    init<IDs: Collection>(_ ids: IDs) where IDs.Element == BundleID {
        table = ByteKeyTable(ids.map { (key: $0.rawValue, value: true) })
    }

    func contains(_ id: BundleID) -> Bool { table.value(for: id.rawValue, hash: id.storedHash) != nil }
}
