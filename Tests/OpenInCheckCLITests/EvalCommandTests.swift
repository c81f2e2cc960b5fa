@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// `eval` in process: parsing is pure, running reads from a memory console.
@Suite struct EvalCommandTests {
    static let policy = BuiltBinary.packageRoot.appendingPathComponent("Examples/policies/whitelist-mail-pair.json").path

    @Test func parsesOneRequestWithTextByDefault() throws {
        let command = try EvalCommand.parse(["--policy", "p.json", "--channel", "quick-look", "--target", "a.b", "--document", "d.pdf",
                                             "--config", "K=V=W", "--config", "E=", "--scheme-handler", "x=a.b", "--explain"])
        var policy = PolicyOptions(policyPath: "p.json")
        policy.config = [.init(key: "K", value: "V=W"), .init(key: "E", value: "")]
        policy.schemeHandlers = [.init(key: "x", value: "a.b")]
        #expect(command == EvalCommand(policy: policy, requests: .flags(.init(channel: "quick-look", target: "a.b", url: nil, document: "d.pdf")),
                                       format: .text, explain: true))
    }

    @Test func parsesAStreamWithJSONLByDefault() throws {
        let command = try EvalCommand.parse(["-", "--policy", "p.json", "--email-plus-installed", "--app-scheme", "s", "--appconnect-app", "a.b"])
        #expect(command.requests == .stream("-"))
        #expect(command.format == .jsonl)
        #expect(command.policy.emailPlusInstalled)
        #expect(command.policy.appSchemes == ["s"])
        #expect(command.policy.appConnectApps == ["a.b"])
    }

    @Test func schemeHandlerNeedsBothSides() {
        #expect(throws: UsageError("'box=' is not of the form SCHEME=BUNDLE_ID (for --scheme-handler)", verb: "eval")) {
            try EvalCommand.parse(["--policy", "p", "--scheme-handler", "box=", "-"])
        }
        #expect(throws: UsageError("'=a.b' is not of the form SCHEME=BUNDLE_ID (for --scheme-handler)", verb: "eval")) {
            try EvalCommand.parse(["--policy", "p", "--scheme-handler", "=a.b", "-"])
        }
    }

    @Test func runsAStreamFromStandardInput() {
        let console = Console.memory(stdin: Array("{\"id\":\"a\",\"channel\":\"mail-compose\"}\n\n".utf8))
        let status = CLI.run(arguments: ["eval", "--policy", Self.policy, "-"], console: console)
        #expect(status == .invalidInput)
        #expect(console.stdout.text == """
            {"id":"a","outcome":"allow","target":"com.apple.mobilemail","callbacks":[],"openInUI":"enabled","rule":"mail-view.mail-allowed","reason":"Native Mail is allowed: the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail."}
            {"line":2,"error":"blank line: write one JSON request per line"}

            """)
        #expect(console.stderr.text == "")
    }

    @Test func overlongLinesGiveAnErrorRecordAndTheStreamGoesOn() {
        let long = "{\"channel\": \"" + String(repeating: "x", count: LineReader.maxLineLength + 10) + "\"}\n"
        let console = Console.memory(stdin: Array((long + "{\"channel\":\"mail-compose\"}\n").utf8))
        let status = CLI.run(arguments: ["eval", "--policy", Self.policy, "-"], console: console)
        #expect(status == .invalidInput)
        let lines = console.stdout.text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == #"{"line":1,"error":"the line is longer than 1048576 bytes"}"#)
        #expect(lines.last?.hasPrefix(#"{"outcome":"allow""#) == true)
    }
}

@Suite struct LineReaderTests {
    func lines(_ text: String) throws -> [String] {
        var reader = LineReader(ByteSource(bytes: Array(text.utf8), name: "test"), what: "test")
        var result: [String] = []
        while let line = try reader.next(beforeWaiting: {}) {
            guard case .text(let bytes) = line else {
                result.append("<too long>")
                continue
            }
            result.append(String(decoding: bytes, as: UTF8.self))
        }
        return result
    }

    @Test func splitsOnNewlinesAndDropsCarriageReturns() throws {
        #expect(try lines("a\nb\r\n\nc") == ["a", "b", "", "c"])
        #expect(try lines("a\n") == ["a"])
        #expect(try lines("") == [])
        #expect(try lines("\n") == [""])
    }

    @Test func linesAcrossChunksStayWhole() throws {
        let long = String(repeating: "y", count: 200_000)
        #expect(try lines("\(long)\nz") == [long, "z"])
    }

    @Test("a file's blocks read ahead, while the last block is in use, are the blocks read one after another")
    func readAheadGivesTheSameBlocks() throws {
        // Several 1 MiB blocks, lines of many lengths, a line far longer than the limit (skipped across
        // reads), CRLF ends and a last line without a line break.
        var text = ""
        for number in 0..<60_000 {
            text += "{\"id\":\(number),\"document\":\"" + String(repeating: "d", count: number % 150) + (number % 7 == 0 ? "\"}\r\n" : "\"}\n")
            if number == 30_000 { text += String(repeating: "z", count: 2_500_000) + "\n" }
        }
        text += "{\"channel\":\"mail-compose\"}"
        let path = try TemporaryFile.write(text, name: "blocks.jsonl")
        func blocks(readingAhead: Bool) throws -> [String] {
            let source = try ByteSource.open(path: path, what: "test")
            defer { source.close() }
            #expect(source.isRegularFile)
            var reader = LineReader(source, what: "test", maxLength: 200)
            var result: [String] = []
            while let block = try reader.nextBlock(beforeWaiting: {}) {
                switch block {
                case .lines(let bytes): result.append(String(decoding: bytes, as: UTF8.self))
                case .tooLong: result.append("<too long>")
                }
                if readingAhead { reader.readAhead() }
            }
            return result
        }
        let plain = try blocks(readingAhead: false)
        #expect(plain.count > 5)
        #expect(plain.filter { $0 == "<too long>" }.count == 1)
        #expect(plain.filter { $0 != "<too long>" }.joined() == text.replacingOccurrences(of: String(repeating: "z", count: 2_500_000) + "\n", with: ""))
        #expect(try blocks(readingAhead: true) == plain)
    }
}
