import OpenInPolicy
import OpenInReports

/// `openin-check rules`: lists the decision rules in evaluation order.
struct RulesCommand: Command, Equatable {
    static let specs = [
        OptionSpec("--explain", help: "Also print each rule's source and the sentence it quotes."),
        OptionSpec("--intune", help: "List the Microsoft Intune app protection rules instead (Rules/intune)."),
    ]

    static let verb = Verb(
        name: "rules",
        abstract: "List the decision rules in order, with ids, summaries and sources.",
        usage: "\(CLI.name) rules [--intune] [--explain]",
        specs: specs,
        help: """
            Lists every decision rule in evaluation order (first match decides): its step,
            its stable id and a one-line summary. With --explain, also where each rule
            comes from and the sentence it quotes: a section of the AppConnect for iOS SDK
            Developer Guide, a declaration of the SDK header AppConnectInterface.h, or, for
            our own choices, the section of Rules/*.md that states and argues them.
            With --intune, the Microsoft Intune app protection rules, in their own order;
            their sources are Microsoft Learn sections and Graph property docs.

            Usage: \(CLI.name) rules [--intune] [--explain]

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status: 0; 64 usage error.

            """,
        parse: { arguments throws(UsageError) in
            let options = try OptionScanner.scan(arguments, specs: specs, verb: "rules")
            if let extra = options.positionals.first { throw UsageError("rules takes no arguments, not '\(extra)'", verb: "rules") }
            return RulesCommand(explain: options.has("--explain"), intune: options.has("--intune"))
        })

    /// Whether to print sources and quotes.
    let explain: Bool
    /// Whether to list the Intune rules.
    var intune = false

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let rules = intune ? RuleInfo.intune : RuleInfo.all
        let width = rules.map(\.id.rawValue.count).max() ?? 0
        for rule in rules {
            let id = rule.id.rawValue
            console.stdout.write("\(rule.step < 10 ? " " : "")\(rule.step)  \(id)\(String(repeating: " ", count: width - id.count))  \(rule.summary)\n")
            if explain {
                let indent = String(repeating: " ", count: width + 6)
                console.stdout.write("\(indent)source: \(rule.source)\n\(indent)\"\(rule.quote)\"\n")
            }
        }
        return .success
    }
}
