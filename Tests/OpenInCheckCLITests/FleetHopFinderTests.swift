import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@testable import OpenInCheckCLI

/// ``FleetHopFinder`` decides a sender's targeted requests once per kind of target and makes each hop's
/// settings from parts made once (the sender part, the receiver's Open From, whitelist entries from a
/// template). On random fleets, for every pair of nodes of every device it is made for, its hop is the
/// graph's hop decided whole (``FleetGraph/hop(from:to:)``): the same request, rules, receiving app and
/// settings, byte for byte; and where the graph finds no hop, it finds none. The fleets are
/// ``FleetPathsWriterTests/appConnect(_:)``'s (whitelists, schemes, native Mail, Email+ among them).
@Suite struct FleetHopFinderTests {
    static func same(_ a: [FleetSetting], _ b: [FleetSetting]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.side == y.side && ExactText.same(x.app.rawValue, y.app.rawValue) && ExactText.same(x.policy, y.policy)
                    && ExactText.same(x.via, y.via)
                    && ExactText.same(x.key, y.key) && ExactText.same(x.value, y.value) && x.file == y.file && x.line == y.line
            }
    }

    @Test("every hop the finder finds is the graph's hop decided whole, settings included, on random fleets")
    func finderAgreesWithTheGraph() throws {
        var random = FleetPathsWriterTests.Random(state: 0x6669_6e64_6572)
        var finders = 0, hops = 0, entries = 0, untargeted = 0, unknown = 0
        for _ in 0..<300 {
            let text = FleetPathsWriterTests.appConnect(&random)
            guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json") else { continue }
            for name in ["d1", "d2"] {
                guard let device = try? fleet.device(named: name) else { continue }
                let graph = FleetGraph(device, settings: hops % 2 == 0)
                guard var finder = FleetHopFinder(graph) else {
                    #expect(!graph.decidesWithoutError || graph.words == nil)
                    continue
                }
                finders += 1
                for x in graph.nodes.indices {
                    for y in graph.nodes.indices where y != x {
                        let hop = try graph.hop(from: x, to: y)
                        let shape = finder.shape(from: x, to: y)
                        guard let hop else {
                            #expect(shape == nil, "\(graph.nodes[x]) → \(graph.nodes[y]): the finder finds a hop the graph does not")
                            continue
                        }
                        guard let shape else {
                            unknown += 1
                            continue
                        }
                        let request = finder.request(Int(shape.request))
                        #expect(
                            request.channel == hop.channel && request.url == hop.request.url, "\(hop.from) → \(hop.to): \(request) vs \(hop.request)")
                        #expect((request.targeted ? hop.request.target == graph.ids[y] : hop.request.target == nil), "\(hop.from) → \(hop.to)")
                        #expect(
                            [shape.senderRule] + (shape.receiverRule.map { [$0] } ?? []) == hop.rules,
                            "\(hop.from) → \(hop.to): \(shape.senderRule) vs \(hop.rules)")
                        #expect(shape.receiving == hop.decision.receiverApp)
                        let settings = finder.settings(shape)
                        #expect(Self.same(settings, hop.settings), "\(hop.from) → \(hop.to) \(hop.channel): \(settings) vs \(hop.settings)")
                        if hop.rules.contains(where: { $0.rawValue.hasSuffix(".listed-target") || $0.rawValue.hasSuffix(".listed-source") }) {
                            entries += 1
                        }
                        if !request.targeted { untargeted += 1 }
                        hops += 1
                    }
                }
            }
        }
        #expect(finders > 200)
        #expect(hops > 3_000)
        #expect(entries > 100)
        #expect(untargeted > 50)
        // Hops of kinds the finder does not know are decided whole by the writers; they should be rare.
        #expect(unknown * 100 < hops)
    }
}
