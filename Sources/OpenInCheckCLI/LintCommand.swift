import OpenInPolicy
import OpenInReports

/// `lint`: an administrator's mistakes in policy files, AppConnect.plists and Info.plists.
struct LintCommand: Command {
    /// The files, in the order given.
    var files: [String]
    /// `--strict`: warnings count as errors.
    var strict: Bool
    /// `--format`: the reporter that writes the findings.
    var reporter: AnyReporter<PolicyLintReport>
    /// `--build-setting NAME=VALUE`, in order: values for Info.plist references.
    var buildSettings: [PolicyOptions.Pair] = []


    static let specs: [OptionSpec] = [
        OptionSpec("--strict", help: "Report warnings as errors (the exit status is 2 for either)."),
        OptionSpec("--format", value: "FORMAT", help: ReporterRegistry.standard.formatHelp(for: PolicyLintReport.self, default: "text") + "."),
        OptionSpec("--build-setting", value: "NAME=VALUE", repeatable: true, help: "Resolve $(NAME) and ${NAME} in an Info.plist's URL schemes, as eval does. Repeatable."),
    ]

    static let usage = "openin-check lint [--strict] [--format FORMAT] [--build-setting NAME=VALUE]... FILE..."

    static let verb = Verb(
        name: "lint",
        abstract: "Find an administrator's mistakes in policy files, AppConnect.plists and Info.plists.",
        usage: usage,
        specs: specs,
        help: """
            Find an administrator's mistakes in policy files, AppConnect.plists and
            Info.plists before they reach a device: each finding has a stable code, a
            severity, where it is (file:line:column and key path; a plist has key paths
            only), what is wrong and how to fix it.

            Usage: \(usage)

            Arguments:
              FILE  A JSON policy file, an AppConnect.plist or an Info.plist (XML or binary).
                    A property list is an AppConnect.plist when it is named AppConnect.plist
                    or has a top-level 'policy' or 'appconnectapps' key; otherwise an Info.plist.
                    Files named together describe one app: an Info.plist applies to every
                    policy file beside it (OI009).

            Options:
            \(OptionScanner.helpSection(for: specs))

            Checks:
            \(checkList)

            What the override keys accept (another string is read as off; another type is
            rejected by the file's reader):
              MI_AC_DISABLE_SCHEME_BLOCKING      server config: exactly the string "true"
              MI_AC_DISABLE_OPEN_IN_ENFORCEMENT  server config: "yes" or "true", any letter case
              MI_APP_CONNECT → MI_AC_DISABLE_SCHEME_BLOCKING
                                                 Info.plist: the Boolean YES (<true/>)

            Output:
              text  one finding per entry: 'FILE:LINE:COLUMN: SEVERITY CODE NAME: KEY PATH: message',
                    then '    fix: …'; then a summary line.
              json  {"files", "findings": [{"code", "name", "severity", "file", "line"?,
                    "column"?, "keyPath", "message", "fix"}], "summary": {"errors",
                    "warnings", "info"}}
              sarif SARIF \(PolicyLintSARIF.version) for code scanning: every check as a rule (its code as the id),
                    every finding as a result with its level (info is 'note'), file, line
                    and column (columns count characters), key path and fix.
              markdown  a table of the findings for a pull-request comment, then the summary.
              github    an '::error', '::warning' or '::notice' annotation per finding
                        (file, line, column), then the summary.

            Exit status (as eval: 2 means "look at the answer", 1 "could not answer"):
              0   no errors or warnings (info findings allowed)
              1   invalid input: a file cannot be opened (an error on stderr, nothing
                  linted), or its reader rejects it (OI000 invalid-input, reported with
                  the other findings)
              2   every file was read, and some finding is an error or a warning
              64  usage error

            Examples:
              openin-check lint Examples/lint/mistakes.json
              openin-check lint --strict Examples/lint/AppConnect.plist Examples/lint/Info.plist

            """,
        parse: { arguments throws(UsageError) in try LintCommand.parse(arguments) },
        parseWithReporters: { arguments, reporters throws(UsageError) in try LintCommand.parse(arguments, reporters: reporters) })

    /// The checks for the help: `  OI001  error   mail-pair-half  summary`.
    private static var checkList: String {
        let nameWidth = LintCheck.all.map(\.name.count).max() ?? 0
        return LintCheck.all.map { check in
            let severity = check.severity.rawValue + String(repeating: " ", count: 8 - check.severity.rawValue.count)
            let name = check.name + String(repeating: " ", count: nameWidth - check.name.count)
            return "  \(check.code)  \(severity)\(name)  \(check.summary)"
        }.joined(separator: "\n")
    }

    static func parse(_ arguments: [String], reporters: ReporterRegistry = .standard) throws(UsageError) -> LintCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "lint")
        guard !options.positionals.isEmpty else {
            throw UsageError("no file given: name one or more policy files, AppConnect.plists or Info.plists", verb: "lint")
        }
        if let dash = options.positionals.first(where: { $0 == "-" }) {
            throw UsageError("'\(dash)': lint reads files, not standard input (it names each finding's file)", verb: "lint")
        }
        let settings = try options.all("--build-setting").map { text throws(UsageError) in
            try PolicyOptions.pair(text, option: "--build-setting NAME=VALUE", valueMayBeEmpty: true, verb: "lint")
        }
        return LintCommand(files: options.positionals, strict: options.has("--strict"),
                           reporter: try reporters.choice(options, for: PolicyLintReport.self, default: "text", verb: "lint"), buildSettings: settings)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let settings = try PolicyOptions.buildSettings(buildSettings)
        var documents: [PolicyDocument] = []
        for file in files {
            if Folder.subpaths(of: file) != nil, let hint = VendorDetection.intuneVerb(for: "lint", path: file, bytes: nil) { throw .invalidInput(hint) }
            documents.append(VendorDetection.lintDocument(try ByteSource.readFile(path: file, what: "file to lint"), file: file, buildSettings: settings))
        }
        var findings = PolicyLint.lint(documents)
        if strict { findings = findings.map(\.strict) }
        let report = PolicyLintReport(files: files, findings: findings)
        reporter.write(report, to: console.stdout)
        let counts = report.counts
        // The contract's statuses, as eval: 1 (`invalidInput`) when a file could not be read as what it is,
        // 2 (`notAllowed`) for findings that need attention, errors or warnings alike.
        if findings.contains(where: { $0.check == .invalidInput }) { return .invalidInput }
        return counts.errors + counts.warnings > 0 ? .notAllowed : .success
    }
}
