import OpenInKit

/// A URL an app opens or a user taps, with its scheme read the way RFC 3986 defines it.
///
/// A valid URL starts with a scheme (a letter, then letters, digits, `+`, `-`
/// or `.`), then `:`, and holds only printable ASCII that RFC 3986 allows,
/// with every `%` followed by two hex digits. Spaces (leading ones included),
/// control characters and raw non-ASCII are errors: the engine never guesses.
public struct ShareURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as written.
    public let rawValue: String
    /// The scheme, lowercased (schemes are case-insensitive: `MAILTO:` is `mailto`).
    public let scheme: String
    /// The ``TableHash`` of `scheme`, computed once, so the engine's scheme tables hash nothing per decision.
    package let schemeHash: UInt64

    /// Validates a URL and extracts its scheme.
    /// - Throws: ``InputError/malformedURL(_:reason:)`` naming what is wrong.
    public init(_ text: String) throws(InputError) {
        // Most URLs are valid: one pass with a table says so and finds the scheme; anything else is
        // read byte by byte, which finds and names the problem.
        let end: Int
        if let checked = ShareURL.schemeEndOfValidURL(text) {
            end = checked
        } else {
            end = try ShareURL.readScheme(text)
        }
        rawValue = text
        scheme = ShareURL.lowercasedScheme(text, end: end)
        schemeHash = TableHash.of(scheme)
    }

    /// Reads `text` byte by byte: the length of its scheme, or the error that names what is wrong.
    static func readScheme(_ text: String) throws(InputError) -> Int {
        var schemeEnd: Int? = nil
        var index = 0
        var pendingHex = 0
        for byte in text.utf8 {
            if schemeEnd == nil {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    break
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    if index == 0 { throw .malformedURL(text, reason: "it does not start with a scheme (a letter)") }
                case UInt8(ascii: ":"):
                    if index == 0 { throw .malformedURL(text, reason: "the scheme before ':' is empty") }
                    schemeEnd = index
                case UInt8(ascii: " "), UInt8(ascii: "\t"):
                    throw .malformedURL(text, reason: index == 0 ? "it starts with a space" : "it contains a space")
                default:
                    throw .malformedURL(text, reason: "it has no scheme (expected e.g. 'mailto:' or 'https:')")
                }
            } else if pendingHex > 0 {
                guard ShareURL.isHexDigit(byte) else {
                    throw .malformedURL(text, reason: "'%' is not followed by two hex digits")
                }
                pendingHex -= 1
            } else if byte == UInt8(ascii: "%") {
                pendingHex = 2
            } else if let problem = ShareURL.problem(with: byte) {
                throw .malformedURL(text, reason: problem)
            }
            index += 1
        }
        guard let end = schemeEnd else {
            throw .malformedURL(text, reason: text.isEmpty ? "it is empty" : "it has no scheme (expected e.g. 'mailto:' or 'https:')")
        }
        if pendingHex > 0 { throw .malformedURL(text, reason: "'%' is not followed by two hex digits") }
        return end
    }

    /// The length of the scheme when `text` is a valid URL, as the reading in ``init(_:)`` defines it; `nil` otherwise.
    static func schemeEndOfValidURL(_ text: String) -> Int? {
        let (schemeByte, afterScheme) = urlBytes
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let first = bytes.first, isLetter(first) else { return nil }
            var index = 1
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                guard schemeByte[Int(bytes[index])] else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let end = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return nil }
                    index += 3
                } else {
                    guard afterScheme[Int(byte)] else { return nil }
                    index += 1
                }
            }
            return end
        } ?? nil
    }

    /// Which bytes may follow the first letter of a scheme, and which may follow the scheme (`%` aside).
    private static let urlBytes: (schemeByte: [Bool], afterScheme: [Bool]) = (
        (0..<256).map { byte in
            let byte = UInt8(byte)
            return isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        },
        (0..<256).map { byte in byte != Int(UInt8(ascii: "%")) && problem(with: UInt8(byte)) == nil }
    )

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// The scheme (the first `end` bytes) in lowercase: ASCII letters lowered, as `lowercased()` does for them.
    private static func lowercasedScheme(_ text: String, end: Int) -> String {
        String(unsafeUninitializedCapacity: end) { buffer in
            // A native string's bytes in place (most URLs); else through its UTF-8 view.
            let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                for index in 0..<end {
                    let byte = bytes[index]
                    buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
            }
            if copied != nil { return end }
            var index = 0
            for byte in text.utf8.prefix(end) {
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                index += 1
            }
            return end
        }
    }

    public var description: String { rawValue }

    /// Whether the scheme is `mailto` (in any case).
    public var isMailto: Bool { scheme == "mailto" }
    /// Whether the scheme is `http` or `https` (a web address).
    public var isWeb: Bool { scheme == "http" || scheme == "https" }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// Why `byte` may not appear after the scheme, or `nil` when it may.
    private static func problem(with byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"): "it contains a space (write %20)"
        case 0..<0x20, 0x7F: "it contains a control character"
        case 0x80...: "it contains a raw non-ASCII character (percent-encode it)"
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"),
             UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            "it contains '\(Character(Unicode.Scalar(byte)))', which a URL may not hold unencoded"
        default: nil
        }
    }
}
