import Foundation
import Testing
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInKit
@testable import OpenInVendors

/// Backups as the tools write them (Examples/intune/backups: IntuneCD, IntuneManagement and
/// IntuneBackupAndRestore, each in its own layout and encoding) and a `managedAppPolicies` list
/// mixing types: the iOS app protection policies are read, everything else is skipped and named.
@Suite("Intune backups")
struct IntuneBackupsTests {
    static let root = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent()
    static let backups = root.appendingPathComponent("Examples/intune/backups").path
    static let name = "Acme - iOS - Org data in managed apps"

    static func failure(_ body: () throws(FormatError) -> IntuneGraphJSON.Export) -> FormatError? {
        let result = Result { () throws(FormatError) in try body() }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// A scratch folder holding `files` (relative path → bytes), removed after `body`.
    static func folder(_ files: [String: [UInt8]], _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, bytes) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try body(folder.path)
    }

    static let policy = ##"{"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "apps": []}"##

    @Test("the example backups keep their tools' encodings: IntuneManagement and IntuneBackupAndRestore UTF-16LE with a byte order mark and CRLF, IntuneCD UTF-8")
    func fixtureShapes() throws {
        for tool in ["intunemanagement", "intunebackupandrestore"] {
            for file in IntuneExportFilesNames.jsonFiles(under: Self.backups + "/" + tool) {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
                #expect(bytes.starts(with: [0xFF, 0xFE, 0x7B, 0x00]) || bytes.starts(with: [0xFF, 0xFE, 0x5B, 0x00]), "\(file)")
                #expect(bytes.suffix(4) == [0x0D, 0x00, 0x0A, 0x00], "\(file)")
            }
        }
        for file in IntuneExportFilesNames.jsonFiles(under: Self.backups + "/intunecd") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(bytes.first == 0x7B && !bytes.contains(0x0D) && String(validating: bytes, as: UTF8.self) != nil, "\(file)")
        }
    }

    @Test("each tool's backup root reads its one iOS policy, with the same settings and assignments, and names what it read and skipped", arguments: [
        ("intunecd", "IntuneCD", "App Protection", [
            "App Protection/Acme - Android - Org data in managed apps_androidManagedAppProtection.json skipped: it holds #microsoft.graph.androidManagedAppProtection, not an iOS app protection policy",
            "App Protection/Acme - Outlook - Org accounts only_targetedManagedAppConfiguration.json skipped: it holds #microsoft.graph.targetedManagedAppConfiguration, not an iOS app protection policy",
            "App Protection/App Protection.md skipped: not JSON (Markdown, as IntuneCD's documentation)",
        ], ["Filters/: 1 file of assignment filters, read as the filters assignments name"]),
        ("intunemanagement", "IntuneManagement", "AppProtection", [
            "Groups/ skipped: 1 file of Entra groups, not app protection policies",
        ], ["MigrationTable.json: IntuneManagement's migration table, read as the groups map (1 group by object id)"]),
        ("intunebackupandrestore", "IntuneBackupAndRestore", "App Protection Policies", [
            "App Protection Policies/Acme - Android - Org data in managed apps.json skipped: it holds #microsoft.graph.androidManagedAppProtection, not an iOS app protection policy",
            "App Protection Policies/Acme - Windows - WIP without enrollment.json skipped: it holds #microsoft.graph.windowsInformationProtectionPolicy, not an iOS app protection policy",
        ], ["Assignment Filters/: 1 file of assignment filters, read as the filters assignments name",
            "App Protection Policies/Assignments/: 1 file of policy assignments (IntuneBackupAndRestore): 1 joined to its policy by id"]),
    ])
    func backupRoots(_ tool: String, _ layout: String, _ policyFolder: String, _ skipped: [String], _ read: [String]) throws {
        let root = Self.backups + "/" + tool
        let export = try IntuneGraphJSON.read(path: root)
        let policy = try #require(export.policies.first)
        #expect(export.policies.count == 1 && policy.displayName == Self.name)
        #expect(policy.send == .managedApps && policy.receive == .allApps && policy.clipboard == .managedAppsWithPasteIn && policy.printBlocked && policy.saveAsBlocked)
        #expect(policy.allowedDataStorageLocations == [.oneDriveForBusiness, .sharePoint])
        #expect(policy.sources.file?.hasPrefix(root + "/" + policyFolder + "/") == true)
        #expect(export.skipped.map(\.description) == skipped.map { root + "/" + $0 })
        #expect(export.notes.first?.hasPrefix("'\(root)' is an \(layout) backup: its app protection policies are read from '\(root)/\(policyFolder)'") == true, "\(export.notes)")
        #expect(Array(export.notes.dropFirst()) == read.map { root + "/" + $0 })
        // Each assigned to "Acme staff": IntuneCD by name, the others by id (inline, or in IntuneBackupAndRestore's own file).
        #expect(policy.assignments == [tool == "intunecd" ? IntuneAssignment(kind: .include, groupName: "Acme staff") : IntuneAssignment(kind: .include, groupID: Self.staff)])
        #expect(policy.assignments?.first?.file == (tool == "intunebackupandrestore" ? root + "/App Protection Policies/Assignments/T_7c4e9a10-3b2d-4f6e-8a1c-0d9e8f7a6b5c - Acme - iOS - Org data in managed apps.json" : nil))
        // The policy folder itself reads the same policy (IntuneBackupAndRestore's with its Assignments/ inside it,
        // IntuneManagement's with the migration table of its parent, the export's root).
        let folder = try IntuneGraphJSON.read(path: root + "/" + policyFolder)
        #expect(folder.policies == export.policies)
        #expect(folder.notes == read.filter { $0.hasPrefix(policyFolder + "/") || $0.hasPrefix("MigrationTable.json") }.map { root + "/" + $0 })
        #expect(folder.facts.groups.map(\.id) == export.facts.groups.map(\.id) && folder.facts.groups.count == (tool == "intunemanagement" ? 1 : 0))
    }

    /// The Entra group the example backups assign their policy to (the devices file's "Acme staff").
    static let staff = "9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12"

    @Test("IntuneCD's backup has no apps (its list is not expanded): the app group names them; IntuneManagement's and IntuneBackupAndRestore's list them")
    func appsByTool() throws {
        let cd = try #require(try IntuneGraphJSON.read(path: Self.backups + "/intunecd").policies.first)
        #expect(cd.apps.isEmpty && cd.appGroupType == "allCoreMicrosoftApps")
        for tool in ["intunemanagement", "intunebackupandrestore"] {
            let policy = try #require(try IntuneGraphJSON.read(path: Self.backups + "/" + tool).policies.first)
            #expect(policy.apps.map(\.rawValue) == ["com.acme.hr", "com.acme.viewer", "com.microsoft.Office.Outlook"])
        }
    }

    @Test("the files of a backup by kind, for the readers of assignments, filters, groups and the migration table")
    func filesByKind() throws {
        let im = try #require(try IntuneExportFiles.list(Self.backups + "/intunemanagement"))
        #expect(im.layout == .intuneManagement && im.policyFolder == "AppProtection")
        #expect(im.paths(.migrationTable) == [Self.backups + "/intunemanagement/MigrationTable.json"])
        #expect(im.paths(.group) == [Self.backups + "/intunemanagement/Groups/Acme staff.json"])
        #expect(im.paths(.policy).count == 1)
        let ib = try #require(try IntuneExportFiles.list(Self.backups + "/intunebackupandrestore"))
        #expect(ib.layout == .intuneBackupAndRestore)
        #expect(ib.paths(.assignments) == [Self.backups + "/intunebackupandrestore/App Protection Policies/Assignments/T_7c4e9a10-3b2d-4f6e-8a1c-0d9e8f7a6b5c - Acme - iOS - Org data in managed apps.json"])
        #expect(ib.paths(.filter) == [Self.backups + "/intunebackupandrestore/Assignment Filters/iOS 17 and later.json"])
        #expect(ib.paths(.policy).count == 3)
        let cd = try #require(try IntuneExportFiles.list(Self.backups + "/intunecd"))
        #expect(cd.layout == .intuneCD && cd.paths(.filter).count == 1 && cd.paths(.notJSON).count == 1)
        #expect(cd.paths(.otherSetting) == [Self.backups + "/intunecd/Compliance Policies/Policies/Acme - iOS - Compliance_iosCompliancePolicy.json"])
        // A policy folder given itself has its tool's layout; any other folder is Graph JSON.
        let policyFolder = try #require(try IntuneExportFiles.list(Self.backups + "/intunecd/App Protection/"))
        #expect(policyFolder.layout == .intuneCD && policyFolder.policyFolder == nil && policyFolder.paths(.otherSetting).isEmpty)
        #expect(try IntuneExportFiles.list(Self.root.appendingPathComponent("Examples/intune/pilot").path)?.layout == .graphJSON)
        #expect(try IntuneExportFiles.list(Self.root.appendingPathComponent("Examples/intune/devices.json").path) == nil)
        // After reading, a policy folder's file that holds a filter or a group by its @odata.type is of that kind.
        let export = try IntuneGraphJSON.read(path: Self.backups + "/intunebackupandrestore")
        #expect(export.files?.paths(.policy).count == 3)
        try Self.folder(["AppProtection/p.json": Array(Self.policy.utf8),
                         "AppProtection/f.json": Array(##"{"@odata.type": "#microsoft.graph.deviceAndAppManagementAssignmentFilter", "displayName": "F"}"##.utf8)]) { path in
            let read = try IntuneGraphJSON.read(path: path)
            #expect(read.files?.paths(.filter) == [path + "/AppProtection/f.json"])
            #expect(read.skipped.map(\.reason) == ["it holds an assignment filter (#microsoft.graph.deviceAndAppManagementAssignmentFilter), not an app protection policy"])
        }
    }

    @Test("IntuneManagement with the organisation's folder, hidden folders left alone, and two backups in one folder refused")
    func organisationsAndHidden() throws {
        let utf16 = TextEncodingTests.utf16(Self.policy.replacingOccurrences(of: ", ", with: ",\r\n") + "\r\n")
        try Self.folder(["Contoso/AppProtection/P_T_1.json": utf16, "Contoso/MigrationTable.json": TextEncodingTests.utf16(#"{"TenantId": "t", "Objects": []}"#),
                         ".git/objects/ab/cdef.json": [0x78, 0x9C, 0x00], "README.md": Array("# backup\n".utf8)]) { path in
            let export = try IntuneGraphJSON.read(path: path)
            #expect(export.policies.map(\.displayName) == ["P"])
            #expect(export.notes == ["'\(path)' is an IntuneManagement backup: its app protection policies are read from '\(path)/Contoso/AppProtection'; its 1 other file holds other Intune settings, not read",
                                     "\(path)/Contoso/MigrationTable.json: IntuneManagement's migration table, read as the groups map (0 groups by object id)"])
            #expect(export.skipped.isEmpty)
        }
        try Self.folder(["a/App Protection/p.json": Array(Self.policy.utf8), "b/AppProtection/p.json": Array(Self.policy.utf8)]) { path in
            let error = Self.failure { () throws(FormatError) in try IntuneGraphJSON.read(path: path) }
            #expect(error?.description == "\(path): the folder holds the app protection policies of 2 backups ('a/App Protection', 'b/AppProtection'): give the one to read, or its backup's root")
        }
    }

    @Test("a managedAppPolicies list mixing platforms reads its iOS policies and names each entry it skipped")
    func mixedList() throws {
        let path = Self.root.appendingPathComponent("Examples/intune/managed-app-policies.json").path
        let export = try IntuneGraphJSON.read(path: path)
        #expect(export.policies.map(\.displayName) == [Self.name])
        #expect(export.skipped.map(\.description) == [
            "\(path) value[0] (Acme - Android - Org data in managed apps) skipped: it holds #microsoft.graph.androidManagedAppProtection, not an iOS app protection policy",
            "\(path) value[2] (Acme - Outlook - Org accounts only) skipped: it holds #microsoft.graph.targetedManagedAppConfiguration, not an iOS app protection policy",
            "\(path) value[3] (Acme - Windows - WIP without enrollment) skipped: it holds #microsoft.graph.windowsInformationProtectionPolicy, not an iOS app protection policy",
        ])
        // The same list's bytes, and an array of the same objects.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try IntuneGraphJSON.read(bytes, file: "l.json").map(\.displayName) == [Self.name])
        let array = ##"[{"@odata.type": "#microsoft.graph.androidManagedAppProtection", "displayName": "A"}, "## + Self.policy + "]"
        #expect(try IntuneGraphJSON.export(Array(array.utf8), file: "a.json").skipped.map(\.description) == ["a.json [0] (A) skipped: it holds #microsoft.graph.androidManagedAppProtection, not an iOS app protection policy"])
        // A list with no iOS policy at all is refused, naming the types it holds; an unknown type is still an error.
        let android = ##"{"value": [{"@odata.type": "#microsoft.graph.androidManagedAppProtection", "displayName": "A"}]}"##
        let none = Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array(android.utf8), file: "l.json") }
        #expect(none?.description == "l.json:1:1: no iOS app protection policy: the list's 1 entry holds other types (#microsoft.graph.androidManagedAppProtection), and none is an #microsoft.graph.iosManagedAppProtection")
        let typo = ##"{"value": [{"@odata.type": "#microsoft.graph.iosManagedAppProtections", "displayName": "A", "apps": []}]}"##
        #expect(Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array(typo.utf8), file: "l.json") }?.description.contains("unknown @odata.type") == true)
        // A page of several is still refused: reading it as the whole list would leave the policies of later pages out.
        let page = #"{"value": ["# + Self.policy + #"], "@odata.nextLink": "https://graph.microsoft.com/beta/deviceAppManagement/managedAppPolicies?$skiptoken=x"}"#
        #expect(Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array(page.utf8), file: "l.json") }?.description.contains("one page of several") == true)
    }

    @Test("YAML (IntuneCD --output=yaml) is refused with the fix, as a file and in a folder, never as a JSON quote error")
    func yaml() throws {
        let yaml = "'@odata.type': '#microsoft.graph.iosManagedAppProtection'\nallowedDataStorageLocations:\n- oneDriveForBusiness\ndisplayName: Acme\n"
        let fix = "the file is YAML (as IntuneCD writes with --output=yaml), not JSON, and is not read: run IntuneCD with --output=json (its default), or convert the file to JSON"
        #expect(Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array(yaml.utf8), file: "p.yaml") }?.description == "p.yaml:1: " + fix)
        // Told by its text when the name does not say so.
        #expect(Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array(yaml.utf8), file: "p.json") }?.description == "p.json:1: " + fix)
        try Self.folder(["App Protection/Acme_iosManagedAppProtection.yaml": Array(yaml.utf8), "App Protection/B_iosManagedAppProtection.yml": Array(yaml.utf8)]) { path in
            let error = Self.failure { () throws(FormatError) in try IntuneGraphJSON.read(path: path) }
            #expect(error?.description == "\(path)/App Protection/Acme_iosManagedAppProtection.yaml:1: the file is YAML (as IntuneCD writes with --output=yaml), not JSON, and is not read (nor the folder's 1 other YAML file): run IntuneCD with --output=json (its default), or convert the file to JSON")
        }
        // JSON that is merely malformed keeps the JSON reader's message.
        #expect(Self.failure { () throws(FormatError) in try IntuneGraphJSON.export(Array("{\"a\": }".utf8), file: "p.json") }?.description.hasPrefix("p.json:1:7: not valid JSON") == true)
        #expect(!IntuneGraphJSON.looksLikeYAML(Array("{\"displayName\": x}".utf8)) && !IntuneGraphJSON.looksLikeYAML(Array("not json at all".utf8)))
    }

    @Test("the vendor is told from UTF-16 bytes too, and lint, diff and eval given an Intune export name the verb that reads it")
    func detection() throws {
        let utf16 = TextEncodingTests.utf16(Self.policy)
        #expect(VendorDetection.holdsIntunePolicies(utf16) && VendorDetection.holdsIntunePolicies(Array(Self.policy.utf8)))
        #expect(!VendorDetection.holdsIntunePolicies(TextEncodingTests.utf16(#"{"global": {}}"#)) && VendorDetection.isFleetFile(TextEncodingTests.utf16(#"{"global": {}}"#)))
        #expect(VendorDetection.intuneVerb(for: "lint", path: "p.json", bytes: utf16)
            == "'p.json' holds Microsoft Intune app protection policies (Graph JSON), and lint reads AppConnect policy files: read it with 'openin-check fleet lint --fleet p.json --devices DEVICES'")
        #expect(VendorDetection.intuneVerb(for: "diff", path: "p.json", bytes: utf16)?.contains("'openin-check fleet diff OLD NEW --devices DEVICES'") == true)
        #expect(VendorDetection.intuneVerb(for: "eval", path: "p.json", bytes: utf16)?.contains("'openin-check eval --policy p.json --from BUNDLE_ID --channel CHANNEL [--devices DEVICES]'") == true)
        #expect(VendorDetection.intuneVerb(for: "lint", path: Self.backups + "/intunecd", bytes: nil) != nil)
        #expect(VendorDetection.intuneVerb(for: "lint", path: "p.json", bytes: Array(#"{"openInPolicy": "whitelist"}"#.utf8)) == nil)
    }

    @Test("a decision table's Intune policies and devices file read in UTF-16 too")
    func tables() throws {
        let policy = [UInt8](try Data(contentsOf: URL(fileURLWithPath: IntuneExportFilesNames.jsonFiles(under: Self.backups + "/intunemanagement/AppProtection")[0])))
        let devices = try String(contentsOf: Self.root.appendingPathComponent("Examples/intune/devices.json"), encoding: .utf8)
        try Self.folder(["p.json": policy, "d.json": TextEncodingTests.utf16(devices.replacingOccurrences(of: "\n", with: "\r\n"))]) { path in
            let table = "# T\n\nFleet: [Acme](\(path)/p.json), devices [d](\(path)/d.json), device employee-iphone\n\n"
                + "| id | from | channel | target | outcome | to | sender rule | receiver rule |\n|---|---|---|---|---|---|---|---|\n"
                + "| ok | com.acme.hr | document-interaction | com.acme.viewer | allow | com.acme.viewer | intune.send.managed-target | intune.receive.all-apps |\n"
            let cases = try DecisionTables.parse(table, file: path + "/t.md")
            #expect(cases.count == 1 && DecisionTables.run(cases[0]).passed)
        }
    }

    @Test("fleet fixes reads a backup as the readers do: its policy folder, in UTF-16, the other files left out")
    func fixes() throws {
        let root = Self.backups + "/intunemanagement"
        let devices = try Data(contentsOf: Self.root.appendingPathComponent("Examples/intune/devices.json"))
        let policies = try IntuneGraphJSON.read(path: root).policies
        let fleet: IntuneFleet
        do throws(IntuneFleet.LoadError) {
            fleet = try IntuneFleet.load(policies: policies, file: root, devices: ([UInt8](devices), "devices.json"))
        } catch {
            Issue.record("\(error)")
            return
        }
        let subject = try IntuneFixSubject(path: root, fleet: fleet, scope: FixScope())
        #expect(subject.documents.map(\.file) == [root + "/AppProtection/Acme - iOS - Org data in managed apps_T_7c4e9a10-3b2d-4f6e-8a1c-0d9e8f7a6b5c.json"])
        let list = Self.root.appendingPathComponent("Examples/intune/managed-app-policies.json").path
        let listed = try IntuneFixSubject(path: list, fleet: fleet, scope: FixScope())
        #expect(listed.locations.map(\.pointer) == [JSONPointer(["value", "1"])])
    }
}

/// The JSON files under a folder, for checking the examples' bytes.
enum IntuneExportFilesNames {
    static func jsonFiles(under path: String) -> [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).filter { $0.hasSuffix(".json") }.sorted().map { path + "/" + $0 }
    }
}
