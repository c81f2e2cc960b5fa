#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy

/// `openin-check-bench`: measures the evaluator, the request stream and policy loading in process,
/// and the `openin-check` binary it is given as whole processes, on a seeded corpus.
///
/// It is a program of its own, so the installed `openin-check` carries no benchmark code and no
/// allocation hook.
public struct BenchCommand: Equatable, Sendable {
    static let name = "openin-check-bench"

    static let usage = """
        Usage: \(name) [--binary PATH] [--rounds N] [--seed N] [--json] [--in-process]
               \(name) --adversarial [--binary PATH]
               \(name) --generate N FILE [--seed N]
               \(name) --fleet [--binary PATH] [--baseline PATH] [--seed N]
               \(name) --generate-fleet N FILE [--seed N]
        """

    static let help = """
        Generates a seeded corpus (a WHITELIST policy with 1,000 bundle IDs, and
        request lines over every channel), then for each benchmark runs one warm-up
        round and N measured rounds and prints the median and the range (min-max):
          - the evaluator in process: decisions per second over pre-built requests,
            with the Swift heap allocations counted around the measured loop;
          - the request stream (RequestStream) in process: a stream in memory,
            records to /dev/null;
          - policy loading: a policy file with a 100,000-entry whitelist, as eval reads it;
          - whole processes (unless --in-process), of the openin-check binary given by
            --binary: eval over a 1,000,000-line file to /dev/null with its peak
            resident memory, jq -c '{id}' over the same file in the same rounds when
            jq is on PATH (and the ratio), eval with one request from flags (101 runs),
            and eval with the big policy; then the performance targets in alternating
            rounds with their floors: wc -l and cat on the same file (the read floor),
            jq, /bin/true (the start-up floor), a stream of lines with \\u escapes,
            --format json on 1,000 and 10,000 lines, the binary's size and ELF type,
            and the same figures of --baseline, with the ratios.
        Build with -c release for figures that mean something.

        With --adversarial it runs, instead, the inputs that once made openin-check
        super-linear (crafted colliding bundle IDs, --explain over a 40,000-ID
        whitelist, --format json over 100,000 lines, diff --format json of 2,000-ID
        policies, diff --requests over 500,000 invalid lines), each at two sizes,
        and prints time and peak memory for both; then the fleet and Intune inputs
        (fleet lint, many labels, fleet matrix, targeted apps, exempted schemes, a
        devices file, an export folder) at 1×, 10× and 100×, with fitted exponents.

        With --fleet it times the fleet verbs on generated fleets (N apps, 20 labels,
        N / 20 container policies per label, one device carrying every label): fleet
        matrix --format json, fleet paths --from one app and fleet paths --from all
        (text, --to outside, json, markdown, sarif, dot, with a baseline) on 1,000 apps,
        fleet paths --from one app and fleet lint on 10,000 apps (whole processes, with
        peak memory), and the search from every app of the 1,000 in process, without
        and with every hop's decision. With --baseline OLD, each command runs OLD and this build
        alternately on the same files, two rounds each (--rounds N: N), and prints both
        times and the ratios. --generate-fleet N FILE writes such a fleet (its device is named bench),
        for timing by hand.

        With --generate N FILE it writes N request lines (JSON Lines) to FILE and the
        corpus's policy to FILE.policy.json (a trailing .jsonl replaced), for timing
        eval by hand.

        \(usage)

        Options:
          --binary PATH     The openin-check executable timed as whole processes
                            (default: openin-check next to this program).
          --baseline PATH   Another openin-check (an earlier build) timed in the same rounds
                            (with --fleet: alternately, on the same files), for before/after figures.
          --rounds N        Measured rounds of each benchmark, after one warm-up round (default 5);
                            with --fleet, runs of each command (default 1, or 2 of each build with --baseline).
          --seed N          The corpus's seed (default \(BenchCorpus.defaultSeed)).
          --generate N      Write N request lines to FILE and the corpus's policy next to it, then exit.
          --json            Print the figures as one JSON object (rates per second, times in microseconds).
          --in-process      Measure in process only: no child processes, no large temporary file.
          --adversarial     Time the adversarial inputs at two sizes each, the growth inputs at three (whole processes).
          -h, --help        Show this help.

        Exit status: 0; 1 a file cannot be written or a child fails; 64 usage error.

        """

