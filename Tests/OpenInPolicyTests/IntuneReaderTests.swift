import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The Graph beta reader: real export shapes read, bad input refused with file, line and property path.
@Suite("Intune Graph reader")
struct IntuneReaderTests {
    static let examples = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent().appendingPathComponent("Examples/intune").path

    static func read(_ text: String) throws -> [IntunePolicy] { try IntuneGraphJSON.read(Array(text.utf8), file: "p.json") }

    static func error(_ text: String) -> FormatError? {
        let result = Result { () throws(FormatError) in try IntuneGraphJSON.read(Array(text.utf8), file: "p.json") }
        if case .failure(let error) = result { return error }
        return nil
    }

    static let minimal = ##"{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "apps": []"##

    @Test("the example export, shaped like a real one, reads: settings, exemptions, targets")
    func example() throws {
        let export = try IntuneGraphJSON.read(path: Self.examples + "/acme-app-protection.json")
        #expect(export.policies.count == 1)
        let policy = try #require(export.policies.first)
        #expect(policy.displayName == "Acme - iOS - App Protection")
        #expect(policy.send == .managedApps && policy.receive == .allApps && policy.clipboard == .managedAppsWithPasteIn && policy.printBlocked)
        #expect(policy.exemptedSchemes == ["skype", "app-settings", "calshow", "itms", "itmss", "itms-apps", "itms-appss", "itms-services"])
        #expect(policy.exemptedUniversalLinks.count == 4 && policy.managedUniversalLinks.count == 6)
        #expect(policy.apps.map(\.rawValue) == ["com.acme.hr", "com.acme.viewer", "com.mobileiron.ios.emailplus", "com.microsoft.office.outlook"])
        // Intune compares targets ignoring case: the lowercased export targets Outlook's real bundle ID.
        #expect(policy.targets(try BundleID("com.microsoft.Office.Outlook")))
        #expect(!policy.targets(try BundleID("com.microsoft.Office.Word")))
    }

    /// The real public export (SkipToTheEndpoint/OpenIntuneBaseline, "iOS - Baseline - BYOD - App
    /// Protection.json", GPL-3.0, so not copied here): set OPENIN_INTUNE_REAL_EXPORT to its path.
    @Test("a real public export reads and decides without an edit, when OPENIN_INTUNE_REAL_EXPORT names it")
    func realExport() throws {
        guard let path = ProcessInfo.processInfo.environment["OPENIN_INTUNE_REAL_EXPORT"], !path.isEmpty else { return }
        let export = try IntuneGraphJSON.read(path: path)
        let policy = try #require(export.policies.first)
        #expect(policy.targets(try BundleID("com.microsoft.Office.Outlook")))
        let decision = IntuneEvaluator(context: IntuneContext(policy: policy)).decide(try ShareRequest(channel: "document-interaction", target: "com.getdropbox.Dropbox"))
        #expect(decision.outcome != .allow)
    }

    @Test("an array, a Graph list response and a folder (another platform's file skipped and listed)")
    func shapes() throws {
        #expect(try Self.read("[\(Self.minimal)}, \(Self.minimal.replacingOccurrences(of: "\"P\"", with: "\"Q\""))}]").map(\.displayName) == ["P", "Q"])
        let list = #"{"@odata.context": "https://graph.microsoft.com/beta/$metadata#x", "value": ["# + Self.minimal + "}]}"
        #expect(try Self.read(list).map(\.displayName) == ["P"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App Protection"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ("\u{FEFF}" + Self.minimal + "}").write(to: folder.appendingPathComponent("App Protection/ios.json"), atomically: true, encoding: .utf8)
        try ##"{"@odata.type": "#microsoft.graph.androidManagedAppProtection", "displayName": "A"}"##
            .write(to: folder.appendingPathComponent("App Protection/android.json"), atomically: true, encoding: .utf8)
        let export = try IntuneGraphJSON.read(path: folder.path)
        #expect(export.policies.map(\.displayName) == ["P"])
        #expect(export.skipped.count == 1 && export.skipped[0].type == "#microsoft.graph.androidManagedAppProtection")
    }

