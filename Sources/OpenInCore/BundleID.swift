#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInKit

/// An app's bundle ID (or an activity type such as `com.apple.UIKit.activity.Mail`).
///
/// Bundle IDs are compared exactly and case-sensitively, as the admin portal
/// treats them. A valid ID is 1 to 255 characters of ASCII letters, digits,
/// `-` and `_`, in one or more segments separated by single dots, with no
/// empty segment.
public struct BundleID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ID as written.
    public let rawValue: String
    /// The ``TableHash`` of `rawValue` (keyed, over every byte), computed once, so set and table lookups do not rehash the string.
    @usableFromInline package let storedHash: UInt64
    /// Whether this is one of the two IDs that together stand for native Mail
    /// (`com.apple.UIKit.activity.Mail`, `com.apple.mobilemail`); decided once, as every listing check asks.
    public let isNativeMail: Bool

    /// Validates and wraps a bundle ID.
    /// - Throws: ``InputError/malformedBundleID(_:reason:)`` naming what is wrong.
    public init(_ text: String) throws(InputError) {
        if let problem = BundleID.problem(in: text) {
            throw .malformedBundleID(text, reason: problem)
        }
        rawValue = text
        storedHash = TableHash.of(text)
        isNativeMail = BundleID.isNativeMail(text)
    }

    /// Wraps an ID already known to be valid (the library's own constants).
    package init(known text: String) {
        precondition(BundleID.problem(in: text) == nil, "invalid built-in bundle ID \(text)")
        rawValue = text
        storedHash = TableHash.of(text)
        isNativeMail = BundleID.isNativeMail(text)
    }

    /// Wraps the bytes of an ID already validated (an entry of a ``BundleIDList``).
    package init(validBytes bytes: UnsafeBufferPointer<UInt8>) {
        rawValue = String(decoding: bytes, as: UTF8.self)
        storedHash = TableHash.of(UnsafeRawBufferPointer(bytes))
        isNativeMail = BundleID.isNativeMail(rawValue)
    }

    private static func isNativeMail(_ text: String) -> Bool {
        ExactText.same(text, "com.apple.UIKit.activity.Mail") || ExactText.same(text, "com.apple.mobilemail")
    }

    // Inlinable: every table and set of bundle IDs in the other modules compares and hashes through these,
    // and a call into this module per comparison is most of a lookup.
    @inlinable
    public static func == (lhs: BundleID, rhs: BundleID) -> Bool {
        lhs.storedHash == rhs.storedHash && sameBytes(lhs.rawValue, rhs.rawValue)
    }

    /// Whether two IDs' texts are the same bytes (called once the hashes agree).
    @usableFromInline
    static func sameBytes(_ a: String, _ b: String) -> Bool { ExactText.same(a, b) }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedHash)
    }

    /// Why `text` is not a valid bundle ID, or `nil` when it is.
    public static func problem(in text: String) -> String? {
        isValid(text) ? nil : readProblem(in: text)
    }

    /// Reads `text` byte by byte and names its first problem (`nil` when there is none).
    static func readProblem(in text: String) -> String? {
        if text.isEmpty { return "it is empty" }
        if text.utf8.count > 255 { return "it is longer than 255 bytes" }
        if let scalar = ExactText.firstNonASCII(in: text) {
            return "it contains \(ExactText.describe(scalar)), which is not ASCII (a bundle ID is ASCII letters, digits, '-', '_' and '.')"
        }
        var segmentLength = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if segmentLength == 0 { return "it has an empty segment (two dots, or a dot at the start)" }
                segmentLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                segmentLength += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                return "it contains a space"
            case UInt8(ascii: ";"), UInt8(ascii: ","):
                return "it contains '\(Character(Unicode.Scalar(byte)))': write one ID per entry"
            case 0..<0x20, 0x7F:
                return "it contains a control character"
            default:
                return "it contains '\(Character(Unicode.Scalar(byte)))' (allowed: letters, digits, '-', '_', '.')"
            }
        }
        if segmentLength == 0 { return "it has an empty segment (a dot at the end)" }
        return nil
    }

    /// Whether `text` is a valid ID, in one pass with a table (``problem(in:)`` then has nothing to say).
    package static func isValid(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { isValid($0) } ?? false
    }

    /// Whether `bytes` spell a valid ID: ``isValid(_:)`` for bytes (a policy file's, decoded in place).
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 1, bytes.count <= 255 else { return false }
        return idBytes.withUnsafeBufferPointer { allowed in
            var segmentLength = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    if segmentLength == 0 { return false }
                    segmentLength = 0
                } else {
                    guard allowed[Int(byte)] else { return false }
                    segmentLength += 1
                }
            }
            return segmentLength > 0
        }
    }

    /// Letters, digits, `-` and `_`: the bytes of a segment.
    private static let idBytes: [Bool] = (0..<256).map { byte in
        let byte = UInt8(byte)
        return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    public var description: String { rawValue }

    /// Byte order (IDs are ASCII, so this is also character order).
    public static func < (lhs: BundleID, rhs: BundleID) -> Bool {
        let fast = lhs.rawValue.utf8.withContiguousStorageIfAvailable { left in
            rhs.rawValue.utf8.withContiguousStorageIfAvailable { right in precedes(left, right) }
        }
        return (fast ?? nil) ?? lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    /// Whether the bytes `left` come before `right` in byte order (a shorter prefix first), as `<` orders IDs.
    @inline(__always)
    package static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = memcmp(a, b, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }
}

extension BundleID {
    /// `com.apple.UIKit.activity.Mail`, the share-sheet activity of native Mail.
    public static let mailActivity = BundleID(known: "com.apple.UIKit.activity.Mail")
    /// `com.apple.mobilemail`, the native Mail app.
    public static let mobileMail = BundleID(known: "com.apple.mobilemail")
    /// `com.mobileiron.ios.emailplus`, the default bundle ID of Email+.
    public static let emailPlus = BundleID(known: "com.mobileiron.ios.emailplus")
    /// `com.mobileiron.ios.webatwork`, the default bundle ID of Web@Work (no public Ivanti page gives the real one; see Rules/web-links.md).
    public static let webAtWork = BundleID(known: "com.mobileiron.ios.webatwork")
    /// `com.apple.keyboard`, the system keyboard (what a `keyboard` request names when it is not a custom keyboard).
    public static let systemKeyboard = BundleID(known: "com.apple.keyboard")
}

extension BundleID {
    /// The bundle ID a fleet's flows use for "any other app": an app the fleet does not name.
    package static let anyOtherApp = BundleID(known: "openin-check.any-other-app")
}
