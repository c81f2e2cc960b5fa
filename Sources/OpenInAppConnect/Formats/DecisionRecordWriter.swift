import OpenInCore
import OpenInFleet
import OpenInKit

/// Writes decision records as bytes, exactly as `JSONWriter.compact(.object(DecisionRecord.json(decision, id:)))`
/// writes them, without building a ``JSONObject`` or a `String` per record.
///
/// Everything constant is rendered once, by ``JSONWriter`` itself, when the
/// writer is made: each outcome, each callback without a URL, each Open In UI
/// state, and for each rule its id and reason. A record is then those
/// fragments and the few variable parts — the id as the request wrote it, the
/// target, a callback's URL, the dummy file's name — copied into a
/// ``RecordSink``. `JSONLinesFastPathTests` prove the bytes equal the general
/// writer's.
///
/// A class that owns its fragments' memory; immutable once made.
final class DecisionRecordWriter: @unchecked Sendable {
    /// Bytes rendered once; they live in ``arena`` as long as the writer.
    private typealias Fragment = UnsafeBufferPointer<UInt8>

    private let arena: UnsafeMutableBufferPointer<UInt8>
    private let outcomes: [Fragment]
    private let statusCallbacks: [Fragment]
    private let dragAndDropCallback: Fragment
    private let urlCallbackStart: Fragment
    private let openInUIs: [Fragment]
    private let idKey: Fragment
    private let targetKey: Fragment
    private let callbacksKey: Fragment
    private let dummyKey: Fragment
    private let recordEnd: Fragment
    /// For each rule, `,"rule":ID,"reason":REASON`, found by the address of the rule id's text.
    private let ruleAddresses: [UInt]
    private let ruleFragments: [Fragment]
    private let ruleMask: Int

    package init() {
        // First the texts, then one block of memory for all of them.
        var texts: [String] = []
        func add(_ text: String) -> Int {
            texts.append(text)
            return texts.count - 1
        }
        let outcomes = Outcome.allCases.map { add("\"outcome\":" + JSONWriter.quoted($0.rawValue)) }
        let statusCallbacks = OpenInStatus.allCases.map { add(JSONWriter.compact(.object(DecisionRecord.json(Callback.openInAttemptedWhenBlocked($0))))) }
        let dragAndDropCallback = add(JSONWriter.compact(.object(DecisionRecord.json(Callback.dragAndDropToNonAppConnectApp))))
        let urlSelector = Callback.openURLAttemptedWhenUnauthorized(try! ShareURL("x:")).selector
        let urlCallbackStart = add("{\"selector\":" + JSONWriter.quoted(urlSelector) + ",\"url\":")
        let openInUIs = OpenInUI.allCases.map { add(",\"openInUI\":" + JSONWriter.quoted($0.rawValue)) }
        let idKey = add("\"id\":")
        let targetKey = add(",\"target\":")
        let callbacksKey = add(",\"callbacks\":[")
        let dummyKey = add(",\"dummyFileName\":\"" + DummyFileName.prefix)
        let recordEnd = add("}\n")
        let rules = RuleInfo.all
        let ruleTexts = rules.map { add(Self.ruleText($0.id)) }

        let bytes = texts.flatMap { Array($0.utf8) }
        arena = .allocate(capacity: bytes.count)
        _ = arena.initialize(from: bytes)
        var fragments: [Fragment] = []
        var offset = 0
        for text in texts {
            fragments.append(Fragment(rebasing: arena[offset..<offset + text.utf8.count]))
            offset += text.utf8.count
        }
        self.outcomes = outcomes.map { fragments[$0] }
        self.statusCallbacks = statusCallbacks.map { fragments[$0] }
        self.dragAndDropCallback = fragments[dragAndDropCallback]
        self.urlCallbackStart = fragments[urlCallbackStart]
        self.openInUIs = openInUIs.map { fragments[$0] }
        self.idKey = fragments[idKey]
        self.targetKey = fragments[targetKey]
        self.callbacksKey = fragments[callbacksKey]
        self.dummyKey = fragments[dummyKey]
        self.recordEnd = fragments[recordEnd]

        var capacity = 8
        while capacity < rules.count * 4 { capacity <<= 1 }
        var addresses = [UInt](repeating: 0, count: capacity)
        var ruleFragments = [Fragment](repeating: Fragment(start: nil, count: 0), count: capacity)
        ruleMask = capacity - 1
        for (rule, text) in zip(rules, ruleTexts) {
            var slot = Self.slot(rule.id.textAddress, ruleMask)
            while addresses[slot] != 0 { slot = (slot + 1) & ruleMask }
            addresses[slot] = rule.id.textAddress
            ruleFragments[slot] = fragments[text]
        }
        ruleAddresses = addresses
        self.ruleFragments = ruleFragments
    }

    deinit { arena.deallocate() }

