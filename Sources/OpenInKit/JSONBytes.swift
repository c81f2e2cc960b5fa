/// The byte-level rules of JSON strings both readers apply, written once: the
/// JSON reader (which says what is wrong) and the request stream's string
/// decoder (which only needs to know whether a value is well formed).
enum JSONBytes {
    /// What stands at a byte ≥ 0x80: a well-formed UTF-8 sequence of some length, or why not.
    package enum Sequence: Equatable {
        /// A well-formed sequence of this many bytes (2 to 4).
        case valid(length: Int)
        /// The byte cannot start a character.
        case invalidLead
        /// The bytes end inside the character.
        case truncated
        /// A continuation byte is out of range (an overlong form, a surrogate, beyond U+10FFFF).
        case malformed
    }

    /// Checks the sequence starting at `index` (a byte ≥ 0x80) against Unicode's table of
    /// well-formed UTF-8 byte sequences.
    @inline(__always)
    static func sequence(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Sequence {
        let length: Int
        var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F
        default: return .invalidLead
        }
        guard bytes.count - index >= length else { return .truncated }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard offset == 1 ? (lowest...highest).contains(byte) : (0x80...0xBF).contains(byte) else { return .malformed }
        }
        return .valid(length: length)
    }

    /// The byte a one-letter escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`), or `nil`.
    @inline(__always)
    static func shortEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The scalar value a `\uD8xx\uDCxx` pair stands for.
    @inline(__always)
    static func combine(high: UInt32, low: UInt32) -> UInt32 { 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00) }

    /// The value of one hex digit (`0`–`9`, `a`–`f`, `A`–`F`), or `nil`.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
