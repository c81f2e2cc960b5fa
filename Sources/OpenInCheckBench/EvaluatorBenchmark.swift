import OpenInPolicy

/// The in-process evaluator benchmark: decide pre-built requests in a loop.
struct EvaluatorBenchmark {
    /// The evaluator, with the corpus's policy.
    let evaluator: Evaluator
    /// The requests, built before timing starts.
    private(set) var requests: [ShareRequest]

    init(evaluator: Evaluator, requests: [ShareRequest]) {
        self.evaluator = evaluator
        self.requests = requests
    }

    /// One round: `passes` passes over the requests.
    /// - Returns: a checksum of the decisions, so the work cannot be optimised away.
    mutating func round(passes: Int) -> UInt64 {
        var checksum: UInt64 = 0
        for _ in 0..<passes {
            checksum &+= requests.withUnsafeMutableBufferPointer { Self.decideAll(evaluator, $0) }
        }
        return checksum
    }

    /// Decides every request in place.
    ///
    /// Each request is moved out of its slot, decided, and moved back: bitwise
    /// moves, so the loop measures `decide` on a request the caller holds,
    /// not the reference counting of copying a request out of an array (which
    /// the compiler does when it passes an array element by address).
    @inline(never)
    static func decideAll(_ evaluator: Evaluator, _ requests: UnsafeMutableBufferPointer<ShareRequest>) -> UInt64 {
        var checksum: UInt64 = 0
        for index in requests.indices {
            let request = requests.moveElement(from: index)
            checksum &+= fingerprint(evaluator.decide(request))
            requests.initializeElement(at: index, to: consume request)
        }
        return checksum
    }

    /// A few bits of the decision that depend on every part the evaluator computes.
    @inline(__always)
    static func fingerprint(_ decision: borrowing Decision) -> UInt64 {
        let outcome: UInt64 = switch decision.outcome {
        case .allow: 1
        case .redirect: 2
        case .substituteDummyFile: 3
        case .deny: 4
        case .deliverEncrypted: 6
        }
        let target: UInt64 = switch decision.target {
        case .none: 0
        case .some: 5
        }
        let callback: UInt64 = switch decision.callback {
        case .none: 0
        case .some: 7
        }
        return outcome &* 31 &+ target &+ callback &+ (decision.openInUI == .enabled ? 11 : 13)
    }
}
