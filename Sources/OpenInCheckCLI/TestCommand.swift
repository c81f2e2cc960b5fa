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
        var results = cases.map { TestReport.Check(DecisionTables.run($0)) }
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
    static func replay(_ path: String) throws(CLIError) -> TestReport.Check {
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
            return TestReport.Check(file: path, line: 1, id: "timeline", mismatches: [])
        }
        let wanted = first < expected.count ? "'\(DecisionText.escaped(expected[first]))'" : "the end of the file"
        let got = first < actual.count ? "'\(DecisionText.escaped(actual[first]))'" : "the end of the timeline"
        return TestReport.Check(file: path, line: 1, id: "timeline", mismatches: ["\(expectedPath):\(first + 1): expected \(wanted), got \(got)"])
    }
}

extension TestReport.Check {
    /// A decision-table row's result.
    init(_ result: TableResult) {
        self.init(file: result.tableCase.file, line: result.tableCase.line, id: result.tableCase.id, mismatches: result.mismatches)
    }
}
