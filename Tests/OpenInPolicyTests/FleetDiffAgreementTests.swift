import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInKit
import OpenInTestSupport

/// `FleetDiff` compares two fleets' matrices cell by cell and their searches app by app, deciding chains only
/// for the leak paths that differ. The reference below is the plain statement it replaced: every cell of both
/// matrices and every path of every starting app keyed by name in a table, the tables compared key by key.
/// On random pairs of fleets (one random fleet and a changed copy: controls, authorization, labels and
/// installed apps redrawn) the changes are the same, in the same order.
@Suite struct FleetDiffAgreementTests {
    /// Every matrix cell with a request and every keyboard line, keyed `channel SENDER → RECEIVER`.
    static func flows(_ device: AnalyzedDevice) throws -> [String: Outcome] {
        let matrix = try device.matrix()
        var result: [String: Outcome] = [:]
        for channel in matrix.channels {
            for (s, sender) in matrix.senders.enumerated() {
                for (r, receiver) in matrix.receivers.enumerated() {
                    if let outcome = matrix.outcome(channel, sender: s, receiver: r) { result["\(channel) \(sender) → \(receiver)"] = outcome }
                }
            }
        }
        for (s, sender) in matrix.senders.enumerated() {
            if let outcome = matrix.keyboard(sender: s, system: false) { result["keyboard \(sender) → third-party keyboard"] = outcome }
            if let outcome = matrix.keyboard(sender: s, system: true) { result["keyboard \(sender) → system keyboard"] = outcome }
        }
        return result
    }

    /// Every starting app's paths to an outside node, keyed `APP ⇒ NODE`, with the chain.
    static func leaks(_ device: AnalyzedDevice) throws -> [String: String] {
        var result: [String: String] = [:]
        for app in device.startingApps {
            for path in try device.paths(from: app) where device.isOutside(path.to) {
                result["\(app) ⇒ \(path.to)"] = ([app.rawValue] + path.hops.map { "\($0.channel) → \($0.to)" }).joined(separator: " ")
            }
        }
        return result
    }

    /// The leak-path and flow changes of one device, as the tables give them.
    static func reference(old: AnalyzedDevice, new: AnalyzedDevice) throws -> [String] {
        var changes: [String] = []
        let oldLeaks = try leaks(old), newLeaks = try leaks(new)
        for (key, chain) in newLeaks.sorted(by: { $0.key < $1.key }) where oldLeaks[key] == nil { changes.append("+ leak \(key) \(chain)") }
        for (key, chain) in oldLeaks.sorted(by: { $0.key < $1.key }) where newLeaks[key] == nil { changes.append("- leak \(key) \(chain)") }
        let oldFlows = try flows(old), newFlows = try flows(new)
        func delivers(_ outcome: Outcome?) -> Bool { outcome == .allow || outcome == .redirect }
        for (key, outcome) in newFlows.sorted(by: { $0.key < $1.key }) where delivers(outcome) != delivers(oldFlows[key]) {
            changes.append("\(delivers(outcome) ? "+" : "-") flow \(key) \(oldFlows[key]?.rawValue ?? "no request") → \(outcome.rawValue)")
        }
        for (key, was) in oldFlows.sorted(by: { $0.key < $1.key }) where newFlows[key] == nil && delivers(was) { changes.append("- flow \(key) \(was.rawValue) → no request") }
        return changes
    }

    /// A copy of `spec` with some of its draws made again.
    static func changed(_ spec: FleetReferenceModelTests.Spec, _ random: inout SplitMix64) -> FleetReferenceModelTests.Spec {
        var spec = spec
        for index in spec.containers.indices where random.percent(40) {
            spec.containers[index].controls = FleetReferenceModelTests.randomControls(&random, complete: false)
        }
        if random.percent(30) { spec.global = FleetReferenceModelTests.randomControls(&random, complete: true) }
        if random.percent(20) { spec.authorizeByDefault.toggle() }
        if random.percent(20) { spec.labels = Array(Set(random.some(FleetReferenceModelTests.labelNames, upTo: 2))).sorted() }
        // An app uninstalled (with the handlers that name it, which a fleet file may not keep).
        if random.percent(25), let gone = spec.installed.randomElement(using: &random) {
            spec.installed.removeAll { $0 == gone }
            spec.handlers.removeAll { $0.app == gone }
        }
        return spec
    }

    @Test("random fleets and a changed copy: the same leak-path and flow changes, in the same order, as the tables of every cell and path", arguments: 0..<Soak.size(40))
    func agreesWithTheTables(seed: Int) throws {
        var random = SplitMix64.stream(0xD1FF, item: seed)
        var compared = 0, differing = 0, drawn = 0
        // Pairs until five devices are compared and one of them changes (a copy may change nothing that decides).
        while (compared < 5 || differing == 0) && drawn < 60 {
            drawn += 1
            let before = FleetReferenceModelTests.randomSpec(&random)
            let after = Self.changed(before, &random)
            guard let old = try? FleetJSON.read(Array(FleetReferenceModelTests.json(before).utf8), file: "old.json"),
                  let new = try? FleetJSON.read(Array(FleetReferenceModelTests.json(after).utf8), file: "new.json"),
                  let changes = try? FleetDiff.compare(old: old, new: new) else { continue }
            let (oldAnalysis, newAnalysis) = (FleetAnalysis(old), FleetAnalysis(new))
            for name in oldAnalysis.deviceNames where newAnalysis.deviceNames.contains(name) {
                let expected = try Self.reference(old: try oldAnalysis.device(named: name), new: try newAnalysis.device(named: name))
                let actual = changes.filter { $0.device == name && ($0.kind == .leakPath || $0.kind == .flow) }.map { change in
                    "\(change.opened ? "+" : "-") \(change.kind == .flow ? "flow" : "leak") \(change.subject) \(change.detail)"
                }
                #expect(actual == expected, "seed \(seed), device \(name)")
                compared += 1
                if !expected.isEmpty { differing += 1 }
            }
        }
        // The pairs drawn compare devices, and some pair changes something.
        #expect(compared >= 5 && differing >= 1, "\(compared) devices compared, \(differing) with changes")
    }
}
