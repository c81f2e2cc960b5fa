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
}
