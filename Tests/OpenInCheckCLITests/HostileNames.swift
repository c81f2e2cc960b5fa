import Foundation

/// Names drawn from a hostile alphabet, for the property tests of every output writer: each character here
/// has a meaning in some output context (HTML, Markdown as GitHub renders it, Mermaid, DOT, SARIF message
/// text, a terminal) or reorders or hides what a reader sees.
enum HostileNames {
    /// How many cases a property test runs: `fast` under `swift test`, `soak` when `.ci/run` sets `OPENIN_SOAK=1`.
    static func cases(fast: Int, soak: Int) -> Int {
        ProcessInfo.processInfo.environment["OPENIN_SOAK"] == "1" ? soak : fast
    }

    /// A small, repeatable generator (SplitMix64, the stream tests'), so a failing seed can be run again.
    typealias Generator = NoLostRecordsTests.Generator

    /// Pieces a name is made of: single characters and the multi-character forms that turn into markup.
    static let pieces: [String] = [
        // Bidirectional controls, marks and isolates; zero-width and line-breaking characters.
        "\u{202E}", "\u{202D}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{FEFF}", "\u{2028}", "\u{2029}",
        "\n", "\r", "\t", "\u{1B}", "\u{7F}", "\u{85}",
        // HTML and XML.
        "<", ">", "&", "\"", "'", "<img src=x>", "<script>alert(1)</script>", "&amp;", "&#8238;", "&#x202E;", "&lt;b&gt;", "&#10;",
        // Markdown as GitHub renders it: code, tables, links, images, emphasis, strikethrough, math, autolinks.
        "`", "``", "|", "[", "]", "(", ")", "[x](https://x.example)", "![i](https://x.example/i.png)", "*", "_", "**b**",
        "~", "~~x~~", "$", "$x$", "$$", "\\", "#", "@", "user@host.example", "https://x.example", "www.x.example",
        "http://", "://", "<https://x.example>", ":smile:", "#1", "@octocat",
        // SARIF message text, Mermaid and DOT.
        "{", "}", "{0}", "{{", "}}", "#quot;", "#35;", ";", "\\N", "\\l", "\\G", "-->", "]]", "%%", "subgraph", "end",
        // Ordinary text around them.
        "com.acme.", "app", " ", ".", "-", "é", "e\u{301}", "日本", "😀",
    ]

    /// A name of `1...maxPieces` pieces.
    static func name(_ random: inout Generator, maxPieces: Int = 6) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...maxPieces, using: &random) { text += pieces.randomElement(using: &random)! }
        return text
    }

    /// A name of at least `length` characters (for the bounds on long names).
    static func long(_ length: Int, _ random: inout Generator) -> String {
        var text = ""
        while text.unicodeScalars.count < length { text += pieces.randomElement(using: &random)! }
        return text
    }
}
