import Testing

/// `fleet SUBVERB --help` (and `help fleet SUBVERB`) prints the subverb's own help, as git's and swift
/// package's do: its usage lines, its description and only its options; `fleet --help` stays the whole.
@Suite struct SubverbHelpEndToEndTests {
    @Test(arguments: ["eval", "matrix", "paths", "lint", "diff"])
    func eachSubverbHasItsOwnHelp(subverb: String) throws {
        let run = try BuiltBinary.run(["fleet", subverb, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("openin-check fleet \(subverb): one subverb of fleet"))
        let usage = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  openin-check fleet ") }
        #expect(!usage.isEmpty && usage.allSatisfy { $0.hasPrefix("  openin-check fleet \(subverb) ") })
        #expect(!run.stdout.contains("Subverbs:"))
        #expect(run.stdout.contains("Exit status:"))
        let viaHelp = try BuiltBinary.run(["help", "fleet", subverb])
        #expect(viaHelp.stdout == run.stdout)
        let whole = try BuiltBinary.run(["fleet", "--help"])
        #expect(whole.stdout != run.stdout && whole.stdout.contains("Subverbs:"))
    }

    @Test func aSubverbsHelpListsOnlyItsOptions() throws {
        let paths = try BuiltBinary.run(["fleet", "paths", "--help"]).stdout
        #expect(paths.contains("  --to BUNDLE_ID|outside") && paths.contains("  --max-hops N"))
        #expect(!paths.contains("  --channel CHANNEL") && !paths.contains("  --rows"))
        #expect(paths.contains("  Where the from app's documents can end up on each device"))
        let lint = try BuiltBinary.run(["fleet", "lint", "--help"]).stdout
        #expect(!lint.contains("  --from BUNDLE_ID") && lint.contains("  --format FORMAT"))
    }
}
