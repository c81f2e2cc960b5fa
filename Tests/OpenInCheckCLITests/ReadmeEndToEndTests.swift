import Foundation
import OpenInPolicy
import Testing

/// Issue 14: the README cannot drift. Every command block in README.md is run against the built
/// binary, in the package root, on the bundled examples:
///
/// - a block with `$ openin-check …` lines: each command runs and its output (standard output and
///   standard error, as a terminal shows them) must be the lines under it;
/// - a block after `<!-- readme-test: output of openin-check … -->`: the block is that command's output;
/// - any other `sh` or unlabelled block: each line is an `openin-check` command (`swift run openin-check`
///   counts) that must run without a usage error; a `# exit N` comment checks the status;
/// - a block after `<!-- readme-test: skip (why) -->` is not run (install paths, placeholders, long runs).
///
/// In shown output, a line holding only `…` stands for any number of lines. The verb table is checked
/// against the verbs `openin-check --help` lists.
@Suite struct ReadmeEndToEndTests {
    /// A fenced block of the README: its info string, first content line (1-based) and lines, and the marker before it.
    struct Block: CustomStringConvertible {
        let info: String
        let line: Int
        let lines: [String]
        let marker: String?
        var description: String { "README.md:\(line)" }
    }

    static let readme: [String] = {
        let text = (try? String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\n")
    }()

    static let blocks: [Block] = {
        var blocks: [Block] = []
        var index = 0
        while index < readme.count {
            let line = readme[index]
            guard line.hasPrefix("```") else { index += 1; continue }
            let info = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var previous = index - 1
            while previous >= 0, readme[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
            let before = previous >= 0 ? readme[previous].trimmingCharacters(in: .whitespaces) : ""
            let marker = before.hasPrefix("<!-- readme-test:") && before.hasSuffix("-->")
                ? String(before.dropFirst("<!-- readme-test:".count).dropLast(3)).trimmingCharacters(in: .whitespaces) : nil
            var end = index + 1
            while end < readme.count, !readme[end].hasPrefix("```") { end += 1 }
            blocks.append(Block(info: info, line: index + 2, lines: Array(readme[(index + 1)..<min(end, readme.count)]), marker: marker))
            index = end + 1
        }
        return blocks
    }()

    /// The blocks that hold commands (languages such as json or swift are not run).
    static var commandBlocks: [Block] { blocks.filter { ["", "sh", "console"].contains($0.info) } }

    /// Runs `command` in bash in the package root, `openin-check` being the built binary; output as a terminal shows it.
    static func shell(_ command: String) throws -> (output: String, status: Int32) {
        let binary = try #require(BuiltBinary.url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "openin-check() { \"$0\" \"$@\"; }\nexec 2>&1\n" + command.replacingOccurrences(of: "swift run openin-check", with: "openin-check"), binary.path]
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// Whether `actual` matches `shown`, where a shown line holding only `…` matches any run of lines.
    static func matches(_ shown: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = shown.first else { return actual.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "…" {
            return actual.indices.contains { matches(shown.dropFirst(), actual[$0...]) } || matches(shown.dropFirst(), actual[actual.endIndex...])
        }
        guard let line = actual.first, line == first else { return false }
        return matches(shown.dropFirst(), actual.dropFirst())
    }

    static func check(_ command: String, shows expected: [String], in block: Block) throws {
        let run = try shell(command)
        var actual = run.output.components(separatedBy: "\n")
        if actual.last == "" { actual.removeLast() }
        var shown = expected
        while shown.last == "" { shown.removeLast() }
        #expect(matches(shown[...], actual[...]),
                "\(block): '\(command)' no longer prints what the README shows.\nShown:\n\(shown.joined(separator: "\n"))\nActual:\n\(actual.joined(separator: "\n"))")
    }

    /// The logical lines of a block: `\` continuations joined.
    static func logicalLines(_ lines: [String]) -> [(line: String, offset: Int)] {
        var result: [(String, Int)] = []
        var current: String? = nil
        var start = 0
        for (offset, line) in lines.enumerated() {
            if current == nil { start = offset }
            let joined = (current.map { $0 + " " } ?? "") + line.trimmingCharacters(in: .whitespaces)
            if joined.hasSuffix("\\") {
                current = String(joined.dropLast())
            } else {
                result.append((joined, start))
                current = nil
            }
        }
        if let current { result.append((current, start)) }
        return result
    }

    @Test func everyCommandBlockIsRunOrMarked() throws {
        #expect(Self.commandBlocks.count >= 15)
        // The commands run in the package root: none may leave a file there (a long or writing command needs a skip marker).
        let root = BuiltBinary.packageRoot.path
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: root))
        defer {
            let after = Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            #expect(after.subtracting(before).isEmpty, "README commands wrote \(after.subtracting(before).sorted()) into the package root: mark their block with <!-- readme-test: skip (why) -->")
        }
        var ran = 0
        for block in Self.commandBlocks {
            if let marker = block.marker {
                if marker.hasPrefix("skip") { continue }
                let prefix = "output of "
                guard marker.hasPrefix(prefix) else {
                    Issue.record("\(block): unknown marker '\(marker)': use 'skip (why)' or 'output of openin-check …'")
                    continue
                }
                try Self.check(String(marker.dropFirst(prefix.count)), shows: block.lines, in: block)
                ran += 1
            } else if block.lines.contains(where: { $0.hasPrefix("$ ") }) {
                // A session: `$ command` (with `\` continuations), then its output.
                var index = 0
                while index < block.lines.count {
                    guard block.lines[index].hasPrefix("$ ") else {
                        Issue.record("README.md:\(block.line + index): output before any '$ ' command")
                        index += 1
                        continue
                    }
                    var command = String(block.lines[index].dropFirst(2))
                    index += 1
                    while command.hasSuffix("\\"), index < block.lines.count {
                        command = String(command.dropLast()) + " " + block.lines[index].trimmingCharacters(in: .whitespaces)
                        index += 1
                    }
                    var output: [String] = []
                    while index < block.lines.count, !block.lines[index].hasPrefix("$ ") {
                        output.append(block.lines[index])
                        index += 1
                    }
                    try Self.check(command, shows: output, in: block)
                    ran += 1
                }
            } else {
                for (line, offset) in Self.logicalLines(block.lines) {
                    var command = line
                    var expectedStatus: Int32? = nil
                    if let hash = command.range(of: " #") {
                        let comment = command[hash.upperBound...].trimmingCharacters(in: .whitespaces)
                        if comment.hasPrefix("exit "), let status = Int32(comment.dropFirst(5).prefix { $0.isNumber }) { expectedStatus = status }
                        command = String(command[..<hash.lowerBound])
                    }
                    command = command.trimmingCharacters(in: .whitespaces)
                    if command.isEmpty || command.hasPrefix("#") { continue }
                    guard command.hasPrefix("openin-check ") || command.hasPrefix("swift run openin-check ") else {
                        Issue.record("README.md:\(block.line + offset): '\(command)' is not an openin-check command: run it in a '$ ' session, or put <!-- readme-test: skip (why) --> before the block")
                        continue
                    }
                    let run = try Self.shell(command)
                    #expect(![64, 126, 127].contains(run.status) && run.status < 128, "README.md:\(block.line + offset): '\(command)' exits \(run.status): \(run.output)")
                    if let expectedStatus { #expect(run.status == expectedStatus, "README.md:\(block.line + offset): '\(command)'") }
                    ran += 1
                }
            }
        }
        #expect(ran >= 20)
    }

    /// The ellipsis matcher itself: it must not accept what differs.
    @Test func theMatcherRejectsDrift() {
        #expect(Self.matches(["a", "…", "d"][...], ["a", "b", "c", "d"][...]))
        #expect(Self.matches(["a", "…"][...], ["a"][...]))
        #expect(!Self.matches(["a", "…", "d"][...], ["a", "b", "c", "e"][...]))
        #expect(!Self.matches(["a", "b"][...], ["a", "b", "c"][...]))
        #expect(!Self.matches(["a", "b", "c"][...], ["a", "b"][...]))
    }

    /// The README's verb table lists exactly the verbs `openin-check --help` lists.
    @Test func theVerbTableMatchesTheCLI() throws {
        let help = try BuiltBinary.run(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "\nVerbs:\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        let verbs = section.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(verbs.contains("eval") && verbs.contains("help"))
        let start = try #require(Self.readme.firstIndex(of: "| verb | what it does |"))
        var listed: [String] = []
        for line in Self.readme[(start + 2)...] {
            guard line.hasPrefix("| `") else { break }
            listed.append(String(line.dropFirst(3).prefix { $0 != "`" && $0 != " " }))
        }
        #expect(listed == verbs)
    }
}

/// The output the README's Swift examples show in `// …` comments after a `print`, computed by the same calls.
@Suite struct ReadmeSwiftCommentTests {
    /// The comment after the README line that contains `code`.
    static func comment(after code: String) throws -> String {
        let line = try #require(ReadmeEndToEndTests.readme.first { $0.contains(code) }, "the README no longer has '\(code)'")
        let range = try #require(line.range(of: "// "), "'\(code)' has no comment")
        return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    @Test func theEmbeddingExamplePrintsWhatItsCommentSays() throws {
        let policy = Policy(
            status: .whitelist,
            whitelist: try Whitelist(parsing: ["com.apple.mobilemail", "com.example.viewer"]),
            device: try DeviceFacts(emailPlusInstalled: true))
        let decision = try Evaluator(policy: policy).decideOrThrow(channel: "open-url", url: "mailto:cfo@example.com")
        let printed = "\(decision.outcome) \(decision.target.map { "\($0)" } ?? "-") \(decision.rule)"
        #expect(printed == (try Self.comment(after: "print(decision.outcome, decision.target ?? \"-\", decision.rule)")))
    }

    @Test func theDiffExamplePrintsWhatItsCommentSays() throws {
        func policy(_ name: String) throws -> Policy {
            let bytes = try Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/diff/\(name).json"))
            return try PolicyFile.read(Array(bytes), file: name).policy
        }
        // The README's `current` → `proposed` is the tightening its diff section shows.
        let diff = PolicyDiff(old: try policy("old"), new: try policy("tightened"))
        #expect("\(diff.verdict)" == (try Self.comment(after: "print(diff.verdict)")))
    }
}
