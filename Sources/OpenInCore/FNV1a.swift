import OpenInKit

/// The 64-bit FNV-1a hash: cheap and stable across runs and platforms (unlike `Hasher`),
/// for values that must not change from run to run (the dummy file name's seed, the
/// `AppConnect` double's fake derived keys).
///
/// Not for hash tables: it is unkeyed, so colliding inputs can be crafted.
/// Tables use ``TableHash``.
package enum FNV1a {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        text.utf8.withContiguousStorageIfAvailable { hash(bytes: $0) } ?? hash(bytes: text.utf8)
    }

    /// The hash of some bytes, or of `hash`'s input followed by them.
    @_specialize(exported: true, where Bytes == UnsafeBufferPointer<UInt8>)
    @_specialize(exported: true, where Bytes == UnsafeRawBufferPointer)
    @_specialize(exported: true, where Bytes == String.UTF8View)
    @_specialize(exported: true, where Bytes == Substring.UTF8View)
    @_specialize(exported: true, where Bytes == CollectionOfOne<UInt8>)
    @_specialize(exported: true, where Bytes == [UInt8])
    @_specialize(exported: true, where Bytes == ArraySlice<UInt8>)
    package static func hash<Bytes: Sequence<UInt8>>(bytes: Bytes, continuing hash: UInt64 = offsetBasis) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }
}
