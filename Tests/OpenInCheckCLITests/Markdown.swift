import Foundation

/// A Markdown file's fenced code blocks, headings and links, found as CommonMark and GitHub find
/// them, so that the doc-tests run the blocks a reader sees and the structure test checks what
/// GitHub renders.
///
/// Fences (CommonMark 0.31, "Fenced code blocks"): a line of at least three backticks or tildes opens
/// a block (a backtick fence's info string holds no backtick); the block closes only on a line of the
/// same character, at least as long, followed by nothing but spaces or tabs. A block never closed runs
/// to the end of the file. Headings are ATX (`#` to `######` and a space) and setext (a paragraph line
/// underlined with `=` or `-`), outside code blocks.
struct MarkdownFile {
    /// A fenced code block: its info string, the 1-based lines of its fences, and its content lines.
    struct Fence {
        let info: String
        let openLine: Int
        /// The line of the closing fence; `nil` when the block runs to the end of the file.
        let closeLine: Int?
        let lines: [String]
        /// Lines inside the block that look like a closing fence but are not one (text after the fence).
        let notClosing: [Int]
    }

    struct Heading {
        let level: Int
        let text: String
        let line: Int
        /// The anchor GitHub gives it, duplicates numbered (`-1`, `-2`, …) in document order.
        let anchor: String
    }

    struct Link {
        let target: String
        let line: Int
    }

    /// The path relative to the package root.
    let path: String
    let lines: [String]
    private(set) var fences: [Fence] = []
    private(set) var headings: [Heading] = []
    private(set) var links: [Link] = []

    init(path: String, text: String) {
        self.path = path
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        self.lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        scan()
    }

    init(path: String, root: URL = BuiltBinary.packageRoot) throws {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        self.init(path: path, text: text)
    }

    /// A fence line: indentation (at most three spaces), the run of one fence character, and the rest.
    static func fence(_ line: String) -> (character: Character, length: Int, rest: Substring)? {
        let indent = line.prefix { $0 == " " }
        guard indent.count <= 3 else { return nil }
        let body = line.dropFirst(indent.count)
        guard let first = body.first, first == "`" || first == "~" else { return nil }
        let run = body.prefix { $0 == first }
        guard run.count >= 3 else { return nil }
        let rest = body.dropFirst(run.count)
        if first == "`" && rest.contains("`") { return nil }
        return (first, run.count, rest)
    }

