import OpenInPolicy

/// HTML as the report writes it: the one escaping of text content and the one of attribute values, used by every
/// place the report shows a name.
///
/// A name is shown, never acted on: it is elided in the middle past ``String/shownNameLimit`` characters (the page's
/// embedded JSON data keeps it whole), its control, bidirectional, line-separator and invisible formatting characters
/// are written as visible escapes (`\u{202E}`, as ``DecisionText/escaped(_:backslash:)`` writes them, so none reorders
/// or hides the text around it), and `&`, `<`, `>`, `"` and `'` are character references, so no name can make
/// an element, an attribute or an entity.
enum HTMLText {
    /// `text` as the content of an element: shown as the type's summary says.
    package static func text(_ text: String) -> String { escaped(text) }

    /// `text` as an attribute value inside double quotes: the same escaping as ``text(_:)`` (`"` and `'` are
    /// references in both), so an attribute and the element showing the same name match.
    package static func attribute(_ text: String) -> String { escaped(text) }

    /// Preformatted text (a `<pre>` block the page writes itself, such as a JSON Patch): each line shown as
    /// ``text(_:)`` shows it, the line breaks kept.
    static func lines(_ text: String) -> String {
        if plain(text, lineBreaks: true) { return text }
        var out = ""
        var first = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !first { out += "\n" }
            first = false
            out += escaped(String(line))
        }
        return out
    }

    /// Whether `text` is short printable ASCII with nothing to escape (`\n` allowed when `lineBreaks`): checked on
    /// the bytes, so most names cost one scan and no allocation.
    private static func plain(_ text: String, lineBreaks: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.count > String.shownNameLimit && !lineBreaks { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\n") where lineBreaks: continue
                case 0..<0x20, 0x7F...0xFF, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                    return false
                default: continue
                }
            }
            return true
        }
    }

    private static func escaped(_ text: String) -> String {
        if plain(text, lineBreaks: false) { return text }
        let shown = DecisionText.escaped(text.elidedInTheMiddle(), backslash: false)
        var out = ""
        out.reserveCapacity(shown.utf8.count + 16)
        for scalar in shown.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
