import Foundation
import Testing

/// The fleet article (`Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md`) cannot drift: every `$ openin-check …`
/// line of its command blocks runs against the built binary in the package root, and what it prints must be
/// the lines under it (a line holding only `…` stands for any number of lines), as the README's blocks are checked.
@Suite struct FleetArticleTests {
    @Test func everyCommandPrintsWhatTheArticleShows() throws {
        let url = BuiltBinary.packageRoot.appendingPathComponent("Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var ran = 0
        var index = 0
        var inBlock = false
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("```") {
                inBlock.toggle()
                index += 1
                continue
            }
            guard inBlock, line.hasPrefix("$ openin-check ") else {
                index += 1
                continue
            }
            let command = String(line.dropFirst(2))
            var shown: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("$ "), !lines[index].hasPrefix("```") {
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
        #expect(ran >= 8)
        #expect(!inBlock, "FleetWalkthrough.md: a code block is not closed")
    }
}
