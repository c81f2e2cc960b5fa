@testable import OpenInCheckCLI
import Testing

/// Parsing is a pure function: these call it in process.
@Suite struct CLIParsingTests {
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelp(arguments: [String]) throws {
        guard case .help(let text) = try CLI.parse(arguments) else {
            Issue.record("expected help for \(arguments)")
            return
        }
        #expect(text == CLI.help)
    }

    @Test func version() throws {
        guard case .version = try CLI.parse(["--version"]) else {
            Issue.record("expected version")
            return
        }
    }

    @Test func unknownTopLevelOptionSuggests() {
        #expect(throws: CLIError.usage(UsageError("unknown option '--verison': give a verb first. Did you mean '--version'?", verb: nil))) {
            try CLI.parse(["--verison"])
        }
    }

    @Test func helpForUnknownVerb() {
        #expect(throws: CLIError.usage(UsageError("unknown verb 'nope'.", verb: nil))) {
            try CLI.parse(["help", "nope"])
        }
    }

    @Test func errorReportForAUsageError() {
        let report = ErrorReport.render(.usage(UsageError("unknown verb 'x'.", verb: nil)))
        #expect(report.status == .usage)
        #expect(report.text == "Error: unknown verb 'x'.\nUsage: openin-check <verb> [options]\nSee 'openin-check --help' for more information.\n")
    }

    @Test func errorReportForInvalidInput() {
        let report = ErrorReport.render(.invalidInput("policy.json:2:3: openInPolicy is missing"))
        #expect(report.status == .invalidInput)
        #expect(report.text == "Error: policy.json:2:3: openInPolicy is missing\n")
    }
}

@Suite struct OptionScannerTests {
    static let specs = [
        OptionSpec("--policy", value: "FILE", help: "The policy."),
        OptionSpec("--config", value: "KEY=VALUE", repeatable: true, help: "Config."),
        OptionSpec("--explain", help: "Explain."),
    ]

    @Test func sortsOptionsFlagsAndPositionals() throws {
        let parsed = try OptionScanner.scan(["--policy", "p.json", "--config=A=1", "--explain", "-", "--config", "B=2", "--", "--x"],
                                            specs: Self.specs, verb: "eval")
        #expect(parsed.value("--policy") == "p.json")
        #expect(parsed.all("--config") == ["A=1", "B=2"])
        #expect(parsed.has("--explain"))
        #expect(parsed.positionals == ["-", "--x"])
    }

    @Test func unknownOptionSuggests() {
        #expect(throws: UsageError("unknown option '--polcy'. Did you mean '--policy'?", verb: "eval")) {
            try OptionScanner.scan(["--polcy", "p.json"], specs: Self.specs, verb: "eval")
        }
    }

    @Test func missingValue() {
        #expect(throws: UsageError("missing value for '--policy FILE'", verb: "eval")) {
            try OptionScanner.scan(["--policy"], specs: Self.specs, verb: "eval")
        }
        #expect(throws: UsageError("missing value for '--policy FILE'", verb: "eval")) {
            try OptionScanner.scan(["--policy", "--explain"], specs: Self.specs, verb: "eval")
        }
    }

    @Test func flagWithValueAndRepeatedSingleOption() {
        #expect(throws: UsageError("option '--explain' takes no value", verb: "eval")) {
            try OptionScanner.scan(["--explain=yes"], specs: Self.specs, verb: "eval")
        }
        #expect(throws: UsageError("option '--policy' is given more than once; give it once", verb: "eval")) {
            try OptionScanner.scan(["--policy", "a", "--policy", "b"], specs: Self.specs, verb: "eval")
        }
    }

    @Test func helpIsSeenBeforeDoubleDashOnly() {
        #expect(OptionScanner.asksForHelp(["--policy", "x", "-h"]))
        #expect(!OptionScanner.asksForHelp(["--", "--help"]))
    }
}
