import Foundation
import Testing

/// The Intune side of the CLI: translate, fleet eval and fleet diff on the bundled examples.
@Suite struct IntuneEndToEndTests {
    static let policy = "Examples/intune/acme-app-protection.json"
    static let devices = "Examples/intune/devices.json"

    @Test func translateToIntuneWritesGraphJSONAndReportsOnStderrWithExit2() throws {
        let run = try BuiltBinary.run(["translate", "--to", "intune", "Examples/fleet/acme.json"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("[\n  {\n    \"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\",\n    \"displayName\": \"HR\","))
        #expect(run.stderr.hasPrefix("Not expressible in Intune (18):\n- container policy \"HR\": openInPolicy: whitelist\n    chosen: "))
        #expect(!run.stdout.contains("Not expressible"))
        // Who each policy reaches is kept (each policy assigned to its labels' groups), and the apps the global policy
        // retires are reached by a policy that blocks every transfer, reported.
        #expect(run.stdout.contains("\"groupName\": \"Employees\"") && run.stdout.contains("\"displayName\": \"Retired apps (outside Employees)\""))
        #expect(run.stderr.contains("- the global policy (outside Employees): authorizeAppsWithoutContainerPolicy: false (com.acme.hr, com.mobileiron.ios.emailplus retired where no container policy of theirs applies)\n"))
        // Every flow the translation opens is named, with both decisions: here a drop AppConnect refuses to apps that are not AppConnect apps.
        #expect(run.stderr.hasSuffix("""
            - device "contractor-ipad": drag-and-drop com.acme.viewer → com.acme.hr, com.google.chrome.ios, com.getdropbox.Dropbox, com.apple.mobilemail, any other app, decided end to end
                chosen: allow (intune.drag-and-drop.all-apps)
                changes: newly readable: deny (drag-and-drop.policy-non-appconnect-app) becomes allow

            """))
    }

    @Test func aFleetAndItsTranslationDiffedNameNoProfileReachedDifferently() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("who-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let devices = folder.appendingPathComponent("devices.json").path, policies = folder.appendingPathComponent("intune.json")
        let run = try BuiltBinary.run(["translate", "--to", "intune", "Examples/fleet/acme.json", "--devices-out", devices])
        try run.stdout.write(to: policies, atomically: true, encoding: .utf8)
        let diff = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", policies.path, "--devices", devices])
        #expect(diff.stdout.hasPrefix("AppConnect → Intune: end-to-end flows that decide differently\n") && !diff.stdout.contains("reached by a different set"), "\(diff.stdout)\(diff.stderr)")
        // One group taken from a profile: its apps are reached by another set, and the diff says so.
        let text = try String(contentsOfFile: devices, encoding: .utf8)
        try text.replacingOccurrences(of: "\"groups\": [\n        \"Contractors\",", with: "\"groups\": [").write(toFile: devices, atomically: true, encoding: .utf8)
        let moved = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", policies.path, "--devices", devices])
        #expect(moved.stdout.contains("reached by a different set of policies (1): who gets which policy changed (translated names, Rules/intune/README.md):\n"
                                      + "  contractor-ipad  com.acme.viewer  \"Viewer\" → \"Retired apps\"\n"), "\(moved.stdout)\(moved.stderr)")
        // The same in JSON (a record after the flows) and in --rows (a list after the tables, which `test` passes over).
        let json = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", policies.path, "--devices", devices, "--format", "json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let reached = records.filter { $0["group"] as? String == "reached differently" }
        #expect(reached.count == 1 && reached[0]["device"] as? String == "contractor-ipad" && reached[0]["app"] as? String == "com.acme.viewer"
                && (reached[0]["old"] as? [String: Any])?["policies"] as? [String] == ["Viewer"] && (reached[0]["new"] as? [String: Any])?["policies"] as? [String] == ["Retired apps"],
                "\(json.stdout)")
        #expect(records.last?["group"] as? String == "reached differently" && records.count > 1)
        let rows = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", policies.path, "--devices", devices, "--rows"])
        #expect(rows.stdout.hasSuffix("## Reached by a different set of policies (AppConnect → Intune)\n\n- contractor-ipad, `com.acme.viewer`: `Viewer` → `Retired apps`\n\n"), "\(rows.stdout)")
        let table = folder.appendingPathComponent("rows.md").path
        try rows.stdout.write(toFile: table, atomically: true, encoding: .utf8)
        let tested = try BuiltBinary.run(["test", table])
        #expect(tested.status == 0 && tested.stdout.contains(" passed, 0 failed"), "\(tested.stdout)\(tested.stderr)")
    }

    @Test func translateToAppConnectWritesAFleetTheFleetVerbsRead() throws {
        let run = try BuiltBinary.run(["translate", "--to", "appconnect", Self.policy, "--devices", Self.devices])
        #expect(run.status == 2)
        #expect(run.stdout.contains("\"containerPolicies\": ["))
        #expect(run.stderr.contains("apps: com.microsoft.office.outlook\n    chosen: com.microsoft.Office.Outlook, as the devices file installs it"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("translated-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try run.stdout.write(to: file, atomically: true, encoding: .utf8)
        let eval = try BuiltBinary.run(["fleet", "eval", "--fleet", file.path, "--device", "employee-iphone", "--from", "com.acme.hr",
                                        "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox", "--format", "jsonl"])
        #expect(eval.stdout.contains("\"outcome\":\"substitute-dummy-file\""), "\(eval.stdout)\(eval.stderr)")
    }

    @Test func fleetEvalOnIntunePoliciesDecidesEndToEnd() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.policy, "--devices", Self.devices, "--device", "employee-iphone",
                                       "--from", "com.acme.hr", "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox", "--format", "jsonl"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("\"outcome\":\"deliver-encrypted\",\"to\":\"com.getdropbox.Dropbox\",\"sender\":{\"app\":\"com.acme.hr\",\"rule\":\"intune.send.unmanaged-target-encrypted\""))
        let managed = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.policy, "--devices", Self.devices, "--device", "employee-iphone",
                                           "--from", "com.acme.hr", "--channel", "document-interaction", "--target", "com.microsoft.Office.Outlook"])
        #expect(managed.status == 0, "\(managed.stdout)")
        #expect(managed.stdout.contains("receiver  allow  [intune.receive.all-apps]"))
        let stream = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.policy, "--devices", Self.devices, "--device", "contractor-ipad", "-"],
                                         stdin: "{\"id\": 1, \"from\": \"com.acme.viewer\", \"channel\": \"mail-compose\"}\n{\"from\": \"com.acme.viewer\", \"channel\": \"open-from\"}\n")
        #expect(stream.status == 1)
        let lines = stream.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"rule\":\"intune.mail-compose.blocked\"") == true)
        #expect(lines.last?.contains("\"error\"") == true)
    }

    @Test func intunePoliciesWithoutDevicesIsAUsageError() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.policy, "--from", "com.acme.hr", "--channel", "print"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("holds Intune app protection policies: give the devices they are asked about with '--devices FILE'"))
    }

    @Test func crossVendorDiffGroupsAndRowsRunAsTests() throws {
        let run = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", Self.policy, "--devices", Self.devices, "--device", "contractor-ipad"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("AppConnect → Intune: end-to-end flows that decide differently\n\nnewly readable ("))
        #expect(run.stdout.contains("\nno longer readable ("))
        // deny → deliver-encrypted: the receiving app can read nothing either way, so not a leak.
        let leaks = try #require(run.stdout.range(of: "newly readable (")?.upperBound), blocked = try #require(run.stdout.range(of: "\nno longer readable (")?.lowerBound)
        #expect(!run.stdout[leaks..<blocked].contains("deny → deliver-encrypted"))
        let changed = try #require(run.stdout.range(of: "\nchanged form (")?.upperBound)
        #expect(run.stdout[changed...].contains("  contractor-ipad  activity-view com.acme.hr → com.google.chrome.ios  deny → deliver-encrypted  [intune.send.unmanaged-target-encrypted]\n"))
        #expect(run.stdout.contains("\nchanged form ("))
        #expect(run.stdout.contains("contractor-ipad  document-interaction com.acme.viewer → com.getdropbox.Dropbox  allow → deliver-encrypted  [intune.send.unmanaged-target-encrypted]"))
        // Who gets which policy: HR, retired there under AppConnect, and the viewer are reached by the export's one policy.
        #expect(run.stdout.contains("\nreached by a different set of policies (2): who gets which policy changed (translated names, Rules/intune/README.md):\n"
                                    + "  contractor-ipad  com.acme.hr  \"Retired apps\" → \"Acme - iOS - App Protection\"\n"
                                    + "  contractor-ipad  com.acme.viewer  \"Viewer\" → \"Acme - iOS - App Protection\"\n\n11 newly readable"), "\(run.stdout)")
        let rows = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", Self.policy, "--devices", Self.devices, "--device", "contractor-ipad", "--rows"])
        #expect(rows.stdout.hasPrefix("## Newly readable (AppConnect → Intune)\n\n| id | policy | whitelist | context |"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: file) }
        try rows.stdout.write(to: file, atomically: true, encoding: .utf8)
        let test = try BuiltBinary.run(["test", file.path])
        #expect(test.status == 0, "\(test.stdout)")
        #expect(test.stdout.contains(" passed, 0 failed"))
    }

    @Test func badIntuneInputIsAnErrorWithFileLineAndPath() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try "{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\",\n \"displayName\": \"P\", \"apps\": [],\n \"allowedInboundDataTransferSources\": \"allapps\"}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try BuiltBinary.run(["translate", "--to", "appconnect", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(file.path):3:39: allowedInboundDataTransferSources: unknown managedAppDataTransferLevel value \"allapps\""), "\(run.stderr)")
        #expect(run.stderr.contains("Did you mean 'allApps'?"))
    }
}

extension IntuneEndToEndTests {
    @Test func fleetMatrixOnIntunePolicies() throws {
        let run = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.policy, "--devices", Self.devices, "--device", "employee-iphone"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("document-interaction\n  sender                        1      2      3      4      5      6      7      8\n  com.acme.hr                   -      allow  allow  allow  encr   encr   encr   encr\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  7  com.apple.mobilemail (native Mail)\n  8  any other app\n"))
        #expect(run.stdout.hasSuffix("encr: deliver-encrypted (Intune delivers the file encrypted: only policy-managed apps can read it).\n"))
        let json = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.policy, "--devices", Self.devices, "--device", "contractor-ipad", "--format", "json"])
        #expect(json.stdout.contains("\"deliver-encrypted\""))
    }
}

extension IntuneEndToEndTests {
    @Test func fleetLintOnIntunePolicies() throws {
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.policy, "--devices", Self.devices])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Examples/intune/acme-app-protection.json:78: info IN008 ingestion-list-ignored: "))
        // Once per policy, naming the profiles where it protects an installed app (not once per profile).
        #expect(run.stdout.contains(#"Examples/intune/acme-app-protection.json:24: info IN005 mail-never-managed: policy "Acme - iOS - App Protection" sends org data to policy-managed apps only (managedApps), on 2 profiles ("employee-iphone", "contractor-ipad") where"#))
        #expect(run.stdout.hasSuffix("0 errors, 0 warnings, 2 info\n"))
    }
}

extension IntuneEndToEndTests {
    @Test func fleetPathsOnIntunePolicies() throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.policy, "--devices", Self.devices, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "outside"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout == """
            zone of trust: the policy-managed apps on employee-iphone (4); outside: every other app, native Mail and any app no policy targets
            device employee-iphone: com.acme.hr reaches 3 apps, 0 outside the policy-managed apps; no path to outside

            """)
    }

    /// An Intune hop that opens a URL carries it, in text and JSON, as a fleet's does: both print through one writer.
    @Test func fleetPathsOnIntunePrintsAURLHopsURL() throws {
        // The example policy, with Dropbox's scheme exempted: content leaves by open-url.
        let text = try String(contentsOfFile: Self.policy, encoding: .utf8)
        #expect(text.contains("itms-services;\""))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("intune-url-hop-\(UUID().uuidString).json")
        try text.replacingOccurrences(of: "itms-services;\"", with: "itms-services;dbapi-2;\"").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let args = ["fleet", "paths", "--fleet", file.path, "--devices", Self.devices, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "com.getdropbox.Dropbox"]
        let run = try BuiltBinary.run(args)
        #expect(run.status == 2)
        #expect(run.stdout.contains("    com.acme.hr → com.getdropbox.Dropbox  open-url dbapi-2://report.pdf  [intune.url.exempted-scheme]\n"))
        let json = try BuiltBinary.run(args + ["--format", "json"])
        #expect(json.status == 2)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(records.first?["installed"] as? Bool == true)
        let paths = try #require(records.first?["paths"] as? [[String: Any]])
        let hop = try #require((paths.first?["hops"] as? [[String: Any]])?.first)
        #expect(hop["channel"] as? String == "open-url")
        #expect(hop["url"] as? String == "dbapi-2://report.pdf")
        #expect(hop["rules"] as? [String] == ["intune.url.exempted-scheme"])
    }

    /// `--from all` on Intune policies is each policy-managed app installed on the device, in the profile's
    /// order, run alone one after the other: the same blocks (text) and records (JSON), the same exit status.
    @Test func fleetPathsFromEveryAppOnIntunePolicies() throws {
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.devices))) as? [String: Any])
        let profiles = try #require(devices["devices"] as? [String: [String: Any]])
        let base = ["fleet", "paths", "--fleet", Self.policy, "--devices", Self.devices]
        for (device, managed) in [("employee-iphone", ["com.acme.hr", "com.acme.viewer", "com.mobileiron.ios.emailplus", "com.microsoft.Office.Outlook"]),
                                  ("contractor-ipad", ["com.acme.hr", "com.acme.viewer"])] {
            // The managed apps are installed apps, in the profile's order (the policy targets them).
            let installed = try #require(profiles[device]?["installed"] as? [String])
            #expect(installed.filter(managed.contains) == managed)
            for extra in [[], ["--to", "outside"], ["--to", "com.acme.viewer"], ["--max-hops", "1"]] {
                let every = try BuiltBinary.run(base + ["--device", device, "--from", "all"] + extra)
                let one = try managed.map { try BuiltBinary.run(base + ["--device", device, "--from", $0] + extra) }
                #expect(every.stdout == BuiltBinary.zonedOnce(one.map(\.stdout)), "\(device) \(extra)")
                #expect(every.status == (one.contains { $0.status == 2 } ? 2 : 0))
                #expect(every.stdout.components(separatedBy: "\ndevice \(device): ").count == managed.count + 1)
                let json = try BuiltBinary.run(base + ["--device", device, "--from", "all", "--format", "json"] + extra)
                let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
                let expected = try managed.map { app in
                    let single = try BuiltBinary.run(base + ["--device", device, "--from", app, "--format", "json"] + extra)
                    return try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [[String: Any]]).first!
                }
                #expect(records.count == managed.count)
                #expect(records.map { NSDictionary(dictionary: $0) } == expected.map { NSDictionary(dictionary: $0) })
                #expect(json.status == every.status)
            }
        }
        // Without --device: every device in file order, each of its managed apps.
        let all = try BuiltBinary.run(base + ["--from", "all", "--format", "json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(records.compactMap { $0["device"] as? String } == Array(repeating: "employee-iphone", count: 4) + Array(repeating: "contractor-ipad", count: 2))
        #expect(records.allSatisfy { $0["installed"] as? Bool == true })
        // An app not installed has no documents and no paths, as on a fleet.
        let absent = try BuiltBinary.run(base + ["--device", "contractor-ipad", "--from", "com.microsoft.Office.Outlook", "--to", "outside"])
        #expect(absent.status == 0)
        #expect(absent.stdout == """
            zone of trust: the policy-managed apps on contractor-ipad (2); outside: every other app, native Mail and any app no policy targets
            device contractor-ipad: com.microsoft.Office.Outlook is not installed: no documents, no paths (installed on employee-iphone)

            """)
    }
}

extension IntuneEndToEndTests {
    @Test func fleetEvalExplainNamesPolicyAndSource() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.policy, "--devices", Self.devices, "--device", "employee-iphone", "--from", "com.acme.hr",
                                       "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox", "--explain", "--format", "json"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("\"explanation\": {\n    \"sender\": {\n      \"policy\": \"app protection policy \\\"Acme - iOS - App Protection\\\"\",\n      \"step\": 2,"), "\(run.stdout)")
        #expect(run.stdout.contains("\"source\": \"Microsoft Learn, iOS/iPadOS app protection policy settings: Data transfer; Microsoft Learn, App protection policies overview: iOS share extension\""))
    }
}

extension IntuneEndToEndTests {
    /// `eval` of an export whose policies are assigned to groups, without a devices file, cannot know whom they
    /// reach: it says to give the devices file (not an option `eval` does not take), and decides nothing.
    @Test func evalWithoutDevicesOfAssignedPoliciesAsksForTheDevicesFile() throws {
        let run = try BuiltBinary.run(["eval", "--policy", "Examples/intune/by-level/app-protection.json", "--from", "com.microsoft.Office.Word",
                                       "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("is assigned to groups, and no device profile says which groups its user belongs to: give a devices file (--devices FILE)"))
        #expect(!run.stderr.contains("--assume-assigned"))
    }
}

extension IntuneEndToEndTests {
    /// An assignment that names its group by id, whose name in the groups map a profile carries in another
    /// letter case: refused at the assignment's line (it decided `allow`, the policy silently reaching no one).
    @Test func groupNamedByIdCarriedInAnotherCaseIsRefused() throws {
        let source = try String(contentsOfFile: "Examples/intune/by-level/devices.json", encoding: .utf8)
        let devices = source.replacingOccurrences(of: #""groups": ["Acme staff"], "osVersion": "16.7""#, with: #""groups": ["acme staff"], "osVersion": "16.7""#)
        #expect(devices != source)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("case-\(UUID().uuidString).json").path
        try devices.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", "Examples/intune/by-level/app-protection.json", "--devices", path, "--device", "personal-iphone",
                                       "--from", "com.microsoft.Office.Word", "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(#"app-protection.json:19: policy "Acme - iOS - Unmanaged devices - Printing disabled" includes the group "Acme staff", and the profile "personal-iphone""#))
        #expect(run.stderr.contains("differ only by letter case (U+0041 vs U+0061)"))
    }
}
