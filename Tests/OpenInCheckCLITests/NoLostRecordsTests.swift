import Foundation
import OpenInPolicy
import Testing
@testable import OpenInCheckCLI

/// Issue 6, "no lost records": any mix of valid and invalid lines gives
/// exactly one record per input line, in order; an error record carries its
/// line number, and the id when the line had a valid one; a decision is
/// given only for a valid line; the exit status is the one `eval --help` states.
@Suite struct NoLostRecordsTests {
    static let policy = "Examples/policies/whitelist-half-pair.json"
    static let maxLineLength = 200

    /// A deterministic generator (SplitMix64), so a failing seed can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One generated line and what its record must be.
    struct Line {
        let bytes: [UInt8]
        let valid: Bool
        /// The id the record must echo (JSON text), if any.
        let id: String?
    }

    static let validBodies = [
        #""channel":"document-interaction","target":"com.example.docviewer""#,
        #""channel":"quick-look","target":"com.microsoft.Office.Word","document":"plan.pdf""#,
        #""channel":"activity-view""#,
        #""channel":"open-url","url":"mailto:a@example.com""#,
        #""channel":"open-url","url":"box://file/1""#,
        #""channel":"open-url","url":"https://example.com""#,
        #""channel":"mail-link","url":"mailto:b@example.com""#,
        #""channel":"mail-compose""#,
        #""channel":"drag-and-drop","target":"net.box.BoxNet""#,
        #""channel":"app-extension","target":"com.getdropbox.Dropbox""#,
    ]

    /// Object bodies that are valid JSON but not a valid request; an id in front is still echoed.
    static let invalidBodies = [
        #""channel":"fax""#,
        #""chanel":"mail-compose""#,
        #""channel":"document-interaction""#,
        #""channel":"document-interaction","target":"com..x""#,
        #""channel":"open-url","url":" mailto:a@example.com""#,
        #""channel":"mail-compose","target":null"#,
        #""channel":7"#,
        #""channel":"mail-compose","url":"mailto:a@example.com","extra":1"#,
    ]

