import Foundation
import Testing

/// An app team's test package (Tests/Fixtures/ParallelHarness: an app target and tests of it in several
/// suites and files, Swift Testing and XCTest, each test with its own harness) passes under plain
/// `swift test`, run again and again: the double needs no `--no-parallel` and no `.serialized` across suites.
///
/// Building the fixture is a second build of the double from scratch (about three minutes on two cores),
/// so it runs at soak size: under `OPENIN_SOAK=1` (which `.ci/run` sets), under `CI=true`, or when
/// `OPENIN_PARALLEL_RUNS` asks for it; a developer's plain `swift test` leaves it out.
/// It builds the fixture once and runs it `OPENIN_PARALLEL_RUNS` times (3 by default, to keep CI
/// short); `Tests/Fixtures/run-parallel-harness.sh` runs it 20 times.
@Suite struct ParallelFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Whether the fixture is built and run: at soak size, in CI, or when a number of runs is asked for.
    static let runsFixture: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["OPENIN_SOAK"] == "1" || environment["CI"] == "true" || environment["OPENIN_PARALLEL_RUNS"] != nil
    }()

    @Test(.enabled(if: runsFixture, "builds a second copy of the double: runs under OPENIN_SOAK=1 (.ci/run), CI=true or OPENIN_PARALLEL_RUNS"))
    func theFixturePackagePassesUnderPlainSwiftTestEveryTime() throws {
        let fixture = Self.root.appendingPathComponent("Tests/Fixtures/ParallelHarness")
        let scratch = Self.root.appendingPathComponent(".build/fixtures/ParallelHarness").path
        let runs = Int(ProcessInfo.processInfo.environment["OPENIN_PARALLEL_RUNS"] ?? "") ?? 3
        let build = try Self.swift(["build", "--build-tests", "--scratch-path", scratch], in: fixture)
        try #require(build.status == 0, "the fixture package did not build:\n\(build.output)")
        for run in 1...runs {
            let test = try Self.swift(["test", "--scratch-path", scratch], in: fixture)
            #expect(test.status == 0, "run \(run) of \(runs) failed:\n\(test.output)")
            // Every test ran: 14 Swift Testing tests (one with 12 cases; one is the README's) and 2 XCTest tests.
            #expect(test.output.contains("Test run with 14 tests in 5 suites passed"), "run \(run):\n\(test.output)")
            #expect(test.output.contains("Executed 2 tests, with 0 failures"), "run \(run):\n\(test.output)")
        }
    }

    /// The README's first SDK-double test is a whole file a newcomer can paste, and the manifest lines
    /// beside it: the fixture holds both, text for text, so building and running the fixture compiles
    /// and runs exactly what the README shows.
    @Test func theReadmesFirstTestIsTheFixturesFileAndManifestLines() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(readme)
        let fixture = Self.root.appendingPathComponent("Tests/Fixtures/ParallelHarness")
        let file = try String(contentsOf: fixture.appendingPathComponent("Tests/NotesTests/NotesTests.swift"), encoding: .utf8)
        #expect(blocks.contains(file), "README.md no longer shows Tests/Fixtures/ParallelHarness/Tests/NotesTests/NotesTests.swift as it is")
        #expect(file.hasPrefix("import AppConnect ") && file.contains("\nimport Testing\n") && file.contains("final class NotesAppDelegate"))
        let lines = try #require(blocks.first { $0.hasPrefix(".testTarget(name: \"NotesTests\"") }, "README.md shows no NotesTests test target")
        let manifest = try String(contentsOf: fixture.appendingPathComponent("Package.swift"), encoding: .utf8)
        let indented = lines.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        #expect(manifest.contains(indented + "\n"), "the fixture's Package.swift does not have the README's test target lines")
    }

    /// The contents of each fenced `swift` block of a Markdown text (each line ending in a newline).
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = [], current: String? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = ""
            } else if let block = current, line == "```" {
                blocks.append(block)
                current = nil
            } else if current != nil {
                current! += line + "\n"
            }
        }
        return blocks
    }

    /// Runs `swift ARGUMENTS` in `directory`; its status and its output and errors together.
    static func swift(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
