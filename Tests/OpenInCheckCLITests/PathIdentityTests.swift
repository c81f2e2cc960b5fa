import Foundation
import Testing

/// A path's identity is what the path is, not the order of anything in the input: among equally short chains the
/// search keeps the first in chain order (node by node from the source, an app by its bundle ID's bytes), so
/// shuffling every list of a fleet file — apps, installed apps, policies, whitelists, labels, schemes, Intune
/// targets — and reordering every object's members gives the same chains, and so the same SARIF fingerprints.
@Suite struct PathIdentityTests {
    /// Every array of `value` shuffled, at every depth (objects' members come out in the writer's order).
    static func shuffled(_ value: Any, _ random: inout FleetPathsWriterTests.Random) -> Any {
        if let array = value as? [Any] {
            var items = array.map { shuffled($0, &random) }
            for index in items.indices.reversed() where index > 0 { items.swapAt(index, random.below(index + 1)) }
            return items
        }
        if let object = value as? [String: Any] { return object.mapValues { shuffled($0, &random) } }
        return value
    }

    /// `fleet paths --from all --format sarif`'s results: fingerprint → the chain's steps (each hop's ends and channel).
    static func results(_ fleet: String, devices: String?) throws -> [String: [String]] {
        let file = try TemporaryFile.write(fleet, name: "identity.json")
        var arguments = ["fleet", "paths", "--fleet", file, "--from", "all", "--format", "sarif"]
        if let devices { arguments += ["--devices", try TemporaryFile.write(devices, name: "identity-devices.json")] }
        let run = try BuiltBinary.run(arguments)
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        var chains: [String: [String]] = [:]
        for result in results {
            let fingerprint = try #require((result["partialFingerprints"] as? [String: String])?["leakPath/v1"])
            let flow = ((result["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first
            let steps = (flow?["locations"] as? [[String: Any]] ?? []).map { step in
                ((step["location"] as? [String: Any])?["message"] as? [String: Any])?["text"] as? String ?? ""
            }
            #expect(chains[fingerprint] == nil, "two results share the fingerprint \(fingerprint)")
            // `A → B by channel` of each step (the settings after it name places in the file, which shuffling moves).
            chains[fingerprint] = steps.map { $0.components(separatedBy: ": ").first ?? $0 }
        }
        return chains
    }

    /// The fleet with a second URL scheme (`s1` → `s1`, `s1x`) for each app that declares one.
    static func twoSchemes(_ fleet: Any) -> Any {
        guard var object = fleet as? [String: Any], let apps = object["apps"] as? [[String: Any]] else { return fleet }
        object["apps"] = apps.map { app in
            var app = app
            if let schemes = app["urlSchemes"] as? [String] { app["urlSchemes"] = schemes + schemes.map { $0 + "x" } }
            return app
        }
        return object
    }

    static func text(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]), as: UTF8.self)
    }

    /// Random fleets of both vendors, each read as written and with every list shuffled three times.
    @Test(arguments: [UInt64(1), 2, 3])
    func shufflingTheInputKeepsEveryFingerprint(seed: UInt64) throws {
        var random = FleetPathsWriterTests.Random(state: seed &* 0x9E37_79B9)
        var compared = 0, multiHop = 0
        for round in 0..<HostileNames.cases(fast: 12, soak: 120) {
            let intune = round % 3 == 2
            var (fleet, devices): (String, String?) = intune ? FleetPathsWriterTests.intune(&random) : (FleetPathsWriterTests.appConnect(&random), nil)
            // Two schemes for each app with one, so an open-url hop has URLs to choose between.
            if !intune { fleet = try Self.text(Self.twoSchemes(try JSONSerialization.jsonObject(with: Data(fleet.utf8)))) }
            let original = try Self.results(fleet, devices: devices)
            multiHop += original.values.filter { $0.count > 1 }.count
            for _ in 0..<3 {
                let shuffledFleet = try Self.text(Self.shuffled(try JSONSerialization.jsonObject(with: Data(fleet.utf8)), &random))
                let shuffledDevices = try devices.map { try Self.text(Self.shuffled(try JSONSerialization.jsonObject(with: Data($0.utf8)), &random)) }
                let again = try Self.results(shuffledFleet, devices: shuffledDevices)
                #expect(Set(again.keys) == Set(original.keys), "round \(round): fingerprints differ after shuffling\n\(shuffledFleet)")
                for (fingerprint, chain) in original where again[fingerprint] != nil {
                    #expect(again[fingerprint] == chain)
                }
                compared += 1
            }
        }
        #expect(compared > 0)
        #expect(multiHop > 0, "no path of more than one hop: nothing to choose between")
    }
}
