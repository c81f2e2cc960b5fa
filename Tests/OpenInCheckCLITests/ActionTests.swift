import Foundation
import Testing

/// The CI step (`action.yml`, a composite action) run without GitHub: its script with bash, in a temporary
/// repository with a base and a head commit, the environment GitHub gives a step (`GITHUB_WORKSPACE`,
/// `GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT`) and the inputs as the step's `env:` maps them.
@Suite struct ActionTests {
    /// The action's one step, as `action.yml` writes it: its `env:` lines and its `run: |` script.
    struct Step {
        var env: [(name: String, value: String)] = []
        var script = ""
    }

    /// The action's inputs (names under `inputs:`, in order), their defaults, and its step, read line by line
    /// (the file's own layout).
    static func read() throws -> (inputs: [String], step: Step) {
        let (inputs, _, step) = try readWithDefaults()
        return (inputs, step)
    }

    static func readWithDefaults() throws -> (inputs: [String], defaults: [String: String], step: Step) {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8)
        var inputs: [String] = [], defaults: [String: String] = [:], step = Step()
        var section = "", inScript = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inScript {
                if indent >= 8 || trimmed.isEmpty {
                    step.script += (trimmed.isEmpty ? "" : String(line.dropFirst(8))) + "\n"
                    continue
                }
                inScript = false
            }
            if indent == 0, trimmed.hasSuffix(":") { section = trimmed }
            if section == "inputs:", indent == 2, trimmed.hasSuffix(":") { inputs.append(String(trimmed.dropLast())) }
            if section == "inputs:", indent == 4, trimmed.hasPrefix("default: "), let input = inputs.last {
                let value = String(trimmed.dropFirst("default: ".count))
                // An expression (the pull request's base) is empty outside a pull request, as on a push.
                defaults[input] = value == "\"\"" || value.hasPrefix("${{") ? "" : value
            }
            if section == "runs:" {
                if trimmed == "run: |" { inScript = true }
                if indent == 8, let colon = trimmed.firstIndex(of: ":"), trimmed.contains("${{") {
                    step.env.append((String(trimmed[..<colon]), trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                }
            }
        }
        return (inputs, defaults, step)
    }

    /// What one run of the step gave.
    struct Run {
        let status: Int32
        let summary: String
        let outputs: [String: String]
        let stderr: String
        let workspace: URL
    }

