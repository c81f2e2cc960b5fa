import OpenInPolicy
import OpenInReports

/// One option a verb accepts: its name, whether it takes a value, and its help line.
struct OptionSpec: Sendable {
    /// The long name with its dashes, e.g. `--policy`.
    let name: String
    /// The value's placeholder in help (`FILE`), or `nil` for a flag that takes no value.
    let valueName: String?
    /// Whether the option may be given more than once (each value is kept, in order).
    let repeatable: Bool
    /// One or two sentences for the verb's help.
    var help: String { makeHelp() }
    /// Builds ``help`` when help or a completion script asks for it: a text that names
    /// every channel costs more at start-up than deciding one request.
    private let makeHelp: @Sendable () -> String
    /// The values a completion script offers after it (`all`, the channels); none for a file or free text.
    var words: [String] { makeWords() }
    private let makeWords: @Sendable () -> [String]

    init(_ name: String, value valueName: String? = nil, repeatable: Bool = false, words: @escaping @autoclosure @Sendable () -> [String] = [],
         help: @escaping @autoclosure @Sendable () -> String) {
        self.name = name
        self.valueName = valueName
        self.repeatable = repeatable
        self.makeWords = words
        self.makeHelp = help
    }

    /// How the option is written in help and messages: `--policy FILE`.
    var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// A verb's arguments sorted into option values, flags and positional arguments.
///
/// Plain arrays searched in order, not a dictionary and a set: a command line holds a
/// handful of options, and creating the first `[String: [String]]` of a process cost a
/// tenth of the time `eval` takes to decide one request.
struct ParsedOptions: Sendable, Equatable {
    /// An option that takes a value, and the value.
    struct Value: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// Values of the options that take one, in command-line order.
    var values: [Value] = []
    /// The flags given, in command-line order.
    var flags: [String] = []
    /// The arguments that are not options (`-` included), in order.
    var positionals: [String] = []

    /// The value of a single-valued option.
    func value(_ name: String) -> String? { values.last { $0.name == name }?.value }
    /// Every value of a repeatable option, in command-line order.
    func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }
    /// Whether the flag was given.
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Splits a verb's arguments by its option specs: a pure function, as swift-argument-parser does by hand.
enum OptionScanner {
    /// Whether the arguments ask for help (`-h` or `--help` before any `--`).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "-h" || argument == "--help" { return true }
        }
        return false
    }

    /// Sorts `arguments` into options and positionals.
    ///
    /// Accepts `--name value` and `--name=value`; `-` is a positional
    /// argument (standard input); everything after `--` is positional.
    /// - Throws: ``UsageError`` for an unknown option (with "Did you mean …?"),
    ///   a missing value, a value given to a flag, or a single-valued option given twice.
    static func scan(_ arguments: [String], specs: [OptionSpec], verb: String) throws(UsageError) -> ParsedOptions {
        var parsed = ParsedOptions()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let candidates = specs.map(\.name) + ["--help"]
                throw UsageError("unknown option '\(name)'.\(Suggestion.phrase(for: name, among: candidates))", verb: verb)
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value", verb: verb) }
                if !parsed.flags.contains(name) { parsed.flags.append(name) }
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("missing value for '\(name) \(valueName)'", verb: verb)
            }
            if !spec.repeatable, parsed.values.contains(where: { $0.name == name }) {
                throw UsageError("option '\(name)' is given more than once; give it once", verb: verb)
            }
            parsed.values.append(ParsedOptions.Value(name: name, value: value))
        }
        return parsed
    }

    /// The "Options:" section of a verb's help, aligned, `-h, --help` last.
    static func helpSection(for specs: [OptionSpec]) -> String {
        let entries = specs.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show this help and exit.")]
        let width = entries.map(\.0.count).max() ?? 0
        let continuation = "\n" + String(repeating: " ", count: width + 4)
        return entries.map { synopsis, help in
            "  " + synopsis + String(repeating: " ", count: width - synopsis.count + 2)
                + help.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: continuation)
        }.joined(separator: "\n")
    }
}

/// A closed set of values for an option or argument — above all the `--format` values one verb writes (an enum
/// per verb) — parsed by ``OptionChoice/parse(_:verb:)``, so every verb words an unknown value the same way:
/// `unknown format 'jsn': use text, json or jsonl. Did you mean 'json'?`.
protocol OptionChoice: RawRepresentable<String>, CaseIterable, Sendable, Equatable where AllCases == [Self] {
    /// What a value is called in messages: `format` unless the type says otherwise.
    static var kind: String { get }
}

extension OptionChoice {
    static var kind: String { "format" }

    /// The values, as a usage message lists them: `text, json or jsonl`.
    static var choices: String { allCases.map(\.rawValue).listed }

    /// The value called `name`.
    /// - Throws: ``UsageError`` naming the values this verb accepts, with "Did you mean …?" for a likely typo.
    static func parse(_ name: String, verb: String) throws(UsageError) -> Self {
        guard let value = allCases.first(where: { $0.rawValue.utf8.elementsEqual(name.utf8) }) else {
            throw .unknown(kind, name, among: allCases.map(\.rawValue), verb: verb)
        }
        return value
    }

    /// The `--format` of scanned arguments, or `defaultValue` when none is given.
    static func parse(_ options: ParsedOptions, default defaultValue: Self, verb: String) throws(UsageError) -> Self {
        try parse(options, option: "--format", default: defaultValue, verb: verb)
    }

    /// The value of `option` in scanned arguments, or `defaultValue` when it is not given.
    static func parse(_ options: ParsedOptions, option: String, default defaultValue: Self, verb: String) throws(UsageError) -> Self {
        guard let name = options.value(option) else { return defaultValue }
        return try parse(name, verb: verb)
    }
}

extension OutputFormat: OptionChoice {}

extension ReporterRegistry {
    /// The reporter of `kind` that `--format` names in scanned arguments, or the one called `defaultName` when none is given.
    /// - Throws: ``UsageError`` naming the formats of `kind`, with "Did you mean …?" for a likely typo (as ``OptionChoice`` words it).
    func choice<Report>(_ options: ParsedOptions, for kind: Report.Type, default defaultName: String, verb: String) throws(UsageError) -> AnyReporter<Report> {
        let name = options.value("--format") ?? defaultName
        guard let reporter = reporter(named: name, for: kind) else { throw .unknown("format", name, among: names(for: kind), verb: verb) }
        return reporter
    }

    /// `text (default), json or sarif`: the formats of `kind` for an option's help, the default first.
    func formatHelp<Report>(for kind: Report.Type, default defaultName: String) -> String {
        let rest = names(for: kind).filter { $0 != defaultName }
        return rest.isEmpty ? "\(defaultName) (default)" : "\(defaultName) (default), \(rest.listed)"
    }
}

extension [String] {
    /// `text, json or jsonl`: the values as help and usage messages list them.
    var listed: String { count < 2 ? joined() : dropLast().joined(separator: ", ") + " or " + last! }
}
