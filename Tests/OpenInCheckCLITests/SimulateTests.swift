import Foundation
@testable import OpenInCheckCLI
import Testing

/// `openin-check simulate`: parsing in process, running in process, and through the built binary.
@Suite struct SimulateTests {
    static let example = "Examples/scenarios/first-launch-whitelisted-app.scenario"

    static func absolute(_ path: String) -> String { BuiltBinary.packageRoot.appendingPathComponent(path).path }

    /// Writes `text` to a fresh temporary scenario file, in a folder of its own, and returns its path (`TemporaryFile.remove(_:)` removes it).
    static func temporaryScenario(_ text: String) throws -> String {
        let file = try TemporaryFile.folder("openin-simulate").appendingPathComponent("mine.scenario")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs the CLI in process.
    static func run(_ arguments: [String], stdin: String = "") -> (stdout: String, stderr: String, status: OpenInCheckCLI.ExitStatus) {
        let console = Console.memory(stdin: Array(stdin.utf8))
        let status = CLI.run(arguments: arguments, console: console)
        return (console.stdout.text, console.stderr.text, status)
    }

    // MARK: Parsing

    @Test func parsesAScenarioAndAFormat() throws {
        guard case .run(let command) = try CLI.parse(["simulate", "--format", "json", "a.scenario"]) else {
            Issue.record("expected a command")
            return
        }
        #expect(command as? SimulateCommand == SimulateCommand(path: "a.scenario", format: .json))
        guard case .run(let plain) = try CLI.parse(["simulate", "a.scenario"]) else {
            Issue.record("expected a command")
            return
        }
        #expect(plain as? SimulateCommand == SimulateCommand(path: "a.scenario", format: .text))
    }

    @Test(arguments: [
        (["simulate"], "missing SCENARIO: give a scenario file, or '-' for standard input"),
        (["simulate", "a", "b"], "simulate takes one SCENARIO, not 2"),
        (["simulate", "--format", "yaml", "a"], "unknown format 'yaml': use text or json."),
        (["simulate", "--formt", "json", "a"], "unknown option '--formt'. Did you mean '--format'?"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: CLIError.usage(UsageError(message, verb: "simulate"))) { try CLI.parse(arguments) }
        #expect(Self.run(arguments).status == .usage)
    }

    @Test func helpDescribesTheVerbAndTheTopLevelListsIt() {
        let help = Self.run(["simulate", "--help"])
        #expect(help.status == .success)
        #expect(help.stdout.hasPrefix("Replays the scenario file SCENARIO"))
        #expect(help.stdout.contains("Exit status: 0 every share was allowed; 2 some share was not"))
        #expect(Self.run(["--help"]).stdout.contains("  simulate  "))
    }

    // MARK: Running

    @Test func anExamplePrintsItsExpectedTimelineAndExits2() throws {
        let result = Self.run(["simulate", Self.absolute(Self.example)])
        let expected = try String(contentsOfFile: Self.absolute("Examples/scenarios/first-launch-whitelisted-app.expected"), encoding: .utf8)
        #expect(result.stdout == expected)
        #expect(result.stderr == "")
        #expect(result.status == .notAllowed)
    }

    @Test func everyShareAllowedExits0() throws {
        let path = try Self.temporaryScenario("server openInPolicy authorized\nlaunch\nshare activity-view\n")
        defer { TemporaryFile.remove(path) }
        let result = Self.run(["simulate", path])
        #expect(result.status == .success)
        #expect(result.stdout.hasSuffix("1 share, 0 not allowed\n"))
    }

    @Test func aScenarioWithoutSharesExits0() throws {
        let path = try Self.temporaryScenario("launch\n")
        defer { TemporaryFile.remove(path) }
        #expect(Self.run(["simulate", path]).status == .success)
    }

    @Test func anInvalidScenarioExits1WithFileLineAndFix() throws {
        let path = try Self.temporaryScenario("launch\nserver openInPolicy sometimes\n")
        defer { TemporaryFile.remove(path) }
        let result = Self.run(["simulate", path])
        #expect(result.status == .invalidInput)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: \(path):2: unknown Open In policy 'sometimes': use unauthorized, authorized, whitelist, appconnect, an SDK constant name (ACOPENINPOLICY_WHITELIST or ACOpenInPolicyWhitelist), or 0, 1, 2\n")
    }

    @Test func aMissingFileExits1() {
        let result = Self.run(["simulate", "/nonexistent/x.scenario"])
        #expect(result.status == .invalidInput)
        #expect(result.stderr == "Error: cannot read scenario '/nonexistent/x.scenario': no such file or directory\n")
    }

    @Test func aFileThatIsNotUTF8Exits1() throws {
        let path = try Self.temporaryScenario("")
        defer { TemporaryFile.remove(path) }
        try Data([0x6C, 0x61, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        let result = Self.run(["simulate", path])
        #expect(result.status == .invalidInput)
        #expect(result.stderr == "Error: \(path): is not UTF-8 text: save it as UTF-8\n")
    }

    @Test func standardInputIsADash() {
        let result = Self.run(["simulate", "-"], stdin: "launch\nbogus\n")
        #expect(result.stderr == "Error: standard input:2: unknown statement 'bogus': a line starts with app, server, device, launch, check-in, quit, share, copy, read, ack, log, stop, retire or switch-mode\n")
        #expect(Self.run(["simulate", "-"], stdin: "launch\nshare mail-compose\n").status == .notAllowed)
    }

    @Test func jsonIsOneDocument() throws {
        let result = Self.run(["simulate", "--format", "json", Self.absolute(Self.example)])
        #expect(result.status == .notAllowed)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["notAllowed"] as? Int == 1)
        #expect(object?["scenario"] as? String == Self.absolute(Self.example))
    }

    // MARK: The built binary

    @Test func theBinaryRunsTheExamples() throws {
        for name in ["first-launch-whitelisted-app", "policy-change-unimplemented-callback", "dual-mode-round-trip"] {
            let run = try BuiltBinary.run(["simulate", "Examples/scenarios/\(name).scenario"])
            let expected = try String(contentsOfFile: Self.absolute("Examples/scenarios/\(name).expected"), encoding: .utf8)
            #expect(run.stdout == expected, "\(name)")
            #expect(run.status == 2, "\(name)")
            #expect(run.stderr == "")
        }
    }

    @Test func theBinaryReportsAnInvalidScenario() throws {
        let path = try Self.temporaryScenario("share mail-compose\n")
        defer { TemporaryFile.remove(path) }
        let run = try BuiltBinary.run(["simulate", path])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(path):1: 'share' needs a running app: add 'launch' above this line\n")
    }
}
