#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy

/// `openin-check-bench --fleet`: a generated fleet of N apps, 20 labels and N / 20 container policies per
/// label (one per app), on one device that carries every label and has every app installed; timed as
/// whole processes of `openin-check fleet` and, for the all-pairs search, in process.
struct FleetBenchmark {
    /// The seeded fleet file's text.
    ///
    /// App `i` is `com.bench.appNNNNN`; four in five are AppConnect apps, the others declare a URL
    /// scheme. Its container policy is on label `i % 20`. Open In: 10 % AUTHORIZED, 40 % a whitelist of
    /// 20 seeded apps, 40 % "All AppConnect apps", 10 % UNAUTHORIZED; Open From: "All AppConnect
    /// apps", AUTHORIZED or a whitelist of 10; pasteboard SECURECOPY or AUTHORIZED; drag and drop
    /// "appconnect", all or none. The global policy sets every control and authorizes no app by default.
    static func fleet(apps count: Int, seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        func id(_ index: Int) -> String {
            let digits = String(index)
            return "com.bench.app" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        }
        func list(_ size: Int) -> String { "[" + (0..<size).map { _ in "\"\(id(random.below(count)))\"" }.joined(separator: ", ") + "]" }
        var text = """
            {"description": "openin-check-bench: \(count) apps, 20 labels, \(count / 20) container policies per label",
             "global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "appconnect", "openFromPolicy": "appconnect",
                        "pasteboardPolicy": "securecopy", "printPolicy": "unauthorized", "dragAndDropPolicy": "appconnect"},
             "containerPolicies": [

            """
        for index in 0..<count {
            var policy = "  {\"name\": \"P\(index)\", \"app\": \"\(id(index))\", \"labels\": [\"L\(index % 20)\"]"
            switch random.below(10) {
            case 0: policy += ", \"openInPolicy\": \"authorized\""
            case 1...4: policy += ", \"openInPolicy\": \"whitelist\", \"openInWhitelist\": \(list(20))"
            case 5...8: policy += ", \"openInPolicy\": \"appconnect\""
            default: policy += ", \"openInPolicy\": \"unauthorized\""
            }
            switch random.below(3) {
            case 0: policy += ", \"openFromPolicy\": \"appconnect\""
            case 1: policy += ", \"openFromPolicy\": \"authorized\""
            default: policy += ", \"openFromPolicy\": \"whitelist\", \"openFromWhitelist\": \(list(10))"
            }
            policy += random.chance(percent: 50) ? ", \"pasteboardPolicy\": \"securecopy\"" : ", \"pasteboardPolicy\": \"authorized\""
            policy += ", \"dragAndDropPolicy\": \"\(random.pick(["appconnect", "all", "none"]))\"}"
            text += policy + (index == count - 1 ? "\n" : ",\n")
        }
        text += " ],\n \"apps\": [\n"
        for index in 0..<count {
            let appConnect = index % 5 != 0
            text += "  {\"bundleID\": \"\(id(index))\", \"appconnect\": \(appConnect)" + (appConnect ? "}" : ", \"urlSchemes\": [\"bench\(index)\"]}") + (index == count - 1 ? "\n" : ",\n")
        }
        let labels = (0..<20).map { "\"L\($0)\"" }.joined(separator: ", ")
        text += " ],\n \"devices\": {\"bench\": {\"labels\": [\(labels)], \"secureServicesAvailable\": true,\n  \"installed\": ["
        text += (0..<count).map { "\"\(id($0))\"" }.joined(separator: ", ") + "]}}\n}\n"
        return text
    }

    /// How many entries ``baseline(apps:)`` writes.
    static func baselineEntries(apps count: Int) -> Int { count * 2 }

