import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

@testable import OpenInCheckCLI
import OpenInReports

/// `fleet matrix` writes its rows as bytes (a cell is one of six tokens, a sender's padded name made once).
/// On random fleets of both vendors, what it prints (JSON and text) is the whole matrix made at once
/// (``AnalyzedDevice/matrix()``): every cell of every grid, the keyboard pairs, nothing else.
@Suite struct FleetMatrixOutputTests {
    /// The devices of random fleets: AppConnect and Intune, as `fleet paths`' writer tests draw them.
    static func randomDevices(_ random: inout FleetPathsWriterTests.Random, fleets: Int) throws -> [(devices: [AnalyzedDevice], text: String)] {
        var drawn: [(devices: [AnalyzedDevice], text: String)] = []
        for _ in 0..<fleets {
            let text = FleetPathsWriterTests.appConnect(&random)
            if let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), let devices = try? FleetAnalysis(fleet).devices(),
               (try? devices.map { try $0.matrixRows().check() }) != nil {
                drawn.append((devices, text))
            }
            let (policies, devicesFile) = FleetPathsWriterTests.intune(&random)
            var intune = IntuneFleet(policies: try IntuneGraphJSON.read(Array(policies.utf8), file: "policies.json"), file: "policies.json")
            (intune.apps, intune.devices) = try IntuneDevicesJSON.read(Array(devicesFile.utf8), file: "devices.json")
            drawn.append((try FleetAnalysis(intune, devicesFile: "devices.json").devices(), policies + "\n" + devicesFile))
        }
        return drawn
    }

    @Test func printedRowsAreTheWholeMatrix() throws {
        var random = FleetPathsWriterTests.Random(state: 0x6D61_7472)
        var cells = 0
        for (devices, text) in try Self.randomDevices(&random, fleets: 40) {
            let matrices = try devices.map { try $0.matrix() }
            let json = Console.memory()
            try FleetOutput.print(devices.map { $0.matrixRows() }, format: .json, to: json.stdout)
            let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.text.utf8)) as? [[String: Any]])
            #expect(records.count == matrices.count)
            let plain = Console.memory()
            try FleetOutput.print(devices.map { $0.matrixRows() }, format: .text, to: plain.stdout)
            let lines = plain.stdout.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (matrix, record) in zip(matrices, records) {
                let device = try #require(lines.firstIndex { $0.hasPrefix("Device \(matrix.device): ") })
                let grids = try #require(record["channels"] as? [String: [[Any]]])
                for channel in matrix.channels {
                    let rows = try #require(grids[channel.rawValue])
                    #expect(rows.count == matrix.senders.count)
                    // The text grid: the line after the channel's name and header, one per sender.
                    let start = try #require(lines.indices.dropFirst(device).first { lines[$0] == channel.rawValue && lines[$0 + 1].hasPrefix("  sender") }) + 2
                    for (s, sender) in matrix.senders.enumerated() {
                        let tokens = lines[start + s].split(separator: " ").map(String.init)
                        #expect(tokens.first == sender.rawValue)
                        #expect(rows[s].count == matrix.receivers.count && tokens.count == matrix.receivers.count + 1)
                        for r in matrix.receivers.indices {
                            let outcome = matrix.outcome(channel, sender: s, receiver: r)
                            #expect((rows[s][r] as? String) == outcome?.rawValue && (outcome != nil || rows[s][r] is NSNull), "\(channel) \(sender) → \(matrix.receivers[r]) in:\n\(text)")
                            #expect(tokens.count > r + 1 && tokens[r + 1] == FleetOutput.cell(outcome), "\(channel) \(sender) → \(matrix.receivers[r]) in:\n\(text)")
                            cells += 1
                        }
                    }
                }
                let keyboard = try #require(record["keyboard"] as? [[Any]])
                for s in matrix.senders.indices {
                    #expect((keyboard[s][0] as? String) == matrix.keyboard(sender: s, system: false)?.rawValue)
                    #expect((keyboard[s][1] as? String) == matrix.keyboard(sender: s, system: true)?.rawValue)
                }
            }
        }
        #expect(cells > 5_000)
    }
}
