import Foundation
import Testing

/// Each error a newcomer met says what is wrong, where (file:line), and how to fix it: the nearest valid
/// name wherever a name is wrong.
@Suite struct ErrorMessagesEndToEndTests {
    @Test func aTableColumnTypoNamesTheColumnItMeant() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"]}"#, name: "p.json")
        let table = try TemporaryFile.write("""
            # T

            Policy: [p](\(URL(fileURLWithPath: policy).lastPathComponent))

            | id | channel | target | outcom |
            |---|---|---|---|
            | a | document-interaction | com.example.viewer | allow |

            """, name: "t.md")
        let run = try BuiltBinary.run(["test", table])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(table):5: this table has 'id', 'channel' columns like a decision table but no 'outcome' column, so none of its rows would run. "
            + "Did you mean 'outcome' for the column 'outcom'? Rename or add it"))
    }

    @Test func aPolicyValueTypoSaysDidYouMean() throws {
        let policy = try TemporaryFile.write(#"{"openInPolicy": "whitelsit", "openInWhitelist": ["com.example.viewer"]}"#, name: "p.json")
        let run = try BuiltBinary.run(["eval", "--policy", policy, "--channel", "document-interaction", "--target", "com.example.viewer"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(policy):1:18: openInPolicy: unknown Open In policy 'whitelsit': use unauthorized, authorized, whitelist, appconnect"))
        #expect(run.stderr.contains(". Did you mean 'whitelist'?"))
    }

    static func acme(replacing old: String, with new: String) throws -> String {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json"), encoding: .utf8)
        let range = try #require(text.range(of: old))
        return try TemporaryFile.write(text.replacingCharacters(in: range, with: new), name: "acme.json")
    }

    @Test func aFleetKeyInTheSingularSaysDidYouMean() throws {
        let fleet = try Self.acme(replacing: #""containerPolicies""#, with: #""containerPolicy""#)
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", fleet])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(fleet):11:3: containerPolicy: unknown key. Did you mean 'containerPolicies'? Known keys: "))
    }

    @Test func aMissingCommaInAFleetIsPointedAtWhereItBelongs() throws {
        let fleet = try Self.acme(replacing: #""openInPolicy": "appconnect","#, with: #""openInPolicy": "appconnect""#)
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", fleet])
        #expect(run.status == 1)
        #expect(run.stderr.contains(#"\#(fleet):5:33: not valid JSON: a ',' is missing after the value of "openInPolicy", before the next key (line 6, column 5): add ',' here"#))
    }

    @Test func aMissingFleetFileIsCalledAFleetFile() throws {
        for arguments in [["fleet", "paths", "--fleet", "no-such-fleet.json", "--from", "com.acme.hr"], ["fleet", "diff", "no-such-fleet.json", "Examples/fleet/acme.json"]] {
            let run = try BuiltBinary.run(arguments)
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("Error: cannot read fleet file 'no-such-fleet.json': no such file or directory"))
        }
    }

    @Test("a megabyte bundle ID is quoted as a prefix wherever it is reported: a request line's error, a lint finding, a fleet stream's error")
    func aHugeBundleIDIsQuotedShort() throws {
        let huge = "com." + String(repeating: "a", count: 1_000_000)
        let policy = try TemporaryFile.write(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.a"]}"#, name: "p.json")
        let requests = try TemporaryFile.write(#"{"channel": "document-interaction", "target": "\#(huge)"}"# + "\n", name: "r.jsonl")
        for format in ["text", "json"] {
            let run = try BuiltBinary.run(["eval", "--format", format, "--policy", policy, requests])
            #expect(run.status == 1)
            #expect(run.stdout.utf8.count + run.stderr.utf8.count < 1_000, "\(format): \(run.stdout.prefix(300))")
            #expect(run.stdout.contains("more bytes]"), "\(run.stdout.prefix(300))")
        }
        let listing = try TemporaryFile.write(#"{"openInPolicy": "whitelist", "openInWhitelist": ["\#(huge)"]}"#, name: "huge.json")
        for format in ["text", "json"] {
            let run = try BuiltBinary.run(["lint", "--format", format, listing])
            #expect(run.status == 2)
            #expect(run.stdout.utf8.count + run.stderr.utf8.count < 2_000, "\(format): \(run.stdout.prefix(300))")
            #expect(run.stdout.contains("more bytes]"), "\(run.stdout.prefix(300))")
        }
        let stream = try TemporaryFile.write(#"{"from": "com.acme.hr", "channel": "document-interaction", "target": "\#(huge)"}"# + "\n", name: "f.jsonl")
        let fleet = try BuiltBinary.run(["fleet", "eval", "--fleet", BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json").path, stream])
        #expect(fleet.status == 1)
        #expect(fleet.stdout.utf8.count + fleet.stderr.utf8.count < 1_000, "\(fleet.stdout.prefix(300))")
    }

    @Test("a secure copy on a device profile that does not say whether secure services are available names the profile's line")
    func anUnknownSecureServicesNamesTheProfileLine() throws {
        let fleet = try Self.acme(replacing: """
                  "schemeHandlers": {"mailto": "com.mobileiron.ios.emailplus", "https": "com.google.chrome.ios"},
                  "secureServicesAvailable": true
            """, with: """
                  "schemeHandlers": {"mailto": "com.mobileiron.ios.emailplus", "https": "com.google.chrome.ios"}
            """)
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--channel", "paste",
                                       "--target", "com.acme.viewer"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(fleet):32:"), "\(run.stderr)")
        #expect(run.stderr.contains("set devices.employee-iphone.secureServicesAvailable to true or false"), "\(run.stderr)")
    }

    @Test("two Intune policies reaching one app on one profile: not an error; lint names both policies and the profiles, and the decision merges them")
    func twoIntunePoliciesTargetingOneAppNameTheirLines() throws {
        let root = BuiltBinary.packageRoot.appendingPathComponent("Examples/intune")
        let text = try String(contentsOf: root.appendingPathComponent("acme-app-protection.json"), encoding: .utf8)
        let folder = TemporaryFile.directory.appendingPathComponent("conflict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data(text.replacingOccurrences(of: #""displayName": "Acme - iOS - App Protection""#, with: #""displayName": "Second""#)
            .replacingOccurrences(of: #""printBlocked": true"#, with: #""printBlocked": false"#).utf8)
            .write(to: folder.appendingPathComponent("b.json"))
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", folder.path, "--devices", root.appendingPathComponent("devices.json").path])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("b.json:185: warning IN015 overlap: \"Acme - iOS - App Protection\" and \"Second\" both reach com.acme.hr on \"employee-iphone\", \"contractor-ipad\""), "\(run.stdout)")
    }
}
