import Foundation
import Testing

/// `diff` and `diff --requests` list a bounded sample and say, in every format, how much they left out.
struct DiffBoundsEndToEndTests {
    static let authorized = #"{"openInPolicy": "authorized"}"#
    static let oneApp = #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.b"]}"#

    /// 105 invalid lines, then 103 distinct requests that AUTHORIZED allows and the one-app whitelist blocks.
    static func log() -> String {
        String(repeating: "{\"channel\":\"nowhere\"}\n", count: 105)
            + (0..<103).map { "{\"channel\":\"document-interaction\",\"target\":\"com.example.app\($0)\"}\n" }.joined()
    }

    @Test("--requests lists the first 100 invalid lines and changes per group, and counts the rest")
    func replaySample() throws {
        let old = try LintEndToEndTests.temporaryFile(Self.authorized, name: "old.json")
        let new = try LintEndToEndTests.temporaryFile(Self.oneApp, name: "new.json")
        let log = try LintEndToEndTests.temporaryFile(Self.log(), name: "log.jsonl")
        let text = try BuiltBinary.run(["diff", "--requests", log, old, new])
        #expect(text.status == 1)
        #expect(text.stdout.contains(": 208 lines, 103 requests, 105 invalid lines\n"))
        #expect(text.stdout.contains("  line 100: error  "))
        #expect(!text.stdout.contains("  line 101: error  "))
        #expect(text.stdout.contains("\n  … and 5 more invalid lines (the first 100 are listed)\n"))
        #expect(text.stdout.contains("\nNewly blocked (103 requests):\n"))
        #expect(text.stdout.contains("com.example.app99\n"))
        #expect(!text.stdout.contains("com.example.app100\n"))
        #expect(text.stdout.contains("\n  … and 3 more requests in changes beyond the first 100 listed\n\nverdict on this log: less permissive\n"))

        let markdown = try BuiltBinary.run(["diff", "--format", "markdown", "--requests", log, old, new])
        #expect(markdown.stdout.contains("\n… and 5 more invalid lines (the first 100 are listed).\n"))
        #expect(markdown.stdout.contains("\n… and 3 more requests in changes beyond the first 100 listed.\n"))

        let json = try BuiltBinary.run(["diff", "--format", "json", "--requests", log, old, new])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["invalid"] as? [Any])?.count == 100)
        #expect(object["invalidLines"] as? Int == 105)
        #expect((object["changes"] as? [Any])?.count == 100)
        #expect(object["newlyBlocked"] as? Int == 103)
        #expect(object["omitted"] as? [String: Int] == ["newlyBlocked": 3])
    }

    @Test("diff lists the first 100 changes per group, and counts the rest")
    func diffSample() throws {
        let ids = (0..<40).map { "\"com.example.app\($0)\"" }.joined(separator: ", ")
        let old = try LintEndToEndTests.temporaryFile(#"{"openInPolicy": "whitelist", "openInWhitelist": [\#(ids)]}"#, name: "old.json")
        let new = try LintEndToEndTests.temporaryFile(Self.oneApp, name: "new.json")
        let text = try BuiltBinary.run(["diff", old, new])
        #expect(text.status == 2)
        // Each of the 40 IDs is newly blocked on document-interaction, quick-look, app-extension and drag-and-drop: 160.
        #expect(text.stdout.contains("\nNewly blocked (160):\n"))
        #expect(text.stdout.contains("\n  … and 60 more request classes beyond the first 100 listed\n"))
        #expect(text.stdout.contains("\nNewly allowed (4):\n"))  // com.example.b, listed only by the new policy
        #expect(text.stdout.hasSuffix("\nverdict: incomparable\n"))
        let markdown = try BuiltBinary.run(["diff", "--format", "markdown", old, new])
        #expect(markdown.stdout.contains("\n… and 60 more request classes beyond the first 100 listed.\n"))
        let json = try BuiltBinary.run(["diff", "--format", "json", old, new])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["newlyBlocked"] as? [Any])?.count == 100)
        #expect(object["omitted"] as? [String: Int] == ["newlyBlocked": 60])
    }
}
