import Foundation
import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// RFC 6902 / 6901 as the fixes use them.
@Suite struct JSONPatchTests {
    static func value(_ text: String) throws -> JSONValue { try JSONReader().read(text) }

    @Test("pointers: ~0 and ~1 escape ~ and /, round trip, refuse a lone ~")
    func pointers() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/m~0n/0")
        #expect(pointer.tokens == ["a/b", "m~n", "0"])
        #expect(pointer.description == "/a~1b/m~0n/0")
        #expect(try JSONPointer(parsing: "").tokens.isEmpty)
        #expect(try JSONPointer(parsing: "/").tokens == [""])
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "/a~") }
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "a") }
        #expect(JSONPointer.index("01") == nil && JSONPointer.index("10") == 10 && JSONPointer.index("-") == nil)
    }

    @Test("add, remove, replace on objects and arrays (RFC 6902 appendix A cases)")
    func operations() throws {
        let document = try Self.value(#"{"foo": ["bar", "baz"], "a/b": 1, "m~n": {"x": true}}"#)
        let added = try JSONPatch.apply([.add(JSONPointer(["foo", "1"]), .string("qux"))], to: document)
        #expect(added == (try Self.value(#"{"foo": ["bar", "qux", "baz"], "a/b": 1, "m~n": {"x": true}}"#)))
        let appended = try JSONPatch.apply([.add(try JSONPointer(parsing: "/foo/-"), .string("end"))], to: document)
        #expect(appended == (try Self.value(#"{"foo": ["bar", "baz", "end"], "a/b": 1, "m~n": {"x": true}}"#)))
        let replaced = try JSONPatch.apply([.replace(try JSONPointer(parsing: "/a~1b"), .bool(false)), .remove(try JSONPointer(parsing: "/m~0n/x"))], to: document)
        #expect(replaced == (try Self.value(#"{"foo": ["bar", "baz"], "a/b": false, "m~n": {}}"#)))
        let removed = try JSONPatch.apply([.remove(try JSONPointer(parsing: "/foo/0"))], to: document)
        #expect(removed == (try Self.value(#"{"foo": ["baz"], "a/b": 1, "m~n": {"x": true}}"#)))
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([.replace(try JSONPointer(parsing: "/nope"), .null)], to: document) }
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([.remove(try JSONPointer(parsing: "/foo/2"))], to: document) }
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([.add(try JSONPointer(parsing: "/foo/3"), .null)], to: document) }
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([.add(try JSONPointer(parsing: "/x/y"), .null)], to: document) }
    }

    @Test("member names match by bytes: a KELVIN SIGN look-alike is another member")
    func bytes() throws {
        let document = try Self.value(#"{"K": 1}"#)
        #expect(throws: JSONPatchError.self) { try JSONPatch.apply([.replace(JSONPointer(["\u{212A}"]), .null)], to: document) }
    }

    @Test("operations read back from their own JSON")
    func roundTrip() throws {
        for operation: JSONPatchOperation in [.add(JSONPointer(["a", "-"]), .string("x")), .remove(JSONPointer(["b~/"])), .replace(JSONPointer([]), .null)] {
            #expect(try JSONPatchOperation(json: operation.json) == operation)
        }
        #expect(throws: JSONPatchError.self) { try JSONPatchOperation(json: try Self.value(#"{"op": "move", "path": "/a", "from": "/b"}"#)) }
    }

    @Test("a pointer's line in the file as written")
    func lines() throws {
        let text = "{\n  \"a\": [\n    1,\n    {\"b\": 2}\n  ],\n  \"c\": 3\n}"
        let document = try Self.value(text)
        #expect(JSONPatch.position(of: try JSONPointer(parsing: "/a/1/b"), in: document)?.line == 4)
        #expect(JSONPatch.position(of: try JSONPointer(parsing: "/c"), in: document)?.line == 6)
        #expect(JSONPatch.position(of: try JSONPointer(parsing: "/a/-"), in: document)?.line == 2)
    }
}

