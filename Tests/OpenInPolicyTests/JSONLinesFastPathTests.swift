import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The JSON Lines fast path writes, for every line it accepts, the bytes the general path writes:
/// `RequestLine.read`, `Evaluator.decide`, `DecisionRecord.json`, `JSONWriter.compact`.
@Suite struct JSONLinesFastPathTests {
    /// The general path's record for one line, as `eval` writes it.
    static func generalRecord(_ line: String, _ evaluator: Evaluator) -> String {
        do throws(RequestLine.Failure) {
            let parsed = try RequestLine.read(Array(line.utf8))
            return JSONWriter.compact(.object(DecisionRecord.json(evaluator.decide(parsed.request), id: parsed.id))) + "\n"
        } catch {
            return "error: \(error.message)"
        }
    }

    /// The fast path's record for one line, or `nil` when it declines.
    static func fastRecord(_ line: String, _ fastPath: JSONLinesFastPath) -> String? {
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            fastPath.record(for: bytes).map { String(decoding: $0.bytes, as: UTF8.self) }
        }
    }

    /// A request line for a table row: its id, and its request's columns (`-` leaves a key out).
    static func requestLine(for row: TableCase) -> String {
        var members: [JSONObject.Member] = [.init("id", .string(row.id))]
        for key in ["channel", "target", "url", "source", "document"] {
            if let value = row.cells[key], !value.isEmpty, value != "-" { members.append(.init(key, .string(value))) }
        }
        return JSONWriter.compact(.object(JSONObject(members: members)))
    }

    /// The row's request line with `id` (JSON text) as its id, and `documentPrefix` before its document, if it has one.
    static func requestLine(for row: TableCase, id: String, documentPrefix: String) -> String {
        var members: [JSONObject.Member] = [.init("id", try! JSONReader().read(Array(id.utf8)))]
        for key in ["channel", "target", "url", "source", "document"] {
            if let value = row.cells[key], !value.isEmpty, value != "-" {
                members.append(.init(key, .string(key == "document" ? documentPrefix + value : value)))
            }
        }
        return JSONWriter.compact(.object(JSONObject(members: members)))
    }

    @Test("every row of Rules/, as a request line under the row's policy, gets the general path's record")
    func everyRuleRow() throws {
        let rows = try DecisionTables.load(paths: [RulesFolder.path])
        var accepted = 0, valid = 0, beyondOpenIn = 0
        for row in rows where row.cells["policy"] != "intune" {  // the fast path serves AppConnect's eval; Intune rows have their own evaluator
            let line = Self.requestLine(for: row)
            guard case .success(let (policy, _)) = try RowInputs.build(row.cells, at: Place(file: row.file, line: row.line)) else {
                // An invalid policy or request: the fast path must leave an invalid request to the general path.
                if case .failure = Result(catching: { () throws(RequestLine.Failure) in try RequestLine.read(Array(line.utf8)) }) {
                    #expect(Self.fastRecord(line, JSONLinesFastPath(evaluator: Evaluator(policy: Policy(status: .whitelist)))) == nil,
                            "\(row.location): \(row.id)")
                }
                continue
            }
            let evaluator = Evaluator(policy: policy)
            if ["open-from", "copy", "print", "paste", "keyboard"].contains(row.cells["channel"] ?? "") {
                // The fast path declines the channels beyond Open In: the general path writes their records.
                beyondOpenIn += 1
                #expect(Self.fastRecord(line, JSONLinesFastPath(evaluator: evaluator)) == nil, "\(row.location): \(row.id) was not declined")
                continue
            }
            valid += 1
            let fastPath = JSONLinesFastPath(evaluator: evaluator)
            if let fast = Self.fastRecord(line, fastPath) {
                accepted += 1
                #expect(fast == Self.generalRecord(line, evaluator), "\(row.location): \(row.id)")
                // The second time, a request with no URL and a known target (or none) is written from the memo.
                #expect(Self.fastRecord(line, fastPath) == fast, "\(row.location): \(row.id), from the memo")
                // So is another line with the same request but another id and document (a number id, then a string).
                for id in ["42", "\"other-\(row.id)\""] {
                    let other = Self.requestLine(for: row, id: id, documentPrefix: "other-")
                    #expect(Self.fastRecord(other, fastPath) == Self.generalRecord(other, evaluator), "\(row.location): \(row.id), id \(id)")
                }
            } else {
                // Only a line that is not plain (an escape or a byte outside printable ASCII) may be declined.
                #expect(line.utf8.contains { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x7F }, "\(row.location): \(row.id) was declined")
            }
        }
        #expect(valid > 100)
        #expect(beyondOpenIn > 40)
        #expect(accepted * 10 >= valid * 9, "the fast path took \(accepted) of \(valid) valid rows")
    }

    @Test("excluded activities and the Web DLP setting: the fast path and its memo write the general path's records; paste and keyboard are declined")
    func excludedActivitiesAndWebDLP() throws {
        var policy = Policy(status: .authorized, whitelist: try Whitelist(parsing: ["com.apple.UIKit.activity.AirDrop"]))
        policy.excludedActivityTypes = [try BundleID("com.apple.UIKit.activity.AirDrop"), try BundleID("com.apple.UIKit.activity.Print")]
        policy.webDLP = .notAllowed
        policy.device.webAtWorkInstalled = true
        let evaluator = Evaluator(policy: policy)
        let fastPath = JSONLinesFastPath(evaluator: evaluator)
        let lines = [
            #"{"id":1,"channel":"activity-view","target":"com.apple.UIKit.activity.AirDrop"}"#,   // excluded, a known spelling: memo
            #"{"id":2,"channel":"activity-view","target":"com.apple.UIKit.activity.Print"}"#,     // excluded, not a known spelling
            #"{"id":3,"channel":"activity-view","target":"com.apple.UIKit.activity.Mail"}"#,      // offered: AUTHORIZED allows
            #"{"id":4,"channel":"activity-view"}"#,
            #"{"id":5,"channel":"open-url","url":"https://example.com/"}"#,                       // Web DLP: Web@Work
            #"{"id":6,"channel":"open-url","url":"x-docs://open"}"#,
        ]
        for line in lines + lines {
            let fast = try #require(Self.fastRecord(line, fastPath), "\(line) was declined")
            #expect(fast == Self.generalRecord(line, evaluator), "\(line)")
        }
        #expect(Self.fastRecord(lines[0], fastPath)?.contains(#""rule":"activity-view.excluded-activity""#) == true)
        #expect(Self.fastRecord(lines[4], fastPath)?.contains(#""outcome":"redirect","target":"com.mobileiron.ios.webatwork""#) == true)
        for declined in [#"{"channel":"paste","source":"com.example.notes"}"#, #"{"channel":"keyboard","target":"com.example.keys"}"#, #"{"channel":"keyboard"}"#] {
            #expect(Self.fastRecord(declined, fastPath) == nil, "\(declined)")
        }
    }

    static let policy: Policy = {
        var device = DeviceFacts()
        device.emailPlusInstalled = true
        try! device.setHandler(BundleID("com.example.box"), for: "box")
        return Policy(status: .whitelist, whitelist: try! Whitelist(parsing: ["com.example.viewer", "com.example.box"]), device: device)
    }()

    @Test("plain lines are read as the general reader reads them", arguments: [
        #"{"channel":"mail-compose"}"#,
        #"{"id":"a-1","channel":"quick-look","target":"com.example.viewer","document":"r.pdf"}"#,
        #"{"id":12,"channel":"quick-look","target":"com.example.other"}"#,
        #"{"id":-0.5e+3,"channel":"document-interaction","target":"com.example.other","document":"a b.pdf"}"#,
        #"{"id":0,"channel":"open-url","url":"box://x"}"#,
        #"{"id":1E9,"channel":"open-url","url":"mailto:a@example.com"}"#,
        "\t{ \"document\" : \"d.key\" ,\t\"target\":\"com.example.other\", \"channel\": \"app-extension\" }  ",
        #"{"channel":"activity-view"}"#,
        #"{"channel":"drag-and-drop","target":"com.apple.mobilemail"}"#,
        #"{"channel":"mail-link","url":"MAILTO:x@example.com"}"#,
        #"{"id":"","channel":"open-url","url":"https://example.com/a?b=c&d=%20"}"#,
        // Escapes and non-ASCII in values: decoded as the JSON reader decodes them, the id re-written as the writer writes it.
        #"{"id":"a\"b","channel":"mail-compose"}"#, #"{"id":"caf\u00e9","channel":"mail-compose"}"#, "{\"id\":\"caf\u{E9}\",\"channel\":\"mail-compose\"}",
        #"{"channel":"open-url","url":"https:\/\/example.com"}"#, #"{"channel":"mail\u002Dcompose"}"#,
        #"{"id":"\ud83d\ude00 \u2028 \n\t\u0000","channel":"quick-look","target":"com.example.viewer","document":"caf\u00e9 \u00e9t\u00e9.pdf"}"#,
        "{\"id\":\"\u{2028}\u{1F600}\",\"channel\":\"document-interaction\",\"target\":\"com.example.other\",\"document\":\"r\u{E9}sum\u{E9}.pdf\"}",
        #"{"channel":"quick-look","target":"com.example.\u0076iewer","document":""}"#,
        #"{"channel":"drag-and-drop","target":"com.example.box","document":"\"quoted\" \\ name"}"#,
    ])
    func plainLines(_ line: String) throws {
        let evaluator = Evaluator(policy: Self.policy)
        let fast = try #require(Self.fastRecord(line, JSONLinesFastPath(evaluator: evaluator)))
        #expect(fast == Self.generalRecord(line, evaluator))
    }

    @Test("lines that are not plain, or not valid requests, are left to the general path", arguments: [
        "", " ", "[]", "{}", "null", "\u{FEFF}{\"channel\":\"mail-compose\"}", "{\"channel\":\"mail-compose\"}\r",
        #"{"channel":"mail-compose"} {}"#, #"{"channel":"mail-compose"},"#, #"{"channel":"mail-compose""#,
        #"{"channel":"mail-compose",}"#, #"{"id":"a","id":"b","channel":"mail-compose"}"#,
        #"{"channel":"mail-compose","extra":1}"#, #"{"channel":"mail-compose","target":null}"#,
        #"{"id":true,"channel":"mail-compose"}"#, #"{"id":01,"channel":"mail-compose"}"#, #"{"id":1.,"channel":"mail-compose"}"#,
        #"{"id":-,"channel":"mail-compose"}"#, #"{"id":1e,"channel":"mail-compose"}"#, #"{"id":+1,"channel":"mail-compose"}"#,
        "{\"id\":\"\u{7F}\",\"channel\":\"mail-compose\"}", #"{"chann\u0065l":"mail-compose"}"#, #"{"channel":"Mail-Compose"}"#,
        #"{"id":"\ud800","channel":"mail-compose"}"#, #"{"id":"\udc00x","channel":"mail-compose"}"#, #"{"id":"\x","channel":"mail-compose"}"#,
        #"{"id":"\u12","channel":"mail-compose"}"#, "{\"id\":\"a\u{01}\",\"channel\":\"mail-compose\"}", #"{"channel":"mail\u002Dcompose\"}"#,
        "{\"channel\":\"quick-look\",\"target\":\"com.example.caf\u{E9}\"}", #"{"channel":"quick-look","target":"com.example.caf\u00e9"}"#,
        #"{"channel":"open-url","url":"mailto:caf\u00e9@example.com"}"#,
        #"{"channel":"open-in"}"#, #"{"channel":"quick-look"}"#, #"{"channel":"quick-look","target":"com..x"}"#,
        #"{"channel":"open-url","url":"no scheme"}"#, #"{"channel":"mail-link","url":"https://example.com"}"#,
        #"{"channel":"mail-compose","url":"mailto:a@b"}"#,
        #"{"channel":"quick-look","target":{"id":"x"}}"#, #"{"channel":["mail-compose"]}"#, #"{"target":"com.example.viewer"}"#,
    ])
    func declined(_ line: String) {
        #expect(Self.fastRecord(line, JSONLinesFastPath(evaluator: Evaluator(policy: Self.policy))) == nil)
    }

    /// A policy that sets every control beyond Open In, so each line below is a valid request the general path decides.
    static let policyWithEveryControl: Policy = {
        var policy = Self.policy
        policy.openFrom = OpenFromPolicy(status: .whitelist, whitelist: try! Whitelist(parsing: ["com.example.docs"]))
        policy.pasteboard = .secureCopy
        policy.print = .authorized
        policy.device.secureServicesAvailable = true
        return policy
    }()

    @Test("open-from, copy and print lines, plain and valid, are declined to the general path, which decides them", arguments: [
        #"{"channel":"open-from","source":"com.example.docs"}"#, #"{"id":7,"channel":"open-from"}"#,
        #"{"channel":"copy"}"#, #"{"channel":"copy","target":"com.example.viewer"}"#, #"{"id":"p","channel":"print","document":"a.pdf"}"#,
    ])
    func beyondOpenInDeclined(_ line: String) {
        let evaluator = Evaluator(policy: Self.policyWithEveryControl)
        #expect(Self.fastRecord(line, JSONLinesFastPath(evaluator: evaluator)) == nil)
        #expect(Self.generalRecord(line, evaluator).hasPrefix("{"))
    }

    @Test("eight bytes at a time: the lowest mark is the first byte that is not plain")
    func wordsOfEightBytes() {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        func check(_ bytes: [UInt8]) {
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let mask = RequestLineScanner.specialBytes(word)
            if let first = bytes.firstIndex(where: { !plain($0) }) {
                #expect(mask != 0 && mask.trailingZeroBitCount / 8 == first, "\(bytes)")
            } else {
                #expect(mask == 0, "\(bytes)")
            }
        }
        // Every byte value at every position of a plain word.
        for position in 0..<8 {
            for value in 0...255 {
                var bytes = Array("abcdefgh".utf8)
                bytes[position] = UInt8(value)
                check(bytes)
            }
        }
        // Words with several bytes that are not plain, borrows and all.
        var random = SplitMix64(seed: 8)
        let interesting: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61]
        for _ in 0..<50_000 { check((0..<8).map { _ in random.pick(interesting) }) }
    }

    @Test("the compact keys are the bytes of \"key\": as an eight-byte load reads them")
    func compactKeys() {
        func load(_ text: String) -> UInt64 {
            var bytes = Array(text.utf8.prefix(8))
            bytes += [UInt8](repeating: 0, count: 8 - bytes.count)
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        }
        #expect(RequestLineScanner.CompactKey.id == load("\"id\":"))
        #expect(RequestLineScanner.CompactKey.url == load("\"url\":"))
        #expect(RequestLineScanner.CompactKey.target == load("\"target\":"))
        #expect(RequestLineScanner.CompactKey.channel == load("\"channel\":"))
        #expect(RequestLineScanner.CompactKey.document == load("\"document\":"))
    }

    @Test("the known spellings of a policy read in place from its file are the IDs it names, each once, and nothing else")
    func knownSpellings() throws {
        var file = Array(#"""
            {"openInPolicy": "whitelist", "openInWhitelist": ["com.example.a", "com.example.bb", "com.ex\u0061mple.c", "com.example.a"],
             "device": {"emailPlusInstalled": true, "schemeHandlers": {"box": "com.example.box"}}}
            """#.utf8)
        let inputs = try PolicyFile.read(owning: &file, file: "p.json")
        let known = KnownSpellings(inputs.policy.whitelist, Array(inputs.policy.device.schemeHandlers.values))
        defer { known.deallocate() }
        func index(_ text: String) -> Int? { Array(text.utf8).withUnsafeBufferPointer { known.index(of: $0) } }
        let names = ["com.example.a", "com.example.bb", "com.example.c", "com.example.box"]
        #expect(known.count == names.count)
        #expect(Set(names.compactMap(index)) == Set(0..<names.count))
        for other in ["com.example.", "com.example.aa", "com.example.b", "com.ex\\u0061mple.c", "", String(repeating: "a", count: 300)] {
            #expect(index(other) == nil, "\(other)")
        }
    }

    @Test("dummy names written as bytes are the names DummyFileName makes")
    func dummyNameBytes() throws {
        let target = try BundleID("com.example.viewer")
        for document in [nil, "", "r.pdf", "R\u{E9}sum\u{E9}.docx", String(repeating: "x", count: 300)] {
            let seed = DummyFileName.seed(target: target, document: document)
            let fromBytes = document.map { Array($0.utf8).withUnsafeBufferPointer { DummyFileName.seed(target: target, documentBytes: $0) } }
                ?? DummyFileName.seed(target: target, documentBytes: nil as UnsafeBufferPointer<UInt8>?)
            #expect(fromBytes == seed)
        }
        for seed: UInt64 in [0, 1, 0xF, 0x10, UInt64.max, 0x0123_4567_89AB_CDEF, DummyFileName.seed(target: target, document: "r.pdf")] {
            var sink = RecordSink(capacity: 1)
            defer { sink.deallocate() }
            DummyFileName.appendHexAndExtension(seed: seed, to: &sink)
            #expect(DummyFileName.prefix + String(decoding: sink.bytes, as: UTF8.self) == DummyFileName.make(seed: seed))
        }
    }
}
