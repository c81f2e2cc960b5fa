import OpenInPolicy

/// One `bench` run: builds the corpus, measures each benchmark, and collects the figures.
struct BenchRun {
    /// The corpus's seed.
    let seed: UInt64
    /// Measured rounds per benchmark (after one warm-up round).
    let rounds: Int

    /// Distinct pre-built requests the evaluator benchmark cycles through.
    static let evaluatorRequests = 10_000
    /// Passes over them per round: 10 M decisions a round.
    static let evaluatorPasses = 1_000

    func measure() throws(CLIError) -> BenchReport {
        let corpus = BenchCorpus(seed: seed)
        var report = BenchReport(seed: seed, rounds: rounds, machine: .current)
        report.evaluator = try measureEvaluator(corpus)
        return report
    }

    private func measureEvaluator(_ corpus: BenchCorpus) throws(CLIError) -> BenchReport.Evaluator {
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
}
