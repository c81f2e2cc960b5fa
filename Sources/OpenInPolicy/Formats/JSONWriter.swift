/// Writes ``JSONValue``s as JSON text: compact (one line, for JSON Lines) or indented.
///
/// Strings are escaped so the output is valid JSON and safe to embed: `"`,
/// `\`, every control character (U+0000 to U+001F and U+007F), and U+2028 and
/// U+2029 (which end lines in JavaScript) are escaped; other characters are
/// written as UTF-8. Object members keep their order.
public enum JSONWriter {
    /// The value on one line, with no spaces: one JSON Lines record.
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: nil, level: 0)
        return output
    }

    /// The value indented by two spaces per level, members one per line.
    public static func pretty(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: "  ", level: 0)
        return output
    }

    /// A string as a JSON string literal, quotes included.
    public static func quoted(_ string: String) -> String {
        var output = ""
        appendQuoted(string, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String, indent: String?, level: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += number.literal
        case .string(let string): appendQuoted(string, to: &output)
        case .array(let array):
            if array.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (offset, element) in array.enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                write(element, to: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "]"
        case .object(let object):
            if object.members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output += "," }
                newline(&output, indent: indent, level: level + 1)
                appendQuoted(member.key, to: &output)
                output += indent == nil ? ":" : ": "
                write(member.value, to: &output, indent: indent, level: level + 1)
            }
            newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: String?, level: Int) {
        guard let indent else { return }
        output += "\n"
        for _ in 0..<level { output += indent }
    }

    private static func appendQuoted(_ string: String, to output: inout String) {
        output += "\""
        var plainStart = string.unicodeScalars.startIndex
        var index = plainStart
        let scalars = string.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                output.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                output += escape
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        output += "\""
    }
}
