import Foundation
internal import OpenInPolicy

/// `ACSensitiveData` (ACSensitiveData.h: `@interface ACSensitiveData : NSData`): key bytes held in memory
/// only as long as needed; the double zeroes them when the object goes away.
public class ACSensitiveData: NSData {
    // Immutable after init; zeroed in deinit.
    private let storage: UnsafeMutableRawPointer
    private static let keyLength = 32

    /// A deterministic 32-byte fake key for `seed` (splitmix64 steps from the seed's FNV-1a hash).
    init(fakeKeyFor seed: [UInt8]) {
        storage = .allocate(byteCount: Self.keyLength, alignment: 8)
        var state = FNV1a.hash(bytes: seed)
        for word in 0..<4 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            mixed ^= mixed >> 31
            for byte in 0..<8 {
                storage.storeBytes(of: UInt8(truncatingIfNeeded: mixed >> (8 * UInt64(byte))), toByteOffset: word * 8 + byte, as: UInt8.self)
            }
        }
        super.init()
    }

    required init?(coder aDecoder: NSCoder) { nil }

    deinit {
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Self.keyLength)
        storage.deallocate()
    }

    override public var length: Int { Self.keyLength }
    override public var bytes: UnsafeRawPointer { UnsafeRawPointer(storage) }

    /// The key's bytes.
    var keyBytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage, count: Self.keyLength)) }
}
