import OpenInPolicy

/// GitHub-flavoured Markdown as GitHub renders it (cmark-gfm with its table, autolink, strikethrough and tag filter
/// extensions, and math between `$`), for output pasted into a pull-request comment: the one escaping of text and
/// the one of code spans, used by every Markdown writer.
///
/// A name shows as itself or as a visible escape, never as markup: it is elided in the middle past
/// ``String/shownNameLimit`` characters, its control, bidirectional and invisible characters are written as
/// ``DecisionText/escaped(_:backslash:)`` writes them (`\u{202E}`), and then
/// - in text, every ASCII character that can start inline markup, HTML, an entity, math or a table cell is
///   backslash-escaped, and the four things GitHub links without any markup — `://`, `www.`, `@` (an address,
///   a mention) and `#` before a digit (an issue) — are broken by an empty HTML comment (`<!-- -->`), which GitHub does not show: escapes and
///   character references do not stop an autolink, which is matched on the text after they are decoded;
/// - in a code span nothing is markup and nothing is autolinked: the fence is longer than any run of backticks
///   inside, and `|` is escaped in a table cell (where GitHub splits cells before it reads code spans).
package enum MarkdownText {
    /// The comment that breaks an autolink: empty, so the rendered text is the name itself.
    package static let linkBreak = "<!-- -->"

    /// `text` as Markdown text on one line, shown as itself (see the type's summary).
    package static func text(_ text: String) -> String {
        if plain(text) { return text }
        let scalars = DecisionText.escaped(text.elidedInTheMiddle()).unicodeScalars
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        // The run of `w`s just before, for `www.`; walked by index, so no copy of the scalars is made.
        var ws = 0
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            switch scalar {
            // GitHub links `#123` to an issue after rendering, escaped or not.
            case "#" where next != scalars.endIndex && ("0"..."9").contains(scalars[next]):
                out += "\\#" + linkBreak
            case "\\", "`", "*", "_", "[", "]", "<", ">", "!", "#", "|", "~", "&", "$":
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "@":
                out += "@" + linkBreak
            case ":" where next != scalars.endIndex && scalars[next] == "/" && scalars.index(after: next) != scalars.endIndex
                && scalars[scalars.index(after: next)] == "/":
                out += linkBreak + ":"
            case "." where ws >= 3:
                out += linkBreak + "."
            default:
                out.unicodeScalars.append(scalar)
            }
            ws = scalar == "w" || scalar == "W" ? ws + 1 : 0
            index = next
        }
        return out
    }

    /// Text of several lines (a message, a list of mismatches) for a table cell: each line as ``text(_:)`` shows
    /// it, joined by `<br>`.
    package static func cell(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lines.append(self.text(String(line)))
        }
        return lines.joined(separator: "<br>")
    }

    /// `text` as an inline code span: controls shown as escapes, the fence longer than any run of backticks inside,
    /// padded when the text starts or ends with a backtick or a space; `|` escaped when `inTable`.
    package static func code(_ text: String, inTable: Bool = true) -> String {
        var shown = DecisionText.escaped(text.elidedInTheMiddle())
        if inTable, shown.utf8.contains(UInt8(ascii: "|")) { shown = shown.escapingCharacters { $0 == "|" ? "\\|" : nil } }
        var longest = 0, run = 0
        for byte in shown.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded =
            shown.isEmpty || shown.hasPrefix("`") || shown.hasSuffix("`") || shown.hasPrefix(" ") || shown.hasSuffix(" ") ? " \(shown) " : shown
        return fence + padded + fence
    }

    /// JSON text for a fenced code block: each backtick, and each character the terminal escaping would show as an
    /// escape (controls, separators, bidirectional and invisible characters, which only a JSON string can hold),
    /// written as a JSON `\uXXXX` escape, so the JSON means the same, no fence closes early and nothing reorders.
    static func jsonBlock(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if scalar == "`" || (scalar != "\\" && DecisionText.needsEscape(scalar)) {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A table: the header, its delimiter row, then the rows; every cell is already Markdown.
    package static func table(_ header: [String], _ rows: [[String]]) -> String {
        let line = { (cells: [String]) in "| " + cells.joined(separator: " | ") + " |\n" }
        return line(header) + line(header.map { _ in "---" }) + rows.map(line).joined()
    }

    /// Whether ``text(_:)`` would return `text` as it is: short printable ASCII with no markup character, no `@`,
    /// no `://` and no `www.`; checked on the bytes, so most names cost one scan and no allocation.
    private static func plain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.count > String.shownNameLimit { return false }
            var ws = 0
            for byte in bytes {
                switch byte {
                case 0..<0x20, 0x7F...0xFF: return false
                case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"),
                    UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "|"), UInt8(ascii: "~"),
                    UInt8(ascii: "&"), UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: ":"):
                    return false
                case UInt8(ascii: "w"), UInt8(ascii: "W"): ws += 1
                case UInt8(ascii: ".") where ws >= 3: return false
                default: ws = 0
                }
            }
            return true
        }
    }
}
