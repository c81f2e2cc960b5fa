@testable import OpenInCheckCLI
import OpenInReports
import Testing

/// Each fleet subverb is a type that declares its options and formats; its help, the completion scripts and the
/// parser are made from those declarations, so they cannot disagree: these check each against the others, in process.
@Suite struct FleetSubverbDeclarationsTests {
    /// The least a subverb needs to parse (no file is read: parsing runs nothing).
    static func required(_ subverb: String) -> [String] {
        switch subverb {
        case "eval": ["--fleet", "f.json", "--from", "com.a", "--channel", "paste"]
        case "paths": ["--fleet", "f.json", "--from", "all"]
        case "diff": ["old.json", "new.json"]
        default: ["--fleet", "f.json"]
        }
    }

    static func help(_ arguments: [String]) throws -> String {
        guard case .help(let text) = try CLI.parse(arguments) else { throw CLIError.invalidInput("no help for \(arguments)") }
        return text
    }

    @Test("every subverb's declared options are in its help, the fleet help and each shell's completions, and no other option is")
    func declaredOptionsAreListed() throws {
        let bash = CompletionsCommand.bash, zsh = CompletionsCommand.zsh, fish = CompletionsCommand.fish
        let whole = try Self.help(["fleet", "--help"])
        for subverb in FleetCommand.subverbs {
            let name = subverb.name
            let help = try Self.help(["fleet", name, "--help"])
            #expect(try Self.help(["help", "fleet", name]) == help)
            let declared = subverb.options.map(\.name)
            let options = try #require(help.components(separatedBy: "\nOptions:\n").last?.components(separatedBy: "\n\n").first)
            let listed = options.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { String($0.dropFirst(2).prefix { $0 != " " }) }
            #expect(listed == declared, "fleet \(name) --help lists \(listed)")
            let fishOptions = fish.split(separator: "\n").filter { $0.contains("'__fish_seen_subcommand_from fleet; and __fish_seen_subcommand_from \(name)' -l ") }
                .map { "--" + $0.split(separator: " -l ")[1].prefix { $0 != " " } }
            #expect(fishOptions == declared, "fish: fleet \(name)")
            #expect(bash.contains("\n        \"fleet \(name)\") options=\"\((declared + ["--help"]).joined(separator: " "))\" ;;\n"), "bash: fleet \(name)")
            #expect(zsh.contains("\n        'fleet \(name)') options=(\((declared + ["--help"]).joined(separator: " "))) ;;\n"), "zsh: fleet \(name)")
            for spec in subverb.options.map(\.spec) {
                #expect(help.contains("\n  \(spec.synopsis) ") && whole.contains("\n  \(spec.synopsis) "), "fleet \(name): \(spec.synopsis)")
                #expect(FleetOption.all.contains { $0.name == spec.name }, "fleet \(name): \(spec.name) is not a fleet option")
            }
            for line in subverb.usage { #expect(whole.contains("  openin-check fleet \(name) " + line.split(separator: "\n")[0])) }
            #expect(whole.contains("\n  \(name.padding(8))\(subverb.details.split(separator: "\n")[0])\n"), "fleet --help: \(name)'s entry")
        }
        // Every fleet option is some subverb's.
        for spec in FleetOption.all { #expect(FleetCommand.subverbs.contains { $0.options.contains { $0.name == spec.name } }, "\(spec.name) is no subverb's") }
    }

    @Test("an option a subverb does not declare is a usage error naming the subverb")
    func undeclaredOptionsAreUsageErrors() {
        for subverb in FleetCommand.subverbs {
            for spec in FleetOption.all where !subverb.options.contains(where: { $0.name == spec.name }) {
                let arguments = ["fleet", subverb.name] + Self.required(subverb.name) + [spec.name] + (spec.valueName == nil ? [] : ["x"])
                let console = Console.memory()
                #expect(CLI.run(arguments: arguments, console: console) == .usage, "\(arguments)")
                #expect(console.stderr.text.hasPrefix("Error: '\(spec.name)' is not an option of fleet \(subverb.name)\n"), "\(arguments): \(console.stderr.text)")
            }
            let declared = ["fleet", subverb.name] + Self.required(subverb.name)
            #expect(throws: Never.self, "\(declared)") { try CLI.parse(declared) }
        }
    }

    @Test("each subverb's --format takes exactly the formats its help and completions list, lint's from the registry given")
    func formatsAreDeclared() throws {
        var reporters = ReporterRegistry.standard
        reporters.register(ReporterRegistryTests.CSVFleetLint())
        let every = Set(FleetCommand.subverbs.flatMap { $0.formats(reporters) } + ["csv", "xml"])
        for subverb in FleetCommand.subverbs {
            let formats = subverb.formats(.standard)
            #expect(subverb.options.contains(.format) == !formats.isEmpty, "fleet \(subverb.name)")
            guard !formats.isEmpty else { continue }
            let help = try Self.help(["fleet", subverb.name, "--help"])
            #expect(help.contains("  --format FORMAT  ") && help.contains("\(subverb.name): \(formats.listed)."), "fleet \(subverb.name) --help")
            #expect(try Self.help(["fleet", "--help"]).contains("\(subverb.name)") && FleetOption.format.spec.help.contains(formats.listed))
            #expect(subverb.ownOptions.first { $0.name == "--format" }?.words == formats)
            for format in every {
                let arguments = ["fleet", subverb.name] + Self.required(subverb.name) + ["--format", format]
                if subverb.formats(reporters).contains(format) {
                    #expect(throws: Never.self, "\(arguments)") { try CLI.parse(arguments, reporters: reporters) }
                } else {
                    #expect(throws: CLIError.self, "\(arguments)") { try CLI.parse(arguments, reporters: reporters) }
                    let console = Console.memory()
                    #expect(CLI.run(arguments: arguments, console: console, reporters: reporters) == .usage)
                    #expect(console.stderr.text.hasPrefix("Error: unknown format '\(format)': use \(subverb.formats(reporters).listed)."), "\(arguments)")
                }
            }
        }
        #expect(FleetLintCommand.formats(reporters).last == "csv")
    }
}
