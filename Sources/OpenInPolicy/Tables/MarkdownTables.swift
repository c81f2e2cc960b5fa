/// Finds the pipe tables of a Markdown text, with the line of every row.
enum MarkdownTables {
    struct Table {
        /// Header cells, trimmed, with their original spelling.
        var header: [String]
        var headerLine: Int
        var rows: [(line: Int, cells: [String])]
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
        let character: Character
        let length: Int
        /// Whether anything follows the fence characters (an info string such as `sh`).
        let hasInfo: Bool

        init?(_ line: Substring) {
            let indent = line.prefix { $0 == " " }
            guard indent.count <= 3, let first = line.dropFirst(indent.count).first, first == "`" || first == "~" else { return nil }
            let rest = line.dropFirst(indent.count)
            let run = rest.prefix { $0 == first }
            guard run.count >= 3 else { return nil }
            character = first
            length = run.count
            hasInfo = !rest.dropFirst(run.count).trimmingSpaces.isEmpty
        }

        var text: String { String(repeating: character, count: length) }

        /// Whether `other` closes a block this fence opened (CommonMark: same character, at least as long, no info string).
        func isClosed(by other: Fence) -> Bool {
            other.character == character && other.length >= length && !other.hasInfo
        }
    }

    /// Every pipe table outside fenced code blocks. A table is a `|` row followed by a delimiter row.
    /// - Throws: ``TableError`` for what would otherwise hide a table or its rows without a word: a code
    ///   fence that is never closed, one closed with the other fence character, and a row indented with a tab.
    static func tables(in text: String, file: String) throws(TableError) -> [Table] {
        let lines = lines(of: text)
        var tables: [Table] = []
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
            let line = lines[index].drop { $0 == " " }
            if line.hasPrefix("|"), index + 1 < lines.count, isDelimiter(lines[index + 1]) {
                try rejectTabIndent(lines[index + 1], file: file, line: number + 1)
                var table = Table(header: cells(of: line), headerLine: number, rows: [])
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
        return tables
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
    static func cells(of line: Substring) -> [String] {
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

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
