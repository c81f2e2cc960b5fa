import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

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
                    for (printBlocked, keyboardsBlocked) in [(false, false), (true, false), (false, true), (true, true)] {
                        var policy = IntunePolicy(displayName: "P")
                        policy.thirdPartyKeyboardsBlocked = keyboardsBlocked
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
            // Save As and Open into Org documents have no AppConnect control: under None, Intune blocks both everywhere.
            let saveAs = notes.filter { $0.setting.hasPrefix("saveAsBlocked: true") }
            let ingestion = notes.filter { $0.setting.hasPrefix("blockDataIngestionIntoOrganizationDocuments: true") }
            #expect(saveAs.count == (policy.send == .none ? 1 : 0) && ingestion.count == (policy.receive == .none ? 1 : 0), "\(policy): \(notes)")
            #expect(notes.count == formNotes.count + saveAs.count + ingestion.count, "\(policy): \(notes)")
            #expect(formNotes.isEmpty == (policy.send == .allApps))
            // Block is the key set to false; Allow leaves it out (the app decides, as under Intune).
            let keyboards = fleet.appConfigurations.first { $0.app == (try? BundleID("com.acme.hr")) }?.config[AppConfig.allowCustomKeyboardsKey]
            #expect(keyboards == (policy.thirdPartyKeyboardsBlocked ? "false" : nil))
            let back = PolicyTranslation.toIntune(fleet)
            #expect(!back.notes.contains { $0.setting.contains(AppConfig.allowCustomKeyboardsKey) || $0.setting.contains("keyboards") }, "\(back.notes)")
            let translated = try #require(back.policies.first { $0.targets(try BundleID("com.acme.hr")) })
            #expect(translated.send == policy.send && translated.receive == policy.receive && translated.clipboard == policy.clipboard
                        && translated.printBlocked == policy.printBlocked && translated.dialer == policy.dialer && translated.messaging == policy.messaging
                        && translated.thirdPartyKeyboardsBlocked == policy.thirdPartyKeyboardsBlocked,
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
        for ((openIn, openFrom, pasteboard, print), keyboards) in settings.flatMap({ setting in [nil, "false", "true"].map { (setting, $0) } }) {
            let drag: DragAndDropPolicy = openIn == .status(.authorized) ? .all : openIn == .allAppConnectApps ? .appConnect : .none
            let controls = PolicyControls(openIn: openIn, openFrom: openFrom, pasteboard: pasteboard, print: print, dragAndDrop: drag)
            let hr = try BundleID("com.acme.hr")
            let fleet = Fleet(global: GlobalPolicy(authorizeAppsWithoutContainerPolicy: false, controls: controls),
                              containerPolicies: [ContainerPolicy(name: "HR", app: hr, labels: [], controls: controls)],
                              appConfigurations: keyboards.map { [AppConfiguration(app: hr, labels: [], config: AppConfig([AppConfig.allowCustomKeyboardsKey: $0]))] } ?? [],
                              apps: [FleetApp(bundleID: hr, appConnect: true)],
                              devices: [DeviceProfile(name: "d", labels: [], installed: [hr])])
            let (_, intune, notes) = PolicyTranslation.toIntune(fleet)
            let (back, _) = PolicyTranslation.toAppConnect(intune)
            let translated = try #require(back.containerPolicies.first { $0.app == hr }).controls
            #expect(translated.openIn == controls.openIn && translated.openFrom?.setting == controls.openFrom?.setting
                        && translated.pasteboard == controls.pasteboard && translated.print == controls.print && translated.dragAndDrop == controls.dragAndDrop,
                    "\(controls) → \(translated)")
            // false comes back as false; true and not set come back as not set, which decides alike while the app
            // does not refuse custom keyboards itself (when it does, translate reports it: reportsKeyboards).
            let backKeyboards = back.appConfigurations.first { $0.app == hr }?.config.allowsCustomKeyboards
            #expect(backKeyboards == (keyboards == "false" ? false : nil), "\(keyboards ?? "not set") → \(String(describing: backKeyboards))")
            // The device carries no label, so the AppConnect app is retired there: the Intune policy that reaches it is the
            // global policy's, blocking every transfer (its container policy's has no groups), reported.
            let retired = notes.filter { $0.policy == "the global policy" }
            #expect(retired.contains { $0.setting == "authorizeAppsWithoutContainerPolicy: false (com.acme.hr retired on every device)" }, "\(notes)")
            #expect(try CrossVendorDiff.reaching(.intune(intune), [hr], on: "d") == [["Retired apps"]])
            // Of the container policy's settings, only the change of form between a dummy file and an encrypted one is reported.
            let settingNotes = notes.filter { !$0.setting.hasSuffix(", decided end to end") && !retired.contains($0) }
            #expect(settingNotes.allSatisfy { $0.setting.hasPrefix("openInPolicy") }, "\(settingNotes)")
            #expect(settingNotes.isEmpty == (openIn == .status(.authorized)))
            // The flows are named too: each flow the translation opens is in the report.
            #expect(notes.allSatisfy { settingNotes.contains($0) || retired.contains($0) || $0.changes.hasPrefix("newly readable: ") }, "\(notes)")
        }
    }

    @Test("what Intune cannot express is reported, each with what was chosen and what changes")
    func reportsTheInexpressible() throws {
        let (policies, _, notes) = PolicyTranslation.toIntune(try Self.acme())
        // The container policies, then the global policy's retirement of their apps outside their labels.
        #expect(policies.map(\.displayName) == ["HR", "Viewer", "Email+", "Retired apps (outside Employees)", "Retired apps (outside Employees, Contractors)"])
        let settings = notes.map(\.setting)
        #expect(settings.contains("openInPolicy: whitelist"))
        // The labels are expressed: each policy is assigned to the groups of its labels (TranslationReachTests).
        #expect(!settings.contains { $0.hasPrefix("labels:") })
        #expect(policies[0].assignments == [IntuneAssignment(kind: .include, groupName: "Employees")])
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

    @Test("custom keyboards: what Intune cannot say is reported; one policy over apps that differ blocks them all, reported as newly blocked")
    func reportsKeyboards() throws {
        let hr = try BundleID("com.acme.hr"), viewer = try BundleID("com.acme.viewer"), notes = try BundleID("com.acme.notes")
        let controls = PolicyControls(openIn: .status(.authorized), openFrom: OpenFromPolicy(status: .authorized), pasteboard: .authorized, print: .authorized, dragAndDrop: .all)
        var refusing = AppFacts()
        refusing.allowsCustomKeyboards = false
        func fleet(_ configs: [(BundleID, String)], apps: [FleetApp], containers: [BundleID]) -> Fleet {
            Fleet(global: GlobalPolicy(authorizeAppsWithoutContainerPolicy: true, controls: controls),
                  containerPolicies: containers.map { ContainerPolicy(name: $0.rawValue, app: $0, labels: [], controls: controls) },
                  appConfigurations: configs.map { AppConfiguration(app: $0.0, labels: [], config: AppConfig([AppConfig.allowCustomKeyboardsKey: $0.1])) },
                  apps: apps, devices: [DeviceProfile(name: "d", labels: [], installed: apps.map(\.bundleID))])
        }
        // A value that is neither true nor false: blocked, reported, no decision changes.
        // A container policy with no labels reaches no device: the global policy's Intune policy stands for the app too, alike.
        var (policies, _, found) = PolicyTranslation.toIntune(fleet([(hr, "TRUE")], apps: [FleetApp(bundleID: hr, appConnect: true)], containers: [hr]))
        #expect(policies.map(\.thirdPartyKeyboardsBlocked) == [true, true])
        #expect(found.contains { $0.setting.contains("\"TRUE\"") && $0.changes.hasPrefix("none") })
        // Not set, the app refusing itself: blocked, reported.
        (policies, _, found) = PolicyTranslation.toIntune(fleet([], apps: [FleetApp(bundleID: hr, appConnect: true, app: refusing)], containers: [hr]))
        #expect(policies.map(\.thirdPartyKeyboardsBlocked) == [true, true])
        #expect(found.contains { $0.setting.contains("refuses custom keyboards itself") })
        // true over the app's own refusal: not blocked, reported.
        (policies, _, found) = PolicyTranslation.toIntune(fleet([(hr, "true")], apps: [FleetApp(bundleID: hr, appConnect: true, app: refusing)], containers: [hr]))
        #expect(policies.map(\.thirdPartyKeyboardsBlocked) == [false, false])
        #expect(found.contains { $0.setting.contains("over the app's own refusal") })
        // The global policy's one Intune policy over an app that allows and one that refuses: blocked, newly blocked reported.
        (policies, _, found) = PolicyTranslation.toIntune(fleet([(viewer, "false")], apps: [FleetApp(bundleID: viewer, appConnect: true), FleetApp(bundleID: notes, appConnect: true)], containers: []))
        #expect(policies.map(\.thirdPartyKeyboardsBlocked) == [true])
        #expect(found.contains { $0.chosen.contains("fail closed") && $0.changes.contains("com.acme.notes") && $0.changes.contains("newly blocked") })
        // Plain true and false, and not set with the app allowing: expressed exactly, nothing reported about keyboards.
        for (configs, blocked) in [([(hr, "true")], false), ([(hr, "false")], true), ([], false)] {
            (policies, _, found) = PolicyTranslation.toIntune(fleet(configs, apps: [FleetApp(bundleID: hr, appConnect: true)], containers: [hr]))
            #expect(policies.map(\.thirdPartyKeyboardsBlocked) == [blocked, blocked])
            #expect(!found.contains { $0.setting.contains("KEYBOARDS") || $0.setting.contains("keyboards") })
        }
    }

    @Test("the Graph JSON translate writes reads back as the same policies")
    func graphJSONReadsBack() throws {
        let policies = PolicyTranslation.toIntune(try Self.acme()).policies
        let read = try IntuneGraphJSON.read(Array(PolicyTranslation.graphJSON(policies).utf8), file: "out.json")
        #expect(read.count == policies.count)
        for (a, b) in zip(read, policies) {
            #expect(a.send == b.send && a.receive == b.receive && a.clipboard == b.clipboard && a.apps == b.apps && a.exemptions == b.exemptions
                        && a.thirdPartyKeyboardsBlocked == b.thirdPartyKeyboardsBlocked)
        }
        // thirdPartyKeyboardsBlocked is written, read back, and comes out of the fleet file as the key set to false.
        var blocked = policies
        blocked[0].thirdPartyKeyboardsBlocked = true
        let reread = try IntuneGraphJSON.read(Array(PolicyTranslation.graphJSON(blocked).utf8), file: "out.json")
        #expect(reread.map(\.thirdPartyKeyboardsBlocked) == blocked.map(\.thirdPartyKeyboardsBlocked))
        let keyboardFleet = try FleetJSON.read(Array(PolicyTranslation.fleetJSON(PolicyTranslation.toAppConnect(
            IntuneFleet(policies: reread, devices: [try Self.device("d", ["com.acme.hr"])])).fleet).utf8), file: "fleet.json")
        #expect(keyboardFleet.appConfigurations.map { $0.config[AppConfig.allowCustomKeyboardsKey] } == blocked[0].apps.map { _ in "false" })
        let fleetText = PolicyTranslation.fleetJSON(PolicyTranslation.toAppConnect(IntuneFleet(policies: read, devices: [try Self.device("d", ["com.acme.hr"])])).fleet)
        let fleet = try FleetJSON.read(Array(fleetText.utf8), file: "fleet.json")
        // The three container policies, and the retired apps' policies over the same three apps (no profile carries both).
        #expect(fleet.containerPolicies.count == 6)
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

    @Test("keyboard under Intune: the sender's Third party keyboards alone decides; the matrix's keyboard line; diff across vendors and within Intune")
    func keyboardAcrossFleets() throws {
        var blocked = IntunePolicy(displayName: "K")
        blocked.thirdPartyKeyboardsBlocked = true
        blocked.apps = [try BundleID("com.corp.a")]
        let fleet = IntuneFleet(policies: [blocked], devices: [try Self.device("d", ["com.corp.a", "com.getdropbox.Dropbox"])])
        let a = try BundleID("com.corp.a")
        let third = try fleet.decide(device: "d", try FleetRequest(from: a, channel: .keyboard, target: try BundleID("com.example.swiftkey")))
        #expect(third.outcome == .deny && third.receiver == nil && third.sender.rule.rawValue == "intune.keyboard.third-party-blocked")
        let system = try fleet.decide(device: "d", try FleetRequest(from: a, channel: .keyboard))
        #expect(system.outcome == .allow && system.receiver == nil)
        let matrix = try fleet.matrix(device: "d")
        #expect(matrix.senders == [a] && matrix.keyboard(sender: 0, system: false) == .deny && matrix.keyboard(sender: 0, system: true) == .allow)
        // Translated to AppConnect (the key set to false), nothing about keyboards changes; an Intune policy that allows them is a leak.
        let translated = PolicyTranslation.toAppConnect(fleet).fleet
        #expect(try CrossVendorDiff.compare(old: .intune(fleet), new: .appConnect(translated)).filter { $0.request.channel == .keyboard }.isEmpty)
        var allowing = fleet
        allowing.policies[0].thirdPartyKeyboardsBlocked = false
        for old in [VendorFleet.intune(fleet), .appConnect(translated)] {
            let changes = try CrossVendorDiff.compare(old: old, new: .intune(allowing))
            #expect(changes.map(\.subject) == ["keyboard com.corp.a → third-party keyboard"] && changes.first?.group == .newlyAllowed, "\(old.vendor)")
        }
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
        // A paste: the copying app's clipboard level, then the receiving app's own level on what it lets in.
        var pasteFleet = fleet
        pasteFleet.policies[1].clipboard = .blocked
        let pasteIntoB = try pasteFleet.decide(device: "d", try FleetRequest(from: try BundleID("com.corp.a"), channel: .paste, target: try BundleID("com.corp.b")))
        #expect(pasteIntoB.sender.rule.rawValue == "intune.copy.all-apps" && pasteIntoB.receiver?.rule.rawValue == "intune.paste.blocked" && pasteIntoB.outcome == .deny)
        pasteFleet.policies[1].clipboard = .managedApps
        let managedIntoB = try pasteFleet.decide(device: "d", try FleetRequest(from: try BundleID("com.corp.a"), channel: .paste, target: try BundleID("com.corp.b")))
        #expect(managedIntoB.receiver?.rule.rawValue == "intune.paste.managed-source" && managedIntoB.outcome == .allow)
        let dropboxIntoB = try pasteFleet.decide(device: "d", try FleetRequest(from: try BundleID("com.getdropbox.Dropbox"), channel: .paste, target: try BundleID("com.corp.b")))
        #expect(dropboxIntoB.sender.rule.rawValue == "intune.unmanaged.allow" && dropboxIntoB.receiver?.rule.rawValue == "intune.paste.unmanaged-source" && dropboxIntoB.outcome == .deny)
        let intoDropbox = try pasteFleet.decide(device: "d", try FleetRequest(from: try BundleID("com.corp.b"), channel: .paste, target: try BundleID("com.getdropbox.Dropbox")))
        #expect(intoDropbox.receiver == nil && intoDropbox.outcome == .deny)
        var conflict = fleet
        conflict.policies[1].apps.append(try BundleID("COM.corp.A"))
        // Two policies over one app are not an error: they decide together, and lint names the overlap (Rules/intune/conflicts.md).
        try conflict.checkConflicts()
        #expect(IntuneLint.findings(conflict).contains { $0.code == "IN015" && $0.message.contains("com.corp.a") })
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

/// Every flow a translation opens is in its report: the round trip of issue #32 (secure services
/// unavailable) and random fleets of both vendors, checked with the cross-vendor diff.
@Suite("translate reports every newly readable flow")
struct TranslationOpenedFlowsTests {
    /// Whether a note of `notes` covers `change`: a flow note on its device, of its channel and sender, naming its
    /// receiver (or counting more than it names).
    static func named(_ change: FlowChange, in notes: [TranslationNote]) -> Bool {
        // A URL the sender opened in itself before (refused by its own Open From) and keeps to itself now: nothing leaves it.
        if change.new.receiverApp == nil, change.old.receiverApp == change.request.from { return true }
        let subject = change.subject
        let head = "\(change.request.channel) \(change.request.from)"
        return notes.contains { note in
            guard note.policy == "device \(JSONWriter.quoted(change.device))", note.setting.hasSuffix(", decided end to end") else { return false }
            if note.setting == "\(subject), decided end to end" { return true }
            guard note.setting.hasPrefix(head + " → ") else { return false }
            let to = String(subject.dropFirst(head.count + 3))
            return note.setting.contains(" → \(to)") || note.setting.contains(", \(to)") || note.setting.contains(" more (")
        }
    }

    /// The flows the straightforward per-pair comparison (``CrossVendorDiff/compare(old:new:device:)``) says a
    /// translation opens: readable after, and not readable before or gone to another app; not a URL the sender
    /// kept to itself before and keeps now.
    static func oracle(_ changes: [FlowChange]) -> [FlowChange] {
        func readable(_ outcome: Outcome) -> Bool { outcome == .allow || outcome == .redirect }
        return changes.filter { change in
            guard readable(change.new.outcome) else { return false }
            if change.new.receiverApp == nil, change.old.receiverApp == change.request.from { return false }
            let moved = change.old.receiverApp != nil && change.new.receiverApp != nil && change.old.receiverApp != change.new.receiverApp
            return !readable(change.old.outcome) || moved
        }
    }

    /// Checks the flow walk and its notes against the per-pair comparison, exactly: the same flows in the same order
    /// with the same decisions, each counted in one group of its sender, channel and decisions, every group's note
    /// in `notes`. Returns how many flows opened, or `nil` when a side cannot decide every request (the comparison throws).
    static func check(old: VendorFleet, new: VendorFleet, notes: [TranslationNote]) -> Int? {
        guard let changes = try? CrossVendorDiff.compare(old: old, new: new) else { return nil }
        let expected = oracle(changes)
        var flows: [PolicyTranslation.OpenedFlow] = []
        PolicyTranslation.eachOpenedFlow(from: old, to: new) { flows.append($0) }
        #expect(flows.map { "\($0.device) \(FlowChange(device: $0.device, request: $0.request, old: $0.after, new: $0.after).subject)" }
                    == expected.map { "\($0.device) \($0.subject)" })
        for (flow, change) in zip(flows, expected) {
            let before = try? flow.before.get()
            #expect(before?.outcome == change.old.outcome && before?.rules == change.old.rules && flow.after.outcome == change.new.outcome
                        && flow.after.rules == change.new.rules && flow.after.receiverApp == change.new.receiverApp, "\(change.subject)")
        }
        func key(_ device: String, _ from: BundleID, _ channel: FleetChannel, _ before: FlowDecision, _ after: FlowDecision) -> String {
            [device, from.rawValue, channel.rawValue, before.outcome.rawValue, before.rules, after.outcome.rawValue, after.rules,
             channel == .mailCompose ? "\(before.receiverApp?.rawValue ?? "-") \(after.receiverApp?.rawValue ?? "-")" : ""].joined(separator: "|")
        }
        var expectedCounts: [String: Int] = [:]
        for change in expected { expectedCounts[key(change.device, change.request.from, change.request.channel, change.old, change.new), default: 0] += 1 }
        var groupCounts: [String: Int] = [:]
        var groups: [PolicyTranslation.OpenedFlowGroup] = []
        PolicyTranslation.eachOpenedFlowGroup(from: old, to: new) { groups.append($0) }
        for group in groups {
            guard let before = try? group.first.before.get() else {
                Issue.record("a group whose source could not decide, where the comparison could")
                continue
            }
            let groupKey = key(group.device, group.sender, group.channel, before, group.first.after)
            #expect(groupCounts[groupKey] == nil, "two notes for one sender, channel and change: \(groupKey)")
            groupCounts[groupKey] = group.count
            #expect(group.named.count == min(group.count, PolicyTranslation.namedFlows) || group.channel == .mailCompose)
            #expect(notes.contains(group.note), "\(group.note) is not in the translation's notes")
        }
        #expect(groupCounts == expectedCounts)
        #expect(notes.filter { $0.setting.hasSuffix(", decided end to end") }.count == groups.count)
        return expected.count
    }

    @Test("AppConnect → Intune → AppConnect with secureServicesAvailable false: the pastes between AppConnect apps that become allowed are reported")
    func secureServicesUnavailableRoundTrip() throws {
        let a = try BundleID("com.example.a"), b = try BundleID("com.example.b")
        let controls = PolicyControls(openIn: .allAppConnectApps, openFrom: OpenFromPolicy(.allAppConnectApps), pasteboard: .secureCopy, print: .authorized,
                                      dragAndDrop: .appConnect)
        var facts = DeviceFacts()
        facts.secureServicesAvailable = false
        let fleet = Fleet(global: GlobalPolicy(authorizeAppsWithoutContainerPolicy: true, controls: controls), containerPolicies: [],
                          apps: [FleetApp(bundleID: a, appConnect: true), FleetApp(bundleID: b, appConnect: true)],
                          devices: [DeviceProfile(name: "d", labels: [], installed: [a, b], facts: facts)])
        let paste = try FleetRequest(from: a, channel: .paste, target: b)
        #expect(try fleet.device(named: "d").decide(paste).outcome == .deny)
        let (_, intune, notes) = PolicyTranslation.toIntune(fleet)
        let (back, backNotes) = PolicyTranslation.toAppConnect(intune)
        #expect(try back.device(named: "d").decide(paste).outcome == .allow)
        // Both pastes are named where they open (the first step), with what decided before and after.
        for (from, to) in [(a, b), (b, a)] {
            let note = try #require(notes.first { $0.setting == "paste \(from) → \(to), decided end to end" }, "\(notes)")
            #expect(note.policy == "device \"d\"")
            #expect(note.changes == "newly readable: deny (copy.secure-services-unavailable) becomes allow", "\(note.changes)")
            #expect(note.chosen.hasPrefix("allow (intune."), "\(note.chosen)")
        }
        // Every flow the round trip opens, original against final, is in one of the two reports.
        for change in try CrossVendorDiff.compare(old: .appConnect(fleet), new: .appConnect(back)) where change.group == .newlyAllowed {
            #expect(Self.named(change, in: notes + backNotes), "\(change.subject) is not reported")
        }
        #expect(Self.check(old: .appConnect(fleet), new: .intune(intune), notes: notes) != nil)
    }

    @Test("random AppConnect fleets: the flow walk and its grouped notes agree with the per-pair comparison")
    func randomAppConnectToIntune() throws {
        var random = SplitMix64(seed: 0x7472_616E)
        var opened = 0, checked = 0
        for _ in 0..<120 {
            let fleet = try FleetJSON.read(Array(FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random)).utf8), file: "random.json")
            let (_, intune, notes) = PolicyTranslation.toIntune(fleet)
            guard let count = Self.check(old: .appConnect(fleet), new: .intune(intune), notes: notes) else { continue }
            opened += count
            checked += 1
            #expect(PolicyTranslation.toIntune(fleet).notes == notes, "the report is not deterministic")
        }
        #expect(opened > 100)
        #expect(checked > 60)
    }

    @Test("random Intune fleets: the flow walk and its grouped notes agree with the per-pair comparison")
    func randomIntuneToAppConnect() throws {
        var random = SplitMix64(seed: 0x7472_616F)
        var opened = 0, checked = 0
        for _ in 0..<120 {
            let (policies, devices) = FleetSettingsTests.randomIntune(&random)
            let intune = try #require(try FleetSettingsTests.analysis(intune: policies, devices: devices).intune)
            let (fleet, notes) = PolicyTranslation.toAppConnect(intune)
            guard let count = Self.check(old: .intune(intune), new: .appConnect(fleet), notes: notes) else { continue }
            opened += count
            checked += 1
            #expect(PolicyTranslation.toAppConnect(intune).notes == notes, "the report is not deterministic")
        }
        #expect(opened > 50)
        #expect(checked > 60)
    }

    /// The groups of both walks, as notes with their counts.
    static func keyedAndEveryRequest(old: VendorFleet, new: VendorFleet) -> (keyed: [String], every: [String], counted: Int) {
        var keyed: [String] = [], every: [String] = []
        var counted = 0
        PolicyTranslation.eachOpenedFlowGroup(from: old, to: new) { group in
            keyed.append("\(group.note) [\(group.count)] first: \(group.first.request.target?.rawValue ?? group.first.request.url?.rawValue ?? "-")")
            counted += group.count
        }
        PolicyTranslation.eachOpenedFlowGroupByRequest(from: old, to: new) { group in
            every.append("\(group.note) [\(group.count)] first: \(group.first.request.target?.rawValue ?? group.first.request.url?.rawValue ?? "-")")
        }
        return (keyed, every, counted)
    }

    /// An AppConnect fleet of `count` apps (most AppConnect apps, each with its own container policy and random
    /// whitelists drawn from the others), some controls left unset, on two devices.
    static func variedFleet(_ count: Int, _ random: inout SplitMix64) -> String {
        let ids = (0..<count).map { "com.example.app\($0)" }
        func some(_ upTo: Int) -> String { (0..<random.below(upTo + 1)).map { _ in "\"\(random.pick(ids))\"" }.joined(separator: ", ") }
        var containers: [String] = []
        for (index, id) in ids.enumerated() where index % 5 != 4 {
            var members = ["\"name\": \"P\(index)\"", "\"app\": \"\(id)\"", "\"labels\": [\"L\"]"]
            let openIn = random.pick(["whitelist", "whitelist", "appconnect", "authorized", "unauthorized", "-"])
            if openIn != "-" { members.append("\"openInPolicy\": \"\(openIn)\"") }
            if openIn == "whitelist" { members.append("\"openInWhitelist\": [\(some(6))]") }
            let openFrom = random.pick(["whitelist", "whitelist", "appconnect", "authorized", "unauthorized", "-"])
            if openFrom != "-" { members.append("\"openFromPolicy\": \"\(openFrom)\"") }
            if openFrom == "whitelist" { members.append("\"openFromWhitelist\": [\(some(6))]") }
            if random.percent(70) { members.append("\"pasteboardPolicy\": \"\(random.pick(["securecopy", "authorized", "unauthorized"]))\"") }
            if random.percent(70) { members.append("\"dragAndDropPolicy\": \"\(random.pick(["all", "appconnect", "none"]))\"") }
            containers.append("{" + members.joined(separator: ", ") + "}")
        }
        let global = random.percent(50)
            ? "\"openInPolicy\": \"appconnect\", \"openFromPolicy\": \"appconnect\", \"pasteboardPolicy\": \"securecopy\", \"printPolicy\": \"authorized\", \"dragAndDropPolicy\": \"appconnect\""
            : "\"openInPolicy\": \"whitelist\", \"openInWhitelist\": [\(some(4))], \"printPolicy\": \"authorized\""
        // Many apps declare a URL scheme of their own (some two), so a sender has many URLs to open.
        var apps: [String] = []
        for (index, id) in ids.enumerated() {
            let schemes = random.percent(60) ? ", \"urlSchemes\": [\"s\(index)\"\(random.percent(30) ? ", \"t\(index)\"" : "")]" : ""
            apps.append("{\"bundleID\": \"\(id)\", \"appconnect\": \(index % 7 != 6)\(schemes)}")
        }
        let kept = ids.filter { _ in random.percent(85) }
        let installed = kept.map { "\"\($0)\"" }.joined(separator: ", ")
        let secure = random.percent(50) ? ", \"secureServicesAvailable\": \(random.percent(50))" : ""
        // On "d", a few schemes are routed by the profile: some an app's own scheme to another app, some no app declares.
        var handlers: [String] = []
        if !kept.isEmpty {
            for scheme in ["s1", "s2", "t3", "x\(random.below(3))"] where random.percent(60) { handlers.append("\"\(scheme)\": \"\(random.pick(kept))\"") }
        }
        return """
            {"global": {"authorizeAppsWithoutContainerPolicy": \(random.percent(50)), \(global)},
             "containerPolicies": [\(containers.joined(separator: ",\n"))],
             "apps": [\(apps.joined(separator: ", "))],
             "devices": {"d": {"labels": ["L"], "installed": [\(installed)], "schemeHandlers": {\(handlers.joined(separator: ", "))}\(secure)},
                         "e": {"labels": [], "installed": [\(installed)], "secureServicesAvailable": true}}}
            """
    }

    @Test("a whitelist that leaves out many managed apps: its note names five and counts the rest (a report linear in the apps)")
    func leftOutAppsNamedFiveAndCounted() throws {
        func fleet(_ count: Int) throws -> Fleet {
            let ids = (0..<count).map { "\"com.example.app\($0)\"" }.joined(separator: ", ")
            let apps = (0..<count).map { "{\"bundleID\": \"com.example.app\($0)\", \"appconnect\": true}" }.joined(separator: ", ")
            let text = """
                {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "whitelist", "openInWhitelist": ["com.example.app0"], "openFromPolicy": "authorized", "pasteboardPolicy": "securecopy", "printPolicy": "authorized", "dragAndDropPolicy": "appconnect"},
                 "containerPolicies": [], "apps": [\(apps)],
                 "devices": {"d": {"labels": [], "installed": [\(ids)], "secureServicesAvailable": true}}}
                """
            return try FleetJSON.read(Array(text.utf8), file: "x.json")
        }
        func leftOut(_ fleet: Fleet) throws -> String {
            try #require(PolicyTranslation.toIntune(fleet).notes.first { $0.setting.hasPrefix("openInWhitelist leaves out") }).setting
        }
        #expect(try leftOut(try fleet(9)) == "openInWhitelist leaves out com.example.app1, com.example.app2, com.example.app3, com.example.app4, com.example.app5 and 3 more (8 apps)")
        #expect(try leftOut(try fleet(6)) == "openInWhitelist leaves out com.example.app1, com.example.app2, com.example.app3, com.example.app4, com.example.app5")
        #expect(try leftOut(try fleet(300)) == "openInWhitelist leaves out com.example.app1, com.example.app2, com.example.app3, com.example.app4, com.example.app5 and 294 more (299 apps)")
    }

    @Test("a listed and an unlisted receiver of one sender are told apart by the walk by kinds")
    func listedAndUnlistedApart() throws {
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "whitelist", "openInWhitelist": ["com.example.app2"], "openFromPolicy": "authorized", "pasteboardPolicy": "securecopy", "printPolicy": "authorized", "dragAndDropPolicy": "appconnect"},
             "containerPolicies": [],
             "apps": [{"bundleID": "com.example.app1", "appconnect": true}, {"bundleID": "com.example.app2", "appconnect": true}, {"bundleID": "com.example.app3", "appconnect": true}],
             "devices": {"d": {"labels": [], "installed": ["com.example.app1", "com.example.app2", "com.example.app3"], "secureServicesAvailable": true}}}
            """
        let fleet = try FleetJSON.read(Array(text.utf8), file: "x.json")
        let (_, intune, _) = PolicyTranslation.toIntune(fleet)
        let (keyed, every, _) = Self.keyedAndEveryRequest(old: .appConnect(fleet), new: .intune(intune))
        #expect(keyed == every)
        // app1 lists app2 alone: its document to app3 opens, to app2 it was readable already.
        #expect(keyed.contains { $0.hasPrefix("device \"d\": document-interaction com.example.app1 → com.example.app3, decided end to end") })
    }

    @Test("the walk by kinds of receiver gives the groups of the walk of every request, both ways, where a side cannot decide too")
    func keyedWalkAgreesWithEveryRequest() throws {
        var random = SplitMix64(seed: 0x6B65_7973)
        var groups = 0, counted = 0, many = 0, urlGroups = 0, manyURLs = 0
        func compare(_ old: VendorFleet, _ new: VendorFleet, _ what: String) {
            let (keyed, every, count) = Self.keyedAndEveryRequest(old: old, new: new)
            #expect(keyed == every, "\(what)")
            groups += keyed.count
            counted += count
            many += keyed.filter { !$0.contains("[1] first") }.count
            let urls = keyed.filter { $0.contains(": open-url ") }
            urlGroups += urls.count
            manyURLs += urls.filter { !$0.contains("[1] first") }.count
        }
        for round in 0..<Soak.size(12) {
            let fleet: Fleet
            if round % 2 == 0 {
                fleet = try FleetJSON.read(Array(FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random)).utf8), file: "random.json")
            } else {
                fleet = try FleetJSON.read(Array(Self.variedFleet(10 + random.below(14), &random).utf8), file: "varied.json")
            }
            let (_, intune, _) = PolicyTranslation.toIntune(fleet)
            compare(.appConnect(fleet), .intune(intune), "AppConnect → Intune, round \(round)")
            let (back, _) = PolicyTranslation.toAppConnect(intune)
            compare(.intune(intune), .appConnect(back), "Intune → AppConnect, round \(round)")
            // Two unrelated fleets of one vendor: every kind of failure on either side.
            let other = try FleetJSON.read(Array(Self.variedFleet(8, &random).utf8), file: "other.json")
            compare(.appConnect(other), .appConnect(fleet), "AppConnect → AppConnect, round \(round)")
        }
        for _ in 0..<Soak.size(40) {
            let (policies, devices) = FleetSettingsTests.randomIntune(&random)
            let intune = try #require(try FleetSettingsTests.analysis(intune: policies, devices: devices).intune)
            let (fleet, _) = PolicyTranslation.toAppConnect(intune)
            compare(.intune(intune), .appConnect(fleet), "random Intune → AppConnect")
            compare(.appConnect(fleet), .intune(intune), "and back")
        }
        // Many custom schemes: exempted by some policies, handed to an app itself (its own), to an app spelled
        // with capitals, to an app no policy targets.
        for round in 0..<Soak.size(30) {
            let (policies, devices) = Self.randomIntuneWithSchemes(&random)
            let intune = try #require(try FleetSettingsTests.analysis(intune: policies, devices: devices).intune, "\(policies)\n\(devices)")
            let (fleet, _) = PolicyTranslation.toAppConnect(intune)
            compare(.intune(intune), .appConnect(fleet), "Intune with schemes → AppConnect, round \(round)")
            compare(.appConnect(fleet), .intune(intune), "and back, round \(round)")
            let (_, again, _) = PolicyTranslation.toIntune(fleet)
            compare(.intune(intune), .intune(again), "Intune → Intune, round \(round)")
            // Fewer apps targeted after: senders alike on one side, managed or not on the other.
            var fewer = intune
            for index in fewer.policies.indices where !fewer.policies[index].apps.isEmpty && random.percent(70) {
                fewer.policies[index].apps.removeLast(1 + random.below(fewer.policies[index].apps.count))
            }
            compare(.intune(intune), .intune(fewer), "Intune → fewer apps targeted, round \(round)")
            compare(.intune(fewer), .intune(intune), "and more, round \(round)")
        }
        // Fleets whose policies exclude share-sheet activities (a fact of the receiver the keys read besides the
        // listing), from a stream of their own so the rounds above stay as they were.
        var excluding = SplitMix64(seed: 0x6578_636C)
        for round in 0..<Soak.size(16) {
            let fleet = try FleetJSON.read(Array(FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&excluding, excluding: true)).utf8), file: "random.json")
            let (_, intune, _) = PolicyTranslation.toIntune(fleet)
            compare(.appConnect(fleet), .intune(intune), "AppConnect excluding activities → Intune, round \(round)")
            compare(.intune(intune), .appConnect(fleet), "and back, round \(round)")
            let other = try FleetJSON.read(Array(FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&excluding, excluding: true)).utf8), file: "other.json")
            compare(.appConnect(other), .appConnect(fleet), "AppConnect excluding activities → AppConnect, round \(round)")
        }
        #expect(groups > Soak.least(1_500))
        #expect(many > Soak.least(1_000), "too few groups of more than one flow: the keys would be tested little")
        #expect(counted > Soak.least(8_000))
        #expect(urlGroups > Soak.least(200) && manyURLs > Soak.least(50), "too few open-url groups (\(urlGroups), \(manyURLs) of more than one URL): the URL keys would be tested little")
    }

    /// Intune policies and a devices file with many custom URL schemes: some exempted (several to an
    /// exemption, in any case), some an app's own, some handled by an app written with capitals or that no policy targets.
    static func randomIntuneWithSchemes(_ random: inout SplitMix64) -> (policies: String, devices: String) {
        let count = 6 + random.below(8)
        let ids = (0..<count).map { "com.example.app\($0)" }
        let schemes = (0..<(4 + random.below(10))).map { "sc\($0)" }
        var policies: [String] = []
        var targeted: Set<String> = []
        for index in 0..<(1 + random.below(3)) {
            let apps = ids.filter { !targeted.contains($0) && random.percent(45) }
            targeted.formUnion(apps)
            var members = ["\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\"", "\"displayName\": \"P\(index)\""]
            members.append("\"allowedOutboundDataTransferDestinations\": \"\(random.pick(["allApps", "managedApps", "managedApps", "none"]))\"")
            members.append("\"allowedInboundDataTransferSources\": \"\(random.pick(["allApps", "managedApps", "none"]))\"")
            members.append("\"allowedOutboundClipboardSharingLevel\": \"\(random.pick(["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"]))\"")
            if random.percent(60) {
                let exempted = schemes.filter { _ in random.percent(30) }.map { random.percent(20) ? $0.uppercased() : $0 }
                members.append("\"exemptedAppProtocols\": [{\"name\": \"x\", \"value\": \"\(exempted.joined(separator: ";"))\"}, {\"name\": \"y\", \"value\": \"\(random.pick(schemes))\"}]")
            }
            // Targets spelled with capitals now and then: Intune compares bundle IDs ignoring ASCII case.
            let targets = apps.map { app in
                "{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"\(random.percent(20) ? app.uppercased() : app)\"}}"
            }
            members.append("\"apps\": [\(targets.joined(separator: ", "))]")
            policies.append("{" + members.joined(separator: ", ") + "}")
        }
        // An app no policy targets is installed too, and handles some schemes.
        let installed = ids.filter { _ in random.percent(85) } + ["com.other.viewer"]
        let handlers = schemes.filter { _ in random.percent(85) }.map { scheme -> String in
            let app = random.pick(installed)
            return "\"\(scheme)\": \"\(random.percent(15) ? app.uppercased() : app)\""
        }
        let devices = """
            {"apps": [], "devices": {"d": {"installed": [\(installed.map { "\"\($0)\"" }.joined(separator: ", "))], "mdmEnrolled": \(random.percent(50)),
             "intuneMAMUPN": \(random.percent(50)), "mdmManagedApps": [\(ids.filter { _ in random.percent(50) }.map { "\"\($0)\"" }.joined(separator: ", "))],
             "schemeHandlers": {\(handlers.joined(separator: ", "))}}}}
            """
        return ("[" + policies.joined(separator: ",\n") + "]", devices)
    }

    @Test("many alike apps: one note per sender, channel and change, naming five receivers and how many more")
    func manyAlikeAppsGiveABoundedReport() throws {
        let count = 40
        let ids = try (0..<count).map { try BundleID("com.example.app\($0)") }
        let controls = PolicyControls(openIn: .allAppConnectApps, openFrom: OpenFromPolicy(.allAppConnectApps), pasteboard: .secureCopy, print: .authorized,
                                      dragAndDrop: .appConnect)
        var facts = DeviceFacts()
        facts.secureServicesAvailable = false
        let fleet = Fleet(global: GlobalPolicy(authorizeAppsWithoutContainerPolicy: true, controls: controls), containerPolicies: [],
                          apps: ids.map { FleetApp(bundleID: $0, appConnect: true) }, devices: [DeviceProfile(name: "d", labels: [], installed: ids, facts: facts)])
        let (_, intune, notes) = PolicyTranslation.toIntune(fleet)
        let flows = notes.filter { $0.setting.hasSuffix(", decided end to end") }
        // Every paste between two of the apps opens (count × (count − 1) flows), in one note per sender.
        let pastes = flows.filter { $0.setting.hasPrefix("paste ") }
        #expect(pastes.count == count)
        let first = try #require(pastes.first)
        #expect(first.setting == "paste com.example.app0 → com.example.app1, com.example.app2, com.example.app3, com.example.app4, com.example.app5 and \(count - 6) more (\(count - 1) flows), decided end to end")
        #expect(first.changes == "newly readable: deny (copy.secure-services-unavailable) becomes allow")
        #expect(flows.count <= count * 16, "\(flows.count) flow notes for \(count) senders")
        let opened = try #require(Self.check(old: .appConnect(fleet), new: .intune(intune), notes: notes))
        #expect(opened >= count * (count - 1))
    }
}

@Suite("Intune scheme lookups")
struct IntuneSchemeLookupTests {
    @Test("an app's own schemes: added once, ignoring ASCII case, asked by table")
    func ownSchemes() throws {
        var context = IntuneContext(policy: nil)
        try context.addOwnScheme("Boxfile")
        try context.addOwnScheme("boxfile:")
        try context.addOwnScheme("other")
        #expect(context.ownSchemes == ["boxfile", "other"])
        #expect(context.isOwn("boxfile") && context.isOwn("other"))
        #expect(!context.isOwn("box") && !context.isOwn("boxfilex"))
        // Byte-exact on what is not ASCII: a look-alike is another scheme (normalize refuses it as a scheme).
        #expect(throws: InputError.self) { try context.addOwnScheme("b\u{43E}xfile") }
    }

    @Test("exempted schemes: a lookup that follows every change of the exemptions")
    func exemptions() throws {
        var policy = IntunePolicy(displayName: "P")
        #expect(!policy.exempts(scheme: "custom"))
        policy.exemptions = [IntuneExemption(name: "x", schemes: ["custom", "other"])]
        #expect(policy.exempts(scheme: "custom") && policy.exempts(scheme: "other") && !policy.exempts(scheme: "cust"))
        policy.exemptions[0].schemes.append("third")
        #expect(policy.exempts(scheme: "third"))
        policy.exemptions.append(IntuneExemption(name: "y", schemes: ["fourth"]))
        #expect(policy.exempts(scheme: "fourth"))
        policy.exemptions.removeAll()
        #expect(!policy.exempts(scheme: "custom"))
        var same = IntunePolicy(displayName: "P")
        same.exemptions = []
        #expect(same == policy)
    }
}
