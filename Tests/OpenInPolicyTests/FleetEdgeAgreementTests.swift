import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// `fleet matrix` and `fleet paths` agree on every edge: on seeded random fleets of both vendors, each
/// matrix cell (every channel, every sender and receiver) is what the path finder decides for the same
/// request from that sender to that receiver, and a cell that delivers is an edge of the search.
@Suite struct FleetEdgeAgreementTests {
    static func delivers(_ outcome: Outcome?) -> Bool { outcome == .allow || outcome == .redirect }

    @Test("AppConnect: a row made a word of 64 targets at a time is the row made target by target, among any candidates", arguments: [false, true])
    func rowsByWordsAgree(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x776F_7264)
        var rows = 0, members = 0
        for _ in 0..<Soak.size(500) {
            let spec = FleetReferenceModelTests.randomSpec(&random, excluding: excluding)
            let text = FleetReferenceModelTests.json(spec)
            let device = try FleetJSON.read(Array(text.utf8), file: "random.json").device(named: "d")
            let graph = FleetGraph(device)
            // Made only where no decision can throw (the per-target loop is then the only path).
            guard graph.words != nil else { continue }
            let count = graph.nodes.count
            for x in 0..<count {
                for round in 0..<3 {
                    var candidates = NodeSet(count: count, full: round == 0)
                    if round > 0 { for y in 0..<count where random.next() % 2 == 0 { candidates.insert(y) } }
                    let byWords = try graph.row(x, among: candidates, byWords: true)
                    let byTarget = try graph.row(x, among: candidates, byWords: false)
                    #expect(byWords.words == byTarget.words, "row of \(graph.nodes[x]) among \(candidates.words) in:\n\(text)")
                    rows += 1
                    members += byTarget.words.reduce(0) { $0 + $1.nonzeroBitCount }
                }
            }
        }
        #expect(rows > Soak.least(2_000))
        #expect(members > Soak.least(2_000))
    }

    @Test("AppConnect: every matrix cell is the path finder's edge for that request, own schemes routed elsewhere included", arguments: [false, true])
    func appConnectCellsAreEdges(excluding: Bool) throws {
        var random = SplitMix64(seed: 0x6564_6765)
        var cells = 0, edges = 0, routed = 0
        for _ in 0..<Soak.size(200) {
            let spec = FleetReferenceModelTests.randomSpec(&random, excluding: excluding)
            let text = FleetReferenceModelTests.json(spec)
            let device = try FleetJSON.read(Array(text.utf8), file: "random.json").device(named: "d")
            let matrix = try device.matrix()
            let graph = FleetGraph(device)
            for (s, sender) in matrix.senders.enumerated() {
                guard device.isInstalled(sender), let x = graph.index[sender] else { continue }
                let oneHop = Set(try device.reach(from: sender, maxHops: 1).reached)
                for channel in matrix.channels {
                    for (r, receiver) in matrix.receivers.enumerated() {
                        let cell = matrix.outcome(channel, sender: s, receiver: r)
                        guard let request = device.matrixRequest(channel, from: sender, to: receiver) else { continue }
                        let y = try #require(graph.index[device.bundleID(of: receiver)])
                        let hop = try graph.attempt(channel, request.senderRequest!, from: x, to: y)
                        #expect((hop != nil) == Self.delivers(cell), "\(channel) \(sender) → \(receiver): matrix \(String(describing: cell)), path finder \(hop.map { "\($0.decision.outcome)" } ?? "no edge") in:\n\(text)")
                        if let hop {
                            #expect(hop.decision.outcome == cell && hop.to == receiver)
                            #expect(oneHop.contains(receiver), "\(sender) → \(receiver) on \(channel) is a matrix edge the search does not take in:\n\(text)")
                            edges += 1
                            if channel == .openURL, hop.decision.sender.rule.description == "open-url.own-scheme" { routed += 1 }
                        }
                        cells += 1
                    }
                }
            }
        }
        #expect(cells > Soak.least(10_000))
        #expect(edges > Soak.least(2_000))
        // The case the rule is about occurs: a sender's own scheme delivered to the other app the device routes it to.
        #expect(routed > Soak.least(10))
    }

    @Test("Intune: every matrix cell is the graph's decision for that request, and a delivering cell is a one-hop edge")
    func intuneCellsAreEdges() throws {
        var random = SplitMix64(seed: 0x6564_6769)
        var cells = 0, edges = 0
        for _ in 0..<Soak.size(150) {
            let (policies, devices) = FleetSettingsTests.randomIntune(&random)
            let analysis = try FleetSettingsTests.analysis(intune: policies, devices: devices)
            let fleet = try #require(analysis.intune)
            let device = try analysis.device(named: "d")
            let matrix = try device.matrix()
            let graph = IntuneGraph(try fleet.index(device: "d"))
            for (s, sender) in matrix.senders.enumerated() {
                guard let x = graph.position(of: sender) else { continue }
                let oneHop = Set(try device.reach(from: sender, maxHops: 1).reached)
                for (r, receiver) in matrix.receivers.enumerated() {
                    guard let y = graph.nodes.firstIndex(of: receiver), x != y else { continue }
                    let requests = graph.requests(from: x, to: y)
                    for channel in matrix.channels {
                        guard let cell = matrix.outcome(channel, sender: s, receiver: r) else { continue }
                        // The graph's request on that channel (for open-url, on the receiver's first custom scheme, as the matrix tries).
                        let candidates = requests.filter { $0.channel == channel && ($0.url.map { !$0.isMailto } ?? true) }
                        let request = channel == .openURL
                            ? candidates.min { $0.url!.scheme.utf8.lexicographicallyPrecedes($1.url!.scheme.utf8) } : candidates.first
                        let decided = try #require(request.map { graph.index.decide($0) }, "\(channel) \(sender) → \(receiver): no graph request")
                        #expect(decided.outcome == cell, "\(channel) \(sender) → \(receiver) in:\n\(policies)\n\(devices)")
                        if Self.delivers(cell) {
                            #expect(oneHop.contains(receiver), "\(sender) → \(receiver) on \(channel) in:\n\(policies)\n\(devices)")
                            edges += 1
                        }
                        cells += 1
                    }
                }
            }
        }
        #expect(cells > Soak.least(2_000))
        #expect(edges > Soak.least(300))
    }
}
