import Foundation
import Testing

@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import OpenInTestSupport

/// RFC 6902 (JSON Patch) and RFC 6901 (JSON Pointer) written here, on Foundation's JSON values, independent of
/// the project's `JSONPatch`: what an auditor applies a printed fix with.
enum IndependentJSONPatch {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A pointer's reference tokens (RFC 6901 §3–4: `~1` is `/`, then `~0` is `~`).
    static func tokens(_ pointer: String) throws -> [String] {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { throw Failure(description: "a pointer starts with /: \(pointer)") }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// An array index token (RFC 6901 §4: digits, no leading zero).
    static func index(_ token: String) -> Int? {
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && $0.isNumber }), token == "0" || !token.hasPrefix("0") else { return nil }
        return Int(token)
    }

    /// The operation on `document` at `tokens`: `add`, `remove` or `replace` (`value` for add and replace).
    static func apply(_ op: String, _ tokens: ArraySlice<String>, _ value: Any?, to document: Any) throws -> Any? {
        guard let token = tokens.first else {
            // The whole document.
            switch op {
            case "add", "replace": return value
            default: throw Failure(description: "cannot remove the whole document")
            }
        }
        let last = tokens.count == 1
        if var object = document as? [String: Any] {
            if last {
                switch op {
                case "add": object[token] = value
                case "remove", "replace":
                    guard object[token] != nil else { throw Failure(description: "no member \(token) to \(op)") }
                    object[token] = op == "remove" ? nil : value
                default: throw Failure(description: "operation \(op)")
                }
                return object
            }
            guard let child = object[token] else { throw Failure(description: "no member \(token)") }
            object[token] = try apply(op, tokens.dropFirst(), value, to: child)
            return object
        }
        if var array = document as? [Any] {
            if last, op == "add", token == "-" {
                array.append(value as Any)
                return array
            }
            guard let position = index(token) else { throw Failure(description: "not an index: \(token)") }
            if last {
                switch op {
                case "add":
                    guard position <= array.count else { throw Failure(description: "index \(position) past the end") }
                    array.insert(value as Any, at: position)
                case "remove", "replace":
                    guard position < array.count else { throw Failure(description: "no element \(position)") }
                    if op == "remove" { array.remove(at: position) } else { array[position] = value as Any }
                default: throw Failure(description: "operation \(op)")
                }
                return array
            }
            guard position < array.count else { throw Failure(description: "no element \(position)") }
            array[position] = try apply(op, tokens.dropFirst(), value, to: array[position]) as Any
            return array
        }
        throw Failure(description: "\(token): not a container")
    }

    /// `patch` (the JSON text of an RFC 6902 array) applied to `document` (JSON text), the result as JSON bytes.
    static func apply(patch: String, to document: [UInt8]) throws -> [UInt8] {
        var value = try JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])
        guard let operations = try JSONSerialization.jsonObject(with: Data(patch.utf8)) as? [[String: Any]] else {
            throw Failure(description: "a patch is an array of objects")
        }
        for operation in operations {
            guard let op = operation["op"] as? String, let path = operation["path"] as? String else { throw Failure(description: "op and path") }
            guard ["add", "remove", "replace"].contains(op) else { throw Failure(description: "operation \(op) not used by the fixes") }
            if op != "remove", operation["value"] == nil { throw Failure(description: "\(op) without a value") }
            value = try apply(op, try tokens(path)[...], operation["value"], to: value) as Any
        }
        return Array(try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
    }
}

/// What the whole `fleet matrix` says changed between two fleets, inside the zone of trust as it was: every
/// grid's cell between two apps inside the zone, delivering (allow or redirect) before and not after, or the reverse.
struct MatrixChange: Equatable {
    var blocked: Set<InsideFlow> = []
    var allowed: Set<InsideFlow> = []

    static func delivers(_ outcome: Outcome?) -> Bool { outcome == .allow || outcome == .redirect }

