import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// The readers' rule: read exactly what CoreFoundation reads, or refuse. Each case is a file
/// shape where the readers once read something CoreFoundation does not (an `allow` the device
/// would not give, or an answer under a file no device loads). What CoreFoundation does with
/// each is asked of it here (``CoreFoundationOracle``), not remembered.
@Suite struct CoreFoundationParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// Whether CoreFoundation reads the file.
        let foundationReads: Bool
        /// `nil`: we read it (and the tree must be CoreFoundation's); else part of our error message.
        let refusal: String?
        var line: Int? = nil
        var testDescription: String { name }

        init(_ name: String, _ text: String, foundationReads: Bool, refusal: String?, line: Int? = nil) {
            self.init(name, Array(text.utf8), foundationReads: foundationReads, refusal: refusal, line: line)
        }

        init(_ name: String, _ bytes: [UInt8], foundationReads: Bool, refusal: String?, line: Int? = nil) {
            self.name = name
            self.bytes = bytes
            self.foundationReads = foundationReads
            self.refusal = refusal
            self.line = line
        }
    }

    static let override = "<key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><true/></dict>"

    /// Read with quoted attribute values skipped, one `openin`; read as CoreFoundation reads it, two (the last, `disable`, counts).
    static let hiddenOpenIn = "<key>openin</key><string>allow</string><key a=\"></key><string>x</string><key>openin</key><string>disable</string><key>\">z</key><string>y</string>"

    static func utf16(_ text: String) -> [UInt8] {
        [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static let cases: [Case] = [
        // 1. Quotes inside a tag: CoreFoundation ends the tag at the first '>'.
        Case("a quoted '>' in a key's tag", "<plist><dict><key>MI_APP_CONNECT</key><dict><key a=\">\">MI_AC_DISABLE_SCHEME_BLOCKING</key><true/></dict></dict></plist>",
             foundationReads: true, refusal: nil),
        Case("a quoted '>' hiding a second key", "<plist><dict>\(hiddenOpenIn)</dict></plist>",
             foundationReads: true, refusal: "duplicate key \"openin\"", line: 1),
        // 2. A top-level <!----> comment: CoreFoundation reads on to the next '-->'.
        Case("an empty comment before <plist>", "<!---->\n<plist><dict>\(override)<key>x</key><string><![CDATA[--><plist><dict/></plist>]]></string></dict></plist>",
             foundationReads: true, refusal: "an empty comment <!----> stands before the top element", line: 1),
        Case("'<?>' before <plist>", "<?>\n<plist><dict>\(override)<key>x</key><string><![CDATA[?><plist><dict/></plist>]]></string></dict></plist>",
             foundationReads: true, refusal: "'<?>' stands before the top element", line: 1),
        // 7. Files CoreFoundation cannot read.
        Case("a DOCTYPE internal subset", "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ATTLIST plist version CDATA \"1.0\"> ]>\n<plist><dict>\(override)</dict></plist>",
             foundationReads: false, refusal: "the DOCTYPE has an internal subset", line: 2),
        Case("<!ENTITY in a UTF-16 file", utf16("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY a \"b\"> ]>\n<plist><dict>\(override)</dict></plist>"),
             foundationReads: false, refusal: "entity definitions (<!ENTITY …>) are not allowed", line: 2),
        Case("encoding=\"UTF-16\" on UTF-8 bytes", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist><dict>\(override)</dict></plist>",
             foundationReads: false, refusal: "the encoding \"UTF-16\" is not read", line: 1),
        Case("<true a=\">\"/>", "<plist><dict><key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><true a=\">\"/></dict></dict></plist>",
             foundationReads: false, refusal: "expected </true> to close <true>", line: 1),
        Case("<true/ >", "<plist><dict><key>MI_APP_CONNECT</key><dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><true/ ></dict></dict></plist>",
             foundationReads: false, refusal: "unknown element <true/>", line: 1),
        Case("an empty <data/>", "<plist><data/></plist>", foundationReads: false, refusal: "<data/> is empty", line: 1),
        Case("a nine-digit character reference", "<plist><string>&#000000065;</string></plist>", foundationReads: false, refusal: "names no character", line: 1),
        Case("a CF$UID dictionary", "<plist><array><dict><key>CF$UID</key><integer>1</integer></dict></array></plist>",
             foundationReads: true, refusal: "a keyed archive's reference", line: 1),
        Case("UTF-16 without a byte order mark", "<plist><true/></plist>".utf8.flatMap { [$0, 0] }, foundationReads: false, refusal: "starts with a zero byte", line: 1),
        Case("an <?xml declaration cut short", "<?xml version", foundationReads: false, refusal: "runs to the end of the file", line: 1),
    ]

    @Test(arguments: cases)
    func weReadWhatCoreFoundationReadsOrRefuse(_ shape: Case) {
        let theirs = CoreFoundationOracle.shape(shape.bytes)
        #expect((theirs != nil) == shape.foundationReads, "CoreFoundation: \(theirs ?? "refused")")
        switch CoreFoundationOracle.ours(shape.bytes) {
        case .success(let tree):
            #expect(shape.refusal == nil, "we read \(tree)")
            #expect(tree == theirs)
        case .failure(let error):
            if let refusal = shape.refusal {
                #expect(error.message.contains(refusal), "\(error.message)")
                #expect(error.line == shape.line)
            } else {
                Issue.record("we refused what CoreFoundation reads alike: \(error)")
            }
        }
        #expect(CoreFoundationOracle.disagreement(shape.bytes) == nil)
    }

    /// The `allow` of the issue: the key CoreFoundation reads is `">MI_AC_DISABLE_SCHEME_BLOCKING`, no override.
    @Test func aQuotedGreaterThanDoesNotHideTextFromTheOverride() throws {
        let text = "<plist><dict><key>MI_APP_CONNECT</key><dict><key a=\">\">MI_AC_DISABLE_SCHEME_BLOCKING</key><true/></dict></dict></plist>"
        let contents = try InfoPlist.read(Array(text.utf8))
        #expect(contents.overrides.disableSchemeBlocking == false)
        guard case .dictionary(let root) = try PropertyList.read(Array(text.utf8)), case .dictionary(let section)? = root["MI_APP_CONNECT"] else {
            Issue.record("not read as a dictionary")
            return
        }
        #expect(section.keys == ["\">MI_AC_DISABLE_SCHEME_BLOCKING"])
    }

    /// The AppConnect.plist twin: CoreFoundation sees a second `openin` (the last one counts); we refuse the duplicate.
    @Test func aQuotedGreaterThanCannotHideASecondOpenIn() {
        let text = "<plist><dict><key>policy</key><dict>\(Self.hiddenOpenIn)</dict></dict></plist>"
        #expect {
            _ = try AppConnectPlist.read(Array(text.utf8))
        } throws: { error in
            (error as? FormatError)?.message.contains("duplicate key \"openin\"") == true
        }
    }

    /// Binary strings at their edges (byte order marks, surrogates, empty ones) and integers at theirs:
    /// read alike, or refused.
    @Test func binaryEdgesReadAlikeOrAreRefused() {
        let objects: [[UInt8]] = [
            [0x62, 0xFE, 0xFF, 0x00, 0x41], [0x62, 0xFF, 0xFE, 0x00, 0x41], [0x61, 0xFE, 0xFF], [0x50], [0x60], [0x40],
            [0x62, 0xD8, 0x3D, 0xDE, 0x00], [0x61, 0xDC, 0x00], [0x51, 0x00], [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0], [0x14] + [UInt8](repeating: 0, count: 8) + [0x80, 0, 0, 0, 0, 0, 0, 0],
            [0x14] + [UInt8](repeating: 0xFF, count: 16), [0x10, 0xFF], [0x11, 0xFF, 0xFF], [0x12, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x22, 0x7F, 0xC0, 0, 0], [0x23, 0x7F, 0xF8, 0, 0, 0, 0, 0, 1], [0x33, 0, 0, 0, 0, 0, 0, 0, 0], [0x08], [0x09], [0x00], [0x0F],
        ]
        for object in objects {
            let bytes = HostilePlistTests.binary([[0xA1, 1], object])
            #expect(CoreFoundationOracle.disagreement(bytes) == nil, "\(object)")
        }
    }

    /// XML leaves at their edges (number forms, references, dates, data, empty elements): read alike, or refused.
    @Test(arguments: [
        "<integer>0x</integer>", "<integer>-0</integer>", "<integer>+0x10</integer>", "<integer>0X1f</integer>", "<integer>00012</integer>",
        "<integer>-9223372036854775808</integer>", "<integer>9223372036854775807</integer>", "<integer>0xFFFFFFFFFFFFFFFF</integer>",
        "<integer> 5</integer>", "<integer>5 </integer>", "<integer>- 5</integer>", "<integer>0x7FFFFFFFFFFFFFFF</integer>", "<integer>-0x10</integer>",
        "<real>1.</real>", "<real>.5</real>", "<real>+.5e-3</real>", "<real>1e400</real>", "<real>-1e400</real>", "<real>1e-400</real>", "<real>NaN</real>",
        "<real>-nan</real>", "<real>Infinity</real>", "<real>+INF</real>", "<real>1e</real>", "<real> 1</real>", "<real>1 </real>", "<real>0.1</real>",
        "<real>&#49;.5</real>", "<real><![CDATA[2.5]]></real>", "<real>1E5</real>", "<real>-0</real>", "<real>00.5</real>", "<real>5</real>",
        "<string>&#x10FFFF;</string>", "<string>&#xD800;</string>", "<string>&#65;&#x42;&#x0043;</string>", "<string>&#12345678;</string>",
        "<string>a&#xFEFF;</string>", "<string>&#xFEFF;a</string>", "<string></string>", "<string/>", "<key>k</key>",
        "<date>2024-01-02T03:04:05Z</date>", "<date>2024-1-02T03:04:05Z</date>", "<date>2024-01-02T03:04:05</date>", "<date>-2024-01-02T03:04:05Z</date>",
        "<data>AA</data>", "<data>AA==</data>", "<data> A A = = </data>", "<data></data>", "<data>====</data>", "<data>A===</data>",
        "<true></true>", "<true> </true>", "<false/>", "<array></array>", "<dict></dict>", "<array> </array>",
    ])
    func xmlLeavesReadAlikeOrAreRefused(_ leaf: String) {
        for text in ["<plist>\(leaf)</plist>", "<plist><array>\(leaf)</array></plist>"] {
            #expect(CoreFoundationOracle.disagreement(Array(text.utf8)) == nil, "\(text)")
        }
    }

    /// The binary header: CoreFoundation reads `bplist0` and one more byte, nothing else.
    @Test func onlyVersionZeroBinaryHeadersAreRead() {
        let good = HostilePlistTests.binary([[0x09]])
        #expect(CoreFoundationOracle.shape(good) == "T")
        #expect((try? PropertyList.read(good)).map(PropertyListReaderTests.shape) == "T")
        var odd = good
        odd[7] = UInt8(ascii: "x")
        #expect(CoreFoundationOracle.shape(odd) == "T")
        #expect(CoreFoundationOracle.disagreement(odd) == nil)
        var newer = good
        newer.replaceSubrange(6..<8, with: Array("15".utf8))
        #expect(CoreFoundationOracle.shape(newer) == nil)
        #expect {
            _ = try PropertyList.read(newer)
        } throws: { error in
            (error as? FormatError)?.message.contains("its header \"bplist15\" is not 'bplist0…'") == true
        }
    }
}
