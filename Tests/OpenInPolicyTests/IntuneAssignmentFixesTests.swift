import Foundation
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit
import OpenInPolicy
import Testing

/// `fleet fixes`' assignment changes (`Rules/intune/README.md`, "Changing who a policy reaches"): proposed only
/// when they change whom a policy reaches and leave every app reached where one was; each patch reads back.
@Suite struct IntuneAssignmentFixesTests {
    static func subject(conflicts: ConflictMode) throws -> IntuneFixSubject {
        let fleet = try IntuneReachTests.byLevel(conflicts: conflicts)
        do throws(FixError) {
            return try IntuneFixSubject(path: IntuneReachTests.root + "/Examples/intune/by-level/app-protection.json", fleet: fleet, scope: FixScope())
        } catch {
            throw FleetError(error.message)
        }
    }

    @Test("every assignment candidate's patch reads back as the change it names, and leaves every installed app reached where some policy reached it")
    func candidatesKeepEveryAppReached() throws {
        let subject = try Self.subject(conflicts: .mostRestrictive)
        let candidates = subject.assignmentCandidates()
        #expect(candidates.contains { $0.change.hasPrefix(#"Exclude the group "Acme staff" (9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12) from policy "Acme - iOS - Contractors - All apps""#) })
        // Excluding staff from the managed-devices policy would leave Word and Outlook unprotected on the enrolled iPhone.
        #expect(!candidates.contains { $0.change.contains(#"from policy "Acme - iOS - Managed devices - OS sharing""#) }, "\(candidates.map(\.change))")
        // The one included group with a filter is not narrowed again; those without one are, with each filter, both ways.
        #expect(candidates.filter { $0.change.hasPrefix("Narrow") }.allSatisfy { !$0.change.contains("OS sharing") })
        #expect(!candidates.isEmpty)
        for candidate in candidates {
            let document = subject.documents[candidate.document]
            let patched = try JSONPatch.apply(candidate.patch, to: document.value)
            var fleet = subject.fleet
            fleet.policies = try IntuneGraphJSON.read(patched, at: document.start)
            try fleet.checkConflicts()
            #expect(fleet.policies.map(\.assignments) != subject.fleet.policies.map(\.assignments), "\(candidate.change)")
            for device in fleet.devices {
                for app in device.installed {
                    let before = try subject.fleet.reaching(app, on: device, membership: subject.fleet.membership(of: device))
                    let after = try fleet.reaching(app, on: device, membership: fleet.membership(of: device))
                    #expect(before.isEmpty || !after.isEmpty, "\(candidate.change): \(app) on \(device.name)")
                }
            }
        }
    }

    @Test("least-restrictive: the exclusion closes the contractor's paths and opens none; a policy with OS sharing set to none turns OS sharing off too")
    func verifiedAndRanked() throws {
        let report = try FleetFixes.run(try Self.subject(conflicts: .leastRestrictive))
        let exclusion = try #require(report.fixes.first { $0.change.hasPrefix("Exclude the group") })
        #expect(exclusion.closes.allSatisfy { $0.device == "contractor-ipad" } && !exclusion.closes.isEmpty)
        #expect(exclusion.remaining.isSubset(of: Set(report.paths)))
        #expect(report.unbuilt.isEmpty, "\(report.unbuilt)")
        // The Send none change of the OS-sharing policy is verified (it once failed Graph's constraint: OS sharing left true).
        #expect(report.fixes.contains { $0.change.hasPrefix(#"Set Send org data to other apps (allowedOutboundDataTransferDestinations) of policy "Acme - iOS - Managed devices - OS sharing" from managedApps to none"#) })
    }

