#if canImport(BuildInfo)
import BuildInfo
#endif
import OpenInPolicy
import OpenInReports

/// The `openin-check` command line: verbs, help, version, and the mapping of errors to exit statuses.
///
/// Parsing (``parse(_:)``) is a pure function from arguments to an
/// ``Invocation``; running is separate; ``ErrorReport`` is the one place an
/// error becomes a message and an exit status.
public enum CLI {
    /// The program's name, as help and messages write it.
    static let name = "openin-check"
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// The commit the binary was built from, when the build named it (`-Xcc -DOPENIN_CHECK_COMMIT=…`, as the
    /// README's Install command does); `nil` for a plain `swift build`, which has no way to know it.
    static let commit: String? = {
        #if canImport(BuildInfo)
        guard let pointer = openin_check_build_commit() else { return nil }
        let text = String(cString: pointer)
        let valid = !text.isEmpty && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        return valid ? text : nil
        #else
        return nil  // built outside SwiftPM (the fuzz script): no BuildInfo module
        #endif
    }()

    /// What `--version` prints: `openin-check 0.1.0`, with `(commit …)` when the build named it.
    static var versionLine: String {
        "\(name) \(version)" + (commit.map { " (commit \($0))" } ?? "") + "\n"
    }

    /// Every verb, in the order the top-level help lists them. Adding a verb is one line here.
    static let verbs: [Verb] = [
        EvalCommand.verb,
        MatrixCommand.verb,
        TestCommand.verb,
        RulesCommand.verb,
        SimulateCommand.verb,
        LintCommand.verb,
        DiffCommand.verb,
        FleetCommand.verb,
        TranslateCommand.verb,
        CompletionsCommand.verb,
    ]

    /// The top-level usage line.
    static let usage = "\(name) <verb> [options]"

    /// The verb called `name`, if any.
    static func verb(named name: String) -> Verb? {
        verbs.first { $0.name == name }
    }

    /// Runs the command line and returns the process's exit status.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program's name.
    ///   - reporters: the output formats `--format` chooses among: ``ReporterRegistry/standard``, or it with formats added.
    /// - Returns: the exit status of the CLI contract (0, 1, 2 or 64).
    public static func main(arguments: [String], reporters: ReporterRegistry = .standard) -> Int32 {
        let console = Console.standard()
        let status = run(arguments: arguments, console: console, reporters: reporters)
        console.stdout.flush()
        console.stderr.flush()
        return status.rawValue
    }

    /// Parses and runs `arguments`, writing to `console`, each `--format` chosen among `reporters`.
    static func run(arguments: [String], console: Console, reporters: ReporterRegistry = .standard) -> ExitStatus {
        do throws(CLIError) {
            switch try parse(arguments, reporters: reporters) {
            case .help(let text):
                console.stdout.write(text)
                return .success
            case .version:
                console.stdout.write(versionLine)
                return .success
            case .run(let command):
                return try command.run(console)
            }
        } catch {
            // Whatever the verb wrote before failing stays; the error follows it.
            console.stdout.flush()
            let report = ErrorReport.render(error)
            console.stderr.write(report.text)
            return report.status
        }
    }

    /// What a command line asks for.
    enum Invocation {
        /// Print this help text to standard output.
        case help(String)
        /// Print the version to standard output.
        case version
        /// Run a verb.
        case run(any Command)
    }

    /// Turns the arguments (after the program's name) into an invocation, without running anything.
    /// - Throws: ``CLIError/usage(_:)`` when the command line cannot be understood.
    static func parse(_ arguments: [String], reporters: ReporterRegistry = .standard) throws(CLIError) -> Invocation {
        guard let first = arguments.first else { throw .usage(UsageError("no verb given: use one of \(verbNames)", verb: nil)) }
        switch first {
        case "-h", "--help":
            return .help(help)
        case "--version":
            return .version
        case "help":
            return try helpInvocation(arguments.dropFirst())
        default:
            break
        }
        guard let verb = verb(named: first) else {
            if first.hasPrefix("-") {
                let suggestion = Suggestion.phrase(for: first, among: ["--help", "--version"])
                throw .usage(UsageError("unknown option '\(first)': give a verb first.\(suggestion)", verb: nil))
            }
            let suggestion = Suggestion.phrase(for: first, among: verbs.map(\.name) + ["help"])
            throw .usage(UsageError("unknown verb '\(first)'.\(suggestion)", verb: nil))
        }
        let rest = Array(arguments.dropFirst())
        if OptionScanner.asksForHelp(rest) {
            // A subverb's help is its own, as git's and swift package's are.
            if let word = rest.first, let text = verb.subverbHelp(word) { return .help(text) }
            return .help(verb.help)
        }
        do throws(UsageError) {
            if let parse = verb.parseWithReporters { return .run(try parse(rest, reporters)) }
            return .run(try verb.parse(rest))
        } catch {
            throw .usage(error)
        }
    }

    /// `help`, `help <verb>`.
    private static func helpInvocation(_ arguments: ArraySlice<String>) throws(CLIError) -> Invocation {
        guard let name = arguments.first else { return .help(help) }
        if arguments.count == 2, let verb = verb(named: name), let text = verb.subverbHelp(arguments[arguments.startIndex + 1]) { return .help(text) }
        if arguments.count > 1 { throw .usage(UsageError("'help' takes one verb, not \(arguments.count) arguments", verb: nil)) }
        if name == "help" || name == "-h" || name == "--help" { return .help(helpHelp) }
        guard let verb = verb(named: name) else {
            let suggestion = Suggestion.phrase(for: name, among: verbs.map(\.name) + ["help"])
            throw .usage(UsageError("unknown verb '\(name)'.\(suggestion)", verb: nil))
        }
        return .help(verb.help)
    }

    private static var verbNames: String { verbs.map(\.name).joined(separator: ", ") }

    /// The help of `help` itself (`help help`).
    static var helpHelp: String {
        """
        Show the help of a verb: the same text as '\(name) <verb> --help'. With no verb,
        show the top-level help (verbs, options, exit statuses).

        Usage: \(name) help [VERB]

        Verbs: \(verbNames), help.

        Exit status: 0; 64 an unknown verb, or more than one.

        """
    }

    /// The top-level help: what the tool does, its verbs, and the exit statuses.
    static var help: String {
        let entries = verbs.map { ($0.name, $0.abstract) } + [("help", "Show a verb's help: help <verb>.")]
        let width = entries.map(\.0.count).max() ?? 0
        let list = entries.map { name, abstract in
            "  " + name + String(repeating: " ", count: width - name.count + 3) + abstract
        }.joined(separator: "\n")
        return """
            \(name): what a MobileIron / Ivanti AppConnect Open In policy does to an iOS share request.

            Usage: \(usage)

            Verbs:
            \(list)

            Options:
              --version   Show the version and exit.
              -h, --help  Show this help and exit.

            Exit status:
              0   every decision is allow (or help, version, a matrix was printed)
              1   invalid input: a policy, plist or request that cannot be read or is invalid
              2   every input is valid and some decision is not allow
              64  usage error: unknown verb or option, missing or malformed option value
              130 interrupted by SIGINT, 143 by SIGTERM: the records written are whole lines
              141 standard output was closed early (… | head -1): not every line was written

            See '\(name) <verb> --help' for a verb's options.

            """
    }
}
