import Foundation
import OpenInCheckBench
@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// `eval` on a JSON Lines stream writes the same bytes, and exits with the same status,
/// with the fast path as without it (the general path alone: a JSON tree per line).
@Suite struct JSONLinesStreamTests {
    struct Run: Equatable {
        let stdout: [UInt8]
        let stderr: String
        let status: OpenInCheckCLI.ExitStatus
    }

    /// `eval --policy POLICY -` on `input`, the fast path on or off.
    static func eval(_ input: [UInt8], policy: String, fastPath: Bool) -> Run {
        let console = Console.memory(stdin: input)
        let command = EvalCommand(policy: PolicyOptions(policyPath: policy), requests: .stream("-"), format: .jsonl,
                                  explain: false, fastPath: fastPath)
        var status: OpenInCheckCLI.ExitStatus
        do throws(CLIError) {
            status = try command.run(console)
        } catch {
            let report = ErrorReport.render(error)
            console.stderr.write(report.text)
            status = report.status
        }
        return Run(stdout: console.stdout.captured, stderr: console.stderr.text, status: status)
    }

    /// The bench corpus's policy, and the example policies: every rule area, both policy file kinds.
    static let policies: [String] = {
        let examples = BuiltBinary.packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent("policies").path)) ?? []
        let bench = try! TemporaryFile.write(BenchCorpus(seed: 11).policyFile, name: "bench.policy.json")
        return [bench, examples.appendingPathComponent("AppConnect.plist").path]
            + names.sorted().map { examples.appendingPathComponent("policies/\($0)").path }
    }()

    /// A stream of the bench generator's lines: plain ones, and many unusual and invalid ones.
    static let corpus: [String] = Array(BenchCorpus(seed: 11).lines(count: 2_000, mix: .varied).map(\.text))

    @Test("the bench corpus gives the same records and status with and without the fast path", arguments: policies)
    func benchCorpus(policy: String) throws {
        // All of it under the bench policy, a part under each example policy (the general path is slow in debug builds).
        let corpus = policy == Self.policies[0] ? Self.corpus : Array(Self.corpus.prefix(400))
        let input = Array((corpus.joined(separator: "\n") + "\n").utf8)
        let fast = Self.eval(input, policy: policy, fastPath: true)
        let general = Self.eval(input, policy: policy, fastPath: false)
        #expect(fast.stderr == "" && fast.status == general.status && fast.stderr == general.stderr)
        #expect(fast.stdout.count == general.stdout.count)
        let fastLines = fast.stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let generalLines = general.stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(fastLines.count == corpus.count + 1)
        for (number, (fastLine, generalLine)) in zip(fastLines, generalLines).enumerated() where fastLine != generalLine {
            Issue.record("line \(number + 1): \(corpus[number])\nfast:    \(String(decoding: fastLine, as: UTF8.self))\ngeneral: \(String(decoding: generalLine, as: UTF8.self))")
            break
        }
    }

    @Test("the fast path takes every plain line of the corpus, so the comparison above exercises it")
    func fastPathTakesThePlainLines() throws {
        let corpus = BenchCorpus(seed: 11)
        let fastPath = JSONLinesFastPath(evaluator: Evaluator(policy: try corpus.policy()))
        var plain = 0, taken = 0
        for line in corpus.lines(count: 2_000, mix: .varied) {
            let accepted = Array(line.text.utf8).withUnsafeBufferPointer { fastPath.record(for: $0) != nil }
            if line.fields != nil {
                plain += 1
                #expect(accepted, "a plain line was declined: \(line.text)")
            }
            if accepted { taken += 1 }
        }
        #expect(plain > 1_000)
        #expect(taken > plain, "unusual but plain-enough lines (spaces, key order, number ids) are taken too")
    }

    @Test("line ends, blank lines, a byte order mark, a long line and a last line without a line break", arguments: [
        "{\"channel\":\"mail-compose\"}\r\n{\"id\":1,\"channel\":\"open-url\",\"url\":\"mailto:a@example.com\"}\r\n",
        "\n\n{\"channel\":\"mail-compose\"}\n   \n\t\n",
        "\u{FEFF}{\"channel\":\"mail-compose\"}\n{\"channel\":\"mail-compose\"}",
        "{\"channel\":\"activity-view\"}\r\r\n{\"channel\":\"activity-view\"}\r",
        "{\"id\":\"" + String(repeating: "x", count: LineReader.maxLineLength) + "\",\"channel\":\"mail-compose\"}\n{\"channel\":\"mail-compose\"}\n",
        "",
        "\n",
    ])
    func edgesOfTheStream(_ text: String) {
        for policy in Self.policies.prefix(3) {
            let input = Array(text.utf8)
            #expect(Self.eval(input, policy: policy, fastPath: true) == Self.eval(input, policy: policy, fastPath: false))
        }
    }

    @Test("other formats and --explain do not take the fast path, and say the same as before")
    func otherFormats() {
        let input = Array((Self.corpus.prefix(50).joined(separator: "\n") + "\n").utf8)
        for (format, explain) in [(OutputFormat.jsonl, true), (.json, false), (.text, false)] {
            var runs: [Run] = []
            for fastPath in [true, false] {
                let console = Console.memory(stdin: input)
                let command = EvalCommand(policy: PolicyOptions(policyPath: Self.policies[0]), requests: .stream("-"),
                                          format: format, explain: explain, fastPath: fastPath)
                let status = (try? command.run(console)) ?? .usage
                runs.append(Run(stdout: console.stdout.captured, stderr: console.stderr.text, status: status))
            }
            #expect(runs[0] == runs[1], "\(format) explain: \(explain)")
            #expect(!runs[0].stdout.isEmpty)
        }
    }
}