    /// A baseline for ``fleet(apps:seed:)``'s device: for every app, its paths to native Mail and to any other app
    /// (whether or not the app reaches them), so matching meets as many entries as paths.
    static func baseline(apps count: Int) -> String {
        var text = "{\"accepted\": [\n"
        for index in 0..<count {
            let id = "com.bench.app" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index)
            text += index == 0 ? "" : ",\n"
            text += "{\"device\": \"bench\", \"from\": \"\(id)\", \"to\": \"com.apple.mobilemail\", \"reason\": \"bench\", \"expires\": \"2099-12-31\"},\n"
            text += "{\"device\": \"*\", \"from\": \"\(id)\", \"to\": \"any other app\", \"reason\": \"bench\", \"expires\": \"2099-12-31\"}"
        }
        return text + "\n]}\n"
    }

    let binary: String
    /// Another `openin-check` (an earlier build), timed on the same files, alternating with ``binary`` (`--baseline`).
    var baseline: String? = nil
    let seed: UInt64

    /// The rounds each command runs of each build when a ``baseline`` is given (new, previous, new, previous) and `--rounds` is not.
    static let comparedRounds = 2
    /// The runs of each command (of each build, alternately, when a ``baseline`` is given).
    var rounds = 1

    func measure(progress: (String) -> Void) throws(BenchError) {
        let scratch = try ScratchDirectory()
        let small = scratch.file("fleet-1000.json"), large = scratch.file("fleet-10000.json")
        try CorpusWriter.write(Self.fleet(apps: 1_000, seed: seed), to: small)
        try CorpusWriter.write(Self.fleet(apps: 10_000, seed: seed), to: large)
        progress("fleet: generated fleets (seed \(seed)), one device carrying all 20 labels, every app installed; "
            + (self.baseline == nil ? (rounds == 1 ? "one run each\n" : "\(rounds) runs each\n")
                : "each command run by this build and by --baseline alternately, \(rounds) rounds each; ratio = this / previous per round\n"))
        @discardableResult
        func child(_ what: String, _ arguments: [String]) throws(BenchError) -> Double {
            // Timed runs are not watched: reading the child's memory every millisecond takes a core's share from a child
            // that uses both. The peak comes from one more run of each build, watched and not timed.
            func peak(_ path: String) throws(BenchError) -> Int? {
                let run = try ChildProcess.run(path, ["openin-check"] + arguments, watchMemory: true)
                guard run.status == 0 || run.status == 2 else { return nil }
                return run.peakResidentBytes
            }
            guard let previous = self.baseline else {
                var times: [Double] = []
                for _ in 0..<rounds {
                    let run = try ChildProcess.run(binary, ["openin-check"] + arguments)
                    guard run.status == 0 || run.status == 2 else {
                        throw .invalidInput("'\(arguments.joined(separator: " "))' exited with status \(run.status)")
                    }
                    times.append(run.seconds)
                }
                let memory = try peak(binary).map { ", peak \(Format.megabytes($0))" } ?? ""
                progress("  \(what): \(times.map { Format.fixed($0, decimals: 3) }.joined(separator: ", ")) s\(memory)\n")
                return times.min() ?? 0
            }
            var now: [Double] = [], before: [Double] = []
            var previousStatus: Int32 = 0
            for _ in 0..<rounds {
                let run = try ChildProcess.run(binary, ["openin-check"] + arguments)
                guard run.status == 0 || run.status == 2 else {
                    throw .invalidInput("'\(arguments.joined(separator: " "))' exited with status \(run.status)")
                }
                now.append(run.seconds)
                let old = try ChildProcess.run(previous, ["openin-check"] + arguments)
                previousStatus = old.status
                if old.status == 0 || old.status == 2 { before.append(old.seconds) }
            }
            let times = now.map { Format.fixed($0, decimals: 3) }.joined(separator: ", ")
            var line = "  \(what): \(times) s, peak \(Format.megabytes(try peak(binary) ?? 0))"
            if before.count == now.count, let old = try peak(previous) { line += " (previous \(Format.megabytes(old)))" }
            if before.count == now.count {
                let ratios = zip(now, before).map { $0 / $1 }
                line += "; previous \(before.map { Format.fixed($0, decimals: 3) }.joined(separator: ", ")) s; ratio "
                line += "\(Format.fixed(ratios.min()!, decimals: 2))–\(Format.fixed(ratios.max()!, decimals: 2))×"
            } else {
                line += "; previous build: exit \(previousStatus) (it does not have this command)"
            }
            progress(line + "\n")
            return now.min() ?? 0
        }
        try child("1,000 apps: fleet matrix --format json (1,000 × 1,001 × 7 channels)", ["fleet", "matrix", "--fleet", small, "--device", "bench", "--format", "json"])
        try child("1,000 apps: fleet paths --from one app", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "com.bench.app00001"])
        let all = try child("1,000 apps: fleet paths --from all (every app's paths, every hop printed)", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all"])
        let paths = try child("1,000 apps: fleet paths --from all --to outside", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--to", "outside"])
        // Side by side with the line above: every candidate change verified against the same paths.
        let fixes = try child("1,000 apps: fleet fixes --from all --format json", ["fleet", "fixes", "--fleet", small, "--device", "bench", "--from", "all", "--format", "json"])
        // The goal of the fixes (≤ 10×) is against `fleet paths --from all`; the ratio to the paths it closes is shown too.
        progress("  1,000 apps: fleet fixes / fleet paths --from all: \(Format.fixed(fixes / max(all, 0.001), decimals: 1))× (goal ≤ 10×); / fleet paths --from all --to outside: \(Format.fixed(fixes / max(paths, 0.001), decimals: 1))×\n")
        try child("1,000 apps: fleet report (HTML on stdout)", ["fleet", "report", "--fleet", small])
        try child("1,000 apps: fleet paths --from all --format json", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--format", "json"])
        // The report formats of every app's leak paths (each path a table row, a SARIF result with its code flow, or DOT edges).
        try child("1,000 apps: fleet paths --from all --format markdown", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--format", "markdown"])
        try child("1,000 apps: fleet paths --from all --format sarif", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--format", "sarif"])
        try child("1,000 apps: fleet paths --from all --format dot", ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--format", "dot"])
        // A baseline accepting every other leak path of every app: matching is a hash lookup per path (linear in paths + entries).
        let baseline = scratch.file("baseline-1000.json")
        try CorpusWriter.write(Self.baseline(apps: 1_000), to: baseline)
        try child("1,000 apps: fleet paths --from all --to outside --baseline (\(Format.grouped(Self.baselineEntries(apps: 1_000))) entries)",
                  ["fleet", "paths", "--fleet", small, "--device", "bench", "--from", "all", "--to", "outside", "--baseline", baseline])
        try child("10,000 apps: fleet paths --from one app", ["fleet", "paths", "--fleet", large, "--device", "bench", "--from", "com.bench.app00001"])
        // Every check on the same fleet: its warnings (about 19,000) worded and written.
        try child("10,000 apps: fleet lint", ["fleet", "lint", "--fleet", large])
        // The all-pairs search, in process: every app's reachable set and shortest-path tree.
        let bytes = try BenchFile.read(small)
        let fleet: Fleet
        do throws(FormatError) { fleet = try FleetJSON.read(bytes, file: small) } catch { throw .invalidInput(error.description) }
        let clock = ContinuousClock()
        let start = clock.now
        var reached = 0
        do throws(FleetError) {
            let device = try fleet.device(named: "bench")
            for reach in try device.reachAll() { reached += reach.reached.count }
        } catch {
            throw .invalidInput(error.description)
        }
        let seconds = (clock.now - start).seconds
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        progress("  1,000 apps: paths from every app, in process (device resolved, whole graph, 1,000 searches; \(Format.grouped(reached)) app pairs reached): \(Format.fixed(seconds, decimals: 3)) s, peak of this process \(Format.megabytes(Int(usage.ru_maxrss) * 1024))\n")
        // The same with every hop's end-to-end decision, as fleet paths prints them.
        let materialized = clock.now
        var hops = 0
        do throws(FleetError) {
            let device = try fleet.device(named: "bench")
            for reach in try device.reachAll() { hops += try device.paths(reach).reduce(0) { $0 + $1.hops.count } }
        } catch {
            throw .invalidInput(error.description)
        }
        let withDecisions = (clock.now - materialized).seconds
        getrusage(RUSAGE_SELF.rawValue, &usage)
        progress("  1,000 apps: the same with every hop's end-to-end decision (\(Format.grouped(hops)) hops): \(Format.fixed(withDecisions, decimals: 3)) s, peak of this process \(Format.megabytes(Int(usage.ru_maxrss) * 1024))\n")
    }
}
