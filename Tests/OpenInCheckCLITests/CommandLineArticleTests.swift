import Foundation
import OpenInPolicy
import Testing

/// The command-line article's `eval` reference and `openin-check eval --help` agree: every option the help
/// lists is in the article's option table, and the article's channel list is the help's, in order.
@Suite struct CommandLineArticleTests {
    static func evalSection() throws -> String {
        let article = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Sources/OpenInPolicy/OpenInPolicy.docc/CommandLine.md"), encoding: .utf8)
        let start = try #require(article.range(of: "\n## `eval`\n"))
        let rest = article[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func everyEvalOptionOfTheHelpIsInTheArticle() throws {
        let help = try BuiltBinary.run(["eval", "--help"])
        let options = help.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  --") else { return nil }
            return String(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(options.count >= 20, "the help lists \(options.count) options")
        let section = try Self.evalSection()
        for option in options {
            #expect(section.contains("`\(option)") || section.contains(", `\(option)`"), "CommandLine.md's eval options lack \(option)")
        }
    }

    @Test func theArticlesChannelsAreTheHelpsChannels() throws {
        let section = try Self.evalSection()
        let start = try #require(section.range(of: "\nChannels: "))
        let sentence = section[start.upperBound...].prefix { $0 != "." }
        let listed = sentence.split(whereSeparator: { ", \n".contains($0) }).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }.filter { !$0.isEmpty }
        #expect(listed == Channel.allCases.map(\.rawValue))
        let help = try BuiltBinary.run(["eval", "--help"])
        #expect(help.stdout.contains("One request's channel: " + Channel.allCases.map(\.rawValue).joined(separator: ", ") + "."))
    }
}
