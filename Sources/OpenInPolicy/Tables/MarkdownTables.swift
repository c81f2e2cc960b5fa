/// Finds the pipe tables of a Markdown text, with the line of every row.
enum MarkdownTables {
    struct Table {
        /// Header cells, trimmed, with their original spelling.
        var header: [String]
        var headerLine: Int
        var rows: [(line: Int, cells: [String])]
    }

    /// Every pipe table outside fenced code blocks. A table is a `|` row followed by a delimiter row.
    static func tables(in text: String) -> [Table] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        if lines.last == "" { lines.removeLast() }
        var tables: [Table] = []
        var inFence = false
        var index = 0
        while index < lines.count {
            let line = lines[index].drop { $0 == " " }
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                inFence.toggle()
                index += 1
                continue
            }
            if !inFence, line.hasPrefix("|"), index + 1 < lines.count, isDelimiter(lines[index + 1]) {
                var table = Table(header: cells(of: line), headerLine: index + 1, rows: [])
                index += 2
                while index < lines.count {
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
        return tables
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
