import Foundation
import Testing

/// Every Markdown file of the package renders as written: each code fence closes on a bare fence
/// line, nothing that looks like a closing fence is swallowed into a block, and every link lands —
/// `#anchor` on a heading of the same file, a relative path on a file that exists (and its `#anchor`
/// on a heading there). A fence such as "``` In" (text after it) does not close a block in
/// CommonMark, so everything up to the next bare fence renders as code and its headings vanish.
@Suite struct MarkdownStructureTests {
    /// What is wrong with `file`, one message a problem, each starting with `file:line`.
    static func problems(in file: MarkdownFile, root: URL = BuiltBinary.packageRoot) -> [String] {
        var problems: [String] = []
        for fence in file.fences {
            if fence.closeLine == nil {
                problems.append("\(file.path):\(fence.openLine): this code fence is never closed, so the rest of the file renders as code: close it with a line holding only the fence")
            }
            for line in fence.notClosing {
                problems.append("\(file.path):\(line): a fence with text after it does not close the code block opened at line \(fence.openLine) (CommonMark): put the text on a line of its own, or use a longer fence for a block that shows fences")
            }
        }
        let anchors = Set(file.headings.map(\.anchor))
        let article = file.path.contains(".docc/")
        for link in file.links {
            let target = link.target
            if target.contains("://") || target.hasPrefix("mailto:") || target.hasPrefix("doc:") { continue }
            if article, let catalog = file.path.range(of: ".docc/").map({ String(file.path[..<$0.upperBound]) }),
               !target.contains("/"), FileManager.default.fileExists(atPath: BuiltBinary.packageRoot.appendingPathComponent(catalog + "Resources/" + target).path) {
                // An image of the catalog's Resources: docc finds it by name, and so does this check.
                continue
            }
            if article {
                // docc renders an article away from the repository and does not check such links.
                problems.append("\(file.path):\(link.line): '\(target)': in a DocC article, link an article or a section with <doc:Article> or [text](doc:Article#Section-title), which docc checks, and name a repository file in a code span")
                continue
            }
            if target.hasPrefix("#") {
                let anchor = String(target.dropFirst())
                if !anchors.contains(anchor) {
                    problems.append("\(file.path):\(link.line): the link '\(target)' names no heading of this file\(suggestion(anchor, anchors))")
                }
                continue
            }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let relative = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent().relativePath
            let resolved = URL(fileURLWithPath: folder == "." ? relative : folder + "/" + relative, relativeTo: root).standardizedFileURL
            guard FileManager.default.fileExists(atPath: resolved.path) else {
                problems.append("\(file.path):\(link.line): the link '\(target)' names \(relative), which does not exist")
                continue
            }
            if parts.count == 2, resolved.pathExtension == "md", let text = try? String(contentsOf: resolved, encoding: .utf8) {
                let other = MarkdownFile(path: relative, text: text)
                let anchor = String(parts[1])
                let theirs = Set(other.headings.map(\.anchor))
                if !theirs.contains(anchor) {
                    problems.append("\(file.path):\(link.line): the link '\(target)' names no heading of \(relative)\(suggestion(anchor, theirs))")
                }
            }
        }
        return problems
    }

    static func suggestion(_ anchor: String, _ anchors: Set<String>) -> String {
        let close = anchors.filter { $0.hasPrefix(anchor) || anchor.hasPrefix($0) }.sorted()
        return close.isEmpty ? "" : ". Did you mean '#\(close[0])'?"
    }

    @Test func everyMarkdownFileRendersAsWritten() throws {
        let files = Documentation.markdownFiles
        #expect(files.contains("README.md") && files.contains("Rules/README.md"))
        #expect(files.contains { $0.hasPrefix("Sources/OpenInPolicy/OpenInPolicy.docc/") })
        var headings = 0
        for path in files {
            let file = try MarkdownFile(path: path)
            headings += file.headings.count
            for problem in Self.problems(in: file) { Issue.record(Comment(rawValue: problem)) }
        }
        #expect(headings > 100)
    }