    /// What to do.
    enum Mode: Equatable, Sendable {
        /// Measure and print.
        case measure(rounds: Int, json: Bool, inProcess: Bool)
        /// Write a corpus of `lines` request lines to `file`.
        case generate(lines: Int, file: String)
        /// Time the adversarial workloads as whole processes.
        case adversarial
        /// Time the fleet verbs on generated fleets, each command `rounds` times (of each build, alternately, with a baseline).
        case fleet(rounds: Int)
        /// Write a generated fleet of `apps` apps to `file`.
        case generateFleet(apps: Int, file: String)
        /// Print the help.
        case help
    }

    let mode: Mode
    let seed: UInt64
    /// The `openin-check` executable timed as whole processes, when given.
    var binary: String? = nil
    /// Another `openin-check` timed in the same rounds (`--baseline`), for before/after figures.
    var baseline: String? = nil

    /// Runs the program with its arguments (without its name); returns the exit status.
    public static func main(arguments: [String]) -> Int32 {
        let output = BenchOutput(fileDescriptor: 1)
        defer { output.flush() }
        do throws(BenchError) {
            let command = try parse(arguments)
            try command.run(output)
            return 0
        } catch {
            output.flush()
            let message = error.isUsage ? "\(name): \(error.message)\n\(usage)\n" : "\(name): \(error.message)\n"
            let errors = BenchOutput(fileDescriptor: 2)
            errors.write(message)
            errors.flush()
            return error.isUsage ? 64 : 1
        }
    }

    static let valueOptions: Set<String> = ["--binary", "--baseline", "--rounds", "--seed", "--generate", "--generate-fleet"]
    static let flagOptions: Set<String> = ["--json", "--in-process", "--adversarial", "--fleet", "--help", "-h"]

