/// Finds a known ``BundleID`` by its spelling in a byte buffer, so a request
/// line naming a whitelisted app reuses the policy's ID: no validation, no new string.
///
/// A ``ByteKeyTable``: every byte of the spelling is hashed (with the engine's keyed
/// ``TableHash``), so IDs that share their length and first and last bytes do not collide.
struct BundleIDInterner: Sendable {
    private let table: ByteKeyTable<BundleID>

    /// A table of `ids` (duplicates are fine).
    init(_ ids: [BundleID]) {
        table = ByteKeyTable(hashed: ids.lazy.map { (key: $0.rawValue, hash: $0.storedHash, value: $0) })
    }

    /// The known ID spelled exactly `bytes`, if any.
    func id(spelled bytes: UnsafeBufferPointer<UInt8>) -> BundleID? { table.value(spelled: bytes) }
}
