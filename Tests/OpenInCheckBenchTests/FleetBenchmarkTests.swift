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
        #expect(try BenchCommand.parse(["--fleet"]) == BenchCommand(mode: .fleet, seed: BenchCorpus.defaultSeed))
        #expect(try BenchCommand.parse(["--fleet", "--binary", "b", "--seed", "3"]) == BenchCommand(mode: .fleet, seed: 3, binary: "b"))
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