    static func parse(_ arguments: [String]) throws(BenchError) -> BenchCommand {
        var values: [String: String] = [:], flags: Set<String> = [], positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if valueOptions.contains(argument) {
                guard index < arguments.count else { throw .usage("\(argument) needs a value") }
                values[argument] = arguments[index]
                index += 1
            } else if flagOptions.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("-") && argument != "-" {
                throw .usage("unknown option '\(argument)'")
            } else {
                positionals.append(argument)
            }
        }
        if flags.contains("--help") || flags.contains("-h") { return BenchCommand(mode: .help, seed: BenchCorpus.defaultSeed) }
        func count(_ name: String, default value: Int, atLeast minimum: Int) throws(BenchError) -> Int {
            guard let text = values[name] else { return value }
            guard let number = Int(text), number >= minimum else {
                throw .usage("\(name) takes a whole number of at least \(minimum), not '\(text)'")
            }
            return number
        }
        var seed = BenchCorpus.defaultSeed
        if let text = values["--seed"] {
            guard let number = UInt64(text) else {
                throw .usage("--seed takes a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            seed = number
        }
        if values["--generate"] != nil {
            for flag in ["--rounds", "--json", "--in-process", "--binary", "--baseline"] where flags.contains(flag) || values[flag] != nil {
                throw .usage("\(flag) does not go with --generate, which only writes a corpus")
            }
            guard positionals.count == 1, let file = positionals.first, file != "-" else {
                throw .usage("--generate N takes one FILE to write, e.g. '--generate 1000000 requests.jsonl'")
            }
            return BenchCommand(mode: .generate(lines: try count("--generate", default: 0, atLeast: 0), file: file), seed: seed)
        }
        if values["--generate-fleet"] != nil {
            guard positionals.count == 1, let file = positionals.first, file != "-" else {
                throw .usage("--generate-fleet N takes one FILE to write, e.g. '--generate-fleet 1000 fleet.json'")
            }
            return BenchCommand(mode: .generateFleet(apps: try count("--generate-fleet", default: 20, atLeast: 20), file: file), seed: seed)
        }
        if flags.contains("--fleet") {
            for flag in ["--json", "--in-process", "--generate", "--adversarial"] where flags.contains(flag) || values[flag] != nil {
                throw .usage("\(flag) does not go with --fleet")
            }
            let rounds = try count("--rounds", default: values["--baseline"] == nil ? 1 : FleetBenchmark.comparedRounds, atLeast: 1)
            return BenchCommand(mode: .fleet(rounds: rounds), seed: seed, binary: values["--binary"], baseline: values["--baseline"])
        }
        if flags.contains("--adversarial") {
            for flag in ["--rounds", "--json", "--in-process", "--generate"] where flags.contains(flag) || values[flag] != nil {
                throw .usage("\(flag) does not go with --adversarial")
            }
            return BenchCommand(mode: .adversarial, seed: seed, binary: values["--binary"])
        }
        if let extra = positionals.first {
            throw .usage("\(name) takes no arguments, not '\(extra)' (to write a corpus: --generate N FILE)")
        }
        return BenchCommand(mode: .measure(rounds: try count("--rounds", default: 5, atLeast: 1), json: flags.contains("--json"),
                                           inProcess: flags.contains("--in-process")),
                            seed: seed, binary: values["--binary"], baseline: values["--baseline"])
    }

    func run(_ output: BenchOutput) throws(BenchError) {
        switch mode {
        case .help:
            output.write(Self.help)
        case .generate(let lines, let file):
            let bytes = try CorpusWriter.write(BenchCorpus(seed: seed), lines: lines, to: file)
            output.write("wrote \(Format.grouped(lines)) request lines (\(Format.megabytes(bytes))) to \(file) and their policy to \(CorpusWriter.policyPath(for: file))\n")
        case .generateFleet(let apps, let file):
            try CorpusWriter.write(FleetBenchmark.fleet(apps: apps, seed: seed), to: file)
            output.write("wrote a fleet of \(Format.grouped(apps)) apps (device bench) to \(file)\n")
        case .fleet(let rounds):
            var path = binary ?? ""
            if binary == nil { path = try Self.defaultBinary() }
            guard access(path, X_OK) == 0 else {
                throw .invalidInput("cannot run '\(path)': give the openin-check executable to time with --binary PATH")
            }
            if let baseline, access(baseline, X_OK) != 0 {
                throw .invalidInput("cannot run '\(baseline)': give an earlier openin-check executable with --baseline PATH")
            }
            try FleetBenchmark(binary: path, baseline: baseline, seed: seed, rounds: rounds).measure { part in
                output.write(part)
                output.flush()
            }
        case .adversarial:
            var path = binary ?? ""
            if binary == nil { path = try Self.defaultBinary() }
            guard access(path, X_OK) == 0 else {
                throw .invalidInput("cannot run '\(path)': give the openin-check executable to time with --binary PATH")
            }
            try AdversarialRun(binary: path).measure { part in
                output.write(part)
                output.flush()
            }
        case .measure(let rounds, let json, let inProcess):
            var executable: String? = nil
            if !inProcess {
                var path = binary ?? ""
                if binary == nil { path = try Self.defaultBinary() }
                guard access(path, X_OK) == 0 else {
                    throw .invalidInput("cannot run '\(path)': give the openin-check executable to time with --binary PATH")
                }
                executable = path
            }
            let report = try BenchRun(seed: seed, rounds: rounds, binary: executable, baseline: baseline).measure { part in
                guard !json else { return }
                output.write(part)
                output.flush()
            }
            if json { output.write(report.json) }
        }
    }

    /// `openin-check` in the directory of this program (`.build/release/` after a release build).
    static func defaultBinary() throws(BenchError) -> String {
        guard let this = ChildProcess.currentExecutable, let slash = this.lastIndex(of: "/") else {
            throw .invalidInput("cannot find this program's directory (/proc/self/exe): give the openin-check executable with --binary PATH")
        }
        return String(this[...slash]) + "openin-check"
    }
}