    /// The README's Contents line links every section of the README's top two levels.
    @Test func theContentsLinkEverySection() throws {
        let readme = try MarkdownFile(path: "README.md")
        let contents = try #require(readme.lines.firstIndex { $0.hasPrefix("Contents:") })
        var linked: Set<String> = []
        for line in readme.lines[contents...].prefix(while: { !$0.isEmpty }) {
            for target in MarkdownFile.links(in: line) where target.hasPrefix("#") { linked.insert(String(target.dropFirst())) }
        }
        let sections = readme.headings.filter { $0.level == 2 }.map(\.anchor)
        #expect(sections.count >= 5)
        #expect(Set(sections).subtracting(linked).isEmpty, "sections missing from Contents: \(Set(sections).subtracting(linked).sorted())")
    }

    // MARK: the checker itself

    /// The README as it was before it was cut down: "``` In" on line 109 swallowed three sections.
    @Test func aFenceWithTextAfterItIsCaught() {
        let text = """
            Contents: [The rules](#the-rules-in-order)

            ```sh
            $ openin-check test
            1 passed
            ``` In
            `swift test` every row is its own test case.

            ### The rules, in order

            ```swift
            let x = 1
            ```
            """
        let file = MarkdownFile(path: "old.md", text: text)
        #expect(file.headings.isEmpty, "the heading is inside the code block")
        #expect(file.fences.count == 1 && file.fences[0].closeLine == 13)
        let problems = Self.problems(in: file)
        #expect(problems.contains { $0.hasPrefix("old.md:6: a fence with text after it does not close") })
        #expect(problems.contains { $0.hasPrefix("old.md:1: the link '#the-rules-in-order' names no heading") })
    }

    @Test func fencesCloseOnlyOnTheSameCharacterAtLeastAsLong() {
        let file = MarkdownFile(path: "f.md", text: "````md\n```\nstill code\n````\n~~~\n```\n~~~~  \n# After\n~~~\nopen")
        #expect(file.fences.map(\.openLine) == [1, 5, 9])
        #expect(file.fences.map(\.closeLine) == [4, 7, nil])
        #expect(file.fences[0].lines == ["```", "still code"])
        #expect(file.fences[0].notClosing.isEmpty, "a shorter fence inside is content, not a near-miss close")
        #expect(file.headings.map(\.text) == ["After"])
        #expect(Self.problems(in: file).count == 1, "the last fence is never closed")
    }

    @Test func anchorsFollowGitHub() {
        let file = MarkdownFile(path: "a.md", text: """
            # openin-check
            ## The command line: `openin-check`
            ### `AppConnect.plist`
            ### Info.plist
            ### Open From, copy and print
            ## Policy analysis: `lint` and `diff`
            ### `openin-check diff OLD NEW`: the impact of a change
            ## The AppConnect SDK double: test an app's code unchanged
            ## Examples
            ## Examples
            ## Examples
            ## Start-up, size — and *load*
            ## [Linked](x.md) heading ##
            Setext heading
            --------------
            """)
        #expect(file.headings.map(\.anchor) == [
            "openin-check", "the-command-line-openin-check", "appconnectplist", "infoplist", "open-from-copy-and-print",
            "policy-analysis-lint-and-diff", "openin-check-diff-old-new-the-impact-of-a-change",
            "the-appconnect-sdk-double-test-an-apps-code-unchanged", "examples", "examples-1", "examples-2",
            "start-up-size--and-load", "linked-heading", "setext-heading",
        ])
        #expect(MarkdownFile.anchor("Ünïcode MI_AC_KEY 1.2") == "ünïcode-mi_ac_key-12")
    }

    @Test func aDocCArticleLinksWithDocLinks() {
        let file = MarkdownFile(path: "Sources/X/X.docc/A.md", text: "# A\n\nSee [B](doc:B#Section), [C](#a) and [rules](../../../Rules/README.md).\n")
        let problems = Self.problems(in: file)
        #expect(problems.count == 2)
        #expect(problems.allSatisfy { $0.hasPrefix("Sources/X/X.docc/A.md:3: ") })
    }

    @Test func linksAreFoundOutsideCodeSpans() {
        #expect(MarkdownFile.links(in: "see [a](#x) and `[b](#y)` and [c](Rules/README.md#the-rules \"t\")") == ["#x", "Rules/README.md#the-rules"])
        #expect(MarkdownFile.links(in: "[ref]: Examples/x.json") == ["Examples/x.json"])
    }
}
