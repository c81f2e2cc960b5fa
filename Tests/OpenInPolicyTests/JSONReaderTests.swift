import Foundation
import OpenInPolicy
import Testing

@Suite struct JSONReaderTests {
    let reader = JSONReader()

    @Test func readsEveryKindOfValue() throws {
        let value = try reader.read(#"{"a": [1, -2.5e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n"}"#)
        let expected = JSONValue.object(JSONObject([
            "a": .array(JSONArray([.number(JSONNumber(1)), .number(try #require(number("-2.5e3"))), .bool(true), .bool(false), .null])),
            "b": .string("x\"é😀\n"),
        ]))
        #expect(value == expected)
    }

    @Test("a large text's repeated strings read as written: strings that share their first and last eight bytes and length but not the middle stay apart")
    func largeTextsRepeatedStrings() throws {
        // Over 64 KiB, so long strings are shared when their bytes are the same; these four collide on what is hashed.
        let spellings = ["com.benc-middleAA-.app0042", "com.benc-middleBB-.app0042", "com.benc-middleAB-.app0042", "com.benc-middleAA-.app00042",
                         "sixteen-bytes-16", "sixteen-bytes-17", "caf\\u00e9-with-an-escape-00042", "café-written-as-UTF-8-00042"]
        var expected: [String] = []
        for index in 0..<6_000 { expected.append(spellings[(index * 7 + index / 5) % spellings.count]) }
        var text = "["
        for (index, spelling) in expected.enumerated() { text += (index == 0 ? "" : ",\n") + "\"" + spelling + "\"" }
        text += "]"
        #expect(text.utf8.count > 1 << 16)
        guard case .array(let array) = try reader.read(text) else {
            Issue.record("expected an array")
            return
        }
        let read = array.elements.map { element -> String in
            if case .string(let string) = element { return string }
            return ""
        }
        let decoded = expected.map { $0.replacingOccurrences(of: "\\u00e9", with: "é") }
        #expect(read.count == decoded.count)
        #expect(zip(read, decoded).allSatisfy { Array($0.utf8) == Array($1.utf8) })
        #expect(array.position(at: 5_999) == JSONPosition(line: 6_000, column: 1))
    }

    @Test func keepsMemberOrderAndPositions() throws {
        let value = try reader.read("{\n  \"z\": 1,\n  \"a\": [\n    \"x\"]\n}")
        guard case .object(let object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object.members.map(\.key) == ["z", "a"])
        #expect(object.member("z")?.keyPosition == JSONPosition(line: 2, column: 3))
        #expect(object.member("a")?.valuePosition == JSONPosition(line: 3, column: 8))
        guard case .array(let array)? = object["a"] else {
            Issue.record("expected an array")
            return
        }
        #expect(array.position(at: 0) == JSONPosition(line: 4, column: 5))
    }

    @Test func numbersKeepTheirLiteral() throws {
        #expect(try reader.read("2") == .number(JSONNumber(2)))
        #expect(number("2")?.intValue == 2)
        #expect(number("2.0")?.intValue == nil)
        #expect(number("2e0")?.intValue == nil)
        #expect(number("-0")?.literal == "-0")
        #expect(number("123456789012345678901234567890")?.intValue == nil)
    }

    @Test func skipsALeadingByteOrderMark() throws {
        #expect(try reader.read([0xEF, 0xBB, 0xBF] + Array("true".utf8)) == .bool(true))
        #expect(throws: JSONError("expected a value (object, array, string, number, true, false or null), found 'x'", at: JSONPosition(line: 1, column: 1))) {
            try reader.read([0xEF, 0xBB, 0xBF] + Array("x".utf8))
        }
    }

    /// Invalid inputs, with the error each gives: message and exact position.
    /// Small objects compare their keys one by one and larger ones through dictionaries: a repeated
    /// key and two canonically equivalent keys are found the same way at every size, early or late.
    @Test(arguments: [1, 15, 16, 17, 40])
    func repeatedAndLookAlikeKeysAreFoundInObjectsOfAnySize(_ size: Int) {
        let filler = (0..<size).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        for (late, message) in [("\"k0\": 9", "duplicate key \"k0\""), ("\"k\(size - 1)\": 9", "duplicate key \"k\(size - 1)\"")] {
            #expect {
                _ = try reader.read("{\(filler), \(late)}")
            } throws: { error in
                (error as? JSONError)?.message.hasPrefix(message) == true
            }
        }
        // U+212A KELVIN SIGN is canonically equivalent to K: after "K" in the same object it is refused.
        #expect {
            _ = try reader.read("{\"K\": 0, \(filler), \"\u{212A}\": 1}")
        } throws: { error in
            (error as? JSONError)?.message.contains("are different bytes that look the same") == true
        }
        #expect((try? reader.read("{\(filler), \"other\": 1}")) != nil)
    }

    static let invalid: [(input: String, message: String, line: Int, column: Int)] = [
        ("", "expected a JSON value, found the end of the input", 1, 1),
        ("   \n  ", "expected a JSON value, found the end of the input", 2, 3),
        (#"{"a": 1, "a": 2}"#, #"duplicate key "a" (first at line 1, column 2): give each key once"#, 1, 10),
        (#"{"a": 1,}"#, "trailing comma: remove the ',' before '}'", 1, 9),
        ("[1, 2,]", "trailing comma: remove the ',' before ']'", 1, 7),
        ("[1 2]", "expected ',' or ']' after an array element, found '2'", 1, 4),
        (#"{"a" 1}"#, #"expected ':' after the key "a", found '1'"#, 1, 6),
        ("{a: 1}", "expected a key in double quotes, found 'a'", 1, 2),
        (#"{"a": 1"#, "expected ',' or '}', found the end of the input: the object is not closed", 1, 8),
        ("01", "a number may not have leading zeros", 1, 1),
        ("+1", "a number may not start with '+'", 1, 1),
        ("1.", "expected a digit after '.', found the end of the input", 1, 3),
        ("1e", "expected a digit in the exponent, found the end of the input", 1, 3),
        ("-", "expected a digit after '-', found the end of the input", 1, 2),
        ("NaN", "expected a value (object, array, string, number, true, false or null), found 'N'", 1, 1),
        ("tru", "expected a value, found 'tru' (the literals are true, false and null, in lowercase)", 1, 1),
        ("True", "expected a value (object, array, string, number, true, false or null), found 'T'", 1, 1),
        ("nullx", "expected a value, found 'nullx' (the literals are true, false and null, in lowercase)", 1, 1),
        ("'a'", "strings must be in double quotes, not single quotes", 1, 1),
        ("// c\n1", "comments are not allowed in JSON", 1, 1),
        ("1 2", "unexpected '2' after the JSON value: the input must hold exactly one value", 1, 3),
        (#""abc"#, "the string is not closed: add the closing '\"'", 1, 1),
        ("\"a\nb\"", "a line break inside a string: write it as \\n, or close the string (opened at line 1, column 1)", 1, 3),
        ("\"a\u{01}\"", "control character U+0001 inside a string: write it as \\u0001, or close the string (opened at line 1, column 1)", 1, 3),
        (#""\x""#, "invalid escape '\\x': use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX", 1, 2),
        (#""\u12""#, "\\u must be followed by four hex digits", 1, 2),
        (#""\ud800""#, "lone high surrogate in a \\u escape: it must be followed by a low surrogate (\\uDC00 to \\uDFFF)", 1, 2),
        (#""\udc00""#, "lone low surrogate in a \\u escape", 1, 2),
        (#""\ud800\u0041""#, "a high surrogate must be followed by a low surrogate (\\uDC00 to \\uDFFF)", 1, 8),
        ("\"é\" x", "unexpected 'x' after the JSON value: the input must hold exactly one value", 1, 5),
        ("é", "expected a value (object, array, string, number, true, false or null), found 'é'", 1, 1),
    ]

    @Test(arguments: 0..<invalid.count)
    func rejectsInvalidInputAtItsPosition(case index: Int) {
        let example = Self.invalid[index]
        #expect(throws: JSONError(example.message, at: JSONPosition(line: example.line, column: example.column)), "\(example.input)") {
            try reader.read(example.input)
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONError("invalid UTF-8: byte 0xFF cannot start a character", at: JSONPosition(line: 1, column: 3))) {
            try reader.read([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xFF, UInt8(ascii: "\"")])
        }
        // An overlong encoding of '/', and an encoded surrogate.
        #expect(throws: JSONError("invalid UTF-8: byte 0xC0 cannot start a character", at: JSONPosition(line: 1, column: 2))) {
            try reader.read([UInt8(ascii: "\""), 0xC0, 0xAF, UInt8(ascii: "\"")])
        }
        #expect(throws: JSONError("invalid UTF-8: a character's bytes are malformed", at: JSONPosition(line: 1, column: 2))) {
            try reader.read([UInt8(ascii: "\""), 0xED, 0xA0, 0x80, UInt8(ascii: "\"")])
        }
        #expect(throws: JSONError("invalid UTF-8: the input ends inside a character", at: JSONPosition(line: 1, column: 2))) {
            try reader.read([UInt8(ascii: "\""), 0xE2, 0x82])
        }
    }

    @Test func limitsNesting() throws {
        let shallow = JSONReader(maxDepth: 3)
        #expect(try shallow.read("[[[]]]") == .array(JSONArray([.array(JSONArray([.array(JSONArray([]))]))])))
        #expect(throws: JSONError("arrays and objects nest deeper than 3 levels", at: JSONPosition(line: 1, column: 12))) {
            try shallow.read(#"{"a":[{"b":[1]}]}"#)
        }
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError("arrays and objects nest deeper than 64 levels", at: JSONPosition(line: 1, column: 65))) {
            try reader.read(deep)
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(throws: JSONError("expected ',' or '}' after the value of \"k\", found 'x'", at: JSONPosition(line: 1, column: 13))) {
            try reader.read(#"{"k": "éé😀" x}"#)
        }
    }

    private func number(_ literal: String) -> JSONNumber? {
        if case .number(let number) = try? reader.read(literal) { return number }
        return nil
    }
}
