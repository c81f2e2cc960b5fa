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
/// A class, so the stream loop holds one reference rather than copying the
/// evaluator (and the policy in it) for every line; it keeps one record
/// buffer, reused from line to line, so it is meant for one loop at a time.
package final class JSONLinesFastPath {
    /// What every copy of a fast path shares: made once per policy, immutable.
    private final class Tables: @unchecked Sendable {
        /// The evaluator's prepared policy: deciding through it copies no ``Policy`` per line.
        let prepared: PreparedPolicy
        let writer = DecisionRecordWriter()
        /// The bundle IDs the policy names, to reuse instead of validating and copying a target that is one of them.
        let knownIDs: BundleIDInterner
        /// Each channel's name, in `Channel.allCases` order, in memory of its own (compared eight bytes at a time).
        let channelNames: [UnsafeBufferPointer<UInt8>]

        init(evaluator: Evaluator, ownStrings: Bool) {
            prepared = evaluator.prepared
            let policy = evaluator.policy
            var ids = policy.whitelist.members + policy.device.schemeHandlers.values
                + policy.device.appConnectApps + policy.device.emailPlusBundleIDs
            if ownStrings {
                // Copies with storage of their own: a target taken from here is retained for every line, and
                // two threads retaining the same string would keep taking its cache line from each other.
                ids = ids.compactMap { try? BundleID(String(decoding: Array($0.rawValue.utf8), as: UTF8.self)) }
            }
            knownIDs = BundleIDInterner(ids)
            channelNames = Channel.allCases.map { channel in
                let name = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: channel.rawValue.utf8.count)
                _ = name.initialize(from: channel.rawValue.utf8)
                return UnsafeBufferPointer(name)
            }
        }

        deinit {
            for name in channelNames { name.deallocate() }
        }
    }

    private let tables: Tables
    /// The tables' parts, held here (one load instead of two per use).
    private let writer: DecisionRecordWriter
    private let knownIDs: BundleIDInterner
    private let channelNames: [UnsafeBufferPointer<UInt8>]
    /// The record buffer, reused from line to line (behind a pointer, so using it costs no exclusivity check).
    private let sink: UnsafeMutablePointer<RecordSink>
    /// Decoded strings of fields written with escapes or non-ASCII, reused from line to line.
    private var decoded: [UInt8] = []
    private var decodedID: [UInt8] = []
    private var decodedDocument: [UInt8] = []

    /// - Parameter ownStrings: whether the policy's bundle IDs are copied into storage of this
    ///   fast path's own (for a fast path used on another thread than the policy's other users).
    package convenience init(evaluator: Evaluator, ownStrings: Bool = false) {
        self.init(tables: Tables(evaluator: evaluator, ownStrings: ownStrings))
    }

    private init(tables: Tables) {
        self.tables = tables
        writer = tables.writer
        knownIDs = tables.knownIDs
        channelNames = tables.channelNames
        // A cache line (two, for adjacent-line prefetch) of its own: the sink's count changes on every append,
        // and two threads' sinks side by side would keep taking the line from each other.
        sink = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: RecordSink.self, capacity: 1)
        sink.initialize(to: RecordSink(capacity: 1024))
    }

    deinit {
        sink.pointee.deallocate()
        sink.deinitialize(count: 1)
        sink.deallocate()
    }

    /// The record of a plain request line, and its decision's outcome.
    /// - Parameter line: the line's bytes, without its line break.
    /// - Returns: the record with its line break — valid until the next call — and the outcome;
    ///   `nil` when the general path must read the line.
    package func record(for line: UnsafeBufferPointer<UInt8>) -> (bytes: UnsafeBufferPointer<UInt8>, outcome: Outcome)? {
        guard let fields = RequestLineScanner.scan(line) else { return nil }
        if fields.encoded != 0 { return encodedRecord(for: line, fields) }
        guard let channel = channel(UnsafeBufferPointer(rebasing: line[fields.channel])) else { return nil }
        let request: ShareRequest
        do throws(InputError) {
            var target: BundleID? = nil
            if let range = fields.target {
                let spelling = UnsafeBufferPointer(rebasing: line[range])
                if let known = knownIDs.id(spelled: spelling) {
                    target = known
                } else {
                    target = try BundleID(String(decoding: spelling, as: UTF8.self))
                }
            }
            let url = try fields.url.map { range throws(InputError) in
                try ShareURL(String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self))
            }
            // The document only names the dummy file, which the writer makes from the line's bytes.
            request = try ShareRequest(channel: channel, target: target, url: url)
        } catch {
            return nil
        }
        // Through the prepared policy (a reference): calling `decide` on the stored evaluator copies it, policy and all, per line.
        let decision = Evaluator.decide(request, tables.prepared)
        sink.pointee.removeAll()
        writer.write(decision, id: fields.id.map { UnsafeBufferPointer(rebasing: line[$0]) },
                            document: fields.document.map { UnsafeBufferPointer(rebasing: line[$0]) }, to: &sink.pointee)
        return (sink.pointee.bytes, decision.outcome)
    }

    /// A line whose strings hold escapes or non-ASCII: each such string is decoded as the JSON
    /// reader decodes it (or the line is declined), then read as the general path reads it.
    private func encodedRecord(for line: UnsafeBufferPointer<UInt8>, _ fields: RequestLineScanner.Fields) -> (bytes: UnsafeBufferPointer<UInt8>, outcome: Outcome)? {
        /// A field's string: decoded when it is encoded, else its bytes.
        func text(_ range: Range<Int>, _ bit: UInt8) -> String? {
            let bytes = UnsafeBufferPointer(rebasing: line[range])
            guard fields.isEncoded(bit) else { return String(decoding: bytes, as: UTF8.self) }
            decoded.removeAll(keepingCapacity: true)
            guard JSONStringDecoder.decode(bytes, into: &decoded) else { return nil }
            return String(decoding: decoded, as: UTF8.self)
        }
        // The channel: its decoded bytes against the eight names (all ASCII, so bytes equal means the names equal).
        let channelBytes = UnsafeBufferPointer(rebasing: line[fields.channel])
        let channel: Channel
        if fields.isEncoded(RequestLineScanner.channelBit) {
            decoded.removeAll(keepingCapacity: true)
            guard JSONStringDecoder.decode(channelBytes, into: &decoded),
                  let named = decoded.withUnsafeBufferPointer({ self.channel($0) }) else { return nil }
            channel = named
        } else {
            guard let named = self.channel(channelBytes) else { return nil }
            channel = named
        }
        var target: BundleID? = nil, url: ShareURL? = nil
        do throws(InputError) {
            if let range = fields.target {
                if !fields.isEncoded(RequestLineScanner.targetBit), let known = knownIDs.id(spelled: UnsafeBufferPointer(rebasing: line[range])) {
                    target = known
                } else {
                    guard let decoded = text(range, RequestLineScanner.targetBit) else { return nil }
                    target = try BundleID(decoded)
                }
            }
            if let range = fields.url {
                guard let decoded = text(range, RequestLineScanner.urlBit) else { return nil }
                url = try ShareURL(decoded)
            }
        } catch {
            return nil
        }
        // The document's bytes name the dummy file; the id is echoed as the JSON writer writes its string.
        decodedDocument.removeAll(keepingCapacity: true)
        if let range = fields.document {
            let bytes = UnsafeBufferPointer(rebasing: line[range])
            if fields.isEncoded(RequestLineScanner.documentBit) {
                guard JSONStringDecoder.decode(bytes, into: &decodedDocument) else { return nil }
            } else {
                decodedDocument.append(contentsOf: bytes)
            }
        }
        decodedID.removeAll(keepingCapacity: true)
        if let range = fields.id {
            if fields.isEncoded(RequestLineScanner.idBit) {
                // The range holds the quotes: decode what is between them.
                decoded.removeAll(keepingCapacity: true)
                guard JSONStringDecoder.decode(UnsafeBufferPointer(rebasing: line[range.lowerBound + 1..<range.upperBound - 1]), into: &decoded) else { return nil }
                decoded.withUnsafeBufferPointer { JSONWriter.appendQuoted(utf8: $0, to: &decodedID) }
            } else {
                decodedID.append(contentsOf: UnsafeBufferPointer(rebasing: line[range]))
            }
        }
        let request: ShareRequest
        do throws(InputError) {
            request = try ShareRequest(channel: channel, target: target, url: url)
        } catch {
            return nil
        }
        // Through the prepared policy (a reference): calling `decide` on the stored evaluator copies it, policy and all, per line.
        let decision = Evaluator.decide(request, tables.prepared)
        sink.pointee.removeAll()
        let hasID = fields.id != nil, hasDocument = fields.document != nil
        decodedID.withUnsafeBufferPointer { id in
            decodedDocument.withUnsafeBufferPointer { document in
                writer.write(decision, id: hasID ? id : nil, document: hasDocument ? document : nil, to: &sink.pointee)
            }
        }
        return (sink.pointee.bytes, decision.outcome)
    }

    /// The channel `name` spells, exactly (as ``Channel/init(parsing:)`` reads it).
    private func channel(_ name: UnsafeBufferPointer<UInt8>) -> Channel? {
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
        return word(bytes, name.count - 8) == word(knownBytes, name.count - 8) ? channel : nil
    }
}
