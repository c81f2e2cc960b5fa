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
}
