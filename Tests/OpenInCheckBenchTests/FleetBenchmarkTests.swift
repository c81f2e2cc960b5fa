@testable import OpenInCheckBench
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// `openin-check-bench --fleet` and `--generate-fleet`: options, and a generated fleet that reads and decides.
@Suite struct FleetBenchmarkTests {
    @Test func parsesFleetModes() throws {
        #expect(try BenchCommand.parse(["--fleet"]) == BenchCommand(mode: .fleet(rounds: 1), seed: BenchCorpus.defaultSeed))
        #expect(try BenchCommand.parse(["--fleet", "--binary", "b", "--seed", "3"]) == BenchCommand(mode: .fleet(rounds: 1), seed: 3, binary: "b"))
        // Side by side with an earlier build: two rounds of each unless --rounds says otherwise.
        #expect(try BenchCommand.parse(["--fleet", "--baseline", "old"]) == BenchCommand(mode: .fleet(rounds: 2), seed: BenchCorpus.defaultSeed, baseline: "old"))
        #expect(try BenchCommand.parse(["--fleet", "--baseline", "old", "--rounds", "7"]) == BenchCommand(mode: .fleet(rounds: 7), seed: BenchCorpus.defaultSeed, baseline: "old"))
        #expect(try BenchCommand.parse(["--fleet", "--rounds", "3"]) == BenchCommand(mode: .fleet(rounds: 3), seed: BenchCorpus.defaultSeed))
        #expect(throws: BenchError.usage("--rounds takes a whole number of at least 1, not '0'")) { try BenchCommand.parse(["--fleet", "--rounds", "0"]) }
        #expect(try BenchCommand.parse(["--generate-fleet", "40", "f.json"]) == BenchCommand(mode: .generateFleet(apps: 40, file: "f.json"), seed: BenchCorpus.defaultSeed))
        #expect(throws: BenchError.usage("--json does not go with --fleet")) { try BenchCommand.parse(["--fleet", "--json"]) }
        #expect(throws: BenchError.usage("--generate-fleet takes a whole number of at least 20, not '5'")) { try BenchCommand.parse(["--generate-fleet", "5", "f"]) }
    }

    @Test func theGeneratedFleetIsWhatTheHelpSays() throws {
        let text = FleetBenchmark.fleet(apps: 60, seed: 7)
        #expect(text == FleetBenchmark.fleet(apps: 60, seed: 7), "seeded: the same text every time")
        let fleet = try FleetJSON.read(Array(text.utf8), file: "bench.json")
        #expect(fleet.apps.count == 60)
        #expect(fleet.containerPolicies.count == 60)
        #expect(Set(fleet.containerPolicies.flatMap(\.labels)).count == 20)
        #expect(fleet.apps.filter(\.appConnect).count == 48)
        let device = try fleet.device(named: "bench")
        #expect(device.appConnectApps.count == 48, "every AppConnect app has a container policy on a label the device carries")
        let reach = try device.reach(from: fleet.apps[1].bundleID)
        #expect(!reach.reached.isEmpty)
        #expect(try device.matrix().senders.count == 60)
    }
}

/// The growth benchmark's Intune tenant: what its documentation says, and read by the loader every verb uses.
@Suite struct TenantBenchmarkTests {
    @Test func theGeneratedTenantIsWhatItsDocumentationSays() throws {
        let scratch = try ScratchDirectory()
        let arguments = try GrowthRun.tenant(profiles: 400, scratch)
        #expect(arguments.prefix(3) == ["fleet", "lint", "--fleet"])
        let export = try IntuneGraphJSON.read(path: arguments[3])
        #expect(export.policies.count == 20, "one policy per 20 profiles")
        #expect(export.policies.allSatisfy { $0.assignments?.count == 11 && $0.assignments?.filter { $0.kind == .exclude }.count == 1 })
        #expect(export.policies.contains { $0.assignments?.contains { $0.filter != nil } == true }, "some included groups go through a filter")
        let devices = try CappedFile.read(path: arguments[5], what: "devices")
        let fleet = try IntuneFleet.load(policies: export.policies, file: arguments[3], devices: (devices, arguments[5]))
        #expect(fleet.devices.count == 400)
        let findings = IntuneLint.findings(fleet)
        #expect(findings.contains { $0.code == "IN015" }, "some profiles are reached by two policies over one app")
        #expect(findings.filter { $0.code == "IN005" }.count <= export.policies.count, "IN005 once per policy, not per profile")
    }
}
