/// Finds a known ``BundleID`` by its spelling in a byte buffer, so a request
/// line naming a whitelisted app reuses the policy's ID: no validation, no new string.
///
/// A ``ByteKeyTable``: every byte of the spelling is hashed (with the engine's keyed
/// ``TableHash``), so IDs that share their length and first and last bytes do not collide.
/// A whitelist longer than ``internedWhitelistIDs`` is interned only up to that many IDs (each
/// a string of its own, per thread); a spelling of one of the others is found in the whitelist's
/// own compact table, which every thread shares, and made into an ID without validation (it was
/// validated as the policy was read). So the stream's memory does not grow by a string per ID of
/// a large policy, per thread.
struct BundleIDInterner: Sendable {
    private let table: ByteKeyTable<BundleID>
    /// The whitelist's IDs past the interned ones, when there are any.
    private let rest: BundleIDList?

    /// How many of a whitelist's IDs are interned.
    static let internedWhitelistIDs = 1 << 16

    /// The IDs of `whitelist` to intern: the first ``internedWhitelistIDs``.
    static func interned(_ whitelist: Whitelist) -> [BundleID] {
        (0..<min(whitelist.count, internedWhitelistIDs)).map(whitelist.list.id)
    }

    /// A table of `ids` (duplicates are fine), and of `whitelist`'s IDs beyond those ``interned(_:)`` gives.
    init(_ ids: [BundleID], whitelist: Whitelist = .empty) {
        table = ByteKeyTable(hashed: ids.lazy.map { (key: $0.rawValue, hash: $0.storedHash, value: $0) })
        rest = whitelist.count > Self.internedWhitelistIDs ? whitelist.list : nil
    }

    /// The known ID spelled exactly `bytes`, if any.
    func id(spelled bytes: UnsafeBufferPointer<UInt8>) -> BundleID? {
        let hash = TableHash.of(UnsafeRawBufferPointer(bytes))
        if let known = table.value(spelled: bytes, hash: hash) { return known }
        guard let rest, rest.contains(bytes, hash: hash) else { return nil }
        return BundleID(validBytes: bytes, hash: hash)
    }
}
