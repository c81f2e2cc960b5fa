import OpenInCore
import OpenInFleet
import OpenInKit

/// The fast path of a JSON Lines request stream: a plain request line to its
/// decision record, with no JSON tree and no record object in between.
///
/// It reads a line with ``RequestLineScanner``, builds the ``ShareRequest``
/// with the same initialisers ``RequestLine`` uses, decides, and writes the
/// record with ``DecisionRecordWriter``. It declines (returns `nil`) every
/// line that is not plain or whose request is invalid, so the general path —
/// ``RequestLine/read(_:reader:)``, ``DecisionRecord``, ``JSONWriter`` — reads
/// those and writes their records or error records. For every line it
/// accepts, its bytes are the general path's bytes (`JSONLinesFastPathTests`).
///
/// A request with no URL, whose target is none or one the policy names, is
/// decided once: its record's middle is kept in a ``DecisionMemo`` and
/// written again for the same channel and target (the id and the dummy
/// file's name are written for each line).
///
/// A class, so the stream loop holds one reference rather than copying the
/// evaluator (and the policy in it) for every line; it keeps its memo and
/// buffers from line to line, so it is meant for one thread at a time
/// (``copy()`` makes another for another thread).
package final class JSONLinesFastPath {
    /// What every copy of a fast path shares: made once per policy, immutable.
    private final class Tables: @unchecked Sendable {
        /// The evaluator's prepared policy: deciding through it copies no ``Policy`` per line.
        let prepared: PreparedPolicy
        let writer = DecisionRecordWriter()
        /// The bundle IDs the policy names, by spelling: raw memory, only read once made, so every
        /// thread's fast path reads this one table (no reference count is touched).
        let known: KnownSpellings
        /// Each channel's name, in `Channel.allCases` order, in memory of its own (compared eight bytes at a time).
        let channelNames: [UnsafeBufferPointer<UInt8>]

        init(evaluator: Evaluator) {
            prepared = evaluator.prepared
            let policy = evaluator.policy
            known = KnownSpellings(policy.whitelist, Array(policy.device.schemeHandlers.values)
                + policy.device.appConnectApps + policy.device.emailPlusBundleIDs)
            channelNames = Channel.allCases.map { channel in
                let name = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: channel.rawValue.utf8.count)
                _ = name.initialize(from: channel.rawValue.utf8)
                return UnsafeBufferPointer(name)
            }
        }

        deinit {
            for name in channelNames { name.deallocate() }
            known.deallocate()
        }
    }

    private let tables: Tables
    /// The tables' parts, held here (one load instead of two per use).
    private let writer: DecisionRecordWriter
    private let prepared: PreparedPolicy
    private let channelNames: [UnsafeBufferPointer<UInt8>]
    /// The policy's bundle IDs by spelling (the tables', shared read-only).
    private let known: KnownSpellings
    /// Decisions of requests seen before, by channel and known target (behind a pointer: no exclusivity check).
    private let memo: UnsafeMutablePointer<DecisionMemo>
    /// The record buffer of ``record(for:)``, reused from line to line (behind a pointer, so using it costs no exclusivity check).
    private let sink: UnsafeMutablePointer<RecordSink>
    /// Decoded strings of fields written with escapes or non-ASCII, reused from line to line.
    private struct Decoded {
        /// The decoded fields of one line, one after another.
        var bytes: [UInt8] = []
        /// An id's decoded contents, before they are quoted again into ``bytes``.
        var id: [UInt8] = []
    }
    /// (Behind a pointer: a class's array properties cost an exclusivity check and a retain per use.)
    private let decoded: UnsafeMutablePointer<Decoded>

    /// A fast path deciding with `evaluator`'s policy.
    package convenience init(evaluator: Evaluator) {
        self.init(tables: Tables(evaluator: evaluator))
    }

    private init(tables: Tables) {
        self.tables = tables
        writer = tables.writer
        prepared = tables.prepared
        channelNames = tables.channelNames
        known = tables.known
        // Cache lines (two, for adjacent-line prefetch) of their own: the memo's and the sink's counts change
        // as lines are decided, and two threads' fast paths side by side would keep taking the lines from each other.
        memo = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: DecisionMemo.self, capacity: 1)
        memo.initialize(to: DecisionMemo())
        sink = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: RecordSink.self, capacity: 1)
        sink.initialize(to: RecordSink(capacity: 1024))
        decoded = .allocate(capacity: 1)
        decoded.initialize(to: Decoded())
    }

    /// Another fast path for the same policy, for another thread: it shares the immutable
    /// tables (the known spellings among them), and has its own memo and buffers.
    package func copy() -> JSONLinesFastPath { JSONLinesFastPath(tables: tables) }

    deinit {
        memo.pointee.deallocate()
        memo.deinitialize(count: 1)
        memo.deallocate()
        sink.pointee.deallocate()
        sink.deinitialize(count: 1)
        sink.deallocate()
        decoded.deinitialize(count: 1)
        decoded.deallocate()
    }

    /// The record of a plain request line, and its decision's outcome.
    /// - Parameter line: the line's bytes, without its line break.
    /// - Returns: the record with its line break — valid until the next call — and the outcome;
    ///   `nil` when the general path must read the line.
    package func record(for line: UnsafeBufferPointer<UInt8>) -> (bytes: UnsafeBufferPointer<UInt8>, outcome: Outcome)? {
        sink.pointee.removeAll()
        guard let outcome = append(line, to: &sink.pointee) else { return nil }
        return (sink.pointee.bytes, outcome)
    }

    /// Appends the record of a plain request line to `output`, and returns its decision's outcome;
    /// `nil` (with nothing appended) when the general path must read the line.
    /// - Parameter line: the line's bytes, without its line break.
    package func append(_ line: UnsafeBufferPointer<UInt8>, to output: inout RecordSink) -> Outcome? {
        guard let fields = RequestLineScanner.scan(line) else { return nil }
        if fields.encoded != 0 { return encodedRecord(for: line, fields, to: &output) }
        guard let named = channel(UnsafeBufferPointer(rebasing: line[fields.channel])) else { return nil }
        return record(channel: named, target: fields.target.map { UnsafeBufferPointer(rebasing: line[$0]) },
                      url: fields.url.map { UnsafeBufferPointer(rebasing: line[$0]) },
                      id: fields.id.map { UnsafeBufferPointer(rebasing: line[$0]) },
                      document: fields.document.map { UnsafeBufferPointer(rebasing: line[$0]) }, to: &output)
    }

    /// Decides a request from its parts as bytes — the target's and the URL's text, the id as the
    /// record echoes it, the document's bytes, all decoded — and appends its record; `nil` (with nothing
    /// appended) when the request is invalid. A request with no URL and no target or a known one is
    /// written from the memo when it was decided before, and remembered when it is decided.
    @inline(__always)
    private func record(channel named: (channel: Channel, index: Int), target: UnsafeBufferPointer<UInt8>?, url: UnsafeBufferPointer<UInt8>?,
                        id: UnsafeBufferPointer<UInt8>?, document: UnsafeBufferPointer<UInt8>?, to output: inout RecordSink) -> Outcome? {
        var key: UInt64? = nil
        if url == nil {
            if let target {
                if let index = known.index(of: target) { key = DecisionMemo.key(channel: named.index, target: index) }
            } else {
                key = DecisionMemo.key(channel: named.index, target: nil)
            }
        }
        if let key, let entry = memo.pointee.entry(key) {
            guard let outcome = entry.pointee.outcome else { return nil }
            writer.writeStart(id: id, to: &output)
            output.append(memo.pointee.bytes(of: entry))
            if entry.pointee.namesDummy {
                writer.writeDummyName(seed: DummyFileName.seed(targetSeed: entry.pointee.targetSeed, documentBytes: document), to: &output)
            }
            writer.writeEnd(to: &output)
            return outcome
        }
        let request: ShareRequest
        do throws(InputError) {
            let targetID = try target.map { bytes throws(InputError) in try BundleID(String(decoding: bytes, as: UTF8.self)) }
            let shareURL = try url.map { bytes throws(InputError) in try ShareURL(String(decoding: bytes, as: UTF8.self)) }
            // The document only names the dummy file, which the writer makes from the line's bytes.
            request = try ShareRequest(channel: named.channel, target: targetID, url: shareURL)
        } catch {
            if let key, memo.pointee.hasRoom(for: 0) {
                memo.pointee.remember(key, bytes: UnsafeBufferPointer(start: nil, count: 0), outcome: nil, namesDummy: false, targetSeed: 0)
            }
            return nil
        }
        // Through the prepared policy (a reference): calling `decide` on the stored evaluator copies it, policy and all, per line.
        let decision = Evaluator.decide(request, prepared)
        writer.writeStart(id: id, to: &output)
        let bodyStart = output.count
        writer.writeBody(decision, to: &output)
        var targetSeed: UInt64 = 0
        let namesDummy = decision.outcome == .substituteDummyFile && decision.target != nil
        if namesDummy, let target = decision.target { targetSeed = DummyFileName.targetSeed(target) }
        if let key, memo.pointee.hasRoom(for: output.count - bodyStart) {
            memo.pointee.remember(key, bytes: UnsafeBufferPointer(rebasing: output.bytes[bodyStart...]),
                                  outcome: decision.outcome, namesDummy: namesDummy, targetSeed: targetSeed)
        }
        if namesDummy {
            writer.writeDummyName(seed: DummyFileName.seed(targetSeed: targetSeed, documentBytes: document), to: &output)
        }
        writer.writeEnd(to: &output)
        return decision.outcome
    }

    /// A line whose strings hold escapes or non-ASCII: each such string is decoded as the JSON
    /// reader decodes it (or the line is declined), then read as the general path reads it.
    private func encodedRecord(for line: UnsafeBufferPointer<UInt8>, _ fields: RequestLineScanner.Fields, to output: inout RecordSink) -> Outcome? {
        // Each encoded field is decoded, as the JSON reader decodes it, into one buffer, one after another;
        // an id is decoded and then quoted again, as the JSON writer writes its string.
        decoded.pointee.bytes.removeAll(keepingCapacity: true)
        /// Where the field at `range` is decoded in the buffer (`nil`: not encoded); `false` when it is not valid.
        func decode(_ range: Range<Int>?, _ bit: UInt8) -> Range<Int>?? {
            guard let range, fields.isEncoded(bit) else { return .some(nil) }
            let start = decoded.pointee.bytes.count
            guard JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: line[range]), into: &decoded.pointee.bytes) else { return nil }
            return start..<decoded.pointee.bytes.count
        }
        guard let channel = decode(fields.channel, RequestLineScanner.channelBit),
              let target = decode(fields.target, RequestLineScanner.targetBit),
              let url = decode(fields.url, RequestLineScanner.urlBit),
              let document = decode(fields.document, RequestLineScanner.documentBit) else { return nil }
        var id: Range<Int>? = nil
        if let range = fields.id, fields.isEncoded(RequestLineScanner.idBit) {
            // The range holds the quotes: decode what is between them.
            decoded.pointee.id.removeAll(keepingCapacity: true)
            guard JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: line[range.lowerBound + 1..<range.upperBound - 1]), into: &decoded.pointee.id) else { return nil }
            let start = decoded.pointee.bytes.count
            decoded.pointee.id.withUnsafeBufferPointer { JSONWriter.appendQuoted(utf8: $0, to: &decoded.pointee.bytes) }
            id = start..<decoded.pointee.bytes.count
        }
        return decoded.pointee.bytes.withUnsafeBufferPointer { buffer in
            /// A field's bytes: decoded when encoded, else the line's.
            func part(_ range: Range<Int>?, _ decodedRange: Range<Int>?) -> UnsafeBufferPointer<UInt8>? {
                guard let range else { return nil }
                return UnsafeBufferPointer(rebasing: decodedRange.map { buffer[$0] } ?? line[range])
            }
            // The channel: its bytes against the eight names (all ASCII, so bytes equal means the names equal).
            guard let channelBytes = part(fields.channel, channel), let named = self.channel(channelBytes) else { return nil }
            return record(channel: named, target: part(fields.target, target), url: part(fields.url, url),
                          id: part(fields.id, id), document: part(fields.document, document), to: &output)
        }
    }

    /// The channel `name` spells, exactly (as ``Channel/init(parsing:)`` reads it).
    private func channel(_ name: UnsafeBufferPointer<UInt8>) -> (channel: Channel, index: Int)? {
        guard name.count >= 8, let bytes = name.baseAddress else { return nil }
        // The length and the second letter tell the eight names apart; the comparison below checks every byte.
        let channel: Channel, index: Int
        switch (name.count, bytes[1]) {
        case (20, UInt8(ascii: "o")): (channel, index) = (.documentInteraction, 0)
        case (10, UInt8(ascii: "u")): (channel, index) = (.quickLook, 1)
        case (13, UInt8(ascii: "p")): (channel, index) = (.appExtension, 2)
        case (13, UInt8(ascii: "c")): (channel, index) = (.activityView, 3)
        case (8, UInt8(ascii: "p")): (channel, index) = (.openURL, 4)
        case (9, UInt8(ascii: "a")): (channel, index) = (.mailLink, 5)
        case (12, UInt8(ascii: "a")): (channel, index) = (.mailCompose, 6)
        case (13, UInt8(ascii: "r")): (channel, index) = (.dragAndDrop, 7)
        default: return nil
        }
        let known = channelNames[index]
        guard known.count == name.count, let knownBytes = known.baseAddress else { return nil }
        func word(_ pointer: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
            UnsafeRawPointer(pointer + offset).loadUnaligned(as: UInt64.self)
        }
        var offset = 0
        while offset + 8 < name.count {
            guard word(bytes, offset) == word(knownBytes, offset) else { return nil }
            offset += 8
        }
        return word(bytes, name.count - 8) == word(knownBytes, name.count - 8) ? (channel, index) : nil
    }
}
