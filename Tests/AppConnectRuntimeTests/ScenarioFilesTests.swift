import AppConnectRuntime
import Foundation
import Testing

/// A scenario file next to its expected timeline (`NAME.scenario`, `NAME.expected`).
struct ScenarioFile: Sendable, CustomTestStringConvertible {
    /// The path from the package root, e.g. `Rules/lifecycle/ready-gating.scenario`.
    let relativePath: String

    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let folders = ["Rules/lifecycle", "Examples/scenarios"]

    /// Every scenario in the folders, or only `OPENIN_SCENARIO_FILE` (a path from the package root).
    static let all: [ScenarioFile] = {
        if let only = ProcessInfo.processInfo.environment["OPENIN_SCENARIO_FILE"], !only.isEmpty {
            return [ScenarioFile(relativePath: only)]
        }
        return folders.flatMap { folder in files(in: folder, ending: ".scenario") }.map(ScenarioFile.init)
    }()

    static func files(in folder: String, ending suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }

    var path: String { ScenarioFile.packageRoot.appendingPathComponent(relativePath).path }
    var expectedPath: String { String(path.dropLast(".scenario".count)) + ".expected" }

    /// `file: the first comment line`.
    var testDescription: String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let note = text.split(separator: "\n").first { $0.hasPrefix("#") }.map { $0.dropFirst().trimmingCharacters(in: .whitespaces) }
        return "\(relativePath): \(note ?? "")"
    }
}

/// The lifecycle cases of `Rules/lifecycle/` and the examples of `Examples/scenarios/`:
/// each scenario's timeline must be exactly its `.expected` file.
///
/// Run one file with `OPENIN_SCENARIO_FILE=Rules/lifecycle/ready-gating.scenario swift test --filter ScenarioFilesTests`.
/// After a deliberate change, review the new output with `swift run openin-check simulate FILE` and
/// write it to the `.expected` file.
@Suite("Lifecycle scenarios and examples")
struct ScenarioFilesTests {
    @Test("scenario", arguments: ScenarioFile.all)
    func timelineMatches(_ file: ScenarioFile) throws {
        let scenario = try Scenario.load(path: file.path)
        let expected = try String(contentsOfFile: file.expectedPath, encoding: .utf8)
        let actual = ScenarioRunner.run(scenario).text
        if actual != expected {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(actualLines.count, expectedLines.count)
            let got = first < actualLines.count ? String(actualLines[first]) : "(end of output)"
            let wanted = first < expectedLines.count ? String(expectedLines[first]) : "(end of file)"
            Issue.record("\(file.expectedPath):\(first + 1): expected\n  \(wanted)\ngot\n  \(got)")
        }
    }

    @Test("every scenario has an expected timeline, and every expected timeline a scenario")
    func filesPair() {
        for folder in ScenarioFile.folders {
            let scenarios = Set(ScenarioFile.files(in: folder, ending: ".scenario").map { $0.dropLast(".scenario".count) })
            let expected = Set(ScenarioFile.files(in: folder, ending: ".expected").map { $0.dropLast(".expected".count) })
            #expect(scenarios == expected, "in \(folder)")
            #expect(!scenarios.isEmpty, "\(folder) holds scenarios")
        }
    }

    @Test("the three examples of the issue are there")
    func examples() {
        #expect(ScenarioFile.files(in: "Examples/scenarios", ending: ".scenario") == [
            "Examples/scenarios/dual-mode-round-trip.scenario",
            "Examples/scenarios/first-launch-whitelisted-app.scenario",
            "Examples/scenarios/policy-change-unimplemented-callback.scenario",
        ])
    }
}
