import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// Every error path of the property-list readers, each with its message and its line, and each
/// checked against CoreFoundation: it refuses the file too, or the case says where we are
/// stricter (the list the Security article gives).
@Suite struct ReaderErrorPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let message: String
        let line: Int?
        /// CoreFoundation reads this one: we are stricter, on purpose.
        var stricter = false
        var testDescription: String { message }

        init(_ text: String, _ message: String, line: Int?, stricter: Bool = false) {
            self.init(Array(text.utf8), message, line: line, stricter: stricter)
        }

        init(_ bytes: [UInt8], _ message: String, line: Int?, stricter: Bool = false) {
            self.bytes = bytes
            self.message = message
            self.line = line
            self.stricter = stricter
        }
    }

    static let xml: [Case] = [
        Case("<plist>\n<array>\n<!ENTITY x \"y\">", "entity definitions (<!ENTITY …>) are not allowed in a property list", line: 3),
        Case([0xFF, 0xFE, 0, 0, 0x3C, 0, 0, 0], "it is UTF-32, which this reader does not read", line: 1),
        Case(Array("<plist><true/></plist>".utf8.flatMap { [$0, 0] }), "it starts with a zero byte (UTF-16 without a byte order mark?)", line: 1),
        Case("<?xml version", "the <?xml …?> declaration runs to the end of the file", line: 1),
        Case("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist><true/></plist>", "the encoding \"ISO-8859-1\" is not read", line: 1, stricter: true),
        Case([0xFE, 0xFF, 0x00, 0x3C, 0x00], "it is UTF-16 with an odd number of bytes", line: nil),
        Case([0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x3C], "it is UTF-16 with an unpaired surrogate", line: nil),
        Case("<!-- only -->\n", "it holds no value (no <plist> element)", line: 2),
        Case("<plist/>", "the <plist> element is empty: it must hold one value", line: 1),
        Case("<plist>\n", "the <plist> element is not closed", line: 2),
        Case("<plist>\n</plist>", "the <plist> element is empty: it must hold one value", line: 1),
        Case("<plist><true/></plist>\n<x/>", "there is more after the property list's value", line: 2, stricter: true),
        Case("<?xml version=\"1.0\"?>\n<!---->\n<plist><true/></plist><!-- -->", "an empty comment <!----> stands before the top element", line: 2),
        Case("<?>\n<plist><true/></plist><?x?>", "'<?>' stands before the top element", line: 1),
        Case("<plist>\nx<true/></plist>", "text 'x' stands where an element belongs", line: 2),
        Case("<plist>\n<!-- open", "a comment is not closed (no '-->')", line: 2),
        Case("<plist>\n<?open", "a processing instruction is not closed (no '?>')", line: 2),
        Case("<!DOCTYPE plist [\n]>\n<plist><true/></plist>", "the DOCTYPE has an internal subset", line: 1),
        Case("<!DOCTYPE plist", "the DOCTYPE is not closed", line: 1),
        Case("</plist>", "an end tag stands where a value belongs", line: 1),
        Case("<plist>\n<array", "the <array> tag is not closed (no '>')", line: 2),
        Case("<plist>\n< true/></plist>", "a '<' does not start an element", line: 2),
        Case("<plist>\n<array>\n", "<array> (line 2) is not closed", line: 3),
        Case("<plist><array>\n</dict></plist>", "expected </array> to close <array> (line 1)", line: 2),
        Case("<plist><array></array x></plist>", "the </array> tag is malformed", line: 1),
        Case("<plist><dict>\n<string>a</string></dict></plist>", "<string> stands where a <key> belongs inside <dict> (line 1)", line: 2),
        Case("<plist><dict>\n<key>a</key></dict></plist>", "the value is missing for key \"a\" inside <dict>", line: 2),
        Case("<plist><dict>\n<key>a</key><key>b</key><true/></dict></plist>", "the value is missing for key \"a\" inside <dict>", line: 2),
        Case("<plist>\n<dict><key>CF$UID</key><integer>1</integer></dict></plist>", "a <dict> whose one key is CF$UID holding an <integer>", line: 2, stricter: true),
        Case("<plist>\n<key>a</key></plist>", "a <key> stands where a value belongs", line: 2, stricter: true),
        Case("<plist>\n<true>x</true></plist>", "<true> holds text; write <true/>", line: 2),
        Case("<plist>\n<false><![CDATA[]]></false></plist>", "<false> holds a character reference or CDATA", line: 2),
        Case("<plist>\n<date>yesterday</date></plist>", "<date> \"yesterday\" is not a date", line: 2),
        Case("<plist>\n<data/></plist>", "<data/> is empty; write <data></data> for no bytes", line: 2),
        Case("<plist>\n<data>!!!!</data></plist>", "<data> does not hold base64", line: 2, stricter: true),
        Case("<plist><array>\n<plist><true/></plist></array></plist>", "a <plist> stands inside another", line: 2, stricter: true),
        Case("<plist>\n<frob/></plist>", "unknown element <frob>", line: 2),
        Case("<plist>\n<integer>&#49;</integer></plist>", "<integer> holds a character reference or CDATA", line: 2),
        Case("<plist>\n<date><![CDATA[2024-01-02T03:04:05Z]]></date></plist>", "<date> holds a character reference or CDATA", line: 2),
        Case("<plist>\n<string>a<!-- c -->b</string></plist>", "<string> holds a comment", line: 2),
        Case("<plist>\n<string><![CDATA[open</string></plist>", "a CDATA section is not closed (no ']]>')", line: 2),
        Case(Array("<plist>\n<string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8), "<string> holds bytes that are not UTF-8", line: 2),
        Case("<plist>\n<string>\u{FEFF}a</string></plist>", "<string> starts with U+FEFF (a byte order mark)", line: 2, stricter: true),
        Case("<plist>\n<string>a<b/>c</string></plist>", "<string> holds an element; it may hold only text", line: 2),
        Case("<plist>\n<string>open", "<string> (line 2) is not closed", line: 2),
        Case("<plist>\n<string>a & b</string></plist>", "an '&' starts no character reference", line: 2),
        Case("<plist>\n<string>&bogus;</string></plist>", "unknown character reference &bogus;", line: 2),
        Case("<plist>\n<string>&#0;</string></plist>", "the character reference &#0; names no character", line: 2, stricter: true),
        Case("<plist>\n<integer>12a</integer></plist>", "<integer> \"12a\" is not an integer", line: 2),
        Case("<plist>\n<integer>-9223372036854775809</integer></plist>", "<integer> \"-9223372036854775809\" is out of range", line: 2),
        Case("<plist>\n<integer>9223372036854775808</integer></plist>", "is out of range (above 9223372036854775807)", line: 2, stricter: true),
        Case("<plist>\n<real>0x1p3</real></plist>", "<real> \"0x1p3\" is not a number", line: 2),
        Case("<plist>" + String(repeating: "<array>", count: 513) + String(repeating: "</array>", count: 513) + "</plist>",
             "too many nested arrays or dictionaries, failing on line 1", line: nil),
    ]

    @Test(arguments: xml)
    func eachXMLErrorHasItsMessageAndLine(_ bad: Case) {
        #expect {
            _ = try PropertyList.read(bad.bytes)
        } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.message.contains(bad.message) && error.line == bad.line
        }
        if let error = Result(catching: { try PropertyList.read(bad.bytes) }).failureText {
            #expect(error.contains(bad.message), "\(error)")
        }
        #expect((CoreFoundationOracle.shape(bad.bytes) != nil) == bad.stricter, "CoreFoundation: \(CoreFoundationOracle.shape(bad.bytes) ?? "refused")")
    }

    typealias Binary = PropertyListBoundsTests

    /// Binary error paths no other test reaches: each with CoreFoundation's verdict.
    static let binary: [Case] = [
        // The trailer says one object, but two offsets' room lies before it.
        Case({ var bytes = Binary.binary([[0x09], [0x08]]); bytes[bytes.count - 17] = 1; return bytes }(),
             "its trailer is corrupt (the offset table does not end where the trailer starts)", line: nil),
        // A string key whose length runs past the objects.
        Case(Binary.binary([[0xD1, 0, 0, 0, 2, 0, 0, 0, 1], [0x09], [0x5F, 0x10, 0x05, 0x41]]), "a string lies outside the object area", line: nil),
        // A string key whose length integer runs past the objects.
        Case(Binary.binary([[0xD1, 0, 0, 0, 2, 0, 0, 0, 1], [0x09], [0x5F, 0x13, 0x00]]), "a string's length lies outside the object area", line: nil),
        Case(Binary.binary([[0xA1, 0, 0, 0, 1], [0x60]]), "it holds an empty UTF-16 string, which CoreFoundation cannot read", line: nil),
        // Keys "K" (ASCII) and KELVIN SIGN (UTF-16): canonically equivalent, different bytes.
        Case(Binary.binary([[0xD2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 3], [0x51, 0x4B], [0x61, 0x21, 0x2A], [0x09]]),
             "keys 1 and 2 of the dictionary at byte offset 8 are different bytes that look the same", line: nil, stricter: true),
    ]

    @Test(arguments: binary)
    func eachBinaryErrorHasItsMessage(_ bad: Case) {
        let failure = Result(catching: { try PropertyList.read(bad.bytes) }).failureText
        #expect(failure?.hasPrefix("not a valid binary property list: ") == true, "\(failure ?? "read")")
        #expect(failure?.contains(bad.message) == true, "\(failure ?? "read")")
        #expect((CoreFoundationOracle.shape(bad.bytes) != nil) == bad.stricter, "CoreFoundation: \(CoreFoundationOracle.shape(bad.bytes) ?? "refused")")
    }
}

private extension Result where Failure == any Error {
    init(catching body: () throws -> Success) {
        do { self = .success(try body()) } catch { self = .failure(error) }
    }

    var failureText: String? {
        if case .failure(let error) = self { return (error as? FormatError)?.message ?? "\(error)" }
        return nil
    }
}
