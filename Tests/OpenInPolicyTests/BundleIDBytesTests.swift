import OpenInPolicy
import Testing

/// Which bytes a bundle ID may hold, byte by byte, against the rule written out here with
/// character ranges (the library tests a byte with two bit masks).
@Suite struct BundleIDBytesTests {
    static func allowed(_ byte: UInt8) -> Bool {
        let character = Character(Unicode.Scalar(byte))
        return ("a"..."z").contains(character) || ("A"..."Z").contains(character) || ("0"..."9").contains(character)
            || character == "-" || character == "_"
    }

    @Test func everyByteIsAllowedOnlyWhereTheRuleSays() {
        for value in 0...255 {
            let byte = UInt8(value)
            let text = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
            let expected = Self.allowed(byte) || byte == UInt8(ascii: ".")
            #expect((BundleID.problem(in: text) == nil) == expected, "byte 0x\(String(value, radix: 16))")
            // The bytes themselves, as a policy file's in-place reading checks them.
            let decoded = (try? PolicyJSON.read(Array("{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\"a".utf8) + (byte == 0x22 || byte == 0x5C || byte < 0x20 ? [] : [byte]) + Array("b\"]}".utf8))) != nil
            if byte >= 0x20, byte != 0x22, byte != 0x5C, byte < 0x80 { #expect(decoded == expected, "in a file: byte 0x\(String(value, radix: 16))") }
        }
    }
}
