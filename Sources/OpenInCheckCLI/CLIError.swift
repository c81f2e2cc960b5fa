import OpenInPolicy
import OpenInReports

/// A command line that cannot be understood: exit status 64.
///
/// `verb` is the verb whose usage the message refers to, or `nil` for the
/// top level (`openin-check` itself).
struct UsageError: Error, Sendable, Equatable {
    /// What is wrong, and how to fix it when there is more to say than the usage line.
    let message: String
    /// The verb being parsed, or `nil` at the top level.
    let verb: String?

    init(_ message: String, verb: String?) {
        self.message = message
        self.verb = verb
    }

    /// A value `name` that an option does not take (`kind`: how the value is called, `format`, `--to value`): the
    /// values it takes, with "Did you mean …?" for a likely typo.
    static func unknown(_ kind: String, _ name: String, among names: [String], verb: String?) -> UsageError {
        UsageError("unknown \(kind) '\(name)': use \(names.listed).\(Suggestion.phrase(for: name, among: names))", verb: verb)
    }
}

/// Why a verb could not finish: the one error type verbs throw.
enum CLIError: Error, Sendable, Equatable {
    /// The command line is wrong (exit 64).
    case usage(UsageError)
    /// An input file, stream or value is invalid or unreadable (exit 1).
    ///
    /// The message says what is wrong, where (file:line, or key path) and how to fix it.
    case invalidInput(String)
}

/// The one place that turns an error into what the user sees and the exit status.
enum ErrorReport {
    /// The text for standard error (ending in a newline) and the exit status.
    static func render(_ error: CLIError) -> (text: String, status: ExitStatus) {
        switch error {
        case .usage(let usage):
            let verb = usage.verb.flatMap(CLI.verb(named:))
            let usageLine = verb?.usage ?? CLI.usage
            let helpCommand = verb.map { "\(CLI.name) \($0.name) --help" } ?? "\(CLI.name) --help"
            let text = """
                Error: \(Printable.text(usage.message))
                Usage: \(usageLine)
                See '\(helpCommand)' for more information.

                """
            return (text, .usage)
        case .invalidInput(let message):
            return ("Error: \(Printable.text(message))\n", .invalidInput)
        }
    }
}
