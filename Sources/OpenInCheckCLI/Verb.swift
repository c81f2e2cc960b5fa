import OpenInReports

/// A verb of the CLI: its name, help, and how its arguments become a command.
///
/// Each verb's file defines one `static let verb`; ``CLI/verbs`` lists them,
/// so adding a verb is one line there.
struct Verb: Sendable {
    /// The word on the command line, e.g. `eval`.
    let name: String
    /// One line for the top-level list of verbs.
    let abstract: String
    /// The usage line, e.g. `openin-check eval --policy FILE …`.
    let usage: String
    /// The options the verb accepts (besides `-h`, `--help`), for completion scripts.
    let specs: [OptionSpec]
    /// The full help text `-h`, `--help` and `help <verb>` print.
    var help: String { makeHelp() }
    /// Turns the verb's arguments (after the verb) into a command; never runs anything.
    let parse: @Sendable ([String]) throws(UsageError) -> any Command
    /// As ``parse``, choosing each `--format` among the reporters of the registry given; `nil` for a verb with no report format.
    var parseWithReporters: (@Sendable ([String], ReporterRegistry) throws(UsageError) -> any Command)? = nil
    /// A subverb's own help (`fleet paths --help`), or `nil` for a word that is not one of the verb's subverbs.
    var subverbHelp: @Sendable (String) -> String? = { _ in nil }
    /// Builds ``help`` when it is asked for: most runs never print it, and building every
    /// verb's help at start-up was a tenth of the time `eval` takes to decide one request.
    private let makeHelp: @Sendable () -> String

    init(name: String, abstract: String, usage: String, specs: [OptionSpec] = [], help: @escaping @autoclosure @Sendable () -> String,
         parse: @escaping @Sendable ([String]) throws(UsageError) -> any Command,
         parseWithReporters: (@Sendable ([String], ReporterRegistry) throws(UsageError) -> any Command)? = nil) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.specs = specs
        self.makeHelp = help
        self.parse = parse
        self.parseWithReporters = parseWithReporters
    }
}

/// A parsed command line, ready to run.
protocol Command: Sendable {
    /// Runs the command, writing results to `console.stdout`.
    /// - Returns: the exit status for the outcome (success, or some decision not allowed).
    /// - Throws: ``CLIError`` for invalid input or a usage problem found while running.
    func run(_ console: Console) throws(CLIError) -> ExitStatus
}
