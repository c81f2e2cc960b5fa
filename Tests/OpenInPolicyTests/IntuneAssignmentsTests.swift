import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// Who an Intune app protection policy reaches: assignments read and checked, groups (include, exclude,
/// by id or by name), management levels per app, unassigned and unexported policies
/// (`Rules/intune/README.md`, "Who a policy reaches").
@Suite struct IntuneAssignmentsTests {
    static let word = "com.microsoft.Office.Word"

    /// A policy object targeting Word, with `extra` members (JSON text after a comma).
    static func policy(_ name: String, _ extra: String) -> String {
        """
        {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "\(name)",
         "allowedOutboundDataTransferDestinations": "managedApps", "printBlocked": \(name.contains("Printing Disabled")),
         "appGroupType": "selectedPublicApps",
         "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "\(word)"}}]\(extra.isEmpty ? "" : ", " + extra)}
        """
    }

    static func assigned(_ group: String, kind: String = "groupAssignmentTarget", key: String = "groupId") -> String {
        ##"{"source": "direct", "target": {"@odata.type": "#microsoft.graph.\##(kind)", "\##(key)": "\##(group)", "deviceAndAppManagementAssignmentFilterId": null, "deviceAndAppManagementAssignmentFilterType": "none"}}"##
    }

    static func load(_ policies: [String], devices: String, assumeAssigned: Bool = false, conflicts: ConflictMode = .mostRestrictive) throws -> IntuneFleet {
        let read = try IntuneGraphJSON.read(Array("[\(policies.joined(separator: ",\n"))]".utf8), file: "export.json")
        do throws(IntuneFleet.LoadError) {
            return try IntuneFleet.load(policies: read, file: "export.json", devices: (Array(devices.utf8), "devices.json"), assumeAssigned: assumeAssigned, conflicts: conflicts)
        } catch {
            throw FleetError(error.message)
        }
    }

    static func printOutcome(_ fleet: IntuneFleet, on device: String) throws -> Outcome {
        try fleet.decide(device: device, try FleetRequest(from: try BundleID(word), channel: .print)).outcome
    }

    static let staff = "3c1f0e2a-7b4d-4c6e-9a8b-0d1e2f3a4b5c"
    static let contractors = "8a7b6c5d-4e3f-4a1b-8c2d-9e0f1a2b3c4d"

    static let devices = """
        {"apps": [{"bundleID": "\(word)", "intuneSDKVersion": "19.0.0"}],
         "groups": {"\(staff)": "All staff", "\(contractors)": "Contractors"},
         "devices": {
           "mdm-iphone": {"installed": ["\(word)"], "mdmEnrolled": true, "intuneMAMUPN": true, "groups": ["All staff"]},
           "byod-iphone": {"installed": ["\(word)"], "mdmEnrolled": false, "intuneMAMUPN": false, "groups": ["All staff"]},
           "contractor-ipad": {"installed": ["\(word)"], "mdmEnrolled": true, "intuneMAMUPN": ["com.example.other"], "groups": ["\(staff)", "Contractors"]}
         }}
        """

