import OpenInCore
import OpenInFleet
import OpenInKit

/// The engine's one hash table: read-only, keyed by strings compared byte for byte,
/// open addressing with linear probing, hashed with ``TableHash``.
///
/// Whitelists, the device's AppConnect apps, scheme tables and the JSON Lines
/// path's known bundle IDs are all one of these. The hashes sit in an array of
/// their own, so a probe compares 8-byte integers and reads a key's bytes only
/// when the hashes match.
/// - Complexity: building is O(n) in the keys' total length; a lookup is O(key length)
///   expected, whatever the keys (the hash is keyed per process).
/// The hashes of a table with no entries: one slot, free (a lookup reads only the hashes of a free slot).
private let noEntryHashes: [UInt64] = [0]

struct ByteKeyTable<Value: Sendable>: Sendable {
    private let keys: [String]
    /// Each slot's hash, 0 when the slot is free.
    private let hashes: [UInt64]
    private let values: [Value?]
    private let mask: Int

    /// A table of `entries`; for a key given twice, the first value is kept.
    package init<Entries: Collection>(_ entries: Entries) where Entries.Element == (key: String, value: Value) {
        self.init(hashed: entries.lazy.map { (key: $0.key, hash: TableHash.of($0.key), value: $0.value) })
    }

    /// A table of entries whose ``TableHash`` is already known (a ``BundleID`` carries its own).
    package init<Entries: Collection>(hashed entries: Entries) where Entries.Element == (key: String, hash: UInt64, value: Value) {
        // No entries (most apps' excluded activities and own schemes): one free slot, shared, and nothing allocated.
        guard !entries.isEmpty else {
            (keys, hashes, values, mask) = ([], noEntryHashes, [], 0)
            return
        }
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        var keys = [String](repeating: "", count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        var values = [Value?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for (key, hash, value) in entries {
            var slot = Int(truncatingIfNeeded: hash) & mask
            var repeated = false
            while hashes[slot] != 0 {
                if hashes[slot] == hash, ExactText.same(keys[slot], key) {
                    repeated = true
                    break
                }
                slot = (slot + 1) & mask
            }
            if repeated { continue }
            keys[slot] = key
            hashes[slot] = hash
            values[slot] = value
        }
        self.keys = keys
        self.hashes = hashes
        self.values = values
        self.mask = mask
    }

    /// The value for `key`, whose ``TableHash`` is `hash` (callers that look a key up often keep its hash).
    @inline(__always)
    package func value(for key: String, hash: UInt64) -> Value? {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 {
            if hashes[slot] == hash, ExactText.same(keys[slot], key) { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The value for the key spelled exactly `bytes`, if any.
    package func value(spelled bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let hash = TableHash.of(UnsafeRawBufferPointer(bytes))
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 {
            if hashes[slot] == hash, keys[slot].utf8.withContiguousStorageIfAvailable({ $0.sameBytes(as: bytes) }) ?? keys[slot].utf8.elementsEqual(bytes) {
                return values[slot]
            }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
