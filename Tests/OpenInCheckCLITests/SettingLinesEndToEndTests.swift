import Foundation
import Testing

/// A setting is named at one line whichever verb names it: `fleet lint`'s findings about a setting stand at the line
/// `fleet paths` gives that setting (the value's line, not the policy object's first line).
@Suite struct SettingLinesEndToEndTests {
    static let fleet = """
        {
          "global": {
            "openInPolicy": "appconnect", "openFromPolicy": "appconnect", "printPolicy": "unauthorized",
            "pasteboardPolicy": "securecopy", "dragAndDropPolicy": "appconnect", "authorizeAppsWithoutContainerPolicy": false
          },
          "containerPolicies": [
            {"name": "Hub", "app": "com.acme.hub", "labels": ["Staff"],
             "openInPolicy":
               "authorized"},
            {"name": "Notes", "app": "com.acme.notes", "labels": ["Staff"],
             "openInPolicy": "whitelist",
             "openInWhitelist": [
               "com.acme.hub",
               "com.example.unmanaged"
             ]}
          ],
          "apps": [
            {"bundleID": "com.acme.hub", "appconnect": true},
            {"bundleID": "com.acme.notes", "appconnect": true},
            {"bundleID": "com.example.unmanaged", "appconnect": false}
          ],
          "devices": {"phone": {"labels": ["Staff"], "installed": ["com.acme.hub", "com.acme.notes", "com.example.unmanaged"], "secureServicesAvailable": true}}
        }
        """

    /// Every `key` → `line` that `fleet paths --format json` gives a setting.
    static func settingLines(_ json: Any, into lines: inout [String: Set<Int>]) {
        if let object = json as? [String: Any] {
            if let key = object["key"] as? String, let line = object["line"] as? Int { lines[key, default: []].insert(line) }
            for value in object.values { settingLines(value, into: &lines) }
        } else if let array = json as? [Any] {
            for value in array { settingLines(value, into: &lines) }
        }
    }

    @Test func lintNamesASettingAtTheLinePathsGivesIt() throws {
        let file = try TemporaryFile.write(Self.fleet, name: "lines.json")
        let lint = try BuiltBinary.run(["fleet", "lint", "--fleet", file, "--format", "json"])
        #expect(lint.status == 2, "\(lint.stderr)")
        let findings = try #require((try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
        var settings: [String: Set<Int>] = [:]
        for from in ["com.acme.hub", "com.acme.notes"] {
            let paths = try BuiltBinary.run(["fleet", "paths", "--fleet", file, "--from", from, "--format", "json"])
            #expect(paths.stderr.isEmpty, "\(paths.stderr)")
            Self.settingLines(try JSONSerialization.jsonObject(with: Data(paths.stdout.utf8)), into: &settings)
        }
        let hub = try #require(findings.first { $0["code"] as? String == "FL002" })
        #expect(hub["line"] as? Int == 9)
        #expect(settings["containerPolicies[0].openInPolicy"] == [9])
        let unmanaged = try #require(findings.first { $0["code"] as? String == "FL001" })
        #expect(unmanaged["line"] as? Int == 14)
        #expect(settings["containerPolicies[1].openInWhitelist[1]"] == [14])
    }
}
