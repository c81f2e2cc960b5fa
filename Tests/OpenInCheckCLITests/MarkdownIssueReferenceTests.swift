import Testing

@testable import OpenInCheckCLI
import OpenInReports

/// GitHub turns `#123` into a link to an issue after it renders the Markdown (so cmark-gfm cannot show it, and a
/// backslash does not stop it): in text, a `#` before a digit is followed by an empty comment, which splits the
/// rendered text so no reference forms; a `#` before anything else stays a plain escape.
@Suite struct MarkdownIssueReferenceTests {
    @Test func aHashBeforeADigitIsBrokenFromIt() throws {
        let shown = MarkdownText.text("fixes #12, see org/repo#3 and #quot;")
        #expect(shown.contains("\\#<!-- -->12") && shown.contains("repo\\#<!-- -->3"), "\(shown)")
        #expect(shown.contains("\\#quot;"), "\(shown)")
        #expect(!shown.contains("#1") && !shown.contains("#3"))
        // Rendered, the text reads as the name.
        let html = try MarkdownHTMLEscapingTests.render(shown)
        #expect(html.contains("fixes #12, see org/repo#3 and #quot;"), "\(html)")
    }
}

/// `fleet matrix --format markdown` wrote the device's heading as a code span by hand: a backtick in the name
/// ended it, and the rest became markup (a link, strikethrough).
@Suite struct FleetMatrixMarkdownNamesTests {
    @Test func aDeviceNameWithABacktickStaysInItsCodeSpan() throws {
        let fleet = try MarkdownHTMLEscapingTests.acme(["employee-iphone": "x`http://subgraph.example` ~~y~~"])
        let run = try BuiltBinary.run(["fleet", "matrix", "--fleet", fleet, "--format", "markdown"])
        #expect(run.stderr == "")
        let html = try MarkdownHTMLEscapingTests.render(run.stdout)
        #expect(!html.contains("<a ") && !html.contains("<del>"), "\(html)")
        #expect(html.contains("<h3>Device <code>x`http://subgraph.example` ~~y~~</code></h3>"), "\(html)")
    }
}
