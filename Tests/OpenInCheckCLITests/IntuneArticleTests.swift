import Foundation
import Testing

/// The Intune article (`Sources/OpenInPolicy/OpenInPolicy.docc/Intune.md`) cannot drift: each `$ openin-check …`
/// line of its `sh` blocks runs against the built binary in the package root and must print the lines
/// under it (`…` standing for any number of lines).
@Suite struct IntuneArticleTests {
    @Test func everyCommandPrintsWhatTheArticleShows() throws {
        let url = BuiltBinary.packageRoot.appendingPathComponent("Sources/OpenInPolicy/OpenInPolicy.docc/Intune.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var commands: [(command: String, shown: [String])] = []
        var inBlock = false
        for line in lines {
            if line.hasPrefix("```") {
                inBlock.toggle()
            } else if inBlock, line.hasPrefix("$ ") {
                commands.append((String(line.dropFirst(2)), []))
            } else if inBlock, !commands.isEmpty {
                commands[commands.count - 1].shown.append(line)
            }
        }
        #expect(!inBlock, "Intune.md: a code block is not closed")
        #expect(commands.count >= 6)
        for (command, shown) in commands {
            #expect(command.hasPrefix("openin-check "))
            let run = try ReadmeEndToEndTests.shell(command)
            var actual = run.output.components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            #expect(ReadmeEndToEndTests.matches(shown[...], actual[...]),
                    "Intune.md: '\(command)' no longer prints what the article shows.\nShown:\n\(shown.joined(separator: "\n"))\nActual:\n\(actual.joined(separator: "\n"))")
        }
    }
}
