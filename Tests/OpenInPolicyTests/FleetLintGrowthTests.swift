import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// FL003 found from the lists (`FleetLint.openFromRefusals`) against deciding every pair of the
/// device's AppConnect apps, as lint once did, on the reference model's random fleets.
@Suite struct FleetLintGrowthTests {
    @Test(arguments: [false, true]) func refusalsAreThoseOfDecidingEveryPair(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x464C_3030_33)
        var compared = 0, refused = 0
        for _ in 0..<400 {
            let spec = FleetReferenceModelTests.randomSpec(&random, excluding: excluding)
            let fleet = try FleetJSON.read(Array(FleetReferenceModelTests.json(spec).utf8), file: "random.json")
            let device = try fleet.device(named: "d")
            var expected: [BundleID: [BundleID]] = [:]
            for sender in fleet.apps where device.appConnectApps.contains(sender.bundleID) {
                for receiver in fleet.apps where receiver.bundleID != sender.bundleID && device.appConnectApps.contains(receiver.bundleID) {
                    guard let request = try? FleetRequest(from: sender.bundleID, channel: .documentInteraction, target: receiver.bundleID),
                          let decision = try? device.decide(request), decision.sender.outcome == .allow,
                          let refusal = decision.receiver, refusal.outcome != .allow else { continue }
                    expected[receiver.bundleID, default: []].append(sender.bundleID)
                }
            }
            let found = FleetLint.openFromRefusals(device)
            let order = fleet.apps.map(\.bundleID)
            #expect(found.map(\.receiver) == order.filter { expected[$0] != nil }, "\(FleetReferenceModelTests.json(spec))")
            for refusals in found {
                let senders = expected[refusals.receiver] ?? []
                #expect(refusals.count == senders.count, "\(refusals.receiver) in:\n\(FleetReferenceModelTests.json(spec))")
                #expect(refusals.first == Array(senders.prefix(FleetLint.namedRefusals + 1)), "\(refusals.receiver) in:\n\(FleetReferenceModelTests.json(spec))")
                refused += senders.count
            }
            compared += 1
        }
        #expect(compared == 400)
        #expect(refused > 100)
    }
}
