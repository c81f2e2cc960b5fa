#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy

/// One `bench` run: builds the corpus, measures each benchmark, and collects the figures.
///
/// Every benchmark runs one warm-up round, then ``rounds`` measured rounds.
struct BenchRun {
    /// The corpus's seed.
    let seed: UInt64
    /// Measured rounds per benchmark (after one warm-up round).
    let rounds: Int
    /// The `openin-check` executable timed as whole processes; `nil` skips them (no child processes, no large temporary file).
    let binary: String?
    /// Another `openin-check` (say, an earlier build) timed in the same rounds, for before/after figures.
    var baseline: String? = nil

    /// Distinct pre-built requests the evaluator benchmark cycles through (their strings stay in cache).
    static let evaluatorRequests = 10_000
    /// Passes over them per round: 10 M decisions a round.
    static let evaluatorPasses = 1_000
    /// Lines of the in-process JSON Lines benchmark (held in memory).
    static let streamLines = 200_000
    /// The whitelist of the policy-load benchmark.
    static let bigWhitelist = 100_000
    /// Lines of the file `eval` and jq read as whole processes.
    static let processLines = 1_000_000
    /// Runs of `eval` with one request from flags (an odd number, for a plain median).
    static let startupRuns = 101

    /// Measures everything; `progress` gets each part of the text report as it is done.
    func measure(progress: (String) -> Void) throws(BenchError) -> BenchReport {
        let corpus = BenchCorpus(seed: seed)
        let scratch = try ScratchDirectory()
        var report = BenchReport(seed: seed, rounds: rounds, machine: .current)
        progress(report.heading)
        report.evaluator = try measureEvaluator(corpus)
        progress(report.evaluatorText)
        report.stream = try measureStream(corpus, scratch)
        progress(report.streamText)
        report.policyLoad = try measurePolicyLoad(scratch)
        progress(report.policyLoadText)
        if let binary {
            report.process = try measureProcesses(corpus, scratch, executable: binary, bigPolicy: report.policyLoad!.path)
            progress(report.processText)
            let file = scratch.file("targets.jsonl")
            _ = scratch.file("targets.policy.json")
            try CorpusWriter.write(corpus, lines: Self.processLines, to: file)
            let targets = try TargetsRun(rounds: rounds, executable: binary, baseline: baseline)
                .measure(corpus, scratch, file: file, policy: CorpusWriter.policyPath(for: file), lines: Self.processLines)
            report.targets = targets
            progress(report.targetsText)
        }
        return report
    }

    // MARK: In process

    private func measureEvaluator(_ corpus: BenchCorpus) throws(BenchError) -> BenchReport.Evaluator {
        var benchmark: EvaluatorBenchmark
        do throws(InputError) {
            benchmark = EvaluatorBenchmark(evaluator: Evaluator(policy: try corpus.policy()),
                                           requests: try corpus.requests(count: Self.evaluatorRequests))
        } catch {
            throw .invalidInput("the bench corpus is invalid (a bug in bench): \(error)")
        }
        let perRound = benchmark.requests.count * Self.evaluatorPasses
        var checksum = benchmark.round(passes: Self.evaluatorPasses)
        var rates: [Double] = []
        rates.reserveCapacity(rounds)
        let allocations = AllocationCounter.count {
            for _ in 0..<rounds {
                let seconds = Stopwatch.seconds { checksum &+= benchmark.round(passes: Self.evaluatorPasses) }
                rates.append(Double(perRound) / seconds)
            }
        }
        return BenchReport.Evaluator(rate: Summary(rates), requests: benchmark.requests.count,
                                     decisionsPerRound: perRound, allocations: allocations, checksum: checksum)
    }

    /// The library's request stream (what `eval` runs) on a stream held in memory, records to /dev/null.
    private func measureStream(_ corpus: BenchCorpus, _ scratch: ScratchDirectory) throws(BenchError) -> BenchReport.Stream {
        let inputs: PolicyInputs
        do throws(FormatError) {
            inputs = try PolicyFile.read(Array(corpus.policyFile.utf8), file: "bench.policy.json")
        } catch {
            throw .invalidInput("the bench corpus's policy is invalid (a bug in the bench): \(error)")
        }
        var input: [UInt8] = []
        for line in corpus.lines(count: Self.streamLines) {
            input.append(contentsOf: line.text.utf8)
            input.append(UInt8(ascii: "\n"))
        }
        let devNull = open("/dev/null", O_WRONLY)
        guard devNull >= 0 else { throw .invalidInput("cannot open /dev/null") }
        defer { close(devNull) }
        func round() {
            let output = BenchOutput(fileDescriptor: devNull)
            let stream = RequestStream(policy: inputs)
            var start = 0
            while start < input.count {
                let end = input.withUnsafeBytes { raw in
                    memchr(raw.baseAddress! + start, Int32(UInt8(ascii: "\n")), raw.count - start)
                        .map { raw.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? raw.count
                }
                stream.withRecord(for: .bytes(input[start..<end])) { output.write(bytes: $0) }
                start = end + 1
            }
            output.flush()
        }
        round()
        var rates: [Double] = []
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let start = clock.now
            round()
            rates.append(Double(Self.streamLines) / (clock.now - start).seconds)
        }
        let allocations = AllocationCounter.count { round() }
        return BenchReport.Stream(rate: Summary(rates), lines: Self.streamLines, bytes: input.count, allocations: allocations)
    }

