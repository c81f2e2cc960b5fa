/// Reads the plain form of a request line straight from its bytes, without building a ``JSONValue``.
///
/// The plain form is what programs write: one JSON object with the keys of
/// ``RequestLine`` (`id`, `channel`, `target`, `url`, `document`), each at most
/// once, in any order, with spaces or tabs around the punctuation; string
/// values of printable ASCII without escapes; an `id` that is such a string
/// or a JSON number. Anything else — escapes, other bytes, other keys, `null`,
/// a missing channel, a byte order mark, a carriage return inside the line,
/// a value of another type — is not plain, and ``scan(_:)`` returns `nil`:
/// the line then goes through ``RequestLine/read(_:reader:)``, which reads all
/// of JSON and says what is wrong. So the scanner never has to agree with the
/// general reader on an error, only on plain lines, where both read the same
/// strings.
enum RequestLineScanner {
    /// Where a plain line's fields are, as byte offsets into the line.
    struct Fields {
        /// The `id` as written: a string with its quotes, or a number's literal.
        var id: Range<Int>? = nil
        /// The contents of the `channel` string.
        var channel: Range<Int> = 0..<0
        /// The contents of the `target` string.
        var target: Range<Int>? = nil
        /// The contents of the `url` string.
        var url: Range<Int>? = nil
        /// The contents of the `document` string.
        var document: Range<Int>? = nil
    }

    /// The fields of a plain line, or `nil` when the line is not plain.
    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> Fields? {
        guard let bytes = line.baseAddress else { return nil }
        var cursor = Cursor(bytes: bytes, end: line.count)
        cursor.skipSpaces()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var fields = Fields()
        var seen: UInt8 = 0
        repeat {
            cursor.skipSpaces()
            guard let name = cursor.string(), let bit = cursor.key(name), seen & bit == 0 else { return nil }
            seen |= bit
            cursor.skipSpaces()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipSpaces()
            if bit == idBit {
                let start = cursor.index
                if cursor.next == UInt8(ascii: "\"") {
                    guard cursor.string() != nil else { return nil }
                } else {
                    guard cursor.number() else { return nil }
                }
                fields.id = start..<cursor.index
            } else {
                guard let value = cursor.string() else { return nil }
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
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // Eight bytes at a time while none of them ends the string or makes it not plain.
            while index + 8 <= end, RequestLineScanner.allPlain(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)) { index += 8 }
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<index - 1
                }
                // 0x20 to 0x7E, but not a backslash (an escape).
                guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
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

    /// Whether none of the eight bytes of `word` is `"`, `\`, below 0x20 or above 0x7E.
    ///
    /// Each test is exact for the word as a whole: `(x - 0x01…) & ~x & 0x80…` is non-zero
    /// exactly when some byte of `x` is zero, and once no byte has its high bit set,
    /// `(w - 0x20…) & ~w & 0x80…` is non-zero exactly when some byte is below 0x20.
    @inline(__always)
    static func allPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        return word & highs == 0
            && !hasZeroByte(word ^ (ones &* 0x22))
            && !hasZeroByte(word ^ (ones &* 0x5C))
            && !hasZeroByte(word ^ (ones &* 0x7F))
            && (word &- ones &* 0x20) & ~word & highs == 0
    }

    private static let idBit: UInt8 = 1
    private static let channelBit: UInt8 = 2
    private static let targetBit: UInt8 = 4
    private static let urlBit: UInt8 = 8
    private static let documentBit: UInt8 = 16
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether two byte buffers hold the same bytes (a plain loop: the buffers here are short).
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let left = baseAddress, let right = other.baseAddress else { return true }
        for offset in 0..<count where left[offset] != right[offset] { return false }
        return true
    }
}
