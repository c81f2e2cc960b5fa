import OpenInPolicy

/// The results of a `test` run, in each output format: a value in, text out.
public struct TestReport: Sendable {
    /// One check of a `test` run: a decision-table row, or a scenario's timeline.
    public struct Check: Sendable, Equatable {
        /// The table or scenario file.
        public let file: String
        /// The row's line (a scenario's: 1).
        public let line: Int
        /// The row's id, or `timeline` for a scenario.
        public let id: String
        /// What differs; empty when the check passed.
        public let mismatches: [String]

        /// The check `id` of `file` at `line`, and what differs (nothing when it passed).
        public init(file: String, line: Int, id: String, mismatches: [String]) {
            self.file = file
            self.line = line
            self.id = id
            self.mismatches = mismatches
        }

        /// Whether the check passed: nothing differs.
        public var passed: Bool { mismatches.isEmpty }
        /// `file:line`.
        var location: String { "\(file):\(line)" }
        /// `file: id`, the name of the check as a test case.
        var description: String { "\(file): \(id)" }
        /// `file:line: id: mismatch; mismatch`, for a failed check.
        var failureMessage: String? { passed ? nil : "\(location): \(id): " + mismatches.joined(separator: "; ") }
    }

    /// The checks, in run order.
    public let results: [Check]
    /// Whether the text and github formats list the checks that passed too.
    public let verbose: Bool

    /// The report of `results`; `verbose` lists the passed checks too.
    public init(results: [Check], verbose: Bool) {
        self.results = results
        self.verbose = verbose
    }

    /// How many checks failed.
    public var failed: Int { results.count(where: { !$0.passed }) }

    /// `N passed, M failed`: the last line of the text, markdown and github formats.
    var closingLine: String { "\(results.count - failed) passed, \(failed) failed\n" }

    /// A `FAIL` line per failed check (and `pass` per passed one when verbose), then the counts.
    public var text: String {
        var text = ""
        for result in results {
            if let failure = result.failureMessage {
                text += "FAIL " + failure + "\n"
            } else if verbose {
                text += "pass \(result.location): \(result.id)\n"
            }
        }
        return text + closingLine
    }

    /// A GitHub-flavoured Markdown table of the failed checks (every check when verbose), then the counts.
    public var markdown: String {
        let shown = results.filter { verbose || !$0.passed }
        guard !shown.isEmpty else { return closingLine }
        let rows = shown.map { result in
            [result.passed ? "pass" : "**FAIL**", MarkdownText.code(result.id), MarkdownText.code(result.location),
             MarkdownText.cell(result.passed ? "" : result.mismatches.joined(separator: "\n"))]
        }
        return MarkdownText.table(["result", "row", "where", "what differs"], rows) + "\n" + closingLine
    }

    /// A GitHub Actions error annotation per failed check, then the counts.
    public var github: String {
        var text = ""
        for result in results {
            if !result.passed {
                let title = result.file.hasSuffix(".scenario") ? "scenario timeline" : "decision table row \(result.id)"
                text += GitHubAnnotation.line(.error, file: result.file, line: result.line, title: title,
                                              message: result.mismatches.joined(separator: "\n"))
            } else if verbose {
                text += "pass \(result.location): \(result.id)\n"
            }
        }
        return text + closingLine
    }

    /// JUnit XML: `<testsuites>`, a `<testsuite>` per file in run order, a `<testcase>` per row.
    public var junit: String {
        let attribute = { (text: String) in XMLText.escape(text, attribute: true) }
        var files: [String] = []
        var byFile: [String: [Check]] = [:]
        for result in results {
            if byFile[result.file] == nil { files.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"openin-check test\" tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\">\n"
        for file in files {
            let rows = byFile[file] ?? []
            let failures = rows.count(where: { !$0.passed })
            xml += "  <testsuite name=\"\(attribute(file))\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
            for result in rows {
                                // Only `name` and `classname`: the Jenkins and Ant schemas allow no `file` or `line` on a test case,
                // so the row's `file:line` is the first line of its failure.
                let opening = "    <testcase name=\"\(attribute(result.description))\" classname=\"\(attribute(file))\""
                guard !result.passed else {
                    xml += opening + "/>\n"
                    continue
                }
                xml += opening + ">\n"
                xml += "      <failure message=\"\(attribute(result.mismatches.joined(separator: "; ")))\" type=\"mismatch\">"
                xml += XMLText.escape((["\(result.location): \(result.id)"] + result.mismatches).joined(separator: "\n"), attribute: false)
                xml += "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}
