/// Writes ``JSONValue``s as JSON text: compact (one line, for JSON Lines) or indented.
///
/// Strings are escaped so the output is valid JSON and safe to embed: `"`,
/// `\`, every control character (U+0000 to U+001F and U+007F), and U+2028 and
/// U+2029 (which end lines in JavaScript) are escaped; other characters are
/// written as UTF-8. Object members keep their order.
///
/// Everything is appended to one byte buffer, so writing is linear in the
/// output's size (each append is amortised O(1)).
public enum JSONWriter {
    /// The value on one line, with no spaces: one JSON Lines record.
    public static func compact(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        append(value, to: &output, pretty: false)
        return String(decoding: output, as: UTF8.self)
    }

    /// The value indented by two spaces per level, members one per line.
    public static func pretty(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        append(value, to: &output, pretty: true)
        return String(decoding: output, as: UTF8.self)
    }

    /// A string as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var output: [UInt8] = []
        appendQuoted(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `value`'s JSON text to `output`: compact, or indented as if `level` levels deep
    /// (an element of a streamed array is written at level 1).
    package static func append(_ value: JSONValue, to output: inout [UInt8], pretty: Bool, level: Int = 0) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.literal.utf8)
        case .string(let string): appendQuoted(string, to: &output)
        case .array(let array):
            if array.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (offset, element) in array.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, pretty: pretty, level: level + 1)
                append(element, to: &output, pretty: pretty, level: level + 1)
            }
            newline(&output, pretty: pretty, level: level)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.members.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, pretty: pretty, level: level + 1)
                appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                append(member.value, to: &output, pretty: pretty, level: level + 1)
            }
            newline(&output, pretty: pretty, level: level)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A line break and two spaces per level, when indenting.
    package static func newline(_ output: inout [UInt8], pretty: Bool, level: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// Appends `string` as a JSON string literal, quotes included.
    package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendQuoted(utf8: $0, to: &output) }
    }

    /// Appends UTF-8 text as a JSON string literal: runs of plain bytes are copied whole.
    package static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var plainStart = 0, index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            var length = 1
            var escaped: UInt8? = nil      // the letter after `\` for a short escape
            var code: UInt32? = nil        // the code point for a `\uXXXX` escape
            switch byte {
            case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case 0x08: escaped = UInt8(ascii: "b")
            case 0x0C: escaped = UInt8(ascii: "f")
            case 0x00...0x1F, 0x7F: code = UInt32(byte)
            case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
                code = 0x2000 + UInt32(bytes[index + 2] - 0xA8) + 0x28
                length = 3
            default: break
            }
            if escaped == nil && code == nil {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            output.append(UInt8(ascii: "\\"))
            if let escaped {
                output.append(escaped)
            } else if let code {
                output.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) {
                    let digit = UInt8((code >> UInt32(shift)) & 0xF)
                    output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
                }
            }
            index += length
            plainStart = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<count]))
        output.append(UInt8(ascii: "\""))
    }
}