    /// Changed deliberately (issue 32): a null for an enum, Boolean, Int32 or collection property was
    /// read as the documented default, and `"allowedOutboundDataTransferDestinations": null` as All
    /// apps (allow). Graph declares those properties non-nullable, so a null is a damaged export, not
    /// "unset": an error. Strings are nullable in Graph and still read as empty; null for a property
    /// the reader ignores is still accepted.
    @Test("null for a non-nullable data-transfer property is an error; a nullable string reads as empty")
    func nulls() throws {
        let policy = try #require(try Self.read(Self.minimal + #", "messagingRedirectAppUrlScheme": null, "customBrowserProtocol": null, "pinCharacterSet": null}"#).first)
        #expect(policy.messaging == .anyApp && policy.messagingRedirectAppUrlScheme.isEmpty && policy.customBrowserProtocol.isEmpty)
        for property in IntuneGraphJSON.nonNullableProperties {
            let error = Self.error(Self.minimal + ",\n \"\(property)\": null}")
            let message = error?.description ?? "no error"
            #expect(message.hasPrefix("p.json:2:\(property.count + 6): \(property): is null, and Graph's \(property) is not nullable"), "\(message)")
        }
        #expect(Self.error(Self.minimal + #", "allowedOutboundDataTransferDestinations": null}"#) != nil)
        #expect(Set(IntuneGraphJSON.nonNullableProperties).isSubset(of: IntuneGraphJSON.dataTransferProperties))
    }

    static let page = ##"{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "apps": [{"mobileAppIdentifier": {"bundleId": "com.acme.hr"}}]}"##

