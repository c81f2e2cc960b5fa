import OpenInPolicy

/// `openin-check test [PATH…]`: runs decision tables and reports failing rows.
struct TestCommand: Command, Equatable {
    static let specs = [
        OptionSpec("--verbose", help: "Also print one line per passing row."),
    ]

    static let verb = Verb(
        name: "test",
        abstract: "Run decision tables (Markdown) and report failing rows.",
        usage: "\(CLI.name) test [--verbose] [PATH…]",
        help: """
            Runs every decision table in the Markdown files at PATH (files, or folders
            searched recursively for *.md; default: Rules/). Each failing row is printed
            as 'file:line: id: column: expected X, got Y'; the last line is
            'N passed, M failed'. Rules/README.md describes the table format.

            Usage: \(CLI.name) test [--verbose] [PATH…]

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status: 0 every row passed; 2 some row failed; 1 a table is malformed
            or a path cannot be read (the error names the file and line); 64 usage error.

            """,
        parse: { arguments throws(UsageError) in
            let options = try OptionScanner.scan(arguments, specs: specs, verb: "test")
            if options.positionals.contains("-") {
                throw UsageError("test reads files and folders, not standard input", verb: "test")
            }
            return TestCommand(paths: options.positionals.isEmpty ? ["Rules"] : options.positionals,
                               verbose: options.has("--verbose"))
        })

    /// The files and folders to run.
    let paths: [String]
    /// Whether to list passing rows too.
    let verbose: Bool

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let cases: [TableCase]
        do {
            cases = try DecisionTables.load(paths: paths)
        } catch {
            var message = error.description
            if paths == ["Rules"], error.line == 0, error.file == "Rules" {
                message += ": run from the repository root, or give the tables' paths"
            }
            throw .invalidInput(message)
        }
        var failed = 0
        for tableCase in cases {
            let result = DecisionTables.run(tableCase)
            if let failure = result.failureMessage {
                failed += 1
                console.stdout.write("FAIL " + failure + "\n")
            } else if verbose {
                console.stdout.write("pass \(tableCase.location): \(tableCase.id)\n")
            }
        }
        console.stdout.write("\(cases.count - failed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .notAllowed
    }
}
