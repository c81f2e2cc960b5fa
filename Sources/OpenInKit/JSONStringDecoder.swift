/// Decodes the contents of a JSON string (between its quotes) to UTF-8, as ``JSONReader``
/// decodes a string it accepts: the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (a surrogate pair
/// makes one character), and well-formed UTF-8 copied as it is.
///
/// It only says whether the contents are valid (`false` for a bad escape, a lone surrogate,
/// malformed UTF-8 or a control byte): the request stream's fast path then leaves the line
/// to the general path, which words the error. `JSONLinesFastPathTests` check that both
/// read the same strings.
package enum JSONStringDecoder {
    /// Appends the decoded contents to `output`; `false` when they are not a valid JSON string's.
    package static func decode(_ contents: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        var index = 0
        let count = contents.count
        while index < count {
            let byte = contents[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < count else { return false }
                let letter = contents[index + 1]
                index += 2
                if let decoded = JSONBytes.shortEscape(letter) {
                    output.append(decoded)
                    continue
                }
                switch letter {
                case UInt8(ascii: "u"):
                    guard var value = hex4(contents, at: index) else { return false }
                    index += 4
                    if (0xD800...0xDBFF).contains(value) {
                        guard index + 1 < count, contents[index] == UInt8(ascii: "\\"), contents[index + 1] == UInt8(ascii: "u"),
                              let low = hex4(contents, at: index + 2), (0xDC00...0xDFFF).contains(low) else { return false }
                        index += 6
                        value = JSONBytes.combine(high: value, low: low)
                    } else if (0xDC00...0xDFFF).contains(value) {
                        return false
                    }
                    appendUTF8(value, to: &output)
                default:
                    return false
                }
            case 0..<0x20:
                return false
            case 0x80...:
                guard let length = sequenceLength(contents, at: index) else { return false }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: contents[index..<index + length]))
                index += length
            default:
                output.append(byte)
                index += 1
            }
        }
        return true
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONBytes.hexDigit(bytes[start + offset]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `index` (a byte ≥ 0x80), or `nil`.
    private static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard case .valid(let length) = JSONBytes.sequence(in: bytes, at: index) else { return nil }
        return length
    }

    /// A scalar value (not a surrogate, at most 0x10FFFF) as UTF-8.
    private static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
