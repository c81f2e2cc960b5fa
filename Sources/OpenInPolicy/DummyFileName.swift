/// Dummy file names for ``Outcome/substituteDummyFile``.
///
/// A name is `AppConnect-Blocked-` and 16 hex digits of a 64-bit FNV-1a hash
/// of the target and the original name, with the extension `.acblocked`,
/// which no app registers. The same input always gives the same name; the
/// name shows neither the original name nor its extension.
public enum DummyFileName {
    /// The extension of every dummy file: no app opens it.
    public static let fileExtension = "acblocked"

    /// The dummy name for `document` shared with `target`.
    public static func make(target: BundleID, document: String?) -> String {
        make(seed: seed(target: target, document: document))
    }

    static func seed(target: BundleID, document: String?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for byte in target.rawValue.utf8 { mix(byte) }
        mix(0)
        if let document {
            mix(1)
            for byte in document.utf8 { mix(byte) }
        }
        return hash
    }

    static func make(seed: UInt64) -> String {
        let hex = String(seed, radix: 16)
        return "AppConnect-Blocked-" + String(repeating: "0", count: 16 - hex.count) + hex + "." + fileExtension
    }
}
