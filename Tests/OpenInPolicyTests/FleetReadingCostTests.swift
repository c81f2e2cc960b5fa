import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInKit

/// What the fleet reader keeps cheaply (issue 43) still says what the file says: a list entry's key path,
/// line and text; a scalar's text as written; where a key a fleet holds elsewhere goes, wherever it is;
/// installed apps read without a cursor per element; native Mail's node; the ID that stands for any other app.
@Suite struct FleetReadingCostTests {
    static func read(_ text: String) throws(FormatError) -> Fleet { try FleetJSON.read(Array(text.utf8), file: "fleet.json") }

    static let fleet = """
        {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "authorized",
                    "pasteboardPolicy": "authorized", "printPolicy": 1, "dragAndDropPolicy": "appconnect"},
         "containerPolicies": [{"name": "P", "app": "com.a", "labels": ["Staff"], "openInPolicy": "whitelist",
                                "openInWhitelist": ["com.b",
                                                    "com.c"]}],
         "apps": [{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.b", "appconnect": false}],
         "devices": {"d": {"labels": ["Staff"],
                           "installed": ["com.a",
                                         "com.apple.UIKit.activity.Mail", "com.b"], "secureServicesAvailable": true}}}
        """

    @Test("a list entry's source names its own key path, line and text; a number's, a boolean's and a list's text is as written")
    func sourcesSayWhatTheFileSays() throws {
        let fleet = try Self.read(Self.fleet)
        let entries = try #require(fleet.containerPolicies[0].controls.sources.entries["openInWhitelist"])
        let c = try #require(entries[try BundleID("com.c")])
        #expect((c.path, c.line, c.text) == ("containerPolicies[0].openInWhitelist[1]", 5, "com.c"))
        #expect(entries[try BundleID("com.b")]?.path == "containerPolicies[0].openInWhitelist[0]")
        let installed = try #require(fleet.devices[0].sources.entries["installed"]?[try BundleID("com.b")])
        #expect((installed.path, installed.line, installed.text) == ("devices.d.installed[2]", 9, "com.b"))
        let keys = fleet.global.controls.sources.keys
        #expect(keys["printPolicy"]?.text == "1" && keys["printPolicy"]?.path == "global.printPolicy")
        #expect(keys["authorizeAppsWithoutContainerPolicy"]?.text == "true")
        #expect(fleet.containerPolicies[0].controls.sources.keys["openInWhitelist"]?.text == #"["com.b","com.c"]"#)
        #expect(ValueSource(JSONCursor(.null)).text == "null" && ValueSource(element: 3, of: "a.b", line: nil, text: "x").path == "a.b[3]")
        let made = c.withPath
        #expect((made.path, made.line, made.text) == (c.path, c.line, c.text) && made.withPath.path == c.path)
    }

    @Test("a list's entries: the first of each ID is found, with its place and line, in short lists searched in order and long ones indexed")
    func entriesFirstOfEachID() throws {
        for count in [1, 20, 64, 65, 300] {
            var entries = EntrySources(list: "list", capacity: count)
            // Each ID given twice, the second time later in the list and on another line: the first one is kept.
            let ids = try (0..<count).map { try BundleID("com.app\($0)") }
            for (index, id) in ids.enumerated() { entries.add(id, element: index, line: 10 + index) }
            for (index, id) in ids.enumerated() { entries.add(id, element: count + index, line: 5_000 + index) }
            for (index, id) in ids.enumerated() {
                let source = try #require(entries[id], "\(count): \(id)")
                #expect((source.path, source.line, source.text) == ("list[\(index)]", 10 + index, id.rawValue), "\(count)")
            }
            #expect(entries[try BundleID("com.absent")] == nil)
            #expect(entries.withPaths.count == count)
        }
    }

    @Test("a list's text as written: strings, other values, and both mixed")
    func listTexts() throws {
        for (list, text) in [(#"["a", "b\u00e9"]"#, #"["a","bé"]"#), ("[1, true, null]", "[1,true,null]"), (#"["a", 2, {"k": []}]"#, #"["a",2,{"k":[]}]"#), ("[]", "[]")] {
            let value = try JSONReader().read(list)
            #expect(ValueSource(JSONCursor(value, path: "k")).text == text)
        }
    }

    @Test("a key a fleet holds elsewhere says where, even after an unknown key; an unknown key alone is refused with Did you mean")
    func movedKeyWinsOverAnEarlierUnknownKey() throws {
        for (extra, expected) in [(#""bogus": 1, "config": {}"#, "containerPolicies[0].config: not in a fleet"),
                                  (#""labelz": []"#, "containerPolicies[0].labelz: unknown key. Did you mean 'labels'?")] {
            let text = Self.fleet.replacingOccurrences(of: #""name": "P","#, with: #""name": "P", \#(extra),"#)
            do {
                _ = try Self.read(text)
                Issue.record("read \(extra)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test("installed: not an array, an invalid ID and an app listed twice are refused where they are written")
    func installedErrorsAtTheirElements() throws {
        // The installed list as written (over two lines).
        let start = try #require(Self.fleet.range(of: #"["com.a","#)).lowerBound
        let end = try #require(Self.fleet.range(of: #""com.b"]"#, range: start..<Self.fleet.endIndex)).upperBound
        let cases = [(String(Self.fleet[start..<end]), #""com.a""#, "devices.d.installed: must be an array (the installed apps' bundle IDs), not the string \"com.a\""),
                     (#""com.b"]"#, #""com..b"]"#, "fleet.json:9:"), (#""com.b"]"#, #""com.a"]"#, "fleet.json:9:")]
        let expectedTails = ["fleet.json:8:33: ", "devices.d.installed[2]: ", "devices.d.installed[2]: com.a is listed twice"]
        for ((from, to, expected), tail) in zip(cases, expectedTails) {
            do {
                let text = Self.fleet.replacingOccurrences(of: from, with: to)
                #expect(text != Self.fleet)
                _ = try Self.read(text)
                Issue.record("read \(to)")
            } catch {
                #expect(error.description.contains(expected) && error.description.contains(tail), "\(error)")
            }
        }
    }

    @Test("native Mail's node is the one the profile installs, and any other app's ID is one no list of the fleet names")
    func nativeMailAndAnyOtherApp() throws {
        let device = try Self.read(Self.fleet).device(named: "d")
        #expect(device.node(receiving: try BundleID("com.apple.mobilemail")) == .app(try BundleID("com.apple.UIKit.activity.Mail")))
        #expect(device.node(receiving: try BundleID("com.apple.UIKit.activity.Mail")) == .app(try BundleID("com.apple.UIKit.activity.Mail")))
        let taken = Self.fleet.replacingOccurrences(of: #"["com.b","#, with: #"["com.b", "any-other-app.openin-check", "any-other-app1.openin-check","#)
        let other = try Self.read(taken).device(named: "d")
        #expect(other.table.anyOtherApp.rawValue == "any-other-app2.openin-check")
        let noMail = try Self.read(Self.fleet.replacingOccurrences(of: #""com.apple.UIKit.activity.Mail", "#, with: "")).device(named: "d")
        #expect(noMail.node(receiving: try BundleID("com.apple.UIKit.activity.Mail")) == .app(.mobileMail))
    }
}
