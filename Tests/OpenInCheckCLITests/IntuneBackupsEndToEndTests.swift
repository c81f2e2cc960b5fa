import Foundation
import Testing

/// Backups as admins keep them, through the CLI: a UTF-16 export with `eval --devices`, a backup's
/// root with `--fleet`, YAML refused with the fix, and the AppConnect verbs naming the verb that
/// reads an Intune export.
@Suite struct IntuneBackupsEndToEndTests {
    static let devices = "Examples/intune/devices.json"
    static let backups = "Examples/intune/backups"

    /// A scratch file holding `bytes`, removed after `body`.
    static func file(_ name: String, _ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-backups-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        try body(file.path)
    }

    /// The example export in UTF-16LE with a byte order mark and CRLF, as Windows PowerShell 5.1's Out-File writes it.
    static func utf16Export() throws -> [UInt8] {
        let text = try String(contentsOfFile: "Examples/intune/acme-app-protection.json", encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
        return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test func aUTF16ExportDecidesWithEvalDevicesAndFleetEvalAsItsUTF8Twin() throws {
        let request = ["--from", "com.acme.hr", "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox"]
        let utf8 = try BuiltBinary.run(["eval", "--policy", "Examples/intune/acme-app-protection.json", "--devices", Self.devices] + request)
        #expect(utf8.status == 2)
        try Self.file("export.json", try Self.utf16Export()) { path in
            let eval = try BuiltBinary.run(["eval", "--policy", path, "--devices", Self.devices] + request)
            #expect(eval.status == 2, "\(eval.stderr)")
            #expect(eval.stdout == utf8.stdout && eval.stderr.isEmpty)
            let fleet = try BuiltBinary.run(["fleet", "eval", "--fleet", path, "--devices", Self.devices] + request)
            #expect(fleet.status == 2 && fleet.stdout.contains("deliver-encrypted"), "\(fleet.stderr)")
        }
    }

    @Test func fleetLintOnEachBackupRootNamesWhatItSkipped() throws {
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.backups + "/intunebackupandrestore", "--devices", Self.devices])
        #expect(run.status == 0, "\(run.stderr)")
        let root = Self.backups + "/intunebackupandrestore"
        #expect(run.stderr == """
            note: '\(root)' is an IntuneBackupAndRestore backup: its app protection policies are read from '\(root)/App Protection Policies'
            note: \(root)/Assignment Filters/: 1 file of assignment filters, read as the filters assignments name
            note: \(root)/App Protection Policies/Assignments/: 1 file of policy assignments (IntuneBackupAndRestore): 1 joined to its policy by id
            note: \(root)/App Protection Policies/Acme - Android - Org data in managed apps.json skipped: it holds #microsoft.graph.androidManagedAppProtection, not an iOS app protection policy
            note: \(root)/App Protection Policies/Acme - Windows - WIP without enrollment.json skipped: it holds #microsoft.graph.windowsInformationProtectionPolicy, not an iOS app protection policy

            """)
        #expect(run.stdout.contains("\(root)/App Protection Policies/Acme - iOS - Org data in managed apps.json:12: info IN005"))
        for tool in ["intunecd", "intunemanagement"] {
            let other = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.backups + "/" + tool, "--devices", Self.devices])
            #expect(other.status == 0 && other.stdout.contains("Acme - iOS - Org data in managed apps"), "\(other.stderr)")
        }
        let list = try BuiltBinary.run(["fleet", "lint", "--fleet", "Examples/intune/managed-app-policies.json", "--devices", Self.devices])
        #expect(list.status == 0)
        #expect(list.stderr.hasPrefix("note: Examples/intune/managed-app-policies.json value[0] (Acme - Android - Org data in managed apps) skipped: it holds #microsoft.graph.androidManagedAppProtection"))
    }

    @Test func aUTF16DevicesFileReads() throws {
        let text = try String(contentsOfFile: Self.devices, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
        try Self.file("devices.json", [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) { path in
            let run = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.backups + "/intunemanagement", "--devices", path])
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    @Test func yamlIsRefusedWithTheFix() throws {
        let yaml = "'@odata.type': '#microsoft.graph.iosManagedAppProtection'\ndisplayName: Acme\n"
        try Self.file("Acme_iosManagedAppProtection.yaml", Array(yaml.utf8)) { path in
            for arguments in [["fleet", "lint", "--fleet", path, "--devices", Self.devices], ["eval", "--policy", path, "--from", "com.acme.hr", "--channel", "print"]] {
                let run = try BuiltBinary.run(arguments)
                #expect(run.status == 1)
                #expect(run.stderr == "Error: \(path):1: the file is YAML (as IntuneCD writes with --output=yaml), not JSON, and is not read: run IntuneCD with --output=json (its default), or convert the file to JSON\n")
            }
        }
    }

    @Test func lintAndDiffGivenAnIntuneExportNameTheFleetVerbs() throws {
        let export = "Examples/intune/acme-app-protection.json"
        let lint = try BuiltBinary.run(["lint", export])
        #expect(lint.status == 1)
        #expect(lint.stdout.hasPrefix("\(export):1: error OI000 invalid-input: '\(export)' holds Microsoft Intune app protection policies (Graph JSON), and lint reads AppConnect policy files: read it with 'openin-check fleet lint --fleet \(export) --devices DEVICES'\n"))
        #expect(!lint.stdout.contains("Known keys"))
        let folder = try BuiltBinary.run(["lint", Self.backups + "/intunecd"])
        #expect(folder.status == 1)
        #expect(folder.stderr.contains("and lint reads AppConnect policy files: read it with 'openin-check fleet lint --fleet \(Self.backups)/intunecd --devices DEVICES'"))
        let diff = try BuiltBinary.run(["diff", export, "Examples/intune/acme-app-protection-loosened.json"])
        #expect(diff.status == 1)
        #expect(diff.stderr == "Error: '\(export)' holds Microsoft Intune app protection policies (Graph JSON), and diff reads AppConnect policy files: read it with 'openin-check fleet diff OLD NEW --devices DEVICES' (each side an Intune export, or one an AppConnect fleet)\n")
        // An AppConnect policy file is linted and diffed as before.
        #expect(try BuiltBinary.run(["lint", "Examples/policies/whitelist-mail-pair.json"]).stdout.contains("holds Microsoft Intune") == false)
    }

    /// A copy of the example backup `tool` in a scratch folder, edited by `edit` (relative path → new text, or `nil` to remove), removed after `body`.
    static func backup(_ tool: String, _ edits: [String: String?] = [:], _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intune-backups-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.backups + "/" + tool), to: folder)
        for (path, text) in edits {
            let file = folder.appendingPathComponent(path)
            if let text { try Data(text.utf8).write(to: file) } else { try FileManager.default.removeItem(at: file) }
        }
        try body(folder.path)
    }

    /// The example devices file with `edit` applied to its text.
    static func devicesFile(_ edit: (String) -> String, _ body: (String) throws -> Void) throws {
        try Self.file("devices.json", Array(edit(try String(contentsOfFile: Self.devices, encoding: .utf8)).utf8), body)
    }

    @Test func eachBackupDecidesByItsAssignmentsAndIntuneManagementsMigrationTableIsTheGroupsMap() throws {
        let request = ["--from", "com.acme.hr", "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox", "--device", "employee-iphone"]
        // The devices file without its groups map: IntuneManagement's migration table names the group its policy assigns by id.
        try Self.devicesFile({ $0.replacingOccurrences(of: ",\n  \"groups\": {\"9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12\": \"Acme staff\"}", with: "") }) { devices in
            #expect(!(try String(contentsOfFile: devices, encoding: .utf8)).contains("9f2c41d7"))
            let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.backups + "/intunemanagement", "--devices", devices] + request)
            #expect(run.status == 2 && run.stdout.contains("deliver-encrypted"), "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("MigrationTable.json: IntuneManagement's migration table, read as the groups map (1 group by object id)") && !run.stderr.contains("not exported"))
            // Without the table, the group's id is known nowhere: refused, never read as reaching no one.
            try Self.backup("intunemanagement", ["MigrationTable.json": nil]) { root in
                let without = try BuiltBinary.run(["fleet", "eval", "--fleet", root, "--devices", devices] + request)
                #expect(without.status == 1 && without.stderr.contains("includes the group 9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12, which no profile names"), "\(without.stderr)")
            }
        }
        // IntuneBackupAndRestore's policy reaches through its Assignments/ file: a profile outside its group is not protected.
        try Self.devicesFile({ $0.replacingOccurrences(of: "\"groups\": [\"Acme staff\"]", with: "\"groups\": [\"Visitors\"]") }) { devices in
            let root = Self.backups + "/intunebackupandrestore"
            let run = try BuiltBinary.run(["fleet", "eval", "--fleet", root, "--devices", devices] + request)
            #expect(run.status == 0 && !run.stdout.contains("deliver-encrypted"), "\(run.stdout)\(run.stderr)")
            let member = try BuiltBinary.run(["fleet", "eval", "--fleet", root, "--devices", Self.devices] + request)
            #expect(member.status == 2 && member.stdout.contains("deliver-encrypted"), "\(member.stdout)\(member.stderr)")
        }
    }

    @Test func aGroupSpeltInAnotherCaseIsRefusedAtTheAssignmentsFileNamingTheCodePoints() throws {
        try Self.devicesFile({ $0.replacingOccurrences(of: "\"Acme staff\"", with: "\"acme staff\"") }) { devices in
            let root = Self.backups + "/intunecd"
            let run = try BuiltBinary.run(["fleet", "lint", "--fleet", root, "--devices", devices])
            #expect(run.status == 1)
            #expect(run.stderr.hasSuffix("Error: \(root)/App Protection/Acme - iOS - Org data in managed apps_iosManagedAppProtection.json:33: policy \"Acme - iOS - Org data in managed apps\" includes the group \"Acme staff\", and the profile \"employee-iphone\" (devices.employee-iphone.groups in '\(devices)') carries \"acme staff\": they differ only by letter case (U+0041 vs U+0061), and groups match byte for byte, so the policy would reach no one there: write the group exactly as Entra ID names it, the same in both files\n"), "\(run.stderr)")
        }
    }

    @Test func lintNamesAFilterThatExcludesEveryProfile() throws {
        let policy = "App Protection/Acme - iOS - Org data in managed apps_iosManagedAppProtection.json"
        let text = try String(contentsOfFile: Self.backups + "/intunecd/" + policy, encoding: .utf8)
            .replacingOccurrences(of: "\"deviceAndAppManagementAssignmentFilterId\": null,\n                    \"deviceAndAppManagementAssignmentFilterType\": \"none\"",
                                  with: "\"deviceAndAppManagementAssignmentFilterId\": \"iOS 17 and later\",\n                    \"deviceAndAppManagementAssignmentFilterType\": \"include\"")
        #expect(text.contains("\"include\""))
        try Self.backup("intunecd", [policy: text]) { root in
            for (version, found) in [("16.7", true), ("17.5", false)] {
                try Self.devicesFile({ $0.replacingOccurrences(of: "\"mdmEnrolled\":", with: "\"osVersion\": \"\(version)\", \"mdmEnrolled\":") }) { devices in
                    let run = try BuiltBinary.run(["fleet", "lint", "--fleet", root, "--devices", devices])
                    #expect(run.status == (found ? 2 : 0), "\(run.stderr)")
                    #expect(run.stdout.contains("\(root)/\(policy):30: warning IN016 filter-excludes-every-profile: policy \"Acme - iOS - Org data in managed apps\" includes the group \"Acme staff\" through the include filter \"iOS 17 and later\"") == found, "\(run.stdout)")
                }
            }
        }
    }
}
