import Foundation
import Testing
@testable import OpenInIntune
@testable import OpenInKit

/// Text as the tools write it (UTF-8 with or without a byte order mark, UTF-16LE/BE with one, CRLF or
/// LF) reads as the same UTF-8, and a reader's line and column stay those an editor shows.
@Suite("Text encodings")
struct TextEncodingTests {
    /// `text` in UTF-16, little- or big-endian, after its byte order mark.
    static func utf16(_ text: String, bigEndian: Bool = false) -> [UInt8] {
        (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static func problem(_ bytes: [UInt8]) -> TextEncoding.Problem? {
        let result = Result { () throws(TextEncoding.Problem) in try TextEncoding.decode(bytes) }
        if case .failure(let problem) = result { return problem }
        return nil
    }

    /// ASCII, Latin-1, a character of the BMP beyond it and one beyond the BMP (a surrogate pair), over CRLF lines.
    static let text = "{\r\n  \"displayName\": \"Zoë – Ω 🔒\",\r\n  \"x\": 1\r\n}\r\n"

    @Test("UTF-8 with or without a byte order mark and UTF-16LE/BE with one decode to the same UTF-8, CRLF kept")
    func decodes() throws {
        let utf8 = Array(Self.text.utf8)
        #expect(try TextEncoding.decode(utf8) == (utf8, .utf8))
        #expect(try TextEncoding.decode([0xEF, 0xBB, 0xBF] + utf8) == (utf8, .utf8WithByteOrderMark))
        #expect(try TextEncoding.decode(Self.utf16(Self.text)) == (utf8, .utf16LittleEndian))
        #expect(try TextEncoding.decode(Self.utf16(Self.text, bigEndian: true)) == (utf8, .utf16BigEndian))
        #expect(try TextEncoding.decode([0xFF, 0xFE]) == ([], .utf16LittleEndian))
        #expect(try TextEncoding.decode([]) == ([], .utf8))
    }

    static let damaged: [(bytes: [UInt8], message: String, line: Int)] = [
        // An odd byte count: the last character is cut short (on line 2).
        (utf16("{\n}")  + [0x20], "the file is UTF-16LE (it starts with a byte order mark) but has an odd number of bytes (9): its last character is cut short; save the file as UTF-8", 2),
        // A high surrogate with no low one after it, on line 2.
        (utf16("{\n") + [0x3D, 0xD8, 0x22, 0x00], "the file is UTF-16LE (it starts with a byte order mark) but holds an unpaired surrogate, 0xD83D at byte offset 6 (a high surrogate not followed by a low one)", 2),
        // A low surrogate alone, big-endian.
        (utf16("\n\n", bigEndian: true) + [0xDC, 0x00], "the file is UTF-16BE (it starts with a byte order mark) but holds an unpaired surrogate, 0xDC00 at byte offset 6 (a low surrogate with no high one before it)", 3),
        // A high surrogate at the very end.
        (utf16("{") + [0x3D, 0xD8], "holds an unpaired surrogate, 0xD83D at byte offset 4", 1),
        // UTF-16 without a byte order mark: a zero byte in every other place.
        ("{}".utf16.flatMap { unit -> [UInt8] in [UInt8(unit), 0] }, "the file looks like UTF-16LE without a byte order mark (a zero byte in every other place), which is not read: save the file as UTF-8", 1),
        ("{}".utf16.flatMap { unit -> [UInt8] in [0, UInt8(unit)] }, "the file looks like UTF-16BE without a byte order mark", 1),
        ([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00], "the file is UTF-32 (it starts with a UTF-32 byte order mark), which is not read", 1),
        ([0x00, 0x00, 0x00, 0x7B], "the file starts with zero bytes", 1),
    ]

    @Test("a damaged UTF-16 file is refused naming what, where and the fix", arguments: damaged)
    func refuses(_ bytes: [UInt8], _ message: String, _ line: Int) {
        let problem = Self.problem(bytes)
        #expect(problem?.message.contains(message) == true, "\(problem?.message ?? "no problem")")
        #expect(problem?.line == line)
    }

    @Test("an Intune export in UTF-16 (with a byte order mark, CRLF) reads as its UTF-8 twin, and an error names the same line and column")
    func intuneLinesAndColumns() throws {
        let good = "{\r\n \"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\",\r\n \"displayName\": \"Zoë 🔒\", \"apps\": []\r\n}\r\n"
        for bytes in [Self.utf16(good), Self.utf16(good, bigEndian: true), [0xEF, 0xBB, 0xBF] + Array(good.utf8)] {
            #expect(try IntuneGraphJSON.read(bytes, file: "p.json").map(\.displayName) == ["Zoë 🔒"])
        }
        // Characters beyond ASCII before the mistake: the column counts characters, as an editor does.
        let bad = good.replacingOccurrences(of: "\"apps\": []", with: "\"printBlocked\": \"yes\", \"apps\": []")
        let expected = "p.json:3:42: printBlocked: must be true or false"
        for bytes in [Array(bad.utf8), Self.utf16(bad), Self.utf16(bad, bigEndian: true), [0xEF, 0xBB, 0xBF] + Array(bad.utf8)] {
            let result = Result { () throws(FormatError) in try IntuneGraphJSON.read(bytes, file: "p.json") }
            guard case .failure(let error) = result else {
                Issue.record("a wrong type was read")
                continue
            }
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        // A damaged file names its file, the line and the fix Windows PowerShell needs.
        let result = Result { () throws(FormatError) in try IntuneGraphJSON.read(Self.utf16(good) + [0x20], file: "p.json") }
        guard case .failure(let error) = result else {
            Issue.record("a UTF-16 file with an odd number of bytes was read")
            return
        }
        #expect(error.description.hasPrefix("p.json:5: the file is UTF-16LE"), "\(error)")
        #expect(error.description.hasSuffix("save it as UTF-8 (in Windows PowerShell 5.1, Out-File -Encoding utf8; PowerShell 7 writes UTF-8 by default)"), "\(error)")
    }

    @Test("the Intune devices file reads in UTF-16 with a byte order mark, as in UTF-8")
    func devicesFile() throws {
        let path = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent().appendingPathComponent("Examples/intune/devices.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let utf8 = try IntuneDevicesJSON.read(Array(text.utf8), file: "d.json")
        let utf16 = try IntuneDevicesJSON.read(Self.utf16(text.replacingOccurrences(of: "\n", with: "\r\n"), bigEndian: true), file: "d.json")
        #expect(utf16.devices == utf8.devices && utf16.apps.map(\.bundleID) == utf8.apps.map(\.bundleID) && !utf8.devices.isEmpty)
        let noBOM = Result { () throws(FormatError) in try IntuneDevicesJSON.read(Array(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), file: "d.json") }
        guard case .failure(let error) = noBOM else {
            Issue.record("UTF-16 without a byte order mark was read")
            return
        }
        #expect(error.description.hasPrefix("d.json:1: the file looks like UTF-16LE without a byte order mark"), "\(error)")
    }
}
