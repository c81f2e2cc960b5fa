import Foundation
import Testing

@testable import OpenInCheckCLI
import OpenInReports

/// Issue 42, items 1–4 and 10: names from a fleet file in the Markdown and the HTML report show as themselves or as
/// visible escapes, never as links, images, emphasis, strikethrough, math or reordered text; and the report's size
/// stays bounded whatever the names' lengths. Markdown is checked with Debian's `cmark-gfm` (GitHub's engine; `.ci/run`
/// installs it): under CI=true a missing `cmark-gfm` fails, and elsewhere too: nothing passes unchecked.
@Suite struct MarkdownHTMLEscapingTests {
    static let acme = "Examples/fleet/acme.json"

    /// The characters that reorder or hide text, which no report may write raw outside its embedded data.
    static let reordering: Set<UInt32> = Set(Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x200E, 0x200F, 0x061C, 0x2028, 0x2029])

    /// `Examples/fleet/acme.json` with each of `replacements`' JSON strings (quoted) replaced by its text, as JSON;
    /// `extraLabel` added to the Viewer policy's labels (one no device carries).
    static func acme(_ replacements: [String: String], extraLabel: String? = nil) throws -> String {
        var text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(acme), encoding: .utf8)
        if let extraLabel {
            let quoted = String(decoding: try JSONSerialization.data(withJSONObject: extraLabel, options: [.fragmentsAllowed]), as: UTF8.self)
            let old = "\"labels\": [\"Employees\", \"Contractors\"],\n     \"openInPolicy\""
            #expect(text.contains(old))
            text = text.replacingOccurrences(of: old, with: "\"labels\": [\"Employees\", \"Contractors\", \(quoted)],\n     \"openInPolicy\"")
        }
        for (old, new) in replacements {
            let quoted = String(decoding: try JSONSerialization.data(withJSONObject: new, options: [.fragmentsAllowed]), as: UTF8.self)
            #expect(text.contains("\"\(old)\""), "acme.json has no \"\(old)\"")
            text = text.replacingOccurrences(of: "\"\(old)\"", with: quoted)
        }
        return try TemporaryFile.write(text, name: "acme-hostile-\(UUID().uuidString).json")
    }

    /// `markdown` rendered to HTML by cmark-gfm as GitHub renders it (tables, autolinks, strikethrough, tag filter),
    /// raw HTML kept (`--unsafe`: GitHub keeps an `<img>`), the writer's own empty comments taken out (GitHub drops them).
    static func render(_ markdown: String) throws -> String {
        let binary = try #require(
            ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "cmark-gfm is not installed: apt-get install -y cmark-gfm (.ci/run does)")
        let input = try TemporaryFile.write(markdown, name: "render-\(UUID().uuidString).md")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--unsafe", "--extension", "table", "--extension", "autolink", "--extension", "strikethrough", "--extension", "tagfilter", input]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return withoutLinkBreaks(Array(data))
    }

    /// The rendered bytes without the writers' empty comments (`<!-- -->`), removed byte by byte: a name's combining
    /// character after the comment (U+200C) joins its `>` into one Swift character, which a `String` search skips.
    static func withoutLinkBreaks(_ bytes: [UInt8]) -> String {
        let comment = Array(MarkdownText.linkBreak.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == comment[0], bytes[index...].starts(with: comment) {
                index += comment.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The elements the Markdown writers make themselves; any other in a render came from a name.
    static let writerElements: Set<String> = ["p", "strong", "code", "table", "thead", "tbody", "tr", "th", "td", "h2", "h3", "ul", "ol", "li",
                                              "pre", "br", "details", "summary"]

    /// The element names of every start tag in `html`, and whether it holds a comment.
    static func elements(_ html: String) -> (names: Set<String>, comment: Bool) {
        var names: Set<String> = []
        for part in html.components(separatedBy: "<").dropFirst() {
            let name = part.prefix { $0.isLetter || $0.isNumber }
            if !name.isEmpty { names.insert(name.lowercased()) }
        }
        return (names, html.contains("<!--"))
    }

    /// How many of each markup element that input could make the rendered HTML holds.
    static func markup(_ html: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for tag in ["<a ", "<img", "<del>", "<em>", "<strong>", "<code>", "<script", "<br"] {
            counts[tag] = html.components(separatedBy: tag).count - 1
        }
        return counts
    }

    /// The page without its embedded JSON data (which no browser shows).
    static func shownPart(_ page: String) -> Substring {
        guard let start = page.range(of: "<script type=\"application/json\" id=\"openin-check-data\">"),
            let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex)
        else { return page[...] }
        return page[..<start.lowerBound] + page[end.upperBound...]
    }

    // MARK: item 1: the report

    /// A U+202E label, a U+2066 policy name: the report shows `\u{202E}`, never the control (it reversed the line).
    @Test func theReportShowsBidirectionalControlsAsEscapes() throws {
        let fleet = try Self.acme(["Employees": "Emp\u{202E}loyees", "Viewer": "View\u{2066}er\u{200F}", "HR": "H\u{2028}R\u{FEFF}"])
        let run = try BuiltBinary.run(["fleet", "report", "--fleet", fleet])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = Self.shownPart(run.stdout)
        let raw = shown.unicodeScalars.filter { Self.reordering.contains($0.value) || $0.value == 0xFEFF }
        #expect(raw.isEmpty, "raw controls in the page: \(raw.map { String($0.value, radix: 16) })")
        #expect(shown.contains("Emp\\u{202E}loyees"))
        #expect(shown.contains("View\\u{2066}er\\u{200F}"))
        #expect(shown.contains("H\\u{2028}R\\u{FEFF}"))
    }

    // MARK: item 2: paths and diff Markdown

    /// A device name `user@host.example` and policy names holding URLs and `www.`: GitHub linked them (the zone line,
    /// the "granted by" column); no link now, and the rendered text is the name.
    @Test func pathsAndDiffMarkdownMakeNoLinks() throws {
        let fleet = try Self.acme(["employee-iphone": "user@host.example", "Employees": "see https://x.example or www.x.example", "Viewer": "mail a.b@c.example"])
        for arguments in [["fleet", "paths", "--fleet", fleet, "--from", "all", "--format", "markdown"], ["fleet", "diff", Self.acme, fleet, "--format", "markdown"]] {
            let run = try BuiltBinary.run(arguments)
            #expect(run.stderr == "")
            let html = try Self.render(run.stdout)
            #expect(Self.markup(html)["<a "] == 0, "\(arguments[1]): \(html)")
            #expect(html.contains("user@host.example"))
        }
        let paths = try Self.render(try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--format", "markdown"]).stdout)
        #expect(paths.contains("see https://x.example or www.x.example") && paths.contains("mail a.b@c.example"))
    }

    /// A device named `a|b`: its heading showed `a\|b` (a table's escape, outside a table); its table cells still escape it.
    @Test func aCodeSpanOutsideATableShowsAPipeAsItIs() throws {
        let fleet = try Self.acme(["employee-iphone": "a|b"])
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--format", "markdown"])
        let html = try Self.render(run.stdout)
        #expect(html.contains("<h3>Device <code>a|b</code></h3>"), "\(html)")
        #expect(html.contains("<li><code>a|b</code>: "), "\(html)")
    }

    // MARK: item 3: fixes Markdown

    /// A policy named `~~x~~ $m$ https://v.example`: the fix's change made strikethrough and a link of it.
    @Test func fixesMarkdownMakesNoStrikethroughLinkOrMath() throws {
        let fleet = try Self.acme(["Viewer": "~~x~~ $m$ https://v.example *e*"])
        let run = try BuiltBinary.run(["fleet", "fixes", "--fleet", fleet, "--format", "markdown"])
        #expect(run.stderr == "")
        #expect(run.stdout.contains("\\~\\~x\\~\\~ \\$m\\$"))
        let html = try Self.render(run.stdout)
        let counts = Self.markup(html)
        #expect(counts["<del>"] == 0 && counts["<a "] == 0 && counts["<em>"] == 0, "\(html)")
        #expect(html.contains("~~x~~ $m$ https://v.example *e*"))
    }

    // MARK: item 4: lint Markdown

    /// A label `<img src=https://…>` in `fleet lint`, a whitelist entry in `lint`: an image, a link and emphasis before.
    @Test func lintMarkdownEscapesTheValuesItQuotes() throws {
        let hostile = "<img src=https://x.example/i.png> [x](https://y.example) *a* _b_"
        let fleet = try Self.acme([:], extraLabel: hostile)
        let policy = try TemporaryFile.write("{\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\(String(decoding: try JSONSerialization.data(withJSONObject: hostile, options: [.fragmentsAllowed]), as: UTF8.self))]}",
                                             name: "lint-hostile-\(UUID().uuidString).json")
        for arguments in [["fleet", "lint", "--fleet", fleet, "--format", "markdown"], ["lint", "--format", "markdown", policy]] {
            let run = try BuiltBinary.run(arguments)
            #expect(run.stdout.contains("img"), "\(arguments): the value is not quoted: \(run.stdout)")
            let html = try Self.render(run.stdout)
            let counts = Self.markup(html)
            #expect(counts["<img"] == 0 && counts["<a "] == 0 && counts["<em>"] == 0, "\(arguments): \(html)")
            #expect(html.contains("&lt;img src=https://x.example/i.png&gt; [x](https://y.example) *a* _b_"))
        }
    }

    // MARK: item 10: the report's size

    /// One 200,000-character label (five uses, a 1 MB fleet): the page without its data was megabytes (each hop
    /// repeated the name); every name is now shown elided, and the data keeps it within its budget.
    @Test func aLongLabelLeavesTheReportBounded() throws {
        let label = String(repeating: "L", count: 200_000)
        let fleet = try Self.acme(["Employees": label])
        let run = try BuiltBinary.run(["fleet", "report", "--fleet", fleet])
        #expect(run.status == 0, "\(run.stderr)")
        let page = run.stdout.utf8.count
        let shown = Self.shownPart(run.stdout).utf8.count
        // The shown part: the template and the capped rows, each name at most 1,000 characters (12 KiB escaped).
        #expect(shown < 300_000, "\(shown) bytes shown")
        // The whole: the shown part and the data's two budgets (paths, fixes) of 4,000,000 bytes each.
        #expect(page < shown + 8_000_100, "\(page) bytes")
        #expect(Self.shownPart(run.stdout).contains(" characters)…"))
    }

    // MARK: Intune

    /// The Intune pilot with a hostile policy name, in a folder whose viewer policy file has a hostile name:
    /// the fixes' `<details><summary>` line is an HTML block, where Markdown escapes do nothing, so the file name
    /// made a remote image there; the policy name made strikethrough and a link; the report wrote U+202E raw.
    @Test func intuneNamesInFixesAndTheReportShowAsText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openin-intune-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pilot = BuiltBinary.packageRoot.appendingPathComponent("Examples/intune/pilot")
        try FileManager.default.copyItem(at: pilot.appendingPathComponent("hr.json"), to: folder.appendingPathComponent("hr.json"))
        let viewer = try String(contentsOf: pilot.appendingPathComponent("viewer-and-outlook.json"), encoding: .utf8)
        #expect(viewer.contains("\"Acme pilot - viewer and Outlook\""))
        try viewer.replacingOccurrences(of: "\"Acme pilot - viewer and Outlook\"", with: "\"Acme ~~x~~ $m$ https://x.example \\u202E pilot\"")
            .write(to: folder.appendingPathComponent("v<img src=https:x.example>\u{202E}.json"), atomically: true, encoding: .utf8)
        let arguments = ["--fleet", folder.path, "--devices", "Examples/intune/devices.json"]
        let fixes = try BuiltBinary.run(["fleet", "fixes"] + arguments + ["--format", "markdown"])
        #expect(fixes.stderr == "")
        #expect(fixes.stdout.contains("<summary>JSON Patch for "), "\(fixes.stdout)")
        let html = try Self.render(fixes.stdout)
        let counts = Self.markup(html)
        #expect(counts["<img"] == 0 && counts["<del>"] == 0 && counts["<a "] == 0, "\(html)")
        #expect(Self.elements(html).names.isSubset(of: Self.writerElements) && !Self.elements(html).comment, "\(html)")
        #expect(!fixes.stdout.unicodeScalars.contains { Self.reordering.contains($0.value) })
        let report = try BuiltBinary.run(["fleet", "report"] + arguments)
        #expect(report.status == 0, "\(report.stderr)")
        let shown = Self.shownPart(report.stdout)
        #expect(!shown.unicodeScalars.contains { Self.reordering.contains($0.value) })
        #expect(shown.contains("Acme ~~x~~ $m$ https://x.example \\u{202E} pilot"))
    }
}
