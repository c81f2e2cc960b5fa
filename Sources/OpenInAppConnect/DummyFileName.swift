import OpenInCore
import OpenInFleet
import OpenInKit

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
        guard let document else { return seed(target: target, documentBytes: nil as UnsafeBufferPointer<UInt8>?) }
        return document.utf8.withContiguousStorageIfAvailable { seed(target: target, documentBytes: $0) }
            ?? seed(target: target, documentBytes: document.utf8)
    }

    /// The seed from the document's UTF-8 bytes (the JSON Lines fast path has bytes, not a string):
    /// FNV-1a over the target's bytes, a 0 byte, then a 1 byte
    /// and the document's bytes when there is a document.
    static func seed<Bytes: Sequence<UInt8>>(target: BundleID, documentBytes document: Bytes?) -> UInt64 {
        seed(targetSeed: targetSeed(target), documentBytes: document)
    }

    /// The part of the seed that depends on the target alone: FNV-1a over its bytes and a 0 byte
    /// (the JSON Lines fast path keeps it with a remembered decision).
    static func targetSeed(_ target: BundleID) -> UInt64 {
        FNV1a.hash(bytes: CollectionOfOne(0), continuing: FNV1a.hash(target.rawValue))
    }

    /// The seed from ``targetSeed(_:)`` and the document's bytes, if any.
    static func seed<Bytes: Sequence<UInt8>>(targetSeed hash: UInt64, documentBytes document: Bytes?) -> UInt64 {
        guard let document else { return hash }
        return FNV1a.hash(bytes: document, continuing: FNV1a.hash(bytes: CollectionOfOne(1), continuing: hash))
    }

    /// What every dummy name starts with.
    package static let prefix = "AppConnect-Blocked-"

    /// Appends what follows ``prefix`` in the dummy name for `seed` — 16 hex digits and the
    /// extension — as UTF-8, as ``make(seed:)`` writes it, without making a string.
    static func appendHexAndExtension(seed: UInt64, to sink: inout RecordSink) {
        let digits: StaticString = "0123456789abcdef"
        var shift = 60
        while shift >= 0 {
            sink.append(digits.utf8Start[Int((seed >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
        sink.append(UInt8(ascii: "."))
        sink.append(fileExtension)
    }

    static func make(seed: UInt64) -> String {
        let hex = String(seed, radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex + "." + fileExtension
    }
}

extension Decision {
    /// The dummy file's name when the outcome is ``Outcome/substituteDummyFile``.
    public var dummyFileName: String? {
        guard outcome == .substituteDummyFile, let target else { return nil }
        return DummyFileName.make(target: target, document: substitutedDocument)
    }
}
