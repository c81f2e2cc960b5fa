import Foundation
import Testing

/// Issue 6: an output pipe closed early (`openin-check eval … | head -1`)
/// ends the process quietly: no message on standard error, and the status a
/// shell reports for SIGPIPE, 141 — whether SIGPIPE ends the process or, when
/// the parent ignores SIGPIPE, the failed write does.
@Suite struct ClosedPipeEndToEndTests {
    /// How the process ended.
    struct Ending: Equatable, CustomStringConvertible {
        let signalled: Bool
        let status: Int32
        var description: String { signalled ? "killed by signal \(status)" : "exit \(status)" }
    }

    /// Runs `eval` on a long stream, reads the first record, closes the pipe and waits.
    static func runAndCloseAfterFirstRecord(ignoringSIGPIPE: Bool) throws -> (first: String, stderr: String, ending: Ending) {
        let binary = try #require(BuiltBinary.url)
        let requests = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/requests.jsonl"), encoding: .utf8)
        let stream = try TemporaryFile.write(String(repeating: requests, count: 200), name: "long.jsonl")
        let arguments = ["eval", "--policy", "Examples/policies/whitelist-mail-pair.json", stream]
        let process = Process()
        if ignoringSIGPIPE {
            // A signal ignored by the parent stays ignored after exec.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var received = Data()
        while !received.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        try output.fileHandleForReading.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let first = String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self)
        return (first, String(decoding: message, as: UTF8.self),
                Ending(signalled: process.terminationReason == .uncaughtSignal, status: process.terminationStatus))
    }

    static let firstRecord = #"{"id":"r01","outcome":"allow","target":"com.example.docviewer","callbacks":[],"openInUI":"enabled","rule":"document.listed-target","reason":"The target app is in the whitelist."}"#

    @Test func sigpipeIgnoredExits141Quietly() throws {
        let run = try Self.runAndCloseAfterFirstRecord(ignoringSIGPIPE: true)
        #expect(run.first == Self.firstRecord)
        #expect(run.stderr == "")
        #expect(run.ending == Ending(signalled: false, status: 141))
    }

    @Test func sigpipeEndsTheProcessQuietly() throws {
        let run = try Self.runAndCloseAfterFirstRecord(ignoringSIGPIPE: false)
        #expect(run.first == Self.firstRecord)
        #expect(run.stderr == "")
        // SIGPIPE's default action, or exit 141 if this test's process passes SIGPIPE on ignored: a shell shows 141 either way.
        #expect([Ending(signalled: true, status: SIGPIPE), Ending(signalled: false, status: 141)].contains(run.ending))
    }
}

@Suite struct ClosedPipeHelpTests {
    @Test(arguments: [["--help"], ["eval", "--help"]])
    func helpDocumentsStatus141(_ arguments: [String]) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.stdout.contains("\n  141 standard output was closed"))
        #expect(run.status == 0)
    }
}
