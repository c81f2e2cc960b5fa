import Foundation
import Testing
@testable import OpenInPolicy

/// translate and the cross-vendor diff: identity on what is expressible, a report on what is not,
/// and diff rows that pass as decision tables.
@Suite("Intune translation and cross-vendor diff")
struct IntuneTranslationTests {
    static let root = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent()

    static func acme() throws -> Fleet {
        try FleetJSON.read(Array(try Data(contentsOf: root.appendingPathComponent("Examples/fleet/acme.json"))), file: "acme.json")
    }

    static func device(_ name: String, _ installed: [String]) throws -> IntuneDeviceProfile {
        IntuneDeviceProfile(name: name, installed: try installed.map { try BundleID($0) })
    }

    /// Every combination of the settings both vendors express exactly.
    static var expressible: [IntunePolicy] {
        var policies: [IntunePolicy] = []
        for (send, dialer, messaging) in [(IntuneTransferLevel.allApps, IntuneDialerLevel.allApps, IntuneMessagingLevel.anyApp),
                                          (.managedApps, .managedApps, .anyManagedApp), (.none, .blocked, .blocked)] {
            for receive in IntuneTransferLevel.allCases {
                for clipboard in [IntuneClipboardLevel.allApps, .managedAppsWithPasteIn, .blocked] {
                    for printBlocked in [false, true] {
                        var policy = IntunePolicy(displayName: "P")
                        policy.send = send
                        policy.dialer = dialer
                        policy.messaging = messaging
                        policy.receive = receive
                        policy.clipboard = clipboard
                        policy.printBlocked = printBlocked
                        policy.apps = [try! BundleID("com.acme.hr")]
                        policies.append(policy)
                    }
                }
            }
        }
        return policies
    }

