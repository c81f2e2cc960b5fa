/// Graphviz DOT text, written once for every DOT writer (`fleet paths --format dot`, `fleet diff --format dot`).
///
/// Graphviz reads a double-quoted string's `\"` and `\\` (and `\N`, `\G`, `\l`, … in labels), and then decodes
/// HTML character references in it (`&amp;`, `&#8238;`, `&#10;`, …) before it draws a label; and it refuses a
/// graph with a quoted string over 16,384 bytes. ``quoted(_:)`` makes any input show as itself: a long text
/// elided in the middle first (at most ``maxScalars`` Unicode scalars, the marker included), control, bidirectional and
/// line-separator characters as visible escapes, `\` and `"` backslash-escaped, and `&` written `&amp;` so that no
/// reference is decoded. Escaped, a scalar is at most 11 bytes (`\\u{10FFFF}`), so a quoted string is at most
/// ``maxQuotedBytes`` bytes whatever the input.
package enum DOTText {
    /// The most Unicode scalars of a text a quoted string shows before eliding it in the middle.
    package static let maxScalars = 1_100

    /// The most bytes a quoted string can have, quotes included: within Graphviz's 16,384.
    package static let maxQuotedBytes = (maxScalars + 40) * 11 + 2

    /// `text` as a DOT double-quoted string, quotes included; see ``DOTText``.
    package static func quoted(_ text: String) -> String {
        let shown = shown(text)
        if isPlain(shown) { return "\"" + shown + "\"" }
        return "\"" + DecisionText.escaped(shown).escapingScalars { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "&": "&amp;"
            default: nil
            }
        } + "\""
    }

    /// `text` as a quoted string shows it: elided to at most ``maxScalars`` Unicode scalars
    /// (``Swift/String/elidedInTheMiddle(limit:scalars:)``).
    package static func shown(_ text: String) -> String { text.elidedInTheMiddle(limit: String.shownNameLimit, scalars: maxScalars) }

    /// Whether `text` is printable ASCII that needs no escape in a quoted string.
    private static func isPlain(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0x20..<0x7F where byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "&"): continue
            default: return false
            }
        }
        return true
    }
}

extension String {
    /// This text elided in the middle to at most `limit` characters (``elidedInTheMiddle(limit:)``) and at most
    /// `scalars` Unicode scalars: when the characters kept still hold more scalars (a grapheme cluster can hold
    /// any number: a letter with many combining marks is one character), the first and last scalars around
    /// `…(N characters)…` instead, N the whole text's count, so that the result has at most `scalars` scalars.
    package func elidedInTheMiddle(limit: Int, scalars: Int) -> String {
        if utf8.count <= Swift.min(limit, scalars) { return self }
        let elided = elidedInTheMiddle(limit: limit)
        if elided.unicodeScalars.count <= scalars { return elided }
        let marker = "…(\(count) characters)…".unicodeScalars
        let keep = Swift.max(2, scalars - marker.count)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: unicodeScalars.prefix(keep - keep / 2))
        result.append(contentsOf: marker)
        result.append(contentsOf: unicodeScalars.suffix(keep / 2))
        return String(result)
    }
}
