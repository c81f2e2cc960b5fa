/// Makes text that came from input safe to print on one terminal line: the one function every
/// message that quotes input goes through.
///
/// A key, an element name or a stray byte can hold a newline (a fake second line such as
/// `allow: delivered to …`), an escape sequence that rewrites the terminal, a bidirectional
/// override (U+202E) that shows the text backwards, or invisible characters. Each of these is
/// written as an escape: `\n`, `\r`, `\t`, and `\u{…}` with the code point for the other
/// control characters (U+0000–U+001F, U+007F–U+009F), the bidirectional controls (U+061C,
/// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the line and paragraph separators (U+2028,
/// U+2029), and the invisible format characters (U+00AD, U+200B–U+200D, U+2060, U+FEFF).
/// Everything else is kept, so readable text stays readable.
/// - Complexity: O(n) in the text's length.
public enum Printable {
    /// `text` with every character that could forge or hide output escaped; idempotent.
    ///
    /// A message never echoes a whole input: a run of more than `longestRun` characters without
    /// a space (a megabyte bundle ID, number or path) keeps its first `keptOfRun` characters and
    /// says how many bytes it leaves out.
    public static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) || text.utf8.count > longestRun else { return text }
        var result = ""
        var run: [Unicode.Scalar] = []
        func flush() {
            let kept = run.count > longestRun ? run[..<keptOfRun] : run[...]
            for scalar in kept { append(scalar, to: &result) }
            if run.count > longestRun {
                let left = run[keptOfRun...].reduce(0) { $0 + $1.utf8.count }
                result += "…[\(left) more bytes]"
            }
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar == " " {
                flush()
                result.unicodeScalars.append(scalar)
            } else {
                run.append(scalar)
            }
        }
        flush()
        return result
    }

    /// `text` with each run of more than ``longestRun`` characters without a space cut to its first
    /// ``keptOfRun`` and the bytes it leaves out counted, as ``text(_:)`` cuts them; nothing escaped.
    package static func shortened(_ text: String) -> String {
        guard text.utf8.count > longestRun else { return text }
        var result = ""
        var run: [Unicode.Scalar] = []
        func flush() {
            if run.count > longestRun {
                result.unicodeScalars.append(contentsOf: run[..<keptOfRun])
                result += "…[\(run[keptOfRun...].reduce(0) { $0 + $1.utf8.count }) more bytes]"
            } else {
                result.unicodeScalars.append(contentsOf: run)
            }
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar == " " {
                flush()
                result.unicodeScalars.append(scalar)
            } else {
                run.append(scalar)
            }
        }
        flush()
        return result
    }

    /// The longest run of characters without a space a message quotes whole.
    static let longestRun = 200
    /// How much of a longer run a message keeps.
    static let keptOfRun = 120

    /// At most the first ``keptOfRun`` characters of `text`, for a message that quotes an input value.
    package static func prefix(_ text: String) -> String {
        guard text.unicodeScalars.count > keptOfRun else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(keptOfRun))) + "…"
    }

    /// Names for a message: at most `limit`, then "and N more".
    package static func list(_ names: [String], limit: Int = 5) -> String {
        guard names.count > limit else { return names.joined(separator: ", ") }
        return names.prefix(limit).joined(separator: ", ") + " and \(names.count - limit) more"
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard needsEscape(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }

    /// `text` as a quoted string for a message: JSON-escaped (quotes, backslashes, control
    /// characters) and then made printable by ``text(_:)``.
    package static func quoted(_ text: String) -> String {
        Self.text(JSONWriter.quoted(text))
    }

    /// Whether `scalar` must be escaped to print.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xAD, 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }
}
