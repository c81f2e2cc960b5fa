import Foundation
import Testing

/// The fleet article (`Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md`) cannot drift: every `$ openin-check …`
/// line of its command blocks runs against the built binary in the package root, and what it prints must be
/// the lines under it (a line holding only `…` stands for any number of lines), as the README's blocks are checked.
/// Blocks are found as CommonMark finds them (`MarkdownFile`): a longer fence (```` ```` ````) holds output that shows fences.
@Suite struct FleetArticleTests {
    @Test func everyCommandPrintsWhatTheArticleShows() throws {
        let document = try MarkdownFile(path: "Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md")
        var ran = 0
        for block in ReadmeEndToEndTests.blocks(of: document) where block.info.isEmpty {
            var index = 0
            let lines = block.lines
            while index < lines.count {
                guard lines[index].hasPrefix("$ openin-check ") else {
                    index += 1
                    continue
                }
                let command = String(lines[index].dropFirst(2))
                var shown: [String] = []
                index += 1
                while index < lines.count, !lines[index].hasPrefix("$ ") {
                    shown.append(lines[index])
                    index += 1
                }
                let run = try ReadmeEndToEndTests.shell(command)
                var actual = run.output.components(separatedBy: "\n")
                if actual.last == "" { actual.removeLast() }
                #expect(ReadmeEndToEndTests.matches(shown[...], actual[...]),
                        "FleetWalkthrough.md: '\(command)' no longer prints what the article shows.\nShown:\n\(shown.joined(separator: "\n"))\nActual:\n\(actual.joined(separator: "\n"))")
                ran += 1
            }
        }
        #expect(ran >= 14)
        #expect(document.fences.allSatisfy { $0.closeLine != nil }, "FleetWalkthrough.md: a code block is not closed")
    }
}