    private static func slot(_ address: UInt, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    private static func ruleText(_ rule: RuleID) -> String {
        ",\"rule\":" + JSONWriter.quoted(rule.rawValue) + ",\"reason\":" + JSONWriter.quoted(rule.info.reason)
    }

    /// Appends the record of `decision` and a line break to `sink`.
    /// - Parameters:
    ///   - id: the request's `id` exactly as the request line wrote it (a JSON string with its
    ///     quotes, or a number), to be echoed; the caller guarantees `JSONWriter` would write the
    ///     same bytes (a number's literal; a string of printable ASCII without `"` or `\`).
    ///   - document: the request's document as UTF-8, from which the dummy file's name is made
    ///     (the fast path passes the line's bytes instead of a string in the request).
    package func write(_ decision: Decision, id: UnsafeBufferPointer<UInt8>?, document: UnsafeBufferPointer<UInt8>?, to sink: inout RecordSink) {
        writeStart(id: id, to: &sink)
        writeBody(decision, to: &sink)
        if decision.outcome == .substituteDummyFile, let target = decision.target {
            writeDummyName(seed: DummyFileName.seed(target: target, documentBytes: document), to: &sink)
        }
        writeEnd(to: &sink)
    }

    /// Appends what every record starts with: `{`, and the id (as ``write(_:id:document:to:)`` takes it) when there is one.
    @inline(__always)
    func writeStart(id: UnsafeBufferPointer<UInt8>?, to sink: inout RecordSink) {
        sink.append(UInt8(ascii: "{"))
        if let id {
            append(idKey, to: &sink)
            sink.append(id)
            sink.append(UInt8(ascii: ","))
        }
    }

    /// Appends `,"dummyFileName":"…"` for `seed`.
    @inline(__always)
    func writeDummyName(seed: UInt64, to sink: inout RecordSink) {
        append(dummyKey, to: &sink)
        DummyFileName.appendHexAndExtension(seed: seed, to: &sink)
        sink.append(UInt8(ascii: "\""))
    }

    /// Appends the record's end: `}` and the line break.
    @inline(__always)
    func writeEnd(to sink: inout RecordSink) { append(recordEnd, to: &sink) }

    /// Appends what a decision's record holds between the id and the dummy file's name: from
    /// `"outcome"` to the rule's reason. It depends on the decision alone, so the fast path may
    /// keep these bytes for a request it sees again.
    func writeBody(_ decision: Decision, to sink: inout RecordSink) {
        append(outcomes[decision.outcome.index], to: &sink)
        if let target = decision.target {
            append(targetKey, to: &sink)
            // A bundle ID is letters, digits, '-', '_' and '.': nothing in it needs escaping.
            sink.append(UInt8(ascii: "\""))
            sink.append(target.rawValue)
            sink.append(UInt8(ascii: "\""))
        }
        if decision.audience != nil { Self.appendAudience(decision, to: &sink) }
        append(callbacksKey, to: &sink)
        switch decision.callback {
        case .none:
            break
        case .openInAttemptedWhenBlocked(let status):
            append(statusCallbacks[status.rawValue], to: &sink)
        case .openURLAttemptedWhenUnauthorized(let url):
            append(urlCallbackStart, to: &sink)
            Self.appendQuoted(url.rawValue, to: &sink)
            sink.append(UInt8(ascii: "}"))
        case .dragAndDropToNonAppConnectApp:
            append(dragAndDropCallback, to: &sink)
        case .openFromAttemptedWhenBlocked, .copyAttemptedWhenUnauthorized:
            Self.appendCallbackInFull(decision, to: &sink)
        }
        sink.append(UInt8(ascii: "]"))
        append(openInUIs[decision.openInUI == .enabled ? 0 : 1], to: &sink)
        appendRule(decision.rule, to: &sink)
    }

    @inline(__always)
    private func append(_ fragment: Fragment, to sink: inout RecordSink) { sink.append(fragment) }

    // The fast path declines open-from, copy and print: their parts are rendered in full, out of
    // line, so the common path's code stays as small as it was.

    /// Appends `,"audience":"…"`.
    @inline(never)
    private static func appendAudience(_ decision: Decision, to sink: inout RecordSink) {
        guard let audience = decision.audience else { return }
        sink.append(",\"audience\":\"" + audience.rawValue + "\"")
    }

    /// Appends the callback as ``JSONWriter`` writes it.
    @inline(never)
    private static func appendCallbackInFull(_ decision: Decision, to sink: inout RecordSink) {
        guard let callback = decision.callback else { return }
        sink.append(JSONWriter.compact(.object(DecisionRecord.json(callback))))
    }

    private func appendRule(_ rule: RuleID, to sink: inout RecordSink) {
        let address = rule.textAddress
        var slot = Self.slot(address, ruleMask)
        while ruleAddresses[slot] != 0 {
            if ruleAddresses[slot] == address { return append(ruleFragments[slot], to: &sink) }
            slot = (slot + 1) & ruleMask
        }
        // An id whose text lives elsewhere (not one of the catalog's literals): render it.
        sink.append(Self.ruleText(rule))
    }

    /// Appends `text` as a JSON string: its bytes between quotes when nothing in it needs
    /// escaping (bundle IDs and URLs never do), else whatever ``JSONWriter`` writes.
    package static func appendQuoted(_ text: String, to sink: inout RecordSink) {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return false }
            sink.append(UInt8(ascii: "\""))
            sink.append(bytes)
            sink.append(UInt8(ascii: "\""))
            return true
        }
        if plain != true { sink.append(JSONWriter.quoted(text)) }
    }
}

private extension Outcome {
    /// The position in `allCases`.
    var index: Int {
        switch self {
        case .allow: 0
        case .redirect: 1
        case .substituteDummyFile: 2
        case .deny: 3
        case .deliverEncrypted: 4
        }
    }
}
