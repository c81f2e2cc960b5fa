#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy

/// The figures of one `bench` run, and how they are printed: text for people, `--json` for machines.
struct BenchReport {
    /// The machine the figures come from.
    struct Machine: Equatable {
        /// Online processors.
        let processors: Int
        /// The CPU's model name (`/proc/cpuinfo`), or "unknown".
        let cpu: String

        static var current: Machine {
            var model = "unknown"
            if let bytes = try? BenchFile.read("/proc/cpuinfo") {
                let text = String(decoding: bytes, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
                   let colon = line.firstIndex(of: ":") {
                    model = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
                }
            }
            return Machine(processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpu: model)
        }
    }

    /// The in-process evaluator benchmark.
    struct Evaluator {
        /// Decisions per second, per round.
        let rate: Summary
        /// Distinct pre-built requests.
        let requests: Int
        /// Decisions per round.
        let decisionsPerRound: Int
        /// Swift heap allocations counted around the measured rounds, or `nil` when counting is unavailable.
        let allocations: Int?
        /// A checksum of every decision, kept so the loop cannot be optimised away.
        let checksum: UInt64
    }

    /// `eval`'s JSON Lines path in process: a stream in memory, records to /dev/null.
    struct Stream {
        /// Lines per second, per round.
        let rate: Summary
        let lines: Int
        let bytes: Int
        /// Swift heap allocations in one more round, or `nil` when counting is unavailable.
        let allocations: Int?
    }

    /// Loading the 100,000-entry policy as `eval` does: read, parse, validate, index.
    struct PolicyLoad {
        let milliseconds: Summary
        let entries: Int
        let bytes: Int
        /// Where the policy file is (the whole-process measurement uses it too).
        let path: String
    }

    /// Whole processes: `eval` (the `openin-check` binary given) and jq as children.
    struct Process {
        let lines: Int
        let bytes: Int
        let executable: String
        /// `eval --policy P FILE > /dev/null`: lines per second, per round.
        let evalRate: Summary
        /// The peak resident set of one more run, watched (`VmHWM`), in bytes.
        let evalPeakResidentBytes: Int
        /// `jq -c '{id}' FILE > /dev/null`, in the same rounds; `nil` when jq is not on `PATH`.
        let jqRate: Summary?
        let jqPath: String?
        /// `eval --policy P --channel … --target …`: wall time of the whole process.
        let startupMilliseconds: Summary
        /// `eval --policy BIG --channel mail-compose` with the 100,000-entry policy.
        let bigPolicyMilliseconds: Summary

        /// How many times faster `eval` is than jq, median against median.
        var ratio: Double? { jqRate.map { evalRate.median / $0.median } }
    }

    let seed: UInt64
    let rounds: Int
    let machine: Machine
    var evaluator: Evaluator?
    var stream: Stream?
    var policyLoad: PolicyLoad?
    var process: Process?
    /// The performance targets' commands, with their floors (and a baseline), and the ratios.
    var targets: (rows: [TargetsRun.Row], notes: [String])?

    var targetsText: String {
        guard let targets else { return "" }
        var text = "targets, same rounds (the commands alternate round by round):\n"
        for row in targets.rows {
            let figure = row.lines != nil ? "\(Format.millions(row.summary)) lines/s" : "\(Format.range(row.summary, decimals: 2)) ms"
            text += "  " + row.name + String(repeating: " ", count: max(1, 52 - row.name.count)) + figure + "\n"
        }
        text += "ratios (median against median):\n"
        for note in targets.notes { text += "  \(note)\n" }
        return text + "\n"
    }

    /// Whether this is an optimised build (`-c release`).
    static var isReleaseBuild: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }

    // MARK: Text

    var heading: String {
        "\(BenchCommand.name): seed \(seed), \(rounds) rounds after a warm-up, "
            + (Self.isReleaseBuild ? "release build" : "DEBUG BUILD (figures mean little: build with -c release)")
            + "; \(machine.cpu), \(machine.processors) processors; one thread\n"
            + "median (min-max) of the rounds\n\n"
    }

    var evaluatorText: String {
        guard let evaluator else { return "" }
        let decisions = evaluator.decisionsPerRound * rounds
        let allocations = evaluator.allocations.map { "\(Format.grouped($0)) Swift heap allocations in \(Format.grouped(decisions)) decisions" }
            ?? "allocations not counted (the counting hook does not work in this build)"
        return """
            evaluator, in process         \(Format.millions(evaluator.rate)) decisions/s
              \(Format.grouped(evaluator.requests)) pre-built requests (every channel, 1,000-entry whitelist), \(Format.grouped(evaluator.decisionsPerRound)) decisions a round
              \(allocations)

            """
    }

    var streamText: String {
        guard let stream else { return "" }
        let allocations = stream.allocations.map { "\(Format.fixed(Double($0) / Double(stream.lines), decimals: 2)) Swift heap allocations a line" } ?? "allocations not counted"
        return """
            request stream, in process    \(Format.millions(stream.rate)) lines/s
              \(Format.grouped(stream.lines)) lines (\(Format.megabytes(stream.bytes))) from memory, records to /dev/null; \(allocations)

            """
    }