    @Test("a partial export (one page of a Graph list, a policy's apps cut short) is an error saying how to get the rest", arguments: [
        (#"{"@odata.context": "x", "value": [PAGE],\#n "@odata.nextLink": "https://graph.microsoft.com/beta/deviceAppManagement/iosManagedAppProtections?$skiptoken=2"}"#,
         "p.json:2:2: @odata.nextLink: the list of policies is one page of several", "follow each @odata.nextLink"),
        (#"{"@odata.count": 3, "value": [PAGE]}"#, "p.json:1:2: @odata.count: says 3 but value holds 1: the list of policies is partial", "-All"),
        (#"{"@odata.count": 0, "value": [PAGE]}"#, "p.json:1:2: @odata.count: says 0 but value holds 1: the file was edited", "agree"),
        (#"{"@odata.count": "1", "value": [PAGE]}"#, "p.json:1:18: @odata.count: must be a whole number", "size"),
        (##"[{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P",\##n "apps@odata.nextLink": "https://graph.microsoft.com/beta/x/apps?$skiptoken=1", "apps": []}]"##,
         "p.json:2:2: [0].apps@odata.nextLink: the policy's apps is one page of several", "$expand=apps"),
        (##"{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "apps@odata.count": 2,\##n "apps": [{"mobileAppIdentifier": {"bundleId": "com.acme.hr"}}]}"##,
         "p.json:1:81: apps@odata.count: says 2 but apps holds 1: the policy's apps is partial", "following each @odata.nextLink"),
    ])
    func partialExport(_ template: String, _ prefix: String, _ hint: String) {
        let text = template.replacingOccurrences(of: "PAGE", with: Self.page)
        let message = Self.error(text)?.description ?? "no error"
        #expect(message.hasPrefix(prefix), "\(message)")
        #expect(message.contains(hint), "\(message)")
    }

    @Test("whole collections with their annotations still read")
    func wholeCollections() throws {
        let list = #"{"@odata.count": 1, "value": ["# + Self.page + "]}"
        #expect(try Self.read(list).map(\.displayName) == ["P"])
        let apps = ##"{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "apps@odata.count": 1, "apps@odata.context": "x", "apps": [{"mobileAppIdentifier": {"bundleId": "com.acme.hr"}}]}"##
        #expect(try Self.read(apps).first?.apps.map(\.rawValue) == ["com.acme.hr"])
    }

    @Test("the real-shaped example export, cut into pages, is refused in every reader: a file, a list, a folder")
    func partialExample() throws {
        let text = try String(contentsOfFile: Self.examples + "/acme-app-protection.json", encoding: .utf8)
        #expect(try Self.read(text).count == 1)
        let listed = #"{"@odata.context": "https://graph.microsoft.com/beta/$metadata#deviceAppManagement/iosManagedAppProtections", "value": ["#
            + text + #"], "@odata.nextLink": "https://graph.microsoft.com/beta/deviceAppManagement/iosManagedAppProtections?$skiptoken=x"}"#
        #expect(Self.error(listed)?.description.contains("one page of several") == true)
        let cut = try #require(text.range(of: #""apps""#))
        let appsCut = text.replacingCharacters(in: cut, with: #""apps@odata.nextLink": "https://graph.microsoft.com/beta/x/apps?$skiptoken=y", "apps""#)
        #expect(Self.error(appsCut)?.description.contains("apps@odata.nextLink: the policy's apps is one page of several") == true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try listed.write(to: folder.appendingPathComponent("page1.json"), atomically: true, encoding: .utf8)
        let result = Result { () throws(FormatError) in try IntuneGraphJSON.read(path: folder.path) }
        guard case .failure(let error) = result else {
            Issue.record("a folder holding one page of a list was read as the whole export")
            return
        }
        #expect(error.description.contains("page1.json:") && error.description.contains("one page of several"), "\(error)")
    }

    @Test("thirdPartyKeyboardsBlocked is a decided setting: read, defaulting to false, and its type checked")
    func keyboards() throws {
        #expect(try Self.read(Self.minimal + #", "thirdPartyKeyboardsBlocked": true}"#).first?.thirdPartyKeyboardsBlocked == true)
        #expect(try Self.read(Self.minimal + "}").first?.thirdPartyKeyboardsBlocked == false)
        #expect(IntuneGraphJSON.dataTransferProperties.contains("thirdPartyKeyboardsBlocked"))
        #expect(!IntuneGraphJSON.ignoredProperties.contains { $0.name == "thirdPartyKeyboardsBlocked" })
        #expect(throws: (any Error).self) { try Self.read(Self.minimal + #", "thirdPartyKeyboardsBlocked": "yes"}"#) }
    }

    @Test("bad input is an error with file, line, column and property path", arguments: [
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\",\n \"allowedOutboundDataTransferDestinations\": \"managedapps\", \"apps\": []}",
         "p.json:2:45: allowedOutboundDataTransferDestinations: unknown managedAppDataTransferLevel value \"managedapps\"", "Did you mean 'managedApps'?"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\",\n\n \"printBlocked\": \"yes\", \"apps\": []}",
         "p.json:3:18: printBlocked: must be true or false", "the string \"yes\""),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"allowedOutboundDataTransferDestinations\": \"allApps\", \"disableProtectionOfManagedOutboundOpenInData\": true}",
         "p.json:2:104: disableProtectionOfManagedOutboundOpenInData: is true but allowedOutboundDataTransferDestinations is allApps", "only when"),
        ("{\"@odata.type\": \"#microsoft.graph.androidManagedAppProtection\", \"displayName\": \"P\", \"apps\": []}",
         "p.json:1:17: @odata.type: unknown @odata.type \"#microsoft.graph.androidManagedAppProtection\"", "another platform"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n   \"printBlock\": true}",
         "p.json:2:4: printBlock: unknown property of iosManagedAppProtection", "Did you mean 'printBlocked'?"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"appGroupType\": \"selectedPublicApps\"}",
         "p.json:1:1: has no apps", "$expand=apps"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"appGroupType\": \"allCoreMicrosoftApp\"}",
         "p.json:2:18: appGroupType: unknown targetedManagedAppGroupType \"allCoreMicrosoftApp\"", "Did you mean 'allCoreMicrosoftApps'?"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"allowedDataStorageLocations\": [\"sharePoint\", \"oneDrive\"]}",
         "p.json:2:48: allowedDataStorageLocations[1]: unknown managedAppDataStorageLocation value \"oneDrive\"", "Did you mean 'oneDriveForBusiness'?"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"allowedDataIngestionLocations\": [\"box\"]}",
         "p.json:2:36: allowedDataIngestionLocations[0]: unknown managedAppDataIngestionLocation value \"box\"", "camera"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"allowedDataStorageLocations\": [\"unknownFutureValue\"]}",
         "p.json:2:34: allowedDataStorageLocations[0]: unknown managedAppDataStorageLocation value \"unknownFutureValue\"", "beta API"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [],\n \"exemptedAppProtocols\": [{\"name\": \"x\", \"value\": \"skype;ma ilto;\"}]}",
         "p.json:2:50: exemptedAppProtocols[0].value: malformed URL scheme 'ma ilto'", "separated by ';'"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\",\n \"apps\": [{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.androidMobileAppIdentifier\", \"packageId\": \"x\"}}]}",
         "p.json:2:98: apps[0].mobileAppIdentifier.packageId: unknown key", "bundleId"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [], \"printBlock@odata.type\": \"x\"}",
         "p.json:1:93: printBlock@odata.type: an annotation of printBlock", "Did you mean 'printBlocked'?"),
        ("{\"displayName\": \"P\", \"apps\": []}", "p.json:1:1: has no @odata.type", "#microsoft.graph.iosManagedAppProtection"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [], \"allowedOutboundClipboardSharingExceptionLength\": 70000}",
         "p.json:1:143: allowedOutboundClipboardSharingExceptionLength: is 70000", "0 to 65535"),
        ("{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [], \"minimumPinLength\": \"six\"}",
         "p.json:1:113: minimumPinLength: must be a whole number", "six"),
    ])
    func errors(_ text: String, _ prefix: String, _ hint: String) {
        let error = Self.error(text)
        let message = error?.description ?? "no error"
        #expect(message.hasPrefix(prefix), "\(message)")
        #expect(message.contains(hint), "\(message)")
    }

    @Test("every ignored property is documented once and is not a data-transfer property")
    func ignoredList() {
        let names = IntuneGraphJSON.ignoredProperties.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(names).isDisjoint(with: IntuneGraphJSON.dataTransferProperties))
        #expect(names.contains("pinRequired") && IntuneGraphJSON.dataTransferProperties.contains("saveAsBlocked"))
    }

    @Test("the devices file: facts read; a missing fact is an error naming it")
    func devicesFile() throws {
        let (apps, devices) = try IntuneDevicesJSON.read(Array(try String(contentsOfFile: Self.examples + "/devices.json", encoding: .utf8).utf8), file: "devices.json")
        #expect(apps.count == 3 && apps[1].intuneSDKVersion == IntuneSDKVersion("14.4.1"))
        #expect(devices.map(\.name) == ["employee-iphone", "contractor-ipad"])
        #expect(devices[0].mdmEnrolled && devices[0].intuneMAMUPN && !devices[1].mdmEnrolled)
        let result = Result { () throws(FormatError) in try IntuneDevicesJSON.read(Array(#"{"devices": {"d": {"installed": [], "mdmEnrolled": false}}}"#.utf8), file: "d.json") }
        guard case .failure(let error) = result else {
            Issue.record("a device without intuneMAMUPN was accepted")
            return
        }
        #expect(error.description.contains("devices.d: has no intuneMAMUPN"), "\(error)")
    }

    @Test("SDK versions compare numerically")
    func versions() {
        #expect(IntuneSDKVersion("14.5.0")! > IntuneSDKVersion("14.4.99")!)
        #expect(IntuneSDKVersion("14.5")! == IntuneSDKVersion("14.5.0")!)
        #expect(IntuneSDKVersion("19.10.0")! > IntuneSDKVersion("19.9.0")!)
        #expect(IntuneSDKVersion("1.x") == nil && IntuneSDKVersion("") == nil)
    }
}

@Suite("Intune lint")
struct IntuneLintTests {
    @Test("each check finds what it names, and a clean policy gives nothing but the Mail note")
    func checks() throws {
        var policy = IntunePolicy(displayName: "P")
        policy.send = .managedApps
        policy.messaging = .blocked
        policy.managedBrowser = .microsoftEdge
        policy.exemptions = [IntuneExemption(name: "Legacy", schemes: ["tel", "telprompt", "sms", "mailto"])]
        policy.apps = [try BundleID("com.corp.old"), try BundleID("com.corp.new")]
        let device = IntuneDeviceProfile(name: "d", installed: [try BundleID("com.corp.old"), try BundleID("com.corp.new")])
        let fleet = IntuneFleet(policies: [policy], apps: [IntuneApp(bundleID: try BundleID("com.corp.new"), intuneSDKVersion: IntuneSDKVersion("14.5.0"))], devices: [device])
        let findings = IntuneLint.findings(fleet)
        #expect(findings.map(\.code) == ["IN001", "IN002", "IN003", "IN004", "IN005"])
        #expect(findings[0].message.contains("com.corp.old has an Intune SDK older than 14.5.0") && !findings[0].message.contains("com.corp.new"))
        #expect(findings.prefix(4).allSatisfy { $0.severity == .warning } && findings[4].severity == .info)
        var clean = policy
        clean.exemptions = []
        clean.messaging = .anyApp
        clean.managedBrowserRequired = true
        #expect(IntuneLint.findings(IntuneFleet(policies: [clean], devices: [device])).map(\.code) == ["IN005"])
        clean.send = .allApps
        #expect(IntuneLint.findings(IntuneFleet(policies: [clean], devices: [device])).isEmpty)
        #expect(IntuneLint.checks.map(\.code) == ["IN001", "IN002", "IN003", "IN004", "IN005", "IN006", "IN007", "IN008", "IN009", "IN010", "IN011", "IN012", "IN013", "IN014", "IN015", "IN016"])
    }

    @Test("IN005 names the profiles where the policy protects an installed app (its groups and level reach it), IN014 those whose groups it includes")
    func mailNoteFollowsReach() throws {
        var policy = IntunePolicy(displayName: "Unmanaged only")
        policy.send = .managedApps
        policy.disableProtectionOfManagedOutboundOpenInData = true
        policy.apps = [try BundleID("com.corp.app")]
        policy.assignments = [IntuneAssignment(kind: .include, groupName: "Sales")]
        policy.managementLevels = IntuneManagementLevels(unmanaged: true, mdm: false)
        func profile(_ name: String, groups: [String], enrolled: Bool) throws -> IntuneDeviceProfile {
            var device = IntuneDeviceProfile(name: name, installed: [try BundleID("com.corp.app")], mdmEnrolled: enrolled, intuneMAMUPN: false)
            device.groups = groups
            return device
        }
        // "sales-byod" is reached; on "sales-enrolled" the app does not receive IntuneMAMUPN, so it counts as
        // unmanaged and is reached too (and IN014 says so); "hr" is not in the group: neither check names it.
        var fleet = IntuneFleet(policies: [policy], devices: [try profile("sales-byod", groups: ["Sales"], enrolled: false), try profile("hr", groups: ["HR"], enrolled: true),
                                                              try profile("sales-enrolled", groups: ["Sales"], enrolled: true)])
        var findings = IntuneLint.findings(fleet)
        let mail = try #require(findings.first { $0.code == "IN005" })
        #expect(mail.message.contains("on 2 profiles (\"sales-byod\", \"sales-enrolled\")"), "\(mail.message)")
        #expect(findings.filter { $0.code == "IN014" }.map(\.device) == ["sales-enrolled"])
        // A level that leaves every profile's app out: the policy protects nothing, so no Mail note; IN014 still says why on the enrolled profile in its group.
        fleet.policies[0].managementLevels = IntuneManagementLevels(unmanaged: false, mdm: true)
        findings = IntuneLint.findings(fleet)
        #expect(!findings.contains { $0.code == "IN005" }, "\(findings.map(\.message))")
        #expect(findings.filter { $0.code == "IN014" }.map(\.device) == ["sales-enrolled"])
    }

    @Test("a finding names the line and key path of the property it is about, and the file of a folder's policy")
    func places() throws {
        let text = """
            [
              {
                "@odata.type": "#microsoft.graph.iosManagedAppProtection",
                "displayName": "Field",
                "managedBrowser": "microsoftEdge",
                "managedBrowserToOpenLinksRequired": false,
                "apps": []
              },
              {
                "@odata.type": "#microsoft.graph.iosManagedAppProtection",
                "displayName": "Finance",
                "allowedOutboundDataTransferDestinations": "managedApps",
                "saveAsBlocked": true,
                "allowedDataStorageLocations": [],
                "apps": []
              }
            ]
            """
        let findings = IntuneLint.findings(IntuneFleet(policies: try IntuneReaderTests.read(text)))
        let places = findings.map { "\($0.code) \($0.line.map(String.init) ?? "-") \($0.keyPath) \($0.file ?? "-")" }
        #expect(places == ["IN004 6 [0].managedBrowserToOpenLinksRequired p.json", "IN007 13 [1].saveAsBlocked p.json"])
        // In a folder, the finding names the file that holds the policy, not the folder.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-lint-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("finance.json")
        try """
            {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "Finance",
             "saveAsBlocked": true, "allowedOutboundDataTransferDestinations": "managedApps",
             "allowedDataStorageLocations": [], "apps": []}
            """.write(to: file, atomically: true, encoding: .utf8)
        let export = try IntuneGraphJSON.read(path: folder.path)
        let finding = try #require(IntuneLint.findings(IntuneFleet(policies: export.policies)).first { $0.code == "IN007" })
        #expect(finding.line == 2 && finding.keyPath == "saveAsBlocked" && finding.file?.hasSuffix("/finance.json") == true)
    }
}
