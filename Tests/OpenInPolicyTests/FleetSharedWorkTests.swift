import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The path finder shares work between hops and destinations: each app's settings are made once per
/// control and shared by every hop that names them, and each search works out every destination's
/// direct deliverers in one pass over the in-edges. On random fleets, both are what the slow, one by
/// one computation gives: each hop's settings are those of its request decided alone
/// (``FleetDevice/decide(_:)``, which makes them anew), and each destination's `deliveredBy` lists the
/// nodes reached (or the start) whose own hops (``FleetDevice/hops(from:)``, every candidate request
/// decided) deliver to it.
@Suite struct FleetSharedWorkTests {
    static func same(_ a: [FleetSetting], _ b: [FleetSetting]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.side == y.side && x.app == y.app && ExactText.same(x.policy, y.policy) && ExactText.same(x.via, y.via) && ExactText.same(x.key, y.key)
                    && ExactText.same(x.value, y.value) && x.file == y.file && x.line == y.line
            }
    }

    /// Each destination's direct deliverers among `origin` (the nodes reached and the start), in node order.
    static func deliverers(_ device: FleetDevice, nodes: [FleetNode], origin: Set<FleetNode>) throws(FleetError) -> [FleetNode: [FleetNode]] {
        var into: [FleetNode: [FleetNode]] = [:]
        for node in nodes where origin.contains(node) {
            for to in Set(try device.hops(from: node).map(\.to)) { into[to, default: []].append(node) }
        }
        return into
    }

    @Test("shared settings and one-pass deliveredBy agree with the one-by-one computation on random fleets")
    func sharedWorkAgrees() throws {
        var random = SplitMix64(seed: 0x7368_6172_6564)
        var hops = 0, destinations = 0
        for round in 0..<150 {
            var spec = FleetReferenceModelTests.randomSpec(&random)
            if round % 5 == 1 { spec.global.openFrom = nil }
            let device = try FleetJSON.read(Array(FleetReferenceModelTests.json(spec).utf8), file: "random.json").device(named: "d")
            guard let all = try? device.reachAll() else { continue }
            // The all-pairs searches and the single searches give the same paths.
            for reach in all {
                // A hop whose first candidate request needs a control a policy leaves unset is an error, for both searches alike.
                guard let paths = try? device.paths(reach) else {
                    #expect((try? device.paths(from: reach.from)) == nil)
                    continue
                }
                let single = try device.paths(from: reach.from)
                #expect(paths.map(\.to) == single.map(\.to))
                var origin = Set(reach.reached)
                origin.insert(.app(reach.from))
                // A request the search never makes may lack a control it needs: such fleets are left out.
                guard let expected = try? Self.deliverers(device, nodes: reach.nodes, origin: origin) else { continue }
                for (path, other) in zip(paths, single) {
                    let want = expected[path.to] ?? []
                    for found in [path, other] {
                        #expect(found.deliveredByCount == want.count, "\(reach.from) → \(path.to): \(found.deliveredByCount) deliverers, expected \(want)")
                        #expect(found.deliveredBy == Array(want.prefix(FleetPath.deliveredByLimit)), "\(reach.from) → \(path.to)")
                    }
                    destinations += 1
                    for (hop, otherHop) in zip(path.hops, other.hops) {
                        let alone = try device.decide(hop.request)
                        #expect(Self.same(hop.settings, alone.settings), "\(hop.from) → \(hop.to) \(hop.channel): \(hop.settings) vs \(alone.settings)")
                        #expect(Self.same(otherHop.settings, alone.settings))
                        hops += 1
                    }
                }
            }
        }
        #expect(hops > 1_000)
        #expect(destinations > 500)
    }
}
