import Foundation
import Testing
import OpenInPolicy

/// ``FleetLoader``: one loader for a fleet of either vendor, told apart by its bytes, Intune's loaded with its
/// devices file and options, its notes handed over as they arise.
@Suite struct FleetLoaderTests {
    static let root = FleetTests.root
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static let policies = path("Examples/intune/acme-app-protection.json")
    static let devices = path("Examples/intune/devices.json")

    @Test func loadsEitherVendorFromItsBytes() throws {
        let appConnect = try FleetLoader.File.read(Self.path("Examples/fleet/acme.json"))
        #expect(appConnect.vendor == .appConnect && appConnect.isAppConnectFleetFile && !appConnect.holdsIntunePolicies)
        // An AppConnect fleet names its own devices: the Intune devices file is not asked for.
        let fleet = try FleetLoader.load(appConnect, devices: .missing)
        let names = try FleetTests.example().devices.map(\.name)
        #expect(fleet.vendor == .appConnect && fleet.deviceNames == names)
        let intune = try FleetLoader.File.read(Self.policies)
        #expect(intune.vendor == .intune && !intune.isAppConnectFleetFile && intune.holdsIntunePolicies)
        let loaded = try FleetLoader.load(intune, devices: .file(Self.devices))
        #expect(loaded.vendor == .intune && loaded.intune != nil && !loaded.deviceNames.isEmpty)
        // A folder is Intune's (exports), read when loaded.
        let folder = FleetLoader.File(path: Self.path("Examples/intune/backups"), bytes: nil)
        #expect(FleetLoader.File.isFolder(folder.path) && folder.vendor == .intune)
    }

    @Test func intunePoliciesNeedTheirDevicesUnlessToldOtherwise() throws {
        let intune = try FleetLoader.File.read(Self.policies)
        #expect(throws: FleetLoader.Failure.self) { try FleetLoader.load(intune, devices: .missing) }
        do {
            _ = try FleetLoader.load(intune, devices: .missing)
        } catch {
            guard case .needsDevices(let path) = error else { Issue.record("\(error)"); return }
            #expect(path == Self.policies)
        }
        // Translation reads the policies alone; a request about one app, a device that installs it alone.
        let hr = try BundleID("com.acme.hr")
        let policy = "{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"P\", \"apps\": [{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"com.acme.hr\"}}]}"
        let alone = FleetLoader.File(path: "p.json", bytes: Array(policy.utf8))
        #expect(alone.vendor == .intune)
        let policies = try FleetLoader.intune(alone, devices: .none)
        #expect(policies.devices.isEmpty && policies.policies.count == 1)
        let one = try FleetLoader.load(alone, devices: .installing([hr]))
        #expect(one.deviceNames == ["-"] && one.intune?.devices.first?.installed == [hr])
    }

    @Test func optionsAndNotesReachTheLoad() throws {
        let text = try String(contentsOfFile: Self.policies, encoding: .utf8)
        let start = try #require(text.range(of: "\"assignments\": ["))
        let unassigned = FleetLoader.File(path: "p.json", bytes: Array((text[..<start.lowerBound] + "\"assignments\": []\n}\n").utf8))
        var notes: [String] = []
        _ = try FleetLoader.load(unassigned, devices: .file(Self.devices)) { notes.append($0) }
        #expect(notes.count == 1 && notes[0].contains("is not assigned: it protects no app"), "\(notes)")
        notes = []
        let options = try FleetLoader.Options(assumeAssigned: true, conflicts: "least-restrictive")
        let assumed = try FleetLoader.load(unassigned, devices: .file(Self.devices), options: options) { notes.append($0) }
        #expect(notes.count == 1 && notes[0].contains("analysed as if assigned to every profile"), "\(notes)")
        #expect(assumed.intune?.assumeAssigned == true)
        #expect(FleetLoader.Options.conflictModes == ["most-restrictive", "least-restrictive"])
        #expect(throws: FleetError.self) { try FleetLoader.Options(assumeAssigned: false, conflicts: "least-restrictiv") }
    }