    @Test("Intune → AppConnect → Intune is the identity on every expressible setting, with an empty report both ways except the documented change of form")
    func intuneRoundTrip() throws {
        for policy in Self.expressible {
            let intune = IntuneFleet(policies: [policy], devices: [try Self.device("d", ["com.acme.hr", "com.getdropbox.Dropbox"])])
            let (fleet, notes) = PolicyTranslation.toAppConnect(intune)
            // managedApps and none deliver encrypted in Intune, a dummy file in AppConnect: always reported.
            let formNotes = notes.filter { $0.setting.hasPrefix("allowedOutboundDataTransferDestinations") }
            #expect(notes.count == formNotes.count, "\(policy): \(notes)")
            #expect(formNotes.isEmpty == (policy.send == .allApps))
            let back = PolicyTranslation.toIntune(fleet)
            let translated = try #require(back.policies.first { $0.targets(try BundleID("com.acme.hr")) })
            #expect(translated.send == policy.send && translated.receive == policy.receive && translated.clipboard == policy.clipboard
                        && translated.printBlocked == policy.printBlocked && translated.dialer == policy.dialer && translated.messaging == policy.messaging,
                    "\(policy.send) \(policy.receive) \(policy.clipboard) → \(translated.send) \(translated.receive) \(translated.clipboard)")
            #expect(translated.exemptions.isEmpty && !translated.filterOpenInToOnlyManagedApps && !translated.disableProtectionOfManagedOutboundOpenInData)
        }
    }

    @Test("AppConnect → Intune → AppConnect gives every app the same controls on what is expressible")
    func appConnectRoundTrip() throws {
        let settings: [(PolicySetting, OpenFromPolicy, PasteboardPolicy, PrintPolicy)] = [
            (.status(.authorized), OpenFromPolicy(status: .authorized), .authorized, .authorized),
            (.allAppConnectApps, OpenFromPolicy(.allAppConnectApps), .secureCopy, .unauthorized),
            (.status(.unauthorized), OpenFromPolicy(status: .unauthorized), .unauthorized, .authorized),
        ]
        for (openIn, openFrom, pasteboard, print) in settings {
            let drag: DragAndDropPolicy = openIn == .status(.authorized) ? .all : openIn == .allAppConnectApps ? .appConnect : .none
            let controls = PolicyControls(openIn: openIn, openFrom: openFrom, pasteboard: pasteboard, print: print, dragAndDrop: drag)
            let hr = try BundleID("com.acme.hr")
            let fleet = Fleet(global: GlobalPolicy(authorizeAppsWithoutContainerPolicy: false, controls: controls),
                              containerPolicies: [ContainerPolicy(name: "HR", app: hr, labels: [], controls: controls)],
                              apps: [FleetApp(bundleID: hr, appConnect: true)],
                              devices: [DeviceProfile(name: "d", labels: [], installed: [hr])])
            let (_, intune, notes) = PolicyTranslation.toIntune(fleet)
            let (back, _) = PolicyTranslation.toAppConnect(intune)
            let translated = try #require(back.containerPolicies.first { $0.app == hr }).controls
            #expect(translated.openIn == controls.openIn && translated.openFrom?.setting == controls.openFrom?.setting
                        && translated.pasteboard == controls.pasteboard && translated.print == controls.print && translated.dragAndDrop == controls.dragAndDrop,
                    "\(controls) → \(translated)")
            // Only the change of form between a dummy file and an encrypted one is reported.
            #expect(notes.allSatisfy { $0.setting.hasPrefix("openInPolicy") }, "\(notes)")
            #expect(notes.isEmpty == (openIn == .status(.authorized)))
        }
    }

    @Test("what Intune cannot express is reported, each with what was chosen and what changes")
    func reportsTheInexpressible() throws {
        let (policies, _, notes) = PolicyTranslation.toIntune(try Self.acme())
        #expect(policies.map(\.displayName) == ["HR", "Viewer", "Email+"])
        let settings = notes.map(\.setting)
        #expect(settings.contains("openInPolicy: whitelist"))
        #expect(settings.contains("labels: Employees"))
        #expect(settings.contains { $0.hasPrefix("dragAndDropPolicy") })
        #expect(settings.contains("emailPlusInstalled: true"))
        #expect(notes.allSatisfy { !$0.chosen.isEmpty && !$0.changes.isEmpty })
        // The native Mail pair in a whitelist becomes the mailto exemption, and is reported.
        var fleet = try Self.acme()
        fleet.containerPolicies[0].controls.openInWhitelist = Whitelist([.mailActivity, .mobileMail])
        let (mailPolicies, _, mailNotes) = PolicyTranslation.toIntune(fleet)
        #expect(mailPolicies[0].exemptedSchemes == ["mailto"])
        #expect(mailNotes.contains { $0.setting == "openInWhitelist: the native Mail pair" && $0.changes.contains("14.5.0") })
    }

    @Test("the Graph JSON translate writes reads back as the same policies")
    func graphJSONReadsBack() throws {
        let policies = PolicyTranslation.toIntune(try Self.acme()).policies
        let read = try IntuneGraphJSON.read(Array(PolicyTranslation.graphJSON(policies).utf8), file: "out.json")
        #expect(read.count == policies.count)
        for (a, b) in zip(read, policies) {
            #expect(a.send == b.send && a.receive == b.receive && a.clipboard == b.clipboard && a.apps == b.apps && a.exemptions == b.exemptions)
        }
        let fleetText = PolicyTranslation.fleetJSON(PolicyTranslation.toAppConnect(IntuneFleet(policies: read, devices: [try Self.device("d", ["com.acme.hr"])])).fleet)
        let fleet = try FleetJSON.read(Array(fleetText.utf8), file: "fleet.json")
        #expect(fleet.containerPolicies.count == 3)
    }

    @Test("AppConnect against Intune (either way round): every group appears, every changed flow's rows pass as decision tables; Intune against itself: no change")
    func crossVendorDiff() throws {
        let acme = try Self.acme()
        let (_, intune, _) = PolicyTranslation.toIntune(acme)
        let changes = try CrossVendorDiff.compare(old: .appConnect(acme), new: .intune(intune))
        #expect(!changes.isEmpty)
        #expect(Set(changes.map(\.group)).isSuperset(of: [.newlyAllowed, .changedForm]))
        // Against the example Intune export (Outlook managed, the viewer restricted), all three groups.
        let export = try IntuneGraphJSON.read(path: Self.root.appendingPathComponent("Examples/intune/acme-app-protection.json").path)
        let facts = try IntuneDevicesJSON.read(Array(try Data(contentsOf: Self.root.appendingPathComponent("Examples/intune/devices.json"))), file: "devices.json")
        let example = IntuneFleet(policies: export.policies, apps: facts.apps, devices: facts.devices)
        let moved = try CrossVendorDiff.compare(old: .appConnect(acme), new: .intune(example))
        #expect(Set(moved.map(\.group)) == Set(FlowChange.Group.allCases))
        #expect(moved.contains { $0.group == .newlyBlocked && $0.request.channel == .mailCompose && $0.new.sender.rule.rawValue == "intune.mail-compose.blocked" })
        // A document to Dropbox: a dummy file under AppConnect, an encrypted one under Intune.
        #expect(changes.contains { $0.group == .changedForm && $0.old.outcome == .substituteDummyFile && $0.new.outcome == .deliverEncrypted })
        var text = "| " + FlowChange.tableColumns.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: FlowChange.tableColumns.count) + "\n"
        for (index, change) in changes.enumerated() {
            for row in change.tableRows(id: "c\(index)") { text += "| " + row.joined(separator: " | ") + " |\n" }
        }
        let cases = try DecisionTables.parse(text, file: "diff.md")
        #expect(cases.count >= changes.count)
        let failures = cases.map(DecisionTables.run).compactMap(\.failureMessage)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // The same, with AppConnect as the new side.
        let back = try CrossVendorDiff.compare(old: .intune(intune), new: .appConnect(acme))
        #expect(back.count == changes.count)
        var backText = "| " + FlowChange.tableColumns.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: FlowChange.tableColumns.count) + "\n"
        for (index, change) in back.enumerated() {
            for row in change.tableRows(id: "b\(index)") { backText += "| " + row.joined(separator: " | ") + " |\n" }
        }
        let backFailures = try DecisionTables.parse(backText, file: "back.md").map(DecisionTables.run).compactMap(\.failureMessage)
        #expect(backFailures.isEmpty, "\(backFailures.prefix(5))")
        // Intune against itself: nothing changes.
        #expect(try CrossVendorDiff.compare(old: .intune(intune), new: .intune(intune)).isEmpty)
    }

    @Test("end to end under Intune: a managed receiver's Receive data setting decides too")
    func endToEnd() throws {
        var sender = IntunePolicy(displayName: "S")
        sender.send = .managedApps
        sender.apps = [try BundleID("com.corp.a")]
        var receiver = IntunePolicy(displayName: "R")
        receiver.receive = .none
        receiver.apps = [try BundleID("com.corp.b")]
        let fleet = IntuneFleet(policies: [sender, receiver], devices: [try Self.device("d", ["com.corp.a", "com.corp.b", "com.getdropbox.Dropbox"])])
        let toB = try fleet.decide(device: "d", try FleetRequest(from: try BundleID("com.corp.a"), channel: .documentInteraction, target: try BundleID("com.corp.b")))
        #expect(toB.sender.outcome == .allow && toB.receiver?.outcome == .deny && toB.outcome == .deny)
        let toDropbox = try fleet.decide(device: "d", try FleetRequest(from: try BundleID("com.corp.a"), channel: .documentInteraction, target: try BundleID("com.getdropbox.Dropbox")))
        #expect(toDropbox.outcome == .deliverEncrypted && toDropbox.receiver == nil)
        var conflict = fleet
        conflict.policies[1].apps.append(try BundleID("COM.corp.A"))
        #expect(throws: FleetError.self) { try conflict.checkConflicts() }
    }
}

