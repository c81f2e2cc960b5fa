import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The fleet: reading, effective policy, end-to-end decisions and paths, on Examples/fleet and small fleets.
@Suite struct FleetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let hr = try! BundleID("com.acme.hr")
    static let viewer = try! BundleID("com.acme.viewer")
    static let emailPlus = BundleID.emailPlus
    static let dropbox = try! BundleID("com.getdropbox.Dropbox")

    static func example() throws -> Fleet {
        let path = root.appendingPathComponent("Examples/fleet/acme.json").path
        return try FleetJSON.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: "Examples/fleet/acme.json")
    }

    static func read(_ text: String) throws(FormatError) -> Fleet { try FleetJSON.read(Array(text.utf8), file: "fleet.json") }

    @Test func effectivePolicyTakesContainerOverGlobalControlByControl() throws {
        let device = try Self.example().device(named: "employee-iphone")
        let hr = device.effectivePolicy(for: Self.hr)
        #expect(hr.authorization == .containerPolicy(name: "HR", label: "Employees"))
        #expect(hr.source(of: .openIn) == .containerPolicy(name: "HR", label: "Employees"))
        #expect(hr.source(of: .pasteboard) == .globalPolicy)
        #expect(hr.policy.status == .whitelist)
        #expect(hr.policy.pasteboard == .secureCopy)
        #expect(device.appConnectApps == [Self.hr, Self.viewer, Self.emailPlus])
        let viewer = device.effectivePolicy(for: Self.viewer)
        #expect(viewer.configSource == .appConfiguration(name: "Default com.acme.viewer Configuration", label: "Employees"))
        #expect(viewer.policy.config["serverURL"] == "https://docs.acme.example")
    }

    @Test func anAppWithoutContainerPolicyIsRetiredWhenTheGlobalPolicyDoesNotAuthorize() throws {
        let device = try Self.example().device(named: "contractor-ipad")
        let hr = device.effectivePolicy(for: Self.hr)
        #expect(hr.authorization == .notAuthorized)
        #expect(!device.appConnectApps.contains(Self.hr))
        let decision = try device.decide(from: "com.acme.hr", channel: "document-interaction", target: "com.acme.viewer")
        #expect(decision.outcome == .substituteDummyFile)
        #expect(decision.sender.rule.rawValue == "document.unlisted-target")
        #expect(decision.receiver == nil)
    }

    @Test func aShareHasTwoSides() throws {
        let device = try Self.example().device(named: "employee-iphone")
        let toViewer = try device.decide(from: "com.acme.hr", channel: "document-interaction", target: "com.acme.viewer")
        #expect(toViewer.outcome == .allow)
        #expect(toViewer.receiver?.rule.rawValue == "open-from.listed-source")
        let toEmailPlus = try device.decide(from: "com.acme.hr", channel: "document-interaction", target: "com.mobileiron.ios.emailplus")
        #expect(toEmailPlus.sender.outcome == .allow)
        #expect(toEmailPlus.outcome == .deny)
        #expect(toEmailPlus.receiver?.rule.rawValue == "open-from.unlisted-source")
        #expect(toEmailPlus.receiver?.callbacks == [.openFromAttemptedWhenBlocked(.whitelist, source: Self.hr)])
    }

    @Test func pasteIsTheSourcesCopyDecision() throws {
        let device = try Self.example().device(named: "employee-iphone")
        let intoViewer = try device.decide(from: "com.acme.hr", channel: "paste", target: "com.acme.viewer")
        #expect(intoViewer.outcome == .allow)
        #expect(intoViewer.sender.audience == .appConnectApps)
        #expect(intoViewer.receiver == nil)
        let intoDropbox = try device.decide(from: "com.acme.hr", channel: "paste", target: "com.getdropbox.Dropbox")
        #expect(intoDropbox.outcome == .deny)
        #expect(intoDropbox.sender.rule.rawValue == "copy.secure-non-appconnect-app")
    }

    @Test func hrDocumentsLeakThroughTheViewer() throws {
        let device = try Self.example().device(named: "employee-iphone")
        let paths = try device.paths(from: Self.hr)
        let dropbox = try #require(paths.first { $0.to == .app(Self.dropbox) })
        #expect(dropbox.hops.map(\.to) == [.app(Self.viewer), .app(Self.dropbox)])
        #expect(paths.allSatisfy { $0.hops.first?.from == .app(Self.hr) && $0.hops.last?.to == $0.to })
        let oneHop = try device.paths(from: Self.hr, maxHops: 1)
        #expect(!oneHop.contains { $0.to == .app(Self.dropbox) })
    }

    @Test func twoContainerPoliciesForOneAppOnOneDeviceIsAnError() throws {
        let fleet = try Self.read("""
            {"global": {"authorizeAppsWithoutContainerPolicy": false},
             "containerPolicies": [{"name": "A", "app": "com.a", "labels": ["x"]},
                                   {"name": "B", "app": "com.a", "labels": ["y", "x"]}],
             "apps": [{"bundleID": "com.a", "appconnect": true}],
             "devices": {"d": {"labels": ["x"], "installed": ["com.a"]}}}
            """)
        #expect(throws: FleetError.self) { try fleet.device(named: "d") }
        do {
            _ = try fleet.device(named: "d")
        } catch {
            #expect(error.message.contains("\"A\" and \"B\""))
            #expect(error.message.contains("the label \"x\""))
            #expect(error.line == 3)
        }
    }

    @Test func keyboardIsDecidedByTheSenderAloneWithoutAControl() throws {
        // No control set anywhere: a keyboard request still decides (it needs none), from the app
        // configuration's key, else the app's own answer; never with a receiver.
        func fleet(_ controls: String) throws -> Fleet {
            try Self.read("""
            {"global": {"authorizeAppsWithoutContainerPolicy": true\(controls)},
             "appConfigurations": [{"app": "com.a", "labels": ["L"], "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "true"}},
                                   {"app": "com.c", "labels": ["L"], "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "yes"}}],
             "apps": [{"bundleID": "com.a", "appconnect": true, "allowsCustomKeyboards": false},
                      {"bundleID": "com.b", "appconnect": true, "allowsCustomKeyboards": false},
                      {"bundleID": "com.c", "appconnect": true}, {"bundleID": "com.d", "appconnect": true}],
             "devices": {"d": {"labels": ["L"], "installed": ["com.a", "com.b", "com.c", "com.d"]}}}
            """)
        }
        let device = try fleet("").device(named: "d")
        func decide(_ from: String, _ target: String?) throws -> FleetDecision { try device.decide(from: from, channel: "keyboard", target: target) }
        let cases: [(String, String?, Outcome, String)] = [
            ("com.a", "com.example.swiftkey", .allow, "keyboard.custom-allowed-by-config"),
            ("com.b", "com.example.swiftkey", .deny, "keyboard.custom-refused-by-app"),
            ("com.c", "com.example.swiftkey", .deny, "keyboard.custom-refused-by-config"),
            ("com.d", "com.example.swiftkey", .allow, "keyboard.custom-allowed"),
            ("com.b", "com.apple.keyboard", .allow, "keyboard.system"),
            ("com.b", nil, .allow, "keyboard.system"),
        ]
        for (from, target, outcome, rule) in cases {
            let decision = try decide(from, target)
            #expect(decision.outcome == outcome && decision.sender.rule.rawValue == rule && decision.receiver == nil, "\(from) \(target ?? "-")")
        }
        #expect(FleetChannel.keyboard.control == nil && !FleetChannel.keyboard.hasReceiverPart)
        #expect(device.effectivePolicy(for: try BundleID("com.b")).missingControl(for: .keyboard) == nil)
        #expect(device.effectivePolicy(for: try BundleID("com.b")).missingControl(for: .paste) == .pasteboard)
        // With the other controls set (the matrix and paths decide every channel): paths never follow a keyboard,
        // and the matrix's keyboard line is the same decisions.
        let complete = try fleet(#", "openInPolicy": "authorized", "openFromPolicy": "authorized", "pasteboardPolicy": "authorized", "dragAndDropPolicy": "appconnect""#).device(named: "d")
        let paths = try complete.paths(from: try BundleID("com.a"))
        #expect(!paths.isEmpty && paths.allSatisfy { path in path.hops.allSatisfy { $0.channel != .keyboard } })
        let matrix = try complete.matrix()
        let expected: [Outcome?] = [.allow, .deny, .deny, .allow]
        #expect(matrix.senders.indices.map { matrix.keyboard(sender: $0, system: false) } == expected)
        #expect(matrix.senders.indices.allSatisfy { matrix.keyboard(sender: $0, system: true) == .allow })
        #expect(throws: FleetError.self) { try device.decide(from: "com.a", channel: "keyboard", url: "https://example.com") }
    }

    @Test func diffReportsAThirdPartyKeyboardNewlyAllowed() throws {
        func fleet(_ value: String) throws -> Fleet {
            try Self.read("""
                {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "appconnect",
                            "pasteboardPolicy": "unauthorized", "dragAndDropPolicy": "appconnect"},
                 "appConfigurations": [{"app": "com.a", "labels": ["L"], "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": "\(value)"}}],
                 "apps": [{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.b", "appconnect": true}],
                 "devices": {"d": {"labels": ["L"], "installed": ["com.a", "com.b"]}}}
                """)
        }
        let opened = try FleetDiff.compare(old: try fleet("false"), new: try fleet("true"))
        #expect(opened.map(\.subject) == ["keyboard com.a → third-party keyboard"])
        #expect(opened.first?.opened == true && opened.first?.kind == .flow && opened.first?.detail == "deny → allow")
        let closed = try FleetDiff.compare(old: try fleet("true"), new: try fleet("no"))
        #expect(closed.map(\.subject) == ["keyboard com.a → third-party keyboard"] && closed.first?.opened == false)
        #expect(try FleetDiff.compare(old: try fleet("false"), new: try fleet("no")).isEmpty)
    }

    @Test func aControlNeitherPolicySetsIsAnErrorWhenARequestNeedsIt() throws {
        let fleet = try Self.read("""
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "authorized"},
             "apps": [{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.b", "appconnect": true}],
             "devices": {"d": {"labels": [], "installed": ["com.a", "com.b"]}}}
            """)
        let device = try fleet.device(named: "d")
        #expect(throws: FleetError.self) { try device.decide(from: "com.a", channel: "paste", target: "com.b") }
        do {
            _ = try device.decide(from: "com.a", channel: "document-interaction", target: "com.b")
            Issue.record("the receiver's Open From is not set: an error")
        } catch {
            #expect(error.message.contains("openFromPolicy is set by neither"))
        }
    }

    @Test(arguments: [
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicie": "authorized"}}"#, "Did you mean 'openInPolicy'?"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false}, "devices": {"d": {"labels": [], "installed": [], "appConnectApps": []}}}"#, "devices.d.appConnectApps: not in a fleet"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false, "device": {}}}"#, "global.device: not in a fleet"),
        (#"{"global": {}}"#, "authorizeAppsWithoutContainerPolicy is missing"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false}, "apps": [{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.a", "appconnect": false}]}"#, "listed twice"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false, "openInWhitelist": ["com.a"]}}"#, "without openInPolicy"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false}, "apps": [{"bundleID": "com.a", "appconnect": true, "allowsCustomKeyboards": "no"}]}"#, "apps[0].allowsCustomKeyboards"),
        (#"{"global": {"authorizeAppsWithoutContainerPolicy": false}, "apps": [{"bundleID": "com.a", "appconnect": true, "allowsCustomKeyboard": false}]}"#, "Did you mean 'allowsCustomKeyboards'?"),
    ])
    func badFleetsAreErrorsWithKeyPaths(text: String, expected: String) {
        do {
            _ = try Self.read(text)
            Issue.record("read \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
            #expect(error.file == "fleet.json")
            #expect(error.line == 1)
        }
    }

    @Test func labelsAndBundleIDsAreComparedByBytes() throws {
        // "Sales" with a Kelvin-free look-alike: U+0405 CYRILLIC CAPITAL LETTER DZE for "S".
        let fleet = try Self.read("""
            {"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "unauthorized"},
             "containerPolicies": [{"name": "A", "app": "com.a", "labels": ["\u{0405}ales"], "openInPolicy": "authorized"}],
             "apps": [{"bundleID": "com.a", "appconnect": true}],
             "devices": {"d": {"labels": ["Sales"], "installed": ["com.a"]}}}
            """)
        // Matched by bytes, the look-alike label reaches no device (resolved as lint does, unchecked) ...
        let device = try FleetDevice(fleet: fleet, resolving: fleet.devices[0])
        #expect(device.effectivePolicy(for: try BundleID("com.a")).authorization == .notAuthorized)
        let caseDiffers = device.effectivePolicy(for: try BundleID("com.A"))
        #expect(caseDiffers.authorization == .notAppConnect)
        // ... and so the verbs that decide refuse the fleet, as lint calls it an error (FL009), naming the character.
        do {
            _ = try fleet.device(named: "d")
            Issue.record("a fleet with a look-alike label was decided on")
        } catch {
            #expect(error.description.hasPrefix("fleet.json:2: the label \"\u{0405}ales\" of the container policy \"A\" looks like \"Sales\""), "\(error)")
            #expect(error.message.contains("U+0405 CYRILLIC CAPITAL LETTER DZE") && error.message.contains("FL009"), "\(error)")
        }
    }
}

/// Fleet tables: a table under a `Fleet:` line, and what makes one malformed.
@Suite struct FleetTableTests {
    static func parse(_ table: String, fleetLine: String = "Fleet: [Acme](../Examples/fleet/acme.json), device employee-iphone") throws(TableError) -> [TableCase] {
        let file = FleetTests.root.appendingPathComponent("Rules/inline.md").path
        return try DecisionTables.parse("# T\n\n\(fleetLine)\n\n\(table)", file: file)
    }

    static let header = "| id | from | channel | target | outcome | to | sender rule | receiver rule |\n|---|---|---|---|---|---|---|---|\n"

    @Test func aRowRunsEndToEndAndAMismatchIsReported() throws {
        let cases = try Self.parse(Self.header + "| ok | com.acme.hr | document-interaction | com.acme.viewer | allow | com.acme.viewer | document.listed-target | open-from.listed-source |\n"
                                   + "| wrong | com.acme.hr | document-interaction | com.acme.viewer | allow | com.acme.viewer | document.listed-target | - |\n")
        #expect(cases.count == 2)
        #expect(DecisionTables.run(cases[0]).passed)
        #expect(DecisionTables.run(cases[1]).mismatches == ["receiver rule: expected -, got open-from.listed-source"])
    }

    @Test(arguments: [
        ("Fleet: Acme, device employee-iphone", "this Fleet line has no link"),
        ("Fleet: [Acme](../Examples/fleet/acme.json)", "this Fleet line names no device"),
        ("Fleet: [Acme](../Examples/fleet/acme.json), device nobody", "has no device profile named \"nobody\""),
        ("Fleet: [Acme](../Examples/fleet/missing.json), device employee-iphone", "cannot be read"),
        ("Fleet: [Acme](../Examples/intune/acme-app-protection.json), devices ../Examples/intune/devices.json, device employee-iphone", "devices has no link"),
        ("Fleet: [Acme](../Examples/intune/acme-app-protection.json), devices [d](../Examples/intune/missing.json), device employee-iphone", "cannot be read"),
        ("Fleet: [Acme](../Examples/intune/acme-app-protection.json), devices [d](../Examples/intune/devices.json), device nobody", "has no device profile named \"nobody\""),
        // Intune policies named without their devices file: the error says what to add.
        ("Fleet: [Acme](../Examples/intune/acme-app-protection.json), device employee-iphone", "it holds Intune app protection policies: name the devices file"),
    ])
    func aBadFleetLineIsAnError(line: String, message: String) {
        do {
            _ = try Self.parse(Self.header + "| a | com.acme.hr | paste | com.acme.viewer | allow | com.acme.viewer | copy.secure-appconnect-apps | - |\n", fleetLine: line)
            Issue.record("parsed under \(line)")
        } catch {
            #expect(error.message.contains(message), "\(error)")
            #expect(error.line == 3)
        }
    }

    /// The runner decides a table of either vendor on the vendor-neutral fleet analysis: an Intune table
    /// names the policies and the devices file, and its rows decide under Intune's rules.
    @Test func anIntuneFleetTableRunsOnTheSameRunner() throws {
        let line = "Fleet: [Acme](../Examples/intune/acme-app-protection.json), devices [d](../Examples/intune/devices.json), device employee-iphone"
        let cases = try Self.parse(Self.header + "| ok | com.acme.hr | document-interaction | com.acme.viewer | allow | com.acme.viewer | intune.send.managed-target | intune.receive.all-apps |\n"
                                   + "| wrong | com.acme.hr | document-interaction | com.getdropbox.Dropbox | allow | com.getdropbox.Dropbox | intune.send.all-apps | - |\n", fleetLine: line)
        #expect(DecisionTables.run(cases[0]).passed)
        #expect(DecisionTables.run(cases[1]).mismatches == ["outcome: expected allow, got deliver-encrypted",
                                                            "sender rule: expected intune.send.all-apps, got intune.send.unmanaged-target-encrypted"])
    }

    @Test func aFleetLinkNamingANamedPipeIsAnErrorNotAWaitForAWriter() throws {
        // Opening a FIFO with no writer blocks forever: the link is refused before it is opened.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("openin-fleet-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        do {
            _ = try Self.parse(Self.header + "| a | com.acme.hr | paste | com.acme.viewer | allow | com.acme.viewer | copy.secure-appconnect-apps | - |\n",
                               fleetLine: "Fleet: [a pipe](\(fifo)), device employee-iphone")
            Issue.record("a fleet table whose link names a FIFO parsed")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("it is a named pipe (FIFO), which a table link does not wait on"), "\(error)")
        }
    }

    @Test func aFleetTableNeedsItsColumns() {
        #expect(throws: TableError.self) { try Self.parse("| id | from | channel | outcome |\n|---|---|---|---|\n| a | com.acme.hr | paste | allow |\n") }
        #expect(throws: TableError.self) { try Self.parse("| id | from | channel | policy | outcome | sender rule | receiver rule |\n|---|---|---|---|---|---|---|\n| a | com.acme.hr | paste | x | allow | copy.authorized | - |\n") }
    }
}