    @Test func failuresSayWhichFile() throws {
        let missing = Self.path("Examples/intune/no-such-devices.json")
        let intune = try FleetLoader.File.read(Self.policies)
        do {
            _ = try FleetLoader.load(intune, devices: .file(missing))
            Issue.record("a missing devices file loaded")
        } catch {
            guard case .unreadable(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("Intune devices file") && message.contains("no-such-devices.json"), "\(message)")
        }
        do {
            _ = try FleetLoader.load(FleetLoader.File(path: "bad.json", bytes: Array("{\"global\": 1}".utf8)), devices: .missing)
            Issue.record("a malformed fleet file loaded")
        } catch {
            guard case .file(let format) = error else { Issue.record("\(error)"); return }
            #expect(format.file == "bad.json")
        }
    }

    @Test("eval decides one app's policy alone, Intune's policies as a fleet, and a fleet option finds a fleet or is refused")
    func policyEvaluationFollowsTheInput() throws {
        let app = try FleetLoader.File.read(Self.path("Examples/policies/authorized.json"))
        let intune = try FleetLoader.File.read(Self.policies)
        let folder = FleetLoader.File(path: Self.path("Examples/intune/backups/intunecd"), bytes: nil)
        #expect(try PolicyEvaluation.of(app, fleetOptions: []) == .app)
        #expect(try PolicyEvaluation.of(intune, fleetOptions: []) == .appElseFleet)
        #expect(try PolicyEvaluation.of(intune, fleetOptions: ["--devices"]) == .fleet)
        #expect(try PolicyEvaluation.of(folder, fleetOptions: []) == .fleet)
        // A folder with no iOS app protection policy is no fleet: the policy reader says it is not a policy file.
        #expect(try PolicyEvaluation.of(FleetLoader.File(path: Self.path("Examples/policies"), bytes: nil), fleetOptions: []) == .app)
        do {
            _ = try PolicyEvaluation.of(app, fleetOptions: ["--from", "--devices"])
            Issue.record("a fleet option on one app's policy was accepted")
        } catch {
            #expect(error.description.hasPrefix("'--from' is for an Intune app protection policy") && error.description.contains(app.path))
        }
        #expect(PolicyEvaluation.misplaced(appOption: "--config", file: intune).description.hasPrefix("'--config' is an AppConnect option"))
    }

    @Test("translate takes a file to either vendor, and refuses one that holds the vendor it goes to")
    func translationFollowsTheDirection() throws {
        #expect(PolicyTranslation.Direction.all.map(\.name) == ["intune", "appconnect"])
        #expect(PolicyTranslation.Direction(named: "intune") == .intune && PolicyTranslation.Direction(named: "Intune") == nil)
        let acme = try FleetLoader.File.read(Self.path("Examples/fleet/acme.json"))
        let toIntune = try PolicyTranslation.translate(acme, to: .intune, devices: nil)
        let expected = PolicyTranslation.toIntune(try FleetTests.example())
        #expect(toIntune.text == PolicyTranslation.graphJSON(expected.policies) && toIntune.devices == PolicyTranslation.devicesJSON(expected.fleet))
        #expect(toIntune.notes == expected.notes)
        let intune = try FleetLoader.File.read(Self.policies)
        let toAppConnect = try PolicyTranslation.translate(intune, to: .appConnect, devices: Self.devices)
        let back = PolicyTranslation.toAppConnect(try FleetLoader.intune(intune, devices: .file(Self.devices)))
        #expect(toAppConnect.text == PolicyTranslation.fleetJSON(back.fleet) && toAppConnect.devices == nil && toAppConnect.notes == back.notes)
        for (file, direction, says) in [(intune, PolicyTranslation.Direction.intune, "holds Intune policies already"), (acme, .appConnect, "is an AppConnect fleet file")] {
            do {
                _ = try PolicyTranslation.translate(file, to: direction, devices: nil)
                Issue.record("\(file.path) translated to \(direction.name)")
            } catch {
                guard case .wrongVendor(let message) = error else { Issue.record("\(error)"); continue }
                #expect(message.contains(says), "\(message)")
            }
        }
    }
}