extension IntuneTranslationTests {
    @Test("paths under Intune: readable deliveries only, shortest first; an app open to all apps is a way out")
    func paths() throws {
        var closed = IntunePolicy(displayName: "Closed")
        closed.send = .managedApps
        closed.apps = [try BundleID("com.corp.a")]
        // Left at its default (Any app), the clipboard alone would take content to Dropbox in one hop.
        let leaky = IntuneFleet(policies: [closed], devices: [IntuneDeviceProfile(name: "d", installed: [try BundleID("com.corp.a"), try BundleID("com.getdropbox.Dropbox")])])
        let viaPaste = try leaky.paths(device: "d", from: try BundleID("com.corp.a")).first { $0.to == .app(try BundleID("com.getdropbox.Dropbox")) }
        #expect(viaPaste?.hops.map(\.decision.request.channel) == [.paste])
        closed.clipboard = .managedApps
        var open = IntunePolicy(displayName: "Open")
        open.apps = [try BundleID("com.corp.b")]
        let device = IntuneDeviceProfile(name: "d", installed: [try BundleID("com.corp.a"), try BundleID("com.corp.b"), try BundleID("com.getdropbox.Dropbox")])
        let fleet = IntuneFleet(policies: [closed, open], devices: [device])
        let paths = try fleet.paths(device: "d", from: try BundleID("com.corp.a"))
        let dropbox = try #require(paths.first { $0.to == .app(try BundleID("com.getdropbox.Dropbox")) })
        #expect(dropbox.hops.map(\.to.description) == ["com.corp.b", "com.getdropbox.Dropbox"])
        let b = try BundleID("com.corp.b")
        #expect(fleet.isOutside(dropbox.to, on: device) && !fleet.isOutside(.app(b), on: device))
        let short = try fleet.paths(device: "d", from: try BundleID("com.corp.a"), maxHops: 1)
        #expect(!short.isEmpty && short.allSatisfy { $0.hops.count == 1 && !fleet.isOutside($0.to, on: device) })
    }
}
