import OpenInPolicy

/// GitHub-flavoured Markdown, for output pasted into a pull-request comment.
enum MarkdownText {
    /// Text made safe for a table cell: `|` escaped, line breaks as `<br>`.
    static func cell(_ text: String) -> String {
        text.escapingCharacters { character in
            switch character {
            case "|": "\\|"
            case "\n", "\r\n", "\r": "<br>"
            default: nil
            }
        }
    }

    /// `text` as inline code that survives in a table cell (a longer fence when it holds backticks).
    static func code(_ text: String) -> String {
        let fence = text.contains("`") ? "``" : "`"
        let padding = text.contains("`") ? " " : ""
        return fence + padding + cell(text) + padding + fence
    }

    /// A table: the header, its delimiter row, then the rows; every cell is already Markdown.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let line = { (cells: [String]) in "| " + cells.joined(separator: " | ") + " |\n" }
        return line(header) + line(header.map { _ in "---" }) + rows.map(line).joined()
    }
}

/// GitHub Actions workflow commands: `::error file=…,line=…::message` annotations.
enum GitHubAnnotation {
    /// The annotation kinds a workflow command can raise.
    enum Kind: String {
        case error, warning, notice
    }

    /// One annotation line, its properties and message escaped as the workflow-command format requires.
    static func line(_ kind: Kind, file: String, line: Int?, column: Int? = nil, title: String, message: String) -> String {
        var properties = ["file=" + escapeProperty(file)]
        if let line { properties.append("line=\(line)") }
        if line != nil, let column { properties.append("col=\(column)") }
        properties.append("title=" + escapeProperty(title))
        return "::\(kind.rawValue) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }

    /// `%`, CR and LF percent-encoded, as in a command's message.
    static func escapeData(_ text: String) -> String {
        text.escapingScalars { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            default: nil
            }
        }
    }

    /// A property value: the message's escapes, and `:` and `,` too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingColonsAndCommas
    }
}

private extension String {
    var replacingColonsAndCommas: String {
        escapingCharacters { character in
            switch character {
            case ":": "%3A"
            case ",": "%2C"
            default: nil
            }
        }
    }
}

/// XML 1.0 text and attribute values, for JUnit reports.
enum XMLText {
    /// `text` escaped for element content (`attribute: false`) or a double-quoted attribute value.
    ///
    /// Characters XML 1.0 cannot hold at all (most C0 controls, unpaired surrogates cannot occur in
    /// a Swift string) become U+FFFD, so the document stays well-formed whatever a table holds.
    static func escape(_ text: String, attribute: Bool) -> String {
        text.escapingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"" where attribute: "&quot;"
            case "\n" where attribute: "&#10;"
            case "\r": "&#13;"
            case "\t" where attribute: "&#9;"
            case "\t", "\n": nil
            default: scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
            }
        }
    }
}
