#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import OpenInCore
import OpenInFleet
import OpenInKit

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
/// (a JSON tree, a `RequestLine`, a ``DecisionRecord``). Both give the same
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
        public let id: JSONValue?
        /// The decision's explanation, when the stream explains.
        public let explanation: Explanation?
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
    /// One per thread that decides lines; the first also serves the one-line methods.
    private var workers: [Worker]
    /// How many threads a block of lines may use.
    private let threads: Int


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

    /// As the public initialiser; `fastPath: false` sends every line down the general path, and
    /// `threads` bounds the threads of ``withRecords(forLinesIn:_:)`` (tests compare both ways;
    /// by default, one per processor, at most 8).
    public init(policy: PolicyInputs, format: Format, explain: Bool, maxLineLength: Int, fastPath: Bool, threads: Int? = nil) {
        inputs = policy
        evaluator = Evaluator(policy: policy.policy)
        self.format = format
        self.explains = explain
        self.maxLineLength = maxLineLength
        let fast = fastPath && format == .jsonLines && !explain ? JSONLinesFastPath(evaluator: evaluator) : nil
        workers = [Worker(fast: fast)]
        self.threads = max(1, min(threads ?? RequestStream.processorCount, 8))
    }

    /// Online processors.
    private static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Whether every line so far was a valid request decided `allow`.
    public var allAllowed: Bool { invalidCount == 0 && notAllowedCount == 0 }

    /// Decides the next line and returns what it decided, without writing a record.
    public func entry(for line: Line) -> Entry {
        lineCount += 1
        let entry: Entry
        switch line {
        case .bytes(let bytes):
            entry = bytes.withUnsafeBufferPointer { decide($0, number: lineCount, reader: workers[0].reader) }
        case .tooLong:
            entry = decide(nil, number: lineCount, reader: workers[0].reader)
        }
        count(entry)
        return entry
    }

    private func count(_ entry: Entry) {
        if entry.error != nil { invalidCount += 1 }
        if let decision = entry.decision, decision.outcome != .allow { notAllowedCount += 1 }
    }

    /// Reads and decides one line on the general path (`nil`: a line longer than ``maxLineLength``).
    private func decide(_ line: UnsafeBufferPointer<UInt8>?, number: Int, reader: JSONReader) -> Entry {
        let parsed: RequestLine
        do throws(RequestLine.Failure) {
            guard let line else { throw RequestLine.Failure(id: nil, message: "the line is longer than \(maxLineLength) bytes") }
            let request = try RequestLine.read(line, reader: reader)
            // A request on a channel whose control the policy does not set is an error, never a decision.
            do throws(InputError) {
                try evaluator.policy.check(request.request)
            } catch {
                throw RequestLine.Failure(id: request.id, message: error.description)
            }
            parsed = request
        } catch {
            return Entry(line: number, request: nil, decision: nil, error: error.message, id: error.id, explanation: nil)
        }
        let decision = evaluator.decide(parsed.request)
        let explanation = explains ? Explanation(decision, request: parsed.request, policyInputs: inputs) : nil
        return Entry(line: number, request: parsed.request, decision: decision, error: nil, id: parsed.id, explanation: explanation)
    }

    /// Reads the next line as a request, counting it, without deciding it (`diff --requests` decides it under two policies).
    /// - Throws: ``RequestLine/Failure`` for an invalid line, which is counted as invalid.
    public func request(for line: Line) throws(RequestLine.Failure) -> RequestLine {
        lineCount += 1
        do throws(RequestLine.Failure) {
            guard case .bytes(let bytes) = line else {
                throw RequestLine.Failure(id: nil, message: "the line is longer than \(maxLineLength) bytes")
            }
            return try RequestLine.read(bytes, reader: workers[0].reader)
        } catch {
            invalidCount += 1
            throw error
        }
    }

    /// Decides the next line and passes its record (in ``format``, with its line break or
    /// array punctuation) to `body`; the bytes are valid only during the call.
    public func withRecord<Result, Failure: Error>(for line: Line, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        let worker = workers[0]
        worker.sink.pointee.removeAll()
        lineCount += 1
        let counts: (invalid: Int, notAllowed: Int)
        switch line {
        case .bytes(let bytes):
            counts = bytes.withUnsafeBufferPointer { work(on: $0, number: lineCount, with: worker) }
        case .tooLong:
            counts = work(on: nil, number: lineCount, with: worker)
        }
        invalidCount += counts.invalid
        notAllowedCount += counts.notAllowed
        return try body(worker.sink.pointee.bytes)
    }

    /// Decides every line of `block` and passes their records, in input order, to `body`, in one
    /// piece or several (each valid only during its call).
    ///
    /// `block` holds whole lines, each ended by a line break (`\n`, or `\r\n`), except that the
    /// stream's last line may have none. A line longer than ``maxLineLength`` gets the too-long
    /// error record. A block of many lines is split between threads (one per processor); the
    /// records, their numbers and the counts are those of deciding the lines one by one.
    public func withRecords(forLinesIn block: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withRecords(forLinesIn: block, meanwhile: {}, body)
    }

    /// ``withRecords(forLinesIn:_:)``, calling `meanwhile` on this thread once its own share of the
    /// block is decided, while other threads may still decide theirs (a reader can read the next
    /// block then); `block` must stay as it is until the method returns.
    public func withRecords(forLinesIn block: UnsafeBufferPointer<UInt8>, meanwhile: () -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = block.baseAddress, block.count > 0 else {
            meanwhile()
            return
        }
        let parts = min(threads, max(1, block.count / Self.bytesPerThread))
        // Each further worker decides with a fast path of its own (its memo, spellings and buffers), sharing the
        // policy's immutable tables.
        while workers.count < parts {
            workers.append(Worker(fast: workers[0].fast.map { $0.copy() }))
        }
        if parts == 1 {
            // One thread: records go to `body` whenever a buffer's worth has been written.
            let worker = workers[0]
            let counts = withoutActuallyEscaping(body) { body in
                decideLines(in: base, 0..<block.count, first: lineCount + 1, with: worker, flushingTo: body)
            }
            lineCount += counts.lines
            invalidCount += counts.invalid
            notAllowedCount += counts.notAllowed
            meanwhile()
            if worker.sink.pointee.count > 0 { body(worker.sink.pointee.bytes) }
            return
        }
        // Several threads: the block is cut at line breaks into equal parts; each part's first line
        // number is known before the threads start, from counting the line breaks before it.
        // This thread's part is an eighth smaller than the others: it also reads and writes between blocks.
        var cuts = [0]
        let share = Double(block.count) / (Double(parts) - 0.125)
        for part in 1..<parts {
            let from = max(cuts[part - 1], min(block.count, Int(share * (Double(part) - 0.125))))
            let newline = from < block.count ? memchr(base + from, Int32(UInt8(ascii: "\n")), block.count - from) : nil
            cuts.append(newline.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) + 1 } ?? block.count)
        }
        cuts.append(block.count)
        var firsts = [lineCount + 1]
        for part in 1..<parts { firsts.append(firsts[part - 1] + Self.lineCount(in: base + cuts[part - 1], cuts[part] - cuts[part - 1])) }
        let job = Block(stream: self, base: base, cuts: cuts, firsts: firsts, workers: workers)
        // Parts 1… go to Dispatch's threads at once; this thread decides part 0 meanwhile — passing its records to
        // `body` as they fill a buffer, as they come first — then waits, and passes on the others' in order.
        let group = DispatchGroup()
        for part in 1..<parts { DispatchQueue.global().async(group: group) { job.run(part) } }
        let counts = withoutActuallyEscaping(body) { body in
            decideLines(in: base, cuts[0]..<cuts[1], first: firsts[0], with: workers[0], flushingTo: body)
        }
        workers[0].lines = counts.lines
        workers[0].invalid += counts.invalid
        workers[0].notAllowed += counts.notAllowed
        meanwhile()
        group.wait()
        for part in 0..<parts {
            lineCount += workers[part].lines
            collect(workers[part])
            if workers[part].sink.pointee.count > 0 { body(workers[part].sink.pointee.bytes) }
        }
    }

    /// A block is split between threads only when each gets at least this many bytes.
    private static let bytesPerThread = 64 * 1024

    /// How many bytes of records a thread that may write them as it goes (``decideLines(in:_:first:with:flushingTo:)``) collects first.
    private static let flushSize = 256 * 1024

    /// Decides the lines of `range` of a block — each without its line break (and a `\r` before it) —
    /// numbering them from `first`, and appends their records to `worker`'s sink, passing the sink to
    /// `flush` (then emptying it) whenever it holds ``flushSize`` bytes. Returns how many lines, how many
    /// invalid and how many not allowed.
    private func decideLines(in base: UnsafePointer<UInt8>, _ range: Range<Int>, first: Int, with worker: Worker,
                             flushingTo flush: ((UnsafeBufferPointer<UInt8>) -> Void)?) -> (lines: Int, invalid: Int, notAllowed: Int) {
        let sink = worker.sink
        sink.pointee.removeAll()
        // Unretained: the worker holds the fast path for the whole loop (a binding per line would retain it per line).
        let fast = worker.fast.map { Unmanaged.passUnretained($0) }, maxLineLength = maxLineLength
        // Counted in locals: workers' counts side by side would share a cache line.
        var start = range.lowerBound, index = 0, invalid = 0, notAllowed = 0
        while start < range.upperBound {
            let end = memchr(base + start, Int32(UInt8(ascii: "\n")), range.upperBound - start)
                .map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? range.upperBound
            let stop = end > start && base[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
            let line = UnsafeBufferPointer(start: base + start, count: stop - start)
            if line.count <= maxLineLength, let outcome = fast?._withUnsafeGuaranteedRef({ $0.append(line, to: &sink.pointee) }) {
                if outcome != .allow { notAllowed &+= 1 }
            } else {
                let counts = general(on: line.count > maxLineLength ? nil : line, number: first + index, with: worker)
                invalid &+= counts.invalid
                notAllowed &+= counts.notAllowed
            }
            index += 1
            start = end + 1
            if let flush, sink.pointee.count >= Self.flushSize {
                flush(sink.pointee.bytes)
                sink.pointee.removeAll()
            }
        }
        return (index, invalid, notAllowed)
    }

    /// How many lines `count` bytes at `base` hold: their line breaks, and one more for a last line without one.
    private static func lineCount(in base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        var lines = 0, start = 0
        while start < count, let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
            lines += 1
            start = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline)) + 1
        }
        return lines + (base[count - 1] != UInt8(ascii: "\n") ? 1 : 0)
    }

    /// One block's parts, shared out between threads: part `n` goes to worker `n`, which no other
    /// thread touches meanwhile; the stream's state the threads read is immutable.
    private struct Block: @unchecked Sendable {
        let stream: RequestStream
        let base: UnsafePointer<UInt8>
        let cuts: [Int]
        let firsts: [Int]
        let workers: [Worker]

        func run(_ part: Int) {
            let worker = workers[part]
            let counts = stream.decideLines(in: base, cuts[part]..<cuts[part + 1], first: firsts[part], with: worker, flushingTo: nil)
            worker.lines = counts.lines
            worker.invalid += counts.invalid
            worker.notAllowed += counts.notAllowed
        }
    }

    /// Decides one line (`nil`: too long) with `worker`'s fast path and reader, appends its record
    /// to `worker`'s sink, and says whether it was invalid or not allowed (0 or 1 each).
    private func work(on line: UnsafeBufferPointer<UInt8>?, number: Int, with worker: Worker) -> (invalid: Int, notAllowed: Int) {
        if let line, let fast = worker.fast, let outcome = fast.append(line, to: &worker.sink.pointee) {
            return (0, outcome != .allow ? 1 : 0)
        }
        return general(on: line, number: number, with: worker)
    }

    /// ``work(on:number:with:)`` on the general path only (the fast path declined the line, or there is none).
    @inline(never)
    private func general(on line: UnsafeBufferPointer<UInt8>?, number: Int, with worker: Worker) -> (invalid: Int, notAllowed: Int) {
        let entry = decide(line, number: number, reader: worker.reader)
        worker.general.removeAll(keepingCapacity: true)
        appendRecord(of: entry, to: &worker.general)
        worker.general.withUnsafeBufferPointer { worker.sink.pointee.append($0) }
        return (entry.error != nil ? 1 : 0, entry.decision.map { $0.outcome != .allow ? 1 : 0 } ?? 0)
    }

    /// Moves a worker's counts to the stream's.
    private func collect(_ worker: Worker) {
        invalidCount += worker.invalid
        notAllowedCount += worker.notAllowed
        worker.invalid = 0
        worker.notAllowed = 0
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
    public static func record(_ decision: Decision, id: JSONValue?, explanation: Explanation?) -> JSONObject {
        let record = DecisionRecord.json(decision, id: id)
        guard let explanation else { return record }
        return JSONObject(members: record.members + [JSONObject.Member("explanation", explanation.json)])
    }
}

/// What one thread needs to decide lines: its own fast path, JSON reader, record buffer and counts.
private final class Worker: @unchecked Sendable {
    let fast: JSONLinesFastPath?
    let reader = JSONReader()
    /// The records of the worker's lines (behind a pointer: appending costs no exclusivity check), in
    /// cache lines of its own (two, for adjacent-line prefetch): its count changes with every record.
    let sink: UnsafeMutablePointer<RecordSink>
    /// A general-path record, before it is appended to the sink.
    var general: [UInt8] = []
    var invalid = 0
    var notAllowed = 0
    /// The lines of the worker's last part.
    var lines = 0

    init(fast: JSONLinesFastPath?) {
        self.fast = fast
        sink = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: RecordSink.self, capacity: 1)
        sink.initialize(to: RecordSink(capacity: 1 << 16))
    }

    deinit {
        sink.pointee.deallocate()
        sink.deinitialize(count: 1)
        sink.deallocate()
    }
}
