import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Finds the pipe tables of a Markdown text, with the line of every row.
enum MarkdownTables {
    package struct Table {
        /// Header cells, trimmed, with their original spelling.
        package var header: [String]
        var headerLine: Int
        package var rows: [(line: Int, cells: [String])]
        /// The line above the table, in its section, that names what its rows run against
        /// (`Policy: [title](PATH)`), if any: see ``TableSource``.
        package var source: SourceLine? = nil
    }

    /// A line that names what the tables below it run against: one of ``TableSource/keywords``
    /// at the start of the line (after at most three spaces), outside code blocks.
    struct SourceLine: Hashable {
        /// The keyword, colon included (`Policy:`).
        let keyword: String
        /// What follows the keyword, trimmed.
        package let text: String
        /// The line's 1-based number.
        package let line: Int

        package init?(_ line: Substring, number: Int) {
            let indent = line.prefix { $0 == " " }
            guard indent.count <= 3 else { return nil }
            let rest = line.dropFirst(indent.count)
            guard let keyword = TableSource.keywords.first(where: { rest.hasPrefix($0) }) else { return nil }
            self.keyword = keyword
            text = String(rest.dropFirst(keyword.count).trimmingSpaces)
            self.line = number
        }
    }

    /// Whether `line` is an ATX heading (`#` to `######`, then a space or the end), which starts a section.
    static func isHeading(_ line: Substring) -> Bool {
        let indent = line.prefix { $0 == " " }
        guard indent.count <= 3 else { return false }
        let rest = line.dropFirst(indent.count)
        let hashes = rest.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return false }
        let after = rest.dropFirst(hashes.count)
        return after.isEmpty || after.first == " " || after.first == "\t"
    }

    /// The lines of `text` without their line breaks: `\n`, `\r\n` (one `Character` in Swift) and a lone
    /// trailing `\r` all end a line, so a file saved with Windows line endings reads like one with Unix ones.
    static func lines(of text: String) -> [Substring] {
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// An opening or closing code fence: three or more backticks or tildes, after at most three spaces.
    struct Fence {
        package let character: Character
        let length: Int
        /// Whether anything follows the fence characters (an info string such as `sh`).
        let hasInfo: Bool

        package init?(_ line: Substring) {
            let indent = line.prefix { $0 == " " }
            guard indent.count <= 3, let first = line.dropFirst(indent.count).first, first == "`" || first == "~" else { return nil }
            let rest = line.dropFirst(indent.count)
            let run = rest.prefix { $0 == first }
            guard run.count >= 3 else { return nil }
            character = first
            length = run.count
            hasInfo = !rest.dropFirst(run.count).trimmingSpaces.isEmpty
        }

        package var text: String { String(repeating: character, count: length) }

        /// Whether `other` closes a block this fence opened (CommonMark: same character, at least as long, no info string).
        func isClosed(by other: Fence) -> Bool {
            other.character == character && other.length >= length && !other.hasInfo
        }
    }

    /// Every pipe table outside fenced code blocks. A table is a `|` row followed by a delimiter row.
    /// - Throws: ``TableError`` for what would otherwise hide a table or its rows without a word: a code
    ///   fence that is never closed, one closed with the other fence character, and a row indented with a tab.
    package static func tables(in text: String, file: String) throws(TableError) -> [Table] {
        try document(text, file: file).tables
    }

    /// Every pipe table outside fenced code blocks (as ``tables(in:file:)``), each with the source line
    /// that applies to it, and every source line found.
    ///
    /// A source line applies to the tables after it in its section (up to the next heading), until
    /// another source line replaces it; two with no table between them, in one section, are an error.
    /// - Throws: ``TableError`` as ``tables(in:file:)``, and for a second source line before any table uses the first.
    package static func document(_ text: String, file: String) throws(TableError) -> (tables: [Table], sources: [SourceLine]) {
        let lines = lines(of: text)
        var tables: [Table] = []
        var sources: [SourceLine] = []
        /// The source line in force, and whether a table has followed it yet.
        var current: (source: SourceLine, used: Bool)? = nil
        var openFence: (fence: Fence, line: Int)? = nil
        var index = 0
        while index < lines.count {
            let number = index + 1
            if let fence = Fence(lines[index]) {
                if let open = openFence {
                    if open.fence.isClosed(by: fence) {
                        openFence = nil
                    } else if fence.character != open.fence.character, !fence.hasInfo {
                        throw TableError(file: file, line: number, message: "this \(fence.text) line does not close the \(open.fence.text) code block opened on line \(open.line): close a block with the characters that opened it")
                    }
                } else {
                    openFence = (fence, number)
                }
                index += 1
                continue
            }
            if openFence != nil {
                index += 1
                continue
            }
            try rejectTabIndent(lines[index], file: file, line: number)
            if isHeading(lines[index]) {
                current = nil
                index += 1
                continue
            }
            if let source = SourceLine(lines[index], number: number) {
                if let previous = current, !previous.used {
                    throw TableError(file: file, line: number, message: "a second '\(source.keyword)' line before any table: line \(previous.source.line) already names what the next table runs against; keep one")
                }
                current = (source, false)
                sources.append(source)
                index += 1
                continue
            }
            let line = lines[index].drop { $0 == " " }
            if line.hasPrefix("|"), index + 1 < lines.count, isDelimiter(lines[index + 1]) {
                try rejectTabIndent(lines[index + 1], file: file, line: number + 1)
                var table = Table(header: cells(of: line), headerLine: number, rows: [], source: current?.source)
                if current != nil { current!.used = true }
                index += 2
                while index < lines.count {
                    try rejectTabIndent(lines[index], file: file, line: index + 1)
                    let row = lines[index].drop { $0 == " " }
                    guard row.hasPrefix("|") else { break }
                    table.rows.append((line: index + 1, cells: cells(of: row)))
                    index += 1
                }
                tables.append(table)
                continue
            }
            index += 1
        }
        if let open = openFence {
            throw TableError(file: file, line: open.line, message: "this \(open.fence.text) code block is never closed, so nothing after it is read: close it with a \(open.fence.text) line")
        }
        return (tables, sources)
    }

    /// Throws for a `|` row indented with a tab: Markdown reads it as code, not as a table row.
    private static func rejectTabIndent(_ line: Substring, file: String, line number: Int) throws(TableError) {
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        guard indent.contains("\t"), line.dropFirst(indent.count).hasPrefix("|") else { return }
        throw TableError(file: file, line: number, message: "this table row is indented with a tab, which Markdown reads as code, not as a row: indent it with spaces, or not at all")
    }

    /// Whether `line` is a delimiter row such as `|---|:---:|`.
    static func isDelimiter(_ line: Substring) -> Bool {
        let trimmed = line.trimmingSpaces
        guard trimmed.hasPrefix("|"), trimmed.contains("-") else { return false }
        return trimmed.allSatisfy { "|-: \t".contains($0) }
    }

    /// The cells of a row: split on unescaped `|`, trimmed, `\|` unescaped, surrounding backticks removed.
    package static func cells(of line: Substring) -> [String] {
        var trimmed = line.trimmingSpaces
        if trimmed.hasPrefix("|") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix("|") && !trimmed.hasSuffix("\\|") { trimmed = trimmed.dropLast() }
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in trimmed {
            if escaped {
                if character != "|" { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current)
        return cells.map { cell in
            var value = Substring(cell).trimmingSpaces
            if value.count >= 2, value.hasPrefix("`"), value.hasSuffix("`") { value = value.dropFirst().dropLast() }
            return String(value)
        }
    }
}
