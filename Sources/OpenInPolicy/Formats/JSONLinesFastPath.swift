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
    private let evaluator: Evaluator
    private let writer = DecisionRecordWriter()
    /// The bundle IDs the policy names, to reuse instead of validating and copying a target that is one of them.
    private let knownIDs: BundleIDInterner
    /// The record buffer, reused from line to line (behind a pointer, so using it costs no exclusivity check).
    private let sink: UnsafeMutablePointer<RecordSink>

    package init(evaluator: Evaluator) {
        self.evaluator = evaluator
        let policy = evaluator.policy
        knownIDs = BundleIDInterner(Array(policy.whitelist.ids) + policy.device.schemeHandlers.values
                                    + policy.device.appConnectApps + policy.device.emailPlusBundleIDs)
        sink = .allocate(capacity: 1)
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
        guard let fields = RequestLineScanner.scan(line), let channel = Self.channel(line[fields.channel]) else { return nil }
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
        let decision = evaluator.decide(request)
        sink.pointee.removeAll()
        writer.write(decision, id: fields.id.map { UnsafeBufferPointer(rebasing: line[$0]) },
                     document: fields.document.map { UnsafeBufferPointer(rebasing: line[$0]) }, to: &sink.pointee)
        return (sink.pointee.bytes, decision.outcome)
    }

    /// The channel `name` spells, exactly (as ``Channel/init(parsing:)`` reads it).
    private static func channel(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Channel? {
        guard name.count >= 8 else { return nil }
        // The length and the second letter tell the eight names apart; the comparison below checks the rest.
        let channel: Channel
        switch (name.count, name[name.startIndex + 1]) {
        case (20, UInt8(ascii: "o")): channel = .documentInteraction
        case (10, UInt8(ascii: "u")): channel = .quickLook
        case (13, UInt8(ascii: "p")): channel = .appExtension
        case (13, UInt8(ascii: "c")): channel = .activityView
        case (13, UInt8(ascii: "r")): channel = .dragAndDrop
        case (8, UInt8(ascii: "p")): channel = .openURL
        case (9, UInt8(ascii: "a")): channel = .mailLink
        case (12, UInt8(ascii: "a")): channel = .mailCompose
        default: return nil
        }
        let matches = channel.rawValue.utf8.withContiguousStorageIfAvailable { $0.sameBytes(as: UnsafeBufferPointer(rebasing: name)) }
        return matches == true ? channel : nil
    }
}