/// Every fix, applied with its own JSON Patch to the file and the fleet read and searched again from
/// scratch (not the incremental verification), closes exactly what it claims; the plan leaves what it says.
@Suite struct FleetFixesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The paths from inside the zone to outside, on every device, with the public search.
    static func paths(_ fleet: Fleet) throws -> Set<LeakPath> {
        var result: Set<LeakPath> = []
        for device in try fleet.resolvedDevices() {
            for reach in try device.reachAll() where !device.isOutside(.app(reach.from)) {
                for node in reach.reached where device.isOutside(node) {
                    result.insert(LeakPath(device: device.name, from: reach.from.rawValue, to: node.description))
                }
            }
        }
        return result
    }

    static func paths(_ fleet: IntuneFleet) throws -> Set<LeakPath> {
        var result: Set<LeakPath> = []
        for device in fleet.devices {
            for app in fleet.managedApps(on: device) {
                for path in try fleet.paths(device: device.name, from: app) where fleet.isOutside(path.to, on: device) {
                    result.insert(LeakPath(device: device.name, from: app.rawValue, to: path.to.description))
                }
            }
        }
        return result
    }

    /// Checks every fix and the plan of an AppConnect fleet file's text; returns how many fixes were checked.
    @discardableResult
    static func checkAppConnect(_ text: String, file: String = "fleet.json") throws -> Int {
        let document = try FixDocuments.read(Array(text.utf8), file: file)
        let subject = try AppConnectFixSubject(document: document, scope: FixScope())
        let before = try paths(try FleetJSON.read(document.value))
        #expect(subject.paths == before, "\(file): the subject's paths are the search's")
        let report = try FleetFixes.run(subject)
        for fix in report.fixes {
            let patched = try JSONPatch.apply(try fix.patch.map { try JSONPatchOperation(json: $0.json) }, to: document.value)
            let after = try paths(try FleetJSON.read(patched))
            #expect(Set(fix.closes) == before.subtracting(after), "\(file): \(fix.change) claims \(fix.closes.count) closed")
            #expect(Set(fix.remaining) == after, "\(file): \(fix.change) claims \(fix.remaining.count) remaining")
            #expect(!fix.closes.isEmpty)
        }
        var value = document.value
        for file in report.plan.patches { value = try JSONPatch.apply(file.patch, to: value) }
        let left = try paths(try FleetJSON.read(value))
        #expect(Set(report.plan.remaining) == left, "\(file): the plan leaves \(report.plan.remaining.count), the search finds \(left.count)")
        return report.fixes.count
    }

    @Test("acme: each printed fix closes what it claims; the plan closes all of HR's paths with one change")
    func acme() throws {
        let text = try String(contentsOfFile: Self.root + "/Examples/fleet/acme.json", encoding: .utf8)
        #expect(try Self.checkAppConnect(text, file: "acme.json") > 0)
        let subject = try AppConnectFixSubject(document: try FixDocuments.read(Array(text.utf8), file: "acme.json"), scope: FixScope(from: "com.acme.hr"))
        let report = try FleetFixes.run(subject)
        #expect(report.paths.count == 5)
        #expect(report.plan.changes.count == 1 && report.plan.remaining.isEmpty)
        #expect(report.fixes.first?.patch == [.replace(try JSONPointer(parsing: "/containerPolicies/1/openInPolicy"), .string("appconnect"))])
        #expect(report.fixes.first?.line == 16)
    }

    @Test("random AppConnect fleets: every fix, applied with its patch, closes exactly what it claims; the plan leaves what it says", arguments: 0..<Soak.size(60))
    func randomAppConnect(seed: Int) throws {
        var random = SplitMix64.stream(0xF1_4E5, item: seed)
        let spec = FleetReferenceModelTests.randomSpec(&random)
        let text = FleetReferenceModelTests.json(spec)
        // Some random fleets lack a control a request needs (an error, not a fleet to fix).
        guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), (try? Self.paths(fleet)) != nil else { return }
        try Self.checkAppConnect(text, file: "random-\(seed).json")
    }

    @Test("random AppConnect fleets: every candidate's incremental verdict (paths, exposure) is the full analysis of its patched file", arguments: 0..<Soak.size(40))
    func incrementalAgreesWithFull(seed: Int) throws {
        var random = SplitMix64.stream(0x1_4C4E, item: seed)
        let spec = FleetReferenceModelTests.randomSpec(&random)
        let text = FleetReferenceModelTests.json(spec)
        guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), (try? Self.paths(fleet)) != nil else { return }
        let document = try FixDocuments.read(Array(text.utf8), file: "random-\(seed).json")
        let subject = try AppConnectFixSubject(document: document, scope: FixScope())
        let candidates = subject.candidates()
        let bounds = subject.closingBounds(candidates)
        for (candidate, bound) in zip(candidates, bounds) {
            let patched = try JSONPatch.apply(candidate.patch, to: document.value)
            // The full analysis: the patched file read whole, every device resolved and every row decided.
            let full = try? AppConnectFixSubject(document: FixDocument(file: document.file, value: patched, start: document.start), scope: FixScope())
            let verdict = subject.verify(patched, candidate: candidate, collateral: false)
            #expect((full == nil) == (verdict == nil), "random-\(seed): \(candidate.change): valid after the change?")
            guard let full, let verdict else { continue }
            #expect(verdict.paths == full.paths, "random-\(seed): \(candidate.change)")
            #expect(verdict.exposure == full.exposure, "random-\(seed): \(candidate.change): exposure")
            #expect(subject.paths.subtracting(full.paths).count <= bound, "random-\(seed): \(candidate.change) closes more than its bound \(bound)")
            if subject.cannotChangePaths(candidate) {
                #expect(full.paths == subject.paths, "random-\(seed): \(candidate.change) was pruned but changes the paths")
            }
            let withCollateral = subject.verify(patched, candidate: candidate, collateral: true)
            #expect(withCollateral?.paths == full.paths, "random-\(seed): \(candidate.change): with collateral")
        }
    }

    @Test("a verification budget: the highest bounds verified first, the rest counted and bounded, every fix listed verified", arguments: 0..<30)
    func budget(seed: Int) throws {
        var random = SplitMix64.stream(0xB_0D6E7, item: seed)
        let text = FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random))
        guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), (try? Self.paths(fleet)) != nil else { return }
        let document = try FixDocuments.read(Array(text.utf8), file: "random-\(seed).json")
        let subject = try AppConnectFixSubject(document: document, scope: FixScope())
        guard !subject.paths.isEmpty else { return }
        let candidates = subject.candidates()
        let bounds = subject.closingBounds(candidates)
        let promising = bounds.filter { $0 > 0 }.sorted(by: >)
        let limit = 3
        let whole = try FleetFixes.run(subject)
        let report = try FleetFixes.run(subject, budget: limit)
        let budget = try #require(report.budget)
        #expect(budget.limit == limit)
        #expect(budget.unverified == max(0, promising.count - limit), "random-\(seed)")
        #expect(budget.unverifiedBound == (promising.count > limit ? promising[limit] : 0), "random-\(seed)")
        // Each fix listed is one the whole run verified, with the same counts; those left out are among the unverified.
        for fix in report.fixes {
            let same = whole.fixes.first { $0.change == fix.change }
            #expect(same?.closes == fix.closes && same?.remaining == fix.remaining, "random-\(seed): \(fix.change)")
        }
        #expect(whole.fixes.count - report.fixes.count <= budget.unverified, "random-\(seed)")
        if budget.unverified > 0, !report.plan.remaining.isEmpty { #expect(report.plan.why?.contains("were not, within the budget of 3") == true) }
        var value = document.value
        for file in report.plan.patches { value = try JSONPatch.apply(file.patch, to: value) }
        #expect(Set(report.plan.remaining) == (try Self.paths(try FleetJSON.read(value))), "random-\(seed): the budgeted plan")
    }

    /// An Intune folder's documents and fleet, as the CLI reads them.
    static func intune(_ path: String, devices: String) throws -> (IntuneFleet, IntuneFixSubject) {
        let export = try IntuneGraphJSON.read(path: path)
        var fleet = IntuneFleet(policies: export.policies, file: path)
        let bytes = Array(try String(contentsOfFile: devices, encoding: .utf8).utf8)
        (fleet.apps, fleet.devices) = try IntuneDevicesJSON.read(bytes, file: devices)
        try fleet.resolveAppGroups(try IntuneDevicesJSON.appGroups(bytes, file: devices))
        return (fleet, try IntuneFixSubject(path: path, fleet: fleet, scope: FixScope()))
    }

    static func checkIntune(_ fleet: IntuneFleet, _ subject: IntuneFixSubject, name: String) throws {
        let before = try paths(fleet)
        #expect(subject.paths == before)
        let report = try FleetFixes.run(subject)
        func reread(_ documents: [JSONValue]) throws -> IntuneFleet {
            var changed = fleet
            changed.policies = try documents.flatMap { try IntuneGraphJSON.read($0) }
            // Read again as the CLI reads a file: a policy naming an app group gets the group's apps.
            let resolution = try #require(fleet.appGroupResolution)
            try changed.resolveAppGroups(resolution.groups, devicesFile: resolution.devicesFile)
            return changed
        }
        for fix in report.fixes {
            var documents = subject.documents.map(\.value)
            let index = try #require(subject.documents.firstIndex { $0.file == fix.file })
            documents[index] = try JSONPatch.apply(fix.patch, to: documents[index])
            let after = try paths(try reread(documents))
            #expect(Set(fix.closes) == before.subtracting(after), "\(name): \(fix.change)")
            #expect(Set(fix.remaining) == after, "\(name): \(fix.change)")
        }
        var documents = subject.documents.map(\.value)
        for file in report.plan.patches {
            let index = try #require(subject.documents.firstIndex { $0.file == file.file })
            documents[index] = try JSONPatch.apply(file.patch, to: documents[index])
        }
        #expect(Set(report.plan.remaining) == (try paths(try reread(documents))), "\(name): the plan")
    }

    @Test("Intune pilot folder: fixes and the plan, each patch against the file that holds its policy; the plan closes every path")
    func intunePilot() throws {
        let (fleet, subject) = try Self.intune(Self.root + "/Examples/intune/pilot", devices: Self.root + "/Examples/intune/devices.json")
        try Self.checkIntune(fleet, subject, name: "pilot")
        let report = try FleetFixes.run(subject)
        #expect(!report.paths.isEmpty && report.plan.remaining.isEmpty)
        #expect(report.plan.patches.allSatisfy { $0.file.hasSuffix("viewer-and-outlook.json") })
    }

    @Test("random Intune fleets (object, array and list layouts): every fix closes what it claims", arguments: 0..<25)
    func randomIntune(seed: Int) throws {
        try Self.withRandomIntune(seed: seed) { fleet, subject in try Self.checkIntune(fleet, subject, name: "random-\(seed)") }
    }

    @Test("random Intune fleets: every candidate's incremental verdict (paths, exposure, collateral) is the full analysis of its patched file", arguments: 0..<Soak.size(40))
    func intuneIncrementalAgreesWithFull(seed: Int) throws {
        try Self.withRandomIntune(seed: seed) { fleet, subject in
            for candidate in subject.candidates() {
                let patched = try JSONPatch.apply(candidate.patch, to: subject.documents[candidate.document].value)
                var documents = subject.documents
                documents[candidate.document] = FixDocument(file: documents[candidate.document].file, value: patched, start: documents[candidate.document].start)
                // The full analysis: every document read again, every device's every decision made.
                let full = try? IntuneFixSubject(documents: documents, fleet: fleet, scope: FixScope())
                let verdict = subject.verify(patched, candidate: candidate, collateral: true)
                #expect((full == nil) == (verdict == nil), "random-\(seed): \(candidate.change): valid after the change?")
                guard let full, let verdict else { continue }
                #expect(verdict.paths == full.paths, "random-\(seed): \(candidate.change)")
                #expect(verdict.exposure == full.exposure, "random-\(seed): \(candidate.change): exposure")
                #expect(verdict.collateral == subject.flows.subtracting(full.flows), "random-\(seed): \(candidate.change): collateral")
            }
        }
    }

    @Test("a scheme exempted by two exemptions of a policy: one fix removes it from both (the one it holds alone removed), and it closes the path")
    func schemeInTwoExemptions() throws {
        let policy = """
            {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "allowedOutboundDataTransferDestinations": "managedApps",
             "allowedInboundDataTransferSources": "managedApps", "allowedOutboundClipboardSharingLevel": "blocked",
             "exemptedAppProtocols": [{"name": "phone", "value": "tel;dbapi-2;skype"}, {"name": "dropbox", "value": " DBAPI-2:// "}],
             "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "com.corp.hr"}}]}
            """
        let devices = #"{"apps": [], "devices": {"d": {"installed": ["com.corp.hr", "com.getdropbox.Dropbox"], "mdmEnrolled": true, "intuneMAMUPN": true, "schemeHandlers": {"dbapi-2": "com.getdropbox.Dropbox"}}}}"#
        let (fleet, subject) = try Self.intune(policies: policy, devices: devices, name: "two")
        try Self.checkIntune(fleet, subject, name: "two exemptions")
        let changes = subject.candidates().map(\.change)
        let both = "Remove the exempted scheme \"dbapi-2\" from exemptedAppProtocols of policy \"P\" (the exemptions \"phone\" and \"dropbox\")."
        #expect(changes.contains(both), "\(changes)")
        // One candidate per scheme: tel and skype from the first exemption alone; dbapi-2 once, not once per exemption.
        #expect(changes.filter { $0.contains("exempted scheme") }.count == 3, "\(changes)")
        let report = try FleetFixes.run(subject)
        #expect(!report.paths.isEmpty)
        let fix = try #require(report.fixes.first { $0.change == both })
        #expect(fix.remaining.isEmpty, "removing dbapi-2 from both exemptions closes the path to Dropbox")
        // Its patch: the exemption holding dbapi-2 alone removed, the other written again without it.
        let patched = try JSONPatch.apply(fix.patch, to: subject.documents[0].value)
        let policies = try IntuneGraphJSON.read(patched)
        #expect(policies[0].exemptions.map(\.name) == ["phone"] && policies[0].exemptions[0].schemes == ["tel", "skype"])
    }

    /// A random Intune fleet (one policy object, an array or a Graph list, by `seed`) written to a temporary folder, read as the CLI reads it.
    static func withRandomIntune(seed: Int, _ body: (IntuneFleet, IntuneFixSubject) throws -> Void) throws {
        var random = SplitMix64.stream(0x1_7E5, item: seed)
        let apps = ["com.corp.hr", "com.corp.viewer", "com.microsoft.office.outlook", "com.getdropbox.Dropbox", "com.google.chrome.ios"]
        var policies: [String] = []
        var assigned = apps.filter { _ in random.percent(60) }
        if assigned.isEmpty { assigned = [apps[0]] }
        var groups: [[String]] = [[], []]
        for app in assigned { groups[random.below(2)].append(app) }
        // The second policy sometimes targets an app group its export does not list (as Microsoft's templates do): all apps
        // with the Intune SDK, which the devices file's apps say; every copy a fix verifies must resolve it the same way.
        let byGroup = !groups[1].isEmpty && random.percent(40)
        for (index, group) in groups.enumerated() where !group.isEmpty {
            let targets = group.map { "{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"\($0)\"}}" }
            // Exemptions as the templates write them (several schemes to one), and a scheme exempted by two of them.
            let exemptions = random.pick([#"{"name": "x", "value": "dbapi-2;"}"#, #"{"name": "x", "value": "tel;dbapi-2;skype;"}"#,
                                          #"{"name": "x", "value": "tel;dbapi-2;skype;"}, {"name": "y", "value": "DBAPI-2://"}"#])
            let exempt = random.percent(50) ? #", "exemptedAppProtocols": [\#(exemptions)]"# : ""
            let links = random.percent(30) ? #", "exemptedUniversalLinks": ["https://www.dropbox.com/*"]"# : ""
            let send = random.pick(["allApps", "managedApps", "none"])
            policies.append("""
                {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P\(index)",
                 "allowedOutboundDataTransferDestinations": "\(send)",
                 "allowedInboundDataTransferSources": "\(random.pick(["allApps", "managedApps", "none"]))",
                 "allowedOutboundClipboardSharingLevel": "\(random.pick(["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"]))",
                 "filterOpenInToOnlyManagedApps": \(send == "managedApps" && random.percent(30)), "managedBrowserToOpenLinksRequired": \(random.percent(30))\(exempt)\(links),
                 \(index == 1 && byGroup ? #""appGroupType": "allApps"}"# : #""appGroupType": "selectedPublicApps", "apps": [\#(targets.joined(separator: ", "))]}"#)
                """)
        }
        let text: String = switch seed % 3 {
        case 0 where policies.count == 1: policies[0]
        case 1: "[" + policies.joined(separator: ",\n") + "]"
        default: #"{"@odata.context": "x", "value": ["# + policies.joined(separator: ",\n") + "]}"
        }
        let installed = apps.filter { _ in random.percent(80) }
        // A scheme handler must be installed on the device (a devices file naming another is an error).
        let handlers = [("dbapi-2", "com.getdropbox.Dropbox"), ("https", "com.google.chrome.ios")].filter { installed.contains($0.1) }
        let sdk = byGroup ? groups[1].map { #"{"bundleID": "\#($0)", "intuneSDKVersion": "19.0.0"}"# } : []
        let devices = #"{"apps": [\#(sdk.joined(separator: ", "))], "devices": {"d": {"installed": [\#(installed.map { "\"\($0)\"" }.joined(separator: ", "))], "mdmEnrolled": \#(random.percent(50)), "intuneMAMUPN": \#(random.percent(50)), "schemeHandlers": {\#(handlers.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", "))}}}}"#
        let (fleet, subject) = try Self.intune(policies: text, devices: devices, name: "\(seed)")
        try body(fleet, subject)
    }

    /// An Intune export and devices file given as text, written to a temporary folder (removed after) and read as the CLI reads them.
    static func intune(policies: String, devices: String, name: String) throws -> (IntuneFleet, IntuneFixSubject) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-fixes-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try policies.write(to: directory.appendingPathComponent("p.json"), atomically: true, encoding: .utf8)
        try devices.write(to: directory.appendingPathComponent("devices.json"), atomically: true, encoding: .utf8)
        return try intune(directory.appendingPathComponent("p.json").path, devices: directory.appendingPathComponent("devices.json").path)
    }
}
