import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The settings a hop names (``FleetHop/settings``) are what lets it through: on random fleets of both
/// vendors, setting each named sender setting to its most restrictive value changes the hop's decision.
@Suite struct FleetSettingsTests {
    static func analysis(appConnect text: String) throws -> FleetAnalysis {
        FleetAnalysis(try FleetJSON.read(Array(text.utf8), file: "random.json"))
    }

    static func analysis(intune policies: String, devices: String) throws -> FleetAnalysis {
        var fleet = IntuneFleet(policies: try IntuneGraphJSON.read(Array(policies.utf8), file: "policies.json"), file: "policies.json")
        (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(Array(devices.utf8), file: "devices.json")
        return FleetAnalysis(fleet, devicesFile: "devices.json")
    }

    /// A key path of a setting (`containerPolicies[2].openInPolicy`, `value[0].allowedOutboundDataTransferDestinations`) as steps.
    enum Step {
        case key(String)
        case index(Int)
    }

    static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket != rest.startIndex { steps.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    steps.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close])!))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                steps.append(.key(String(rest)))
            }
        }
        return steps
    }

    /// `document` with the value at `steps` changed by `change` (a missing last key is created; `nil` removes an array element or a key).
    static func edit(_ document: Any, _ steps: ArraySlice<Step>, _ change: (Any?) -> Any?) -> Any {
        guard let step = steps.first else { return change(document) as Any }
        switch step {
        case .key(let key):
            guard var object = document as? [String: Any] else {
                Issue.record("\(key) of a \(type(of: document))")
                return document
            }
            if steps.count == 1 {
                object[key] = change(object[key])
            } else {
                object[key] = edit(object[key]!, steps.dropFirst(), change)
            }
            return object
        case .index(let index):
            guard var array = document as? [Any] else {
                Issue.record("[\(index)] of a \(type(of: document))")
                return document
            }
            if steps.count == 1 {
                if let value = change(array[index]) { array[index] = value } else { array.remove(at: index) }
            } else {
                array[index] = edit(array[index], steps.dropFirst(), change)
            }
            return array
        }
    }

    /// The most restrictive value of a sender setting, by its last key; `nil` when the setting is not a
    /// policy value (a device fact, an app the fleet does not manage).
    static func restrictive(_ setting: FleetSetting) -> ((Any?) -> Any?)? {
        let last = String(setting.key.split(separator: ".").last ?? "")
        if last.hasPrefix("openInWhitelist[") || last.hasPrefix("openFromWhitelist[") { return { _ in nil } }
        switch last {
        case "openInPolicy", "pasteboardPolicy": return { _ in "unauthorized" }
        case "dragAndDropPolicy": return { _ in "none" }
        case AppConfig.disableOpenInEnforcementKey, AppConfig.disableSchemeBlockingKey: return { _ in "false" }
        case "allowedOutboundDataTransferDestinations": return { _ in "none" }
        case "allowedOutboundClipboardSharingLevel": return { _ in "blocked" }
        case "disableProtectionOfManagedOutboundOpenInData", "filterOpenInToOnlyManagedApps": return { _ in false }
        case "exemptedAppProtocols": return { _ in [Any]() }
        default: return nil
        }
    }

    /// Flips every named sender setting of every hop from every app, on `analysis`'s device `d`, and
    /// checks the hop's decision changes; returns how many hops were flipped.
    static func flipEveryHop(_ analysis: FleetAnalysis, text: String, reread: (String) throws -> FleetAnalysis, where what: String) throws -> Int {
        let device = try analysis.device(named: "d")
        var flipped = 0
        for reach in try device.reachAll() {
            for path in try device.paths(reach) {
                let hop = path.hops.last!
                let senders = hop.settings.filter { $0.side == .sender }
                #expect(!senders.isEmpty, "\(hop.from) → \(hop.to) names no sender setting in:\n\(what)")
                let changes = senders.map(restrictive)
                guard !senders.isEmpty, changes.allSatisfy({ $0 != nil }) else { continue }
                var document = try JSONSerialization.jsonObject(with: Data(text.utf8))
                // Entries removed last first, so earlier indices stay right.
                for (setting, change) in zip(senders, changes).sorted(by: { $0.0.key > $1.0.key }) {
                    document = edit(document, steps(setting.key)[...], change!)
                    // A send level other than managedApps takes the two managedApps variants with it (Graph's constraint).
                    if setting.key.hasSuffix("allowedOutboundDataTransferDestinations") {
                        let object = String(setting.key.dropLast("allowedOutboundDataTransferDestinations".count))
                        for variant in ["filterOpenInToOnlyManagedApps", "disableProtectionOfManagedOutboundOpenInData"] {
                            document = edit(document, steps(object + variant)[...]) { _ in false }
                        }
                    }
                }
                let changed = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
                let before = hop.decision
                let after = try reread(changed).device(named: "d").decide(before.request)
                let same = after.outcome == before.outcome && after.receiverApp == before.receiverApp
                #expect(!same, "\(hop.from) → \(hop.to) \(before.request.channel) [\(before.rules.map(\.rawValue))]: flipping \(senders.map(\.key)) leaves it \(after.outcome) in:\n\(what)")
                flipped += 1
            }
        }
        return flipped
    }

    @Test("AppConnect: flipping a hop's named sender settings to their most restrictive values changes its decision")
    func appConnectFlips() throws {
        var random = SplitMix64(seed: 0x7365_7474)
        var flipped = 0
        for _ in 0..<120 {
            let text = FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random))
            guard let analysis = try? Self.analysis(appConnect: text), (try? analysis.device(named: "d").reachAll()) != nil else { continue }
            flipped += try Self.flipEveryHop(analysis, text: text, reread: { try Self.analysis(appConnect: $0) }, where: text)
        }
        #expect(flipped > 300)
    }

    /// A random Intune fleet: one or two app protection policies (Graph export) and a devices file with
    /// one device "d"; some devices route a custom scheme to an installed app.
    static func randomIntune(_ random: inout SplitMix64) -> (policies: String, devices: String) {
        let ids = ["com.a.one", "com.a.two", "com.b.three", "com.b.four", "com.apple.mobilemail", "com.mobileiron.ios.emailplus"]
        func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }
        var policies: [String] = []
        var targeted: Set<String> = []
        for index in 0..<(1 + Int(random.next() % 2)) {
            let apps = ids.filter { !targeted.contains($0) && $0 != "com.apple.mobilemail" && random.next() % 2 == 0 }
            targeted.formUnion(apps)
            var members = ["\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\"", "\"displayName\": \"P\(index)\""]
            let send = pick(["allApps", "managedApps", "none"])
            members.append("\"allowedOutboundDataTransferDestinations\": \"\(send)\"")
            if send == "managedApps", random.next() % 3 == 0 { members.append("\"disableProtectionOfManagedOutboundOpenInData\": true") }
            if random.next() % 2 == 0 { members.append("\"allowedInboundDataTransferSources\": \"\(pick(["allApps", "managedApps", "none"]))\"") }
            if random.next() % 2 == 0 {
                members.append("\"allowedOutboundClipboardSharingLevel\": \"\(pick(["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"]))\"")
            }
            if random.next() % 3 == 0 { members.append("\"exemptedAppProtocols\": [{\"name\": \"x\", \"value\": \"custom;\"}]") }
            let targets = apps.map { "{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"\($0)\"}}" }
            members.append("\"apps\": [\(targets.joined(separator: ", "))]")
            policies.append("{" + members.joined(separator: ", ") + "}")
        }
        let installed = ids.filter { _ in random.next() % 5 != 0 }
        var handlers: [String] = []
        if random.next() % 2 == 0 { handlers.append("\"custom\": \"\(pick(installed.isEmpty ? ids : installed))\"") }
        let text = "[" + policies.joined(separator: ",\n") + "]"
        let devices = """
            {"apps": [], "devices": {"d": {"installed": [\(installed.map { "\"\($0)\"" }.joined(separator: ", "))], "mdmEnrolled": \(random.next() % 2 == 0),
             "intuneMAMUPN": \(random.next() % 2 == 0), "mdmManagedApps": [\(ids.filter { _ in random.next() % 2 == 0 }.map { "\"\($0)\"" }.joined(separator: ", "))],
             "schemeHandlers": {\(handlers.joined(separator: ", "))}}}}
            """
        return (text, devices)
    }

    @Test("Intune: flipping a hop's named sender settings to their most restrictive values changes its decision")
    func intuneFlips() throws {
        var random = SplitMix64(seed: 0x696E_7475)
        var flipped = 0
        for _ in 0..<120 {
            let (text, devices) = Self.randomIntune(&random)
            let analysis = try Self.analysis(intune: text, devices: devices)
            flipped += try Self.flipEveryHop(analysis, text: text, reread: { try Self.analysis(intune: $0, devices: devices) }, where: text + "\n" + devices)
        }
        #expect(flipped > 100)
    }

    @Test("the example fleet: each hop's settings name the policy, how it reaches the app, the key, value and line")
    func exampleSettings() throws {
        let path = "Examples/fleet/acme.json"
        let analysis = FleetAnalysis(try FleetJSON.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path))
        let device = try analysis.device(named: "employee-iphone")
        #expect(device.zoneDescription == "the authorized AppConnect apps on employee-iphone (3); outside: every other app, native Mail and any app the fleet does not list")
        let paths = try device.paths(from: try BundleID("com.acme.hr"))
        #expect(device.summary(of: paths) == FleetPathSummary(reachable: 7, outside: 5, paths: 5))
        let dropbox = try #require(paths.first { $0.to == .app(try BundleID("com.getdropbox.Dropbox")) })
        let first = dropbox.hops[0].settings
        #expect(first.map(\.side) == [.sender, .sender, .receiver])
        #expect(first[0] == FleetSetting(side: .sender, app: try BundleID("com.acme.hr"), policy: "HR", via: "container policy by label Employees",
                                         key: "containerPolicies[0].openInPolicy", value: "whitelist", file: path, line: 13))
        #expect(first[1].key == "containerPolicies[0].openInWhitelist[0]" && first[1].value == "com.acme.viewer")
        // The viewer's container policy sets no Open From: the global policy's applies, and says so.
        #expect(first[2] == FleetSetting(side: .receiver, app: try BundleID("com.acme.viewer"), policy: "global policy",
                                         via: "global default (container policy \"Viewer\" sets no openFromPolicy)", key: "global.openFromPolicy",
                                         value: "appconnect", file: path, line: 6))
        #expect(dropbox.hops[1].settings.map(\.key) == ["containerPolicies[1].openInPolicy"])
        // Every route's last hop: the viewer, and the other outside apps that Dropbox receives from directly.
        #expect(dropbox.deliveredBy.first == .app(try BundleID("com.acme.viewer")))
        #expect(dropbox.deliveredBy.count == dropbox.deliveredByCount)
        #expect(!dropbox.deliveredBy.contains(.app(try BundleID("com.acme.hr"))))
        #expect(device.reproduceCommand(dropbox.hops[1])
            == "openin-check fleet eval --fleet Examples/fleet/acme.json --device employee-iphone --from com.acme.viewer --channel document-interaction --target com.getdropbox.Dropbox")
    }

    @Test("reproduce commands quote what a shell would read otherwise")
    func shellQuoting() {
        #expect(ShellQuoting.quoted("Examples/fleet/acme.json") == "Examples/fleet/acme.json")
        #expect(ShellQuoting.quoted("my fleet.json") == "'my fleet.json'")
        #expect(ShellQuoting.quoted("it's $HOME;`x`") == #"'it'\''s $HOME;`x`'"#)
        #expect(ShellQuoting.quoted("") == "''")
    }
}
