import Foundation
import Testing

/// What `fleet paths` adds for a reader who must act: the zone of trust and the counts first, every
/// route's last hops (`deliveredBy`), and on every hop the settings that let it through and the
/// `fleet eval` command that decides it alone, for both vendors.
@Suite struct FleetPathsSettingsEndToEndTests {
    static let intune = ["--fleet", "Examples/intune/acme-app-protection.json", "--devices", "Examples/intune/devices.json"]

    /// Runs `command` (a `reproduce` line) with `sh -c` in the package root, `openin-check` being the built binary.
    static func shell(_ command: String) throws -> BinaryRun {
        let binary = try #require(BuiltBinary.url)
        #expect(command.hasPrefix("openin-check fleet eval "))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'" + binary.path + "'" + command.dropFirst("openin-check".count)]
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryRun(stdout: String(decoding: data, as: UTF8.self), stderr: "", status: process.terminationStatus)
    }

    @Test("one app's paths on two devices: when the last device's search fails, nothing is written, not even the first device's paths")
    func lastDeviceFailsWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fleet = directory.appendingPathComponent("fleet.json").path
        // The paste of a secure copy on "last" needs secureServicesAvailable, which only "first" says: "last" fails when searched.
        try """
        {"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "appconnect", "openFromPolicy": "appconnect",
                    "pasteboardPolicy": "securecopy", "printPolicy": "unauthorized", "dragAndDropPolicy": "appconnect"},
         "containerPolicies": [{"name": "A", "app": "com.corp.a", "labels": ["L"]}, {"name": "B", "app": "com.corp.b", "labels": ["L"]}],
         "apps": [{"bundleID": "com.corp.a", "appconnect": true}, {"bundleID": "com.corp.b", "appconnect": true}],
         "devices": {"first": {"labels": ["L"], "installed": ["com.corp.a", "com.corp.b"], "secureServicesAvailable": true},
                     "last": {"labels": ["L"], "installed": ["com.corp.a", "com.corp.b"]}}}
        """.write(toFile: fleet, atomically: true, encoding: .utf8)
        for format in ["text", "json"] {
            let failed = try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "com.corp.a", "--format", format])
            #expect(failed.status == 1)
            #expect(failed.stdout == "", "\(format)")
            #expect(failed.stderr.contains("set devices.last.secureServicesAvailable to true or false"), "\(failed.stderr)")
            // The first device alone is written: its paths were held, not lost.
            let first = try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "com.corp.a", "--device", "first", "--format", format])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("com.corp.b"))
        }
    }

    static func records(_ arguments: [String]) throws -> [[String: Any]] {
        let run = try BuiltBinary.run(["fleet", "paths"] + arguments + ["--format", "json"])
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    static func hops(_ records: [[String: Any]]) -> [[String: Any]] {
        records.flatMap { ($0["paths"] as? [[String: Any]] ?? []).flatMap { $0["hops"] as? [[String: Any]] ?? [] } }
    }

    /// Every hop's reproduce command, run alone, decides that hop: it prints allow (exit 0), or redirect to Email+.
    static func reproduceEveryHop(_ arguments: [String]) throws -> Int {
        var commands: [String: String] = [:]
        for hop in hops(try records(arguments + ["--from", "all"])) {
            commands[try #require(hop["reproduce"] as? String)] = hop["to"] as? String
        }
        for (command, to) in commands {
            let run = try shell(command)
            if run.stdout.contains("redirect") {
                #expect(to == "com.mobileiron.ios.emailplus", "\(command): \(run.stdout)")
            } else {
                #expect(run.status == 0, "\(command): \(run.stdout)")
                #expect(run.stdout.hasPrefix("device ") ? run.stdout.contains(": allow") : run.stdout.contains("\n  outcome   allow"), "\(command): \(run.stdout)")
            }
        }
        return commands.count
    }

    @Test func reproduceCommandsRunAndAllow() throws {
        #expect(try Self.reproduceEveryHop(["--fleet", "Examples/fleet/acme.json"]) > 20)
        #expect(try Self.reproduceEveryHop(["--fleet", "Examples/fleet/acme-reviewed.json"]) > 10)
        #expect(try Self.reproduceEveryHop(Self.intune) > 10)
    }

    /// A fleet file whose name a shell would split or expand: the reproduce line quotes it, and runs.
    @Test func reproduceQuotesThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("a28 fleet \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("it's $HOME.json")
        try Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json")).write(to: file)
        let hop = try #require(Self.hops(try Self.records(["--fleet", file.path, "--device", "employee-iphone", "--from", "com.acme.hr"])).first)
        let command = try #require(hop["reproduce"] as? String)
        #expect(command.contains("'\\''"))
        let run = try Self.shell(command)
        #expect(run.status == 0 && run.stdout.hasPrefix("device employee-iphone: allow"), "\(command): \(run.stdout)")
    }

    @Test func appConnectRecordsLeadWithZoneAndSummary() throws {
        let record = try #require(try Self.records(["--fleet", "Examples/fleet/acme.json", "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "outside"]).first)
        #expect(record["zone"] as? String == "the authorized AppConnect apps on employee-iphone (3); outside: every other app, native Mail and any app the fleet does not list")
        #expect(record["summary"] as? [String: Int] == ["reachable": 7, "outside": 5, "paths": 5])
        let paths = try #require(record["paths"] as? [[String: Any]])
        let outlook = try #require(paths.first { $0["to"] as? String == "com.microsoft.Office.Outlook" })
        #expect(outlook["deliveredBy"] as? [String] == ["com.acme.viewer", "com.google.chrome.ios", "com.getdropbox.Dropbox", "com.apple.mobilemail", "any other app"])
        #expect(outlook["deliveredByMore"] == nil)
        let hops = try #require(outlook["hops"] as? [[String: Any]])
        let settings = try #require(hops.first?["settings"] as? [[String: Any]])
        #expect(settings.map { $0["side"] as? String } == ["sender", "sender", "receiver"])
        #expect(settings.first.map { NSDictionary(dictionary: $0) } == NSDictionary(dictionary: [
            "side": "sender", "app": "com.acme.hr", "policy": "HR", "via": "container policy by label Employees",
            "key": "containerPolicies[0].openInPolicy", "value": "whitelist", "file": "Examples/fleet/acme.json", "line": 13,
        ]))
        #expect(settings.last?["via"] as? String == "global default (container policy \"Viewer\" sets no openFromPolicy)")
        #expect(settings.last?["line"] as? Int == 6)
        #expect(hops.last?["reproduce"] as? String
            == "openin-check fleet eval --fleet Examples/fleet/acme.json --device employee-iphone --from com.acme.viewer --channel document-interaction --target com.microsoft.Office.Outlook")
        // An app that does not enforce names what says so: its entry's appconnect.
        let outside = try #require(try Self.records(["--fleet", "Examples/fleet/acme.json", "--device", "employee-iphone", "--from", "com.getdropbox.Dropbox"]).first)
        let first = try #require(Self.hops([outside]).first?["settings"] as? [[String: Any]])
        #expect(first.first?["key"] as? String == "apps[5].appconnect" && first.first?["value"] as? String == "false")
    }

    @Test func intuneRecordsLeadWithZoneAndSummary() throws {
        let record = try #require(try Self.records(Self.intune + ["--device", "employee-iphone", "--from", "com.microsoft.Office.Outlook"]).first)
        #expect(record["zone"] as? String == "the policy-managed apps on employee-iphone (4); outside: every other app, native Mail and any app no policy targets")
        #expect(record["summary"] as? [String: Int] == ["reachable": 3, "outside": 0, "paths": 0])
        let paths = try #require(record["paths"] as? [[String: Any]])
        #expect(paths.first?["deliveredBy"] as? [String] == ["com.acme.viewer", "com.mobileiron.ios.emailplus", "com.microsoft.Office.Outlook"])
        let settings = try #require(Self.hops([record]).first?["settings"] as? [[String: Any]])
        #expect(settings.map { NSDictionary(dictionary: $0) } == [
            NSDictionary(dictionary: ["side": "sender", "app": "com.microsoft.Office.Outlook", "policy": "Acme - iOS - App Protection", "via": "Intune targeting",
                                      "key": "allowedOutboundDataTransferDestinations", "value": "managedApps", "file": "Examples/intune/acme-app-protection.json", "line": 24]),
            NSDictionary(dictionary: ["side": "receiver", "app": "com.acme.hr", "policy": "Acme - iOS - App Protection", "via": "Intune targeting",
                                      "key": "allowedInboundDataTransferSources", "value": "allApps", "file": "Examples/intune/acme-app-protection.json", "line": 22]),
        ])
        // Text: the zone line, then each hop with its settings.
        let text = try BuiltBinary.run(["fleet", "paths"] + Self.intune + ["--device", "employee-iphone", "--from", "com.microsoft.Office.Outlook"])
        #expect(text.stdout.hasPrefix("zone of trust: the policy-managed apps on employee-iphone (4); outside: every other app, native Mail and any app no policy targets\n"))
        #expect(text.stdout.contains("""
                delivered by com.acme.viewer, com.mobileiron.ios.emailplus, com.microsoft.Office.Outlook
                com.microsoft.Office.Outlook → com.acme.hr  document-interaction  [intune.send.managed-target, intune.receive.all-apps]
                  sender com.microsoft.Office.Outlook: allowedOutboundDataTransferDestinations = managedApps  (Acme - iOS - App Protection, Intune targeting, Examples/intune/acme-app-protection.json:24)
                  receiver com.acme.hr: allowedInboundDataTransferSources = allApps  (Acme - iOS - App Protection, Intune targeting, Examples/intune/acme-app-protection.json:22)

            """))
    }
}