    @Test("Microsoft's recommended pair, one policy for unmanaged and one for MDM-managed apps over the same app, decides by level on each profile")
    func twoPoliciesByManagementLevel() throws {
        let fleet = try Self.load([
            Self.policy("[Global] MAM | UnManaged Devices | Printing Disabled", #""targetedAppManagementLevels": "unmanaged", "assignments": [\#(Self.assigned(Self.staff))]"#),
            Self.policy("[Global] MAM | Managed Devices | Printing Enabled", #""targetedAppManagementLevels": "mdm", "assignments": [\#(Self.assigned(Self.staff))]"#),
        ], devices: Self.devices)
        // Enrolled, and Word receives IntuneMAMUPN: managed, so the MDM policy decides.
        #expect(try Self.printOutcome(fleet, on: "mdm-iphone") == .allow)
        // Not enrolled: unmanaged.
        #expect(try Self.printOutcome(fleet, on: "byod-iphone") == .deny)
        // Enrolled, but Word does not receive IntuneMAMUPN (the list names another app): unmanaged.
        #expect(try Self.printOutcome(fleet, on: "contractor-ipad") == .deny)
        let device = try fleet.device(named: "mdm-iphone")
        #expect(fleet.policy(for: try BundleID(Self.word), on: device)?.displayName == "[Global] MAM | Managed Devices | Printing Enabled")
        #expect(fleet.scopeNotes.isEmpty)
    }

    @Test("an excluded group wins over an included one; a profile in no assigned group is not protected")
    func exclusionWins() throws {
        let fleet = try Self.load([
            Self.policy("Printing Disabled", #""assignments": [\#(Self.assigned(Self.staff)), \#(Self.assigned("Contractors", kind: "exclusionGroupAssignmentTarget", key: "groupName"))]"#)
        ], devices: Self.devices)
        #expect(try Self.printOutcome(fleet, on: "byod-iphone") == .deny)
        // In both groups: excluded, so no policy protects Word there, and an unprotected app prints.
        #expect(try Self.printOutcome(fleet, on: "contractor-ipad") == .allow)
        #expect(fleet.managedApps(on: try fleet.device(named: "contractor-ipad")).isEmpty)
        #expect(fleet.managedApps(on: try fleet.device(named: "byod-iphone")).map(\.rawValue) == [Self.word])
    }

    @Test("unassigned reaches no one unless --assume-assigned; unexported assignments keep every profile in scope; each is said once")
    func unassignedAndUnexported() throws {
        let unassigned = [Self.policy("Printing Disabled", #""assignments": [], "isAssigned": false"#)]
        let fleet = try Self.load(unassigned, devices: Self.devices)
        #expect(try Self.printOutcome(fleet, on: "byod-iphone") == .allow)
        #expect(fleet.scopeNotes == [#"policy "Printing Disabled" is not assigned: it protects no app (--assume-assigned analyses it as if assigned to every profile)"#])
        let assumed = try Self.load(unassigned, devices: Self.devices, assumeAssigned: true)
        #expect(try Self.printOutcome(assumed, on: "byod-iphone") == .deny)
        let unexported = try Self.load([Self.policy("Printing Disabled", #""isAssigned": false"#)], devices: Self.devices)
        #expect(try Self.printOutcome(unexported, on: "mdm-iphone") == .deny)
        #expect(unexported.scopeNotes.count == 1 && unexported.scopeNotes[0].hasPrefix("the policies' assignments were not exported"))
        #expect(IntuneLint.findings(unexported).map(\.code).contains("IN011"))
        #expect(IntuneLint.findings(fleet).map(\.code).contains("IN010"))
    }

    @Test("two policies that reach one app on one profile decide together: the most restrictive value per setting, or the least with --conflicts least-restrictive; lint names the overlap")
    func overlapOnOneProfile() throws {
        let overlapping = [
            Self.policy("Printing Disabled", ##""assignments": [\##(Self.assigned(Self.staff))]"##),
            Self.policy("Printing Enabled", ##""assignments": [\##(Self.assigned(Self.contractors))]"##),
        ]
        let strict = try Self.load(overlapping, devices: Self.devices)
        // contractor-ipad is in both groups: printing blocked wins; byod-iphone only in staff: the first policy alone.
        #expect(try Self.printOutcome(strict, on: "contractor-ipad") == .deny)
        #expect(try Self.printOutcome(strict, on: "byod-iphone") == .deny)
        let lenient = try Self.load(overlapping, devices: Self.devices, conflicts: .leastRestrictive)
        #expect(try Self.printOutcome(lenient, on: "contractor-ipad") == .allow)
        #expect(try Self.printOutcome(lenient, on: "byod-iphone") == .deny)
        let overlap = IntuneLint.findings(strict).filter { $0.code == "IN015" }
        #expect(overlap.count == 1 && overlap[0].message.contains("\"contractor-ipad\"") && !overlap[0].message.contains("byod-iphone"), "\(overlap.map(\.message))")
        #expect(throws: FleetError.self) { try IntuneLoadOptions(assumeAssigned: false, conflicts: "least-restrictiv") }
    }

    @Test("a managed-app filter narrows an included group: include where the rule holds, exclude where it does not; what the rule reads must be given")
    func filters() throws {
        func devices(_ filters: String) -> String {
            Self.devices.replacingOccurrences(of: #""groups": {"#, with: #""assignmentFilters": [\#(filters)], "groups": {"#)
        }
        let byod = ##"{"id": "f1", "displayName": "Unmanaged only", "rule": "(app.deviceManagementType -eq \"Unmanaged\")"}"##
        func target(_ type: String, _ filter: String) -> String {
            ##"{"target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget", "groupId": "\##(Self.staff)", "deviceAndAppManagementAssignmentFilterId": "\##(filter)", "deviceAndAppManagementAssignmentFilterType": "\##(type)"}}"##
        }
        let including = try Self.load([Self.policy("Printing Disabled", ##""assignments": [\##(target("include", "f1"))]"##)], devices: devices(byod))
        #expect(try Self.printOutcome(including, on: "byod-iphone") == .deny)
        #expect(try Self.printOutcome(including, on: "mdm-iphone") == .allow)
        // IntuneCD names the filter by its display name in the id field.
        let excluding = try Self.load([Self.policy("Printing Disabled", ##""assignments": [\##(target("exclude", "Unmanaged only"))]"##)], devices: devices(byod))
        #expect(try Self.printOutcome(excluding, on: "byod-iphone") == .allow)
        #expect(try Self.printOutcome(excluding, on: "mdm-iphone") == .deny)
        // A filter nobody defines, and a property no profile gives: errors, never a guess.
        #expect(throws: FleetError.self) { try Self.load([Self.policy("P", ##""assignments": [\##(target("include", "f2"))]"##)], devices: devices(byod)) }
        let model = ##"{"id": "f1", "displayName": "iPads", "rule": "(app.deviceModel -startsWith \"iPad\")"}"##
        do {
            _ = try Self.load([Self.policy("P", ##""assignments": [\##(target("include", "f1"))]"##)], devices: devices(model))
            Issue.record("a filter reading deviceModel decided without it")
        } catch {
            #expect("\(error)".contains("deviceModel"), "\(error)")
        }
    }

    @Test("assignments that cannot be read or resolved are errors naming the file, the line and the fix")
    func badAssignments() throws {
        let cases: [(String, String)] = [
            (#""assignments": [{"bogus": 1}]"#, "unknown"),
            (##""assignments": [{"target": {"@odata.type": "#microsoft.graph.allLicensedUsersAssignmentTarget"}}]"##, "Graph accepts only group and exclusion-group targets"),
            (##""assignments": [{"target": {"@odata.type": "#microsoft.graph.allDevicesAssignmentTarget"}}]"##, "Graph accepts only group and exclusion-group targets"),
            (##""assignments": [{"target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget"}}]"##, "names no group"),
            (##""assignments": [{"target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget", "groupId": "x", "deviceAndAppManagementAssignmentFilterType": "include"}}]"##, "no filter"),
            (##""assignments": [{"target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget", "groupId": "x", "deviceAndAppManagementAssignmentFilterType": "sometimes"}}]"##, "unknown deviceAndAppManagementAssignmentFilterType"),
            (#""assignments": null"#, "is null"),
            (#""targetedAppManagementLevels": "mdm,unspecified""#, "combines unspecified"),
            (#""targetedAppManagementLevels": "mdmm""#, "Did you mean"),
        ]
        for (extra, message) in cases {
            do {
                _ = try IntuneGraphJSON.read(Array(Self.policy("P", extra).utf8), file: "p.json")
                Issue.record("accepted \(extra)")
            } catch {
                #expect("\(error)".contains(message) && "\(error)".hasPrefix("p.json:"), "\(extra): \(error)")
            }
        }
        // A group id nothing names: an error unless --assume-assigned.
        let unknown = [Self.policy("P", #""assignments": [\#(Self.assigned("11111111-2222-4333-8444-555555555555"))]"#)]
        #expect(throws: FleetError.self) { try Self.load(unknown, devices: Self.devices) }
        _ = try Self.load(unknown, devices: Self.devices, assumeAssigned: true)
        // A profile that does not say its groups while a policy is assigned to groups.
        let noGroups = #"{"devices": {"d": {"installed": [], "mdmEnrolled": false, "intuneMAMUPN": false}}}"#
        #expect(throws: FleetError.self) { try Self.load([Self.policy("P", #""assignments": [\#(Self.assigned(Self.staff))]"#)], devices: noGroups) }
        // One name carried by two ids in the groups map.
        let twice = #"{"groups": {"a": "Staff", "b": "Staff"}, "devices": {}}"#
        #expect(throws: FormatError.self) { try IntuneDevicesJSON.read(Array(twice.utf8), file: "devices.json") }
    }

    @Test("IntuneCD's form (groupName, a filter named in the id field) reads; its group matched by name, byte for byte")
    func intuneCDForm() throws {
        let target = ##"{"target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget", "groupName": "All staff", "groupType": "StaticMembership", "deviceAndAppManagementAssignmentFilterId": null, "deviceAndAppManagementAssignmentFilterType": "none"}}"##
        let read = try IntuneGraphJSON.read(Array(Self.policy("Printing Disabled", #""assignments": [\#(target)]"#).utf8), file: "p.json")
        #expect(read[0].assignments == [IntuneAssignment(kind: .include, groupName: "All staff")])
        let fleet = try Self.load([Self.policy("Printing Disabled", #""assignments": [\#(target)]"#)], devices: Self.devices)
        #expect(try Self.printOutcome(fleet, on: "mdm-iphone") == .deny)
        // A misspelt group is another group, which lint names with "Did you mean"; one spelt with another letter case is
        // refused at load (IntuneGroupSpellingTests).
        let other = target.replacingOccurrences(of: "All staff", with: "All staf")
        let lint = IntuneLint.findings(try Self.load([Self.policy("Printing Disabled", #""assignments": [\#(other)]"#)], devices: Self.devices))
        #expect(lint.contains { $0.code == "IN013" && $0.message.contains("Did you mean") }, "\(lint.map(\.message))")
    }

    @Test("lint: an exclusion-only policy, and OS sharing meeting an app without IntuneMAMUPN on an enrolled profile")
    func lintChecks() throws {
        let excluding = try Self.load([Self.policy("P", #""assignments": [\#(Self.assigned(Self.contractors, kind: "exclusionGroupAssignmentTarget"))]"#)], devices: Self.devices)
        #expect(IntuneLint.findings(excluding).map(\.code).contains("IN012"))
        let sharing = try Self.load([Self.policy("P", #""disableProtectionOfManagedOutboundOpenInData": true"#)], devices: Self.devices)
        let findings = IntuneLint.findings(sharing).filter { $0.code == "IN014" }
        #expect(findings.map(\.device) == ["contractor-ipad"], "\(findings)")
    }
}