    /// Reading a policy file with a 100,000-entry whitelist as `eval` does, and making its evaluator.
    private func measurePolicyLoad(_ scratch: ScratchDirectory) throws(BenchError) -> BenchReport.PolicyLoad {
        let big = BenchCorpus(seed: seed, whitelistSize: Self.bigWhitelist)
        let path = scratch.file("big.policy.json")
        let text = big.policyFile
        try CorpusWriter.write(text, to: path)
        func load() throws(BenchError) -> Evaluator {
            var bytes = try BenchFile.read(path)
            do throws(FormatError) {
                return Evaluator(policy: try PolicyFile.read(owning: &bytes, file: path).policy)
            } catch {
                throw .invalidInput("cannot read the bench's big policy: \(error)")
            }
        }
        _ = try load()
        var milliseconds: [Double] = []
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let start = clock.now
            let loaded = try load()
            milliseconds.append((clock.now - start).seconds * 1e3)
            // Loaded means ready to decide: letting go of the policy is not part of the time.
            withExtendedLifetime(loaded) {}
        }
        return BenchReport.PolicyLoad(milliseconds: Summary(milliseconds), entries: Self.bigWhitelist, bytes: text.utf8.count, path: path)
    }

    // MARK: Whole processes

    private func measureProcesses(_ corpus: BenchCorpus, _ scratch: ScratchDirectory, executable: String, bigPolicy: String) throws(BenchError) -> BenchReport.Process {
        let file = scratch.file("requests.jsonl")
        _ = scratch.file("requests.policy.json")
        let bytes = try CorpusWriter.write(corpus, lines: Self.processLines, to: file)
        let policy = CorpusWriter.policyPath(for: file)
        let jq = ChildProcess.onPath("jq")

        func checked(_ run: ChildProcess.Run, _ what: String, allowed: Set<Int32>) throws(BenchError) -> ChildProcess.Run {
            guard allowed.contains(run.status) else {
                throw .invalidInput("\(what) exited with status \(run.status) (expected \(allowed.sorted().map(String.init).joined(separator: " or ")))")
            }
            return run
        }
        let evalArguments = [executable, "eval", "--policy", policy, file]
        let jqArguments = ["jq", "-c", "{id}", file]
        // Warm up (page cache, dynamic loader), then alternate eval and jq so both see the same machine.
        _ = try checked(ChildProcess.run(executable, evalArguments), "eval", allowed: [0, 1, 2])
        if let jq { _ = try checked(ChildProcess.run(jq, jqArguments), "jq", allowed: [0]) }
        var evalRuns: [ChildProcess.Run] = [], jqRuns: [ChildProcess.Run] = []
        for _ in 0..<rounds {
            evalRuns.append(try checked(ChildProcess.run(executable, evalArguments), "eval", allowed: [0, 1, 2]))
            if let jq { jqRuns.append(try checked(ChildProcess.run(jq, jqArguments), "jq", allowed: [0])) }
        }
        // One more run, watched (not timed), for the peak resident memory.
        let watched = try checked(ChildProcess.run(executable, evalArguments, watchMemory: true), "eval", allowed: [0, 1, 2])

        let startupArguments = [executable, "eval", "--policy", policy, "--channel", "document-interaction", "--target", corpus.whitelist[0]]
        for _ in 0..<5 { _ = try checked(ChildProcess.run(executable, startupArguments), "eval (one request)", allowed: [0]) }
        var startup: [Double] = []
        for _ in 0..<Self.startupRuns {
            startup.append(try checked(ChildProcess.run(executable, startupArguments), "eval (one request)", allowed: [0]).seconds * 1e3)
        }

        let bigArguments = [executable, "eval", "--policy", bigPolicy, "--channel", "mail-compose"]
        _ = try checked(ChildProcess.run(executable, bigArguments), "eval (100,000-entry policy)", allowed: [0, 2])
        var bigLoad: [Double] = []
        for _ in 0..<rounds {
            bigLoad.append(try checked(ChildProcess.run(executable, bigArguments), "eval (100,000-entry policy)", allowed: [0, 2]).seconds * 1e3)
        }

        let lines = Double(Self.processLines)
        return BenchReport.Process(
            lines: Self.processLines, bytes: bytes, executable: executable,
            evalRate: Summary(evalRuns.map { lines / $0.seconds }),
            evalPeakResidentBytes: watched.peakResidentBytes ?? 0,
            jqRate: jqRuns.isEmpty ? nil : Summary(jqRuns.map { lines / $0.seconds }),
            jqPath: jq,
            startupMilliseconds: Summary(startup),
            bigPolicyMilliseconds: Summary(bigLoad))
    }
}
