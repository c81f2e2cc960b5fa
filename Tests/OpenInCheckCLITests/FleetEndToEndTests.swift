import Foundation
import Testing

/// `openin-check fleet`: each subverb on Examples/fleet, its formats, exit statuses and errors.
@Suite struct FleetEndToEndTests {
    static let fleet = "Examples/fleet/acme.json"

    /// A misspelt `outside` is an error on every gate that takes `--to`, never a check of "any other
    /// app" alone (which would pass while fleet apps outside the zone are reached).
    @Test func misspeltOutsideNeverPasses() throws {
        for verb in ["paths", "fixes"] {
            for typo in ["outsde", "Outside", "outside ", "outsid", "0utside"] {
                let run = try BuiltBinary.run(["fleet", verb, "--fleet", Self.fleet, "--from", "com.acme.hr", "--to", typo])
                #expect(run.status == 1, "\(verb) --to '\(typo)': exit \(run.status)")
                #expect(run.stderr.contains("write --to outside") || run.stderr.contains("(or give outside)"), "\(verb) --to '\(typo)': \(run.stderr)")
            }
        }
        // A real app the fleet does not list is still any other app.
        let other = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "com.acme.hr", "--to", "com.example.unlisted"])
        #expect(other.status == 2, "\(other.stderr)")
    }

    @Test func evalFromFlagsOnEveryDevice() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--from", "com.acme.hr", "--channel", "document-interaction",
                                       "--target", "com.acme.viewer", "--format", "jsonl"])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"device":"employee-iphone","from":"com.acme.hr","channel":"document-interaction","target":"com.acme.viewer","outcome":"allow","to":"com.acme.viewer","sender":{"app":"com.acme.hr","rule":"document.listed-target""#))
        #expect(lines[0].contains(#""receiver":{"app":"com.acme.viewer","rule":"open-from.listed-source","outcome":"allow""#))
        #expect(lines[1].hasPrefix(#"{"device":"contractor-ipad","from":"com.acme.hr","channel":"document-interaction","target":"com.acme.viewer","outcome":"substitute-dummy-file""#))
        #expect(lines[1].hasSuffix(#""receiver":null}"#))
    }

    @Test func evalExplainNamesPolicyAndLabel() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr",
                                       "--channel", "paste", "--target", "com.getdropbox.Dropbox", "--explain"])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("device employee-iphone: deny\n"))
        #expect(run.stdout.contains("    sender    pasteboardPolicy: global policy\n"))
        #expect(run.stdout.contains("    sender    openInPolicy: container policy \"HR\" (label \"Employees\")\n"))
        #expect(run.stdout.contains("  receiver  none: nothing reaches another app\n"))
        let json = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr",
                                        "--channel", "document-interaction", "--target", "com.mobileiron.ios.emailplus", "--explain", "--format", "json"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let explanation = try #require(record["explanation"] as? [String: [String: Any]])
        #expect((explanation["receiver"]?["controls"] as? [String: String])?["openFromPolicy"] == "container policy \"Email+\" (label \"Employees\")")
        #expect((explanation["receiver"]?["inputs"] as? [String])?.first == "the Open From policy is WHITELIST (ACOpenFromPolicyWhitelist)")
        #expect(explanation["sender"]?["authorization"] as? String == "authorized by the container policy \"HR\" (label \"Employees\")")
    }

    @Test func evalStreamKeepsEveryLine() throws {
        let input = """
            {"id": 1, "from": "com.acme.viewer", "channel": "document-interaction", "target": "com.getdropbox.Dropbox"}
            {"id": 2, "from": "com.acme.hr", "channel": "open-from"}
            {"id": 3, "from": "com.acme.hr", "chanel": "paste"}

            """
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--device", "employee-iphone", "-"], stdin: input)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""id":1,"device":"employee-iphone""#) && lines[0].contains(#""outcome":"allow""#))
        #expect(lines[1].hasPrefix(#"{"line":2,"id":2,"error":"unknown fleet channel \"open-from\". open-from is the receiving side"#))
        #expect(lines[2].hasPrefix(#"{"line":3,"id":3,"error":"chanel: unknown key. Did you mean 'channel'?"#))
    }

    @Test func pathsGateOnOutside() throws {
        let leak = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "outside"])
        #expect(leak.status == 2)
        #expect(leak.stdout.contains("""
              com.getdropbox.Dropbox  2 hops  OUTSIDE
                delivered by com.acme.viewer, com.microsoft.Office.Outlook, com.google.chrome.ios, com.apple.mobilemail, any other app
                com.acme.hr → com.acme.viewer  document-interaction  [document.listed-target, open-from.listed-source]
                  sender com.acme.hr: containerPolicies[0].openInPolicy = whitelist  (HR, container policy by label Employees, Examples/fleet/acme.json:13)
                  sender com.acme.hr: containerPolicies[0].openInWhitelist[0] = com.acme.viewer  (HR, container policy by label Employees, Examples/fleet/acme.json:13)
                  receiver com.acme.viewer: global.openFromPolicy = appconnect  (global policy, global default (container policy "Viewer" sets no openFromPolicy), Examples/fleet/acme.json:6)
                com.acme.viewer → com.getdropbox.Dropbox  document-interaction  [authorized.allow]
                  sender com.acme.viewer: containerPolicies[1].openInPolicy = authorized  (Viewer, container policy by label Employees, Examples/fleet/acme.json:16)

            """))
        #expect(leak.stdout.hasPrefix("zone of trust: the authorized AppConnect apps on employee-iphone (3); outside: every other app, native Mail and any app the fleet does not list\n"))
        let oneHop = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "outside", "--max-hops", "1"])
        #expect(oneHop.status == 0)
        #expect(oneHop.stdout.contains("no path to outside"))
        let reviewed = try BuiltBinary.run(["fleet", "paths", "--fleet", "Examples/fleet/acme-reviewed.json", "--from", "com.acme.hr", "--to", "outside"])
        #expect(reviewed.status == 0)
        let json = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "com.getdropbox.Dropbox", "--format", "json"])
        #expect(json.status == 2)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let paths = try #require(object?.first?["paths"] as? [[String: Any]])
        #expect(paths.count == 1)
        #expect((paths[0]["hops"] as? [[String: Any]])?.count == 2)
    }

    /// `--from all` is every installed fleet app's `--from A`, in file order, on every device: the same
    /// blocks (text) and records (JSON), the same exit status.
    @Test func pathsFromEveryApp() throws {
        // The fleet's apps in file order, with the devices that install each (as the fleet file says).
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.fleet))) as? [String: Any])
        let apps = try #require(file["apps"] as? [[String: Any]]).compactMap { $0["bundleID"] as? String }
        let devices = try #require(file["devices"] as? [String: [String: Any]])
        for device in ["employee-iphone", "contractor-ipad"] {
            let installed = try #require(devices[device]?["installed"] as? [String])
            let starts = apps.filter(installed.contains)
            #expect(starts.count >= 3)
            for extra in [[], ["--to", "outside"], ["--to", "com.getdropbox.Dropbox"], ["--max-hops", "1"]] {
                let every = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", device, "--from", "all"] + extra)
                let one = try starts.map { try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", device, "--from", $0] + extra) }
                #expect(every.stdout == BuiltBinary.zonedOnce(one.map(\.stdout)), "\(device) \(extra)")
                #expect(every.status == (one.contains { $0.status == 2 } ? 2 : 0))
                let json = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", device, "--from", "all", "--format", "json"] + extra)
                let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
                let expected = try one.indices.map { index in
                    let single = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", device, "--from", starts[index], "--format", "json"] + extra)
                    return try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [[String: Any]]).first!
                }
                #expect(records.count == starts.count)
                #expect(records.map { NSDictionary(dictionary: $0) } == expected.map { NSDictionary(dictionary: $0) })
                #expect(json.status == every.status)
            }
        }
        // Without --device: every device, each installed app of it.
        let all = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "all", "--format", "json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(Set(records.compactMap { $0["device"] as? String }) == ["employee-iphone", "contractor-ipad"])
        #expect(records.allSatisfy { $0["installed"] as? Bool == true })
        // The help names it.
        let help = try BuiltBinary.run(["fleet", "--help"])
        #expect(help.stdout.contains("--from ID|all"))
    }

    @Test func matrixFormats() throws {
        let text = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.fleet, "--device", "employee-iphone"])
        #expect(text.status == 0)
        // Native Mail has a column of its own (it is on every device, always outside, and a destination of paths).
        #expect(text.stdout.contains("  7  com.apple.mobilemail (native Mail)\n  8  any other app\n"))
        #expect(text.stdout.contains("document-interaction\n  sender                        1      2      3      4      5      6      7      8\n  com.acme.hr                   -      allow  deny   dummy  dummy  dummy  dummy  dummy\n"))
        let json = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.fleet, "--format", "json"])
        #expect(json.status == 0)
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(devices.count == 2)
        let channels = try #require(devices[0]["channels"] as? [String: [[Any]]])
        #expect(channels["document-interaction"]?.count == 6)
        #expect(channels["document-interaction"]?.first?.count == 8)
        #expect((devices[0]["receivers"] as? [String])?.suffix(2) == ["com.apple.mobilemail", "any other app"])
        // The viewer shares to native Mail; open-url has no cell for it (mailto: goes to the mail app).
        #expect(channels["activity-view"]?[1][6] as? String == "allow")
        #expect(channels["open-url"]?[1][6] is NSNull)
        let markdown = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.fleet, "--device", "employee-iphone", "--format", "markdown"])
        #expect(markdown.stdout.contains("| sender | `com.acme.hr` |"))
        #expect(markdown.stdout.contains(" | `com.apple.mobilemail` | `any other app` |\n"))
        #expect(markdown.stdout.contains("| `com.acme.viewer` | allow | - | allow | allow | allow | allow | allow | allow |\n"))
    }

    /// `keyboard` in every fleet verb that decides it: eval (flags and a stream), the matrix's keyboard line in each
    /// format, same-vendor and cross-vendor diff (a third-party keyboard newly allowed is a leak, exit 2).
    @Test func keyboardAcrossTheFleetVerbs() throws {
        let refusing = "Examples/fleet/acme-keyboards.json"
        let eval = try BuiltBinary.run(["fleet", "eval", "--fleet", refusing, "--device", "employee-iphone", "--from", "com.acme.hr",
                                        "--channel", "keyboard", "--target", "com.example.swiftkey"])
        #expect(eval.status == 2)
        #expect(eval.stdout.contains("  sender    com.acme.hr: deny  [keyboard.custom-refused-by-config]"))
        #expect(eval.stdout.contains("  receiver  none: a keyboard extension is not an app receiving a document: the sender alone decides\n"))
        let stream = try BuiltBinary.run(["fleet", "eval", "--fleet", refusing, "--device", "employee-iphone", "-"], stdin: """
            {"id": 1, "from": "com.acme.viewer", "channel": "keyboard", "target": "com.example.swiftkey"}
            {"id": 2, "from": "com.acme.viewer", "channel": "keyboard"}
            {"id": 3, "from": "com.getdropbox.Dropbox", "channel": "keyboard", "target": "com.example.swiftkey"}
            {"id": 4, "from": "com.acme.hr", "channel": "keyboard", "url": "https://example.com"}

            """)
        let lines = stream.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].contains(#""outcome":"deny","sender":{"app":"com.acme.viewer","rule":"keyboard.custom-refused-by-app""#) && lines[0].hasSuffix(#""receiver":null}"#))
        #expect(lines[1].contains(#""rule":"keyboard.system""#) && lines[1].contains(#""outcome":"allow""#))
        #expect(lines[2].contains(#""outcome":"allow","to":"com.example.swiftkey","sender":{"app":"com.getdropbox.Dropbox","rule":"not-enforcing.allow""#))
        #expect(lines[3].hasPrefix(#"{"line":4,"id":4,"error":"channel keyboard does not take 'url'"#))

        let text = try BuiltBinary.run(["fleet", "matrix", "--fleet", refusing, "--device", "employee-iphone"])
        #expect(text.stdout.contains("""

            keyboard (typing in the sender)
              sender                        third-party  system
              com.acme.hr                   deny         allow
              com.acme.viewer               deny         allow
              com.mobileiron.ios.emailplus  allow        allow

            """))
        let json = try BuiltBinary.run(["fleet", "matrix", "--fleet", refusing, "--format", "json"])
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(devices.count == 2)
        #expect(devices[0]["keyboard"] as? [[String]] == [["deny", "allow"], ["deny", "allow"], ["allow", "allow"], ["allow", "allow"], ["allow", "allow"], ["allow", "allow"]])
        // On the contractor iPad the HR configuration does not apply (label Employees), and Email+ and Outlook are not installed.
        let contractor = try #require(devices[1]["keyboard"] as? [Any])
        #expect(contractor.map { ($0 as? [String])?.first ?? "null" } == ["allow", "deny", "null", "null", "allow", "allow"])
        let markdown = try BuiltBinary.run(["fleet", "matrix", "--fleet", refusing, "--device", "employee-iphone", "--format", "markdown"])
        #expect(markdown.stdout.contains("**keyboard** (typing in the sender)\n\n| sender | third-party | system |\n|---|---|---|\n| `com.acme.hr` | deny | allow |\n"))

        let diff = try BuiltBinary.run(["fleet", "diff", refusing, Self.fleet])
        #expect(diff.status == 2)
        #expect(diff.stdout == """
            + employee-iphone flow opened: keyboard com.acme.hr → third-party keyboard  (deny → allow)
            + employee-iphone flow opened: keyboard com.acme.viewer → third-party keyboard  (deny → allow)
            + contractor-ipad flow opened: keyboard com.acme.viewer → third-party keyboard  (deny → allow)
            3 opened, 0 closed

            """)
        let back = try BuiltBinary.run(["fleet", "diff", Self.fleet, refusing, "--device", "contractor-ipad"])
        #expect(back.status == 0)
        #expect(back.stdout == "- contractor-ipad flow closed: keyboard com.acme.viewer → third-party keyboard  (allow → deny)\n0 opened, 1 closed\n")

        // To Intune (Allow third-party keyboards) and back to the refusing fleet.
        let intune = ["Examples/intune/acme-app-protection.json", "--devices", "Examples/intune/devices.json", "--device", "employee-iphone"]
        let toIntune = try BuiltBinary.run(["fleet", "diff", refusing] + intune + ["--format", "json"])
        #expect(toIntune.status == 2)
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(toIntune.stdout.utf8)) as? [[String: Any]])
        let keyboards = changes.filter { $0["channel"] as? String == "keyboard" }
        #expect(keyboards.map { "\($0["group"] ?? "") \($0["from"] ?? "") \($0["target"] ?? "")" }
                == ["newly readable com.acme.hr third-party-keyboard.openin-check", "newly readable com.acme.viewer third-party-keyboard.openin-check"])
        let fromIntune = try BuiltBinary.run(["fleet", "diff", "Examples/intune/acme-app-protection.json", refusing, "--devices", "Examples/intune/devices.json",
                                              "--device", "employee-iphone"])
        #expect(fromIntune.stdout.contains("  employee-iphone  keyboard com.acme.hr → third-party keyboard  allow → deny  [keyboard.custom-refused-by-config]\n"))
        #expect(fromIntune.stdout.contains("  employee-iphone  keyboard com.acme.viewer → third-party keyboard  allow → deny  [keyboard.custom-refused-by-app]\n"))
        #expect(!fromIntune.stdout.contains("system keyboard"))
    }

    @Test func lintAndDiff() throws {
        let lint = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.fleet])
        #expect(lint.status == 2)
        #expect(lint.stdout.contains("Examples/fleet/acme.json:16: warning FL002 leak-hub"))
        #expect(lint.stdout.contains("warning FL003 open-from-refuses (device employee-iphone): com.acme.hr may send documents to com.mobileiron.ios.emailplus"))
        let github = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "github"])
        #expect(github.status == 2)
        #expect(github.stdout.hasPrefix("::warning file=Examples/fleet/acme.json,line=16,title=FL002 leak-hub::the container policy \"Viewer\" sets Open In to AUTHORIZED"))
        let markdown = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.fleet, "--format", "markdown"])
        #expect(markdown.stdout.hasPrefix("| severity | check | where | what | fix |\n"))
        let clean = try BuiltBinary.run(["fleet", "lint", "--fleet", "Examples/fleet/acme-reviewed.json"])
        #expect(clean.status == 0)
        // Error findings exit 2 like warnings (as `lint`); 1 stays for a fleet that cannot be read, so CI can tell them apart.
        let errors = try BuiltBinary.run(["fleet", "lint", "--fleet", "Examples/fleet/lint-mistakes.json"])
        #expect(errors.status == 2)
        #expect(errors.stdout.contains("error FL008 config-key-misspelled: the app configuration \"Default com.acme.hr Configuration\" sets \"MI_AC_DISABLE_SCHEME_BLOCKNG\", which is not MI_AC_DISABLE_SCHEME_BLOCKING"))
        let unreadable = try BuiltBinary.run(["fleet", "lint", "--fleet", "Examples/fleet/no-such-fleet.json"])
        #expect(unreadable.status == 1)
        let diff = try BuiltBinary.run(["fleet", "diff", Self.fleet, "Examples/fleet/acme-reviewed.json", "--device", "employee-iphone"])
        #expect(diff.status == 2)
        #expect(diff.stdout.contains("- employee-iphone leak-path closed: com.acme.hr ⇒ com.getdropbox.Dropbox"))
        #expect(diff.stdout.contains("+ employee-iphone flow opened: document-interaction com.acme.hr → com.mobileiron.ios.emailplus  (deny → allow)"))
        let back = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme-reviewed.json", Self.fleet])
        #expect(back.status == 2)
        let same = try BuiltBinary.run(["fleet", "diff", Self.fleet, Self.fleet])
        #expect(same.status == 0)
        #expect(same.stdout == "0 opened, 0 closed\n")
    }

    @Test func badInputAndUsage() throws {
        let missing = try BuiltBinary.run(["fleet", "paths", "--from", "com.acme.hr"])
        #expect(missing.status == 64)
        let subverb = try BuiltBinary.run(["fleet", "path", "--fleet", Self.fleet])
        #expect(subverb.status == 64)
        #expect(subverb.stderr.contains("Did you mean 'paths'?"))
        let device = try BuiltBinary.run(["fleet", "matrix", "--fleet", Self.fleet, "--device", "employee-phone"])
        #expect(device.status == 1)
        #expect(device.stderr.contains("Did you mean 'employee-iphone'?"))
        let policy = try BuiltBinary.run(["fleet", "matrix", "--fleet", "Examples/policies/whitelist-half-pair.json"])
        #expect(policy.status == 1)
        #expect(policy.stderr.hasPrefix("Error: Examples/policies/whitelist-half-pair.json:"))
        let option = try BuiltBinary.run(["fleet", "lint", "--fleet", Self.fleet, "--from", "com.acme.hr"])
        #expect(option.status == 64)
    }
}
