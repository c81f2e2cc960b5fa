import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// One reading of a fleet (issue 32): what lint calls an error is not decided on; device facts share
/// their rules with the Intune devices file; look-alike and misspelt labels; errors that say where.
@Suite struct FleetReadingTests {
    static func read(_ text: String) throws(FormatError) -> Fleet { try FleetJSON.read(Array(text.utf8), file: "fleet.json") }

    static func fleet(policies: String = "", apps: String = #"{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.b", "appconnect": false}"#,
                      device: String = #""labels": ["Staff"], "installed": ["com.a", "com.b"]"#) -> String {
        """
        {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "authorized",
                    "pasteboardPolicy": "authorized", "printPolicy": "authorized", "dragAndDropPolicy": "appconnect"},
         "containerPolicies": [\(policies)],
         "apps": [\(apps)],
         "devices": {"d": {\(device), "secureServicesAvailable": true}}}
        """
    }

    static func refusal(_ fleet: Fleet) -> FleetError? {
        do {
            _ = try fleet.device(named: "d")
            return nil
        } catch {
            return error
        }
    }

    @Test("a container policy for an app apps does not list: lint's FL005 error, and every deciding verb refuses it at its line")
    func unknownAppIsNotDecidedOn() throws {
        let fleet = try Self.read(Self.fleet(policies: #"{"name": "X", "app": "com.x", "labels": ["Staff"], "openInPolicy": "authorized"}"#))
        #expect(FleetLint.findings(fleet).contains { $0.code == "FL005" && $0.severity == .error })
        let error = try #require(Self.refusal(fleet))
        #expect(error.description.hasPrefix("fleet.json:3: the container policy \"X\" is for com.x, which apps does not list"), "\(error)")
        #expect(error.message.contains("(fleet lint FL005 unknown-app): add {\"bundleID\": \"com.x\", \"appconnect\": true} to apps"), "\(error)")
        #expect(throws: FleetError.self) { try fleet.resolvedDevices() }
        #expect(throws: FleetError.self) { try FleetDiff.compare(old: fleet, new: fleet) }
        #expect(throws: FleetError.self) { try fleet.checkDecidable() }
    }

    @Test("every error-severity check that reads the file alone is refused by the deciding verbs; warnings and infos are not")
    func everyErrorCheckRefuses() throws {
        let fileChecks = FleetLint.checks.filter { $0.severity == .error && !["FL004"].contains($0.code) }.map(\.code)
        #expect(fileChecks == ["FL005", "FL008", "FL009"])
        let cases: [(code: String, text: String)] = [
            ("FL004", Self.fleet(policies: #"{"name": "X", "app": "com.a", "labels": ["Other"]}, {"name": "Y", "app": "com.a", "labels": ["Other"]}"#)),
            ("FL005", Self.fleet(policies: #"{"name": "X", "app": "com.x", "labels": ["Staff"]}"#)),
            ("FL008", Self.fleet().replacingOccurrences(of: #""containerPolicies": [],"#,
                                                        with: #""appConfigurations": [{"app": "com.a", "labels": ["Staff"], "config": {"MI_AC_DISABLE_SCHEME_BLOC\u212AING": "true"}}],"#)),
            ("FL009", Self.fleet(policies: #"{"name": "X", "app": "com.a", "labels": ["Staff "]}"#)),
        ]
        for (code, text) in cases {
            let fleet = try Self.read(text)
            #expect(FleetLint.findings(fleet).contains { $0.code == code && $0.severity == .error }, "\(code)")
            let error = Self.refusal(fleet)
            #expect(error?.message.contains("fleet lint \(code)") == true, "\(code): \(String(describing: error))")
        }
        // A warning (FL010) and an info (FL006) leave the fleet decidable.
        for label in ["Staf", "Elsewhere"] {
            let fleet = try Self.read(Self.fleet(policies: #"{"name": "X", "app": "com.a", "labels": ["\#(label)"]}"#))
            #expect(Self.refusal(fleet) == nil, "\(label)")
        }
    }

    /// The findings as lint reports them: most severe first, each severity's in the order the checks find them
    /// (the file's checks, then the devices'), whether or not they were found in that order.
    @Test("lint's findings: errors, then warnings, then infos, each in the order found", arguments: [
        // A warning (FL002: AUTHORIZED) before an error (FL005) and an info (FL006): reordered.
        #"{"name": "W", "app": "com.a", "labels": ["Staff"], "openInPolicy": "authorized"}, {"name": "X", "app": "com.x", "labels": ["Staff"]}, {"name": "I", "app": "com.a", "labels": ["Elsewhere"]}"#,
        // Two warnings and an info, found in that order: kept as found.
        #"{"name": "W", "app": "com.a", "labels": ["Staff"], "openInPolicy": "authorized"}, {"name": "V", "app": "com.a", "labels": ["Staf"], "openInPolicy": "authorized"}, {"name": "I", "app": "com.a", "labels": ["Elsewhere"]}"#,
    ])
    func findingsBySeverity(policies: String) throws {
        let fleet = try Self.read(Self.fleet(policies: policies))
        var found = FleetLint.fileFindings(fleet)
        FleetLint.deviceFindings(fleet) { code, line, device, keyPath, message, fix in
            let check = FleetLint.checks.first { $0.code == code }!
            found.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: line, device: device, keyPath: keyPath, message: message, fix: fix))
        }
        // The order a stable sort by severity gives, worked out here by position.
        let expected = found.indices.sorted { (found[$0].severity, $1) > (found[$1].severity, $0) }.map { found[$0] }
        let findings = FleetLint.findings(fleet)
        #expect(findings == expected)
        #expect(Set(findings.map(\.severity)).count == 3 || !policies.contains("com.x"))
        #expect(findings.map(\.severity) == findings.map(\.severity).sorted(by: >))
    }

    @Test("a look-alike label is an FL009 error naming the character", arguments: [
        ("St\u{0430}ff", "U+0430 CYRILLIC SMALL LETTER A"),
        ("Staff ", "(U+0020 SPACE)"),
        ("Sta\u{200D}ff", "(U+200D ZERO WIDTH JOINER)"),
        ("Caf\u{0065}\u{0301}", "U+0301 COMBINING ACUTE ACCENT"),
    ])
    func lookAlikeLabels(label: String, character: String) throws {
        let carried = label.hasPrefix("Caf") ? "Caf\u{00E9}" : "Staff"
        let text = Self.fleet(policies: #"{"name": "X", "app": "com.a", "labels": [LABEL]}"#, device: #""labels": [CARRIED], "installed": ["com.a", "com.b"]"#)
            .replacingOccurrences(of: "LABEL", with: JSONWriter.quoted(label)).replacingOccurrences(of: "CARRIED", with: JSONWriter.quoted(carried))
        let fleet = try Self.read(text)
        let findings = FleetLint.findings(fleet)
        let finding = try #require(findings.first { $0.code == "FL009" }, "\(findings)")
        #expect(finding.severity == .error && finding.line == 3 && finding.keyPath == "containerPolicies[0].labels")
        #expect(finding.message.contains(character), "\(finding.message)")
        #expect(finding.fix == "write the label as \(Printable.quoted(carried))")
        #expect(!findings.contains { $0.code == "FL006" })
    }

    @Test("a label one edit from a carried one is an FL010 warning with Did you mean; a far one stays FL006 info; app configurations too")
    func misspeltLabels() throws {
        let typo = try Self.read(Self.fleet(policies: #"{"name": "HR", "app": "com.a", "labels": ["Staf"]}"#))
        let finding = try #require(FleetLint.findings(typo).first { $0.code == "FL010" })
        #expect(finding.severity == .warning && finding.message.contains("Did you mean 'Staff'?"), "\(finding.message)")
        let far = try Self.read(Self.fleet(policies: #"{"name": "HR", "app": "com.a", "labels": ["Contractors"]}"#))
        #expect(FleetLint.findings(far).map(\.code) == ["FL006"])
        let configuration = try Self.read(Self.fleet().replacingOccurrences(of: #""containerPolicies": [],"#,
                                                                             with: #""appConfigurations": [{"app": "com.a", "labels": ["Sfaff"], "config": {}}],"#))
        #expect(FleetLint.findings(configuration).contains { $0.code == "FL010" && $0.keyPath == "appConfigurations[0].labels" && $0.message.contains("Did you mean 'Staff'?") })
    }

    @Test("native Mail listed as an AppConnect app is an error at its line", arguments: ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail"])
    func nativeMailIsNeverAppConnect(id: String) {
        let text = Self.fleet(apps: #"{"bundleID": "com.a", "appconnect": true},"# + "\n" + #"{"bundleID": "\#(id)", "appconnect": true}"#)
        do {
            _ = try Self.read(text)
            Issue.record("native Mail was read as an AppConnect app")
        } catch {
            #expect(error.description.hasPrefix("fleet.json:5:"), "\(error)")
            #expect(error.description.contains("\(id) is native Mail, which never embeds AppConnect"), "\(error)")
        }
        #expect((try? Self.read(Self.fleet(apps: #"{"bundleID": "com.a", "appconnect": true}, {"bundleID": "\#(id)", "appconnect": false}"#))) != nil)
    }

    @Test("device facts: one scheme in two letter cases, a handler not installed, an app installed twice: errors in the fleet and in the Intune devices file")
    func deviceFactsShareTheirRules() throws {
        let fleetCases: [(device: String, expected: String)] = [
            (#""labels": [], "installed": ["com.a", "com.b"], "schemeHandlers": {"Boxfile": "com.a", "boxfile": "com.b"}"#, "the scheme is given twice (also as \"Boxfile\"; schemes ignore case)"),
            (#""labels": [], "installed": ["com.a"], "schemeHandlers": {"box": "com.b"}"#, "com.b handles the scheme but is not installed on the device"),
            (#""labels": [], "installed": ["com.a", "com.a"]"#, "com.a is listed twice"),
        ]
        for (device, expected) in fleetCases {
            do {
                _ = try Self.read(Self.fleet(device: device))
                Issue.record("read \(device)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        // Native Mail is on every device: it may handle mailto without being listed.
        #expect((try? Self.read(Self.fleet(device: #""labels": [], "installed": ["com.a"], "schemeHandlers": {"mailto": "com.apple.mobilemail"}"#))) != nil)
        let intuneCases: [(device: String, expected: String)] = [
            (#""installed": ["com.a", "com.b"], "schemeHandlers": {"Boxfile": "com.a", "boxfile": "com.b"}"#, "the scheme is given twice (also as \"Boxfile\"; schemes ignore case)"),
            (#""installed": ["com.a"], "schemeHandlers": {"box": "com.b"}"#, "com.b handles the scheme but is not installed on the device"),
            (#""installed": ["com.acme.App", "com.acme.app"]"#, "com.acme.app is listed twice (also as com.acme.App; Intune compares bundle IDs ignoring case)"),
        ]
        for (device, expected) in intuneCases {
            let text = #"{"devices": {"d": {"# + device + #", "mdmEnrolled": false, "intuneMAMUPN": false}}}"#
            let result = Result { () throws(FormatError) in try IntuneDevicesJSON.read(Array(text.utf8), file: "devices.json") }
            guard case .failure(let error) = result else {
                Issue.record("read \(device)")
                continue
            }
            #expect(error.description.hasPrefix("devices.json:1:") && error.description.contains(expected), "\(error)")
        }
        // A scheme handler named in another letter case than installed lists it is the same app under Intune.
        let sameApp = #"{"devices": {"d": {"installed": ["com.acme.App"], "schemeHandlers": {"acme": "com.acme.app"}, "mdmEnrolled": false, "intuneMAMUPN": false}}}"#
        #expect((try? IntuneDevicesJSON.read(Array(sameApp.utf8), file: "devices.json")) != nil)
    }

    @Test("a quoted number is refused for every control, in policy files and fleets", arguments: ["openInPolicy", "openFromPolicy", "pasteboardPolicy", "printPolicy"])
    func quotedNumbers(control: String) {
        let policy = #"{"openInPolicy": 1, "CONTROL": "1"}"#.replacingOccurrences(of: "\"CONTROL\": \"1\"", with: "\"\(control)\": \"1\"")
            .replacingOccurrences(of: #"{"openInPolicy": 1, "openInPolicy": "1"}"#, with: #"{"openInPolicy": "1"}"#)
        let result = Result { () throws(FormatError) in try PolicyFile.read(Array(policy.utf8), file: "p.json") }
        guard case .failure(let error) = result else {
            Issue.record("\(control): \"1\" was read")
            return
        }
        #expect(error.description.contains("\(control): the string \"1\" is not a policy value: write the number 1 without quotes"), "\(error)")
        let fleet = Self.fleet(policies: #"{"name": "X", "app": "com.a", "labels": ["Staff"], "CONTROL": "1"}"#.replacingOccurrences(of: "CONTROL", with: control))
        do {
            _ = try Self.read(fleet)
            Issue.record("\(control): \"1\" was read in a fleet")
        } catch {
            #expect(error.description.contains("write the number 1 without quotes"), "\(error)")
        }
    }

    @Test("a control not set names the lines of the policies that should set it and the channel that needs it")
    func controlNotSetSaysWhere() throws {
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "appconnect",
                        "openFromPolicy": "authorized", "pasteboardPolicy": "authorized"},
             "containerPolicies": [
               {"name": "HR", "app": "com.a", "labels": ["Staff"]}
             ],
             "apps": [{"bundleID": "com.a", "appconnect": true}, {"bundleID": "com.b", "appconnect": false}],
             "devices": {"d": {"labels": ["Staff"], "installed": ["com.a", "com.b"]}}}
            """
        let fleet = try Self.read(text)
        let device = try fleet.device(named: "d")
        let expected = "fleet.json:4: com.a sends on drag-and-drop on the device \"d\", and dragAndDropPolicy is set by neither its container policy \"HR\" (line 4) nor the global policy (line 1)"
        #expect(throws: FleetError.self) { try device.decide(from: "com.a", channel: "drag-and-drop", target: "com.b") }
        do {
            _ = try device.decide(from: "com.a", channel: "drag-and-drop", target: "com.b")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        do {
            _ = try device.matrix()
            Issue.record("the matrix decided without dragAndDropPolicy")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        let secure = try Self.read(text.replacingOccurrences(of: #""pasteboardPolicy": "authorized""#, with: #""pasteboardPolicy": "securecopy", "dragAndDropPolicy": "appconnect""#))
        do {
            _ = try secure.device(named: "d").decide(from: "com.a", channel: "paste", target: "com.b")
            Issue.record("a secure copy was decided on a device that does not say whether secure services are available")
        } catch {
            #expect(error.description.hasPrefix("fleet.json:7: a paste from com.a"), "\(error)")
        }
    }

    @Test("errors quote a prefix of a huge input and list a few names")
    func shortErrors() throws {
        let long = String(repeating: "a", count: 1_000_000)
        let result = Result { () throws(FormatError) in try Self.read(Self.fleet(apps: #"{"bundleID": "com.\#(long)", "appconnect": true}"#)) }
        guard case .failure(let error) = result else {
            Issue.record("a 1 MB bundle ID was read")
            return
        }
        #expect(error.description.utf8.count < 1_000, "\(error.description.utf8.count) bytes")
        #expect(error.description.contains("more bytes]"))
        var devices: [String] = []
        for index in 0..<20_000 { devices.append(#""d\#(index)": {"labels": [], "installed": []}"#) }
        let many = try Self.read(#"{"global": {"authorizeAppsWithoutContainerPolicy": true}, "devices": {"# + devices.joined(separator: ", ") + "}}")
        do {
            _ = try many.device(named: "nope")
            Issue.record("an unknown device was found")
        } catch {
            #expect(error.description.contains("Device profiles: d0, d1, d2, d3, d4 and 19995 more"), "\(error.description.prefix(300))")
            #expect(error.description.utf8.count < 400)
        }
        let huge = String(repeating: "9", count: 100_000)
        #expect(Printable.text("the number \(huge) is wrong").utf8.count < 200)
        #expect(Printable.text(Printable.text("x \(huge)")) == Printable.text("x \(huge)"))
    }
}
