/// `openin-check-bench --adversarial`: the inputs that once made `openin-check`
/// super-linear in time or memory, each run as a whole process at two sizes, then
/// the fleet, Intune and single-app `diff` inputs at three (``GrowthRun``).
///
/// For each workload the input grows by a factor (4 or so) between the sizes; time and peak
/// resident memory are printed for both, with the time ratio. Linear time shows a time ratio
/// near the size ratio; bounded memory shows a flat peak.
struct AdversarialRun {
    /// One workload: a name, its two sizes, and how to write its files and arguments for a size.
    struct Workload: Sendable {
        let name: String
        let unit: String
        let sizes: [Int]
        /// Writes the inputs of size `n` into `scratch` and returns `openin-check`'s arguments.
        let make: @Sendable (_ n: Int, _ scratch: ScratchDirectory) throws(BenchError) -> [String]
    }

    let binary: String

    /// IDs that share their length and their first and last eight bytes, which a hash of
    /// only those bytes (the JSON Lines interner's old hash) sent to one slot.
    static func collidingID(_ index: Int) -> String {
        let digits = String(index)
        return "com.example.a" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits + ".zzzzzzzz"
    }

    static func policy(ids: [String]) -> String {
        "{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\n" + ids.map { "\"\($0)\"" }.joined(separator: ",\n") + "\n]}\n"
    }

    static func write(_ text: String, _ name: String, _ scratch: ScratchDirectory) throws(BenchError) -> String {
        let path = scratch.file(name)
        try CorpusWriter.write(text, to: path)
        return path
    }

    static let workloads: [Workload] = [
        Workload(name: "crafted colliding IDs: 1,000 lines naming them", unit: "IDs in the policy", sizes: [40_000, 160_000]) { n, scratch throws(BenchError) in
            let ids = (0..<n).map(collidingID)
            let policy = try write(policy(ids: ids), "colliding.json", scratch)
            let lines = (0..<1_000).map { "{\"channel\":\"document-interaction\",\"target\":\"\(collidingID($0 * (n / 1_000)))\"}" }
            return ["eval", "--policy", policy, try write(lines.joined(separator: "\n") + "\n", "colliding.jsonl", scratch)]
        },
        Workload(name: "--explain: 5,000 unlisted targets", unit: "IDs in the whitelist", sizes: [10_000, 40_000]) { n, scratch throws(BenchError) in
            let policy = try write(policy(ids: (0..<n).map { "com.example.app\($0)" }), "explain.json", scratch)
            let lines = (0..<5_000).map { "{\"channel\":\"document-interaction\",\"target\":\"org.unlisted.app\($0)\"}" }
            return ["eval", "--explain", "--policy", policy, try write(lines.joined(separator: "\n") + "\n", "explain.jsonl", scratch)]
        },
        Workload(name: "eval --format json", unit: "request lines", sizes: [25_000, 100_000]) { n, scratch throws(BenchError) in
            let policy = try write(policy(ids: ["com.example.docs"]), "json.json", scratch)
            let lines = (0..<n).map { "{\"id\":\($0),\"channel\":\"document-interaction\",\"target\":\"com.example.app\($0 % 7)\"}" }
            return ["eval", "--format", "json", "--policy", policy, try write(lines.joined(separator: "\n") + "\n", "json.jsonl", scratch)]
        },
        Workload(name: "diff --format json, half the IDs changed", unit: "IDs per policy", sizes: [500, 2_000]) { n, scratch throws(BenchError) in
            let old = try write(policy(ids: (0..<n).map { "com.example.app\($0)" }), "old.json", scratch)
            let new = try write(policy(ids: (n / 2..<n + n / 2).map { "com.example.app\($0)" }), "new.json", scratch)
            return ["diff", "--format", "json", old, new]
        },
        Workload(name: "diff --requests, every line a distinct changed request", unit: "request lines", sizes: [125_000, 500_000]) { n, scratch throws(BenchError) in
            // Every app is allowed under AUTHORIZED and blocked under a one-ID whitelist: the policies stay small.
            let old = try write("{\"openInPolicy\": \"authorized\"}\n", "old-changed.json", scratch)
            let new = try write(policy(ids: ["com.example.b"]), "new-changed.json", scratch)
            let lines = (0..<n).map { "{\"channel\":\"document-interaction\",\"target\":\"com.example.app\($0)\"}" }
            return ["diff", "--requests", try write(lines.joined(separator: "\n") + "\n", "changed.jsonl", scratch), old, new]
        },
    ]

    /// Runs every workload once per size (after the inputs are written) and describes the figures.
    func measure(progress: (String) -> Void) throws(BenchError) {
        progress("adversarial inputs, whole processes of \(binary), one run per size:\n")
        for workload in Self.workloads {
            var figures: [(n: Int, run: ChildProcess.Run)] = []
            for n in workload.sizes {
                let scratch = try ScratchDirectory()
                let arguments = try workload.make(n, scratch)
                let run = try ChildProcess.run(binary, ["openin-check"] + arguments, watchMemory: true)
                guard run.status >= 0, run.status != 64 else {
                    throw .invalidInput("'\(workload.name)' at \(n): openin-check exited with status \(run.status)")
                }
                figures.append((n, run))
            }
            var line = "  \(workload.name) (\(workload.unit)):"
            for figure in figures {
                let memory = figure.run.peakResidentBytes.map { ", peak \(Format.megabytes($0))" } ?? ""
                line += " \(Format.grouped(figure.n)): \(Format.fixed(figure.run.seconds, decimals: 3)) s\(memory);"
            }
            if let first = figures.first, let last = figures.last, first.n < last.n {
                line += " time ×\(Format.fixed(last.run.seconds / max(first.run.seconds, 1e-6), decimals: 1)) for input ×\(last.n / first.n)"
            }
            progress(line + "\n")
        }
        try GrowthRun(binary: binary).measure(progress: progress)
    }
}