    /// Lines that cannot be read as an object at all: no id can be echoed.
    static let brokenLines: [[UInt8]] = [
        [], Array("   ".utf8), Array("\t".utf8), Array("{".utf8), Array("}".utf8), Array("[]".utf8), Array("null".utf8),
        Array(#"{"channel":"mail-compose",}"#.utf8), Array(#"{"channel":"mail-compose"} x"#.utf8),
        Array(#"{"channel":"mail-compose","channel":"mail-compose"}"#.utf8),
        Array(#"{"id":"d","id":"d","channel":"mail-compose"}"#.utf8),
        [0xFF, 0xFE], [0x00], Array(#"{"channel":"mail-"#.utf8) + [0xC3] + Array(#""}"#.utf8),
        Array(#"{"id":true,"channel":"mail-compose"}"#.utf8),
        Array(String(repeating: "[", count: 100).utf8),
        Array(#"{"channel":"mail-compose","id":""#.utf8) + Array(repeating: UInt8(ascii: "z"), count: maxLineLength) + Array(#""}"#.utf8),
    ]

    static func id(_ generator: inout Generator) -> String? {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: "\"r\(Int.random(in: 0..<1000, using: &generator))\""
        case 2: "\(Int.random(in: -5...99_999, using: &generator))"
        default: "\"ü \\\"q\\\" \(Int.random(in: 0..<9, using: &generator))\""
        }
    }

    static func line(_ generator: inout Generator) -> Line {
        let id = id(&generator)
        let prefix = id.map { "\"id\":\($0)," } ?? ""
        var line: Line
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            line = Line(bytes: Array("{\(prefix)\(validBodies.randomElement(using: &generator)!)}".utf8), valid: true, id: id)
        case 1:
            line = Line(bytes: Array("{\(prefix)\(invalidBodies.randomElement(using: &generator)!)}".utf8), valid: false, id: id)
        default:
            line = Line(bytes: brokenLines.randomElement(using: &generator)!, valid: false, id: nil)
        }
        if Bool.random(using: &generator) { line = Line(bytes: line.bytes + [0x0D], valid: line.valid, id: line.id) }  // CRLF
        return line
    }

    /// A stream of 1 to 60 lines; the last line's `\n` is sometimes left out.
    static func stream(seed: UInt64) -> (bytes: [UInt8], lines: [Line]) {
        var generator = Generator(state: seed)
        let lines = (0..<Int.random(in: 1...60, using: &generator)).map { _ in line(&generator) }
        var bytes: [UInt8] = lines.flatMap { $0.bytes + [UInt8(0x0A)] }
        if Bool.random(using: &generator), !(lines.last!.bytes.isEmpty || lines.last!.bytes == [0x0D]) { bytes.removeLast() }
        return (bytes, lines)
    }

    /// Checks the records of one stream against its lines; returns the exit status `eval --help` states.
    static func check(records output: String, lines: [Line], seed: UInt64) -> OpenInCheckCLI.ExitStatus? {
        let records = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(output.hasSuffix("\n"), "seed \(seed): the last record ends its line")
        #expect(records.count == lines.count, "seed \(seed): \(lines.count) lines gave \(records.count) records")
        guard records.count == lines.count else { return nil }
        var anyInvalid = false, anyNotAllowed = false
        for (index, (record, line)) in zip(records, lines).enumerated() {
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let where_ = "seed \(seed), line \(index + 1): \(String(decoding: line.bytes, as: UTF8.self)) → \(record)"
            guard case .object(let object) = try? JSONReader().read(Array(record.utf8)) else {
                Issue.record("\(where_): not a JSON object")
                return nil
            }
            let id = object["id"].map { JSONWriter.compact($0) }
            #expect(id == line.id.map { JSONWriter.compact(try! JSONReader().read($0)) }, "\(where_): id")
            if line.valid {
                #expect(object["line"] == nil && object["error"] == nil, "\(where_): a valid line got an error")
                guard case .string(let outcome)? = object["outcome"] else {
                    Issue.record("\(where_): no outcome")
                    return nil
                }
                if outcome != "allow" { anyNotAllowed = true }
            } else {
                anyInvalid = true
                #expect(object["line"] == .number(JSONNumber(index + 1)), "\(where_): line number")
                #expect(object["outcome"] == nil, "\(where_): an invalid line got a decision")
                #expect(object.members.map(\.key) == (line.id == nil ? ["line", "error"] : ["line", "id", "error"]), "\(where_): keys")
            }
        }
        return anyInvalid ? .invalidInput : anyNotAllowed ? .notAllowed : .success
    }

    @Test func oneRecordPerLineInOrderForEveryMix() {
        for seed in UInt64(1)...120 {
            let (bytes, lines) = Self.stream(seed: seed)
            let console = Console.memory(stdin: bytes)
            let status = CLI.run(arguments: ["eval", "--policy", Self.policy, "--max-line-length", String(Self.maxLineLength), "-"],
                                 console: console)
            #expect(console.stderr.text == "", "seed \(seed)")
            guard let wanted = Self.check(records: console.stdout.text, lines: lines, seed: seed) else { return }
            #expect(status == wanted, "seed \(seed)")
        }
    }

    @Test("the parallel stream: one record per line in order, byte for byte the sequential stream's, in every format")
    func parallelStreamKeepsEveryRecord() throws {
        // Many generated streams as one, so blocks are large enough to be split between threads.
        var bytes: [UInt8] = [], lines: [Line] = []
        for seed in UInt64(1)...200 {
            let (part, partLines) = Self.stream(seed: seed)
            bytes += part
            if bytes.last != 0x0A { bytes.append(0x0A) }
            lines += partLines
        }
        #expect(lines.count > 2_000)
        let policy = PolicyOptions(policyPath: Self.policy)
        var outputs: [String: [UInt8]] = [:]
        for format in [OutputFormat.jsonl, .json] {
            for threads in [1, 2, 4] {
                let console = Console.memory(stdin: bytes)
                var command = EvalCommand(policy: policy, requests: .stream("-"), format: format, explain: false,
                                          maxLineLength: Self.maxLineLength)
                command.threads = threads
                let status = try command.run(console)
                if format == .jsonl {
                    let wanted = Self.check(records: console.stdout.text, lines: lines, seed: 0)
                    #expect(status == wanted, "\(threads) threads")
                }
                if let sequential = outputs["\(format)"] {
                    #expect(console.stdout.captured == sequential, "\(format): \(threads) threads wrote other bytes than one")
                } else {
                    outputs["\(format)"] = console.stdout.captured
                }
            }
        }
        // The built binary (one thread per processor) writes the same bytes.
        let path = try TemporaryFile.write(bytes, name: "mix-parallel.jsonl")
        let run = try BuiltBinary.run(["eval", "--policy", Self.policy, "--max-line-length", String(Self.maxLineLength), path])
        #expect(Array(run.stdout.utf8) == outputs["jsonl"])
    }

    @Test func theGeneratorMakesEveryKindOfLine() {
        var valid = 0, invalid = 0, withID = 0, invalidWithID = 0, unterminated = 0
        for seed in UInt64(1)...120 {
            let (bytes, lines) = Self.stream(seed: seed)
            valid += lines.filter(\.valid).count
            invalid += lines.filter { !$0.valid }.count
            withID += lines.filter { $0.id != nil }.count
            invalidWithID += lines.filter { !$0.valid && $0.id != nil }.count
            if bytes.last != 0x0A { unterminated += 1 }
        }
        #expect(valid > 600 && invalid > 600 && withID > 600 && invalidWithID > 300 && unterminated > 20, "\(valid) \(invalid) \(withID) \(invalidWithID) \(unterminated)")
    }

    @Test func theBuiltBinaryKeepsEveryRecordToo() throws {
        for seed in UInt64(1000)...1005 {
            let (bytes, lines) = Self.stream(seed: seed)
            let path = try TemporaryFile.write(bytes, name: "mix-\(seed).jsonl")
            let run = try BuiltBinary.run(["eval", "--policy", Self.policy, "--max-line-length", String(Self.maxLineLength), path])
            #expect(run.stderr == "")
            guard let wanted = Self.check(records: run.stdout, lines: lines, seed: seed) else { return }
            #expect(run.status == wanted.rawValue, "seed \(seed)")
        }
    }

    @Test func allValidStreamsExitZeroOrTwo() throws {
        let allowed = try TemporaryFile.write(#"{"channel":"open-url","url":"https://example.com"}"# + "\n" + #"{"id":2,"channel":"mail-compose"}"#, name: "ok.jsonl")
        let allowedRun = try BuiltBinary.run(["eval", "--policy", "Examples/policies/authorized.json", allowed])
        #expect(allowedRun.stdout.split(separator: "\n").count == 2)
        #expect(allowedRun.status == 0)
        let blockedRun = try BuiltBinary.run(["eval", "--policy", Self.policy, allowed])
        #expect(blockedRun.stdout.split(separator: "\n").count == 2)
        #expect(blockedRun.status == 2)
    }
}
