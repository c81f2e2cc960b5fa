import OpenInPolicy
import Testing

@Suite struct JSONWriterTests {
    @Test func compactKeepsOrderAndHasNoSpaces() {
        let value = JSONValue.object(JSONObject([
            "z": .array(JSONArray([.number(JSONNumber(1)), .null, .bool(true)])),
            "a": .object(JSONObject([:])),
            "e": .array(JSONArray([])),
        ]))
        #expect(JSONWriter.compact(value) == #"{"z":[1,null,true],"a":{},"e":[]}"#)
    }

    @Test func prettyIndentsByTwo() {
        let value = JSONValue.object(JSONObject(["a": .array(JSONArray([.string("x")])), "b": .bool(false)]))
        #expect(JSONWriter.pretty(value) == "{\n  \"a\": [\n    \"x\"\n  ],\n  \"b\": false\n}")
    }

    @Test func escapesWhatJSONRequires() {
        #expect(JSONWriter.quoted("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(JSONWriter.quoted("\n\r\t\u{08}\u{0C}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.quoted("\u{00}\u{1F}\u{7F}") == #""\u0000\u001F\u007F""#)
        #expect(JSONWriter.quoted("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(JSONWriter.quoted("é😀") == "\"é😀\"")
    }

    @Test(arguments: ["", "plain", "quote\" back\\slash", "\u{00}\u{01}\n\u{7F}", "é😀\u{2028}", "{\"json\": [1]}"])
    func readingWhatWasWrittenGivesTheSameString(_ string: String) throws {
        let written = JSONWriter.compact(.array(JSONArray([.string(string)])))
        #expect(try JSONReader().read(written) == .array(JSONArray([.string(string)])))
    }
}
