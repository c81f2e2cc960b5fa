#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The figures of the performance targets, each next to its floor and, when a baseline binary is
/// given, next to the same figure of the baseline, all measured in the same rounds: the runs of
/// every command alternate round by round, so all see the same machine.
struct TargetsRun {
    /// One measured command: its rounds, as lines per second or milliseconds.
    struct Row {
        let name: String
        let summary: Summary
        /// Lines per round for a rate; `nil` for a time in milliseconds.
        let lines: Int?
    }

    /// A binary's file: its size, ELF type and whether it carries a symbol table.
    struct BinaryFacts: Equatable {
        let path: String
        let bytes: Int
        let type: String
        let stripped: Bool

        var text: String {
            "\(path): \(Format.fixed(Double(bytes) / 1e6, decimals: 1)) MB, ELF \(type), \(stripped ? "stripped" : "not stripped (has .symtab)")"
        }
    }

    let rounds: Int
    let executable: String
    let baseline: String?

    static let escapedLines = 200_000
    static let startupRuns = 51
    /// The bundle IDs of the large policy whose load is timed as a whole process.
    static let largePolicyIDs = 1_000_000
    /// Runs of that load (after one warm-up).
    static let largePolicyRuns = 5

    func measure(_ corpus: BenchCorpus, _ scratch: ScratchDirectory, file: String, policy: String, lines: Int) throws(BenchError) -> (rows: [Row], notes: [String]) {
        let escaped = scratch.file("escaped.jsonl")
        try CorpusWriter.writeEscaped(corpus, lines: Self.escapedLines, to: escaped)
        let small = scratch.file("small.jsonl"), four = scratch.file("four.jsonl"), ten = scratch.file("ten.jsonl")
        try CorpusWriter.write(corpus, lines: 1_000, to: small)
        try CorpusWriter.write(corpus, lines: 4_000, to: four)
        try CorpusWriter.write(corpus, lines: 10_000, to: ten)
        let plainPart = scratch.file("plain-part.jsonl")
        try CorpusWriter.write(corpus, lines: Self.escapedLines, to: plainPart)

        var binaries = [("openin-check", executable)]
        if let baseline { binaries.append(("baseline", baseline)) }
        var commands: [(name: String, arguments: [String], lines: Int?, allowed: Set<Int32>)] = []
        for (label, binary) in binaries {
            commands.append(("\(label) eval FILE (1M lines)", [binary, "eval", "--policy", policy, file], lines, [0, 1, 2]))
            commands.append(("\(label) eval, 200k plain lines", [binary, "eval", "--policy", policy, plainPart], Self.escapedLines, [0, 1, 2]))
            commands.append(("\(label) eval, 200k lines with \\u escapes", [binary, "eval", "--policy", policy, escaped], Self.escapedLines, [0, 1, 2]))
            commands.append(("\(label) eval --format json, 1,000 lines", [binary, "eval", "--format", "json", "--policy", policy, small], nil, [0, 1, 2]))
            commands.append(("\(label) eval --format json, 4,000 lines", [binary, "eval", "--format", "json", "--policy", policy, four], nil, [0, 1, 2]))
            // (10,000 lines only for the binary measured: a quadratic baseline takes minutes there.)
            if label == "openin-check" {
                commands.append(("\(label) eval --format json, 10,000 lines", [binary, "eval", "--format", "json", "--policy", policy, ten], nil, [0, 1, 2]))
            }
        }
        for tool in ["wc", "cat"] {
            if let path = ChildProcess.onPath(tool) {
                commands.append(("\(tool)\(tool == "wc" ? " -l" : "") FILE", tool == "wc" ? [path, "-l", file] : [path, file], lines, [0]))
            }
        }
        if let jq = ChildProcess.onPath("jq") { commands.append(("jq -c '{id}' FILE", [jq, "-c", "{id}", file], lines, [0])) }

        var times = Array(repeating: [Double](), count: commands.count)
        for round in 0...rounds {
            for (index, command) in commands.enumerated() {
                let run = try ChildProcess.run(command.arguments[0], command.arguments)
                guard command.allowed.contains(run.status) else {
                    throw .invalidInput("\(command.name) exited with status \(run.status)")
                }
                if round > 0 { times[index].append(run.seconds) }  // round 0 warms up
            }
        }
        var rows: [Row] = []
        for (index, command) in commands.enumerated() {
            let values = command.lines.map { count in times[index].map { Double(count) / $0 } } ?? times[index].map { $0 * 1e3 }
            rows.append(Row(name: command.name, summary: Summary(values), lines: command.lines))
        }

        // Start-up: one request from flags against the floor of starting a process, alternating run by run.
        let target = corpus.whitelist[0]
        var startupCommands = binaries.map { ("\($0.0) eval, one request from flags", [$0.1, "eval", "--policy", policy, "--channel", "document-interaction", "--target", target]) }
        if let truePath = ChildProcess.onPath("true") { startupCommands.append(("/bin/true (start-up floor)", [truePath])) }
        var startup = Array(repeating: [Double](), count: startupCommands.count)
        for run in 0..<(Self.startupRuns + 5) {
            for (index, command) in startupCommands.enumerated() {
                let result = try ChildProcess.run(command.1[0], command.1)
                guard result.status == 0 else { throw .invalidInput("\(command.0) exited with status \(result.status)") }
                if run >= 5 { startup[index].append(result.seconds * 1e3) }
            }
        }
        for (index, command) in startupCommands.enumerated() { rows.append(Row(name: command.0, summary: Summary(startup[index]), lines: nil)) }

        // Policy load: a whitelist of 1,000,000 IDs, one request decided under it, as a whole process
        // (start-up included) with the cap raised by --max-file-size; time and peak memory, of the
        // baseline too in alternating runs (unless it refuses the file: a build before --max-file-size).
        let largePolicy = scratch.file("large.policy.json")
        let largeText = BenchCorpus(seed: corpus.seed, whitelistSize: Self.largePolicyIDs).policyFile
        try CorpusWriter.write(largeText, to: largePolicy)
        let loadWhat = "eval, policy of \(Format.grouped(Self.largePolicyIDs)) IDs (\(Format.fixed(Double(largeText.utf8.count) / 1e6, decimals: 1)) MB)"
        var loadTimes: [[Double]] = binaries.map { _ in [] }, loadPeaks: [[Int]] = binaries.map { _ in [] }
        var loading = Array(binaries.indices)
        for run in 0...Self.largePolicyRuns {
            for index in loading {
                let (label, binary) = binaries[index]
                let result = try ChildProcess.run(binary, [binary, "eval", "--max-file-size", "1073741824", "--policy", largePolicy,
                                                           "--channel", "document-interaction", "--target", target], watchMemory: true)
                guard result.status == 0 || result.status == 2 else {
                    if label == "baseline", run == 0 {
                        loading.removeAll { $0 == index }
                        continue
                    }
                    throw .invalidInput("\(label) \(loadWhat) exited with status \(result.status)")
                }
                if run > 0 {
                    loadTimes[index].append(result.seconds * 1e3)
                    if let peak = result.peakResidentBytes { loadPeaks[index].append(peak) }
                }
            }
        }
        for index in loading { rows.append(Row(name: "\(binaries[index].0) \(loadWhat)", summary: Summary(loadTimes[index]), lines: nil)) }

        // Ratios, median against median, all from this run.
        func median(_ name: String) -> Double? { rows.first { $0.name == name }?.summary.median }
        var notes: [String] = []
        func ratio(_ text: String, _ value: Double?) { if let value { notes.append("\(text): \(Format.fixed(value, decimals: 2))") } }
        for (label, _) in binaries {
            let stream = median("\(label) eval FILE (1M lines)")
            ratio("\(label): stream rate / wc -l rate", stream.flatMap { s in median("wc -l FILE").map { s / $0 } })
            ratio("\(label): stream rate / cat rate", stream.flatMap { s in median("cat FILE").map { s / $0 } })
            ratio("\(label): stream rate / jq rate", stream.flatMap { s in median("jq -c '{id}' FILE").map { s / $0 } })
            ratio("\(label): escaped-line rate / plain-line rate (200k each)",
                  median("\(label) eval, 200k lines with \\u escapes").flatMap { e in median("\(label) eval, 200k plain lines").map { e / $0 } })
            ratio("\(label): --format json time, 4,000 / 1,000 lines",
                  median("\(label) eval --format json, 4,000 lines").flatMap { t in median("\(label) eval --format json, 1,000 lines").map { t / $0 } })
            ratio("\(label): --format json time, 10,000 / 1,000 lines",
                  median("\(label) eval --format json, 10,000 lines").flatMap { t in median("\(label) eval --format json, 1,000 lines").map { t / $0 } })
            ratio("\(label): one request / /bin/true start-up",
                  median("\(label) eval, one request from flags").flatMap { t in median("/bin/true (start-up floor)").map { t / $0 } })
        }
        if baseline != nil {
            ratio("openin-check / baseline, stream rate",
                  median("openin-check eval FILE (1M lines)").flatMap { n in median("baseline eval FILE (1M lines)").map { n / $0 } })
            ratio("openin-check / baseline, escaped-line rate",
                  median("openin-check eval, 200k lines with \\u escapes").flatMap { n in median("baseline eval, 200k lines with \\u escapes").map { n / $0 } })
            ratio("baseline / openin-check, --format json 4,000 lines time",
                  median("baseline eval --format json, 4,000 lines").flatMap { b in median("openin-check eval --format json, 4,000 lines").map { b / $0 } })
            ratio("baseline / openin-check, \(Format.grouped(Self.largePolicyIDs))-ID policy load time",
                  median("baseline \(loadWhat)").flatMap { b in median("openin-check \(loadWhat)").map { b / $0 } })
            ratio("openin-check / baseline, one request from flags time",
                  median("openin-check eval, one request from flags").flatMap { n in median("baseline eval, one request from flags").map { n / $0 } })
        }
        for index in loading {
            if let peak = loadPeaks[index].max() {
                notes.append("\(binaries[index].0): peak resident memory loading the \(Format.grouped(Self.largePolicyIDs))-ID policy: \(Format.fixed(Double(peak) / 1_048_576, decimals: 1)) MiB (the largest of \(loadPeaks[index].count) runs)")
            }
        }
        for (_, binary) in binaries {
            if let facts = Self.facts(of: binary) { notes.append(facts.text) }
        }
        return (rows, notes)
    }

