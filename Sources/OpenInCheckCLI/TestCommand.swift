import AppConnectRuntime
import OpenInPolicy
import OpenInReports

/// `openin-check test [PATH…]`: runs decision tables and lifecycle scenarios, and reports what fails.
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
        abstract: "Run decision tables (Markdown) and lifecycle scenarios; report what fails.",
        usage: usage,
        specs: specs,
        help: """
            Runs every decision table in the Markdown files at PATH (files, or folders
            searched recursively for *.md; default: Rules/). Each failing row is printed
            as 'file:line: id: column: expected X, got Y'; the last line is
            'N passed, M failed'. Rules/README.md describes the table format. A table can
            test a policy file: a line 'Policy: [title](PATH)' above it, in its section,
            names the file (JSON policy or AppConnect.plist, PATH relative to the table),
            and its rows need no 'policy' or 'whitelist' column.

            A lifecycle scenario (NAME.scenario, named or found in a folder) is replayed
            as 'simulate' replays it, and its timeline must be exactly NAME.expected
            beside it; a difference names the first line that differs. A scenario with
            no NAME.expected is an error.

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

            Exit status: 0 every row and scenario passed; 2 some failed; 1 a table or
            scenario is malformed, a scenario has no expected timeline, no decision table
            was found, or a path cannot be read (the error names the file and line); 64
            usage error.

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
        // Scenarios named, or found in the folders; the tables in everything else. A folder that
        // holds scenarios and no Markdown file is a folder of scenarios, not one missing its tables.
        var tablePaths: [String] = []
        var scenarioPaths: [String] = []
        for path in paths {
            if path.hasSuffix(".scenario") {
                scenarioPaths.append(path)
            } else if let found = Folder.subpaths(of: path) {
                let scenarios = found.filter { $0.hasSuffix(".scenario") }.sorted().map { (path.hasSuffix("/") ? path : path + "/") + $0 }
                scenarioPaths += scenarios
                if scenarios.isEmpty || found.contains(where: { $0.hasSuffix(".md") }) { tablePaths.append(path) }
            } else {
                tablePaths.append(path)
            }
        }
        var cases: [TableCase] = []
        if !tablePaths.isEmpty {
            do {
                cases = try DecisionTables.load(paths: tablePaths)
            } catch {
                var message = error.description
                if paths == ["Rules"], error.line == nil, error.file == "Rules" {
                    message += ": run from the repository root, or give the tables' paths"
                }
                throw .invalidInput(message)
            }
        }
        var results = cases.map { CheckResult(DecisionTables.run($0)) }
        for path in scenarioPaths { results.append(try Self.replay(path)) }
        let report = TestReport(results: results, verbose: verbose)
        switch format {
        case .text: console.stdout.write(report.text)
        case .junit: console.stdout.write(report.junit)
        case .markdown: console.stdout.write(report.markdown)
        case .github: console.stdout.write(report.github)
        }
        return report.failed == 0 ? .success : .notAllowed
    }

    /// Replays the scenario at `path` and compares its timeline with `NAME.expected` beside it.
    /// - Throws: ``CLIError/invalidInput(_:)`` for a scenario that cannot be read or is malformed, or that has no expected timeline.
    static func replay(_ path: String) throws(CLIError) -> CheckResult {
        let scenario: Scenario
        do {
            scenario = try Scenario.load(path: path)
        } catch {
            throw .invalidInput(error.description)
        }
        let expectedPath = String(path.dropLast(".scenario".count)) + ".expected"
        let bytes: [UInt8]
        do throws(CappedFile.Failure) {
            bytes = try CappedFile.read(path: expectedPath, what: "expected timeline")
        } catch {
            throw .invalidInput("\(path): no expected timeline to compare with (\(expectedPath): \(error.reason)): review the output of 'openin-check simulate \(path)' and write the timeline you expect there")
        }
        // Split at the newline byte (a String splits "\r\n" as one character), a line's "\r" dropped:
        // an expected timeline with Windows line endings reads like any other.
        func lines(_ bytes: some Collection<UInt8>) -> [String] {
            bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
                String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
        }
        let expected = lines(bytes)
        let actual = lines(Array(ScenarioRunner.run(scenario).text.utf8))
        guard let first = zip(actual, expected).enumerated().first(where: { !ExactText.same($0.element.0, $0.element.1) })?.offset
                ?? (actual.count == expected.count ? nil : min(actual.count, expected.count)) else {
            return CheckResult(file: path, line: 1, id: "timeline", mismatches: [])
        }
        let wanted = first < expected.count ? "'\(DecisionText.escaped(expected[first]))'" : "the end of the file"
        let got = first < actual.count ? "'\(DecisionText.escaped(actual[first]))'" : "the end of the timeline"
        return CheckResult(file: path, line: 1, id: "timeline", mismatches: ["\(expectedPath):\(first + 1): expected \(wanted), got \(got)"])
    }
}

/// One check of a `test` run: a decision-table row, or a scenario's timeline.
struct CheckResult {
    /// The table or scenario file.
    let file: String
    /// The row's line (a scenario's: 1).
    let line: Int
    /// The row's id, or `timeline` for a scenario.
    let id: String
    /// What differs; empty when the check passed.
    let mismatches: [String]

    init(file: String, line: Int, id: String, mismatches: [String]) {
        self.file = file
        self.line = line
        self.id = id
        self.mismatches = mismatches
    }

    init(_ result: TableResult) {
        self.init(file: result.tableCase.file, line: result.tableCase.line, id: result.tableCase.id, mismatches: result.mismatches)
    }

    var passed: Bool { mismatches.isEmpty }
    /// `file:line`.
    var location: String { "\(file):\(line)" }
    /// `file: id`, the name of the check as a test case.
    var description: String { "\(file): \(id)" }
    /// `file:line: id: mismatch; mismatch`, for a failed check.
    var failureMessage: String? { passed ? nil : "\(location): \(id): " + mismatches.joined(separator: "; ") }
}

/// The results of a `test` run, in each output format.
struct TestReport {
    let results: [CheckResult]
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
                text += "pass \(result.location): \(result.id)\n"
            }
        }
        return text + closingLine
    }

    var markdown: String {
        let shown = results.filter { verbose || !$0.passed }
        guard !shown.isEmpty else { return closingLine }
        let rows = shown.map { result in
            [result.passed ? "pass" : "**FAIL**", MarkdownText.code(result.id), MarkdownText.code(result.location),
             MarkdownText.cell(result.passed ? "" : result.mismatches.joined(separator: "\n"))]
        }
        return MarkdownText.table(["result", "row", "where", "what differs"], rows) + "\n" + closingLine
    }

    var github: String {
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
    var junit: String {
        let attribute = { (text: String) in XMLText.escape(text, attribute: true) }
        var files: [String] = []
        var byFile: [String: [CheckResult]] = [:]
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
