import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// Translation both ways keeps who each policy reaches (`Rules/intune/README.md`, "Translating who a policy
/// reaches"), and the cross-vendor diff compares the same people: a fleet and its translation, diffed, name no
/// profile reached by a different set of policies; a changed assignment is named.
@Suite("translate keeps who each policy reaches")
struct TranslationReachTests {
    static let root = IntuneTranslationTests.root

    /// The bundled AppConnect fleets that resolve on every device (lint's mistakes are refused on purpose).
    static func bundledFleets() throws -> [(name: String, fleet: Fleet)] {
        let folder = root.appendingPathComponent("Examples/fleet")
        var fleets: [(String, Fleet)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".json") {
            guard let fleet = try? FleetJSON.read(Array(try Data(contentsOf: folder.appendingPathComponent(file))), file: file),
                  (try? fleet.checkDecidable()) != nil, fleet.devices.allSatisfy({ (try? fleet.device(named: $0.name)) != nil }) else { continue }
            fleets.append((file, fleet))
        }
        return fleets
    }

    /// The translation of `fleet`, as `translate --to intune --devices-out` writes it and the Intune readers read it back.
    static func writtenAndRead(_ fleet: Fleet) throws -> IntuneFleet {
        let (policies, translated, _) = PolicyTranslation.toIntune(fleet)
        let read = try IntuneGraphJSON.read(Array(PolicyTranslation.graphJSON(policies).utf8), file: "intune.json")
        let facts = try IntuneDevicesJSON.read(Array(PolicyTranslation.devicesJSON(translated).utf8), file: "devices.json")
        return IntuneFleet(policies: read, apps: facts.apps, devices: facts.devices)
    }

    @Test("the bundled AppConnect fleets and their Intune translation (in memory and as written): no profile reached by a different set of policies")
    func bundledFleetsKeepWho() throws {
        let fleets = try Self.bundledFleets()
        #expect(fleets.map(\.name).contains("acme.json") && fleets.count >= 4, "\(fleets.map(\.name))")
        var reached = 0
        for (name, fleet) in fleets {
            let (_, translated, _) = PolicyTranslation.toIntune(fleet)
            for intune in [translated, try Self.writtenAndRead(fleet)] {
                let changes = try CrossVendorDiff.reach(old: .appConnect(fleet), new: .intune(intune))
                #expect(changes.isEmpty, "\(name): \(changes)")
                #expect(try CrossVendorDiff.reach(old: .intune(intune), new: .appConnect(fleet)).isEmpty, "\(name)")
                for device in fleet.devices {
                    let apps = DeviceRequests(old: .appConnect(fleet), new: .intune(intune), device: device.name).senders
                    reached += try CrossVendorDiff.reaching(.intune(intune), apps, on: device.name).filter { !$0.isEmpty }.count
                }
            }
        }
        #expect(reached > 8, "the fleets' policies reach too few apps for the comparison to say much")
    }

