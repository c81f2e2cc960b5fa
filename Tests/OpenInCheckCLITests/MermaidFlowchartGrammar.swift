import Foundation

// Mermaid's flowchart language as mermaid.js reads it when GitHub renders a ```mermaid block: a recognizer written
// for the tests from the text of Mermaid's grammar (no code of mermaid.js is copied; the rules below restate it).
//
// - Lexer and grammar: github.com/mermaid-js/mermaid, packages/mermaid/src/diagrams/flowchart/parser/flow.jison,
//   read at commit df032c942c32f805a7f4cd1cf30a565e610bc4f1 (the file as commit
//   1a9d45abf0a991c40985021e8b523c32b46dd897 last changed it).
// - The text handling around it, same repository and commit: packages/mermaid/src/preprocess.ts and
//   diagram-api/comments.ts (line ends, comments, directives), mermaidAPI.ts (`maxTextSize`, 50,000), Diagram.ts
//   and utils.ts (`encodeEntities`, `decodeEntities`), diagrams/flowchart/parser/flowParser.ts (`}` before a line
//   end), diagrams/flowchart/flowDb.ts (`addVertex`, `addSingleLink` and `maxEdges` 500, `updateLink`, `setClass`,
//   `destructLink`), rendering-util/createText.ts and handle-markdown-text.ts (what a label shows).
// - Jison as mermaid builds with it (jison 0.4.18: github.com/zaach/jison lib/jison.js, jison-lex 0.3.4
//   regexp-lexer.js, lex-parser 0.1.4 lex.y): the lexer tries the rules of the current start condition in file
//   order and takes the first that matches (not the longest); a rule without `<…>` belongs to INITIAL only (every
//   condition here is exclusive, `%x`), `<*>` to every one; a rule whose pattern ends in a letter or digit gets
//   `\b` appended (so `"end"` is `end\b`, `"v"` is `v\b`); patterns are JavaScript regular expressions on UTF-16
//   code units (`\s` JavaScript's white space, `.` anything but a line terminator). The parser is LALR(1); a
//   shift/reduce conflict keeps the shift, a reduce/reduce conflict the reduction met first.
//
// Mermaid accepts some text that it then draws otherwise than written; `Diagram.misrenders` names each case it
// can state, with why.

/// A recognizer of Mermaid's flowchart language as mermaid.js parses it (see the comment above for the sources).
enum MermaidFlowchart {
    /// Why mermaid.js refuses a diagram: GitHub then shows an error instead of the graph.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// A node as Mermaid's flowDb keeps it.
    struct Vertex: Equatable {
        var id: String
        /// The label as stored: trimmed, Mermaid's entity codes encoded; the id when no label was given.
        var text: String
        /// Whether a label was given (a node only named by an edge shows its id).
        var labelled = false
        /// `text`, `string` (double-quoted) or `markdown` (quoted with backticks).
        var labelType = "text"
        var shape: String?
        var classes: [String] = []
    }

    /// An edge as flowDb keeps it.
    struct Edge: Equatable {
        var from: String
        var to: String
        var text = ""
        var labelType = "text"
        var type = ""
        var stroke = ""
    }

    /// A diagram mermaid.js accepts.
    struct Diagram {
        var direction = "TB"
        var vertices: [Vertex] = []
        var edges: [Edge] = []
        var classes: [String: [String]] = [:]
        var subgraphs: [String] = []
        /// What mermaid.js accepts but draws otherwise than written, each saying why.
        var misrenders: [String] = []
        /// The tokens the lexer made (name and text), for the tests of the lexer's pitfalls.
        var tokens: [(name: String, text: String)] = []

        func vertex(_ id: String) -> Vertex? { vertices.first { $0.id == id } }

        /// What a stored label shows: Mermaid's entity codes made HTML character references (`decodeEntities`),
        /// `\n` and a line feed made line breaks (shown as a line feed), `fa:fa-…` an icon (shown as `[icon …]`),
        /// then the references decoded as a browser does.
        static func shown(_ text: String) -> String {
            var html = MermaidFlowchart.replacing(MermaidFlowchart.decodedEntities(text), "\\n", with: "\n")
            html = html.replacing(#/(fa[bklrs]?):fa-([A-Za-z0-9_-]+)/#.matchingSemantics(.unicodeScalar)) { "[icon \($0.1) \($0.2)]" }
            return htmlDecoded(html)
        }
    }

    /// `text` with each `target` replaced, compared as UTF-16 code units as JavaScript does (a String comparison would
    /// join a character to the marks and joiners after it).
    static func replacing(_ text: String, _ target: String, with replacement: String) -> String {
        let units = Array(text.utf16), needle = Array(target.utf16), with = Array(replacement.utf16)
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            if index + needle.count <= units.count && units[index..<(index + needle.count)].elementsEqual(needle) {
                result += with
                index += needle.count
            } else {
                result.append(units[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF16.self)
    }

    /// Whether `text` holds `part`, as UTF-16 code units.
    static func holds(_ text: String, _ part: String) -> Bool { replacing(text, part, with: "") != text }

    /// utils.ts `decodeEntities`: Mermaid's placeholders made `&#`, `&` and `;`.
    static func decodedEntities(_ text: String) -> String {
        replacing(replacing(replacing(text, "\u{FB02}\u{B0}\u{B0}", with: "&#"), "\u{FB02}\u{B0}", with: "&"), "\u{B6}\u{DF}", with: ";")
    }

    // MARK: the text before the parser (preprocess.ts, comments.ts, mermaidAPI.ts, Diagram.ts, utils.ts, flowParser.ts)

    /// The text of one diagram, parsed as mermaid.js parses a ```mermaid block's contents.
    static func parse(_ source: String) throws -> Diagram {
        var diagram = Diagram()
        var units = Array(source.utf16)
        units = replacingLineEnds(units)
        units = quotingTagAttributes(units)
        units = withoutFrontMatter(units)
        units = withoutDirectives(units)
        units = withoutComments(units)
        units = Array(units.drop { isSpace($0) })
        if units.count > 50_000 { throw Refusal(description: "Maximum text size in diagram exceeded: \(units.count) > 50000 characters (maxTextSize)") }
        let start = units.drop { isSpace($0) }
        guard start.starts(with: "flowchart".utf16) || start.starts(with: "graph".utf16) else {
            throw Refusal(description: "not a flowchart: the text starts with neither flowchart nor graph")
        }
        units = encodingEntities(units, misrenders: &diagram.misrenders)
        units.append(0x0A)
        units = closingBraces(units)
        // The parser asks the lexer for a token when it needs one, as jison's does: a syntax error is met before any
        // lexical error after it.
        var lexer = Lexer(input: units)
        let tokens = try Parser(tables: tables).parse(&lexer, into: &diagram)
        diagram.tokens = tokens.map { ($0.name, $0.text) }
        for token in tokens where token.name.hasPrefix("direction_") {
            if token.text.wholeMatch(of: #/\s*direction\s+(TB|BT|RL|LR|TD)\s*/#.matchingSemantics(.unicodeScalar)) == nil {
                diagram.misrenders.append("a line holding `direction` and a direction is a direction statement (flow.jison's `.*direction\\s+…[^\\n]*`): \(token.text.debugDescription) is lost")
            }
        }
        for vertex in diagram.vertices {
            for name in vertex.classes where diagram.classes[name] == nil {
                diagram.misrenders.append("node \(vertex.id) has class \(name), which no classDef defines")
            }
            if vertex.labelled { checkLabel(vertex.text, type: vertex.labelType, of: "node \(vertex.id)", into: &diagram.misrenders) }
        }
        for edge in diagram.edges {
            checkLabel(edge.text, type: edge.labelType, of: "edge \(edge.from) → \(edge.to)", into: &diagram.misrenders)
            if edge.type == "INVALID" { diagram.misrenders.append("edge \(edge.from) → \(edge.to) starts and ends with different strokes or arrows") }
        }
        return diagram
    }

    /// The contents of every ```mermaid block of a CommonMark text (fences tracked, so a block shown inside a longer
    /// fence is not one).
    static func blocks(inMarkdown text: String) -> [String] {
        var blocks: [String] = []
        var fence: (marker: Character, count: Int, mermaid: Bool)?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            guard let first = trimmed.first, first == "`" || first == "~", line.count - trimmed.count < 4 else {
                if fence != nil { lines.append(line) }
                continue
            }
            let count = trimmed.prefix { $0 == first }.count
            let info = trimmed.dropFirst(count).trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if first == open.marker && count >= open.count && info.isEmpty {
                    if open.mermaid { blocks.append(lines.map { $0 + "\n" }.joined()) }
                    fence = nil
                } else {
                    lines.append(line)
                }
            } else if count >= 3 && !(first == "`" && info.contains("`")) {
                fence = (first, count, info.split(separator: " ").first == "mermaid")
                lines = []
            }
        }
        return blocks
    }

