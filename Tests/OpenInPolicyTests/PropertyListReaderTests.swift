import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// The package's own property-list readers (XML and binary) against Foundation's
/// `PropertyListEncoder` and `PropertyListDecoder`, which the tool no longer links:
/// what Foundation writes, the readers read back exactly; what Foundation reads from
/// hand-written XML, the readers read alike; what is malformed is an error at its line.
@Suite struct PropertyListReaderTests {
    /// A property-list tree that encodes itself through `Encoder`, so Foundation can write it.
    indirect enum Tree: Encodable, Equatable {
        case dictionary([(String, Tree)])
        case array([Tree])
        case string(String)
        case integer(Int)
        case real(Double)
        case bool(Bool)

        static func == (lhs: Tree, rhs: Tree) -> Bool { lhs.shape == rhs.shape }

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .dictionary(let entries):
                var container = encoder.container(keyedBy: Key.self)
                for (key, value) in entries { try container.encode(value, forKey: Key(stringValue: key)) }
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .string(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .integer(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .real(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .bool(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            }
        }

        /// A canonical text of the tree: dictionaries in byte order of their keys, reals by their bits.
        var shape: String {
            switch self {
            case .dictionary(let entries):
                let sorted = entries.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                return "{" + sorted.map { "\(Array($0.0.utf8))=\($0.1.shape)" }.joined(separator: ",") + "}"
            case .array(let elements): return "[" + elements.map(\.shape).joined(separator: ",") + "]"
            case .string(let text): return "s\(Array(text.utf8))"
            case .integer(let number): return "i\(number)"
            case .real(let number): return "r\(number.bitPattern)"
            case .bool(let flag): return flag ? "T" : "F"
            }
        }
    }

    /// The same canonical text for what a reader gave.
    static func shape(_ value: PropertyListValue) -> String {
        switch value {
        case .dictionary(let dictionary):
            // The dictionary iterates in byte order of its keys already.
            return "{" + dictionary.map { "\(Array($0.key.utf8))=\(shape($0.value))" }.joined(separator: ",") + "}"
        case .array(let elements): return "[" + elements.map(shape).joined(separator: ",") + "]"
        case .string(let text): return "s\(Array(text.utf8))"
        case .integer(let number): return "i\(number)"
        case .real(let number): return "r\(number.bitPattern)"
        case .bool(let flag): return flag ? "T" : "F"
        case .date: return "date"
        case .data: return "data"
        }
    }

    /// Text that needs escaping in XML, non-ASCII, look-alikes and whitespace at the ends.
    static let pieces = ["a", "MI_AC_DISABLE_SCHEME_BLOCKING", "<", ">", "&", "\"", "'", "]]>", " ", "\t", "\n", "é", "e\u{301}",
                         "\u{212A}", "\u{037E}", "😀", "com.example.app", "YES", "-", "0x1F", "&amp;", "<!--", "中文"]

    static func text(_ generator: inout SplitMix64) -> String {
        (0..<generator.below(5)).map { _ in pieces[generator.below(pieces.count)] }.joined()
    }

    static func tree(_ generator: inout SplitMix64, depth: Int) -> Tree {
        switch generator.below(depth > 3 ? 4 : 6) {
        case 0: return .string(text(&generator))
        case 1:
            let numbers = [0, 1, -1, 42, 255, 256, 65_535, 65_536, Int(Int32.max), Int(Int32.max) + 1, Int.max, Int.min, -129]
            return .integer(numbers[generator.below(numbers.count)])
        case 2:
            let numbers = [0.5, -2.25, 1e-300, 3.141592653589793, 1e300, -0.125]
            return .real(numbers[generator.below(numbers.count)])
        case 3: return .bool(generator.below(2) == 0)
        case 4: return .array((0..<generator.below(4)).map { _ in tree(&generator, depth: depth + 1) })
        default:
            var keys: [String] = []
            var entries: [(String, Tree)] = []
            for _ in 0..<generator.below(5) {
                let key = text(&generator)
                // Keys differ in bytes and under canonical equivalence (Foundation merges look-alikes).
                guard !keys.contains(where: { $0 == key }) else { continue }
                keys.append(key)
                entries.append((key, tree(&generator, depth: depth + 1)))
            }
            return .dictionary(entries)
        }
    }

    @Test(arguments: [PropertyListDecoder.PropertyListFormat.xml, .binary])
    func whatFoundationWritesIsReadBackExactly(_ format: PropertyListDecoder.PropertyListFormat) throws {
        var generator = SplitMix64(seed: format == .xml ? 1 : 2)
        var checked = 0
        for _ in 0..<400 {
            let top = Tree.dictionary([("root", Self.tree(&generator, depth: 0))])
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let bytes = Array(try encoder.encode(top))
            let read = try PropertyList.read(bytes)
            #expect(Self.shape(read) == top.shape, "\(String(decoding: bytes, as: UTF8.self))")
            checked += 1
        }
        #expect(checked == 400)
    }

    /// Hand-written XML in the forms editors and tools write, each read alike by Foundation and by the reader.
    static let handWritten: [String] = [
        #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"><plist version="1.0"><dict><key>a</key><string>b</string></dict></plist>"#,
        "<plist><dict>\n  <!-- a comment -->\n  <key>k&amp;&lt;&gt;&quot;&apos;</key>\n  <string>&#65;&#x42;&#x1F600;</string>\n</dict></plist>",
        "<plist><dict><key><![CDATA[a<b]]></key><string>x<![CDATA[ & ]]>y</string></dict></plist>",
        "<plist><array><integer>0x1F</integer><integer>-42</integer><integer>+7</integer><real>2.5</real><real>-0.125</real></array></plist>",
        "<plist><array><true/><false/><true></true><string/><array/><dict/></array></plist>",
        "<dict><key>bare</key><true/></dict>",
        "\u{FEFF}<plist version=\"1.0\"><string>  spaces kept  </string></plist>",
        "<plist><dict><key>d</key><date>2024-01-02T03:04:05Z</date><key>b</key><data>AAEC\n  AwQ=</data></dict></plist>",
        "<plist><dict><key>one</key><string>é</string><key>e\u{301}x</key><string>中</string></dict></plist>",
        "<plist>\r\n<dict>\r\n<key> spaced key </key>\r\n<string>line one\r\nline two\rthree&#13;&#10;</string>\r\n</dict>\r\n</plist>\r\n",
        "<plist><array><string>   </string><string>\t</string></array></plist>",
        "<plist><array><string><![CDATA[]]></string></array></plist>",
        "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>MI_APP_CONNECT</key>\n<dict>\n<key>MI_AC_DISABLE_SCHEME_BLOCKING</key>\n<true/>\n</dict>\n</dict>\n</plist>\n",
    ]

    @Test(arguments: handWritten)
    func handWrittenXMLReadsAsFoundationReadsIt(_ text: String) throws {
        let ours = try PropertyList.read(Array(text.utf8))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let theirs = try PropertyListDecoder().decode(FoundationValue.self, from: Data(text.utf8), format: &format)
        #expect(Self.shape(ours) == theirs.shape)
    }

    @Test func utf16WithAByteOrderMarkReadsAsUTF8() throws {
        let text = "<plist><dict><key>k\u{212A}</key><string>v</string></dict></plist>"
        for bigEndian in [true, false] {
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in text.utf16 { bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            #expect(try Self.shape(PropertyList.read(bytes)) == Self.shape(PropertyList.read(Array(text.utf8))))
        }
    }

    @Test func aWholeNumberRealStaysAReal() throws {
        // Foundation's decoder cannot tell <real>1</real> from <integer>1</integer>; the reader can.
        guard case .array(let elements) = try PropertyList.read(Array("<plist><array><real>1</real><integer>1</integer></array></plist>".utf8)) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.map(Self.shape) == ["r\(1.0.bitPattern)", "i1"])
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        let text: String
        let message: String
        let line: Int?
        /// Foundation reads this one; the reader is stricter here, on purpose (an error, never a guess).
        var foundationReadsIt = false
        var testDescription: String { message }
    }

    static let malformed: [Malformed] = [
        Malformed(text: "<plist><dict><key>a</key><frob/></dict></plist>", message: "unknown element <frob>", line: 1),
        Malformed(text: "<plist><dict>\n<key>a</key>\n</dict></plist>", message: "the value is missing for key \"a\" inside <dict>", line: 2),
        Malformed(text: "<plist><dict><key>a</key><key>b</key><true/></dict></plist>", message: "the value is missing for key \"a\"", line: 1),
        Malformed(text: "<plist><dict><string>a</string></dict></plist>", message: "<string> stands where a <key> belongs", line: 1),
        Malformed(text: "<plist><dict>text<key>a</key><true/></dict></plist>", message: "text 't' stands where an element belongs", line: 1),
        Malformed(text: "<plist><array><string>a</array></plist>", message: "expected </string>", line: 1),
        Malformed(text: "<plist><array>\n<string>a</string>\n", message: "<array> (line 1) is not closed", line: 3),
        Malformed(text: "<plist><integer>12a</integer></plist>", message: "<integer> \"12a\" is not an integer", line: 1),
        Malformed(text: "<plist><integer> 1 </integer></plist>", message: "<integer> \" 1 \" is not an integer", line: 1),
        Malformed(text: "<plist><integer></integer></plist>", message: "is not an integer", line: 1),
        Malformed(text: "<plist><integer>99999999999999999999</integer></plist>", message: "is not an integer", line: 1),
        Malformed(text: "<plist><real>one</real></plist>", message: "<real> \"one\" is not a number", line: 1),
        Malformed(text: "<plist><string>a &bogus; b</string></plist>", message: "unknown character reference &bogus;", line: 1),
        Malformed(text: "<plist><string>a & b</string></plist>", message: "starts no character reference", line: 1),
        Malformed(text: "<plist><string>a<b/>c</string></plist>", message: "<string> holds an element", line: 1),
        Malformed(text: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>a</string></plist>", message: "the encoding \"ISO-8859-1\" is not read", line: 1, foundationReadsIt: true),
        Malformed(text: "<plist></plist>", message: "the <plist> element is empty", line: 1),
        Malformed(text: "<plist><true/><false/></plist>", message: "expected </plist>", line: 1),
        Malformed(text: "<plist><true/></plist>\n<plist><true/></plist>", message: "there is more after the property list's value", line: 2, foundationReadsIt: true),
        Malformed(text: "<plist><date>yesterday</date></plist>", message: "is not a date", line: 1),
        Malformed(text: "<plist><data>!!!!</data></plist>", message: "<data> does not hold base64", line: 1, foundationReadsIt: true),
        Malformed(text: "<plist><key>a</key></plist>", message: "a <key> stands where a value belongs", line: 1, foundationReadsIt: true),
        Malformed(text: "<plist><!-- open", message: "a comment is not closed", line: 1),
        // Foundation refuses these too.
        Malformed(text: "<plist><string>a<!-- c -->b</string></plist>", message: "<string> holds a comment", line: 1),
    ]

    @Test(arguments: malformed)
    func malformedXMLIsAnErrorAtItsLine(_ bad: Malformed) {
        #expect {
            _ = try PropertyList.read(Array(bad.text.utf8))
        } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.message.hasPrefix("not a valid property list (XML or binary): ") && error.message.contains(bad.message) && error.line == bad.line
        }
        // Where the reader is stricter than Foundation, the case says so: every other one Foundation refuses too.
        var format = PropertyListSerialization.PropertyListFormat.xml
        let foundation = (try? PropertyListSerialization.propertyList(from: Data(bad.text.utf8), options: [], format: &format)) != nil
        #expect(foundation == bad.foundationReadsIt)
    }

