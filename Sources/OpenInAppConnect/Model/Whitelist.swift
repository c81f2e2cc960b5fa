import OpenInCore
import OpenInFleet
import OpenInKit

/// The set of bundle IDs Open In may send documents to under WHITELIST.
///
/// Membership is exact and case-sensitive. Native Mail counts as listed only
/// when both `com.apple.UIKit.activity.Mail` and `com.apple.mobilemail` are in
/// the set: "To put the iOS native email app in the whitelist, the whitelist
/// must contain both of these bundle IDs" (AppConnect for iOS SDK Developer Guide: Open In policy API details).
public struct Whitelist: Sendable, Hashable, Sequence {
    /// The bundle IDs in the whitelist, as a set made on each call (iterate the whitelist to walk them without one).
    public var ids: Set<BundleID> { Set(list.ids) }
    /// Each bundle ID once, in the order first given, as bytes in one buffer with a table of its own
    /// (``BundleIDList``): no `String` and no `Set` per ID, which for a large policy were most of its memory and load time.
    package let list: BundleIDList
    /// Whether both IDs of the native Mail pair are in the set.
    public let containsMailPair: Bool

    /// The first few IDs in byte order (at most ``summaryLength``), chosen once so an explanation
    /// naming "what the whitelist holds" never sorts the whole list per request.
    package let firstIDs: [BundleID]
    /// How many IDs ``firstIDs`` keeps.
    static let summaryLength = 4

    /// Creates a whitelist from bundle IDs.
    public init<S: Sequence>(_ ids: S) where S.Element == BundleID {
        self.init(list: BundleIDList(ids))
    }

    /// A whitelist of the IDs in `list` (a policy file's, read in place).
    package init(list: BundleIDList) {
        self.list = list
        firstIDs = list.smallest(Whitelist.summaryLength)
        containsMailPair = list.contains(.mailActivity) && list.contains(.mobileMail)
    }

    /// Each bundle ID once, in the order first given, each made on this call (the whitelist keeps bytes, not IDs).
    package var members: [BundleID] { list.ids }

    /// The same IDs, in any order.
    public static func == (lhs: Whitelist, rhs: Whitelist) -> Bool {
        if lhs.list === rhs.list { return true }
        guard lhs.list.count == rhs.list.count, lhs.list.hashSum == rhs.list.hashSum else { return false }
        return (0..<lhs.list.count).allSatisfy { rhs.list.contains(entry: $0, of: lhs.list) }
    }

    /// The `count` smallest of `ids` in byte order, in one pass (no sort of the whole set).
    /// - Complexity: O(n × count).
    package static func smallest<IDs: Sequence>(_ count: Int, of ids: IDs) -> [BundleID] where IDs.Element == BundleID {
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
        hasher.combine(list.count)
        hasher.combine(list.hashSum)
    }

    /// Creates a whitelist from strings, validating each.
    /// - Throws: ``InputError/malformedBundleID(_:reason:)`` for the first invalid entry.
    public init<S: Sequence>(parsing strings: S) throws(InputError) where S.Element == String {
        var ids: [BundleID] = []
        for string in strings { ids.append(try BundleID(string)) }
        self.init(ids)
    }

    /// Creates a whitelist from strings, checking each: `try Whitelist(["com.example.viewer"])`.
    /// - Throws: ``InputError/malformedBundleID(_:reason:)`` for the first invalid entry.
    public init(_ strings: [String]) throws(InputError) {
        try self.init(parsing: strings)
    }

    /// The empty whitelist.
    public static let empty = Whitelist(list: .empty)

    /// Whether `id` is in the set, exactly (no special handling of the Mail pair).
    public func contains(_ id: BundleID) -> Bool { list.contains(id) }

    /// Whether `target` counts as listed: a Mail ID needs the whole pair, any other ID itself.
    @inline(__always)
    public func lists(_ target: BundleID) -> Bool {
        target.isNativeMail ? containsMailPair : list.contains(target)
    }

    public var count: Int { list.count }
    public var isEmpty: Bool { list.count == 0 }
    /// The IDs, each once, in the order first given (each made as the iteration starts: the whitelist keeps bytes).
    public func makeIterator() -> IndexingIterator<[BundleID]> { list.ids.makeIterator() }
}

/// A read-only set of bundle IDs: a ``ByteKeyTable`` looked up with each ID's stored ``TableHash``.
struct BundleIDTable: Sendable {
    private let table: ByteKeyTable<Bool>

    /// A table of `ids`; an ID given twice is kept once.
    package init<IDs: Collection>(_ ids: IDs) where IDs.Element == BundleID {
        table = ByteKeyTable(hashed: ids.lazy.map { (key: $0.rawValue, hash: $0.storedHash, value: true) })
    }

    /// Whether `id` is in the table. Always inlined, so the evaluator's rules probe in place.
    @inline(__always)
    package func contains(_ id: BundleID) -> Bool { table.value(for: id.rawValue, hash: id.storedHash) != nil }
}
