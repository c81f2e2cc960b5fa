import Foundation
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit
import Testing
import OpenInTestSupport

/// `IntuneReachIndex` visits only the policies that target an app and name one of a profile's groups: on
/// random tenants (groups by id and by name, exclusions, filters, undefined filters, facts a filter lacks,
/// management levels, unexported and unassigned policies, `--assume-assigned`) every answer is the one of
/// the walk of every policy (`IntuneFleet.reaching(_:on:membership:)`), errors included.
@Suite struct IntuneReachIndexTests {
    static let groups = (0..<6).map { (id: "00000000-0000-4000-8000-00000000000\($0)", name: "Group \($0)") }
    static let apps = (0..<6).map { try! BundleID("com.tenant.app\($0)") }
    /// An app as another policy or profile may spell it (Intune compares bundle IDs ignoring ASCII case).
    static func spelled(_ app: BundleID, _ random: inout SplitMix64) -> BundleID {
        random.percent(20) ? try! BundleID(app.rawValue.uppercased()) : app
    }

    static func tenant(_ random: inout SplitMix64) throws -> IntuneFleet {
        var policies: [IntunePolicy] = []
        for index in 0..<(1 + random.below(6)) {
            var policy = IntunePolicy(displayName: "P\(index)")
            policy.apps = (0..<(1 + random.below(3))).map { _ in spelled(random.pick(apps), &random) }
            switch random.below(100) {
            case ..<20: policy.assignments = nil
            case ..<32: policy.assignments = []
            default:
                policy.assignments = (0..<(1 + random.below(4))).map { _ in
                    let group = random.pick(groups)
                    var assignment = IntuneAssignment(kind: random.percent(75) ? .include : .exclude,
                                                      groupID: random.percent(50) ? group.id : nil, groupName: nil)
                    if assignment.groupID == nil { assignment.groupName = group.name }
                    if assignment.kind == .include, random.percent(40) {
                        assignment.filter = random.pick(["Managed only", "iOS 17", "iOS 17", "Managed only", "Undefined"])
                        assignment.filterType = random.percent(50) ? .include : .exclude
                    }
                    return assignment
                }
            }
            policy.managementLevels = random.pick([.all, IntuneManagementLevels(unmanaged: true, mdm: false), IntuneManagementLevels(unmanaged: false, mdm: true)])
            policies.append(policy)
        }
        var devices: [IntuneDeviceProfile] = []
        for index in 0..<(1 + random.below(5)) {
            var device = IntuneDeviceProfile(name: "d\(index)", installed: Array(Set(apps.filter { _ in random.percent(50) })).sorted { $0.rawValue < $1.rawValue },
                                             mdmEnrolled: random.percent(50), intuneMAMUPN: random.percent(60))
            if random.percent(92) {
                device.groups = (0..<random.below(4)).map { _ in
                    let group = random.pick(groups)
                    return random.percent(50) ? group.id : group.name
                }.reduce(into: []) { list, group in if !list.contains(group) { list.append(group) } }
            }
            if random.percent(80) { device.osVersion = random.pick(["16.7", "17.2", "17.5.1", "18.0"]) }
            devices.append(device)
        }
        var fleet = IntuneFleet(policies: policies, devices: devices)
        // Some groups only by id in the map, so that a profile naming one spelling carries the other.
        fleet.groupNames = groups.filter { _ in random.percent(70) }.map { ($0.id, $0.name) }
        fleet.assumeAssigned = random.percent(30)
        fleet.filters = try AssignmentFilters([
            try AssignmentFilter(id: "f1", displayName: "Managed only", rule: #"app.deviceManagementType -eq "Managed""#, file: nil, line: nil),
            try AssignmentFilter(id: "f2", displayName: "iOS 17", rule: #"app.osVersion -startsWith "17""#, file: nil, line: nil),
        ])
        return fleet
    }

    /// An outcome to compare: the positions, or the error's text.
    static func outcome(_ body: () throws(FleetError) -> [Int]) -> String {
        do throws(FleetError) { return "\(try body())" } catch { return "error: \(error)" }
    }

    @Test func indexedReachIsTheWalkOfEveryPolicy() throws {
        var random = SplitMix64(seed: 4043)
        var errors = 0, reached = 0, skipped = 0
        for _ in 0..<Soak.size(1_500) {
            let fleet = try Self.tenant(&random)
            let index = IntuneReachIndex(fleet)
            for device in fleet.devices {
                let walked = fleet.membership(of: device), indexed = index.membership(of: device)
                // The same groups hold the profile, spelled by id or by name, as the walk of the groups map says.
                #expect(walked == nil ? indexed.groups == nil : indexed.groups != nil, "membership of \(device.name)")
                for assignment in fleet.policies.flatMap({ $0.assignments ?? [] }) {
                    let groups = [assignment.groupID, assignment.groupName].compactMap { $0 }.compactMap(index.group)
                    #expect((walked?.holds(assignment) ?? false) == indexed.holdsAny(groups), "\(assignment.groupDescription) on \(device.name)")
                }
                let candidates = index.candidates(in: fleet, membership: indexed)
                for app in Self.apps + Self.apps.map({ try! BundleID($0.rawValue.uppercased()) }) {
                    let expected = Self.outcome { () throws(FleetError) in try fleet.reaching(app, on: device, membership: walked) }
                    let actual = Self.outcome { () throws(FleetError) in
                        try fleet.reaching(app, on: device, membership: indexed, index: index, candidates: candidates)
                    }
                    #expect(actual == expected, "\(app) on \(device.name)")
                    if expected.hasPrefix("error") { errors += 1 } else if expected != "[]" { reached += 1 }
                    skipped += fleet.policies.indices.filter { fleet.policies[$0].targets(app) && !candidates.contains($0) }.count
                }
            }
        }
        // The run met every kind of answer: errors, policies reaching, and policies the index did not visit.
        #expect(errors >= Soak.least(300) && reached >= Soak.least(3_000) && skipped >= Soak.least(3_000), "\(errors) errors, \(reached) reached, \(skipped) skipped")
    }

    /// `checkConflicts` visits only the filtered candidates, and still fails exactly when some profile's
    /// answer for some targeted app is an error.
    @Test func checkConflictsFailsExactlyWhenSomeAnswerIsAnError() throws {
        var random = SplitMix64(seed: 4044)
        var failed = 0
        for _ in 0..<Soak.size(1_500) {
            let fleet = try Self.tenant(&random)
            var expectedFailure: Bool
            do throws(FleetError) {
                try fleet.checkAssignments()
                expectedFailure = false
                for device in fleet.devices {
                    for policy in fleet.policies {
                        for app in policy.apps where (try? fleet.reaching(app, on: device, membership: fleet.membership(of: device))) == nil { expectedFailure = true }
                    }
                }
            } catch {
                expectedFailure = true
            }
            let failure: Bool
            do throws(FleetError) { try fleet.checkConflicts(); failure = false } catch { failure = true }
            #expect(failure == expectedFailure)
            if failure { failed += 1 }
        }
        #expect(failed >= Soak.least(150), "\(failed) tenants refused")
    }
}
