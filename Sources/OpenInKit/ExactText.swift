/// Protocol strings compared as the SDK compares them: by their UTF-8 bytes.
///
/// Swift's `String ==` and `String` hashing use canonical equivalence, so
/// `"BLOC\u{212A}ING" == "BLOCKING"` (U+212A KELVIN SIGN decomposes to `K`)
/// and `";" == "\u{037E}"` (GREEK QUESTION MARK). The SDK reads
/// `NSDictionary` keys and splits lists by exact code units, so for it those
/// are different strings. Every key, bundle ID, scheme, separator and name
/// the engine reads goes through these functions, never through `==` on
/// `String` or a `String`-keyed dictionary.
public enum ExactText {
    /// Whether `a` and `b` are the same bytes.
    @_specialize(exported: true, where A == String, B == String)
    @_specialize(exported: true, where A == Substring, B == String)
    @_specialize(exported: true, where A == String, B == Substring)
    @_specialize(exported: true, where A == Substring, B == Substring)
    public static func same<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `a` and `b` are the same bytes (two strings: compared in their contiguous storage when they have it).
    @inlinable
    public static func same(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            // The loop written here, not a call: this function is inlined into the other modules, and a
            // `package` function is not (Swift 6.3), so a call would cross into this module per comparison.
            b.utf8.withContiguousStorageIfAvailable { right -> Bool in
                guard left.count == right.count else { return false }
                guard left.count > 0, let l = left.baseAddress, let r = right.baseAddress else { return true }
                for offset in 0..<left.count where l[offset] != r[offset] { return false }
                return true
            }
        }
        return (fast ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `a` and `b` are the same bytes once ASCII letters are folded to lowercase
    /// (every other byte, non-ASCII included, must match exactly).
    @_specialize(exported: true, where A == String, B == String)
    @_specialize(exported: true, where A == Substring, B == String)
    @_specialize(exported: true, where A == String, B == Substring)
    @_specialize(exported: true, where A == Substring, B == Substring)
    package static func sameIgnoringASCIICase<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        a.utf8.elementsEqual(b.utf8) { lowercased($0) == lowercased($1) }
    }

    /// Whether `text` is `a`, `b` and `c` joined, ASCII letters in any case and every other byte exactly:
    /// a spelling made of parts (`ACPasteboardPolicy` + `SecureCopy`) compared without making it.
    package static func sameIgnoringASCIICase(_ text: String, joining a: String, _ b: String, _ c: String = "") -> Bool {
        let bytes = text.utf8
        guard bytes.count == a.utf8.count + b.utf8.count + c.utf8.count else { return false }
        var index = bytes.startIndex
        func follows(_ part: String.UTF8View) -> Bool {
            for byte in part {
                guard lowercased(bytes[index]) == lowercased(byte) else { return false }
                bytes.formIndex(after: &index)
            }
            return true
        }
        return follows(a.utf8) && follows(b.utf8) && follows(c.utf8)
    }

    /// Whether `text` is a byte-exact member of `candidates`.
    @_specialize(exported: true, where S == String)
    @_specialize(exported: true, where S == Substring)
    package static func isOne<S: StringProtocol>(_ text: S, of candidates: [String]) -> Bool {
        candidates.contains { same(text, $0) }
    }

    /// Whether `text` is a byte-exact member of `candidates` (a string: each compared in contiguous storage).
    package static func isOne(_ text: String, of candidates: [String]) -> Bool {
        candidates.contains { same(text, $0) }
    }

    /// `text` split at every `separator` byte (an ASCII character), empty pieces kept.
    ///
    /// Unlike `String.split(separator: ";")`, which compares `Character`s and so also splits
    /// at U+037E GREEK QUESTION MARK, this splits only where the byte is.
    package static func split(_ text: String, at separator: Unicode.Scalar) -> [Substring] {
        precondition(separator.isASCII)
        return text.utf8.split(separator: UInt8(separator.value), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// The first scalar of `text` outside ASCII, if any.
    @_specialize(exported: true, where S == String)
    @_specialize(exported: true, where S == Substring)
    package static func firstNonASCII<S: StringProtocol>(in text: S) -> Unicode.Scalar? {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        return text.unicodeScalars.first { !$0.isASCII }
    }

    /// How a message names a scalar: `'K' (U+212A KELVIN SIGN)`; an invisible one is shown by code point only.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        let name = scalar.properties.name ?? scalar.properties.nameAlias
        let visible = scalar.properties.generalCategory.isVisible
        let shown = visible ? "'\(Character(scalar))' " : ""
        return name.map { "\(shown)(\(code) \($0))" } ?? "\(shown)(\(code))"
    }

    /// `text` with its ASCII letters lowercased: the case-insensitive names' folding.
    @_specialize(exported: true, where S == String)
    @_specialize(exported: true, where S == Substring)
    package static func asciiLowercased<S: StringProtocol>(_ text: S) -> String {
        String(decoding: text.utf8.map(lowercased), as: UTF8.self)
    }

    @inlinable @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Checks that a name the SDK spells in ASCII is ASCII.
    /// - Returns: `nil`, or the problem: "it contains 'K' (U+212A KELVIN SIGN), which is not ASCII".
    @_specialize(exported: true, where S == String)
    @_specialize(exported: true, where S == Substring)
    package static func asciiProblem<S: StringProtocol>(in text: S) -> String? {
        firstNonASCII(in: text).map { "it contains \(describe($0)), which is not ASCII: the SDK's names are ASCII and compared byte for byte" }
    }
}

/// A string key hashed and compared by its bytes, for dictionaries of protocol strings.
package struct ExactKey: Hashable, Sendable, Comparable {
    /// The key as written.
    package let text: String

    @inlinable
    package init(_ text: String) { self.text = text }

    @inlinable
    package static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { ExactText.same(lhs.text, rhs.text) }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte order, so sorted output is the same on every platform.
    @inlinable
    package static func < (lhs: ExactKey, rhs: ExactKey) -> Bool { lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8) }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

private extension Unicode.GeneralCategory {
    /// Whether a scalar of this category shows as a glyph (not a control, format, separator or unassigned).
    var isVisible: Bool {
        switch self {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator,
             .nonspacingMark, .enclosingMark:
            false
        default:
            true
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether two byte buffers hold the same bytes (a plain loop: the buffers here are short).
    @inlinable
    package func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let left = baseAddress, let right = other.baseAddress else { return true }
        for offset in 0..<count where left[offset] != right[offset] { return false }
        return true
    }
}
