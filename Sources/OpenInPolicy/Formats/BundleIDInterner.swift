/// Finds a known ``BundleID`` by its spelling in a byte buffer, so a request
/// line naming a whitelisted app reuses the policy's ID: no validation, no new string.
struct BundleIDInterner: Sendable {
    private let ids: [BundleID?]
    /// Each slot's ``quickHash(_:)`` (0 for a free slot: the hash is never 0), so a probe compares
    /// integers before bytes and copies no ID it rejects.
    private let hashes: [UInt64]
    private let mask: Int

    /// A table of `ids` (duplicates are fine).
    init(_ ids: [BundleID]) {
        var capacity = 8
        while capacity < ids.count * 2 { capacity <<= 1 }
        var slots = [BundleID?](repeating: nil, count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in Set(ids) {
            let hash = Array(id.rawValue.utf8).withUnsafeBufferPointer { Self.quickHash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while hashes[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = id
            hashes[slot] = hash
        }
        self.ids = slots
        self.hashes = hashes
        self.mask = mask
    }

    /// The known ID spelled exactly `bytes`, if any.
    func id(spelled bytes: UnsafeBufferPointer<UInt8>) -> BundleID? {
        let hash = Self.quickHash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 {
            if hashes[slot] == hash, let candidate = ids[slot],
               candidate.rawValue.utf8.withContiguousStorageIfAvailable({ $0.sameBytes(as: bytes) }) == true {
                return candidate
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// A hash of the length and the first and last eight bytes: constant time, whatever the
    /// length, and enough to tell bundle IDs apart in a table whose probes compare the bytes.
    static func quickHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 1 }
        var head: UInt64 = 0, tail: UInt64 = 0
        if bytes.count >= 8 {
            head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
            tail = UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)
        } else {
            for byte in bytes { head = head << 8 | UInt64(byte) }
        }
        var hash = (head ^ (tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bytes.count)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        return hash == 0 ? 1 : hash
    }
}
