@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// ``RequestStream``: one record per line, in order; the fast path writes the general path's bytes;
/// the streamed JSON array is the array the records make.
@Suite struct RequestStreamTests {
    static let inputs: PolicyInputs = {
        var device = DeviceFacts()
        device.emailPlusInstalled = true
        try! device.setHandler(BundleID("com.example.box"), for: "box")
        return PolicyInputs(Policy(status: .whitelist, whitelist: try! Whitelist(parsing: ["com.example.viewer", "com.example.box"]), device: device))
    }()

    /// Plain lines, lines only the general path reads, invalid lines, and a skipped long line.
    static let lines: [RequestStream.Line] = [
        #"{"id":"a-1","channel":"quick-look","target":"com.example.viewer","document":"r.pdf"}"#,
        #"{"id":"caf\u00e9","channel":"document-interaction","target":"com.example.other","document":"caf\u00e9.pdf"}"#,
        // Escapes in a request the fast path remembers (a known target, no URL): the second time, from its memo.
        #"{"id":"caf\u00e9-2","channel":"quick\u002Dlook","target":"com.example.viewer","document":"r\u00e9.pdf"}"#,
        #"{"id":"caf\u00e9-3","channel":"document\u002Dinteraction","target":"com.example.\u0062ox","document":"s\u00e9.pdf"}"#,
        #"{"channel":"open-url","url":"mailto:a@example.com"}"#,
        "", "not json", #"{"channel":"open-in"}"#,
        #"{"id":7,"channel":"drag-and-drop","target":"com.example.box"}"#,
        "{\"channel\":\"quick-look\",\"target\":\"com.example.viewer\",\"document\":\"line\u{2028}sep\"}",
    ].map { .bytes(ArraySlice($0.utf8)) } + [.tooLong, .bytes(ArraySlice(#"{"channel":"mail-compose"}"#.utf8))]

    static func run(_ format: RequestStream.Format, explain: Bool = false, fastPath: Bool) -> (bytes: [UInt8], stream: RequestStream) {
        let stream = RequestStream(policy: inputs, format: format, explain: explain, maxLineLength: 100, fastPath: fastPath)
        var bytes: [UInt8] = []
        for line in lines { stream.withRecord(for: line) { bytes.append(contentsOf: $0) } }
        bytes += stream.finish()
        return (bytes, stream)
    }

    @Test("the fast path and the general path write the same bytes, in every format")
    func fastAndGeneralAgree() {
        for format in [RequestStream.Format.jsonLines, .jsonArray] {
            for explain in [false, true] {
                #expect(Self.run(format, explain: explain, fastPath: true).bytes == Self.run(format, explain: explain, fastPath: false).bytes)
            }
        }
    }

    @Test("one JSON Lines record per line, in order, and the counts")
    func oneRecordPerLine() throws {
        let (bytes, stream) = Self.run(.jsonLines, fastPath: true)
        let records = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        #expect(records.count == Self.lines.count)
        #expect(stream.lineCount == Self.lines.count)
        #expect(stream.invalidCount == 4)
        let entries = RequestStream(policy: Self.inputs, format: .jsonLines, explain: false, maxLineLength: 100, fastPath: false)
        for (number, (record, line)) in zip(records, Self.lines).enumerated() {
            let entry = entries.entry(for: line)
            #expect(entry.line == number + 1)
            let value = try JSONReader().read(record)
            if let error = entry.error {
                #expect(value == .object(DecisionRecord.error(line: number + 1, id: entry.id, message: error)))
            } else {
                #expect(value == .object(DecisionRecord.json(try #require(entry.decision), id: entry.id)))
            }
        }
        #expect(stream.entry(for: .tooLong).error == "the line is longer than 100 bytes")
    }

    @Test("the streamed JSON array is the indented array of the records, and [] for no line")
    func streamedArray() throws {
        let (bytes, _) = Self.run(.jsonArray, explain: true, fastPath: true)
        let whole = String(decoding: bytes, as: UTF8.self)
        let records = Self.run(.jsonLines, explain: true, fastPath: false).bytes
            .split(separator: UInt8(ascii: "\n")).map { try! JSONReader().read($0) }
        #expect(whole == JSONWriter.pretty(.array(JSONArray(records))) + "\n")
        #expect(RequestStream(policy: Self.inputs, format: .jsonArray).finish() == Array("[]\n".utf8))
    }

    @Test("a block of lines split between threads gives the records of deciding the lines one by one")
    func blocksAndThreads() {
        // Every kind of line, many times over, with CRLF ends, a long line and a last line without its line break.
        var text = ""
        for round in 0..<300 {
            for case .bytes(let line) in Self.lines { text += String(decoding: line, as: UTF8.self) + (round % 3 == 0 ? "\r\n" : "\n") }
            text += "{\"id\":\"" + String(repeating: "x", count: 120) + "\",\"channel\":\"mail-compose\"}\n"
        }
        text += #"{"channel":"mail-compose"}"#
        let block = Array(text.utf8)
        for format in [RequestStream.Format.jsonLines, .jsonArray] {
            for explain in [false, true] {
                // One line at a time, as the reference.
                let single = RequestStream(policy: Self.inputs, format: format, explain: explain, maxLineLength: 100, fastPath: true, threads: 1)
                var expected: [UInt8] = []
                let general = RequestStream(policy: Self.inputs, format: format, explain: explain, maxLineLength: 100, fastPath: false, threads: 1)
                var generalBytes: [UInt8] = []
                // (Split as bytes: "\r\n" is one Character of a String.)
                for line in block.split(separator: 0x0A, omittingEmptySubsequences: false) {
                    var bytes = Array(line)
                    if bytes.last == 0x0D { bytes.removeLast() }
                    single.withRecord(for: bytes.count > 100 ? .tooLong : .bytes(bytes[...])) { expected.append(contentsOf: $0) }
                    general.withRecord(for: bytes.count > 100 ? .tooLong : .bytes(bytes[...])) { generalBytes.append(contentsOf: $0) }
                }
                // The fast path's memo (its records of requests seen before) writes the general path's bytes too.
                #expect(expected == generalBytes, "\(format), explain \(explain): the fast path differs from the general path")
                for threads in [1, 2, 3] {
                    let stream = RequestStream(policy: Self.inputs, format: format, explain: explain, maxLineLength: 100, fastPath: true, threads: threads)
                    var written: [UInt8] = []
                    // In two blocks, so numbering goes on from one block to the next.
                    let middle = block[..<(block.count / 2)].lastIndex(of: 0x0A)! + 1
                    block[..<middle].withUnsafeBufferPointer { stream.withRecords(forLinesIn: $0) { written.append(contentsOf: $0) } }
                    block[middle...].withUnsafeBufferPointer { stream.withRecords(forLinesIn: $0) { written.append(contentsOf: $0) } }
                    written += stream.finish()
                    let whole = expected + single.finish()
                    if written != whole {
                        let at = zip(written, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, whole.count)
                        let got = String(decoding: written[max(0, at - 80)..<min(written.count, at + 80)], as: UTF8.self)
                        let wanted = String(decoding: whole[max(0, at - 80)..<min(whole.count, at + 80)], as: UTF8.self)
                        Issue.record("\(format), explain \(explain), \(threads) threads: differs at byte \(at) of \(whole.count): \(got) / expected \(wanted)")
                    }
                    #expect(stream.lineCount == single.lineCount && stream.invalidCount == single.invalidCount
                            && stream.notAllowedCount == single.notAllowedCount)
                }
            }
        }
    }

    @Test("JSONWriter appends in amortised constant time: a long string's escapes do not copy the output per escape")
    func writerIsLinear() throws {
        // 200,000 escapes: a copy of the output per escape would write ~10^11 bytes; linear writing takes milliseconds.
        let text = String(repeating: "a\u{01}é\n", count: 200_000)
        let written = JSONWriter.quoted(text)
        #expect(written.utf8.count == 2 + 200_000 * (1 + 6 + 2 + 2))
        #expect(try JSONReader().read("[" + written + "]") == .array(JSONArray([.string(text)])))
    }
}
