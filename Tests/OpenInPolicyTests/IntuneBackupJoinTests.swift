import Foundation
import Testing
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit

/// What a backup holds beside its policies, joined to them (`Rules/intune/README.md`, "Who a policy reaches"):
/// IntuneBackupAndRestore's `Assignments/ID - NAME.json` by policy id, IntuneManagement's `MigrationTable.json`
/// as the groups map, the filter objects of `Filters/` and `Assignment Filters/`; group names that differ only
/// by Unicode normalization or letter case refused; lint IN016, a filter that leaves out every profile.
@Suite("Intune backups joined")
struct IntuneBackupJoinTests {
    static let word = "com.microsoft.Office.Word"
    static let staff = "9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12"

    /// An iOS policy targeting Word, with `extra` members.
    static func policy(_ name: String, id: String? = nil, _ extra: String = "") -> [UInt8] {
        Array("""
            {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "\(name)",\(id.map { " \"id\": \"\($0)\"," } ?? "")
             "allowedOutboundDataTransferDestinations": "managedApps", "printBlocked": true, "appGroupType": "selectedPublicApps",
             "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "\(word)"}}]\(extra.isEmpty ? "" : ", " + extra)}
            """.utf8)
    }

    static func target(_ key: String, _ group: String, filter: String? = nil, type: String = "include") -> String {
        let filterPart = filter.map { #""deviceAndAppManagementAssignmentFilterId": "\#($0)", "deviceAndAppManagementAssignmentFilterType": "\#(type)""# }
            ?? #""deviceAndAppManagementAssignmentFilterId": null, "deviceAndAppManagementAssignmentFilterType": "none""#
        return ##"{"source": "direct", "target": {"@odata.type": "#microsoft.graph.groupAssignmentTarget", "\##(key)": "\##(group)", \##(filterPart)}}"##
    }

    /// IntuneBackupAndRestore's assignments file: the Graph response it saves.
    static func assignmentsFile(_ policyID: String, _ targets: [String]) -> [UInt8] {
        Array(#"{"@odata.context": "https://graph.microsoft.com/beta/$metadata#deviceAppManagement/iosManagedAppProtections('\#(policyID)')/assignments","#.utf8)
            + Array("\n \"value\": [\n  \(targets.joined(separator: ",\n  "))\n ]\n}\n".utf8)
    }

    static func devices(groups: String, map: String = "", filters: String = "", extra: String = "") -> [UInt8] {
        Array("""
            {"apps": [{"bundleID": "\(word)", "intuneSDKVersion": "19.0.0"}],\(map.isEmpty ? "" : " \"groups\": \(map),")\(filters.isEmpty ? "" : " \"assignmentFilters\": \(filters),")
             "devices": {
               "iphone": {"installed": ["\(word)"], "mdmEnrolled": false, "intuneMAMUPN": false, "groups": [\(groups)]\(extra)}
             }}
            """.utf8)
    }

    /// The fleet `path` and `devices` load into, as the fleet verbs load them.
    static func load(_ path: String, devices: [UInt8]) throws -> IntuneFleet {
        let export = try IntuneGraphJSON.read(path: path)
        do throws(IntuneFleet.LoadError) {
            return try IntuneFleet.load(policies: export.policies, file: path, devices: (devices, "devices.json"), facts: export.facts)
        } catch {
            throw FleetError(error.message)
        }
    }

    static func loadError(_ path: String, devices: [UInt8]) -> String? {
        do { _ = try load(path, devices: devices) } catch { return "\(error)" }
        return nil
    }

    static func readError(_ path: String) -> String? {
        let result = Result { () throws(FormatError) in try IntuneGraphJSON.read(path: path) }
        if case .failure(let error) = result { return error.description }
        return nil
    }

    static func prints(_ fleet: IntuneFleet) throws -> Outcome {
        try fleet.decide(device: "iphone", try FleetRequest(from: try BundleID(word), channel: .print)).outcome
    }

    // MARK: IntuneBackupAndRestore's Assignments/

    @Test("IntuneBackupAndRestore's Assignments/ID - NAME.json is joined to its policy by id: the policy reaches who the file says, and it is not 'not exported'")
    func assignmentsJoined() throws {
        let file = "App Protection Policies/Assignments/T_1 - P.json"
        try IntuneBackupsTests.folder([
            "App Protection Policies/P.json": Self.policy("P", id: "T_1"),
            "App Protection Policies/Q.json": Self.policy("Q", id: "T_2"),
            "App Protection Policies/A.json": Array(##"{"@odata.type": "#microsoft.graph.androidManagedAppProtection", "id": "T_3", "displayName": "A"}"##.utf8),
            file: Self.assignmentsFile("T_1", [Self.target("groupId", Self.staff)]),
            "App Protection Policies/Assignments/T_3 - A.json": Self.assignmentsFile("T_3", [##"{"target": {"@odata.type": "#microsoft.graph.allDevicesAssignmentTarget"}}"##]),
        ]) { path in
            let export = try IntuneGraphJSON.read(path: path)
            let p = try #require(export.policies.first { $0.displayName == "P" })
            #expect(p.assignments == [IntuneAssignment(kind: .include, groupID: Self.staff)])
            #expect(p.assignments?.first?.file == path + "/" + file && p.assignments?.first?.line == 3)
            // Q has no file: its assignments were not exported, as before.
            #expect(export.policies.first { $0.displayName == "Q" }?.assignments == nil)
            #expect(export.notes.last == "\(path)/App Protection Policies/Assignments/: 2 files of policy assignments (IntuneBackupAndRestore): 1 joined to its policy by id, 1 for policies skipped above, not read")
            // Reached through the file's group: the profile in it is protected, one outside is not.
            let fleet = try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", map: "{\"\(Self.staff)\": \"Acme staff\"}"))
            #expect(fleet.scopeNotes == [#""Q" have no assignments in the export: every device profile is taken to be in scope (export with $expand=assignments to analyse who each policy reaches)"#])
            let outside = try Self.load(path, devices: Self.devices(groups: "\"Contractors\"", map: "{\"\(Self.staff)\": \"Acme staff\"}"))
            func reaching(_ fleet: IntuneFleet) throws -> [String] {
                try fleet.reaching(try BundleID(Self.word), on: fleet.devices[0], membership: fleet.membership(of: fleet.devices[0])).map { fleet.policies[$0].displayName }
            }
            #expect(try reaching(fleet).sorted() == ["P", "Q"] && reaching(outside) == ["Q"])
        }
    }

    @Test("an assignments file for no policy, two files for one policy, a policy with inline assignments and a file, or a bad assignment is an error naming the file and the fix")
    func assignmentsErrors() throws {
        let policy = ["App Protection Policies/P.json": Self.policy("P", id: "T_1")]
        try IntuneBackupsTests.folder(policy.merging(["App Protection Policies/Assignments/T_9 - Gone.json": Self.assignmentsFile("T_9", [])]) { $1 }) { path in
            #expect(Self.readError(path) == "\(path)/App Protection Policies/Assignments/T_9 - Gone.json: the assignments file names the policy id \"T_9\" (its name's part before ' - '), which no policy of the export has. Did you mean 'T_1'? Restore the policy's file beside the others, or remove this file")
        }
        try IntuneBackupsTests.folder(policy.merging(["App Protection Policies/Assignments/T_1 - P.json": Self.assignmentsFile("T_1", []),
                                                      "App Protection Policies/Assignments/T_1 - P (copy).json": Self.assignmentsFile("T_1", [])]) { $1 }) { path in
            #expect(Self.readError(path) == "\(path)/App Protection Policies/Assignments/T_1 - P.json: a second assignments file for the policy \"P\" (T_1): '\(path)/App Protection Policies/Assignments/T_1 - P (copy).json' holds them already; keep one")
        }
        try IntuneBackupsTests.folder(["App Protection Policies/P.json": Self.policy("P", id: "T_1", #""assignments": []"#),
                                       "App Protection Policies/Assignments/T_1 - P.json": Self.assignmentsFile("T_1", [])]) { path in
            #expect(Self.readError(path)?.contains("has assignments inline in '\(path)/App Protection Policies/P.json' too: which to read would be a guess; keep them in one place") == true)
        }
        try IntuneBackupsTests.folder(policy.merging(["App Protection Policies/Assignments/T_1 - P.json": Self.assignmentsFile("T_1", [##"{"target": {"@odata.type": "#microsoft.graph.allLicensedUsersAssignmentTarget"}}"##])]) { $1 }) { path in
            #expect(Self.readError(path)?.hasPrefix("\(path)/App Protection Policies/Assignments/T_1 - P.json:3:") == true)
            #expect(Self.readError(path)?.contains("value[0].target.@odata.type: #microsoft.graph.allLicensedUsersAssignmentTarget cannot target an app protection policy") == true, "\(Self.readError(path) ?? "")")
        }
        try IntuneBackupsTests.folder(policy.merging(["App Protection Policies/Assignments/P.json": Self.assignmentsFile("T_1", [])]) { $1 }) { path in
            #expect(Self.readError(path)?.contains("does not start with its policy's id") == true)
        }
        // A list without the response around it reads too.
        try IntuneBackupsTests.folder(policy.merging(["App Protection Policies/Assignments/T_1 - P.json": Array("[\(Self.target("groupName", "Acme staff"))]".utf8)]) { $1 }) { path in
            let read = try IntuneGraphJSON.read(path: path)
            #expect(read.policies[0].assignments == [IntuneAssignment(kind: .include, groupName: "Acme staff")])
        }
    }

    // MARK: MigrationTable.json

    static let migrationTable = """
        {"Objects": [{"Type": "Group", "DisplayName": "Acme staff", "Id": "\(staff)"}, {"Type": "User", "DisplayName": "Ada", "Id": "u1"}],
         "TenantId": "%OrganizationId%", "Organization": "Acme"}
        """

    @Test("IntuneManagement's MigrationTable.json is the groups map: an assignment by id reaches the profiles that carry the group's name")
    func migrationTable() throws {
        let policy = Self.policy("P", id: "T_1", #""assignments": [\#(Self.target("groupId", Self.staff))]"#)
        try IntuneBackupsTests.folder(["AppProtection/P_T_1.json": policy, "MigrationTable.json": TextEncodingTests.utf16(Self.migrationTable)]) { path in
            let export = try IntuneGraphJSON.read(path: path)
            #expect(export.facts.groups.map(\.id) == [Self.staff] && export.facts.groups.map(\.name) == ["Acme staff"] && export.facts.groups[0].line == 1)
            let fleet = try Self.load(path, devices: Self.devices(groups: "\"Acme staff\""))
            #expect(try Self.prints(fleet) == .deny)
            #expect(fleet.devices[0].groupAliases == [Self.staff])
            // With the devices file's map saying the same, they merge.
            let outcome1 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", map: "{\"\(Self.staff)\": \"Acme staff\"}")))
            #expect(outcome1 == .deny)
            // One id with two names, one name with two ids: errors naming both files.
            #expect(Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\"", map: "{\"\(Self.staff)\": \"Acme employees\"}"))
                == "\(path)/MigrationTable.json:1: the group \(Self.staff) has two names: \"Acme employees\" in the devices file 'devices.json' and \"Acme staff\" in '\(path)/MigrationTable.json' (line 1): give it one display name, as Entra ID does")
            #expect(Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\"", map: "{\"other-id\": \"Acme staff\"}"))
                == "\(path)/MigrationTable.json:1: \"Acme staff\" is the name of two groups: other-id in the devices file 'devices.json' and \(Self.staff) in '\(path)/MigrationTable.json' (line 1): a name must say which group it is; correct the id in one of them")
        }
        // Without the table, the id is known nowhere: refused, as before.
        try IntuneBackupsTests.folder(["AppProtection/P_T_1.json": policy]) { path in
            #expect(Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\""))?.contains("which no profile names and the devices file's groups do not") == true)
        }
        // Another shape is an error in the table's file.
        try IntuneBackupsTests.folder(["AppProtection/P_T_1.json": policy, "MigrationTable.json": Array(#"{"TenantId": "t", "Objects": [{"Id": "x", "Name": "y", "Type": "Group"}]}"#.utf8)]) { path in
            #expect(Self.readError(path)?.hasPrefix("\(path)/MigrationTable.json:1:") == true)
            #expect(Self.readError(path)?.contains("Objects[0].Name: unknown key") == true)
        }
    }

    // MARK: Filters from export folders

    static let appFilter = #"{"displayName": "iOS 17 and later", "description": "", "platform": "iOSMobileApplicationManagement", "rule": "(app.osVersion -startsWith \"17.\") or (app.osVersion -startsWith \"18.\")", "assignmentFilterManagementType": "apps"}"#
    static let deviceFilter = ##"{"@odata.type": "#microsoft.graph.deviceAndAppManagementAssignmentFilter", "id": "d1", "displayName": "Corporate iPhones", "platform": "iOS", "rule": "(device.deviceOwnership -eq \"Corporate\")", "assignmentFilterManagementType": "devices"}"##

    @Test("filter objects from IntuneCD's Filters/ and IntuneBackupAndRestore's Assignment Filters/ narrow assignments, by display name or by id")
    func filtersFromFolders() throws {
        let byName = Self.policy("P", #""assignments": [\#(Self.target("groupName", "Acme staff", filter: "iOS 17 and later"))]"#)
        try IntuneBackupsTests.folder(["App Protection/P_iosManagedAppProtection.json": byName, "Filters/iOS 17 and later.json": Array(Self.appFilter.utf8),
                                       "Filters/Corporate iPhones.json": Array(Self.deviceFilter.utf8)]) { path in
            let export = try IntuneGraphJSON.read(path: path)
            #expect(export.facts.filters.map(\.displayName) == ["Corporate iPhones", "iOS 17 and later"])
            #expect(export.facts.filters[0].unusable?.hasPrefix("its platform is \"iOS\", a filter for managed devices: Microsoft Learn") == true)
            let outcome2 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", extra: #", "osVersion": "17.5""#)))
            #expect(outcome2 == .deny)
            let outcome3 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", extra: #", "osVersion": "16.7""#)))
            #expect(outcome3 == .allow)
        }
        let byID = Self.policy("P", id: "T_1")
        let filterWithID = Self.appFilter.replacingOccurrences(of: #""displayName""#, with: #""id": "f1", "displayName""#)
        try IntuneBackupsTests.folder(["App Protection Policies/P.json": byID, "Assignment Filters/iOS 17 and later.json": TextEncodingTests.utf16(filterWithID),
                                       "App Protection Policies/Assignments/T_1 - P.json": Self.assignmentsFile("T_1", [Self.target("groupId", Self.staff, filter: "f1", type: "exclude")])]) { path in
            let map = "{\"\(Self.staff)\": \"Acme staff\"}"
            let outcome4 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", map: map, extra: #", "osVersion": "17.5""#)))
            #expect(outcome4 == .allow)
            let outcome5 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", map: map, extra: #", "osVersion": "16.7""#)))
            #expect(outcome5 == .deny)
            // The same filter in the devices file: one filter. With another rule: an error naming both places.
            let same = "[\(filterWithID)]"
            let outcome6 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", map: map, filters: same, extra: #", "osVersion": "16.7""#)))
            #expect(outcome6 == .deny)
            let other = "[" + filterWithID.replacingOccurrences(of: "18.", with: "19.") + "]"
            #expect(Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\"", map: map, filters: other, extra: #", "osVersion": "16.7""#))
                == #"\#(path)/Assignment Filters/iOS 17 and later.json:1: the assignment filter the id "f1" is given twice with different rules: "(app.osVersion -startsWith \"17.\") or (app.osVersion -startsWith \"19.\")" (devices.json:1) and "(app.osVersion -startsWith \"17.\") or (app.osVersion -startsWith \"18.\")" (\#(path)/Assignment Filters/iOS 17 and later.json:1): keep the tenant's one (GET /beta/deviceManagement/assignmentFilters/{id})"#)
        }
    }

    @Test("a filter for managed devices, read from a backup, is refused where an app protection assignment names it, saying why")
    func deviceFilterNamed() throws {
        let policy = Self.policy("P", #""assignments": [\#(Self.target("groupName", "Acme staff", filter: "Corporate iPhones"))]"#)
        try IntuneBackupsTests.folder(["App Protection/P_iosManagedAppProtection.json": policy, "Filters/Corporate iPhones.json": Array(Self.deviceFilter.utf8)]) { path in
            let error = Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\""))
            #expect(error == #"\#(path)/App Protection/P_iosManagedAppProtection.json:3: policy "P" includes the group "Acme staff" through the filter "Corporate iPhones" (\#(path)/Filters/Corporate iPhones.json:1), which cannot narrow an app protection policy: its platform is "iOS", a filter for managed devices: Microsoft Learn, "Supported workloads when creating filters": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is iOSMobileApplicationManagement and assignmentFilterManagementType apps; assign a managed-app filter instead, or remove the filter"#)
        }
        // In the devices file, such a filter is refused as before, wherever it is named or not.
        let devices = Self.devices(groups: "\"Acme staff\"", filters: "[\(Self.deviceFilter)]")
        #expect(throws: FormatError.self) { _ = try IntuneDevicesJSON.assignmentFilters(try JSONReader().read(devices), file: "devices.json") }
    }

    // MARK: Group names that differ only by normalization or case

    @Test("an assignment's group spelt differently only by Unicode normalization or letter case from a profile's or the map's is a load error naming the code points", arguments: [
        ("Cafe\u{301} staff", "Café staff", "Unicode normalization (U+0065 U+0301 vs U+00E9)"),
        ("acme staff", "Acme staff", "letter case (U+0061 vs U+0041)"),
        ("CAFE\u{301} STAFF", "café staff", "letter case and Unicode normalization (U+0043 U+0041 U+0046 U+0045 U+0301 U+0020 U+0053 U+0054 U+0041 U+0046 U+0046 vs U+0063 U+0061 U+0066 U+00E9 U+0020 U+0073 U+0074 U+0061 U+0066 U+0066)"),
    ])
    func groupSpelling(_ assigned: String, _ carried: String, _ how: String) throws {
        let policy = Self.policy("P", #""assignments": [\#(Self.target("groupName", assigned))]"#)
        try IntuneBackupsTests.folder(["App Protection/P_iosManagedAppProtection.json": policy]) { path in
            let error = Self.loadError(path, devices: Self.devices(groups: "\"\(carried)\""))
            #expect(error == "\(path)/App Protection/P_iosManagedAppProtection.json:3: policy \"P\" includes the group \"\(assigned)\", and the profile \"iphone\" (devices.iphone.groups in 'devices.json') carries \"\(carried)\": they differ only by \(how), and groups match byte for byte, so the policy would reach no one there: write the group exactly as Entra ID names it, the same in both files")
            // Spelt alike, it reaches the profile.
            let outcome7 = try Self.prints(try Self.load(path, devices: Self.devices(groups: "\"\(assigned)\"")))
            #expect(outcome7 == .deny)
        }
    }

    @Test("a group id spelt in another case than the groups map's is refused too, at the line of the assignments file it came from")
    func groupIDCase() throws {
        try IntuneBackupsTests.folder(["App Protection Policies/P.json": Self.policy("P", id: "T_1"),
                                       "App Protection Policies/Assignments/T_1 - P.json": Self.assignmentsFile("T_1", [Self.target("groupId", Self.staff.uppercased())])]) { path in
            let error = Self.loadError(path, devices: Self.devices(groups: "\"Acme staff\"", map: "{\"\(Self.staff)\": \"Acme staff\"}"))
            #expect(error?.hasPrefix("\(path)/App Protection Policies/Assignments/T_1 - P.json:3: policy \"P\" includes the group \"\(Self.staff.uppercased())\", and the groups map carries \"\(Self.staff)\": they differ only by letter case (U+0046 U+0032 U+0043 ") == true, "\(error ?? "")")
        }
    }

    @Test("a profile that carries the group in another case is refused even when another profile spells it as the assignment does")
    func oneProfileOfTwo() throws {
        let policy = Self.policy("P", #""assignments": [\#(Self.target("groupName", "Acme staff"))]"#)
        let devices = Array("""
            {"devices": {
               "a": {"installed": [], "mdmEnrolled": false, "intuneMAMUPN": false, "groups": ["Acme staff"]},
               "b": {"installed": [], "mdmEnrolled": false, "intuneMAMUPN": false, "groups": ["ACME staff"]}
             }}
            """.utf8)
        try IntuneBackupsTests.folder(["App Protection/P_iosManagedAppProtection.json": policy]) { path in
            #expect(Self.loadError(path, devices: devices)?.contains("and the profile \"b\" (devices.b.groups in 'devices.json') carries \"ACME staff\": they differ only by letter case (U+0063 U+006D U+0065 vs U+0043 U+004D U+0045)") == true)
        }
    }

    @Test("a fleet made in code, not loaded, is refused by checkConflicts alike: the check is the fleet's, not the loader's")
    func groupSpellingInCode() throws {
        var policy = IntunePolicy(displayName: "P")
        policy.apps = [try BundleID("com.corp.app")]
        policy.assignments = [IntuneAssignment(kind: .include, groupName: "Cafe\u{301} staff")]
        var device = IntuneDeviceProfile(name: "iphone", installed: [try BundleID("com.corp.app")])
        device.groups = ["Café staff"]
        var fleet = IntuneFleet(policies: [policy], devices: [device])
        #expect(throws: FleetError.self) { try fleet.checkConflicts() }
        do throws(FleetError) { try fleet.checkConflicts() } catch {
            #expect(error.description.contains("they differ only by Unicode normalization (U+0065 U+0301 vs U+00E9)") && error.description.contains("devices.iphone.groups in the devices file"), "\(error)")
        }
        fleet.devices[0].groups = ["Cafe\u{301} staff"]
        try fleet.checkConflicts()
    }

    @Test("the code points that differ, after the common start and end")
    func codePoints() {
        #expect(IntuneFleet.differingCodePoints("Café staff", "Cafe\u{301} staff") == "U+00E9 vs U+0065 U+0301")
        #expect(IntuneFleet.differingCodePoints("ab", "abc") == "nothing vs U+0063")
        #expect(IntuneFleet.difference("Café", "Cafe\u{301}") == "Unicode normalization")
    }

    // MARK: IN016

    @Test("lint IN016: an include filter whose rule holds on no profile, or an exclude filter whose rule holds on every profile the group reaches", arguments: [
        ("include", "16.7", true), ("include", "17.5", false), ("exclude", "17.5", true), ("exclude", "16.7", false),
    ])
    func filterExcludesEveryProfile(_ type: String, _ osVersion: String, _ found: Bool) throws {
        let policy = Self.policy("P", #""assignments": [\#(Self.target("groupName", "Acme staff", filter: "iOS 17 and later", type: type))]"#)
        try IntuneBackupsTests.folder(["App Protection/P_iosManagedAppProtection.json": policy, "Filters/iOS 17 and later.json": Array(Self.appFilter.utf8)]) { path in
            let fleet = try Self.load(path, devices: Self.devices(groups: "\"Acme staff\"", extra: #", "osVersion": "\#(osVersion)""#))
            let findings = IntuneLint.findings(fleet).filter { $0.code == "IN016" }
            #expect(findings.count == (found ? 1 : 0))
            guard found, let finding = findings.first else { return }
            #expect(finding.severity == .warning && finding.name == "filter-excludes-every-profile" && finding.line == 3)
            let holds = type == "include" ? "holds on none of the profiles the group reaches" : "holds on every profile the group reaches"
            #expect(finding.message == #"policy "P" includes the group "Acme staff" through the \#(type) filter "iOS 17 and later", whose rule "(app.osVersion -startsWith \"17.\") or (app.osVersion -startsWith \"18.\")" \#(holds) ("iphone"): the assignment reaches no one"#)
        }
    }
}

extension IntuneBackupJoinTests {
    @Test("fleet fixes reads IntuneBackupAndRestore's policies with the assignments joined from their own files, as the fleet has them")
    func fixesKeepJoinedAssignments() throws {
        let root = IntuneBackupsTests.backups + "/intunebackupandrestore"
        let devices = [UInt8](try Data(contentsOf: IntuneBackupsTests.root.appendingPathComponent("Examples/intune/devices.json")))
        let fleet = try Self.load(root, devices: devices)
        #expect(fleet.policies[0].assignments == [IntuneAssignment(kind: .include, groupID: Self.staff)])
        let subject = try IntuneFixSubject(path: root, fleet: fleet, scope: FixScope())
        #expect(subject.fleet.policies.map(\.assignments) == fleet.policies.map(\.assignments))
    }
}