    /// Runs the step's script in `repository` with `inputs` (by input name; the rest empty).
    static func run(_ step: Step, in repository: URL, inputs: [String: String]) throws -> Run {
        let defaults = try readWithDefaults().defaults
        let scratch = repository.deletingLastPathComponent()
        let summary = scratch.appendingPathComponent("summary.md"), output = scratch.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: summary.path, contents: Data())
        _ = FileManager.default.createFile(atPath: output.path, contents: Data())
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "GITHUB_WORKSPACE": repository.path, "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_OUTPUT": output.path]
        for (name, value) in step.env {
            // Each env value is one input (or the action's own path): `${{ inputs.NAME }}`.
            if value == "${{ github.action_path }}" {
                environment[name] = BuiltBinary.packageRoot.path
            } else {
                let input = String(value.dropFirst("${{ inputs.".count).dropLast(" }}".count))
                environment[name] = inputs[input] ?? defaults[input] ?? ""
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", "-c", step.script]
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var outputs: [String: String] = [:]
        for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            outputs[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return Run(status: process.terminationStatus, summary: try String(contentsOf: summary, encoding: .utf8), outputs: outputs,
                   stderr: stderr, workspace: repository)
    }

    /// Runs git in `directory`; its standard output, trimmed.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")) failed")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A repository whose commits hold, in turn, each of `commits` (files by path, copied from Examples/).
    static func repository(_ commits: [[String: String]]) throws -> (url: URL, revisions: [String]) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("openin-action-\(UUID().uuidString)")
        let url = scratch.appendingPathComponent("policies")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try git(["init", "-q"], in: url)
        var revisions: [String] = []
        for files in commits {
            for (path, example) in files {
                let destination = url.appendingPathComponent(path)
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: BuiltBinary.packageRoot.appendingPathComponent(example), to: destination)
            }
            try git(["add", "-A"], in: url)
            try git(["commit", "-q", "--allow-empty", "-m", "change"], in: url)
            revisions.append(try git(["rev-parse", "HEAD"], in: url))
        }
        return (url, revisions)
    }

    static func binary() throws -> String { try #require(BuiltBinary.url, "the openin-check binary was not built").path }

    @Test("the step's script sees its inputs through env only, and every env value is an input or the action's path")
    func inputsReachTheScriptThroughEnvOnly() throws {
        let (inputs, step) = try Self.read()
        #expect(inputs == ["fleet", "devices", "baseline", "base", "binary", "output-directory"])
        #expect(step.script.contains("fleet diff") && step.script.contains("GITHUB_STEP_SUMMARY"))
        #expect(!step.script.contains("${{"), "an expression inside the script is expanded into shell code")
        #expect(step.env.count == 7)
        for (name, value) in step.env {
            let input = value.hasPrefix("${{ inputs.") ? String(value.dropFirst("${{ inputs.".count).dropLast(" }}".count)) : nil
            #expect(value == "${{ github.action_path }}" || (input.map(inputs.contains) ?? false), "\(name): \(value)")
        }
    }

    @Test("a change that opens leak paths: the diff in the summary and the comment, SARIF written, status 2")
    func aChangeThatOpensPathsFailsTheGate() throws {
        let (_, step) = try Self.read()
        let (repository, revisions) = try Self.repository([["fleet/acme.json": "Examples/fleet/acme-reviewed.json"],
                                                           ["fleet/acme.json": "Examples/fleet/acme.json"]])
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let run = try Self.run(step, in: repository, inputs: ["fleet": "fleet/acme.json", "base": revisions[0], "binary": try Self.binary()])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.outputs["status"] == "2")
        #expect(run.summary.hasPrefix("<!-- openin-check review -->\n**openin-check**: this change opens a leak path"))
        #expect(run.summary.contains("## Leak paths opened and closed") && run.summary.contains("| opened |"), "\(run.summary.prefix(2000))")
        let comment = try String(contentsOfFile: repository.appendingPathComponent(try #require(run.outputs["comment"])).path, encoding: .utf8)
        #expect(comment == run.summary)
        let sarif = try Data(contentsOf: repository.appendingPathComponent(try #require(run.outputs["sarif"])))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [Any]) ?? []
        #expect(!results.isEmpty)
    }

    @Test("a change that closes paths passes; without a base the gate is every path of the head")
    func aChangeThatOpensNothingPasses() throws {
        let (_, step) = try Self.read()
        let (repository, revisions) = try Self.repository([["fleet/acme.json": "Examples/fleet/acme.json"],
                                                           ["fleet/acme.json": "Examples/fleet/acme-reviewed.json"]])
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let closes = try Self.run(step, in: repository, inputs: ["fleet": "fleet/acme.json", "base": revisions[0], "binary": try Self.binary()])
        #expect(closes.status == 0, "\(closes.stderr)")
        #expect(closes.outputs["status"] == "0")
        #expect(closes.summary.contains("this change opens no leak path") && closes.summary.contains("| closed |"))
        // No base: the gate is every path of the head.
        let head = try Self.run(step, in: repository, inputs: ["fleet": "fleet/acme.json", "binary": try Self.binary()])
        #expect(head.status == 2, "acme-reviewed still has paths to outside: \(head.stderr)")
        #expect(head.summary.contains("Leak paths"), "\(head.summary.prefix(500))")
    }

    @Test("Intune policies backed up as a folder, compared at the base and the head, with a devices file")
    func anIntuneFolderIsReadAtTheBase() throws {
        let (_, step) = try Self.read()
        let (repository, revisions) = try Self.repository([["intune/policies": "Examples/intune/pilot", "intune/devices.json": "Examples/intune/devices.json"],
                                                           ["README.md": "Examples/intune/acme.md"]])
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let run = try Self.run(step, in: repository, inputs: ["fleet": "intune/policies", "devices": "intune/devices.json",
                                                              "base": revisions[0], "binary": try Self.binary()])
        #expect(run.status == 0, "\(run.stderr) \(run.summary.prefix(2000))")
        #expect(run.summary.contains("opens no leak path"))
        #expect(FileManager.default.fileExists(atPath: repository.appendingPathComponent("openin-check-review/base/intune/policies").path))
    }

    @Test("an input that cannot be read: the what and where in the summary, status 1, never a pass")
    func aBrokenInputFailsClosed() throws {
        let (_, step) = try Self.read()
        let (repository, revisions) = try Self.repository([["fleet/acme.json": "Examples/fleet/acme.json"],
                                                           ["fleet/acme.json": "Examples/intune/acme.md"]])
        defer { try? FileManager.default.removeItem(at: repository.deletingLastPathComponent()) }
        let broken = try Self.run(step, in: repository, inputs: ["fleet": "fleet/acme.json", "base": revisions[0], "binary": try Self.binary()])
        #expect(broken.status == 1, "\(broken.stderr)")
        #expect(broken.outputs["status"] == "1")
        #expect(broken.summary.contains("could not review this change (exit status 1)") && broken.summary.contains("fleet/acme.json"), "\(broken.summary)")
        let missing = try Self.run(step, in: repository, inputs: ["fleet": "fleet/nope.json", "binary": try Self.binary()])
        #expect(missing.status == 1 && missing.stderr.contains("fleet/nope.json: no such file or folder"), "\(missing.stderr)")
        let unknownBase = try Self.run(step, in: repository, inputs: ["fleet": "fleet/acme.json", "base": "0123456789abcdef0123456789abcdef01234567",
                                                                      "binary": try Self.binary()])
        #expect(unknownBase.status == 1 && unknownBase.stderr.contains("is not in this clone"), "\(unknownBase.stderr)")
    }
}
