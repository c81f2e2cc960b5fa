import OpenInPolicy

/// The in-process evaluator benchmark: decide pre-built requests in a loop.
struct EvaluatorBenchmark {
    /// The evaluator, with the corpus's policy.
    let evaluator: Evaluator
    /// The requests, built before timing starts.
    let requests: [ShareRequest]

    /// One round: `passes` passes over the requests.
    /// - Returns: a checksum of the decisions, so the work cannot be optimised away.
    func round(passes: Int) -> UInt64 {
        var checksum: UInt64 = 0
        for _ in 0..<passes { checksum &+= Self.decideAll(evaluator, requests) }
        return checksum
    }

    @inline(never)
    static func decideAll(_ evaluator: Evaluator, _ requests: [ShareRequest]) -> UInt64 {
        var checksum: UInt64 = 0
        for request in requests {
            let decision = evaluator.decide(request)
            checksum &+= fingerprint(decision)
        }
        return checksum
    }

    /// A few bits of the decision that depend on every part the evaluator computes.
    @inline(__always)
    static func fingerprint(_ decision: Decision) -> UInt64 {
        let outcome: UInt64 = switch decision.outcome {
        case .allow: 1
        case .redirect: 2
        case .substituteDummyFile: 3
        case .deny: 4
        }
        return outcome &* 31
            &+ (decision.target == nil ? 0 : 5)
            &+ (decision.callback == nil ? 0 : 7)
            &+ (decision.openInUI == .enabled ? 11 : 13)
    }
}