    static func isBlank(_ text: some StringProtocol) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "\t" }
    }

    private mutating func scan() {
        var index = 0
        var paragraph = false     // the previous line continues a paragraph (for setext headings)
        var slugs: [String: Int] = [:]
        func addHeading(_ level: Int, _ text: String, _ line: Int) {
            let base = MarkdownFile.anchor(text)
            let count = slugs[base, default: 0]
            slugs[base] = count + 1
            headings.append(Heading(level: level, text: text, line: line, anchor: count == 0 ? base : "\(base)-\(count)"))
        }
        while index < lines.count {
            let line = lines[index]
            if let open = Self.fence(line) {
                var content: [String] = []
                var notClosing: [Int] = []
                var close: Int? = nil
                var end = index + 1
                while end < lines.count {
                    if let candidate = Self.fence(lines[end]), candidate.character == open.character, candidate.length >= open.length {
                        if Self.isBlank(candidate.rest) { close = end; break }
                        notClosing.append(end + 1)
                    }
                    content.append(lines[end])
                    end += 1
                }
                fences.append(Fence(info: open.rest.trimmingCharacters(in: .whitespaces), openLine: index + 1,
                                    closeLine: close.map { $0 + 1 }, lines: content, notClosing: notClosing))
                index = end + 1
                paragraph = false
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count
            if indent <= 3, let hashes = Optional(trimmed.prefix { $0 == "#" }), (1...6).contains(hashes.count),
               trimmed.count == hashes.count || trimmed.dropFirst(hashes.count).first == " " {
                var text = trimmed.dropFirst(hashes.count).trimmingCharacters(in: .whitespaces)
                // An optional closing sequence of #s, preceded by a space.
                let closing = text.reversed().prefix { $0 == "#" }.count
                if closing > 0, closing == text.count || text.dropLast(closing).hasSuffix(" ") {
                    text = String(text.dropLast(closing)).trimmingCharacters(in: .whitespaces)
                }
                addHeading(hashes.count, text, index + 1)
                paragraph = false
            } else if paragraph, indent <= 3, !trimmed.isEmpty,
                      trimmed.allSatisfy({ $0 == "=" }) || (trimmed.allSatisfy({ $0 == "-" }) && trimmed.count >= 1) {
                addHeading(trimmed.first == "=" ? 1 : 2, lines[index - 1].trimmingCharacters(in: .whitespaces), index)
                paragraph = false
            } else {
                // A paragraph line may be underlined; list items, tables, quotes, HTML and blank lines are not paragraphs here.
                let first = trimmed.first
                paragraph = !trimmed.isEmpty && indent <= 3 && first != "|" && first != "<" && first != ">"
                    && !trimmed.hasPrefix("- ") && !trimmed.hasPrefix("* ") && !trimmed.hasPrefix("+ ")
                    && !(trimmed.first?.isNumber == true && trimmed.drop { $0.isNumber }.hasPrefix(". "))
                links += Self.links(in: line).map { Link(target: $0, line: index + 1) }
            }
            index += 1
        }
    }

    /// The targets of inline links `[text](target)` and reference definitions `[label]: target` on a
    /// line, outside code spans.
    static func links(in line: String) -> [String] {
        // Drop code spans (a run of backticks up to the same run).
        var text = ""
        var rest = Substring(line)
        while let tick = rest.firstIndex(of: "`") {
            text += rest[..<tick]
            let run = rest[tick...].prefix { $0 == "`" }
            let after = rest[run.endIndex...]
            if let close = after.range(of: String(run)) {
                rest = after[close.upperBound...]
            } else {
                text += run
                rest = after
            }
        }
        text += rest
        var targets: [String] = []
        var scanner = Substring(text)
        while let open = scanner.range(of: "](") {
            let after = scanner[open.upperBound...]
            var depth = 0
            var end = after.startIndex
            while end < after.endIndex {
                let c = after[end]
                if c == "(" { depth += 1 } else if c == ")" { if depth == 0 { break }; depth -= 1 }
                end = after.index(after: end)
            }
            var target = after[..<end].trimmingCharacters(in: .whitespaces)
            if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }   // a title follows
            if target.hasPrefix("<") && target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
            if !target.isEmpty { targets.append(target) }
            scanner = after[end...]
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), let close = trimmed.range(of: "]: ") {
            let target = trimmed[close.upperBound...].split(separator: " ").first.map(String.init) ?? ""
            if !target.isEmpty { targets.append(target) }
        }
        return targets
    }

    /// The anchor GitHub gives a heading (before duplicates are numbered): the text as rendered (code
    /// spans keep their content, links their text, emphasis loses its markers), lowercased; every
    /// character that is not a letter, a mark, a number, `_`, `-` or a space removed; each space a `-`.
    static func anchor(_ heading: String) -> String {
        var rendered = ""
        var rest = Substring(heading)
        // Links and images render as their text.
        while let open = rest.firstIndex(of: "[") {
            rendered += rest[..<open]
            if let close = rest[open...].range(of: "]("), let end = rest[close.upperBound...].firstIndex(of: ")") {
                rendered += rest[rest.index(after: open)..<close.lowerBound]
                rest = rest[rest.index(after: end)...]
            } else {
                rendered += rest[open...open]
                rest = rest[rest.index(after: open)...]
            }
        }
        rendered += rest
        var slug = ""
        for scalar in rendered.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation:
                slug.unicodeScalars.append(scalar)
            default:
                if scalar == "-" { slug += "-" } else if scalar == " " { slug += "-" }
            }
        }
        return slug
    }
}

/// The Markdown a user reads: the README, the DocC articles, `Rules/` and `Examples/`, as paths
/// relative to the package root.
enum Documentation {
    /// Every `.md` file of the package (outside `.build` and hidden folders), sorted.
    static let markdownFiles: [String] = files { $0.hasSuffix(".md") }

    /// The documents whose command blocks the doc-tests run: README.md and every DocC article.
    static let articles: [String] = ["README.md"] + markdownFiles.filter { $0.hasPrefix("Sources/") && $0.contains(".docc/") }

    static func files(where keep: (String) -> Bool) -> [String] {
        let root = BuiltBinary.packageRoot
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative == ".build" || relative.hasPrefix(".build/") { walker.skipDescendants(); continue }
            if keep(relative), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                found.append(relative)
            }
        }
        return found.sorted()
    }
}