    /// The size, ELF type (`EXEC` for a position-dependent executable, `DYN` for a PIE) and
    /// whether a `.symtab` section is present, read from the file's headers.
    static func facts(of path: String) -> BinaryFacts? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func read(_ offset: Int, _ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let header = read(0, 64), header.starts(with: [0x7F, 0x45, 0x4C, 0x46]), header[4] == 2 else { return nil }
        let type = integer(header, 16, 2)
        let sectionsOffset = integer(header, 40, 8), sectionSize = integer(header, 58, 2)
        let sectionCount = integer(header, 60, 2), namesIndex = integer(header, 62, 2)
        var symbols = false
        if sectionCount > 0, namesIndex < sectionCount, let names = read(sectionsOffset + namesIndex * sectionSize, sectionSize) {
            let namesOffset = integer(names, 24, 8), namesSize = integer(names, 32, 8)
            if let table = read(namesOffset, namesSize) {
                for index in 0..<sectionCount {
                    guard let section = read(sectionsOffset + index * sectionSize, sectionSize) else { break }
                    let nameStart = integer(section, 0, 4)
                    guard nameStart < table.count else { continue }
                    let name = table[nameStart...].prefix { $0 != 0 }
                    if Array(name) == Array(".symtab".utf8) { symbols = true }
                }
            }
        }
        return BinaryFacts(path: path, bytes: Int(status.st_size), type: type == 2 ? "EXEC" : type == 3 ? "DYN (PIE)" : "type \(type)", stripped: !symbols)
    }
}