    /// The cells of `before` and `after` (the same device's matrices) between apps `inside` says are inside the zone.
    static func compare(_ before: FleetMatrix, _ after: FleetMatrix, inside: (BundleID) -> Bool, into change: inout MatrixChange) {
        #expect(before.senders == after.senders && before.receivers == after.receivers && before.channels == after.channels)
        for channel in before.channels {
            for (s, sender) in before.senders.enumerated() where inside(sender) {
                for (r, receiver) in before.receivers.enumerated() {
                    guard case .app(let to) = receiver, inside(to) else { continue }
                    let was = delivers(before.outcome(channel, sender: s, receiver: r)), now = delivers(after.outcome(channel, sender: s, receiver: r))
                    guard was != now else { continue }
                    let flow = InsideFlow(device: before.device, from: sender.rawValue, channel: channel.rawValue, to: to.rawValue)
                    if was { change.blocked.insert(flow) } else { change.allowed.insert(flow) }
                }
            }
        }
    }

    /// Between two AppConnect fleets, the zone being `before`'s.
    init(_ before: Fleet, _ after: Fleet) throws {
        // By name: a file written again may list its devices (a JSON object's members) in another order.
        let old = try before.resolvedDevices(), new = try after.resolvedDevices()
        #expect(Set(old.map(\.name)) == Set(new.map(\.name)) && old.count == new.count)
        for device in old {
            let changed = try #require(new.first { ExactText.same($0.name, device.name) })
            MatrixChange.compare(try device.matrix(), try changed.matrix(), inside: { !device.isOutside(.app($0)) }, into: &self)
        }
    }

    /// Between two Intune fleets, the zone being `before`'s.
    init(_ before: IntuneFleet, _ after: IntuneFleet) throws {
        for device in before.devices {
            MatrixChange.compare(try before.matrix(device: device.name), try after.matrix(device: device.name),
                                 inside: { !before.isOutside(.app($0), on: device) }, into: &self)
        }
    }
}

/// Each fix's and the plan's claims (paths closed and left, collateral blocked, flows newly allowed) against an
/// auditor's check: the fix's JSON Patch applied with an independent RFC 6902 implementation, the patched file read
/// again, and the whole `fleet matrix` compared before and after.
@Suite struct FleetFixesMatrixTests {
    static let root = FleetFixesTests.root

    /// The patched document's bytes: `patch` (operations) as JSON text, applied by ``IndependentJSONPatch``.
    static func patched(_ document: FixDocument, _ patch: [JSONPatchOperation]) throws -> [UInt8] {
        try IndependentJSONPatch.apply(patch: JSONWriter.compact(JSONPatch.json(patch)), to: Array(JSONWriter.pretty(document.value).utf8))
    }

    /// Checks every fix and the plan of an AppConnect fleet file's text against the matrix; returns the fixes' claims.
    @discardableResult
    static func checkAppConnect(_ text: String, file: String, scope: FixScope = FixScope()) throws -> FleetFixReport {
        let document = try FixDocuments.read(Array(text.utf8), file: file)
        let before = try FleetJSON.read(Array(text.utf8), file: file)
        let paths = try FleetFixesTests.paths(before)
        let report = try FleetFixes.run(try AppConnectFixSubject(document: document, scope: scope))
        func check(_ what: String, patch: [JSONPatchOperation], closes: Set<LeakPath>, remaining: Set<LeakPath>, blocked: [InsideFlow], allowed: [InsideFlow]) throws {
            let after = try FleetJSON.read(try patched(document, patch), file: file)
            let left = try FleetFixesTests.paths(after)
            if scope.device == nil, scope.from == nil, scope.to == nil {
                #expect(closes == paths.subtracting(left), "\(file): \(what): paths closed")
                #expect(remaining == left, "\(file): \(what): paths left")
            }
            let change = try MatrixChange(before, after)
            #expect(Set(blocked) == change.blocked, "\(file): \(what): collateral \(Set(blocked).symmetricDifference(change.blocked))")
            #expect(Set(allowed) == change.allowed, "\(file): \(what): newly allowed \(Set(allowed).symmetricDifference(change.allowed))")
            #expect(blocked.count == Set(blocked).count && allowed.count == Set(allowed).count, "\(file): \(what): each flow once")
        }
        for fix in report.fixes {
            try check(fix.change, patch: fix.patch, closes: Set(fix.closes), remaining: fix.remaining, blocked: fix.collateral, allowed: fix.newlyAllowed)
        }
        #expect(report.plan.patches.count <= 1)
        try check("the plan", patch: report.plan.patches.flatMap(\.patch), closes: Set(report.plan.closes), remaining: Set(report.plan.remaining),
                  blocked: report.plan.collateral, allowed: report.plan.newlyAllowed)
        return report
    }

