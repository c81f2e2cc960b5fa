import OpenInPolicy

/// `openin-check bench`: measures the evaluator, the JSON Lines path and policy loading on a seeded corpus.
struct BenchCommand: Command, Equatable {
    static let specs = [
        OptionSpec("--rounds", value: "N", help: "Measured rounds of each benchmark, after one warm-up round (default 5)."),
        OptionSpec("--seed", value: "N", help: "The corpus's seed (default \(BenchCorpus.defaultSeed))."),
        OptionSpec("--generate", value: "N", help: "Write N request lines to FILE and the corpus's policy next to it, then exit."),
        OptionSpec("--json", help: "Print the figures as one JSON object (rates per second, times in microseconds)."),
        OptionSpec("--in-process", help: "Measure in process only: no child processes, no large temporary file."),
    ]

    static let verb = Verb(
        name: "bench",
        abstract: "Measure the evaluator, the JSON Lines path, policy loading and startup on a seeded corpus.",
        usage: "\(CLI.name) bench [--rounds N] [--seed N] [--json] [--in-process] | bench --generate N FILE [--seed N]",
        specs: specs,
        help: """
            Generates a seeded corpus (a WHITELIST policy with 1,000 bundle IDs, and
            request lines over every channel), then for each benchmark runs one warm-up
            round and N measured rounds and prints the median and the range (min-max):
              - the evaluator in process: decisions per second over pre-built requests,
                with the Swift heap allocations counted around the measured loop;
              - eval's JSON Lines path in process: a stream in memory, records to /dev/null;
              - policy loading: a policy file with a 100,000-entry whitelist, as eval reads it;
              - whole processes (unless --in-process): this executable's eval over a
                1,000,000-line file to /dev/null with its peak resident memory, jq -c '{id}'
                over the same file in the same rounds when jq is on PATH (and the ratio),
                eval with one request from flags (101 runs), and eval with the big policy.
            Build with -c release for figures that mean something; the whole-process
            figures are those of the executable that runs bench.

            With --generate N FILE it writes N request lines (JSON Lines) to FILE and the
            corpus's policy to FILE.policy.json (a trailing .jsonl replaced), for timing
            eval by hand.

            Usage: \(CLI.name) bench [--rounds N] [--seed N] [--json] [--in-process]
                   \(CLI.name) bench --generate N FILE [--seed N]

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status: 0; 1 a file cannot be written; 64 usage error.

            """,
        parse: { arguments throws(UsageError) in try parse(arguments) })

    /// What to do.
    enum Mode: Equatable, Sendable {
        /// Measure and print.
        case measure(rounds: Int, json: Bool, inProcess: Bool)
        /// Write a corpus of `lines` request lines to `file`.
        case generate(lines: Int, file: String)
    }

    let mode: Mode
    let seed: UInt64

    static func parse(_ arguments: [String]) throws(UsageError) -> BenchCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "bench")
        func count(_ name: String, default value: Int, atLeast minimum: Int) throws(UsageError) -> Int {
            guard let text = options.value(name) else { return value }
            guard let number = Int(text), number >= minimum else {
                throw UsageError("\(name) takes a whole number of at least \(minimum), not '\(text)'", verb: "bench")
            }
            return number
        }
        var seed = BenchCorpus.defaultSeed
        if let text = options.value("--seed") {
            guard let number = UInt64(text) else {
                throw UsageError("--seed takes a whole number from 0 to \(UInt64.max), not '\(text)'", verb: "bench")
            }
            seed = number
        }
        if options.value("--generate") != nil {
            for flag in ["--rounds", "--json", "--in-process"] where options.has(flag) || options.value(flag) != nil {
                throw UsageError("\(flag) does not go with --generate, which only writes a corpus", verb: "bench")
            }
            guard options.positionals.count == 1, let file = options.positionals.first, file != "-" else {
                throw UsageError("--generate N takes one FILE to write, e.g. 'bench --generate 1000000 requests.jsonl'", verb: "bench")
            }
            return BenchCommand(mode: .generate(lines: try count("--generate", default: 0, atLeast: 0), file: file), seed: seed)
        }
        if let extra = options.positionals.first {
            throw UsageError("bench takes no arguments, not '\(extra)' (to write a corpus: --generate N FILE)", verb: "bench")
        }
        return BenchCommand(mode: .measure(rounds: try count("--rounds", default: 5, atLeast: 1), json: options.has("--json"),
                                           inProcess: options.has("--in-process")), seed: seed)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        switch mode {
        case .generate(let lines, let file):
            let bytes = try CorpusWriter.write(BenchCorpus(seed: seed), lines: lines, to: file)
            console.stdout.write("wrote \(Format.grouped(lines)) request lines (\(Format.megabytes(bytes))) to \(file) and their policy to \(CorpusWriter.policyPath(for: file))\n")
        case .measure(let rounds, let json, let inProcess):
            let report = try BenchRun(seed: seed, rounds: rounds, inProcessOnly: inProcess).measure { part in
                guard !json else { return }
                console.stdout.write(part)
                console.stdout.flush()
            }
            if json { console.stdout.write(report.json) }
        }
        return .success
    }
}
