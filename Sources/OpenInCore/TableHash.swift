import OpenInKit

/// The hash every table of the engine uses: SipHash-1-3 over every byte of the key, with a
/// 128-bit key drawn from the standard library's per-process random hashing seed.
///
/// Keyed and well mixed, so no set of crafted bundle IDs or schemes can make
/// the tables' probes collide on purpose: an earlier hash of only the length
/// and the first and last eight bytes let `com.example.a000001.zzzzzzzz`,
/// `…a000002…` and so on all land on one slot. Not stable across runs: for a
/// value that must be (dummy file names), see ``FNV1a``.
///
/// The same function as the standard library's `Hasher`, written out for byte strings: `Hasher`
/// buffers its input for any mix of values and cost about 55 ns for a 25-byte bundle ID, a third of
/// the time of loading a policy of a million IDs; this takes 8 bytes a round straight from memory.
package enum TableHash: ByteHashing {
    /// The SipHash key: two values of the standard library's seeded `Hasher`, so it is as random
    /// per process as every `Set` and `Dictionary` (and as deterministic under `SWIFT_DETERMINISTIC_HASHING`).
    @usableFromInline static let key: (UInt64, UInt64) = {
        var first = Hasher()
        first.combine(0x6F70_656E_696E_2D31 as UInt64)
        var second = Hasher()
        second.combine(0x6F70_656E_696E_2D32 as UInt64)
        return (UInt64(bitPattern: Int64(first.finalize())), UInt64(bitPattern: Int64(second.finalize())))
    }()

    /// The hash of `text`'s UTF-8 bytes; never 0 (which marks a free slot).
    package static func of(_ text: String) -> UInt64 {
        // A native string's bytes are read in place (a `var` copy for `withUTF8` would retain and release it).
        if let hash = text.utf8.withContiguousStorageIfAvailable({ of(UnsafeRawBufferPointer($0)) }) { return hash }
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of some bytes; never 0. Inlinable: the tables of the vendor modules hash every bundle ID they
    /// read with it, and a call across the module boundary per ID cost a tenth of loading a large policy.
    @inlinable @inline(__always)
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let (k0, k1) = key
        var state = SipState(v0: k0 ^ 0x736F_6D65_7073_6575, v1: k1 ^ 0x646F_7261_6E64_6F6D,
                             v2: k0 ^ 0x6C79_6765_6E65_7261, v3: k1 ^ 0x7465_6462_7974_6573)
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            state.compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        // The last 0 to 7 bytes, with the length's low byte on top.
        var last = UInt64(truncatingIfNeeded: count) << 56
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        state.compress(last)
        let hash = state.finalize()
        return hash == 0 ? 1 : hash
    }

    /// SipHash's four words of state, with one compression round and three finalization rounds (SipHash-1-3).
    @usableFromInline struct SipState {
        @usableFromInline var v0, v1, v2, v3: UInt64

        @inlinable init(v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64) {
            self.v0 = v0
            self.v1 = v1
            self.v2 = v2
            self.v3 = v3
        }

        @inlinable @inline(__always)
        mutating func round() {
            v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
            v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
        }

        @inlinable @inline(__always)
        mutating func compress(_ word: UInt64) {
            v3 ^= word
            round()
            v0 ^= word
        }

        @inlinable @inline(__always)
        mutating func finalize() -> UInt64 {
            v2 ^= 0xFF
            round()
            round()
            round()
            return v0 ^ v1 ^ v2 ^ v3
        }
    }
}

/// A hash of byte strings: ``TableHash``, or in tests one made to collide.
package protocol ByteHashing {
    /// The hash of `bytes`; never 0.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64
}

extension UInt64 {
    /// The bits rotated left by `count` (1 to 63).
    @inlinable @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
