import Foundation
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
import OpenInPolicy
import Testing

/// Why a policy reaches an app on a profile or not (`Rules/intune/README.md`, "Explaining who a policy
/// reaches"): the reason comes from the resolver that decides, so it never disagrees with the decision.
@Suite struct IntuneReachTests {
    static let word = try! BundleID("com.microsoft.Office.Word")
    static let root = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent().path

    /// The example of two policies by management level, an exclusion and a filter.
    static func byLevel(conflicts: ConflictMode = .mostRestrictive) throws -> IntuneFleet {
        try load("Examples/intune/by-level/app-protection.json", devices: "Examples/intune/by-level/devices.json", conflicts: conflicts)
    }

    /// An example export with its devices file, loaded as the verbs load it (groups, filters, `--conflicts`).
    static func load(_ policies: String, devices: String, conflicts: ConflictMode = .mostRestrictive, root: String = root + "/") throws -> IntuneFleet {
        let export = try IntuneGraphJSON.read(path: root + policies)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + devices)))
        do throws(IntuneFleet.LoadError) {
            return try IntuneFleet.load(policies: export.policies, file: root + policies, devices: (bytes, devices), conflicts: conflicts)
        } catch {
            throw FleetError(error.message)
        }
    }

    @Test("on every profile, every app and every policy that targets it, the reason's verdict is the resolver's")
    func reasonsAgreeWithReaching() throws {
        for fleet in [try Self.byLevel(), try IntuneAssignmentsTests.load([
            IntuneAssignmentsTests.policy("Printing Disabled", ##""assignments": [\##(IntuneAssignmentsTests.assigned(IntuneAssignmentsTests.staff)), \##(IntuneAssignmentsTests.assigned("Contractors", kind: "exclusionGroupAssignmentTarget", key: "groupName"))]"##),
            IntuneAssignmentsTests.policy("P2", ##""targetedAppManagementLevels": "mdm", "assignments": [\##(IntuneAssignmentsTests.assigned(IntuneAssignmentsTests.contractors))]"##),
        ], devices: IntuneAssignmentsTests.devices)] {
            var checked = 0
            for device in fleet.devices {
                for app in device.installed {
                    let reaching = try fleet.reaching(app, on: device, membership: fleet.membership(of: device))
                    let reasons = try fleet.reachReasons(app, on: device)
                    #expect(reasons.filter(\.reach.reaches).map(\.index) == reaching, "\(device.name) \(app)")
                    #expect(reasons.map(\.index) == fleet.policies.indices.filter { fleet.policies[$0].targets(app) })
                    checked += reasons.count
                }
            }
            #expect(checked > 0)
        }
    }

    @Test("each step that decides is the reason: the level first, an excluded group (exclusion wins), an included group with its filter and the values it read")
    func eachStep() throws {
        let fleet = try Self.byLevel()
        func reasons(_ device: String) throws -> [IntuneReach] { try fleet.reachReasons(Self.word, on: try fleet.device(named: device)).map(\.reach) }
        // Enrolled, with IntuneMAMUPN: Managed; the unmanaged policy's level leaves it out before its groups are read.
        let enrolled = try reasons("enrolled-iphone")
        #expect(enrolled.map(\.reaches) == [false, true, false])
        #expect(enrolled[0].managementType == "Managed" && !enrolled[0].levelMatches && enrolled[0].scope == nil)
        guard case .included(let by, let filter?)? = enrolled[1].scope else { Issue.record("\(String(describing: enrolled[1].scope))"); return }
        #expect(fleet.group(of: by) == IntuneReach.Group(name: "Acme staff", id: "9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12"))
        #expect(filter.name == "iOS 17 and later" && filter.type == .include && filter.holds && filter.admits)
        #expect(filter.read.map(\.property) == ["app.operatingSystemVersion"] && filter.read.map(\.value) == ["17.5"])
        // The administrator's group is excluded from the unmanaged policy: exclusion wins, and no policy reaches Word.
        let admin = try reasons("admin-iphone")
        #expect(admin.map(\.reaches) == [false, false, false])
        guard case .excluded(let excluded)? = admin[0].scope else { Issue.record("\(String(describing: admin[0].scope))"); return }
        #expect(fleet.group(of: excluded).name == "Break glass admins")
        guard case .notIncluded(let filtered)? = admin[2].scope else { Issue.record("\(String(describing: admin[2].scope))"); return }
        #expect(filtered.isEmpty)
        // The filter that does not hold leaves the included group out, with the value it read.
        var old = try fleet.device(named: "enrolled-iphone")
        old.osVersion = "16.4"
        let filteredOut = try fleet.reach(fleet.policies[1], Self.word, on: old, membership: fleet.membership(of: old))
        guard case .notIncluded(let tried)? = filteredOut.scope, let check = tried.first?.filter else { Issue.record("\(String(describing: filteredOut.scope))"); return }
        #expect(!filteredOut.reaches && !check.holds && !check.admits && check.read.map(\.value) == ["16.4"])
    }

    @Test("several policies reach: the explanation names the mode and the policy whose value decided each setting the rule reads")
    func decidedBy() throws {
        let rule = IntuneShareRule.allApps.id
        let device = try Self.byLevel().device(named: "contractor-ipad")
        let strict = try Self.byLevel().explainReach(Self.word, on: device, rule: rule, fallback: "allowedOutboundDataTransferDestinations")
        #expect(strict.reaching == ["Acme - iOS - Unmanaged devices - Printing disabled", "Acme - iOS - Contractors - All apps"])
        #expect(strict.mode == .mostRestrictive)
        #expect(strict.decidedBy.map(\.setting) == ["allowedOutboundDataTransferDestinations"])
        #expect(strict.decidedBy.map(\.policy) == ["Acme - iOS - Unmanaged devices - Printing disabled"])
        let lenient = try Self.byLevel(conflicts: .leastRestrictive).explainReach(Self.word, on: device, rule: rule, fallback: "allowedOutboundDataTransferDestinations")
        #expect(lenient.mode == .leastRestrictive && lenient.decidedBy.map(\.policy) == ["Acme - iOS - Contractors - All apps"])
        // One policy reaches: nothing merged, nothing to decide between.
        let one = try Self.byLevel().explainReach(Self.word, on: try Self.byLevel().device(named: "personal-iphone"), rule: rule, fallback: "x")
        #expect(one.reaching.count == 1 && one.mode == nil && one.decidedBy.isEmpty)
    }
}
