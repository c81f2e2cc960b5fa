#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The figures of one `bench` run, and how they are printed.
struct BenchReport {
    /// The machine the figures come from.
    struct Machine: Equatable {
        /// Online processors.
        let processors: Int
        /// The CPU's model name (`/proc/cpuinfo`), or "unknown".
        let cpu: String

        static var current: Machine {
            var model = "unknown"
            if let bytes = try? ByteSource.readFile(path: "/proc/cpuinfo", what: "CPU information") {
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
        /// A checksum of every decision, printed so the loop cannot be optimised away.
        let checksum: UInt64
    }

    let seed: UInt64
    let rounds: Int
    let machine: Machine
    var evaluator: Evaluator?

    /// Whether this is an optimised build (`-c release`).
    static var isReleaseBuild: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }

    var text: String {
        var lines = ["\(CLI.name) bench: seed \(seed), \(rounds) rounds after a warm-up, "
            + (Self.isReleaseBuild ? "release build" : "DEBUG BUILD (figures not representative: build with -c release)")
            + ", one thread; \(machine.processors) processors (\(machine.cpu))", ""]
        if let evaluator {
            let decisions = evaluator.decisionsPerRound * rounds
            let allocations = evaluator.allocations.map { "\(Format.grouped($0)) Swift heap allocations in \(Format.grouped(decisions)) decisions" }
                ?? "allocations not counted (the counting hook does not work in this build)"
            lines.append("evaluator, in process: \(Format.rate(evaluator.rate, unit: "decisions/s"))")
            lines.append("  \(Format.grouped(evaluator.requests)) pre-built requests, \(Format.grouped(evaluator.decisionsPerRound)) decisions a round; \(allocations)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        text
    }
}

/// Number formatting for the report, without Foundation.
enum Format {
    /// `value` with `decimals` digits after the point.
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

    /// A rate in millions: `23.4 M decisions/s (min 22.9, max 23.6)`.
    static func rate(_ summary: Summary, unit: String) -> String {
        "\(fixed(summary.median / 1e6, decimals: 2)) M \(unit) (min \(fixed(summary.min / 1e6, decimals: 2)), max \(fixed(summary.max / 1e6, decimals: 2)))"
    }
}