    /// JavaScript's `\s`.
    static func isSpace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// What JavaScript's `.` does not match.
    static func isLineTerminator(_ unit: UInt16) -> Bool { unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029 }

    /// JavaScript's `\w` (ASCII).
    static func isWord(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }

    private static func code(_ character: Character) -> UInt16 { character.utf16.first! }

    /// preprocess.ts: `\r\n?` becomes `\n`.
    private static func replacingLineEnds(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            if units[index] == 0x0D {
                result.append(0x0A)
                index += index + 1 < units.count && units[index + 1] == 0x0A ? 2 : 1
            } else {
                result.append(units[index])
                index += 1
            }
        }
        return result
    }

    /// preprocess.ts: in each `<tag …>`, attributes `="…"` are quoted with `'`.
    private static func quotingTagAttributes(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            if units[index] == code("<"), index + 1 < units.count, isWord(units[index + 1]), let close = units[(index + 1)...].firstIndex(of: code(">")) {
                var part = Array(units[index...close])
                var at = 0
                while at + 1 < part.count {
                    if part[at] == code("="), part[at + 1] == code("\""), let end = part[(at + 2)...].firstIndex(of: code("\"")) {
                        part[at + 1] = code("'")
                        part[end] = code("'")
                        at = end + 1
                    } else {
                        at += 1
                    }
                }
                result += part
                index = close + 1
            } else {
                result.append(units[index])
                index += 1
            }
        }
        return result
    }

    /// frontmatter.ts: a `---` block at the start is configuration, not diagram.
    private static func withoutFrontMatter(_ units: [UInt16]) -> [UInt16] {
        guard units.starts(with: "---".utf16) else { return units }
        let text = String(decoding: units, as: UTF16.self)
        guard let match = text.firstMatch(of: #/^-{3}\s*[\n\r](?s:.*?)[\n\r]-{3}\s*[\n\r]+/#) else { return units }
        return Array(text[match.range.upperBound...].utf16)
    }

    /// utils.ts `removeDirectives`: each `%%{ … }%%` is configuration, not diagram.
    private static func withoutDirectives(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        let open = Array("%%{".utf16), close = Array("}%%".utf16)
        while index < units.count {
            if units[index...].starts(with: open) {
                var end = index + 3
                while end < units.count && !units[end...].starts(with: close) { end += 1 }
                index = min(units.count, end + 3)
            } else {
                result.append(units[index])
                index += 1
            }
        }
        return result
    }

    /// comments.ts: `/^\s*%%(?!{)[^\n]+\n?/gm` removed (a line starting with `%%` and something after it).
    private static func withoutComments(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            if index == 0 || isLineTerminator(units[index - 1]) {
                var at = index
                while at < units.count && isSpace(units[at]) { at += 1 }
                if at + 2 < units.count, units[at] == code("%"), units[at + 1] == code("%"), units[at + 2] != code("{"), units[at + 2] != 0x0A {
                    at += 2
                    while at < units.count && units[at] != 0x0A { at += 1 }
                    if at < units.count { at += 1 }
                    index = at
                    continue
                }
            }
            result.append(units[index])
            index += 1
        }
        return result
    }

    /// utils.ts `encodeEntities`: on a line holding `style` (then `classDef`) with a `:`, non-space up to a `#`, and
    /// a `;` after it, the line's last `;` is dropped (`/style.*:\S*#.*;/g`); then each `#name;` becomes Mermaid's
    /// placeholder (`ﬂ°°` digits `¶ß`, or `ﬂ°` name `¶ß`) that `decodeEntities` makes `&#…;` or `&…;`. A dropped `;`
    /// that ended an entity code leaves the code shown as written: a misrender.
    private static func encodingEntities(_ units: [UInt16], misrenders: inout [String]) -> [UInt16] {
        var units = units
        for keyword in ["style", "classDef"] {
            let word = Array(keyword.utf16)
            var lineStart = 0
            while lineStart <= units.count {
                var lineEnd = lineStart
                while lineEnd < units.count && !isLineTerminator(units[lineEnd]) { lineEnd += 1 }
                let line = units[lineStart..<lineEnd]
                if let found = find(word, in: line), let semicolon = line.lastIndex(of: code(";")), semicolon > found + word.count {
                    var matched = false
                    for colon in (found + word.count)..<semicolon where units[colon] == code(":") {
                        var at = colon + 1
                        while at < semicolon && !isSpace(units[at]) && units[at] != code("#") { at += 1 }
                        if at < semicolon && units[at] == code("#") {
                            matched = true
                            break
                        }
                    }
                    if matched {
                        var start = semicolon - 1
                        while start >= lineStart && isWord(units[start]) { start -= 1 }
                        if start >= lineStart && start < semicolon - 1 && units[start] == code("#") {
                            misrenders.append("encodeEntities drops the last `;` of a line holding \(keyword), `:`, `#` and `;`: the entity code \(String(decoding: units[start..<semicolon], as: UTF16.self))…; shows as written")
                        }
                        units.remove(at: semicolon)
                        lineEnd -= 1
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            if units[index] == code("#") {
                var end = index + 1
                while end < units.count && isWord(units[end]) { end += 1 }
                if end > index + 1 && end < units.count && units[end] == code(";") {
                    let inner = units[(index + 1)..<end]
                    result += Array((inner.allSatisfy { (0x30...0x39).contains($0) } ? "\u{FB02}\u{B0}\u{B0}" : "\u{FB02}\u{B0}").utf16) + inner + Array("\u{B6}\u{DF}".utf16)
                    index = end + 1
                    continue
                }
            }
            result.append(units[index])
            index += 1
        }
        return result
    }

    private static func find(_ needle: [UInt16], in haystack: ArraySlice<UInt16>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// flowParser.ts: `}\s*\n` becomes `}\n`.
    private static func closingBraces(_ units: [UInt16]) -> [UInt16] {
        var result: [UInt16] = []
        var index = 0
        while index < units.count {
            result.append(units[index])
            if units[index] == code("}") {
                var end = index + 1, lastFeed: Int?
                while end < units.count && isSpace(units[end]) {
                    if units[end] == 0x0A { lastFeed = end }
                    end += 1
                }
                if let lastFeed {
                    result.append(0x0A)
                    index = lastFeed + 1
                    continue
                }
            }
            index += 1
        }
        return result
    }

    // MARK: what a label shows (flowDb.ts, createText.ts, handle-markdown-text.ts)

    /// HTML character references decoded as a browser does, for the ones a label can hold here.
    static func htmlDecoded(_ text: String) -> String {
        let named: [String: String] = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": "\u{A0}", "equals": "="]
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let semicolon = scalars[(index + 1)..<min(scalars.count, index + 13)].firstIndex(of: ";") {
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
                let number = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                if let value = named[name] ?? number.flatMap(Unicode.Scalar.init).map({ String($0) }) {
                    result.append(contentsOf: value.unicodeScalars)
                    index = semicolon + 1
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    /// The misrenders of one label: raw markup, a reference no browser decodes, `\n`, an icon, KaTeX.
    private static func checkLabel(_ text: String, type: String, of owner: String, into misrenders: inout [String]) {
        guard type != "markdown" else { return }
        let html = decodedEntities(text)
        if holds(text, "<") || holds(text, ">") { misrenders.append("\(owner): a raw < or > in a label is HTML (\(text.debugDescription))") }
        for match in html.matches(of: #/&(#?[A-Za-z0-9]+);/#.matchingSemantics(.unicodeScalar)) where htmlDecoded(String(match.0)) == String(match.0) {
            misrenders.append("\(owner): \(match.0) is no character reference a browser decodes")
        }
        if holds(text, "&") { misrenders.append("\(owner): a raw & in a label starts an HTML character reference (\(text.debugDescription))") }
        if holds(text, "\\n") { misrenders.append("\(owner): \\n in a label is a line break (nonMarkdownToHTML)") }
        if html.contains(#/fa[bklrs]?:fa-[A-Za-z0-9_-]/#.matchingSemantics(.unicodeScalar)) { misrenders.append("\(owner): fa:fa-… in a label is an icon (replaceIconSubstring)") }
        if html.contains(#/\$\$.*\$\$/#.matchingSemantics(.unicodeScalar)) { misrenders.append("\(owner): $$…$$ in a label is KaTeX") }
    }

    // MARK: the lexer (flow.jison, before `/lex`)

    /// A lexer start condition.
    enum Condition: Hashable, CaseIterable {
        case initial
        case string
        case mdString
        case accTitle
        case accDescr
        case accDescrMultiline
        case dir
        case text
        case ellipseText
        case trapText
        case edgeText
        case thickEdgeText
        case dottedEdgeText
        case click
        case callbackname
        case callbackargs
        case shapeData
        case shapeDataStr
    }

    struct Token {
        var name: String
        var text: String
        var line: Int
    }

    /// What a rule does when it matches.
    enum Action {
        /// `return 'NAME'`.
        case token(String)
        /// `this.begin(…)` or `this.pushState(…)`, then the token if any.
        case push(Condition, String?)
        /// `this.popState()`, then the token if any.
        case pop(String?)
        /// `this.popState(); this.begin(…)`.
        case popPush(Condition)
        /// `graph`, `flowchart`, `flowchart-elk`: the first begins `dir`.
        case graph
        /// `\@\{`: begins `shapeData` with an empty text.
        case shapeStart
        /// `<shapeDataStr>[^\"]+`: line breaks and the spaces after them become `<br/>`.
        case shapeText
    }

    typealias Pattern = @Sendable ([UInt16], Int) -> Int?

    struct Rule {
        /// nil: `<*>`.
        var conditions: [Condition]?
        var pattern: Pattern
        var action: Action
        /// For `.*direction\s+XX[^\n]*`: XX.
        var direction: [UInt16]? = nil
    }

    static func spaces(_ u: [UInt16], _ i: Int) -> Int {
        var i = i
        while i < u.count && isSpace(u[i]) { i += 1 }
        return i
    }

    /// A quoted string of the lexer's rules; `boundary` where lex-parser appends `\b` (the string ends in a letter or digit).
    private static func literal(_ text: String) -> Pattern {
        let needle = Array(text.utf16)
        let boundary = isWord(needle.last!)
        return { u, i in
            guard i + needle.count <= u.count, u[i] == needle[0], u[i..<(i + needle.count)].elementsEqual(needle) else { return nil }
            let end = i + needle.count
            return boundary && end < u.count && isWord(u[end]) ? nil : end
        }
    }

    /// One code unit from `set`.
    private static func one(_ set: String) -> Pattern {
        let units = Set(set.utf16)
        return { u, i in i < u.count && units.contains(u[i]) ? i + 1 : nil }
    }

    /// A run (at least one) of code units not in `set`.
    private static func runNot(_ set: String, least: Int = 1) -> Pattern {
        let units = Set(set.utf16)
        return { u, i in
            var end = i
            while end < u.count && !units.contains(u[end]) { end += 1 }
            return end - i >= least ? end : nil
        }
    }

    /// `\s*<prefix>\s*`-shaped link rules: white space, an optional `[xo<]`, `body`, white space.
    private static func link(_ body: @escaping Pattern) -> Pattern {
        { u, i in
            let start = spaces(u, i)
            var end = body(u, start)
            if end == nil, start < u.count, "xo<".utf16.contains(u[start]) { end = body(u, start + 1) }
            return end.map { spaces(u, $0) }
        }
    }

    /// `\-\-+[-xo>]` (and `\=\=+[=xo>]`): two or more strokes and an end.
    private static func strokes(_ stroke: Character) -> Pattern {
        let s = code(stroke)
        return { u, i in
            var end = i
            while end < u.count && u[end] == s { end += 1 }
            let run = end - i
            if run >= 2, end < u.count, "xo>".utf16.contains(u[end]) { return end + 1 }
            return run >= 3 ? end : nil
        }
    }

    /// The rules of flow.jison's lexer, in its order.
    static let rules: [Rule] = {
        let initial: [Condition] = [.initial]
        var rules: [Rule] = []
        func add(_ conditions: [Condition]?, _ pattern: @escaping Pattern, _ action: Action) { rules.append(Rule(conditions: conditions, pattern: pattern, action: action)) }
        func then(_ first: @escaping Pattern, _ second: @escaping Pattern) -> Pattern { { u, i in first(u, i).flatMap { second(u, $0) } } }
        let lineRest: Pattern = { u, i in
            var end = i
            while end < u.count && u[end] != 0x0A { end += 1 }
            return end
        }
        let space: Pattern = { u, i in spaces(u, i) }
        // Accessibility title and description.
        add(initial, then(then(then(literal("accTitle"), space), literal(":")), space), .push(.accTitle, "acc_title"))
        add([.accTitle], lineRest, .pop("acc_title_value"))
        add(initial, then(then(then(literal("accDescr"), space), literal(":")), space), .push(.accDescr, "acc_descr"))
        add([.accDescr], lineRest, .pop("acc_descr_value"))
        add(initial, then(then(then(literal("accDescr"), space), literal("{")), space), .push(.accDescrMultiline, nil))
        add([.accDescrMultiline], one("}"), .pop(nil))
        add([.accDescrMultiline], runNot("}", least: 0), .token("acc_descr_multiline_value"))
        // Shape data, `@{ … }`.
        add(initial, literal("@{"), .shapeStart)
        add([.shapeData], one("\""), .push(.shapeDataStr, "SHAPE_DATA"))
        add([.shapeDataStr], one("\""), .pop("SHAPE_DATA"))
        add([.shapeDataStr], runNot("\""), .shapeText)
        add([.shapeData], runNot("}^\""), .token("SHAPE_DATA"))
        add([.shapeData], one("}"), .pop(nil))
        // `call name(args)` after `click`.
        add(initial, then(literal("call"), { u, i in spaces(u, i) > i ? spaces(u, i) : nil }), .push(.callbackname, nil))
        add([.callbackname], then(then(one("("), space), one(")")), .pop(nil))
        add([.callbackname], one("("), .popPush(.callbackargs))
        add([.callbackname], runNot("(", least: 0), .token("CALLBACKNAME"))
        add([.callbackargs], one(")"), .pop(nil))
        add([.callbackargs], runNot(")", least: 0), .token("CALLBACKARGS"))
        // Strings: "…" and "`…`" (Markdown).
        add([.mdString], runNot("`\""), .token("MD_STR"))
        add([.mdString], then(one("`"), one("\"")), .pop(nil))
        add(nil, then(one("\""), one("`")), .push(.mdString, nil))
        add([.string], runNot("\""), .token("STR"))
        add([.string], one("\""), .pop(nil))
        add(nil, one("\""), .push(.string, nil))
        // Keywords.
        for (word, name) in [("style", "STYLE"), ("default", "DEFAULT"), ("linkStyle", "LINKSTYLE"), ("interpolate", "INTERPOLATE"), ("classDef", "CLASSDEF"), ("class", "CLASS")] {
            add(initial, literal(word), .token(name))
        }
        add(initial, then(literal("href"), { u, i in i < u.count && isSpace(u[i]) ? i + 1 : nil }), .token("HREF"))
        add(initial, then(literal("click"), { u, i in spaces(u, i) > i ? spaces(u, i) : nil }), .push(.click, nil))
        add([.click], { u, i in i < u.count && isSpace(u[i]) ? i + 1 : nil }, .pop(nil))
        add([.click], { u, i in
            var end = i
            while end < u.count && !isSpace(u[end]) { end += 1 }
            return end
        }, .token("CLICK"))
        for word in ["flowchart-elk", "graph", "flowchart"] { add(initial, literal(word), .graph) }
        add(initial, literal("subgraph"), .token("subgraph"))
        add(initial, { u, i in literal("end")(u, i).flatMap { $0 < u.count && isWord(u[$0]) ? nil : spaces(u, $0) } }, .token("end"))
        for word in ["_self", "_blank", "_parent", "_top"] { add(initial, literal(word), .token("LINK_TARGET")) }
        // The direction after `graph`/`flowchart`.
        add([.dir], { u, i in
            var end = i, lastFeed: Int?
            while end < u.count && isSpace(u[end]) {
                if u[end] == 0x0A { lastFeed = end }
                end += 1
            }
            return lastFeed.map { $0 + 1 }
        }, .pop("NODIR"))
        for value in ["LR", "RL", "TB", "BT", "TD", "BR", "<", ">", "^", "v"] { add([.dir], then(space, literal(value)), .pop("DIR")) }
        // `.*direction\s+XX[^\n]*`: matched by the lexer (``Lexer/directionEnd(_:)``), which finds each `direction` once.
        for value in ["TB", "BT", "RL", "LR", "TD"] {
            rules.append(Rule(conditions: initial, pattern: { _, _ in nil }, action: .token("direction_" + value.lowercased()), direction: Array(value.utf16)))
        }
        // `id@` before an edge: `[^\s\"]+\@(?=[^\{\"])`.
        add(initial, { u, i in
            var end = i
            while end < u.count && !isSpace(u[end]) && u[end] != code("\"") { end += 1 }
            var at = end - 1
            while at > i {
                if u[at] == code("@"), at + 1 < u.count, u[at + 1] != code("{"), u[at + 1] != code("\"") { return at + 1 }
                at -= 1
            }
            return nil
        }, .token("LINK_ID"))
        add(initial, { u, i in
            var end = i
            while end < u.count && (0x30...0x39).contains(u[end]) { end += 1 }
            return end > i ? end : nil
        }, .token("NUM"))
        add(initial, one("#"), .token("BRKT"))
        add(initial, literal(":::"), .token("STYLE_SEPARATOR"))
        add(initial, one(":"), .token("COLON"))
        add(initial, one("&"), .token("AMP"))
        add(initial, one(";"), .token("SEMI"))
        add(initial, one(","), .token("COMMA"))
        add(initial, one("*"), .token("MULT"))
        // Links: `-->`, `---`, `-- text -->`, `==>`, `== text ==>`, `-.->`, `-. text .->`, `~~~`.
        add([.initial, .edgeText], link(strokes("-")), .pop("LINK"))
        add(initial, link(literal("--")), .push(.edgeText, "START_LINK"))
        add([.edgeText], { u, i in i < u.count && (u[i] != code("-") || i + 1 == u.count || u[i + 1] != code("-")) ? i + 1 : nil }, .token("EDGE_TEXT"))
        add([.initial, .thickEdgeText], link(strokes("=")), .pop("LINK"))
        add(initial, link(literal("==")), .push(.thickEdgeText, "START_LINK"))
        add([.thickEdgeText], { u, i in i < u.count && (u[i] != code("=") || i + 1 == u.count || u[i + 1] != code("=")) ? i + 1 : nil }, .token("EDGE_TEXT"))
        add([.initial, .dottedEdgeText], link { u, i in
            var at = i < u.count && u[i] == code("-") ? i + 1 : i
            let dots = at
            while at < u.count && u[at] == code(".") { at += 1 }
            guard at > dots, at < u.count, u[at] == code("-") else { return nil }
            at += 1
            return at < u.count && "xo>".utf16.contains(u[at]) ? at + 1 : at
        }, .pop("LINK"))
        add(initial, link(literal("-.")), .push(.dottedEdgeText, "START_LINK"))
        add([.dottedEdgeText], { u, i in i < u.count && (u[i] != code(".") || i + 1 == u.count || u[i + 1] != code("-")) ? i + 1 : nil }, .token("EDGE_TEXT"))
        add(nil, { u, i in
            let start = spaces(u, i)
            var end = start
            while end < u.count && u[end] == code("~") { end += 1 }
            return end - start >= 3 ? spaces(u, end) : nil
        }, .token("LINK"))
        // Node shapes and their texts.
        add([.ellipseText], then(one("-/)"), one(")")), .pop("-)"))
        add([.ellipseText], { u, i in i < u.count && !"()[]{}".utf16.contains(u[i]) ? i + 1 : nil }, .token("TEXT"))
        add(nil, literal("(-"), .push(.ellipseText, "(-"))
        add([.text], literal("])"), .pop("STADIUMEND"))
        add(nil, literal("(["), .push(.text, "STADIUMSTART"))
        add([.text], literal("]]"), .pop("SUBROUTINEEND"))
        add(nil, literal("[["), .push(.text, "SUBROUTINESTART"))
        add(initial, literal("[|"), .token("VERTEX_WITH_PROPS_START"))
        add(initial, one(">"), .push(.text, "TAGEND"))
        add([.text], literal(")]"), .pop("CYLINDEREND"))
        add(nil, literal("[("), .push(.text, "CYLINDERSTART"))
        add([.text], literal(")))"), .pop("DOUBLECIRCLEEND"))
        add(nil, literal("((("), .push(.text, "DOUBLECIRCLESTART"))
        add([.trapText], then(one("\\(?=]"), one("]")), .pop("TRAPEND"))
        add([.trapText], literal("/]"), .pop("INVTRAPEND"))
        add([.trapText], { u, i in
            guard i < u.count else { return nil }
            if u[i] == code("/") || u[i] == code("\\") { return i + 1 < u.count && u[i + 1] == code("]") ? nil : i + 1 }
            return runNot("\\[](){}/")(u, i)
        }, .token("TEXT"))
        add(nil, literal("[/"), .push(.trapText, "TRAPSTART"))
        add(nil, literal("[\\"), .push(.trapText, "INVTRAPSTART"))
        add(initial, one("<"), .token("TAGSTART"))
        add(initial, one(">"), .token("TAGEND"))
        add(initial, one("^"), .token("UP"))
        add(initial, literal("\\|"), .token("SEP"))
        add(initial, literal("v"), .token("DOWN"))
        add(initial, one("*"), .token("MULT"))
        add(initial, one("#"), .token("BRKT"))
        add(initial, one("&"), .token("AMP"))
        // NODE_STRING: `([A-Za-z0-9!"\#$%&'*+\.`?\\_\/]|\-(?=[^\>\-\.])|=(?!=))+`.
        let nodeCharacters = Set("!\"#$%&'*+.`?\\_/".utf16)
        add(initial, { u, i in
            var end = i
            while end < u.count {
                let unit = u[end]
                if isWord(unit) && unit != code("_") || nodeCharacters.contains(unit) {
                    end += 1
                } else if unit == code("-"), end + 1 < u.count, !">-.".utf16.contains(u[end + 1]) {
                    end += 1
                } else if unit == code("="), end + 1 == u.count || u[end + 1] != code("=") {
                    end += 1
                } else {
                    break
                }
            }
            return end > i ? end : nil
        }, .token("NODE_STRING"))
        add(initial, one("-"), .token("MINUS"))
        add(initial, { u, i in i < u.count && isUnicodeText(u[i]) ? i + 1 : nil }, .token("UNICODE_TEXT"))
        add([.text], one("|"), .pop("PIPE"))
        add(nil, one("|"), .push(.text, "PIPE"))
        add([.text], one(")"), .pop("PE"))
        add(nil, one("("), .push(.text, "PS"))
        add([.text], one("]"), .pop("SQE"))
        add(nil, one("["), .push(.text, "SQS"))
        add([.text], one("}"), .pop("DIAMOND_STOP"))
        add(nil, one("{"), .push(.text, "DIAMOND_START"))
        add([.text], runNot("[](){}|\""), .token("TEXT"))
        add(initial, literal("\\\""), .token("QUOTE"))
        add(initial, { u, i in
            var end = i
            while end < u.count && (u[end] == 0x0A || (u[end] == 0x0D && end + 1 < u.count && u[end + 1] == 0x0A)) { end += u[end] == 0x0D ? 2 : 1 }
            return end > i ? end : nil
        }, .token("NEWLINE"))
        add(initial, { u, i in i < u.count && isSpace(u[i]) ? i + 1 : nil }, .token("SPACE"))
        add(initial, { u, i in i == u.count ? i : nil }, .token("EOF"))
        return rules
    }()

    /// The rules of each condition, in order (jison-lex's `conditions[…].rules`).
    static let rulesByCondition: [Condition: [Rule]] = {
        return Dictionary(uniqueKeysWithValues: Condition.allCases.map { condition in (condition, rules.filter { $0.conditions?.contains(condition) ?? true }) })
    }()

    /// The code units of UNICODE_TEXT, as flow.jison lists them (hexadecimal, ranges with `-`).
    private static let unicodeText: [ClosedRange<UInt16>] = {
        let list = """
            00AA 00B5 00BA 00C0-00D6 00D8-00F6 00F8-02C1 02C6-02D1 02E0-02E4 02EC 02EE 0370-0374 0376 0377 037A-037D 0386
            0388-038A 038C 038E-03A1 03A3-03F5 03F7-0481 048A-0527 0531-0556 0559 0561-0587 05D0-05EA 05F0-05F2 0620-064A
            066E 066F 0671-06D3 06D5 06E5 06E6 06EE 06EF 06FA-06FC 06FF 0710 0712-072F 074D-07A5 07B1 07CA-07EA 07F4 07F5
            07FA 0800-0815 081A 0824 0828 0840-0858 08A0 08A2-08AC 0904-0939 093D 0950 0958-0961 0971-0977 0979-097F
            0985-098C 098F 0990 0993-09A8 09AA-09B0 09B2 09B6-09B9 09BD 09CE 09DC 09DD 09DF-09E1 09F0 09F1 0A05-0A0A 0A0F
            0A10 0A13-0A28 0A2A-0A30 0A32 0A33 0A35 0A36 0A38 0A39 0A59-0A5C 0A5E 0A72-0A74 0A85-0A8D 0A8F-0A91 0A93-0AA8
            0AAA-0AB0 0AB2 0AB3 0AB5-0AB9 0ABD 0AD0 0AE0 0AE1 0B05-0B0C 0B0F 0B10 0B13-0B28 0B2A-0B30 0B32 0B33 0B35-0B39
            0B3D 0B5C 0B5D 0B5F-0B61 0B71 0B83 0B85-0B8A 0B8E-0B90 0B92-0B95 0B99 0B9A 0B9C 0B9E 0B9F 0BA3 0BA4 0BA8-0BAA
            0BAE-0BB9 0BD0 0C05-0C0C 0C0E-0C10 0C12-0C28 0C2A-0C33 0C35-0C39 0C3D 0C58 0C59 0C60 0C61 0C85-0C8C 0C8E-0C90
            0C92-0CA8 0CAA-0CB3 0CB5-0CB9 0CBD 0CDE 0CE0 0CE1 0CF1 0CF2 0D05-0D0C 0D0E-0D10 0D12-0D3A 0D3D 0D4E 0D60 0D61
            0D7A-0D7F 0D85-0D96 0D9A-0DB1 0DB3-0DBB 0DBD 0DC0-0DC6 0E01-0E30 0E32 0E33 0E40-0E46 0E81 0E82 0E84 0E87 0E88
            0E8A 0E8D 0E94-0E97 0E99-0E9F 0EA1-0EA3 0EA5 0EA7 0EAA 0EAB 0EAD-0EB0 0EB2 0EB3 0EBD 0EC0-0EC4 0EC6 0EDC-0EDF
            0F00 0F40-0F47 0F49-0F6C 0F88-0F8C 1000-102A 103F 1050-1055 105A-105D 1061 1065 1066 106E-1070 1075-1081 108E
            10A0-10C5 10C7 10CD 10D0-10FA 10FC-1248 124A-124D 1250-1256 1258 125A-125D 1260-1288 128A-128D 1290-12B0
            12B2-12B5 12B8-12BE 12C0 12C2-12C5 12C8-12D6 12D8-1310 1312-1315 1318-135A 1380-138F 13A0-13F4 1401-166C
            166F-167F 1681-169A 16A0-16EA 1700-170C 170E-1711 1720-1731 1740-1751 1760-176C 176E-1770 1780-17B3 17D7 17DC
            1820-1877 1880-18A8 18AA 18B0-18F5 1900-191C 1950-196D 1970-1974 1980-19AB 19C1-19C7 1A00-1A16 1A20-1A54 1AA7
            1B05-1B33 1B45-1B4B 1B83-1BA0 1BAE 1BAF 1BBA-1BE5 1C00-1C23 1C4D-1C4F 1C5A-1C7D 1CE9-1CEC 1CEE-1CF1 1CF5 1CF6
            1D00-1DBF 1E00-1F15 1F18-1F1D 1F20-1F45 1F48-1F4D 1F50-1F57 1F59 1F5B 1F5D 1F5F-1F7D 1F80-1FB4 1FB6-1FBC 1FBE
            1FC2-1FC4 1FC6-1FCC 1FD0-1FD3 1FD6-1FDB 1FE0-1FEC 1FF2-1FF4 1FF6-1FFC 2071 207F 2090-209C 2102 2107 210A-2113
            2115 2119-211D 2124 2126 2128 212A-212D 212F-2139 213C-213F 2145-2149 214E 2183 2184 2C00-2C2E 2C30-2C5E
            2C60-2CE4 2CEB-2CEE 2CF2 2CF3 2D00-2D25 2D27 2D2D 2D30-2D67 2D6F 2D80-2D96 2DA0-2DA6 2DA8-2DAE 2DB0-2DB6
            2DB8-2DBE 2DC0-2DC6 2DC8-2DCE 2DD0-2DD6 2DD8-2DDE 2E2F 3005 3006 3031-3035 303B 303C 3041-3096 309D-309F
            30A1-30FA 30FC-30FF 3105-312D 3131-318E 31A0-31BA 31F0-31FF 3400-4DB5 4E00-9FCC A000-A48C A4D0-A4FD A500-A60C
            A610-A61F A62A A62B A640-A66E A67F-A697 A6A0-A6E5 A717-A71F A722-A788 A78B-A78E A790-A793 A7A0-A7AA A7F8-A801
            A803-A805 A807-A80A A80C-A822 A840-A873 A882-A8B3 A8F2-A8F7 A8FB A90A-A925 A930-A946 A960-A97C A984-A9B2 A9CF
            AA00-AA28 AA40-AA42 AA44-AA4B AA60-AA76 AA7A AA80-AAAF AAB1 AAB5 AAB6 AAB9-AABD AAC0 AAC2 AADB-AADD AAE0-AAEA
            AAF2-AAF4 AB01-AB06 AB09-AB0E AB11-AB16 AB20-AB26 AB28-AB2E ABC0-ABE2 AC00-D7A3 D7B0-D7C6 D7CB-D7FB F900-FA6D
            FA70-FAD9 FB00-FB06 FB13-FB17 FB1D FB1F-FB28 FB2A-FB36 FB38-FB3C FB3E FB40 FB41 FB43 FB44 FB46-FBB1 FBD3-FD3D
            FD50-FD8F FD92-FDC7 FDF0-FDFB FE70-FE74 FE76-FEFC FF21-FF3A FF41-FF5A FF66-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7
            FFDA-FFDC
            """
        return list.split(whereSeparator: \.isWhitespace).map { item in
            let bounds = item.split(separator: "-").map { UInt16($0, radix: 16)! }
            return bounds[0]...bounds[bounds.count - 1]
        }
    }()

    static func isUnicodeText(_ unit: UInt16) -> Bool { unicodeText.contains { $0.contains(unit) } }

    /// jison-lex's lexer over flow.jison's rules: the first rule of the current condition that matches wins.
    struct Lexer {
        var input: [UInt16]
        var position = 0
        var conditions: [Condition] = [.initial]
        var done = false
        var firstGraph = true
        var line = 1

        /// Where the line holding each position ends, and where each `direction` starts.
        var lineEnds: [Int]
        var directions: [Int] = []

        init(input: [UInt16]) {
            self.input = input
            lineEnds = Array(repeating: input.count, count: input.count + 1)
            for index in input.indices.reversed() { lineEnds[index] = MermaidFlowchart.isLineTerminator(input[index]) ? index : lineEnds[index + 1] }
            let word = Array("direction".utf16)
            for index in input.indices where input[index] == word[0] && index + word.count <= input.count && input[index..<(index + word.count)].elementsEqual(word) {
                directions.append(index)
            }
        }

        /// `.*direction\s+XX[^\n]*` at the position: the last `direction` of the line before which a direction follows.
        func directionEnd(_ value: [UInt16]) -> Int? {
            let lineEnd = lineEnds[position], length = 9
            for at in directions.reversed() where at >= position && at + length <= lineEnd {
                let after = MermaidFlowchart.spaces(input, at + length)
                if after > at + length, after + value.count <= input.count, input[after..<(after + value.count)].elementsEqual(value) {
                    var end = after + value.count
                    while end < input.count && input[end] != 0x0A { end += 1 }
                    return end
                }
            }
            return nil
        }

        mutating func next() throws -> Token {
            while true {
                if done { return Token(name: "$end", text: "", line: line) }
                if position == input.count { done = true }
                let condition = conditions.last!
                var matched: (rule: Rule, end: Int)?
                for rule in MermaidFlowchart.rulesByCondition[condition]! {
                    if let end = rule.direction.map({ directionEnd($0) }) ?? rule.pattern(input, position) {
                        matched = (rule, end)
                        break
                    }
                }
                guard let (rule, end) = matched else {
                    if position == input.count { return Token(name: "$end", text: "", line: line) }
                    let near = String(decoding: input[position..<min(input.count, position + 20)], as: UTF16.self)
                    throw Refusal(description: "Lexical error on line \(line). Unrecognized text: \(near.debugDescription)")
                }
                var text = String(decoding: input[position..<end], as: UTF16.self)
                let at = line
                line += input[position..<end].filter { $0 == 0x0A }.count
                let moved = end > position
                position = end
                var name: String?
                switch rule.action {
                case .token(let token): name = token
                case .push(let next, let token):
                    conditions.append(next)
                    name = token
                case .pop(let token):
                    if conditions.count > 1 { conditions.removeLast() }
                    name = token
                case .popPush(let next):
                    if conditions.count > 1 { conditions.removeLast() }
                    conditions.append(next)
                case .graph:
                    if firstGraph {
                        firstGraph = false
                        conditions.append(.dir)
                    }
                    name = "GRAPH"
                case .shapeStart:
                    conditions.append(.shapeData)
                    text = ""
                    name = "SHAPE_DATA"
                case .shapeText:
                    text = text.replacing(#/\n\s*/#, with: "<br/>")
                    name = "SHAPE_DATA"
                }
                if let name { return Token(name: name, text: text, line: at) }
                if !moved && conditions.count > 40 { throw Refusal(description: "the lexer loops on line \(line)") }
            }
        }
    }

    // MARK: the grammar (flow.jison, after `/lex`), one line per rule, `|` between alternatives

    static let grammar = """
        start: graphConfig document
        document: | document line
        line: statement | SEMI | NEWLINE | SPACE | EOF
        graphConfig: SPACE graphConfig | NEWLINE graphConfig | GRAPH NODIR | GRAPH DIR FirstStmtSeparator
        ending: endToken ending | endToken
        endToken: NEWLINE | SPACE | EOF
        FirstStmtSeparator: SEMI | NEWLINE | spaceList NEWLINE
        spaceListNewline: SPACE spaceListNewline | NEWLINE spaceListNewline | NEWLINE | SPACE
        spaceList: SPACE spaceList | SPACE
        statement: vertexStatement separator | styleStatement separator | linkStyleStatement separator | classDefStatement separator \
        | classStatement separator | clickStatement separator | subgraph SPACE textNoTags SQS text SQE separator document end \
        | subgraph SPACE textNoTags separator document end | subgraph separator document end | direction \
        | acc_title acc_title_value | acc_descr acc_descr_value | acc_descr_multiline_value
        separator: NEWLINE | SEMI | EOF
        shapeData: shapeData SHAPE_DATA | SHAPE_DATA
        vertexStatement: vertexStatement link node shapeData | vertexStatement link node | vertexStatement link node spaceList \
        | node spaceList | node shapeData | node
        node: styledVertex | node shapeData spaceList AMP spaceList styledVertex | node spaceList AMP spaceList styledVertex
        styledVertex: vertex | vertex STYLE_SEPARATOR idString
        vertex: idString SQS text SQE | idString DOUBLECIRCLESTART text DOUBLECIRCLEEND | idString PS PS text PE PE \
        | idString (- text -) | idString STADIUMSTART text STADIUMEND | idString SUBROUTINESTART text SUBROUTINEEND \
        | idString VERTEX_WITH_PROPS_START NODE_STRING COLON NODE_STRING PIPE text SQE | idString CYLINDERSTART text CYLINDEREND \
        | idString PS text PE | idString DIAMOND_START text DIAMOND_STOP | idString DIAMOND_START DIAMOND_START text DIAMOND_STOP DIAMOND_STOP \
        | idString TAGEND text SQE | idString TRAPSTART text TRAPEND | idString INVTRAPSTART text INVTRAPEND \
        | idString TRAPSTART text INVTRAPEND | idString INVTRAPSTART text TRAPEND | idString
        link: linkStatement arrowText | linkStatement TESTSTR SPACE | linkStatement arrowText SPACE | linkStatement \
        | START_LINK edgeText LINK | LINK_ID START_LINK edgeText LINK
        edgeText: edgeTextToken | edgeText edgeTextToken | STR | MD_STR
        linkStatement: LINK | LINK_ID LINK
        arrowText: PIPE text PIPE
        text: textToken | text textToken | STR | MD_STR
        keywords: STYLE | LINKSTYLE | CLASSDEF | CLASS | CLICK | GRAPH | DIR | subgraph | end | DOWN | UP
        textNoTags: textNoTagsToken | textNoTags textNoTagsToken | STR | MD_STR
        classDefStatement: CLASSDEF SPACE idString SPACE stylesOpt
        classStatement: CLASS SPACE idString SPACE idString
        clickStatement: CLICK CALLBACKNAME | CLICK CALLBACKNAME SPACE STR | CLICK CALLBACKNAME CALLBACKARGS \
        | CLICK CALLBACKNAME CALLBACKARGS SPACE STR | CLICK HREF STR | CLICK HREF STR SPACE STR | CLICK HREF STR SPACE LINK_TARGET \
        | CLICK HREF STR SPACE STR SPACE LINK_TARGET | CLICK alphaNum | CLICK alphaNum SPACE STR | CLICK STR | CLICK STR SPACE STR \
        | CLICK STR SPACE LINK_TARGET | CLICK STR SPACE STR SPACE LINK_TARGET
        styleStatement: STYLE SPACE idString SPACE stylesOpt
        linkStyleStatement: LINKSTYLE SPACE DEFAULT SPACE stylesOpt | LINKSTYLE SPACE numList SPACE stylesOpt \
        | LINKSTYLE SPACE DEFAULT SPACE INTERPOLATE SPACE alphaNum SPACE stylesOpt | LINKSTYLE SPACE numList SPACE INTERPOLATE SPACE alphaNum SPACE stylesOpt \
        | LINKSTYLE SPACE DEFAULT SPACE INTERPOLATE SPACE alphaNum | LINKSTYLE SPACE numList SPACE INTERPOLATE SPACE alphaNum
        numList: NUM | numList COMMA NUM
        stylesOpt: style | stylesOpt COMMA style
        style: styleComponent | style styleComponent
        styleComponent: NUM | NODE_STRING | COLON | UNIT | SPACE | BRKT | STYLE | PCT
        idStringToken: NUM | NODE_STRING | DOWN | MINUS | DEFAULT | COMMA | COLON | AMP | BRKT | MULT | UNICODE_TEXT
        textToken: TEXT | TAGSTART | TAGEND | UNICODE_TEXT
        textNoTagsToken: NUM | NODE_STRING | SPACE | MINUS | AMP | UNICODE_TEXT | COLON | MULT | BRKT | keywords | START_LINK
        edgeTextToken: EDGE_TEXT | UNICODE_TEXT
        alphaNumToken: NUM | UNICODE_TEXT | NODE_STRING | DIR | DOWN | MINUS | COMMA | COLON | AMP | BRKT | MULT
        idString: idStringToken | idString idStringToken
        alphaNum: alphaNumToken | alphaNum alphaNumToken
        direction: direction_tb | direction_bt | direction_rl | direction_lr | direction_td
        """

    // MARK: LALR(1) tables, built as jison builds them

    struct Production {
        var lhs: Int
        var rhs: [Int]
        /// `lhs: rhs`, as the grammar above spells it.
        var key: String
    }

    enum Act: Equatable {
        case shift(Int)
        case reduce(Int)
        case accept
    }

    struct Tables {
        var names: [String] = []
        var index: [String: Int] = [:]
        var isTerminal: [Bool] = []
        var productions: [Production] = []
        var actions: [[Int: Act]] = []
        var gotos: [[Int: Int]] = []
        /// Conflicts resolved by jison's defaults (shift; the reduction met first).
        var conflicts = 0
    }

    static let tables: Tables = {
        var tables = Tables()
        var rules: [(String, [String])] = [("$accept", ["start", "$end"])]
        for line in grammar.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let lhs = String(parts[0])
            for alternative in parts[1].split(separator: "|", omittingEmptySubsequences: false) {
                rules.append((lhs, alternative.split(separator: " ").map(String.init)))
            }
        }
        let nonterminals = Set(rules.map(\.0))
        func symbol(_ name: String) -> Int {
            if let known = tables.index[name] { return known }
            tables.index[name] = tables.names.count
            tables.names.append(name)
            tables.isTerminal.append(!nonterminals.contains(name))
            return tables.names.count - 1
        }
        for (lhs, rhs) in rules {
            tables.productions.append(Production(lhs: symbol(lhs), rhs: rhs.map(symbol), key: "\(lhs): \(rhs.joined(separator: " "))"))
        }
        let count = tables.names.count
        let end = tables.index["$end"]!
        var byLHS = Array(repeating: [Int](), count: count)
        for (number, production) in tables.productions.enumerated() { byLHS[production.lhs].append(number) }
        // Nullable and FIRST.
        var nullable = Array(repeating: false, count: count)
        var first = (0..<count).map { tables.isTerminal[$0] ? Set([$0]) : Set<Int>() }
        var changed = true
        while changed {
            changed = false
            for production in tables.productions {
                var all = true
                for symbol in production.rhs {
                    let before = first[production.lhs].count
                    first[production.lhs].formUnion(first[symbol])
                    if first[production.lhs].count != before { changed = true }
                    if !nullable[symbol] {
                        all = false
                        break
                    }
                }
                if all && !nullable[production.lhs] {
                    nullable[production.lhs] = true
                    changed = true
                }
            }
        }
        func firstOf(_ symbols: ArraySlice<Int>) -> (Set<Int>, Bool) {
            var result = Set<Int>()
            for symbol in symbols {
                result.formUnion(first[symbol])
                if !nullable[symbol] { return (result, false) }
            }
            return (result, true)
        }
        // LR(0) item sets in jison's order: kernel items first, then each round of expansions.
        typealias Item = Int
        func item(_ production: Int, _ dot: Int) -> Item { production << 8 | dot }
        func marked(_ item: Item) -> Int? {
            let rhs = tables.productions[item >> 8].rhs
            return item & 0xFF < rhs.count ? rhs[item & 0xFF] : nil
        }
        func closure(_ kernel: [Item]) -> [Item] {
            var result: [Item] = [], seen = Set<Item>(), expanded = Set<Int>()
            var batch = kernel
            while !batch.isEmpty {
                for element in batch where seen.insert(element).inserted { result.append(element) }
                var next: [Item] = []
                for element in batch {
                    guard let symbol = marked(element), !tables.isTerminal[symbol], expanded.insert(symbol).inserted else { continue }
                    for production in byLHS[symbol] where !seen.contains(item(production, 0)) { next.append(item(production, 0)) }
                }
                batch = next
            }
            return result
        }
        var states: [[Item]] = [closure([item(0, 0)])]
        var kernels: [[Item]] = [[item(0, 0)]]
        var known: [[Item]: Int] = [[item(0, 0)]: 0]
        var edges: [[Int: Int]] = [[:]]
        var marker = 0
        while marker < states.count {
            for element in states[marker] {
                guard let symbol = marked(element), symbol != end, edges[marker][symbol] == nil else { continue }
                let kernel = states[marker].filter { marked($0) == symbol }.map { $0 + 1 }
                let key = kernel.sorted()
                if let existing = known[key] {
                    edges[marker][symbol] = existing
                } else {
                    known[key] = states.count
                    edges[marker][symbol] = states.count
                    states.append(closure(kernel))
                    kernels.append(kernel)
                    edges.append([:])
                }
            }
            marker += 1
        }
        // LALR(1) lookaheads: each state's LR(1) closure from its kernel's lookaheads, carried along the edges to a fixpoint.
        var kernelLookaheads: [[Item: Set<Int>]] = kernels.map { Dictionary(uniqueKeysWithValues: $0.map { ($0, Set<Int>()) }) }
        kernelLookaheads[0][item(0, 0)] = [end]
        func closed(_ state: Int) -> [Item: Set<Int>] {
            var lookaheads = kernelLookaheads[state]
            var again = true
            while again {
                again = false
                for element in states[state] {
                    guard let symbol = marked(element), !tables.isTerminal[symbol] else { continue }
                    let production = tables.productions[element >> 8]
                    var (follow, passes) = firstOf(production.rhs[((element & 0xFF) + 1)...])
                    if passes { follow.formUnion(lookaheads[element] ?? []) }
                    for next in byLHS[symbol] {
                        let before = lookaheads[item(next, 0)]?.count ?? -1
                        lookaheads[item(next, 0), default: []].formUnion(follow)
                        if lookaheads[item(next, 0)]!.count != before { again = true }
                    }
                }
            }
            return lookaheads
        }
        changed = true
        while changed {
            changed = false
            for state in states.indices {
                let lookaheads = closed(state)
                for element in states[state] {
                    guard let symbol = marked(element), let target = edges[state][symbol] else { continue }
                    let before = kernelLookaheads[target][element + 1]!.count
                    kernelLookaheads[target][element + 1]!.formUnion(lookaheads[element] ?? [])
                    if kernelLookaheads[target][element + 1]!.count != before { changed = true }
                }
            }
        }
        // Actions: shifts and gotos, accept, then reductions in the order the items were met.
        for state in states.indices {
            var actions: [Int: Act] = [:], gotos: [Int: Int] = [:]
            for (symbol, target) in edges[state] {
                if tables.isTerminal[symbol] { actions[symbol] = .shift(target) } else { gotos[symbol] = target }
            }
            if states[state].contains(where: { marked($0) == end }) { actions[end] = .accept }
            let lookaheads = closed(state)
            for element in states[state] where marked(element) == nil {
                for terminal in (lookaheads[element] ?? []).sorted() {
                    if let existing = actions[terminal] {
                        if existing != .reduce(element >> 8) { tables.conflicts += 1 }
                    } else {
                        actions[terminal] = .reduce(element >> 8)
                    }
                }
            }
            tables.actions.append(actions)
            tables.gotos.append(gotos)
        }
        return tables
    }()

    // MARK: the parser and flowDb's effects

    /// A semantic value.
    enum Value {
        case none
        case text(String)
        case label(String, type: String)
        case ids([String])
        case statement(stmt: [String], nodes: [String])
        case link(Link)
        case list([String])

        var string: String {
            switch self {
            case .text(let text): text
            case .label(let text, _): text
            default: ""
            }
        }

        var strings: [String] {
            switch self {
            case .ids(let ids): ids
            case .list(let list): list
            case .statement(let stmt, _): stmt
            default: []
            }
        }
    }

    /// A link as the grammar's actions build it.
    struct Link {
        var type: String
        var stroke: String
        var text: (String, String)?
    }

    struct Parser {
        var tables: Tables

        /// flowDb's `destructLink`: an edge's arrow and stroke from its end (and start) text.
        static func destructLink(_ text: String, start: String? = nil) -> Link {
            let end = trimmed(text)
            var line = String(end.dropLast())
            var type = "arrow_open"
            switch end.last {
            case "x":
                type = "arrow_cross"
                if end.hasPrefix("x") {
                    type = "double_" + type
                    line = String(line.dropFirst())
                }
            case ">":
                type = "arrow_point"
                if end.hasPrefix("<") {
                    type = "double_" + type
                    line = String(line.dropFirst())
                }
            case "o":
                type = "arrow_circle"
                if end.hasPrefix("o") {
                    type = "double_" + type
                    line = String(line.dropFirst())
                }
            default: break
            }
            var stroke = line.hasPrefix("=") ? "thick" : line.hasPrefix("~") ? "invisible" : "normal"
            if line.contains(".") { stroke = "dotted" }
            guard let start else { return Link(type: type, stroke: stroke) }
            var opening = trimmed(start)
            var startType = "arrow_open"
            switch opening.first {
            case "<": startType = "arrow_point"
            case "x": startType = "arrow_cross"
            case "o": startType = "arrow_circle"
            default: break
            }
            if startType != "arrow_open" { opening = String(opening.dropFirst()) }
            let startStroke = opening.contains(".") ? "dotted" : opening.contains("=") ? "thick" : "normal"
            if startStroke != stroke { return Link(type: "INVALID", stroke: "INVALID") }
            if startType == "arrow_open" { return Link(type: type, stroke: stroke) }
            if startType != type { return Link(type: "INVALID", stroke: "INVALID") }
            return Link(type: "double_" + startType, stroke: stroke)
        }

        /// JavaScript's `trim()`.
        static func trimmed(_ text: String) -> String {
            let units = Array(text.utf16)
            guard let first = units.firstIndex(where: { !MermaidFlowchart.isSpace($0) }), let last = units.lastIndex(where: { !MermaidFlowchart.isSpace($0) }) else { return "" }
            return String(decoding: units[first...last], as: UTF16.self)
        }

        /// flowDb: a stored text that starts and ends with `"` loses them.
        static func unquoted(_ text: String) -> String {
            let units = Array(text.utf16)
            guard units.count >= 2, units.first == 0x22, units.last == 0x22 else { return text }
            return String(decoding: units.dropFirst().dropLast(), as: UTF16.self)
        }

        /// flowDb's `addVertex`.
        static func addVertex(_ id: String, text: (String, String)?, shape: String?, to diagram: inout Diagram) {
            if trimmed(id).isEmpty { return }
            var index = diagram.vertices.firstIndex { $0.id == id }
            if index == nil {
                diagram.vertices.append(Vertex(id: id, text: id))
                index = diagram.vertices.count - 1
            }
            if let (label, type) = text {
                diagram.vertices[index!].text = unquoted(trimmed(label))
                diagram.vertices[index!].labelled = true
                diagram.vertices[index!].labelType = type
            }
            if let shape { diagram.vertices[index!].shape = shape }
        }

        /// Parses the lexer's tokens into `diagram`; returns the tokens read.
        func parse(_ lexer: inout Lexer, into diagram: inout Diagram) throws -> [Token] {
            var states = [0]
            var values: [Value] = []
            var tokens = [try lexer.next()]
            while true {
                let token = tokens[tokens.count - 1]
                guard let symbol = tables.index[token.name], tables.isTerminal[symbol], let action = tables.actions[states.last!][symbol] else {
                    let expected = tables.actions[states.last!].keys.map { tables.names[$0] }.sorted()
                    throw Refusal(description: "Parse error on line \(token.line): got \(token.name) \(token.text.debugDescription), expecting \(expected.joined(separator: ", "))")
                }
                switch action {
                case .accept: return tokens
                case .shift(let target):
                    states.append(target)
                    values.append(.text(token.text))
                    tokens.append(try lexer.next())
                case .reduce(let number):
                    let production = tables.productions[number]
                    let arguments = Array(values.suffix(production.rhs.count))
                    values.removeLast(production.rhs.count)
                    states.removeLast(production.rhs.count)
                    values.append(try Self.reduce(production.key, arguments, &diagram))
                    states.append(tables.gotos[states.last!][production.lhs]!)
                }
            }
        }

        /// The grammar's actions that shape the diagram; the others keep `$1`.
        static func reduce(_ key: String, _ v: [Value], _ diagram: inout Diagram) throws -> Value {
            func label(_ value: Value) -> (String, String)? {
                if case .label(let text, let type) = value { return (text, type) }
                return nil
            }
            func addLink(_ from: [String], _ to: [String], _ value: Value) throws {
                guard case .link(let link) = value else { return }
                for start in from {
                    for end in to {
                        var edge = Edge(from: start, to: end, type: link.type, stroke: link.stroke)
                        if let (text, type) = link.text {
                            edge.text = unquoted(trimmed(text))
                            edge.labelType = type
                        }
                        guard diagram.edges.count < 500 else { throw Refusal(description: "Edge limit exceeded: more than 500 edges (maxEdges)") }
                        diagram.edges.append(edge)
                    }
                }
            }
            func setClass(_ ids: String, _ name: String) {
                for id in ids.split(separator: ",", omittingEmptySubsequences: false) {
                    if let index = diagram.vertices.firstIndex(where: { $0.id == id }) { diagram.vertices[index].classes.append(name) }
                }
            }
            let shapes: [String: String] = [
                "SQS": "square", "DOUBLECIRCLESTART": "doublecircle", "(-": "ellipse", "STADIUMSTART": "stadium", "SUBROUTINESTART": "subroutine",
                "VERTEX_WITH_PROPS_START": "rect", "CYLINDERSTART": "cylinder", "PS": "round", "DIAMOND_START": "diamond", "TAGEND": "odd",
                "TRAPSTART TRAPEND": "trapezoid", "INVTRAPSTART INVTRAPEND": "inv_trapezoid", "TRAPSTART INVTRAPEND": "lean_right",
                "INVTRAPSTART TRAPEND": "lean_left",
            ]
            let parts = key.split(separator: ":", maxSplits: 1)
            let lhs = String(parts[0]), rhs = parts[1].split(separator: " ").map(String.init)
            switch lhs {
            case "graphConfig" where rhs.first == "GRAPH":
                var direction = rhs.count == 2 ? "TB" : trimmed(v[1].string)
                for (mark, name) in [("<", "RL"), ("^", "BT"), (">", "LR"), ("v", "TB")] where direction.contains(mark) { direction = name }
                diagram.direction = direction == "TD" ? "TB" : direction
                return .none
            case "statement" where rhs.first == "subgraph":
                diagram.subgraphs.append(rhs.count == 4 ? "" : v[2].string)
                return .none
            case "vertexStatement":
                if rhs.first == "vertexStatement" {
                    guard case .statement(let stmt, let nodes) = v[0] else { return .none }
                    try addLink(stmt, v[2].strings, v[1])
                    return .statement(stmt: v[2].strings, nodes: v[2].strings + nodes)
                }
                return .statement(stmt: v[0].strings, nodes: v[0].strings)
            case "node":
                return .ids(rhs.count == 1 ? [v[0].string] : v[0].strings + [v[v.count - 1].string])
            case "styledVertex":
                if rhs.count == 3 { setClass(v[0].string, v[2].string) }
                return .text(v[0].string)
            case "vertex":
                let id = v[0].string
                if rhs.count == 1 {
                    addVertex(id, text: nil, shape: nil, to: &diagram)
                } else {
                    let text = v.compactMap(label).first
                    var shape = shapes[rhs[1]] ?? ""
                    if rhs[1] == "PS" && rhs[2] == "PS" { shape = "circle" }
                    if rhs[1] == "DIAMOND_START" && rhs[2] == "DIAMOND_START" { shape = "hexagon" }
                    if rhs[1].hasSuffix("TRAPSTART") { shape = shapes["\(rhs[1]) \(rhs[3])"]! }
                    addVertex(id, text: text, shape: shape, to: &diagram)
                }
                return .text(id)
            case "link":
                switch rhs {
                case ["linkStatement"]: return v[0]
                case ["START_LINK", "edgeText", "LINK"], ["LINK_ID", "START_LINK", "edgeText", "LINK"]:
                    var link = destructLink(v[v.count - 1].string, start: v[v.count - 3].string)
                    link.text = label(v[v.count - 2])
                    return .link(link)
                default:
                    guard case .link(var link) = v[0] else { return .none }
                    link.text = label(v[1]) ?? (v[1].string, "text")
                    return .link(link)
                }
            case "linkStatement": return .link(destructLink(v[v.count - 1].string))
            case "arrowText": return v[1]
            case "text", "edgeText", "textNoTags":
                if rhs == ["STR"] { return .label(v[0].string, type: lhs == "textNoTags" ? "text" : "string") }
                if rhs == ["MD_STR"] { return .label(v[0].string, type: "markdown") }
                if rhs.count == 2, case .label(let text, let type) = v[0] {
                    if type == "string" && lhs != "textNoTags" {
                        diagram.misrenders.append("a quoted string followed by unquoted text (a raw \" inside the quotes): the quotes vanish, \((text + v[1].string).debugDescription) shows")
                    }
                    return .label(text + v[1].string, type: type)
                }
                return .label(v[0].string, type: "text")
            case "classDefStatement":
                for id in v[2].string.split(separator: ",", omittingEmptySubsequences: false) { diagram.classes[String(id)] = v[4].strings }
                return .none
            case "classStatement":
                setClass(v[2].string, v[4].string)
                return .none
            case "styleStatement":
                addVertex(v[2].string, text: nil, shape: nil, to: &diagram)
                return .none
            case "linkStyleStatement":
                for position in v[2].strings {
                    if let number = Int(position), number >= diagram.edges.count {
                        throw Refusal(description: "The index \(number) for linkStyle is out of bounds (\(diagram.edges.count) edges)")
                    }
                }
                return .none
            case "numList", "stylesOpt":
                return .list(rhs.count == 1 ? [v[0].string] : v[0].strings + [v[2].string])
            case "idString", "alphaNum", "style":
                return .text(v.map(\.string).joined())
            case "textToken", "idStringToken", "textNoTagsToken", "edgeTextToken", "alphaNumToken", "styleComponent", "keywords", "direction", "separator":
                return v[0]
            default:
                return v.first ?? .none
            }
        }
    }
}
