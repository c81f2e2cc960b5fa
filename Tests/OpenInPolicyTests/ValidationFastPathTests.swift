import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Bundle IDs and URLs are checked in one pass with a table first; only what that pass rejects is
/// read byte by byte for the message. The two must agree on every input.
@Suite struct ValidationFastPathTests {
    /// Strings made of pieces that are valid, nearly valid and invalid in IDs and URLs.
    static func samples(seed: UInt64, count: Int) -> [String] {
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "Z", "9", "-", "_", ".", "..", ":", "://", "%", "%2", "%20", "%g1", "%A", "+", " ", "\t", "\"", "<", "\\",
                      "^", "`", "{", "|", "}", "\u{7F}", "\u{01}", "\u{E9}", "mailto:", "https:", "x", "com", "@", "?", "#", "=", "&", "/",
                      String(repeating: "a", count: 120), "~", "!", "$", "'", "(", ")", "*", ",", ";", "[", "]"]
        return (0..<count).map { _ in random.some(pieces, upTo: 7).joined() }
            + ["", ".", "a.", ".a", "a..b", String(repeating: "a", count: 255), String(repeating: "a", count: 256), "a:%", "a:%4", "a:%41", "1a:", ":"]
    }

    @Test("a URL passes the one-pass check exactly when the byte-by-byte reading accepts it, with the same scheme")
    func urls() {
        for text in Self.samples(seed: 21, count: 20_000) {
            let reading = Result { () throws(InputError) in try ShareURL.readScheme(text) }
            switch (ShareURL.schemeEndOfValidURL(text), reading) {
            case (let fast?, .success(let end)): #expect(fast == end, "\(text)")
            case (nil, .failure): break
            case (let fast, let reading): Issue.record("\(text): one pass \(String(describing: fast)), reading \(reading)")
            }
        }
    }

    @Test("a bundle ID passes the one-pass check exactly when the byte-by-byte reading finds no problem")
    func bundleIDs() {
        for text in Self.samples(seed: 22, count: 20_000) {
            #expect(BundleID.isValid(text) == (BundleID.readProblem(in: text) == nil), "\(text)")
        }
    }

    @Test("schemes are lowercased as lowercased() does", arguments: ["MAILTO:a", "HtTpS://x", "A+B-C.D:z", "x1:"])
    func schemes(_ text: String) throws {
        let url = try ShareURL(text)
        #expect(url.scheme == String(text.prefix { $0 != ":" }).lowercased())
    }
}
