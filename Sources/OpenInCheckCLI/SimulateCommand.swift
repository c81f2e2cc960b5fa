import AppConnectRuntime

/// `openin-check simulate SCENARIO`: replays an AppConnect lifecycle scenario and prints its timeline.
struct SimulateCommand: Command, Equatable {
    static let specs = [
        OptionSpec("--format", value: "FORMAT", help: "text (default): one event a line; json: one JSON document."),
    ]

    static let verb = Verb(
        name: "simulate",
        abstract: "Replay an AppConnect lifecycle scenario: callbacks, acknowledgments, decisions.",
        usage: "\(CLI.name) simulate [--format text|json] SCENARIO",
        specs: specs,
        help: """
            Replays the scenario file SCENARIO ('-' for standard input): launches, server
            pushes, device changes, user actions and app acknowledgments, on a simulated
            device. Prints the timeline: every callback the AppConnect library calls on
            the app (or would, had the app implemented it), every acknowledgment the
            server receives, and every share decision, each with the scenario line that
            caused it; then 'N shares, M not allowed'. "The scenario format" in
            Sources/AppConnectRuntime/AppConnectRuntime.docc/Scenarios.md describes the
            format; Examples/scenarios/ has commented examples.

            Usage: \(CLI.name) simulate [--format text|json] SCENARIO

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status: 0 every share was allowed; 2 some share was not; 1 the scenario
            is invalid or cannot be read (the error names the file and line and how to
            fix it); 64 usage error.

            """,
        parse: { arguments throws(UsageError) in
            let options = try OptionScanner.scan(arguments, specs: specs, verb: "simulate")
            guard let path = options.positionals.first else {
                throw UsageError("missing SCENARIO: give a scenario file, or '-' for standard input", verb: "simulate")
            }
            if options.positionals.count > 1 { throw UsageError("simulate takes one SCENARIO, not \(options.positionals.count)", verb: "simulate") }
            return SimulateCommand(path: path, format: try Format.parse(options, default: .text, verb: "simulate"))
        })

    /// How the timeline is printed.
    enum Format: String, OptionChoice {
        case text
        case json
    }

    /// The scenario file, or `-` for standard input.
    let path: String
    /// The output format.
    let format: Format

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let name = path == "-" ? "standard input" : path
        var bytes: [UInt8] = []
        if path == "-" {
            while try console.stdin.read(into: &bytes, upTo: 64 * 1024, what: "scenario") > 0 {}
        } else {
            bytes = try ByteSource.readFile(path: path, what: "scenario")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidInput("\(name): is not UTF-8 text: save it as UTF-8") }
        let scenario: Scenario
        do throws(ScenarioError) { scenario = try Scenario.parse(text, name: name) } catch { throw .invalidInput(error.description) }
        let timeline = ScenarioRunner.run(scenario)
        console.stdout.write(format == .json ? timeline.json : timeline.text)
        return timeline.everyShareAllowed ? .success : .notAllowed
    }
}
