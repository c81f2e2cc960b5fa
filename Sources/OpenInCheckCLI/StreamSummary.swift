import OpenInPolicy
import OpenInReports

/// `eval --summary`: how a stream's lines were decided, counted as the records are written.
struct StreamSummary {
    var outcomes: [Outcome: Int] = [:]
    var rules: [RuleID: Int] = [:]
    var invalid = 0
    let evaluator: Evaluator
    let reader = JSONReader()

    init(policy: Policy) {
        evaluator = Evaluator(policy: policy)
    }

    /// Counts one line of the stream: decided as the stream decides it, or invalid.
    mutating func count(_ line: LineReader.Line) {
        guard case .text(let bytes) = line else {
            invalid += 1
            return
        }
        do throws(RequestLine.Failure) {
            add(evaluator.decide(try RequestLine.read(bytes, reader: reader).request))
        } catch {
            invalid += 1
        }
    }

    mutating func add(_ decision: Decision) {
        outcomes[decision.outcome, default: 0] += 1
        rules[decision.rule, default: 0] += 1
    }

    /// `summary: 54 lines: 20 allow, …, 0 invalid`, then one line per rule that decided, in rule order.
    var text: String {
        let lines = outcomes.values.reduce(invalid, +)
        var text = "summary: \(lines) line\(lines == 1 ? "" : "s"): "
        // Intune's outcome is listed only when some line has it, so an AppConnect stream's summary reads as it always has.
        let listed = Outcome.allCases.filter { $0 != .deliverEncrypted || outcomes[$0] != nil }
        text += (listed.map { "\(outcomes[$0] ?? 0) \($0)" } + ["\(invalid) invalid"]).joined(separator: ", ") + "\n"
        let decided = RuleInfo.all.compactMap { rule in rules[rule.id].map { (rule.id.rawValue, $0) } }
        let width = decided.map(\.0.count).max() ?? 0
        for (rule, count) in decided {
            text += "  " + rule + String(repeating: " ", count: width - rule.count + 2) + "\(count)\n"
        }
        return text
    }
}
