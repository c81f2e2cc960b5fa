@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// Every error that quotes input prints it escaped: a newline cannot forge a second line
/// (`allow: delivered to …`), ESC cannot drive the terminal, U+202E cannot turn text around,
/// NUL cannot cut it. The library's messages go through `Printable` (FormatError, JSONError),
/// and so does the CLI's error report.
@Suite struct PrintableErrorTests {
    /// A newline with a fake decision, ESC, a bidi override and NUL.
    static let hostile = "\nallow: delivered to com.apple.mobilemail\u{1B}[2J\u{202E}\u{0}"

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let file: [UInt8]
        let fileName: String
        var flags: [String] = []
        var testDescription: String { name }
    }

    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let jsonEscaped = "\\nallow: delivered to com.apple.mobilemail\\u001B[2J\\u202E\\u0000"

    static let cases: [Case] = [
        Case(name: "JSON duplicate key", file: utf8("{\"openInPolicy\":\"whitelist\",\"config\":{\"k\(jsonEscaped)\":\"1\",\"k\(jsonEscaped)\":\"2\"}}"), fileName: "dup.json"),
        Case(name: "JSON bytes after the value", file: utf8("{\"openInPolicy\":\"whitelist\"}\(hostile)"), fileName: "after.json"),
        Case(name: "JSON bytes outside strings", file: utf8("{\"openInPolicy\":\u{1B}\u{202E}\"whitelist\"}"), fileName: "outside.json"),
        Case(name: "XML element name", file: utf8("<plist><dict><key>policy</key><a\u{1B}[31m\u{202E}\u{0}/></dict></plist>"), fileName: "AppConnect.plist"),
        Case(name: "XML element where a key belongs", file: utf8("<plist><dict><\u{202E}\u{1B}x/></dict></plist>"), fileName: "AppConnect.plist"),
        Case(name: "XML unknown reference", file: utf8("<plist><dict><key>a&\u{1B}\u{202E}\u{0};</key><true/></dict></plist>"), fileName: "AppConnect.plist"),
        Case(name: "XML duplicate key", file: utf8("<plist><dict><key>k&#10;allow&#x1B;\u{202E}</key><true/><key>k&#10;allow&#x1B;\u{202E}</key><true/></dict></plist>"), fileName: "AppConnect.plist"),
        Case(name: "XML string value of the wrong type", file: utf8("<plist><dict><key>policy</key><string>\(hostile.replacingOccurrences(of: "\u{0}", with: ""))</string></dict></plist>"), fileName: "AppConnect.plist"),
        Case(name: "binary duplicate key", file: HostilePlistTests_binary([[0xD2, 1, 1, 2, 2], [0x5A] + Array("k\n\u{1B}[2J\u{0}abc".utf8).prefix(10), [0x09]]), fileName: "AppConnect.plist"),
        Case(name: "a look-alike --config key", file: utf8("{\"openInPolicy\":\"whitelist\"}"), fileName: "p.json", flags: ["--config", "MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING\u{202E}\u{1B}=1"]),
        Case(name: "a --scheme-handler", file: utf8("{\"openInPolicy\":\"whitelist\"}"), fileName: "p.json", flags: ["--scheme-handler", "x\u{1B}\u{202E}\n=a.b"]),
    ]

    @Test(arguments: cases)
    func errorTextIsPrintable(_ shape: Case) throws {
        let path = try TemporaryFile.write(shape.file, name: shape.fileName)
        let console = Console.memory()
        let status = CLI.run(arguments: ["eval", "--policy", path, "--channel", "copy"] + shape.flags, console: console)
        #expect(status == .invalidInput)
        let text = console.stderr.text
        #expect(text.hasPrefix("Error: "), "\(text)")
        #expect(text.hasSuffix("\n"))
        let body = text.dropLast()
        let raw = body.unicodeScalars.filter(Self.unsafe)
        #expect(raw.isEmpty, "unescaped \(raw.map { String($0.value, radix: 16) }) in \(body.debugDescription)")
        #expect(body.contains("\\u{") || body.contains("\\n") || body.contains("\\u00") || body.contains("byte 0x") || body.contains("unexpected 'a'"), "\(body)")
    }

    /// What may not reach a terminal raw, written out here independently of `Printable`: controls,
    /// bidi controls, line separators, invisible format characters.
    static func unsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0xFEFF].contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}

/// The library's one escaping function.
@Suite struct PrintableTests {
    @Test func printableEscapesAndIsIdempotent() {
        let once = Printable.text("a\nb\r\t\u{1B}\u{202E}\u{200B}\u{0}\u{85}\u{2028}é中")
        #expect(once == "a\\nb\\r\\t\\u{1B}\\u{202E}\\u{200B}\\u{0}\\u{85}\\u{2028}é中")
        #expect(Printable.text(once) == once)
        #expect(Printable.quoted("k\n\u{202E}") == "\"k\\n\\u{202E}\"")
        #expect(FormatError("bad \u{202E}key\n", line: 2, file: "f\u{1B}.json").description == "f\\u{1B}.json:2: bad \\u{202E}key\\n")
    }
}

/// A binary plist of 1-byte references (HostilePlistTests' builder).
func HostilePlistTests_binary(_ objects: [[UInt8]]) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
        offsets.append(UInt8(bytes.count))
        bytes += object
    }
    let tableStart = UInt64(bytes.count)
    bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
    for value in [UInt64(objects.count), 0, tableStart] {
        bytes += (0..<8).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) }
    }
    return bytes
}
