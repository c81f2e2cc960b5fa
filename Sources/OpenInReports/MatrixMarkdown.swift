import OpenInPolicy

/// `matrix --format markdown`: the same header, grids and legend as the text, as GitHub-flavoured Markdown.
extension PolicyMatrix {
    /// The same header, grids and legend as ``render()``, as GitHub-flavoured Markdown.
    public func markdown() -> String {
        var text = headerLines.map(MarkdownText.cell).joined(separator: "<br>\n") + "\n\n"
        for grid in grids {
            let rows = grid.rows.map { row in
                [MarkdownText.code(row.channel.rawValue)] + row.cells.map { $0.hasSuffix("*") ? $0.dropLast() + "\\*" : $0 }
            }
            text += MarkdownText.table(([grid.title] + grid.headers).map(MarkdownText.cell), rows) + "\n"
        }
        text += """
            Outcomes: allow = delivered to the target; redirect = delivered to Email+ or Web@Work instead;
            dummy = the target receives a dummy file it cannot open (substitute-dummy-file);
            deny = nothing is delivered; \\* = the library calls a callback on the app's delegate;
            · = the channel does not take this kind of target; - = the policy has no such target.

            Examples:

            """
        for (name, example) in examples {
            text += "- \(name): \(MarkdownText.cell(example))\n"
        }
        let dataGrids = dataControlGrids
        guard !dataGrids.isEmpty else { return text }
        text += "\nBeyond Open In:<br>\n" + dataControlLines.map(MarkdownText.cell).joined(separator: "<br>\n") + "\n\n"
        for grid in dataGrids {
            let rows = grid.rows.map { row in
                [MarkdownText.code(row.channel.rawValue)] + row.cells.map { $0.hasSuffix("*") ? $0.dropLast() + "\\*" : $0 }
            }
            text += MarkdownText.table(([grid.title] + grid.headers).map(MarkdownText.cell), rows) + "\n"
        }
        text += MarkdownText.cell(Self.dataControlLegend.split(separator: "\n").map { $0.hasPrefix("  ") ? $0.dropFirst(2) : $0 }.joined(separator: " ")) + "\n\nExamples:\n\n"
        for (name, example) in dataControlExamples {
            text += "- \(name): \(MarkdownText.cell(example))\n"
        }
        return text
    }
}
