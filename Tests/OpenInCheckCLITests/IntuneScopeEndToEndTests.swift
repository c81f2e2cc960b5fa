import Foundation
import Testing

/// The command line's options about who Intune policies reach: `--assume-assigned` and `--conflicts`.
@Suite struct IntuneScopeEndToEndTests {
    static let fleet = ["--fleet", "Examples/intune/acme-app-protection.json", "--devices", "Examples/intune/devices.json"]

    @Test("--conflicts takes most-restrictive or least-restrictive; anything else is a usage error with Did you mean")
    func conflictsMode() throws {
        let bad = try BuiltBinary.run(["fleet", "paths"] + Self.fleet + ["--from", "com.acme.hr", "--conflicts", "least-restrictiv"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown --conflicts mode") && bad.stderr.contains("least-restrictive"), "\(bad.stderr)")
        for mode in ["most-restrictive", "least-restrictive"] {
            let run = try BuiltBinary.run(["fleet", "paths"] + Self.fleet + ["--from", "com.acme.hr", "--conflicts", mode])
            #expect([0, 2].contains(run.status) && run.stderr.isEmpty, "\(mode): \(run.stderr)")
        }
        let notTaken = try BuiltBinary.run(["fleet", "paths"] + Self.fleet + ["--from", "com.acme.hr", "--assume-assigned", "--conflicts"])
        #expect(notTaken.status == 64, "\(notTaken.stderr)")
    }

    @Test("an unassigned policy protects nothing, and says so once; --assume-assigned analyses it for every profile")
    func assumeAssigned() throws {
        let folder = TemporaryFile.directory.appendingPathComponent("unassigned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/intune/acme-app-protection.json"), encoding: .utf8)
        let start = try #require(text.range(of: "\"assignments\": ["))
        let unassigned = text[..<start.lowerBound] + "\"assignments\": []\n}\n"
        try Data(unassigned.utf8).write(to: folder.appendingPathComponent("p.json"))
        let arguments = ["fleet", "eval", "--fleet", folder.appendingPathComponent("p.json").path, "--devices", "Examples/intune/devices.json",
                         "--device", "employee-iphone", "--from", "com.acme.hr", "--channel", "print", "--format", "jsonl"]
        let plain = try BuiltBinary.run(arguments)
        #expect(plain.stderr.components(separatedBy: "is not assigned: it protects no app").count == 2, "\(plain.stderr)")
        let assumed = try BuiltBinary.run(arguments + ["--assume-assigned"])
        #expect(assumed.stderr.contains("analysed as if assigned to every profile"), "\(assumed.stderr)")
        #expect(plain.stdout != assumed.stdout, "\(plain.stdout)\n\(assumed.stdout)")
    }

    @Test("without a devices file, two policies over one app decide by level on eval's own profile (unmanaged), or together: no refusal")
    func severalPoliciesWithoutDevices() throws {
        // The by-level pair without its assignments (an export without $expand=assignments: every profile in scope).
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/intune/by-level/app-protection.json"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        var kept: [String] = [], skipping = false
        for line in lines {
            if line.contains("\"assignments\": [") { skipping = true; continue }
            if skipping { if line.trimmingCharacters(in: .whitespaces).hasPrefix("]") { skipping = false }; continue }
            kept.append(line)
        }
        // The line before each removed list ended with a comma that now precedes the policy's closing brace.
        lines = kept
        for index in lines.indices.dropLast() where lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("}") && lines[index].hasSuffix(",") {
            lines[index].removeLast()
        }
        let unexported = lines.joined(separator: "\n")
        #expect(!unexported.contains("\"assignments\"") && unexported.contains("\"targetedAppManagementLevels\": \"unmanaged\""))
        let folder = TemporaryFile.directory.appendingPathComponent("by-level-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("p.json")
        try Data(unexported.utf8).write(to: file)
        let print = ["eval", "--policy", file.path, "--from", "com.microsoft.Office.Word", "--channel", "print"]
        // Eval's own profile is not enrolled: Word is unmanaged there, so the unmanaged-devices policy (printing disabled) decides alone.
        let byLevel = try BuiltBinary.run(print)
        #expect(byLevel.status == 2 && byLevel.stdout.contains("deny") && byLevel.stderr.contains("assignments were not exported"), "\(byLevel.stdout)\(byLevel.stderr)")
        // Every policy for both levels: they reach Word together and merge, most restrictive (the default): printing blocked.
        let both = unexported.replacingOccurrences(of: "\"targetedAppManagementLevels\": \"unmanaged\"", with: "\"targetedAppManagementLevels\": \"unspecified\"")
            .replacingOccurrences(of: "\"targetedAppManagementLevels\": \"mdm\"", with: "\"targetedAppManagementLevels\": \"unspecified\"")
        try Data(both.utf8).write(to: file)
        let merged = try BuiltBinary.run(print + ["--explain"])
        #expect(merged.status == 2 && merged.stdout.contains("(merged, most-restrictive)") && merged.stdout.contains("printBlocked decided by \"Acme - iOS - Unmanaged devices - Printing disabled\""),
                "\(merged.stdout)\(merged.stderr)")
        // eval takes --conflicts as the fleet verbs do: the auditor's worst case lets the print through; an unknown mode is a usage error before anything is read.
        let least = try BuiltBinary.run(print + ["--conflicts", "least-restrictive"])
        #expect(least.status == 0 && least.stdout.contains("[intune.print.allowed]"), "\(least.stdout)\(least.stderr)")
        let typo = try BuiltBinary.run(print + ["--conflicts", "least"])
        #expect(typo.status == 64 && typo.stderr.hasPrefix("Error: unknown --conflicts mode 'least'") && typo.stderr.contains("Did you mean 'least-restrictive'?"), "\(typo.stderr)")
    }

    @Test("eval --policy takes --assume-assigned: a template assigned to no one decides as if it reached the profile; the flag is refused for an AppConnect policy")
    func evalAssumeAssigned() throws {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/intune/acme-app-protection.json"), encoding: .utf8)
        let start = try #require(text.range(of: "\"assignments\": ["))
        let folder = TemporaryFile.directory.appendingPathComponent("eval-unassigned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("p.json")
        try Data((text[..<start.lowerBound] + "\"assignments\": []\n}\n").utf8).write(to: file)
        let print = ["eval", "--policy", file.path, "--devices", "Examples/intune/devices.json", "--device", "employee-iphone", "--from", "com.acme.hr", "--channel", "print"]
        let plain = try BuiltBinary.run(print)
        #expect(plain.stdout.contains("[intune.unmanaged.allow]") && plain.stderr.contains("is not assigned: it protects no app"), "\(plain.stdout)\(plain.stderr)")
        let assumed = try BuiltBinary.run(print + ["--assume-assigned"])
        #expect(!assumed.stdout.contains("[intune.unmanaged.allow]") && assumed.stderr.contains("analysed as if assigned to every profile (--assume-assigned)"), "\(assumed.stdout)\(assumed.stderr)")
        let appConnect = try BuiltBinary.run(["eval", "--policy", "Examples/policies/authorized.json", "--channel", "print", "--assume-assigned"])
        #expect(appConnect.status == 64 && appConnect.stderr.contains("'--assume-assigned' is for an Intune app protection policy"), "\(appConnect.stderr)")
    }
}
