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
import OpenInTestSupport

/// `fleet paths` writes each format the fast way (text and JSON from each search's tree, each hop once
/// per search; Markdown and DOT streamed device by device; SARIF and the report formats deciding only the
/// hops they show). On random fleets of both vendors, its output is byte for byte what the straightforward
/// writer gives: every search's paths made whole (``AnalyzedDevice/paths(_:)``), written path by path
/// (``PathsWriter/emit(_:app:_:)``), and the report formats written at the end from every path held.
@Suite struct FleetPathsWriterTests {
    /// SplitMix64, seeded: the same fleets on every run.
    struct Random {
        var generator: NoLostRecordsTests.Generator
        init(state: UInt64) { generator = NoLostRecordsTests.Generator(state: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick(_ items: [String]) -> String { items[below(items.count)] }
        mutating func some(_ items: [String], percent: Int) -> [String] { items.filter { _ in below(100) < percent } }
    }

    /// A random AppConnect fleet: up to 12 apps (some not AppConnect, some with a URL scheme, native Mail and
    /// Email+ among them), container policies on two labels, two devices installing some of the apps.
    static func appConnect(_ random: inout Random) -> String {
        let count = 4 + random.below(9)
        var ids = (0..<count).map { "com.r.app\($0)" }
        if random.below(2) == 0 { ids.append("com.mobileiron.ios.emailplus") }
        if random.below(2) == 0 { ids.append("com.apple.mobilemail") }
        func list() -> String { "[" + random.some(ids + ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail", "com.other.app"], percent: 30).map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        let appConnect = ids.map { !$0.hasPrefix("com.apple") && random.below(4) != 0 }
        var policies: [String] = []
        for (index, id) in ids.enumerated() where appConnect[index] && random.below(5) != 0 {
            var policy = "{\"name\": \"P\(index)\", \"app\": \"\(id)\", \"labels\": [\"L\(random.below(2))\"]"
            switch random.below(5) {
            case 0: policy += ", \"openInPolicy\": \"authorized\""
            case 1, 2: policy += ", \"openInPolicy\": \"whitelist\", \"openInWhitelist\": \(list())"
            case 3: policy += ", \"openInPolicy\": \"appconnect\""
            default: policy += ", \"openInPolicy\": \"unauthorized\""
            }
            switch random.below(4) {
            case 0: policy += ", \"openFromPolicy\": \"appconnect\""
            case 1: policy += ", \"openFromPolicy\": \"authorized\""
            case 2: policy += ", \"openFromPolicy\": \"whitelist\", \"openFromWhitelist\": \(list())"
            default: break
            }
            if random.below(2) == 0 { policy += ", \"pasteboardPolicy\": \"\(random.pick(["securecopy", "authorized"]))\"" }
            if random.below(2) == 0 { policy += ", \"dragAndDropPolicy\": \"\(random.pick(["appconnect", "all", "none"]))\"" }
            policies.append(policy + "}")
        }
        var apps: [String] = []
        for (index, id) in ids.enumerated() where !id.hasPrefix("com.apple") {
            apps.append("{\"bundleID\": \"\(id)\", \"appconnect\": \(appConnect[index])" + (random.below(3) == 0 ? ", \"urlSchemes\": [\"s\(index)\"]}" : "}"))
        }
        var devices: [String] = []
        for name in ["d1", "d2"] {
            let installed = random.some(ids, percent: 80).map { "\"\($0)\"" }.joined(separator: ", ")
            let labels = random.some(["L0", "L1"], percent: 70).map { "\"\($0)\"" }.joined(separator: ", ")
            devices.append("\"\(name)\": {\"labels\": [\(labels)], \"secureServicesAvailable\": \(random.below(2) == 0), \"installed\": [\(installed)]}")
        }
        return """
            {"global": {"authorizeAppsWithoutContainerPolicy": \(random.below(2) == 0), "openInPolicy": "\(random.pick(["appconnect", "authorized", "unauthorized"]))",
              "openFromPolicy": "\(random.pick(["appconnect", "authorized"]))", "pasteboardPolicy": "\(random.pick(["securecopy", "authorized"]))",
              "printPolicy": "unauthorized", "dragAndDropPolicy": "\(random.pick(["appconnect", "all", "none"]))"},
             "containerPolicies": [\(policies.joined(separator: ",\n  "))],
             "apps": [\(apps.joined(separator: ",\n  "))],
             "devices": {\(devices.joined(separator: ",\n  "))}}
            """
    }

    /// A random Intune fleet: one to three app protection policies (Graph export) and a devices file with two devices.
    static func intune(_ random: inout Random) -> (policies: String, devices: String) {
        let ids = ["com.a.one", "com.a.two", "com.b.three", "com.b.four", "com.c.five", "com.apple.mobilemail", "com.mobileiron.ios.emailplus"]
        var policies: [String] = []
        var targeted: Set<String> = []
        for index in 0..<(1 + random.below(3)) {
            let apps = ids.filter { !targeted.contains($0) && $0 != "com.apple.mobilemail" && random.below(2) == 0 }
            targeted.formUnion(apps)
            var members = ["\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\"", "\"displayName\": \"P\(index)\""]
            members.append("\"allowedOutboundDataTransferDestinations\": \"\(random.pick(["allApps", "managedApps", "none"]))\"")
            if random.below(2) == 0 { members.append("\"allowedInboundDataTransferSources\": \"\(random.pick(["allApps", "managedApps", "none"]))\"") }
            if random.below(2) == 0 {
                members.append("\"allowedOutboundClipboardSharingLevel\": \"\(random.pick(["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"]))\"")
            }
            let targets = apps.map { "{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"\($0)\"}}" }
            members.append("\"apps\": [\(targets.joined(separator: ", "))]")
            policies.append("{" + members.joined(separator: ", ") + "}")
        }
        var devices: [String] = []
        for name in ["d1", "d2"] {
            let installed = random.some(ids, percent: 80)
            devices.append("""
                "\(name)": {"installed": [\(installed.map { "\"\($0)\"" }.joined(separator: ", "))], "mdmEnrolled": \(random.below(2) == 0),
                 "intuneMAMUPN": \(random.below(2) == 0), "mdmManagedApps": [\(random.some(ids, percent: 50).map { "\"\($0)\"" }.joined(separator: ", "))]}
                """)
        }
        return ("[" + policies.joined(separator: ",\n") + "]", "{\"apps\": [], \"devices\": {\(devices.joined(separator: ",\n"))}}")
    }

    /// `fleet paths` as the command writes it, and as the straightforward writer writes it.
    static func both(_ analysis: FleetAnalysis, file: String, devicesFile: String?, from: String, to: String?, format: FleetCommand.PathsFormat,
                     maxHops: Int?) throws -> (fast: String, plain: String) {
        let names = FleetAppNames(analysis.source, file: file, devicesFile: devicesFile)
        let devices = try analysis.devices()
        let fastConsole = Console.memory()
        let writer = try PathsWriter.checked(from: from, to: to, names: names, format: format, console: fastConsole)
        _ = try FleetOutput.paths(devices, maxHops: maxHops, writer: writer)
        // The hops of a search that shows every path written in parts first (as on a large fleet), in parts of two.
        let partsConsole = Console.memory()
        var inParts = try PathsWriter.checked(from: from, to: to, names: names, format: format, console: partsConsole)
        inParts.hopsInParts = 2
        _ = try FleetOutput.paths(devices, maxHops: maxHops, writer: inParts)
        #expect(partsConsole.stdout.text == fastConsole.stdout.text, "fleet paths --from \(from) --to \(to ?? "-") --format \(format), hops in parts")
        let plainConsole = Console.memory()
        var plain = try PathsWriter.checked(from: from, to: to, names: names, format: format, console: plainConsole)
        for device in devices {
            let searches = try plain.app.map { [try device.reach(from: $0, maxHops: maxHops)] } ?? device.reachAll(maxHops: maxHops)
            for reach in searches { plain.emit(device, app: reach.from, try device.paths(reach)) }
        }
        if format.report == .sarif {
            // The straightforward SARIF: the whole log one JSON value, written by the pretty JSON writer.
            plainConsole.stdout.write(SARIFReport.straightforward(plain.reports, subject: .paths(from: from, to: to)))
        } else if let report = format.report {
            report.write(plain.reports, subject: .paths(from: from, to: to), baseline: nil, to: plainConsole.stdout)
        } else {
            _ = plain.finish()
        }
        return (fastConsole.stdout.text, plainConsole.stdout.text)
    }

    /// Every format, with and without `--to`, from every app and from one.
    static func compare(_ analysis: FleetAnalysis, file: String, devicesFile: String?, where text: String) throws -> Int {
        var compared = 0
        let apps = analysis.deviceNames.isEmpty ? [] : (try analysis.devices()).flatMap(\.startingApps)
        let targets: [String?] = [nil, "outside", apps.last?.rawValue, "com.apple.mobilemail"]
        for format in FleetCommand.PathsFormat.allCases {
            for to in targets {
                for from in ["all"] + apps.prefix(1).map(\.rawValue) {
                    let maxHops: Int? = compared % 3 == 2 ? 1 : nil
                    let (fast, plain) = try both(analysis, file: file, devicesFile: devicesFile, from: from, to: to, format: format, maxHops: maxHops)
                    #expect(fast == plain, "fleet paths --from \(from) --to \(to ?? "-") --format \(format) --max-hops \(maxHops.map(String.init) ?? "-") in:\n\(text)")
                    compared += 1
                }
            }
        }
        return compared
    }

    @Test("AppConnect: every format written the fast way is what the straightforward writer writes")
    func appConnectFormats() throws {
        var random = Random(state: 0x7061_7468_7331)
        var compared = 0, paths = 0
        for _ in 0..<Soak.size(60) {
            let text = Self.appConnect(&random)
            guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json") else { continue }
            let analysis = FleetAnalysis(fleet)
            // A fleet a search cannot decide (a control left unset) is an error for both writers alike.
            guard let devices = try? analysis.devices(), let all = try? devices.map({ try $0.reachAll() }) else { continue }
            guard (try? devices.map({ device in try device.reachAll().map { try device.paths($0) } })) != nil else { continue }
            paths += all.joined().reduce(0) { $0 + $1.reached.count }
            compared += try Self.compare(analysis, file: "random.json", devicesFile: nil, where: text)
        }
        #expect(compared > Soak.least(500))
        #expect(paths > Soak.least(1_000))
    }

    @Test("Intune: every format written the fast way is what the straightforward writer writes")
    func intuneFormats() throws {
        var random = Random(state: 0x7061_7468_7332)
        var compared = 0, paths = 0
        for _ in 0..<Soak.size(40) {
            let (policies, devicesFile) = Self.intune(&random)
            var fleet = IntuneFleet(policies: try IntuneGraphJSON.read(Array(policies.utf8), file: "policies.json"), file: "policies.json")
            (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(Array(devicesFile.utf8), file: "devices.json")
            let analysis = FleetAnalysis(fleet, devicesFile: "devices.json")
            paths += try analysis.devices().flatMap { try $0.reachAll() }.reduce(0) { $0 + $1.reached.count }
            compared += try Self.compare(analysis, file: "policies.json", devicesFile: "devices.json", where: policies + "\n" + devicesFile)
        }
        #expect(compared > Soak.least(300))
        #expect(paths > Soak.least(200))
    }
}