    @Test("acme: each container policy is assigned to the groups of its labels (IntuneCD's groupName), each profile carries its labels as groups")
    func acmeAssignments() throws {
        let acme = try IntuneTranslationTests.acme()
        let (policies, translated, notes) = PolicyTranslation.toIntune(acme)
        let hr = try #require(policies.first { $0.displayName == "HR" })
        #expect(hr.assignments == [IntuneAssignment(kind: .include, groupName: "Employees")])
        let viewer = try #require(policies.first { $0.displayName == "Viewer" })
        #expect(viewer.assignments == [IntuneAssignment(kind: .include, groupName: "Employees"), IntuneAssignment(kind: .include, groupName: "Contractors")])
        #expect(translated.devices.map(\.groups) == [["Employees", "AppConnect: every device"], ["Contractors", "AppConnect: every device"]])
        // The labels are expressed now: no note says they were not.
        #expect(!notes.contains { $0.setting.hasPrefix("labels:") }, "\(notes.map(\.setting))")
        // acme retires HR on the contractor iPad (no container policy, no global default): a policy that blocks every
        // transfer reaches it there in Intune (not assigned to Employees), reported; on the employee iPhone its own.
        let retired = try #require(policies.first { $0.displayName == "Retired apps (outside Employees)" })
        #expect(retired.apps.map(\.rawValue) == ["com.acme.hr", "com.mobileiron.ios.emailplus"] && retired.send == .none && retired.receive == .none
                    && retired.clipboard == .blocked && retired.printBlocked)
        #expect(retired.assignments == [IntuneAssignment(kind: .include, groupName: "AppConnect: every device"), IntuneAssignment(kind: .exclude, groupName: "Employees")])
        #expect(notes.contains { $0.policy == "the global policy (outside Employees)" && $0.setting.contains("com.acme.hr") && $0.setting.contains("retired") }, "\(notes.map(\.setting))")
        let hrApp = try BundleID("com.acme.hr")
        #expect(try CrossVendorDiff.reaching(.intune(translated), [hrApp], on: "contractor-ipad") == [["Retired apps"]])
        #expect(try CrossVendorDiff.reaching(.appConnect(acme), [hrApp], on: "contractor-ipad") == [["Retired apps"]])
        #expect(try CrossVendorDiff.reaching(.intune(translated), [hrApp], on: "employee-iphone") == [["HR"]])
        // The Graph JSON carries them as IntuneCD writes a target.
        let json = PolicyTranslation.graphJSON(policies)
        #expect(json.contains("""
            "assignments": [
                  {
                    "source": "direct",
                    "target": {
                      "@odata.type": "#microsoft.graph.groupAssignmentTarget",
                      "deviceAndAppManagementAssignmentFilterId": null,
                      "deviceAndAppManagementAssignmentFilterType": "none",
                      "groupName": "Employees",
                      "groupType": "StaticMembership"
                    }
                  }
                ]
            """), "\(json)")
        #expect(PolicyTranslation.devicesJSON(translated).contains("\"groups\": [\n        \"Contractors\",\n        \"AppConnect: every device\"\n      ]"))
    }

    @Test("the global policy: one Intune policy per set of labels, including the group every profile carries and excluding those labels")
    func globalPolicyExcludesTheLabels() throws {
        var acme = try IntuneTranslationTests.acme()
        acme.global.authorizeAppsWithoutContainerPolicy = true
        acme.apps.append(FleetApp(bundleID: try BundleID("com.acme.notes"), appConnect: true))
        acme.devices[1].installed.append(try BundleID("com.acme.notes"))
        let (policies, translated, _) = PolicyTranslation.toIntune(acme)
        let every = "AppConnect: every device"
        let globals = policies.filter { $0.displayName.hasPrefix("Global policy") }
        #expect(globals.map(\.displayName) == ["Global policy (outside Employees)", "Global policy (outside Employees, Contractors)", "Global policy"])
        #expect(globals[0].assignments == [IntuneAssignment(kind: .include, groupName: every), IntuneAssignment(kind: .exclude, groupName: "Employees")])
        #expect(globals[2].apps == [try BundleID("com.acme.notes")] && globals[2].assignments == [IntuneAssignment(kind: .include, groupName: every)])
        #expect(translated.devices.allSatisfy { $0.groups?.last == every })
        // HR on the contractor iPad falls to the global policy on both sides; on the employee iPhone its container policy alone.
        let hr = try BundleID("com.acme.hr")
        #expect(try CrossVendorDiff.reaching(.intune(translated), [hr], on: "contractor-ipad") == [["Global policy"]])
        #expect(try CrossVendorDiff.reaching(.appConnect(acme), [hr], on: "contractor-ipad") == [["Global policy"]])
        #expect(try CrossVendorDiff.reaching(.intune(translated), [hr], on: "employee-iphone") == [["HR"]])
        #expect(try CrossVendorDiff.reach(old: .appConnect(acme), new: .intune(try Self.writtenAndRead(acme))).isEmpty)
        // A label already named like the group: the group takes another name.
        acme.devices[0].labels.append(every)
        #expect(PolicyTranslation.toIntune(acme).fleet.devices[0].groups == ["Employees", every, every + " (openin-check)"])
    }

    @Test("a deliberately changed assignment is reported: the profile, the app, and the policies on each side")
    func changedAssignmentIsReported() throws {
        let acme = try IntuneTranslationTests.acme()
        let (_, translated, _) = PolicyTranslation.toIntune(acme)
        // HR assigned to the contractors as well: the contractor iPad's HR is now reached by HR.
        var widened = translated
        let hr = try #require(widened.policies.firstIndex { $0.displayName == "HR" })
        widened.policies[hr].assignments?.append(IntuneAssignment(kind: .include, groupName: "Contractors"))
        let changes = try CrossVendorDiff.reach(old: .appConnect(acme), new: .intune(widened))
        #expect(changes == [ReachChange(device: "contractor-ipad", app: try BundleID("com.acme.hr"), old: ["Retired apps"], new: ["HR", "Retired apps"])], "\(changes)")
        #expect(changes.first?.description == "contractor-ipad  com.acme.hr  \"Retired apps\" → \"HR\" + \"Retired apps\"")
        // The viewer's employees excluded: the employee iPhone's viewer is reached by nothing now (the retired apps' policy excludes them too).
        var narrowed = translated
        let viewer = try #require(narrowed.policies.firstIndex { $0.displayName == "Viewer" })
        narrowed.policies[viewer].assignments?.append(IntuneAssignment(kind: .exclude, groupName: "Employees"))
        #expect(try CrossVendorDiff.reach(old: .intune(narrowed), new: .appConnect(acme))
                    == [ReachChange(device: "employee-iphone", app: try BundleID("com.acme.viewer"), old: [], new: ["Viewer"])])
        // A profile's groups changed instead: the same difference, from the other side.
        var moved = translated
        moved.devices[1].groups = ["Employees"]
        let movedChanges = try CrossVendorDiff.reach(old: .appConnect(acme), new: .intune(moved), device: "contractor-ipad")
        #expect(movedChanges.map(\.app.rawValue) == ["com.acme.hr"] && movedChanges.first?.old == ["Retired apps"] && movedChanges.first?.new == ["HR"], "\(movedChanges)")
    }

    @Test("random AppConnect fleets and their Intune translation: no profile reached by a different set of policies")
    func randomFleetsKeepWho() throws {
        var random = SplitMix64(seed: 0x7768_6F00)
        var compared = 0, reached = 0
        for round in 0..<Soak.size(60) {
            let fleet: Fleet
            if round % 2 == 0 {
                fleet = try FleetJSON.read(Array(FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random)).utf8), file: "random.json")
            } else {
                fleet = try FleetJSON.read(Array(TranslationOpenedFlowsTests.variedFleet(6 + random.below(10), &random).utf8), file: "varied.json")
            }
            guard (try? fleet.checkDecidable()) != nil, fleet.devices.allSatisfy({ (try? fleet.device(named: $0.name)) != nil }) else { continue }
            let (_, translated, _) = PolicyTranslation.toIntune(fleet)
            for intune in [translated, try Self.writtenAndRead(fleet)] {
                let changes = try CrossVendorDiff.reach(old: .appConnect(fleet), new: .intune(intune))
                #expect(changes.isEmpty, "round \(round): \(changes)\n\(PolicyTranslation.fleetJSON(fleet))")
            }
            compared += 1
            for device in fleet.devices {
                let apps = DeviceRequests(old: .appConnect(fleet), new: .intune(translated), device: device.name).senders
                reached += try CrossVendorDiff.reaching(.intune(translated), apps, on: device.name).filter { !$0.isEmpty }.count
            }
        }
        #expect(compared >= Soak.size(60) / 2 && reached > Soak.least(60), "\(compared) fleets, \(reached) apps reached")
    }

    @Test("Intune → AppConnect: included groups become labels, profiles carry their groups; exclusions, filters and levels are reported")
    func intuneGroupsBecomeLabels() throws {
        let a = try BundleID("com.corp.a"), b = try BundleID("com.corp.b")
        var sales = IntunePolicy(displayName: "Sales")
        sales.apps = [a]
        sales.assignments = [IntuneAssignment(kind: .include, groupName: "Sales"), IntuneAssignment(kind: .include, groupID: "11111111-aaaa")]
        var everyone = IntunePolicy(displayName: "Everyone")
        everyone.apps = [b]
        var first = IntuneDeviceProfile(name: "sales", installed: [a, b])
        first.groups = ["Sales"]
        var second = IntuneDeviceProfile(name: "hr", installed: [a, b])
        second.groups = ["11111111-aaaa"]
        var third = IntuneDeviceProfile(name: "other", installed: [a, b])
        third.groups = ["Other"]
        var intune = IntuneFleet(policies: [sales, everyone], devices: [first, second, third])
        intune.groupNames = [(id: "11111111-aaaa", name: "HR")]
        intune.devices[1].groupAliases = ["HR"]
        let (fleet, notes) = PolicyTranslation.toAppConnect(intune)
        #expect(fleet.containerPolicies.map(\.labels) == [["Sales", "HR"], ["intune"]])
        #expect(fleet.devices.map(\.labels) == [["intune", "Sales"], ["intune", "HR"], ["intune", "Other"]])
        #expect(!notes.contains { $0.setting.contains("group") || $0.setting.contains("filter") }, "\(notes.map(\.setting))")
        // On "other" no policy reaches a: unmanaged under Intune, retired in AppConnect (an AppConnect app on every
        // device, no global default): reported, and the one difference of who.
        #expect(notes.contains { $0.policy == "device \"other\"" && $0.setting == "com.corp.a reached by no policy here (unmanaged: every share allowed)" }, "\(notes.map(\.setting))")
        #expect(try CrossVendorDiff.reach(old: .intune(intune), new: .appConnect(fleet)) == [ReachChange(device: "other", app: a, old: [], new: ["Retired apps"])])
        #expect(try CrossVendorDiff.reaching(.appConnect(fleet), [a, b], on: "sales") == [["Sales"], ["Everyone"]])
        #expect(try CrossVendorDiff.reaching(.appConnect(fleet), [a, b], on: "hr") == [["Sales"], ["Everyone"]])
        // An exclusion, a filter and a management level: each reported, with what was chosen and what changes.
        var narrowed = intune
        narrowed.policies[0].assignments?.append(IntuneAssignment(kind: .exclude, groupName: "Contractors"))
        narrowed.policies[0].assignments?[0].filter = "iPhones"
        narrowed.policies[0].assignments?[0].filterType = .include
        narrowed.policies[0].managementLevels = IntuneManagementLevels(unmanaged: true, mdm: false)
        let reported = PolicyTranslation.toAppConnect(narrowed).notes.filter { $0.policy == "policy \"Sales\"" }.map(\.setting)
        #expect(reported.contains("excluded group \"Contractors\""), "\(reported)")
        #expect(reported.contains("filter \"iPhones\" (include) on the group \"Sales\""), "\(reported)")
        #expect(reported.contains("targetedAppManagementLevels: unmanaged"), "\(reported)")
        // Assigned to no one: a container policy with no labels, reaching no device, as in Intune.
        var unassigned = intune
        unassigned.policies[1].assignments = []
        let translated = PolicyTranslation.toAppConnect(unassigned).fleet
        #expect(translated.containerPolicies.map(\.labels) == [["Sales", "HR"], []])
        #expect(try CrossVendorDiff.reach(old: .intune(unassigned), new: .appConnect(translated)).map { "\($0.device) \($0.app)" }
                    == ["sales com.corp.b", "hr com.corp.b", "other com.corp.a", "other com.corp.b"])
    }

    @Test("Intune → AppConnect: a later policy over an app is kept where no profile gets both, reported and left out where one does")
    func overlappingPoliciesAreReported() throws {
        let a = try BundleID("com.corp.a")
        func policy(_ name: String, _ group: String) -> IntunePolicy {
            var policy = IntunePolicy(displayName: name)
            policy.apps = [a]
            policy.assignments = [IntuneAssignment(kind: .include, groupName: group)]
            return policy
        }
        var one = IntuneDeviceProfile(name: "one", installed: [a]), two = IntuneDeviceProfile(name: "two", installed: [a])
        one.groups = ["G1"]
        two.groups = ["G2"]
        let apart = IntuneFleet(policies: [policy("P1", "G1"), policy("P2", "G2")], devices: [one, two])
        let (fleet, notes) = PolicyTranslation.toAppConnect(apart)
        #expect(fleet.containerPolicies.map(\.name) == ["P1: com.corp.a", "P2: com.corp.a"] && !notes.contains { $0.setting.contains("earlier policy") })
        #expect(try CrossVendorDiff.reach(old: .intune(apart), new: .appConnect(fleet)).isEmpty)
        var together = apart
        together.devices[1].groups = ["G1", "G2"]
        let (kept, reported) = PolicyTranslation.toAppConnect(together)
        #expect(kept.containerPolicies.map(\.name) == ["P1: com.corp.a"])
        #expect(reported.contains { $0.policy == "policy \"P2\"" && $0.setting == "apps: com.corp.a, which an earlier policy also reaches on \"two\"" }, "\(reported.map(\.setting))")
        // The difference is named by the diff, not hidden: profile two gets P1 alone in AppConnect, P1 and P2 merged in Intune.
        #expect(try CrossVendorDiff.reach(old: .intune(together), new: .appConnect(kept)) == [ReachChange(device: "two", app: a, old: ["P1", "P2"], new: ["P1"])])
    }
}
