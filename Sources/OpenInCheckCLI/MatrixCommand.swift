import OpenInPolicy
import OpenInReports

/// `matrix`: a policy at a glance — channels × kinds of target, each cell an outcome.
struct MatrixCommand: Command, Equatable {
    var policy: PolicyOptions
    /// `--format`.
    var format: Format = .text

    /// What `matrix --format` writes.
    enum Format: String, OptionChoice {
        case text, markdown
    }

    static let specs = PolicyOptions.specs + [
        OptionSpec("--format", value: "FORMAT", help: "text (default) or markdown (GitHub-flavoured tables for a pull-request comment)."),
    ]

    static let usage = "openin-check matrix --policy FILE [options]"

    static let verb = Verb(
        name: "matrix",
        abstract: "Show a policy at a glance: channels × kinds of target, each with its outcome.",
        usage: usage,
        specs: specs,
        help: """
            Show a policy at a glance: a grid of channels × kinds of target (a listed app,
            an unlisted app, native Mail, Email+, the app's own scheme, a custom scheme with a
            listed / unlisted / unknown handler, a web URL), each cell the outcome, with a legend
            naming the example behind each column. When the policy sets openFromPolicy,
            pasteboardPolicy or printPolicy, two more grids follow: what comes in (open-from,
            by source) and what leaves by copy (by paste target) and print.

            Usage: \(usage)

            Options:
            \(OptionScanner.helpSection(for: specs))

            Examples come from the policy where it has them (its first listed app, scheme
            handlers, own schemes); otherwise the matrix makes one up and says so.

            Exit status:
              0   the matrix was printed
              1   invalid input: the policy, a plist or a flag's value
              64  usage error

            Example:
              openin-check matrix --policy Examples/policies/whitelist-half-pair.json

            """,
        parse: { arguments throws(UsageError) in try MatrixCommand.parse(arguments) })

    static func parse(_ arguments: [String]) throws(UsageError) -> MatrixCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "matrix")
        if let extra = options.positionals.first { throw UsageError("unexpected argument '\(extra)': matrix takes only options", verb: "matrix") }
        return MatrixCommand(policy: try PolicyOptions.parse(options, verb: "matrix"),
                             format: try Format.parse(options, default: .text, verb: "matrix"))
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let inputs = try policy.load()
        let matrix = PolicyMatrix(inputs: inputs, name: policy.policyPath)
        console.stdout.write(format == .markdown ? matrix.markdown() : matrix.render())
        return .success
    }
}