    var policyLoadText: String {
        guard let policyLoad else { return "" }
        return """
            policy load, in process       \(Format.range(policyLoad.milliseconds, decimals: 1)) ms
              \(Format.grouped(policyLoad.entries))-entry whitelist (\(Format.megabytes(policyLoad.bytes)) of JSON): read, parse, validate, index

            """
    }

    var processText: String {
        guard let process else { return "" }
        var text = """
            whole processes: \(process.executable)
              eval --policy P FILE >/dev/null   \(Format.millions(process.evalRate)) lines/s, \(Format.grouped(process.lines)) lines (\(Format.megabytes(process.bytes)))
                peak resident memory \(Format.fixed(Double(process.evalPeakResidentBytes) / 1_048_576, decimals: 1)) MiB (VmHWM of one more run)

            """
        if let jqRate = process.jqRate, let ratio = process.ratio {
            text += """
                  jq -c '{id}' FILE >/dev/null      \(Format.millions(jqRate)) lines/s, same file, same rounds (\(process.jqPath ?? "jq"))
                    eval is \(Format.fixed(ratio, decimals: 1))x jq (median against median)

                """
        } else {
            text += "  jq not found on PATH: no comparison\n"
        }
        text += """
              eval, one request from flags      \(Format.range(process.startupMilliseconds, decimals: 2)) ms, \(process.startupMilliseconds.count) runs
              eval, 100,000-entry policy        \(Format.range(process.bigPolicyMilliseconds, decimals: 1)) ms, one request from flags

            """
        return text
    }

    var text: String { heading + evaluatorText + streamText + policyLoadText + processText + targetsText }

    // MARK: JSON

    var json: String {
        func summary(_ summary: Summary, scale: Double = 1) -> JSONValue {
            .object(JSONObject(["median": number(summary.median * scale), "min": number(summary.min * scale),
                                "max": number(summary.max * scale), "rounds": .number(JSONNumber(summary.count))]))
        }
        func number(_ value: Double) -> JSONValue { .number(JSONNumber(Int(value.rounded()))) }
        func count(_ value: Int?) -> JSONValue { value.map { .number(JSONNumber($0)) } ?? .null }
        var members: [JSONObject.Member] = [
            .init("seed", .string(String(seed))),
            .init("rounds", .number(JSONNumber(rounds))),
            .init("release", .bool(Self.isReleaseBuild)),
            .init("machine", .object(JSONObject(["cpu": .string(machine.cpu), "processors": .number(JSONNumber(machine.processors))]))),
        ]
        if let evaluator {
            members.append(.init("evaluator", .object(JSONObject([
                "decisionsPerSecond": summary(evaluator.rate), "requests": count(evaluator.requests),
                "decisionsPerRound": count(evaluator.decisionsPerRound), "allocations": count(evaluator.allocations),
                "allocationsCountedOver": count(evaluator.decisionsPerRound * rounds)]))))
        }
        if let stream {
            members.append(.init("jsonLinesInProcess", .object(JSONObject([
                "linesPerSecond": summary(stream.rate), "lines": count(stream.lines), "bytes": count(stream.bytes),
                "allocations": count(stream.allocations)]))))
        }
        if let policyLoad {
            members.append(.init("policyLoad", .object(JSONObject([
                "microseconds": summary(policyLoad.milliseconds, scale: 1e3), "entries": count(policyLoad.entries),
                "bytes": count(policyLoad.bytes)]))))
        }
        if let process {
            members.append(.init("wholeProcess", .object(JSONObject([
                "lines": count(process.lines), "bytes": count(process.bytes),
                "evalLinesPerSecond": summary(process.evalRate),
                "evalPeakResidentBytes": count(process.evalPeakResidentBytes),
                "jqLinesPerSecond": process.jqRate.map { summary($0) } ?? .null,
                "evalOverJqPercent": process.ratio.map { number($0 * 100) } ?? .null,
                "oneRequestMicroseconds": summary(process.startupMilliseconds, scale: 1e3),
                "bigPolicyMicroseconds": summary(process.bigPolicyMilliseconds, scale: 1e3)]))))
        }
        return JSONWriter.pretty(.object(JSONObject(members: members))) + "\n"
    }
}

/// Number formatting for the report, without Foundation.
enum Format {
    /// `value` with `decimals` digits after the point (halves rounded away from zero).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return String(value) }
        let integer = Int(scaled)
        let whole = integer / Int(scale), fraction = integer % Int(scale)
        var text = (value < 0 && integer != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// An integer with thousands separators: `1,000,000`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// `median (min-max)`.
    static func range(_ summary: Summary, decimals: Int) -> String {
        "\(fixed(summary.median, decimals: decimals)) (\(fixed(summary.min, decimals: decimals))-\(fixed(summary.max, decimals: decimals)))"
    }

    /// A rate in millions: `23.45 M (22.90-23.60)`.
    static func millions(_ summary: Summary) -> String {
        "\(fixed(summary.median / 1e6, decimals: 2)) M (\(fixed(summary.min / 1e6, decimals: 2))-\(fixed(summary.max / 1e6, decimals: 2)))"
    }

    /// Bytes in megabytes (10^6): `75.9 MB`.
    static func megabytes(_ bytes: Int) -> String { "\(fixed(Double(bytes) / 1e6, decimals: 1)) MB" }
}
