import OpenInCore
import OpenInFleet
import OpenInKit

/// Reads the plain form of a request line straight from its bytes, without building a ``JSONValue``.
///
/// The plain form is what programs write: one JSON object with the keys of
/// ``RequestLine`` (`id`, `channel`, `target`, `url`, `document`), each at most
/// once, in any order, with spaces or tabs around the punctuation; string
/// values, or an `id` that is a string or a JSON number. A value holding an
/// escape or a byte above 0x7E is marked ``Fields/encoded``, and the fast path
/// decodes it with ``JSONStringDecoder`` (declining the line if it is not
/// valid). Anything else — an escaped key, other keys, `null`, a control byte
/// or DEL in a string, a missing channel, a byte order mark, a carriage return
/// inside the line, a value of another type — is not plain, and ``scan(_:)``
/// returns `nil`: the line then goes through ``RequestLine/read(_:reader:)``,
/// which reads all of JSON and says what is wrong. So the scanner never has to
/// agree with the general reader on an error, only on plain lines, where both
/// read the same strings.
package enum RequestLineScanner {
    /// Where a plain line's fields are, as byte offsets into the line.
    package struct Fields {
        /// The `id` as written: a string with its quotes, or a number's literal.
        package var id: Range<Int>? = nil
        /// The contents of the `channel` string.
        package var channel: Range<Int> = 0..<0
        /// The contents of the `target` string.
        package var target: Range<Int>? = nil
        /// The contents of the `url` string.
        package var url: Range<Int>? = nil
        /// The contents of the `document` string.
        package var document: Range<Int>? = nil
        /// The fields (a bit per key) whose strings hold an escape or a byte above 0x7E:
        /// their contents must be decoded (``JSONStringDecoder``) before use.
        var encoded: UInt8 = 0

        func isEncoded(_ bit: UInt8) -> Bool { encoded & bit != 0 }
    }

    /// The fields of a plain line, or `nil` when the line is not plain.
    package static func scan(_ line: UnsafeBufferPointer<UInt8>) -> Fields? {
        guard let bytes = line.baseAddress else { return nil }
        var cursor = Cursor(bytes: bytes, end: line.count)
        cursor.skipSpaces()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var fields = Fields()
        var seen: UInt8 = 0
        repeat {
            cursor.skipSpaces()
            let bit: UInt8
            if let compact = cursor.compactKey() {
                bit = compact
            } else {
                guard let name = cursor.string(), !cursor.encoded, let named = cursor.key(name) else { return nil }
                cursor.skipSpaces()
                guard cursor.take(UInt8(ascii: ":")) else { return nil }
                bit = named
            }
            guard seen & bit == 0 else { return nil }
            seen |= bit
            cursor.skipSpaces()
            if bit == idBit {
                let start = cursor.index
                if cursor.next == UInt8(ascii: "\"") {
                    guard cursor.string() != nil else { return nil }
                    if cursor.encoded { fields.encoded |= idBit }
                } else {
                    guard cursor.number() else { return nil }
                }
                fields.id = start..<cursor.index
            } else {
                guard let value = cursor.string() else { return nil }
                if cursor.encoded { fields.encoded |= bit }
                switch bit {
                case channelBit: fields.channel = value
                case targetBit: fields.target = value
                case urlBit: fields.url = value
                default: fields.document = value
                }
            }
            cursor.skipSpaces()
        } while cursor.take(UInt8(ascii: ","))
        guard cursor.take(UInt8(ascii: "}")) else { return nil }
        cursor.skipSpaces()
        guard cursor.index == cursor.end, seen & channelBit != 0 else { return nil }
        return fields
    }

    /// A position in a line. (A struct with mutating methods rather than closures over a
    /// local index: closures not inlined would box the index and check exclusivity at run time.)
    private struct Cursor {
        let bytes: UnsafePointer<UInt8>
        let end: Int
        var index = 0
        /// Whether the last string read holds an escape or a byte above 0x7E.
        var encoded = false

        /// The next byte, or 0 at the end (no plain token starts with 0).
        var next: UInt8 { index < end ? bytes[index] : 0 }

        @inline(__always)
        mutating func skipSpaces() {
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }

        /// Consumes `byte` if it is next.
        @inline(__always)
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < end, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Consumes a plain string (printable ASCII, no escapes) and returns where its contents are.
        @inline(__always)
        mutating func string() -> Range<Int>? {
            encoded = false
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // Eight bytes at a time: skip to the first byte that ends the string or makes it not plain.
            while index + 8 <= end {
                let special = RequestLineScanner.specialBytes(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount / 8
                if bytes[index] != UInt8(ascii: "\"") { return encodedString(from: start) }
                index += 1
                return start..<index - 1
            }
            if end >= 8, index < end {
                // Fewer than eight bytes are left: the line's last eight, shifted so that the first left is
                // the lowest; the zeros shifted in count as special (below 0x20), so a mark on one of them
                // means the line ends before the string does.
                let left = end - index
                let word = UnsafeRawPointer(bytes + end - 8).loadUnaligned(as: UInt64.self) >> UInt64((8 - left) * 8)
                let offset = RequestLineScanner.specialBytes(word).trailingZeroBitCount / 8
                guard offset < left else { return nil }
                index += offset
                if bytes[index] != UInt8(ascii: "\"") { return encodedString(from: start) }
                index += 1
                return start..<index - 1
            }
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<index - 1
                }
                // 0x20 to 0x7E, but not a backslash (an escape).
                guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\\") else { return encodedString(from: start) }
                index += 1
            }
            return nil
        }

        /// The rest of a string that holds an escape or a byte above 0x7E: finds its closing quote
        /// (an escape's next byte is skipped) and marks it ``encoded``; `nil` for a control byte or
        /// no closing quote. Whether the escapes and the UTF-8 are valid is for ``JSONStringDecoder``.
        mutating func encodedString(from start: Int) -> Range<Int>? {
            encoded = true
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<index - 1
                }
                if byte < 0x20 || byte == 0x7F { return nil }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        }

        private func isDigit(_ offset: Int) -> Bool { offset < end && bytes[offset] &- UInt8(ascii: "0") < 10 }

        private mutating func skipDigits() { while isDigit(index) { index += 1 } }

        /// Consumes a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            guard isDigit(index) else { return false }
            index += 1
            if bytes[index - 1] != UInt8(ascii: "0") { skipDigits() }
            if take(UInt8(ascii: ".")) {
                guard isDigit(index) else { return false }
                skipDigits()
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard isDigit(index) else { return false }
                skipDigits()
            }
            return true
        }

        /// Consumes `"key":` written without spaces, for one of the five keys, recognised from one
        /// eight-byte load; returns its bit. Returns `nil`, consuming nothing, for anything else
        /// (the key is then read as a string).
        @inline(__always)
        mutating func compactKey() -> UInt8? {
            guard index + 11 <= end else { return nil }
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            if word & 0xFF_FFFF_FFFF == CompactKey.id {
                index += 5
                return idBit
            }
            if word & 0xFFFF_FFFF_FFFF == CompactKey.url {
                index += 6
                return urlBit
            }
            if word == CompactKey.target, bytes[index + 8] == UInt8(ascii: ":") {
                index += 9
                return targetBit
            }
            if word == CompactKey.channel, bytes[index + 8] == UInt8(ascii: "\""), bytes[index + 9] == UInt8(ascii: ":") {
                index += 10
                return channelBit
            }
            if word == CompactKey.document, bytes[index + 8] == UInt8(ascii: "t"), bytes[index + 9] == UInt8(ascii: "\""),
               bytes[index + 10] == UInt8(ascii: ":") {
                index += 11
                return documentBit
            }
            return nil
        }

        /// Which of the five keys `range` spells, as a bit; `nil` for any other key.
        @inline(__always)
        func key(_ range: Range<Int>) -> UInt8? {
            guard !range.isEmpty else { return nil }
            let candidate: (name: StaticString, bit: UInt8)
            switch (range.count, bytes[range.lowerBound]) {
            case (2, UInt8(ascii: "i")): candidate = ("id", idBit)
            case (7, UInt8(ascii: "c")): candidate = ("channel", channelBit)
            case (6, UInt8(ascii: "t")): candidate = ("target", targetBit)
            case (3, UInt8(ascii: "u")): candidate = ("url", urlBit)
            case (8, UInt8(ascii: "d")): candidate = ("document", documentBit)
            default: return nil
            }
            for offset in 1..<range.count where bytes[range.lowerBound + offset] != candidate.name.utf8Start[offset] { return nil }
            return candidate.bit
        }
    }

    /// The bytes of `word` (eight, little-endian) that end a plain string or make it not plain —
    /// `"`, `\`, below 0x20, above 0x7E — as a mask whose lowest set bit is the high bit of the
    /// first such byte; zero when there is none.
    ///
    /// `(x - 0x01…) & ~x` marks (in each byte's high bit) the zero bytes of `x`, `(w - 0x20…) & ~w`
    /// the bytes below 0x20, and `(w + 0x01…) | w` those from 0x7F up. A borrow or a carry can
    /// mark a byte wrongly, but only one above a byte rightly marked, so the lowest mark is always right.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        return highs & (((word &+ ones) | word)
            | zeroBytes(word ^ (ones &* 0x22))
            | zeroBytes(word ^ (ones &* 0x5C))
            | ((word &- ones &* 0x20) & ~word))
    }

    /// The first bytes of `"key":` for each key, as a little-endian eight-byte load reads them:
    /// `"id":` and `"url":` whole (the load is masked to 5 and 6 bytes), the others' first eight bytes.
    enum CompactKey {
        package static let id: UInt64 = 0x3A_2264_6922
        package static let url: UInt64 = 0x3A22_6C72_7522
        package static let target: UInt64 = 0x2274_6567_7261_7422
        package static let channel: UInt64 = 0x6C65_6E6E_6168_6322
        package static let document: UInt64 = 0x6E65_6D75_636F_6422
    }

    static let idBit: UInt8 = 1
    static let channelBit: UInt8 = 2
    static let targetBit: UInt8 = 4
    static let urlBit: UInt8 = 8
    static let documentBit: UInt8 = 16
}
