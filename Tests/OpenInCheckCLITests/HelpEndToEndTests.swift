import Testing

/// Help, version and top-level usage errors, through the built binary.
@Suite struct HelpEndToEndTests {
    @Test func topLevelHelpListsVerbsOnStdout() throws {
        for flag in ["--help", "-h", "help"] {
            let run = try BuiltBinary.run([flag])
            #expect(run.status == 0, "\(flag)")
            #expect(run.stderr == "", "\(flag)")
            #expect(run.stdout.hasPrefix("openin-check: "), "\(flag)")
            #expect(run.stdout.contains("Verbs:"), "\(flag)")
            #expect(run.stdout.contains("64  usage error"), "\(flag)")
        }
    }

    @Test func versionOnStdout() throws {
        let run = try BuiltBinary.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "openin-check \(CLIVersion.expected)\n")
        #expect(run.stderr == "")
    }

    @Test func unknownVerbIsAUsageErrorWithSuggestion() throws {
        let run = try BuiltBinary.run(["hlep"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            Error: unknown verb 'hlep'. Did you mean 'help'?
            Usage: openin-check <verb> [options]
            See 'openin-check --help' for more information.

            """)
    }

    @Test func noArgumentsIsAUsageError() throws {
        let run = try BuiltBinary.run([])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: no verb given"))
    }
}

enum CLIVersion {
    static let expected = "0.1.0"
}
