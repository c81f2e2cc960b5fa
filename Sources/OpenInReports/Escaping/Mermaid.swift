/// Mermaid flowchart labels, written once for every Mermaid writer (the diagrams of `fleet paths` and
/// `fleet diff --format markdown`).
///
/// A label is written inside double quotes (`n1["…"]`, `-->|"…"|`). Mermaid decodes its entity codes (`#quot;`,
/// `#35;`) in a label, reads a backtick-quoted label as Markdown and renders some HTML in labels. ``label(_:)``
/// makes any input show as itself: a long text elided in the middle (at most ``maxCharacters`` characters and
/// ``maxScalars`` Unicode scalars), control, bidirectional and line-separator characters as visible escapes, then
/// every ASCII character but letters, digits, space and `.-_/@+,` as a Mermaid entity code (`#quot;`, `#35;`,
/// `#60;`, `#58;`, …): no label holds `"`, `<`, `>`, `&`, `#` (but the codes' own), a backtick, `|`, `[`, `]` or
/// `:`, so no name closes the label, starts markup or HTML, ends the block, becomes an icon (Mermaid draws
/// `fa:fa-user` as one) or loses a `;` (Mermaid drops the last `;` of a line holding `style`, then `:`, `#` and
/// `;`, ending an entity code). The `d` of `direction` is a code too (`#100;`): Mermaid's lexer reads a whole line
/// holding `direction`, white space and a direction (`LR`, `TB`, …) as a direction statement. Escaped, a scalar
/// is at most 19 bytes (`\u{10FFFF}` as `#92;u#123;10FFFF#125;`), so a label is at most about 3 KB.
package enum MermaidText {
    /// The most characters of a name a label shows before eliding it in the middle (the tables show it whole).
    package static let maxCharacters = 120

    /// The most Unicode scalars a label shows.
    package static let maxScalars = 160

    /// `text` as the inside of a double-quoted Mermaid label; see ``MermaidText``.
    package static func label(_ text: String) -> String {
        let shown = text.elidedInTheMiddle(limit: maxCharacters, scalars: maxScalars)
        var plain = true
        for byte in shown.utf8 where !isKept(byte) { plain = false; break }
        if plain { return withoutDirection(shown) }
        var result = ""
        for scalar in DecisionText.escaped(shown).unicodeScalars {
            switch scalar {
            case _ where scalar.isASCII && isKept(UInt8(scalar.value)): result.unicodeScalars.append(scalar)
            case "\"": result += "#quot;"
            case _ where scalar.isASCII: result += "#\(scalar.value);"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return withoutDirection(result)
    }

    /// `label` with the `d` of each `direction` as `#100;`, so that no line is read as a direction statement.
    private static func withoutDirection(_ label: String) -> String {
        let word = Array("direction".utf8)
        let bytes = Array(label.utf8)
        guard bytes.count >= word.count else { return label }
        var result: [UInt8] = []
        var index = 0
        var found = false
        while index < bytes.count {
            if bytes[index] == word[0], index + word.count <= bytes.count, bytes[index..<(index + word.count)].elementsEqual(word) {
                result += Array("#100;".utf8)
                found = true
            } else {
                result.append(bytes[index])
            }
            index += 1
        }
        return found ? String(decoding: result, as: UTF8.self) : label
    }

    /// Whether an ASCII byte is written as is in a label: letters, digits, space and `.-_/@+,`.
    @inline(__always) private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "@"),
             UInt8(ascii: "+"), UInt8(ascii: ","):
            true
        default: false
        }
    }

    /// The most bytes of a diagram's lines: Mermaid refuses a diagram over 50,000 characters (its default
    /// `maxTextSize`), so long labels draw fewer edges rather than no diagram.
    package static let maxDiagramBytes = 40_000

    /// A fenced `flowchart LR` block: the nodes the drawn edges use (`n1`, `n2`, … in id order, each labelled and
    /// classed by `node`), the edges of `edges` in order while the block stays within ``maxDiagramBytes`` (and `maxBytes`), the class
    /// definitions, and a line counting the edges of `total` not drawn; empty when there is no edge.
    static func flowchart(edges: [(from: Int, to: Int, label: String)], total: Int, maxBytes: Int = maxDiagramBytes,
                                  node: (Int) -> (label: String, style: String?)) -> String {
        flowchartDrawn(edges: edges, total: total, maxBytes: maxBytes, node: node).text
    }

    /// ``flowchart(edges:total:maxBytes:node:)``'s text and how many of `edges` it draws.
    static func flowchartDrawn(edges: [(from: Int, to: Int, label: String)], total: Int, maxBytes: Int = maxDiagramBytes,
                                       node: (Int) -> (label: String, style: String?)) -> (text: String, drawn: Int) {
        if edges.isEmpty { return ("", 0) }
        let head = "\n```mermaid\nflowchart LR\n"
        let classes = "    classDef outside fill:#fde2e1,stroke:#b42318,color:#7a271a\n    classDef source fill:#e0eaff,stroke:#1849a9\n```\n"
        var nodeLines: [Int: String] = [:]
        var edgeLines: [String] = []
        var size = head.utf8.count + classes.utf8.count
        for edge in edges {
            let line = "    n\(edge.from) -->|\"\(label(edge.label))\"| n\(edge.to)\n"
            var added: [(Int, String)] = []
            var cost = line.utf8.count
            for id in [edge.from, edge.to] where nodeLines[id] == nil && !added.contains(where: { $0.0 == id }) {
                let (text, style) = node(id)
                let nodeLine = "    n\(id)[\"\(label(text))\"]\(style.map { ":::" + $0 } ?? "")\n"
                added.append((id, nodeLine))
                cost += nodeLine.utf8.count
            }
            if size + cost > min(maxBytes, maxDiagramBytes) { break }
            size += cost
            for (id, nodeLine) in added { nodeLines[id] = nodeLine }
            edgeLines.append(line)
        }
        var text = head
        for id in nodeLines.keys.sorted() { text += nodeLines[id]! }
        for line in edgeLines { text += line }
        text += classes
        if total > edgeLines.count { text += "\n\(total - edgeLines.count) more edges not drawn.\n" }
        return (text, edgeLines.count)
    }
}