    /// The reader finds repeated and look-alike keys itself, in small and large dictionaries, at the key's line.
    @Test(arguments: [3, 16, 17, 40])
    func repeatedAndLookAlikeKeysAreErrorsAtTheirLine(_ size: Int) {
        let filler = (0..<size).map { "<key>k\($0)</key><true/>" }.joined(separator: "\n")
        let cases = [("<key>k0</key><false/>", "duplicate key \"k0\" in a <dict> (first at line 2)"),
                     ("<key>\u{212A}</key><false/>", "the keys \"K\" (line 1) and \"\u{212A}\" in one <dict> are different bytes that look the same")]
        for (late, message) in cases {
            let text = "<plist><dict><key>K</key><true/>\n\(filler)\n\(late)</dict></plist>"
            #expect {
                _ = try PropertyList.read(Array(text.utf8))
            } throws: { error in
                guard let error = error as? FormatError else { return false }
                return error.message.hasPrefix("not a valid property list: ") && error.message.contains(message) && error.line == size + 2
            }
        }
    }

    @Test func arraysMayNest512LevelsAndNoMore() throws {
        func nested(_ levels: Int) -> [UInt8] {
            Array(("<plist>" + String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels) + "</plist>").utf8)
        }
        _ = try PropertyList.read(nested(512))
        #expect {
            _ = try PropertyList.read(nested(513))
        } throws: { error in
            (error as? FormatError)?.message == "not a valid property list (XML or binary): too many nested arrays or dictionaries, failing on line 1"
        }
    }

    @Test func bytesThatAreNotUTF8AreAnError() {
        let bytes = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        #expect {
            _ = try PropertyList.read(bytes)
        } throws: { error in
            (error as? FormatError)?.message.contains("holds bytes that are not UTF-8") == true
        }
    }

    @Test func binaryValuesTheReaderRefusesAreErrors() {
        let cases: [([[UInt8]], String)] = [
            ([[0xA1, 1], [0x00]], "it holds a null"),
            ([[0xA1, 1], [0x81, 0x01]], "it holds a UID"),
            ([[0xA1, 1], [0x52, 0x61, 0xC3]], "a string marked ASCII holds a byte over 0x7F"),
            ([[0xA1, 1], [0x61, 0xD8, 0x00]], "a UTF-16 string holds an unpaired surrogate"),
            ([[0xA1, 1], [0x14] + [UInt8](repeating: 0x12, count: 16)], "an integer that does not fit in 64 bits"),
            ([[0xA1, 1], [0x70]], "an object of unknown kind"),
        ]
        for (objects, message) in cases {
            #expect {
                _ = try PropertyList.read(HostilePlistTests.binary(objects))
            } throws: { error in
                guard let error = error as? FormatError else { return false }
                return error.message.hasPrefix("not a valid binary property list: ") && error.message.contains(message)
            }
        }
    }
}

/// Foundation's reading of a property list, as the tool read plists before it had its own readers.
private struct FoundationValue: Decodable {
    let shape: String

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            let entries = try keyed.allKeys.map { ($0.stringValue, try keyed.decode(FoundationValue.self, forKey: $0).shape) }
                .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            shape = "{" + entries.map { "\(Array($0.0.utf8))=\($0.1)" }.joined(separator: ",") + "}"
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [String] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(FoundationValue.self).shape) }
            shape = "[" + elements.joined(separator: ",") + "]"
            return
        }
        let single = try decoder.singleValueContainer()
        if let flag = try? single.decode(Bool.self) {
            shape = flag ? "T" : "F"
        } else if let number = try? single.decode(Int.self) {
            shape = "i\(number)"
        } else if let number = try? single.decode(Double.self) {
            shape = "r\(number.bitPattern)"
        } else if let text = try? single.decode(String.self) {
            shape = "s\(Array(text.utf8))"
        } else if (try? single.decode(Date.self)) != nil {
            shape = "date"
        } else {
            _ = try single.decode(Data.self)
            shape = "data"
        }
    }
}
