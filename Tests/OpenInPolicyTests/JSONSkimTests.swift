import Testing

@testable import OpenInKit
import OpenInTestSupport

/// `JSONSkim` confirms a top-level key without reading the document, and never says yes where a full read
/// finds no such key.
@Suite struct JSONSkimTests {
    static func skim(_ text: String) -> Bool { JSONSkim.topLevelObjectNames("global", in: Array(text.utf8)) }

    @Test("a top-level key is seen, after values of every kind; a nested one, one inside a string, or one spelled with escapes is not")
    func seen() {
        #expect(Self.skim(#"{"global": {}}"#))
        #expect(Self.skim("\u{FEFF}\n {\"description\": \"a } ] \\\" {\", \"n\": -1.5e3, \"t\": true, \"x\": null, \"list\": [1, {\"global\": 2}, [\"]\"]], \"global\": 1}"))
        #expect(!Self.skim(#"{"devices": {"global": {}}}"#))
        #expect(!Self.skim(#"{"description": "\"global\": 1"}"#))
        #expect(!Self.skim(#"{"gl\u006fbal": {}}"#))
        #expect(!Self.skim(#"[{"global": {}}]"#))
        #expect(!Self.skim(#"{"a" 1, "global": {}}"#), "malformed before the key: not seen")
        #expect(!Self.skim(#"{"a": [1, 2"#))
        #expect(!Self.skim(""))
    }

    @Test("on random documents, a key seen is a key a full read finds at the top level")
    func neverMoreThanARead() throws {
        var random = SplitMix64(seed: 0x5_C1A)
        let pieces = ["{", "}", "[", "]", "\"global\"", "\"a\"", ":", ",", " ", "1", "\"x\\\"y\"", "true", "\"}\"", "\n"]
        var seen = 0
        for _ in 0..<Soak.size(20_000) {
            var text = random.percent(50) ? "{\"global\": " : "{"
            for _ in 0..<random.below(12) { text += pieces[random.below(pieces.count)] }
            if random.percent(50) { text += "}" }
            guard Self.skim(text) else { continue }
            seen += 1
            // A full read either finds the key at the top level or refuses the text: never an object without it.
            if case .object(let object)? = try? JSONReader().read(Array(text.utf8)) { #expect(object["global"] != nil, "\(text)") }
        }
        #expect(seen >= Soak.least(1_000))
    }
}
