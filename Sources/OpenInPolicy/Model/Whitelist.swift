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

    /// Creates a whitelist from bundle IDs.
    public init<S: Sequence>(_ ids: S) where S.Element == BundleID {
        let set = Set(ids)
        self.ids = set
        containsMailPair = set.contains(.mailActivity) && set.contains(.mobileMail)
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
    public func contains(_ id: BundleID) -> Bool { ids.contains(id) }

    /// Whether `target` counts as listed: a Mail ID needs the whole pair, any other ID itself.
    public func lists(_ target: BundleID) -> Bool {
        target.isNativeMail ? containsMailPair : ids.contains(target)
    }

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }
    public func makeIterator() -> Set<BundleID>.Iterator { ids.makeIterator() }
}
