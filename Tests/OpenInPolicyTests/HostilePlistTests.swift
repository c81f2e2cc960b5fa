import Foundation
import OpenInPolicy
import Testing

/// Property lists built to hurt the reader: each must be an error with its
/// exact message, found before Foundation is handed the bytes where Foundation
/// would use unbounded memory or time. These are also the regression inputs
/// of the plist fuzz targets (Tests/Fuzz/appconnect-plist, info-plist).
@Suite struct HostilePlistTests {
    /// `bplist00`, the objects, a 1-byte offset table and the trailer; the top object is the first.
    static func binary(_ objects: [[UInt8]], referenceSize: UInt8 = 1, objectCount: UInt64? = nil, top: UInt64 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableStart = UInt64(bytes.count)
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, referenceSize]
        for value in [objectCount ?? UInt64(objects.count), top, tableStart] {
            bytes += (0..<8).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) }
        }
        return bytes
    }

    static let policyKey: [UInt8] = [0x56] + Array("policy".utf8)
    static let openInKey: [UInt8] = [0x56] + Array("openin".utf8)
    static let disable: [UInt8] = [0x57] + Array("disable".utf8)

    static let offsetSizeZero: [UInt8] = {
        var bytes = binary([[0xD0]])
        bytes[bytes.count - 26] = 0
        return bytes
    }()

    static let offsetInHeader: [UInt8] = {
        var bytes = binary([[0xD0]])
        bytes[9] = 2  // the offset table's one entry
        return bytes
    }()

    static let sharedOverAndOver: [UInt8] = {
        var objects: [[UInt8]] = []
        for level in 0..<40 { objects.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
        objects.append([0x08])
        return binary(objects)
    }()

    /// libFuzzer's input (info-plist target, one bit flipped in Examples/Info-binary.plist): a set of four
    /// objects at the top, which made Foundation's bridging to Swift read a wild pointer (SIGSEGV).
    static let fuzzedSet = """
        YnBsaXN0MDDEAQIDBAUGBwxfEBJDRkJ1bmRsZUnUAQIDBAUGBwxfEBJDRkJ1bmRsZUlkZW50aWZpZXJcQ0ZCdW5kbGVOYW1lXxAQQ0ZCdW5kbGxVUkxUeXBl\
        c15NSV9BUFBfQ09OTkVDVF8QF2NvbS5DRkJ1bmRsZVVSTFNjaGVtZXOhC1tzZWN1cmVub3Rlc9ENDl8QHU1JX0FDX0RJU0FCTEVfU0NIRU1FX0L0AAAAU0FC\
        TEVfU0NIRU1FX0L0AAAAAAAAAAgRJjJGVW88P3htbKOmxgAAAAAAAAEBAAAAAAAAAA8AAAAAAAAAAAAAAAAAAADH
        """

    static let deepXML: [UInt8] = Array(("<plist>" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "</plist>").utf8)

    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let bytes: [UInt8]
        let message: String
    }

    static let cases: [Case] = [
        Case(description: "shorter than a trailer", bytes: Array("bplist00".utf8) + [0xD0],
             message: "not a valid binary property list: it is shorter than the smallest binary property list"),
        Case(description: "offset size 0", bytes: offsetSizeZero,
             message: "not a valid binary property list: its trailer is corrupt (offset size 0, reference size 1)"),
        Case(description: "more objects than bytes", bytes: binary([[0xD0]], objectCount: 1 << 40),
             message: "not a valid binary property list: its trailer is corrupt (the objects or the offset table lie outside the file)"),
        Case(description: "the top object is not an object", bytes: binary([[0xD0]], top: 1),
             message: "not a valid binary property list: its trailer is corrupt (the objects or the offset table lie outside the file)"),
        Case(description: "a reference to no object", bytes: binary([[0xD1, 1, 7], policyKey]),
             message: "not a valid binary property list: a reference points at no object"),
        Case(description: "a dictionary that holds itself", bytes: binary([[0xD1, 1, 0], policyKey]),
             message: "not a valid binary property list: an object contains itself"),
        Case(description: "a long count past the end", bytes: binary([[0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]),
             message: "not a valid binary property list: a collection is longer than the file"),
        Case(description: "a count with a bad marker", bytes: binary([[0xAF, 0x55]]),
             message: "not a valid binary property list: a collection's length is corrupt"),
        Case(description: "more references than bytes", bytes: binary([[0xAE, 1, 1]]),
             message: "not a valid binary property list: a collection's references lie outside the object area"),
        Case(description: "an object offset inside the header", bytes: offsetInHeader, message: "not a valid binary property list: an object's offset lies outside the object area"),
        Case(description: "2^40 values from 41 objects", bytes: sharedOverAndOver,
             message: "not a valid binary property list: it expands to more than 100000 values (objects shared over and over)"),
        Case(description: "a string longer than the file", bytes: binary([[0xD1, 1, 2], policyKey, [0x5F, 0x10, 0xFF]]),
             message: "not a valid binary property list: it is truncated or corrupt"),
        Case(description: "a set, on which Foundation crashed (fuzz: info-plist)", bytes: binary([[0xC1, 1], [0x51, 0x61]]),
             message: "not a valid binary property list: it holds a set, which property lists do not have"),
        Case(description: "the info-plist fuzzer's crash", bytes: Array(Data(base64Encoded: fuzzedSet)!),
             message: "not a valid binary property list: it holds a set, which property lists do not have"),
        Case(description: "a dictionary key that is a dictionary", bytes: binary([[0xD1, 1, 2], [0xD0], [0x51, 0x61]]),
             message: "not a valid binary property list: a dictionary has a key that is not a string"),
        Case(description: "XML nested 10000 deep", bytes: deepXML,
             message: "not a valid property list (XML or binary): too many nested arrays or dictionaries, failing on line 1"),
        Case(description: "XML entity definitions",
             bytes: Array("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY a \"allow\">\n]>\n<plist><dict/></plist>\n".utf8),
             message: "entity definitions (<!ENTITY …>) are not allowed in a property list"),
        Case(description: "an OpenStep text plist", bytes: Array("{policy = {openin = disable;};}".utf8),
             message: "not a valid property list (XML or binary): it starts with neither '<' nor 'bplist' (OpenStep text property lists are not read; convert one with 'plutil -convert xml1')"),
    ]

    @Test(arguments: cases)
    func rejected(_ hostile: Case) {
        #expect(throws: FormatError.self) { try AppConnectPlist.read(hostile.bytes) }
        do {
            _ = try InfoPlist.read(hostile.bytes)
            Issue.record("read")
        } catch {
            #expect(error.message == hostile.message)
        }
    }

    @Test func theBuilderMakesPlistsFoundationReads() throws {
        let bytes = Self.binary([[0xD1, 1, 2], Self.policyKey, [0xD1, 3, 4], Self.openInKey, Self.disable])
        #expect(try AppConnectPlist.read(bytes).setting == .status(.unauthorized))
    }

    @Test func sharedObjectsWithinTheLimitAreRead() throws {
        // policy = {openin = disable; extra = ten levels of an array holding the next one twice}: 2^10 values, under the limit.
        var objects: [[UInt8]] = [[0xD1, 1, 2], Self.policyKey, [0xD2, 3, 5, 4, 6], Self.openInKey, Self.disable, [0x55] + Array("extra".utf8)]
        for level in 0..<9 { objects.append([0xA2, UInt8(7 + level), UInt8(7 + level)]) }
        objects.append([0x08])
        #expect(try AppConnectPlist.read(Self.binary(objects)).setting == .status(.unauthorized))
    }

    @Test func entityLineIsReported() {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY a \"allow\">\n]>\n<plist><dict/></plist>\n"
        #expect(throws: FormatError("entity definitions (<!ENTITY …>) are not allowed in a property list", line: 3)) {
            try InfoPlist.read(Array(text.utf8))
        }
    }
}
