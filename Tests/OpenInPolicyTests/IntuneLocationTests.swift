import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Issue 30: Microsoft's framework templates, app groups, Save As and Open into Org documents, and the lint checks
/// real exports need.
@Suite("Intune locations and app groups")
struct IntuneLocationTests {
    static let examples = IntuneReaderTests.examples
    static let framework = ["level-1-enterprise-basic-data-protection-iOS", "level-2-enterprise-enhanced-data-protection-iOS",
                            "level-3-enterprise-high-data-protection-iOS"].map { "\(examples)/framework/\($0).json" }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// An Intune fleet as the CLI loads it: the export, the devices file, its app groups resolved.
    static func fleet(_ export: String, devices: String, devicesText: String? = nil) throws -> IntuneFleet {
        let policies = try IntuneGraphJSON.read(try bytes(export), file: export)
        let devicesBytes = try devicesText.map { Array($0.utf8) } ?? bytes(devices)
        var fleet = IntuneFleet(policies: policies, file: export)
        (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(devicesBytes, file: devices)
        try fleet.resolveAppGroups(try IntuneDevicesJSON.appGroups(devicesBytes, file: devices))
        try fleet.checkConflicts()
        return fleet
    }

    @Test("the three framework templates read unedited: Core Microsoft apps from the built-in list, every data-transfer setting typed")
    func frameworkTemplatesRead() throws {
        var levels: [IntunePolicy] = []
        for path in Self.framework {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\"appGroupType\":  \"allCoreMicrosoftApps\"") && !text.contains("\"apps\""), "\(path) is not the unedited template")
            let fleet = try Self.fleet(path, devices: "\(Self.examples)/framework-devices.json")
            #expect(fleet.policies.count == 1)
            levels.append(fleet.policies[0])
        }
        for policy in levels {
            #expect(policy.appsFromGroup == .builtInList && policy.apps == IntuneAppGroups.coreMicrosoftApps && policy.apps.count == 11)
        }
        #expect(levels[0].send == .allApps && !levels[0].saveAsBlocked && levels[0].allowedDataIngestionLocations == [.oneDriveForBusiness, .sharePoint, .camera])
        #expect(levels[1].send == .managedApps && levels[1].saveAsBlocked && levels[1].allowedDataStorageLocations == [.oneDriveForBusiness, .sharePoint])
        #expect(levels[2].printBlocked && levels[2].blockDataIngestion && levels[2].dialer == .customApp
                && levels[2].customDialerAppProtocol == "replace_with_dialer_app_url_scheme")
    }

    @Test("a policy whose app group was never resolved is refused, never read as targeting no app (every share allow)")
    func anUnresolvedGroupIsRefused() throws {
        let path = Self.framework[2], devices = "\(Self.examples)/framework-devices.json"
        var fleet = IntuneFleet(policies: try IntuneGraphJSON.read(try Self.bytes(path), file: path), file: path)
        (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(try Self.bytes(devices), file: devices)
        let request = try FleetRequest(from: try BundleID("com.microsoft.Office.Word"), channel: .documentInteraction, target: try BundleID("com.getdropbox.Dropbox"))
        for attempt in [{ try fleet.checkConflicts() }, { _ = try fleet.decide(device: "byod-iphone", request) }, { _ = try FleetAnalysis(fleet).device(named: "byod-iphone") }] {
            #expect {
                try attempt()
            } throws: { error in
                "\(error)".contains("allCoreMicrosoftApps") && "\(error)".contains("not resolved") && "\(error)".contains(":59")
            }
        }
        try fleet.resolveAppGroups([])
        #expect(try fleet.decide(device: "byod-iphone", request).outcome == .deliverEncrypted)
    }

    @Test("two templates over Core Microsoft apps, without a devices file, are not refused: on eval's own profile they decide together, most restrictive")
    func twoTemplatesDecideTogether() throws {
        var fleet = IntuneFleet(policies: try Self.framework.prefix(2).flatMap { try IntuneGraphJSON.read(try Self.bytes($0), file: $0) })
        try fleet.resolveAppGroups([])
        try fleet.checkConflicts()
        let word = try BundleID("com.microsoft.Office.Word")
        fleet.devices = [IntuneDeviceProfile(name: "-", installed: [word])]
        let requests = [try FleetRequest(from: word, channel: .print), try FleetRequest(from: word, channel: .saveAs, location: "localStorage"),
                        try FleetRequest(from: word, channel: .documentInteraction, target: try BundleID("com.getdropbox.Dropbox"))]
        var differed = false
        for request in requests {
            let both = try fleet.decide(device: "-", request)
            let alone = try fleet.policies.map { policy in
                var single = fleet
                single.policies = [policy]
                return try single.decide(device: "-", request).outcome
            }
            // Most restrictive per setting: where one template alone refuses, the pair refuses too.
            if alone.contains(.deny) { #expect(both.outcome == .deny, "\(request): \(alone) → \(both.outcome)") }
            if Set(alone).count > 1 { differed = true }
        }
        #expect(differed, "the two templates decide some request differently alone")
    }

    @Test("level 3 decides print, Save As and Open into Org documents as Learn says")
    func levelThreeDecisions() throws {
        let fleet = try Self.fleet(Self.framework[2], devices: "\(Self.examples)/framework-devices.json")
        let word = try BundleID("com.microsoft.Office.Word")
        func decide(_ channel: FleetChannel, _ location: String? = nil) throws -> FleetDecision {
            try fleet.decide(device: "byod-iphone", try FleetRequest(from: word, channel: channel, location: location))
        }
        #expect(try decide(.print).sender.rule.rawValue == "intune.print.blocked")
        #expect(try decide(.saveAs, "sharePoint").outcome == .allow)
        #expect(try decide(.saveAs, "other").sender.rule.rawValue == "intune.save-as.blocked")
        #expect(try decide(.saveAs, "localStorage").outcome == .deny)
        #expect(try decide(.openIntoOrgDocument, "oneDriveForBusiness").sender.rule.rawValue == "intune.open-into.selected-service")
        #expect(try decide(.openIntoOrgDocument, "camera").outcome == .deny)
        let copy = try decide(.copy)
        #expect(copy.outcome == .allow && copy.sender.audience == .managedApps && copy.receiver == nil)
        // An app outside Core Microsoft apps is unmanaged under the template: nothing is restricted.
        let dropbox = try fleet.decide(device: "byod-iphone", try FleetRequest(from: try BundleID("com.getdropbox.Dropbox"), channel: .saveAs, location: "other"))
        #expect(dropbox.sender.rule.rawValue == "intune.unmanaged.allow")
    }

    @Test("appGroups in the devices file come first; allApps is every app with an SDK version; allMicrosoftApps needs a list")
    func appGroupResolution() throws {
        let devices = """
            {"apps": [{"bundleID": "com.corp.a", "intuneSDKVersion": "19.0.0"}, {"bundleID": "com.corp.b"}],
             "appGroups": {"allCoreMicrosoftApps": ["com.microsoft.Office.Word"], "allMicrosoftApps": ["com.microsoft.Office.Outlook"]},
             "devices": {"d": {"installed": ["com.corp.a", "com.corp.b", "com.microsoft.Office.Word"], "mdmEnrolled": false, "intuneMAMUPN": false}}}
            """
        let core = try Self.fleet(Self.framework[0], devices: "devices.json", devicesText: devices)
        #expect(core.policies[0].appsFromGroup == .devicesFile && core.policies[0].apps.map(\.rawValue) == ["com.microsoft.Office.Word"])
        func policy(_ group: String) throws -> IntunePolicy {
            try IntuneGraphJSON.read(Array("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"G\", \"appGroupType\": \"\(group)\"}".utf8), file: "g.json")[0]
        }
        var all = IntuneFleet(policies: [try policy("allApps")], apps: [IntuneApp(bundleID: try BundleID("com.corp.a"), intuneSDKVersion: IntuneSDKVersion("19.0.0")),
                                                                       IntuneApp(bundleID: try BundleID("com.corp.b"))])
        try all.resolveAppGroups([])
        #expect(all.policies[0].apps.map(\.rawValue) == ["com.corp.a"] && all.policies[0].appsFromGroup == .appsWithIntuneSDK)
        var microsoft = IntuneFleet(policies: [try policy("allMicrosoftApps")], file: "g.json")
        #expect(throws: FleetError.self) { try microsoft.resolveAppGroups([]) }
        do {
            try microsoft.resolveAppGroups([])
        } catch {
            #expect(error.description.contains("\"appGroups\": {\"allMicrosoftApps\": [\"BUNDLE_ID\", ...]}") && error.description.hasPrefix("g.json:1: "), "\(error)")
        }
        try microsoft.resolveAppGroups([("allMicrosoftApps", [try BundleID("com.microsoft.Office.Outlook")])])
        #expect(microsoft.policies[0].targets(try BundleID("com.microsoft.office.outlook")))
        var noDevices = IntuneFleet(policies: [try policy("allApps")])
        #expect(throws: FleetError.self) { try noDevices.resolveAppGroups([], devicesFile: false) }
    }

    @Test("appGroups: an unknown group, a malformed or repeated bundle ID is an error at its line", arguments: [
        ("{\"devices\": {},\n \"appGroups\": {\"allCoreMicrosoftApp\": []}}", "d.json:2:16: appGroups.allCoreMicrosoftApp: unknown app group", "Did you mean 'allCoreMicrosoftApps'?"),
        ("{\"devices\": {},\n \"appGroups\": {\"allApps\": []}}", "d.json:2:16: appGroups.allApps: unknown app group (allApps is not listed here", "intuneSDKVersion"),
        ("{\"devices\": {},\n \"appGroups\": {\"allMicrosoftApps\": [\"com.corp a\"]}}", "d.json:2:37: appGroups.allMicrosoftApps[0]: malformed bundle ID", "com.corp a"),
        ("{\"devices\": {},\n \"appGroups\": {\"allMicrosoftApps\": [\"com.corp.a\", \"COM.corp.A\"]}}", "d.json:2:51: appGroups.allMicrosoftApps[1]: COM.corp.A is listed twice", "once"),
    ])
    func appGroupErrors(_ text: String, _ prefix: String, _ hint: String) {
        let result = Result { () throws(FormatError) in try IntuneDevicesJSON.appGroups(Array(text.utf8), file: "d.json") }
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.description.hasPrefix(prefix) && error.description.contains(hint), "\(error)")
    }

    @Test("a location request checks its location against its channel, with Did you mean")
    func locationRequests() throws {
        #expect(try IntuneLocationRequest(channel: .saveAs, location: "iManage").location == .iManage)
        for (channel, text, hint) in [(IntuneLocationChannel.saveAs, "camera", "use oneDriveForBusiness, sharePoint, box"), (.openIntoOrgDocument, "box", "use oneDriveForBusiness, sharePoint, camera"),
                                      (.saveAs, "sharepoint", "Did you mean 'sharePoint'?"), (.saveAs, nil, "needs a location"), (.openIntoOrgDocument, "camer\u{0430}", "not ASCII")] {
            #expect(throws: InputError.self) { try IntuneLocationRequest(channel: channel, location: text) }
            do {
                _ = try IntuneLocationRequest(channel: channel, location: text)
            } catch {
                #expect(error.description.contains(hint), "\(error)")
            }
        }
        #expect(InputError.unknownChannel("save-as").description.contains("Intune's Save copies of org data"))
    }

    /// An independent reading of Learn's two settings, to check every location row and a sweep against.
    static func model(_ policy: IntunePolicy?, _ channel: IntuneLocationChannel, _ location: IntuneDataLocation) -> Outcome {
        guard let policy else { return .allow }
        let (level, blocked, allowed) = channel == .saveAs
            ? (policy.send, policy.saveAsBlocked, policy.allowedDataStorageLocations)
            : (policy.receive, policy.blockDataIngestion, policy.allowedDataIngestionLocations)
        if level == .allApps { return .allow }
        if level == .none { return .deny }
        return !blocked || allowed.contains(location) ? .allow : .deny
    }

    @Test("every location row, and a seeded sweep, agree with the model")
    func rowsAndSweepAgree() throws {
        let rows = RulesFolder.cases.filter { $0.cells["policy"] == "intune" && IntuneLocationChannel(named: $0.cells["channel"] ?? "") != nil }
        #expect(rows.count >= 15)
        for row in rows {
            guard case .intuneLocation(let context, let request) = row.inputs else {
                #expect(row.expected.outcome == nil, "\(row.location): invalid but expects a decision")
                continue
            }
            #expect(IntuneEvaluator(context: context).decide(request).outcome == Self.model(context.policy, request.channel, request.location), "\(row.location)")
        }
        var random = SplitMix64(seed: 0x5AFE)
        var seen: Set<String> = []
        for _ in 0..<3000 {
            var policy = IntunePolicy(displayName: "s")
            policy.send = IntuneTransferLevel.allCases[Int(random.next() % 3)]
            policy.receive = IntuneTransferLevel.allCases[Int(random.next() % 3)]
            policy.saveAsBlocked = random.next() % 2 == 0
            policy.blockDataIngestion = random.next() % 2 == 0
            policy.allowedDataStorageLocations = IntuneDataLocation.storage.filter { _ in random.next() % 3 == 0 }
            policy.allowedDataIngestionLocations = IntuneDataLocation.ingestion.filter { _ in random.next() % 3 == 0 }
            let targeted = random.next() % 5 != 0
            let channel = IntuneLocationChannel.allCases[Int(random.next() % 2)]
            let location = channel.locations[Int(random.next() % UInt64(channel.locations.count))]
            let decision = IntuneEvaluator(context: IntuneContext(policy: targeted ? policy : nil)).decide(try IntuneLocationRequest(channel: channel, location: location))
            #expect(decision.outcome == Self.model(targeted ? policy : nil, channel, location))
            #expect(decision.callbacks.isEmpty && decision.openInUI == .enabled && decision.target == nil)
            seen.insert(decision.rule.rawValue)
        }
        let locationRules = RuleInfo.intune.map(\.id.rawValue).filter { $0.hasPrefix("intune.save-as.") || $0.hasPrefix("intune.open-into.") }
        #expect(locationRules.count == 10 && locationRules.allSatisfy(seen.contains), "not reached: \(locationRules.filter { !seen.contains($0) })")
    }

    @Test("the lint example finds IN004 and IN006 to IN009; level 3 names its placeholder and its tel exemption")
    func lintChecks() throws {
        let fleet = try Self.fleet("\(Self.examples)/lint-mistakes.json", devices: "\(Self.examples)/lint-devices.json")
        let findings = IntuneLint.findings(fleet)
        #expect(findings.map(\.code) == ["IN006", "IN005", "IN004", "IN006", "IN007", "IN008", "IN005", "IN009"])
        #expect(findings[0].message.contains("\"replace_with_dialer_app_url_scheme\", the framework template's placeholder"))
        #expect(findings[2].message.contains("a pair Microsoft documents as inconsistent") && findings[2].message.contains("web links open in any browser"))
        #expect(findings[3].message.contains("\"whatsapp\", and no app in any device profile handles that scheme"))
        let three = IntuneLint.findings(try Self.fleet(Self.framework[2], devices: "\(Self.examples)/framework-devices.json"))
        let placeholder = try #require(three.first { $0.code == "IN006" })
        #expect(placeholder.message.contains("today tel is exempted"))
        // A dialer scheme that a device handles is not reported.
        var handled = fleet
        handled.policies[0].customDialerAppProtocol = "skype:"
        #expect(!IntuneLint.findings(handled).contains { $0.code == "IN006" && $0.message.contains("Sales") })
    }

    @Test("AppConnect: copy and print decide as the single-app engine does; save-as is an error naming the Intune setting")
    func appConnectFleet() throws {
        let path = RulesFolder.path + "/../Examples/fleet/acme.json"
        let fleet = try FleetJSON.read(try Self.bytes(path), file: "acme.json")
        let device = try fleet.device(named: "employee-iphone")
        let hr = try BundleID("com.acme.hr")
        for channel in [FleetChannel.copy, .print] {
            let decision = try device.decide(try FleetRequest(from: hr, channel: channel))
            let (_, evaluator) = device.evaluator(for: hr)
            #expect(decision.sender == evaluator.decide(try ShareRequest(channel: channel.senderChannel!)) && decision.receiver == nil)
        }
        #expect(throws: FleetError.self) { try device.decide(try FleetRequest(from: hr, channel: .saveAs, location: "box")) }
        let result = Result { () throws(FleetError) in try device.decide(try! FleetRequest(from: hr, channel: .openIntoOrgDocument, location: "camera")) }
        if case .failure(let error) = result {
            #expect(error.message.contains("Open data into Org documents") && error.message.contains("AppConnect has no such control"))
        } else {
            Issue.record("an AppConnect fleet decided open-into-org-document")
        }
        #expect(throws: InputError.self) { try FleetRequest(from: hr, channel: .print, location: "box") }
        #expect(throws: InputError.self) { try FleetRequest(from: hr, channel: .saveAs, target: hr, location: "box") }
    }

    @Test("the matrix's one-sided decisions are the decisions asked one by one")
    func matrixOneSided() throws {
        let fleet = try Self.fleet(Self.framework[1], devices: "\(Self.examples)/framework-devices.json")
        let matrix = try fleet.matrix(device: "byod-iphone")
        #expect(matrix.oneSided.count == matrix.senders.count && !matrix.senders.isEmpty)
        for (s, sender) in matrix.senders.enumerated() {
            let one = matrix.oneSided[s]
            #expect(one.print?.outcome == (try fleet.decide(device: "byod-iphone", try FleetRequest(from: sender, channel: .print))).outcome)
            #expect(one.copy?.audience == .managedApps)
            #expect(one.saveAs.map(\.location) == IntuneLocationChannel.saveAs.locations)
            for (location, outcome) in one.saveAs + one.openInto {
                let channel: FleetChannel = one.saveAs.contains { $0.location == location && $0.outcome == outcome } ? .saveAs : .openIntoOrgDocument
                let asked = try fleet.decide(device: "byod-iphone", try FleetRequest(from: sender, channel: channel, location: location.rawValue))
                #expect(asked.outcome == outcome, "\(sender) \(channel) \(location)")
            }
        }
        let acme = try FleetJSON.read(try Self.bytes(RulesFolder.path + "/../Examples/fleet/acme.json"), file: "acme.json")
        let appConnect = try (try acme.device(named: "employee-iphone")).matrix()
        #expect(appConnect.oneSided.allSatisfy { $0.saveAs.isEmpty && $0.openInto.isEmpty })
        #expect(appConnect.oneSided.contains { $0.copy?.audience == .appConnectApps })
    }

    @Test("translate to AppConnect names Save As, data ingestion and the app group it did not carry over")
    func translateReports() throws {
        let fleet = try Self.fleet(Self.framework[2], devices: "\(Self.examples)/framework-devices.json")
        let notes = PolicyTranslation.toAppConnect(fleet).notes.map(\.setting)
        #expect(notes.contains { $0.hasPrefix("saveAsBlocked: true, allowedDataStorageLocations: oneDriveForBusiness, sharePoint") })
        #expect(notes.contains { $0.hasPrefix("blockDataIngestionIntoOrganizationDocuments: true, allowedDataIngestionLocations: oneDriveForBusiness, sharePoint") })
        #expect(notes.contains("appGroupType: allCoreMicrosoftApps"))
    }
}
