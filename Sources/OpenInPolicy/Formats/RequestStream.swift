/// Decides a JSON Lines stream of share requests, one line at a time, and
/// writes each line's record: the decision, or the error that makes the line
/// invalid.
///
/// Give it each line of the stream in order, without its line break (or
/// ``Line/tooLong`` for a line its reader skipped). It counts lines, invalid
/// lines and decisions that are not `allow`, so the caller can pick an exit
/// status, and never loses a line: every line gets exactly one record or
/// entry, in input order.
///
/// ```swift
/// let stream = RequestStream(policy: inputs)
/// for line in lines {
///     stream.withRecord(for: .bytes(line)) { record in write(record) }
/// }
/// write(stream.finish())
/// ```
///
/// Records are those of the CLI contract (see ``DecisionRecord``). Plain
/// request lines in ``Format/jsonLines`` without explanations are written
/// straight from the line's bytes; every other line takes the general path
/// (a JSON tree, a ``RequestLine``, a ``DecisionRecord``). Both give the same
/// bytes.
///
/// A class that reuses one output buffer from line to line: use one stream
/// from one thread at a time.
public final class RequestStream {
    /// How records are written.
    public enum Format: Sendable, Hashable {
        /// One compact JSON record per line, each ended by a line break.
        case jsonLines
        /// One JSON array of indented records, written as the lines come
        /// (memory stays bounded); ``RequestStream/finish()`` closes it.
        case jsonArray
    }

    /// One line of the stream, as its reader found it.
    public enum Line: Sendable, Hashable {
        /// The line's bytes, without its line break.
        case bytes(ArraySlice<UInt8>)
        /// A line longer than ``RequestStream/maxLineLength``, which the reader skipped.
        case tooLong
    }

    /// What one line decided: a request and its decision, or an error.
    public struct Entry: Sendable {
        /// The line's number, from 1.
        public let line: Int
        /// The request, when the line is a valid request.
        public let request: ShareRequest?
        /// The decision, when the line is a valid request.
        public let decision: Decision?
        /// What is wrong with the line, when it is invalid.
        public let error: String?
        /// The request's `id`, when the line gives a valid one.
        package let id: JSONValue?
        /// The decision's explanation, when the stream explains.
        package let explanation: Explanation?
    }

    /// The longest line a reader passes on unless told otherwise: 1 MiB.
    public static let defaultMaxLineLength = 1 << 20

    /// How records are written.
    public let format: Format
    /// The longest line the reader passes on, in bytes (named in the error of a ``Line/tooLong`` line).
    public let maxLineLength: Int
    /// Whether records carry an `explanation`.
    public let explains: Bool
    /// How many lines were given.
    public private(set) var lineCount = 0
    /// How many lines were invalid.
    public private(set) var invalidCount = 0
    /// How many decisions were not `allow`.
    public private(set) var notAllowedCount = 0

    private let inputs: PolicyInputs
    private let evaluator: Evaluator
    private let reader = JSONReader()
    /// Plain lines straight to record bytes, when the format allows it.
    private let fast: JSONLinesFastPath?
    /// The general path's record buffer, reused from line to line.
    private var output: [UInt8] = []

    /// A stream deciding under `policy`.
    /// - Parameters:
    ///   - policy: the policy's inputs (an explanation names them).
    ///   - format: how records are written.
    ///   - explain: whether records carry an `explanation` of their decision.
    ///   - maxLineLength: the longest line the caller's reader passes on.
    public convenience init(policy: PolicyInputs, format: Format = .jsonLines, explain: Bool = false,
                            maxLineLength: Int = RequestStream.defaultMaxLineLength) {
        self.init(policy: policy, format: format, explain: explain, maxLineLength: maxLineLength, fastPath: true)
    }

    /// As the public initialiser; `fastPath: false` sends every line down the general path (tests compare both).
    package init(policy: PolicyInputs, format: Format, explain: Bool, maxLineLength: Int, fastPath: Bool) {
        inputs = policy
        evaluator = Evaluator(policy: policy.policy)
        self.format = format
        self.explains = explain
        self.maxLineLength = maxLineLength
        fast = fastPath && format == .jsonLines && !explain ? JSONLinesFastPath(evaluator: evaluator) : nil
        output.reserveCapacity(1024)
    }

