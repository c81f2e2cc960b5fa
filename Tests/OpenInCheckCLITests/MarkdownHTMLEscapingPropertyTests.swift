import Foundation
import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Issue 42: every Markdown and HTML writer fed names from ``HostileNames`` (labels, policy names, device names,
/// an unused label that lint quotes), each output checked with a real parser: Markdown rendered by cmark-gfm
/// (no link, image, strikethrough, emphasis or raw HTML from a name; every table row as wide as its header; each
/// name's text round-trips; every `$` outside a code span backslash-escaped, so GitHub's math never starts), the
/// report read by a strict HTML tokenizer written here (only the template's elements and attributes, no raw
/// reordering character in any text, each name shown) and once by headless Chromium.
@Suite struct MarkdownHTMLEscapingPropertyTests {
    typealias Tests = MarkdownHTMLEscapingTests

    /// One hostile fleet: the names put in place of acme's, each unique.
    struct Names {
        var employees, contractors, hr, viewer, emailPlus, employeeDevice, contractorDevice, unused: String

        init(_ random: inout HostileNames.Generator, index: Int) {
            func hostile(_ tag: String) -> String { HostileNames.name(&random) + " \(tag)\(index)" }
            // Device names are ASCII (the reader refuses any other): the ASCII pieces only.
            func ascii(_ tag: String) -> String {
                var text = ""
                while text.unicodeScalars.count < 3 {
                    let piece = HostileNames.name(&random, maxPieces: 4)
                    text += String(String.UnicodeScalarView(piece.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }))
                }
                return text + "-\(tag)\(index)"
            }
            employees = hostile("e")
            contractors = hostile("c")
            hr = hostile("h")
            viewer = hostile("v")
            emailPlus = hostile("m")
            employeeDevice = ascii("d")
            contractorDevice = ascii("p")
            unused = hostile("u")
        }

        var replacements: [String: String] {
            ["Employees": employees, "Contractors": contractors, "HR": hr, "Viewer": viewer, "Email+": emailPlus,
             "employee-iphone": employeeDevice, "contractor-ipad": contractorDevice]
        }
    }

    /// How a name shows in Markdown text once rendered: escaped as the terminal shows it, elided, then as
    /// cmark-gfm writes text in HTML.
    static func renderedForm(_ name: String) -> String {
        // Scalar by scalar: a `"` followed by a joiner is one Character, which a String replacement would miss.
        var out = ""
        for scalar in Self.terminal(name).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The terminal escaping the writers build on, restated here: `\\`, `\n`, `\r`, `\t`, else `\u{…}` for the
    /// controls, separators, bidirectional and invisible characters.
    static func terminal(_ text: String, backslash: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += backslash ? "\\\\" : "\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x200B, 0x2060...0x2064,
                0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: Markdown

    /// Every table in `html` has rows as wide as its header.
    static func tablesAreWhole(_ html: String) -> Bool {
        for table in html.components(separatedBy: "<table>").dropFirst() {
            let body = table.components(separatedBy: "</table>")[0]
            let widths = body.components(separatedBy: "<tr>").dropFirst().map { $0.components(separatedBy: "<th").count - 1 + $0.components(separatedBy: "<td").count - 1 }
            if Set(widths).count > 1 { return false }
        }
        return true
    }

    /// Whether every `$` on each line of `markdown`, outside code spans, follows an odd run of backslashes.
    static func dollarsEscaped(_ markdown: String) -> Bool {
        for line in markdown.split(separator: "\n") {
            let characters = Array(line)
            var index = 0, backslashes = 0
            while index < characters.count {
                let character = characters[index]
                if character == "`" && backslashes % 2 == 0 {
                    var run = 0
                    while index + run < characters.count && characters[index + run] == "`" { run += 1 }
                    // The closing run of exactly `run` backticks, if any: the span is skipped.
                    var look = index + run, closed: Int? = nil
                    while look < characters.count {
                        if characters[look] == "`" {
                            var other = 0
                            while look + other < characters.count && characters[look + other] == "`" { other += 1 }
                            if other == run { closed = look + other; break }
                            look += other
                        } else {
                            look += 1
                        }
                    }
                    index = closed ?? index + run
                    backslashes = 0
                    continue
                }
                if character == "$" && backslashes % 2 == 0 { return false }
                backslashes = character == "\\" ? backslashes + 1 : 0
                index += 1
            }
        }
        return true
    }

    static func checkMarkdown(_ markdown: String, _ what: String, names: [String]) throws {
        let html = try Tests.render(markdown)
        let counts = Tests.markup(html)
        for tag in ["<a ", "<img", "<del>", "<em>", "<script"] { #expect(counts[tag] == 0, "\(what): \(tag) in \(html)") }
        let elements = Tests.elements(html)
        #expect(elements.names.isSubset(of: Tests.writerElements) && !elements.comment, "\(what): raw HTML from a name: \(elements)")
        #expect(Self.tablesAreWhole(html), "\(what): a table row split: \(html)")
        #expect(Self.dollarsEscaped(markdown), "\(what): a $ not escaped: \(markdown)")
        for name in names { #expect(html.contains(Self.renderedForm(name)), "\(what): \(Self.renderedForm(name)) not in \(html)") }
    }

    @Test func markdownWritersShowHostileNamesAsText() throws {
        var random = HostileNames.Generator(state: 42)
        for index in 0..<HostileNames.cases(fast: 30, soak: 1000) {
            let names = Names(&random, index: index)
            let fleet = try Tests.acme(names.replacements, extraLabel: names.unused)
            let paths = try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--format", "markdown"])
            #expect(paths.stderr == "", "case \(index): \(paths.stderr)")
            try Self.checkMarkdown(paths.stdout, "case \(index) paths", names: [names.employeeDevice, names.viewer, names.employees])
            // A code span outside a table (the device's heading) shows the name as is: no `\|` left in it.
            let heading = "<h3>Device <code>\(Self.renderedForm(names.employeeDevice))</code></h3>"
            #expect(try Tests.render(paths.stdout).contains(heading), "case \(index): no \(heading)")
            let diff = try BuiltBinary.run(["fleet", "diff", Tests.acme, fleet, "--format", "markdown"])
            try Self.checkMarkdown(diff.stdout, "case \(index) diff", names: [names.viewer])
            let fixes = try BuiltBinary.run(["fleet", "fixes", "--fleet", fleet, "--format", "markdown"])
            #expect(fixes.stderr == "", "case \(index): \(fixes.stderr)")
            // A change names its policy as a JSON string.
            try Self.checkMarkdown(fixes.stdout, "case \(index) fixes", names: [JSONWriter.quoted(names.viewer)])
            let lint = try BuiltBinary.run(["fleet", "lint", "--fleet", fleet, "--format", "markdown"])
            try Self.checkMarkdown(lint.stdout, "case \(index) lint", names: [])
            let matrix = try BuiltBinary.run(["fleet", "matrix", "--fleet", fleet, "--format", "markdown"])
            #expect(matrix.stderr == "", "case \(index): \(matrix.stderr)")
            try Self.checkMarkdown(matrix.stdout, "case \(index) matrix", names: [])
            // A single policy whose whitelist and config hold the names: lint quotes them in its findings.
            let policy = try TemporaryFile.write(
                JSONWriter.pretty(.object(JSONObject([
                    "openInPolicy": .string("whitelist"),
                    "openInWhitelist": .array(JSONArray([.string(names.viewer), .string("com.example.notes"), .string(names.hr)])),
                    "config": .object(JSONObject([names.employees: .string(names.contractors)])),
                ]))), name: "policy-\(index).json")
            let policyLint = try BuiltBinary.run(["lint", "--format", "markdown", policy])
            #expect(policyLint.stderr == "", "case \(index): \(policyLint.stderr)")
            try Self.checkMarkdown(policyLint.stdout, "case \(index) policy lint", names: [])
        }
    }

    // MARK: HTML

    /// The elements and attributes the report's template writes: anything else came from a name.
    static let elements: Set<String> = ["html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "span", "code", "label",
                                        "select", "option", "section", "table", "tr", "th", "td", "br", "small", "svg", "defs", "marker", "path",
                                        "g", "rect", "text", "details", "summary", "ol", "li", "ul", "pre", "script"]
    static let attributes: Set<String> = ["lang", "charset", "http-equiv", "content", "name", "class", "id", "hidden", "value", "data-device",
                                          "data-app", "xmlns", "role", "aria-label", "width", "height", "viewbox", "refx", "refy", "markerwidth",
                                          "markerheight", "orient", "d", "fill", "marker-end", "x", "y", "rx", "type"]
    static let references = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "#39": "'"]

    /// A strict reading of the page: its tags (name, attributes) and its decoded texts and attribute values; an
    /// error for anything out of the template's small grammar.
    struct Page {
        var tags: [(name: String, attributes: [String: String])] = []
        var texts: [String] = []

        init(_ html: String) throws {
            let characters = Array(html.unicodeScalars)
            var index = 0
            func decode(_ until: (Unicode.Scalar) -> Bool) throws -> String {
                var out = ""
                while index < characters.count, !until(characters[index]) {
                    if characters[index] == "&" {
                        var end = index + 1
                        while end < characters.count, characters[end] != ";", end - index < 8 { end += 1 }
                        let name = String(String.UnicodeScalarView(characters[(index + 1)..<min(end, characters.count)]))
                        guard end < characters.count, characters[end] == ";", let value = MarkdownHTMLEscapingPropertyTests.references[name] else {
                            throw PageError.reference(String(String.UnicodeScalarView(characters[index..<min(index + 10, characters.count)])))
                        }
                        out += value
                        index = end + 1
                    } else {
                        out.unicodeScalars.append(characters[index])
                        index += 1
                    }
                }
                return out
            }
            while index < characters.count {
                if characters[index] != "<" {
                    texts.append(try decode { $0 == "<" })
                    continue
                }
                let rest = String(String.UnicodeScalarView(characters[index..<min(index + 16, characters.count)]))
                if rest.hasPrefix("<!DOCTYPE html>") { index += 15; continue }
                index += 1
                let closing = characters[index] == "/"
                if closing { index += 1 }
                var name = ""
                while index < characters.count, characters[index].properties.isAlphabetic || ("0"..."9").contains(characters[index]) {
                    name.unicodeScalars.append(characters[index])
                    index += 1
                }
                guard !name.isEmpty else { throw PageError.tag(rest) }
                var attributes: [String: String] = [:]
                while index < characters.count {
                    while characters[index] == " " || characters[index] == "\n" { index += 1 }
                    if characters[index] == ">" { index += 1; break }
                    if characters[index] == "/", characters[index + 1] == ">" { index += 2; break }
                    var attribute = ""
                    while characters[index] != "=" && characters[index] != ">" && characters[index] != " " {
                        attribute.unicodeScalars.append(characters[index])
                        index += 1
                    }
                    guard !attribute.isEmpty, !closing else { throw PageError.tag(rest) }
                    if characters[index] == "=" {
                        guard characters[index + 1] == "\"" else { throw PageError.attribute(attribute) }
                        index += 2
                        attributes[attribute.lowercased()] = try decode { $0 == "\"" }
                        index += 1
                    } else {
                        attributes[attribute.lowercased()] = ""
                    }
                }
                if !closing { tags.append((name.lowercased(), attributes)) }
                // Raw text: the style and the scripts, to their end tag.
                if !closing, name == "script" || name == "style" {
                    let end = "</\(name)>"
                    var text = ""
                    while index < characters.count, !String(String.UnicodeScalarView(characters[index..<min(index + end.count, characters.count)])).hasPrefix(end) {
                        text.unicodeScalars.append(characters[index])
                        index += 1
                    }
                    if name == "script", attributes["type"] != "application/json" { texts.append(text) }
                }
            }
        }
    }

    /// What the strict reading refuses: a reference it does not know, a malformed tag or attribute.
    enum PageError: Error {
        case reference(String)
        case tag(String)
        case attribute(String)
    }

    @Test func theReportShowsHostileNamesAsText() throws {
        var random = HostileNames.Generator(state: 7)
        for index in 0..<HostileNames.cases(fast: 30, soak: 1000) {
            let names = Names(&random, index: index)
            let fleet = try Tests.acme(names.replacements, extraLabel: names.unused)
            let run = try BuiltBinary.run(["fleet", "report", "--fleet", fleet])
            #expect(run.status == 0, "case \(index): \(run.stderr)")
            let page = try Page(run.stdout)
            for tag in page.tags {
                #expect(Self.elements.contains(tag.name), "case \(index): element <\(tag.name)>")
                for attribute in tag.attributes.keys { #expect(Self.attributes.contains(attribute), "case \(index): attribute \(attribute) on <\(tag.name)>") }
            }
            #expect(page.tags.filter { $0.name == "script" }.count == 2, "case \(index): scripts")
            let shown = page.texts + page.tags.flatMap { $0.attributes.values }
            for text in shown {
                let raw = text.unicodeScalars.filter { Tests.reordering.contains($0.value) || $0.value == 0xFEFF || $0.value == 0x200B }
                #expect(raw.isEmpty, "case \(index): raw \(raw.map { String($0.value, radix: 16) }) in \(text)")
            }
            let all = shown.joined(separator: "\u{0}")
            for name in [names.employeeDevice, names.viewer, names.employees, names.hr] {
                #expect(all.contains(Self.terminal(name, backslash: false)), "case \(index): \(Self.terminal(name, backslash: false)) not shown")
            }
        }
    }

    /// One hostile report in headless Chromium: no console error or request, its own script ran, and no image,
    /// link or script from a name in the DOM.
    @Test func theBrowserShowsHostileNamesAsText() throws {
        var random = HostileNames.Generator(state: 11)
        let names = Names(&random, index: 0)
        let fleet = try Tests.acme(names.replacements.merging(["Employees": "<img src=https://x.example/i.png>\u{202E}[x](https://y.example) \(names.employees)"]) { $1 },
                                   extraLabel: names.unused)
        let page = try FleetReportBrowserTests.report(["--fleet", fleet], name: "hostile-escaping")
        defer { try? FileManager.default.removeItem(at: page) }
        let dom = try FleetReportBrowserTests.checkPage(page)
        let shown = Tests.shownPart(dom)
        #expect(!shown.contains("<img") && !shown.contains("<a ") && !shown.contains("\u{202E}"))
        #expect(dom.contains("&lt;img src=https://x.example/i.png&gt;\\u{202E}[x](https://y.example)"))
    }
}
