import OpenInPolicy

/// `openin-check test [PATH…]`: runs decision tables and reports failing rows.
struct TestCommand: Command, Equatable {
    /// What `test --format` writes.
    enum Format: String, OptionChoice {
        /// `FAIL file:line: id: …` lines, then `N passed, M failed`.
        case text
        /// A JUnit XML report: one test case per row.
        case junit
        /// A GitHub-flavoured Markdown table of the failing rows, then `N passed, M failed`.
        case markdown
        /// GitHub Actions `::error` annotations for the failing rows, then `N passed, M failed`.
        case github
    }

    static let specs = [
        OptionSpec("--verbose", help: "Also list the passing rows (text, markdown and github formats)."),
        OptionSpec("--format", value: "FORMAT", help: "text (default), junit, markdown or github."),
    ]

    static let usage = "\(CLI.name) test [--verbose] [--format FORMAT] [PATH…]"

    static let verb = Verb(
        name: "test",
        abstract: "Run decision tables (Markdown) and report failing rows.",
        usage: usage,
        specs: specs,
        help: """
            Runs every decision table in the Markdown files at PATH (files, or folders
            searched recursively for *.md; default: Rules/). Each failing row is printed
            as 'file:line: id: column: expected X, got Y'; the last line is
            'N passed, M failed'. Rules/README.md describes the table format.

            A run never passes having checked nothing: a folder with no decision table
            under it, a named file without one, a table shaped like a decision table
            without its 'id' or 'outcome' column, a code fence left open or closed with
            the other fence character, and a row indented with a tab are errors.

            Usage: \(usage)

            Options:
            \(OptionScanner.helpSection(for: specs))

            Output:
              text      'FAIL file:line: id: mismatch' per failing row ('pass file:line: id'
                        with --verbose), then 'N passed, M failed'.
              junit     JUnit XML: a <testsuite> per file, a <testcase> per row named
                        'file: id', a <failure> with file:line and expected/actual.
              markdown  a table of the failing rows (every row with --verbose) for a
                        pull-request comment, then 'N passed, M failed'.
              github    an '::error file=…,line=…::' annotation per failing row, then
                        'N passed, M failed'.

            Exit status: 0 every row passed; 2 some row failed; 1 a table is malformed,
            no decision table was found, or a path cannot be read (the error names the
            file and line); 64 usage error.

            """,
        parse: { arguments throws(UsageError) in
            let options = try OptionScanner.scan(arguments, specs: specs, verb: "test")
            if options.positionals.contains("-") {
                throw UsageError("test reads files and folders, not standard input", verb: "test")
            }
            return TestCommand(paths: options.positionals.isEmpty ? ["Rules"] : options.positionals,
                               verbose: options.has("--verbose"),
                               format: try Format.parse(options, default: .text, verb: "test"))
        })

    /// The files and folders to run.
    let paths: [String]
    /// Whether to list passing rows too.
    let verbose: Bool
    /// How to write the results.
    var format: Format = .text

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let cases: [TableCase]
        do {
            cases = try DecisionTables.load(paths: paths)
        } catch {
            var message = error.description
            if paths == ["Rules"], error.line == nil, error.file == "Rules" {
                message += ": run from the repository root, or give the tables' paths"
            }
            throw .invalidInput(message)
        }
        let results = cases.map(DecisionTables.run)
        let report = TestReport(results: results, verbose: verbose)
        switch format {
        case .text: console.stdout.write(report.text)
        case .junit: console.stdout.write(report.junit)
        case .markdown: console.stdout.write(report.markdown)
        case .github: console.stdout.write(report.github)
        }
        return report.failed == 0 ? .success : .notAllowed
    }
}

/// The results of a `test` run, in each output format.
struct TestReport {
    let results: [TableResult]
    let verbose: Bool

    var failed: Int { results.count(where: { !$0.passed }) }

    /// `N passed, M failed`: the last line of the text, markdown and github formats.
    var closingLine: String { "\(results.count - failed) passed, \(failed) failed\n" }

    var text: String {
        var text = ""
        for result in results {
            if let failure = result.failureMessage {
                text += "FAIL " + failure + "\n"
            } else if verbose {
                text += "pass \(result.tableCase.location): \(result.tableCase.id)\n"
            }
        }
        return text + closingLine
    }

    var markdown: String {
        let shown = results.filter { verbose || !$0.passed }
        guard !shown.isEmpty else { return closingLine }
        let rows = shown.map { result in
            [result.passed ? "pass" : "**FAIL**", MarkdownText.code(result.tableCase.id), MarkdownText.code(result.tableCase.location),
             MarkdownText.cell(result.passed ? "" : result.mismatches.joined(separator: "\n"))]
        }
        return MarkdownText.table(["result", "row", "where", "what differs"], rows) + "\n" + closingLine
    }

    var github: String {
        var text = ""
        for result in results {
            let tableCase = result.tableCase
            if !result.passed {
                text += GitHubAnnotation.line(.error, file: tableCase.file, line: tableCase.line, title: "decision table row \(tableCase.id)",
                                              message: result.mismatches.joined(separator: "\n"))
            } else if verbose {
                text += "pass \(tableCase.location): \(tableCase.id)\n"
            }
        }
        return text + closingLine
    }

    /// JUnit XML: `<testsuites>`, a `<testsuite>` per file in run order, a `<testcase>` per row.
    var junit: String {
        let attribute = { (text: String) in XMLText.escape(text, attribute: true) }
        var files: [String] = []
        var byFile: [String: [TableResult]] = [:]
        for result in results {
            if byFile[result.tableCase.file] == nil { files.append(result.tableCase.file) }
            byFile[result.tableCase.file, default: []].append(result)
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"openin-check test\" tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\">\n"
        for file in files {
            let rows = byFile[file] ?? []
            let failures = rows.count(where: { !$0.passed })
            xml += "  <testsuite name=\"\(attribute(file))\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
            for result in rows {
                let tableCase = result.tableCase
                // Only `name` and `classname`: the Jenkins and Ant schemas allow no `file` or `line` on a test case,
                // so the row's `file:line` is the first line of its failure.
                let opening = "    <testcase name=\"\(attribute(tableCase.description))\" classname=\"\(attribute(file))\""
                guard !result.passed else {
                    xml += opening + "/>\n"
                    continue
                }
                xml += opening + ">\n"
                xml += "      <failure message=\"\(attribute(result.mismatches.joined(separator: "; ")))\" type=\"mismatch\">"
                xml += XMLText.escape((["\(tableCase.location): \(tableCase.id)"] + result.mismatches).joined(separator: "\n"), attribute: false)
                xml += "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}