    /// Whether every line so far was a valid request decided `allow`.
    public var allAllowed: Bool { invalidCount == 0 && notAllowedCount == 0 }

    /// Decides the next line and returns what it decided, without writing a record.
    public func entry(for line: Line) -> Entry {
        lineCount += 1
        let parsed: RequestLine
        do throws(RequestLine.Failure) {
            parsed = try read(line)
        } catch {
            invalidCount += 1
            return Entry(line: lineCount, request: nil, decision: nil, error: error.message, id: error.id, explanation: nil)
        }
        let decision = evaluator.decide(parsed.request)
        if decision.outcome != .allow { notAllowedCount += 1 }
        let explanation = explains ? Explanation(decision, request: parsed.request, policyInputs: inputs) : nil
        return Entry(line: lineCount, request: parsed.request, decision: decision, error: nil, id: parsed.id, explanation: explanation)
    }

    /// Reads the next line as a request, counting it, without deciding it (`diff --requests` decides it under two policies).
    /// - Throws: ``RequestLine/Failure`` for an invalid line, which is counted as invalid.
    package func request(for line: Line) throws(RequestLine.Failure) -> RequestLine {
        lineCount += 1
        do throws(RequestLine.Failure) {
            return try read(line)
        } catch {
            invalidCount += 1
            throw error
        }
    }

    private func read(_ line: Line) throws(RequestLine.Failure) -> RequestLine {
        guard case .bytes(let bytes) = line else {
            throw RequestLine.Failure(id: nil, message: "the line is longer than \(maxLineLength) bytes")
        }
        return try RequestLine.read(bytes, reader: reader)
    }

    /// Decides the next line and passes its record (in ``format``, with its line break or
    /// array punctuation) to `body`; the bytes are valid only during the call.
    public func withRecord<Result, Failure: Error>(for line: Line, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        if let fast, case .bytes(let bytes) = line {
            // The closure cannot throw `Failure` through `withUnsafeBufferPointer`; carry the bytes out instead.
            let record = bytes.withUnsafeBufferPointer { fast.record(for: $0) }
            if let record {
                lineCount += 1
                if record.outcome != .allow { notAllowedCount += 1 }
                return try body(record.bytes)
            }
        }
        let entry = entry(for: line)
        output.removeAll(keepingCapacity: true)
        appendRecord(of: entry, to: &output)
        return try output.withUnsafeBufferPointer { bytes throws(Failure) in try body(bytes) }
    }

    /// What closes the output after the last line: for ``Format/jsonArray``, the array's end
    /// (or an empty array when no line was given); nothing for ``Format/jsonLines``.
    public func finish() -> [UInt8] {
        guard format == .jsonArray else { return [] }
        return Array((lineCount == 0 ? "[]\n" : "\n]\n").utf8)
    }

    /// Appends the record of `entry` in ``format``.
    private func appendRecord(of entry: Entry, to output: inout [UInt8]) {
        let record: JSONObject
        if let decision = entry.decision {
            record = Self.record(decision, id: entry.id, explanation: entry.explanation)
        } else {
            record = DecisionRecord.error(line: entry.line, id: entry.id, message: entry.error ?? "")
        }
        switch format {
        case .jsonLines:
            JSONWriter.append(.object(record), to: &output, pretty: false)
            output.append(UInt8(ascii: "\n"))
        case .jsonArray:
            output.append(UInt8(ascii: entry.line == 1 ? "[" : ","))
            JSONWriter.newline(&output, pretty: true, level: 1)
            JSONWriter.append(.object(record), to: &output, pretty: true, level: 1)
        }
    }

    /// A decision's record, with its explanation when there is one.
    package static func record(_ decision: Decision, id: JSONValue?, explanation: Explanation?) -> JSONObject {
        let record = DecisionRecord.json(decision, id: id)
        guard let explanation else { return record }
        return JSONObject(members: record.members + [JSONObject.Member("explanation", explanation.json)])
    }
}
