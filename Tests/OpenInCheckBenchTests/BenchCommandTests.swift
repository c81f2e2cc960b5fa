import Foundation
@testable import OpenInCheckBench
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// `openin-check-bench`: its options, its seeded corpus and `--generate`. (No timings: figures come from `bench` itself.)
@Suite struct BenchCommandTests {
    @Test func parsesMeasureAndGenerate() throws {
        #expect(try BenchCommand.parse([]) == BenchCommand(mode: .measure(rounds: 5, json: false, inProcess: false), seed: BenchCorpus.defaultSeed))
        #expect(try BenchCommand.parse(["--rounds", "3", "--json", "--seed", "9", "--in-process"])
                == BenchCommand(mode: .measure(rounds: 3, json: true, inProcess: true), seed: 9))
        #expect(try BenchCommand.parse(["--binary", "/usr/local/bin/openin-check"])
                == BenchCommand(mode: .measure(rounds: 5, json: false, inProcess: false), seed: BenchCorpus.defaultSeed, binary: "/usr/local/bin/openin-check"))
        #expect(try BenchCommand.parse(["--generate", "10", "out.jsonl"]) == BenchCommand(mode: .generate(lines: 10, file: "out.jsonl"), seed: BenchCorpus.defaultSeed))
    }

    @Test("usage errors", arguments: [
        (["--rounds", "0"], "--rounds takes a whole number of at least 1, not '0'"),
        (["--seed", "-1"], "--seed takes a whole number from 0 to 18446744073709551615, not '-1'"),
        (["--generate", "10"], "--generate N takes one FILE to write, e.g. '--generate 1000000 requests.jsonl'"),
        (["--generate", "x", "f"], "--generate takes a whole number of at least 0, not 'x'"),
        (["--generate", "1", "f", "--json"], "--json does not go with --generate, which only writes a corpus"),
        (["--generate", "1", "f", "--binary", "b"], "--binary does not go with --generate, which only writes a corpus"),
        (["extra"], "openin-check-bench takes no arguments, not 'extra' (to write a corpus: --generate N FILE)"),
        (["--verbose"], "unknown option '--verbose'"),
        (["--rounds"], "--rounds needs a value"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: BenchError.usage(message)) { try BenchCommand.parse(arguments) }
    }

    @Test func parsesABaseline() throws {
        #expect(try BenchCommand.parse(["--binary", "new", "--baseline", "old"])
                == BenchCommand(mode: .measure(rounds: 5, json: false, inProcess: false), seed: BenchCorpus.defaultSeed, binary: "new", baseline: "old"))
    }

    @Test("the ELF facts of a binary: size, type, symbol table")
    func elfFacts() throws {
        let facts = try #require(TargetsRun.facts(of: "/proc/self/exe"))
        #expect(facts.bytes > 0)
        #expect(facts.type == "EXEC" || facts.type == "DYN (PIE)")
        #expect(!facts.stripped, "a test build has its symbols")
        #expect(TargetsRun.facts(of: "/etc/hostname") == nil)
    }

    @Test("the escaped corpus: every line valid, none plain ASCII")
    func escapedCorpus() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("escaped-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try CorpusWriter.writeEscaped(BenchCorpus(seed: 3), lines: 500, to: file)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 500)
        for line in lines {
            #expect(line.contains("\\u002D"))
            #expect((try? RequestLine.read(Array(line.utf8))) != nil, "\(line)")
        }
    }

    @Test("a binary that cannot be run is an error before anything is measured")
    func missingBinary() {
        #expect(throws: BenchError.invalidInput("cannot run '/nonexistent/openin-check': give the openin-check executable to time with --binary PATH")) {
            try BenchCommand(mode: .measure(rounds: 1, json: false, inProcess: false), seed: 1, binary: "/nonexistent/openin-check").run(BenchOutput())
        }
    }

    @Test func theSameSeedGivesTheSameCorpusAndAnotherSeedAnother() {
        let lines = { (seed: UInt64) in BenchCorpus(seed: seed).lines(count: 500).map(\.text) }
        #expect(lines(1) == lines(1))
        #expect(lines(1) != lines(2))
        #expect(BenchCorpus(seed: 1).whitelist == BenchCorpus(seed: 1).whitelist)
        #expect(BenchCorpus(seed: 1).whitelist.count == 1_000)
        #expect(Set(BenchCorpus(seed: 1).whitelist).count == 1_000)
    }

    @Test("the policy file says what the policy built in code says")
    func policyFileMatchesPolicy() throws {
        let corpus = BenchCorpus(seed: 5)
        let read = try PolicyFile.read(Array(corpus.policyFile.utf8), file: "bench.policy.json")
        #expect(read.policy == (try corpus.policy()))
    }

    @Test("plain lines hold the fields they were made from, and cover every channel and outcome")
    func plainLinesAreTheirFields() throws {
        let corpus = BenchCorpus(seed: 3)
        let evaluator = Evaluator(policy: try corpus.policy())
        var channels: Set<String> = [], outcomes: Set<Outcome> = []
        var invalid = 0
        for line in corpus.lines(count: 3_000, mix: .varied) {
            let parsed = Result { () throws(RequestLine.Failure) in try RequestLine.read(Array(line.text.utf8)) }
            guard let fields = line.fields else {
                if case .failure = parsed { invalid += 1 }
                continue
            }
            let request = try parsed.get().request
            #expect(request.channel.rawValue == fields.channel && request.target?.rawValue == fields.target
                    && request.url?.rawValue == fields.url && request.document == fields.document)
            channels.insert(fields.channel)
            outcomes.insert(evaluator.decide(request).outcome)
        }
        #expect(channels == Set(BenchCorpus.openInChannels.map(\.rawValue)))
        // The corpus is decided under AppConnect policies: every outcome but Intune's deliver-encrypted.
        #expect(outcomes == Set(Outcome.allCases).subtracting([.deliverEncrypted]))
        #expect(invalid > 100)
    }

    @Test("the benchmark mix is JSON objects only, so jq reads every line")
    func benchmarkLinesAreObjects() {
        for line in BenchCorpus(seed: 4).lines(count: 20_000, mix: .benchmark) {
            let value = try? JSONReader().read(line.text)
            guard case .object = value else {
                Issue.record("not a JSON object: \(line.text)")
                return
            }
        }
    }

    @Test func generateWritesTheCorpusAndItsPolicy() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString).jsonl").path
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: CorpusWriter.policyPath(for: file))
        }
        let output = BenchOutput()
        try BenchCommand(mode: .generate(lines: 100, file: file), seed: 8).run(output)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == BenchCorpus(seed: 8).lines(count: 100).map { $0.text + "\n" }.joined())
        let policy = CorpusWriter.policyPath(for: file)
        #expect(policy.hasSuffix(".policy.json") && !policy.contains(".jsonl"))
        #expect(try String(contentsOfFile: policy, encoding: .utf8) == BenchCorpus(seed: 8).policyFile)
        #expect(output.text.hasPrefix("wrote 100 request lines ("))
    }

    @Test func generateReportsAFileItCannotWrite() {
        #expect(throws: BenchError.invalidInput("cannot write '/nonexistent-dir/x.policy.json': no such file or directory")) {
            try BenchCommand(mode: .generate(lines: 1, file: "/nonexistent-dir/x.jsonl"), seed: 1).run(BenchOutput())
        }
    }

    @Test func summaryMedianAndRange() {
        #expect(Summary([3, 1, 2]) == Summary([1, 2, 3]))
        #expect(Summary([3, 1, 2]).median == 2)
        #expect(Summary([4, 1, 2, 3]).median == 2.5)
        #expect(Summary([4, 1, 2, 3]).min == 1 && Summary([4, 1, 2, 3]).max == 4)
    }

    @Test func numberFormats() {
        #expect(Format.grouped(1_000_000) == "1,000,000")
        #expect(Format.grouped(999) == "999")
        #expect(Format.fixed(2.25, decimals: 1) == "2.3")
        #expect(Format.fixed(-0.125, decimals: 2) == "-0.13")
        #expect(Format.fixed(12, decimals: 0) == "12")
        #expect(Format.fixed(1.5, decimals: 3) == "1.500")
    }
}
