import Foundation
import Testing

@testable import OpenInKit

/// `fleet fixes` proposing assignment changes on Intune policies (`Rules/intune/README.md`, "Changing who a
/// policy reaches"): each with its JSON Patch of the policy's `assignments`, verified by running `fleet paths`
/// on the patched file.
@Suite struct IntuneAssignmentFixesEndToEndTests {
    static let file = "Examples/intune/by-level/app-protection.json"
    static let arguments = ["--fleet", file, "--devices", "Examples/intune/by-level/devices.json", "--conflicts", "least-restrictive"]

    @Test("least-restrictive: excluding a group from the loose policy, or narrowing its group with a filter, closes the paths it opens; fleet paths on each patched file agrees, and no path is new")
    func assignmentFixesCloseWhatTheyClaim() throws {
        let run = try BuiltBinary.run(["fleet", "fixes", "--format", "json"] + Self.arguments)
        #expect(run.status == 2, "\(run.stderr)")
        let report = try FleetFixesCLITests.json(run.stdout)
        let before = try FleetFixesCLITests.paths(Self.arguments)
        #expect(report["paths"] as? Int == before.count && !before.isEmpty)
        let fixes = report["fixes"] as? [[String: Any]] ?? []
        let changes = fixes.compactMap { $0["change"] as? String }
        let exclusion = #"Exclude the group "Acme staff" (9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12) from policy "Acme - iOS - Contractors - All apps": add an exclusionGroupAssignmentTarget to its assignments."#
        #expect(changes.first == exclusion, "\(changes)")
        #expect(changes.contains(#"Narrow the assignment of the group "Contractors" (c0a8e1f2-5b6c-4d7e-9f80-a1b2c3d4e5f6) in policy "Acme - iOS - Contractors - All apps" with the exclude filter "iOS 17 and later" (only where its rule does not hold)."#))
        // Never a change that leaves an app no policy reaches (unprotected is not closed): the unmanaged policy is the only one on personal iPhones.
        #expect(!changes.contains { $0.contains(#"from policy "Acme - iOS - Unmanaged devices - Printing disabled""#) })
        let original = try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: Self.file))))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-assignment-fixes-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var checked = 0
        for fix in fixes where (fix["change"] as? String)?.hasPrefix("Exclude the group") == true || (fix["change"] as? String)?.hasPrefix("Narrow the assignment") == true {
            let operations = try (fix["patch"] as? [Any] ?? []).map { element in
                try JSONPatchOperation(json: try JSONReader().read(Array(try JSONSerialization.data(withJSONObject: element))))
            }
            #expect(operations.allSatisfy { $0.path.description.hasPrefix("/value/2/assignments/") }, "\(operations)")
            let patched = directory.appendingPathComponent("p\(checked).json").path
            try Data(JSONWriter.pretty(try JSONPatch.apply(operations, to: original)).utf8).write(to: URL(fileURLWithPath: patched))
            var arguments = Self.arguments
            arguments[1] = patched
            let after = try FleetFixesCLITests.paths(arguments)
            #expect(after.isSubset(of: before), "\(fix["change"] ?? "")")
            #expect(before.count - after.count == fix["closes"] as? Int && after.count == fix["remaining"] as? Int, "\(fix["change"] ?? ""): \(after)")
            checked += 1
        }
        #expect(checked >= 3)
        // The plan's patch is the exclusion.
        let plan = try #require(report["plan"] as? [String: Any])
        #expect((plan["changes"] as? [String])?.contains(exclusion) == true, "\(plan)")
    }

    @Test("an IntuneBackupAndRestore backup of the same policies: the same changes, each a patch of the policy's assignments file (its value), verified on the patched folder")
    func assignmentFixesInAssignmentsFiles() throws {
        // The by-level export written as IntuneBackupAndRestore writes it: a file per policy, its assignments in Assignments/ID - NAME.json.
        let original = try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: Self.file))))
        guard case .object(let root) = original, case .array(let list)? = root["value"] else { Issue.record("not a list"); return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-ibr-fixes-\(UUID().uuidString)")
        let policies = directory.appendingPathComponent("App Protection Policies"), assignments = policies.appendingPathComponent("Assignments")
        try FileManager.default.createDirectory(at: assignments, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String: URL] = [:]
        for element in list {
            guard case .object(let policy) = element, case .string(let id)? = policy["id"], case .string(let name)? = policy["displayName"],
                  case .array(let entries)? = policy["assignments"] else { Issue.record("a policy without id, name or assignments"); return }
            let members = policy.members.filter { $0.key != "assignments" }
            try Data(JSONWriter.pretty(.object(JSONObject(members: members.map { .init($0.key, $0.value) }))).utf8).write(to: policies.appendingPathComponent("\(name).json"))
            let file = assignments.appendingPathComponent("\(id) - \(name).json")
            let response = JSONValue.object(JSONObject(members: [.init("@odata.context", .string("https://graph.microsoft.com/beta/$metadata#deviceAppManagement/iosManagedAppProtections('\(id)')/assignments")),
                                                                 .init("value", .array(entries))]))
            try Data(JSONWriter.pretty(response).utf8).write(to: file)
            files[name] = file
        }
        var arguments = Self.arguments
        arguments[1] = directory.path
        let inline = try FleetFixesCLITests.json(try BuiltBinary.run(["fleet", "fixes", "--format", "json"] + Self.arguments).stdout)
        let run = try BuiltBinary.run(["fleet", "fixes", "--format", "json"] + arguments)
        #expect(run.status == 2, "\(run.stderr)")
        let report = try FleetFixesCLITests.json(run.stdout)
        let fixes = report["fixes"] as? [[String: Any]] ?? []
        let assignmentChanges = { (fixes: [[String: Any]]) in
            fixes.compactMap { $0["change"] as? String }.filter { $0.hasPrefix("Exclude the group") || $0.hasPrefix("Narrow the assignment") }
        }
        #expect(!assignmentChanges(fixes).isEmpty && assignmentChanges(fixes) == assignmentChanges(inline["fixes"] as? [[String: Any]] ?? []))
        let before = try FleetFixesCLITests.paths(arguments)
        var checked = 0
        for fix in fixes where assignmentChanges([fix]).count == 1 {
            let operations = try (fix["patch"] as? [Any] ?? []).map { element in
                try JSONPatchOperation(json: try JSONReader().read(Array(try JSONSerialization.data(withJSONObject: element))))
            }
            let file = try #require(files["Acme - iOS - Contractors - All apps"])
            #expect(fix["file"] as? String == file.path && operations.allSatisfy { $0.path.description.hasPrefix("/value/") }, "\(fix)")
            // The folder with the patched assignments file, searched again.
            let saved = try Data(contentsOf: file)
            let patched = try JSONPatch.apply(operations, to: try JSONReader().read(Array(saved)))
            try Data(JSONWriter.pretty(patched).utf8).write(to: file)
            let after = try FleetFixesCLITests.paths(arguments)
            try saved.write(to: file)
            #expect(after.isSubset(of: before) && before.count - after.count == fix["closes"] as? Int, "\(fix["change"] ?? ""): \(after)")
            checked += 1
        }
        #expect(checked >= 3)
    }

    @Test("a fleet whose every app has one policy (Acme) gets no assignment change: each would leave the app unprotected")
    func noAssignmentChangeThatUnprotects() throws {
        let run = try BuiltBinary.run(["fleet", "fixes", "--fleet", "Examples/intune/acme-app-protection-loosened.json", "--devices", "Examples/intune/devices.json", "--format", "json"])
        #expect(!run.stdout.contains("Exclude the group") && !run.stdout.contains("Narrow the assignment"), "\(run.stdout)")
    }
}