    @Test("a fleet without assignments, or whose apps have one policy each, gets no assignment change")
    func none() throws {
        for (policies, devices) in [("Examples/intune/acme-app-protection-loosened.json", "Examples/intune/devices.json"),
                                    ("Examples/intune/framework/level-3-enterprise-high-data-protection-iOS.json", "Examples/intune/framework-devices.json")] {
            let fleet = try IntuneReachTests.load(policies, devices: devices)
            let subject = try IntuneFixSubject(path: IntuneReachTests.root + "/" + policies, fleet: fleet, scope: FixScope())
            #expect(!subject.paths.isEmpty && fleet.managedApps(on: fleet.devices[0]).count > 0, "\(policies)")
            #expect(subject.assignmentCandidates().isEmpty, "\(policies)")
        }
    }
}

extension IntuneAssignmentFixesTests {
    /// Word shares with all apps; Excel's policy excludes the contractors, so on the contractor's iPhone Excel is
    /// not policy-managed and Word's documents reach it: a path that ends at an app a policy targets but does not reach.
    static let widening = (
        policies: """
            [\(IntuneAssignmentsTests.policy("Word - all apps", ##""allowedOutboundDataTransferDestinations": "allApps", "assignments": [\##(IntuneAssignmentsTests.assigned(IntuneAssignmentsTests.staff))]"##)
                .replacingOccurrences(of: #""allowedOutboundDataTransferDestinations": "managedApps", "#, with: "")),
             \(IntuneAssignmentsTests.policy("Excel - managed apps", ##""assignments": [\##(IntuneAssignmentsTests.assigned(IntuneAssignmentsTests.staff)), \##(IntuneAssignmentsTests.assigned(IntuneAssignmentsTests.contractors, kind: "exclusionGroupAssignmentTarget"))]"##)
                .replacingOccurrences(of: IntuneAssignmentsTests.word, with: "com.microsoft.Office.Excel"))]
            """,
        devices: """
            {"groups": {"\(IntuneAssignmentsTests.staff)": "All staff", "\(IntuneAssignmentsTests.contractors)": "Contractors"},
             "devices": {"contractor-iphone": {"installed": ["\(IntuneAssignmentsTests.word)", "com.microsoft.Office.Excel"], "mdmEnrolled": false, "intuneMAMUPN": false,
                                               "groups": ["All staff", "Contractors"]}}}
            """)

    @Test("an app no policy reaches: removing the exclusion that leaves the user out makes it policy-managed, closing the paths that end at it; verified on the grown zone")
    func wideningClosesThePathToTheUnprotectedApp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-widening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.widening.policies.write(to: directory.appendingPathComponent("p.json"), atomically: true, encoding: .utf8)
        try Self.widening.devices.write(to: directory.appendingPathComponent("devices.json"), atomically: true, encoding: .utf8)
        let fleet = try IntuneReachTests.load(directory.appendingPathComponent("p.json").path, devices: directory.appendingPathComponent("devices.json").path, root: "")
        let subject = try IntuneFixSubject(path: directory.appendingPathComponent("p.json").path, fleet: fleet, scope: FixScope())
        #expect(subject.paths.contains(LeakPath(device: "contractor-iphone", from: IntuneAssignmentsTests.word, to: "com.microsoft.Office.Excel")), "\(subject.paths)")
        let report = try FleetFixes.run(subject)
        let fix = try #require(report.fixes.first { $0.change == #"Remove the exclusion of the group "Contractors" (8a7b6c5d-4e3f-4a1b-8c2d-9e0f1a2b3c4d) from policy "Excel - managed apps"."# },
                               "\(report.fixes.map(\.change)) \(report.unbuilt)")
        #expect(fix.closes.map(\.to) == ["com.microsoft.Office.Excel"])
        #expect(fix.patch == [.remove(JSONPointer(["1", "assignments", "1"]))])
        // The verdict is the full analysis of the patched fleet: Excel is policy-managed there, and its own paths count.
        var patched = fleet
        patched.policies = try IntuneGraphJSON.read(try JSONPatch.apply(fix.patch, to: subject.documents[0].value))
        let after = try IntuneFixSubject.analyze(patched, scope: FixScope()).paths
        #expect(after == fix.remaining && !after.contains { $0.to == "com.microsoft.Office.Excel" })
        #expect(report.unbuilt.isEmpty, "\(report.unbuilt)")
    }
}