    @Test("random AppConnect fleets: each fix's patch, applied independently, changes the whole matrix inside the zone exactly as its collateral and newly allowed flows say; the plan too",
          arguments: 0..<Soak.size(50))
    func randomAppConnect(seed: Int) throws {
        var random = SplitMix64.stream(0xC0_11A7, item: seed)
        let text = FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random))
        // Some random fleets lack a control a request needs (an error, not a fleet to fix).
        guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), (try? FleetFixesTests.paths(fleet)) != nil,
              (try? fleet.resolvedDevices().map { try $0.matrix() }) != nil else { return }
        try Self.checkAppConnect(text, file: "random-\(seed).json")
    }

    @Test("random Intune fleets: each fix's patch, applied independently to its file, changes the whole matrix inside the zone exactly as it says; the plan too",
          arguments: 0..<Soak.size(90))
    func randomIntune(seed: Int) throws {
        try FleetFixesTests.withRandomIntune(seed: seed) { fleet, subject in try Self.checkIntune(fleet, subject, name: "random-\(seed)") }
    }

    /// Checks every fix and the plan of an Intune subject against the matrix; returns the report.
    @discardableResult
    static func checkIntune(_ fleet: IntuneFleet, _ subject: IntuneFixSubject, name: String) throws -> FleetFixReport {
        let report = try FleetFixes.run(subject)
        let paths = try FleetFixesTests.paths(fleet)
        func reread(_ patches: [(file: String, patch: [JSONPatchOperation])]) throws -> IntuneFleet {
            var changed = fleet
            changed.policies = []
            for document in subject.documents {
                let patch = patches.filter { $0.file == document.file }.flatMap(\.patch)
                let bytes = patch.isEmpty ? Array(JSONWriter.pretty(document.value).utf8) : try patched(document, patch)
                changed.policies += try IntuneGraphJSON.read(try JSONReader().read(bytes))
            }
            let resolution = try #require(fleet.appGroupResolution)
            try changed.resolveAppGroups(resolution.groups, devicesFile: resolution.devicesFile)
            return changed
        }
        func check(_ what: String, _ patches: [(file: String, patch: [JSONPatchOperation])], closes: Set<LeakPath>, remaining: Set<LeakPath>,
                   blocked: [InsideFlow], allowed: [InsideFlow]) throws {
            let after = try reread(patches)
            let left = try FleetFixesTests.paths(after)
            #expect(closes == paths.subtracting(left), "\(name): \(what): paths closed")
            #expect(remaining == left, "\(name): \(what): paths left")
            let change = try MatrixChange(fleet, after)
            #expect(Set(blocked) == change.blocked, "\(name): \(what): collateral \(Set(blocked).symmetricDifference(change.blocked))")
            #expect(Set(allowed) == change.allowed, "\(name): \(what): newly allowed \(Set(allowed).symmetricDifference(change.allowed))")
        }
        for fix in report.fixes {
            try check(fix.change, [(fix.file, fix.patch)], closes: Set(fix.closes), remaining: fix.remaining, blocked: fix.collateral, allowed: fix.newlyAllowed)
        }
        try check("the plan", report.plan.patches, closes: Set(report.plan.closes), remaining: Set(report.plan.remaining),
                  blocked: report.plan.collateral, allowed: report.plan.newlyAllowed)
        return report
    }

    @Test("acme: \"Viewer → unauthorized\" also blocks open-url com.acme.viewer → com.acme.hr (HR's own acmehr: scheme), and says so; every fix agrees with the matrix")
    func acmeOpenURL() throws {
        let text = try String(contentsOfFile: Self.root + "/Examples/fleet/acme.json", encoding: .utf8)
        let report = try Self.checkAppConnect(text, file: "acme.json")
        let unauthorized = try #require(report.fixes.first { $0.change == "Set openInPolicy of container policy \"Viewer\" from \"authorized\" to \"unauthorized\"." })
        let openURL = InsideFlow(device: "employee-iphone", from: "com.acme.viewer", channel: "open-url", to: "com.acme.hr")
        #expect(unauthorized.collateral.contains(openURL), "\(unauthorized.collateral)")
        // HR's own scope, as the walkthrough runs it: the same fix, 9 flows (it printed 8, open-url left out).
        let scoped = try Self.checkAppConnect(text, file: "acme.json", scope: FixScope(device: "employee-iphone", from: "com.acme.hr"))
        let fix = try #require(scoped.fixes.first { $0.change == unauthorized.change })
        #expect(fix.collateral.count == 9 && fix.collateral.contains(openURL))
    }

    @Test("Intune acme-app-protection-loosened: fix 2 lists its 11 open-url flows inside the zone among its collateral (81, not 70), as the matrix says")
    func loosenedOpenURL() throws {
        let (fleet, subject) = try FleetFixesTests.intune(Self.root + "/Examples/intune/acme-app-protection-loosened.json",
                                                          devices: Self.root + "/Examples/intune/devices.json")
        let report = try Self.checkIntune(fleet, subject, name: "loosened")
        try #require(report.fixes.count >= 2)
        let fix = report.fixes[1]
        #expect(fix.collateral.count == 81, "\(fix.change): \(fix.collateral.count)")
        #expect(fix.collateral.count(where: { $0.channel == "open-url" }) == 11)
        // Ranked by the whole count: the fix with less collateral first.
        #expect(report.fixes[0].collateral.count <= fix.collateral.count)
    }

    @Test("a change that newly allows an inside flow says so: Mail's Open In whitelist replaced by \"appconnect\" closes its path to Dropbox and lets Mail send to HR")
    func newlyAllowed() throws {
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "unauthorized", "dragAndDropPolicy": "none"},
             "containerPolicies": [
               {"name": "Mail", "app": "com.acme.mail", "labels": ["All"], "openInPolicy": "whitelist", "openInWhitelist": ["com.acme.viewer", "com.getdropbox.Dropbox"]}],
             "apps": [{"bundleID": "com.acme.hr", "appconnect": true}, {"bundleID": "com.acme.viewer", "appconnect": true},
                      {"bundleID": "com.acme.mail", "appconnect": true}, {"bundleID": "com.getdropbox.Dropbox", "appconnect": false}],
             "devices": {"d": {"labels": ["All"], "installed": ["com.acme.hr", "com.acme.viewer", "com.acme.mail", "com.getdropbox.Dropbox"],
                               "secureServicesAvailable": true}}}
            """
        let report = try Self.checkAppConnect(text, file: "allows.json")
        let fix = try #require(report.fixes.first { $0.change == "Set openInPolicy of container policy \"Mail\" from \"whitelist\" to \"appconnect\"." },
                               "\(report.fixes.map(\.change))")
        #expect(fix.newlyAllowed.contains(InsideFlow(device: "d", from: "com.acme.mail", channel: "document-interaction", to: "com.acme.hr")), "\(fix.newlyAllowed)")
        #expect(JSONWriter.compact(fix.json).contains("\"newlyAllowed\":[{"))
    }

    @Test("an \"add a container policy\" candidate whose generated name is taken is reported with why, not dropped; in text, Markdown and JSON")
    func takenNameIsReported() throws {
        // HR takes its leaky Open In from the global policy; another app's policy already has the name the candidate would give HR's.
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "authorized", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "unauthorized", "dragAndDropPolicy": "none"},
             "containerPolicies": [
               {"name": "com.acme.hr (tightened)", "app": "com.acme.viewer", "labels": ["All"], "openInPolicy": "appconnect"}],
             "apps": [{"bundleID": "com.acme.hr", "appconnect": true}, {"bundleID": "com.acme.viewer", "appconnect": true},
                      {"bundleID": "com.getdropbox.Dropbox", "appconnect": false}],
             "devices": {"d": {"labels": ["All"], "installed": ["com.acme.hr", "com.acme.viewer", "com.getdropbox.Dropbox"], "secureServicesAvailable": true}}}
            """
        let document = try FixDocuments.read(Array(text.utf8), file: "taken.json")
        let subject = try AppConnectFixSubject(document: document, scope: FixScope())
        let report = try FleetFixes.run(subject)
        #expect(!report.paths.isEmpty)
        let taken = report.unbuilt.filter { $0.change.hasPrefix("Add a container policy \"com.acme.hr (tightened)\" for com.acme.hr") }
        #expect(!taken.isEmpty, "\(report.unbuilt)")
        for fix in taken {
            #expect(fix.why.contains("already has a container policy named \"com.acme.hr (tightened)\" (for com.acme.viewer)"), "\(fix.why)")
        }
        // Every candidate is accounted for: verified, or reported as not built.
        #expect(report.candidates + report.unbuilt.count == subject.candidates().count)
        let json = JSONWriter.compact(report.json)
        #expect(json.contains("\"notBuilt\":[{") && json.contains("already has a container policy named"))
        try Self.checkAppConnect(text, file: "taken.json")
    }

    @Test("every candidate is verified or reported: on random AppConnect fleets, candidates verified plus those not built is every candidate", arguments: 0..<20)
    func everyCandidateAccountedFor(seed: Int) throws {
        var random = SplitMix64.stream(0xACC0, item: seed)
        let text = FleetReferenceModelTests.json(FleetReferenceModelTests.randomSpec(&random))
        guard let fleet = try? FleetJSON.read(Array(text.utf8), file: "random.json"), (try? FleetFixesTests.paths(fleet)) != nil else { return }
        let subject = try AppConnectFixSubject(document: try FixDocuments.read(Array(text.utf8), file: "random-\(seed).json"), scope: FixScope())
        let report = try FleetFixes.run(subject)
        guard !report.paths.isEmpty else { return }
        #expect(report.candidates + report.unbuilt.count == subject.candidates().count, "random-\(seed)")
        // A candidate reported as not built is one whose patched file the reader refuses (or whose patch cannot be made).
        for fix in report.unbuilt {
            let candidate = try #require(subject.candidates().first { $0.change == fix.change })
            if candidate.patch.isEmpty { continue }
            let bytes = try Self.patched(subject.documents[0], candidate.patch)
            let valid = (try? FleetJSON.read(bytes, file: "p.json")).map { (try? FleetFixesTests.paths($0)) != nil } ?? false
            #expect(!valid, "random-\(seed): \(fix.change) reported as not built: \(fix.why)")
        }
    }

    @Test("the plan: steps that close nothing are not the plan's; a plan that closes nothing has no step and no patch, and says why")
    func planThatClosesNothing() throws {
        // Five Intune channels each leak HR's data to Dropbox on their own: Send, the clipboard and three exempted schemes.
        // No change of one setting closes the path, and three changes in a row that lower the exposure close none.
        let policy = """
            {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "allowedOutboundDataTransferDestinations": "allApps",
             "allowedInboundDataTransferSources": "allApps", "allowedOutboundClipboardSharingLevel": "allApps", "managedBrowserToOpenLinksRequired": true,
             "exemptedAppProtocols": [{"name": "a", "value": "dbapi-1"}, {"name": "b", "value": "dbapi-2"}, {"name": "c", "value": "dbapi-3"}],
             "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "com.corp.hr"}}]}
            """
        let devices = #"{"apps": [], "devices": {"d": {"installed": ["com.corp.hr", "com.getdropbox.Dropbox"], "mdmEnrolled": true, "intuneMAMUPN": true, "schemeHandlers": {"dbapi-1": "com.getdropbox.Dropbox", "dbapi-2": "com.getdropbox.Dropbox", "dbapi-3": "com.getdropbox.Dropbox"}}}}"#
        let (fleet, subject) = try FleetFixesTests.intune(policies: policy, devices: devices, name: "nothing")
        let report = try Self.checkIntune(fleet, subject, name: "closes nothing")
        #expect(!report.paths.isEmpty)
        if report.plan.closes.isEmpty {
            #expect(report.plan.changes.isEmpty && report.plan.patches.isEmpty && report.plan.collateral.isEmpty)
            #expect(report.plan.why?.hasPrefix("no change of one setting closes any of them") == true, "\(report.plan.why ?? "")")
        }
        // Whatever the plan is, its last step closes a path.
        #expect(report.plan.changes.last.map { !$0.closes.isEmpty } ?? true)
    }
}
