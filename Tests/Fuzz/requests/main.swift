// libFuzzer target: a JSON Lines request stream through `openin-check eval`,
// in process (line splitting, RequestStream, RequestLine, Evaluator, records),
// and through RequestStream directly, with and without its fast path.
// Run: .ci/fuzz.sh requests [SECONDS]
//
// Besides crashes it checks the stream's promises and the fail-closed rule:
// exactly one record per input line, in order; an error record for line N
// says "line": N and is given exactly when RequestLine rejects that line on
// its own; a decision is given only for a line RequestLine accepts, and is
// the Evaluator's decision for it; the exit status is the one `eval --help` states.
import Foundation
import OpenInPolicy
@testable import OpenInCheckCLI

private let policyText = """
    {"openInPolicy": "whitelist", "openInWhitelist": ["com.apple.mobilemail", "com.example.docviewer", "net.box.BoxNet"],
     "device": {"emailPlusInstalled": true, "schemeHandlers": {"box": "net.box.BoxNet", "dropbox": "com.getdropbox.Dropbox"}},
     "app": {"urlSchemes": ["securenotes"]}}
    """

private let policyPath: String = {
    let path = NSTemporaryDirectory() + "openin-check-fuzz-policy-\(getpid()).json"
    FileManager.default.createFile(atPath: path, contents: Data(policyText.utf8))
    return path
}()

private let policyInputs = try! PolicyJSON.read(Array(policyText.utf8))
private let evaluator = Evaluator(policy: policyInputs.policy)

/// A short maximum line length, so the too-long path is reached too.
private let maxLineLength = 300

/// The input's lines as the CLI contract defines them.
private func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var result = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if result.last?.isEmpty == true { result.removeLast() }
    return result.map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let console = Console.memory(stdin: bytes)
    let status = CLI.run(arguments: ["eval", "--policy", policyPath, "--max-line-length", String(maxLineLength), "-"], console: console)
    let input = lines(bytes)
    if input.isEmpty {
        check(status == .invalidInput && console.stdout.captured.isEmpty, "an empty stream must be invalid input with no records")
        return 0
    }
    check(console.stderr.captured.isEmpty, "a stream with lines writes no error message: \(console.stderr.text)")
    var records = lines(console.stdout.captured)
    check(records.count == input.count, "\(input.count) lines gave \(records.count) records")
    var anyInvalid = false, anyNotAllowed = false
    for (index, line) in input.enumerated() {
        let number = index + 1
        guard case .object(let record) = try? JSONReader().read(records[index]) else {
            fatalError("fuzz property violated: record \(number) is not a JSON object")
        }
        let expected: Result<RequestLine, RequestLine.Failure>
        if line.count > maxLineLength {
            expected = .failure(RequestLine.Failure(id: nil, message: "too long"))
        } else {
            do throws(RequestLine.Failure) { expected = .success(try RequestLine.read(line)) } catch { expected = .failure(error) }
        }
        switch expected {
        case .failure(let failure):
            anyInvalid = true
            check(record["line"] == .number(JSONNumber(number)), "error record \(number) names another line")
            check(record["outcome"] == nil, "a rejected line \(number) got an outcome")
            check(record["error"] != nil, "error record \(number) has no error")
            check(record["id"] == failure.id, "error record \(number) has the wrong id")
        case .success(let request):
            // A request on a channel whose control the policy does not set is an error record, not a decision.
            let decision: Decision
            do throws(InputError) { decision = try evaluator.decideOrThrow(request.request) } catch {
                anyInvalid = true
                check(record["outcome"] == nil && record["error"] != nil, "line \(number) on an unset control got a decision")
                check(record["line"] == .number(JSONNumber(number)), "error record \(number) names another line")
                continue
            }
            if decision.outcome != .allow { anyNotAllowed = true }
            check(record["error"] == nil && record["line"] == nil, "an accepted line \(number) got an error")
            check(record == DecisionRecord.json(decision, id: request.id), "record \(number) is not the Evaluator's decision")
        }
    }
    records.removeAll()
    // The library's stream writes the CLI's bytes, with its fast path as without it.
    for fastPath in [true, false] {
        let stream = RequestStream(policy: policyInputs, format: .jsonLines, explain: false, maxLineLength: maxLineLength, fastPath: fastPath)
        var written: [UInt8] = []
        for line in input {
            stream.withRecord(for: line.count > maxLineLength ? .tooLong : .bytes(line)) { written.append(contentsOf: $0) }
        }
        check(written == console.stdout.captured, "RequestStream (fast path \(fastPath)) wrote other bytes than eval")
        check(stream.lineCount == input.count, "RequestStream counted \(stream.lineCount) of \(input.count) lines")
    }
    let wanted: ExitStatus = anyInvalid ? .invalidInput : anyNotAllowed ? .notAllowed : .success
    check(status == wanted, "exit status \(status) instead of \(wanted)")
    return 0
}
