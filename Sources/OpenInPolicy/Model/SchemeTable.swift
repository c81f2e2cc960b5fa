/// A read-only map from URL schemes (lowercase) to values, keyed by each scheme's
/// FNV-1a hash with linear probing, so a lookup with a ``ShareURL`` (which
/// carries its scheme's hash) hashes nothing.
struct SchemeTable<Value: Sendable>: Sendable {
    /// Each slot's scheme (empty when the slot is free: no scheme is empty).
    private let schemes: [String]
    private let hashes: [UInt64]
    private let values: [Value?]
    private let mask: Int

    /// A table of `entries`; the schemes must be lowercase and distinct.
    init(_ entries: [(scheme: String, value: Value)]) {
        var capacity = 4
        while capacity < entries.count * 2 { capacity <<= 1 }
        var schemes = [String](repeating: "", count: capacity)
        var hashes = [UInt64](repeating: 0, count: capacity)
        var values = [Value?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for (scheme, value) in entries {
            let hash = FNV1a.hash(scheme)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while !schemes[slot].isEmpty { slot = (slot + 1) & mask }
            schemes[slot] = scheme
            hashes[slot] = hash
            values[slot] = value
        }
        self.schemes = schemes
        self.hashes = hashes
        self.values = values
        self.mask = mask
    }

    /// The value for `url`'s scheme, if the table has it.
    func value(for url: ShareURL) -> Value? {
        var slot = Int(truncatingIfNeeded: url.schemeHash) & mask
        while !schemes[slot].isEmpty {
            if hashes[slot] == url.schemeHash, schemes[slot] == url.scheme { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
