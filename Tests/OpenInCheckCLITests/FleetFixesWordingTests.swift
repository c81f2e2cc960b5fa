import Foundation
import Testing

@testable import OpenInCheckCLI
import OpenInReports
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// `fleet fixes` says what is true: the verb agrees with the count, a plan that closes nothing offers no patch,
/// a budget's bound bounds something, and what a change newly allows or could not be built is said.
@Suite struct FleetFixesWordingTests {
    static func path(_ to: String) -> LeakPath { LeakPath(device: "d", from: "com.corp.hr", to: to) }

    static func fix(_ change: String, closes: [LeakPath]) -> FleetFix {
        FleetFix(change: change, file: "f.json", line: 3, patch: [.replace(JSONPointer(["global", "openInPolicy"]), .string("appconnect"))], closes: closes,
                 remaining: [], collateral: [], newlyAllowed: [], appsTouched: 1, document: 0)
    }

    @Test("the plan's verb agrees with its count: 1 change closes, 2 changes close; a path the plan opens is counted as such")
    func grammar() {
        let given = (0..<20).map { Self.path("com.out.app\($0)") }
        let opened = Self.path("com.out.new")
        let one = FleetFixPlan(changes: [Self.fix("A.", closes: given)], patches: [("f.json", [])], closes: given, remaining: [opened], collateral: [],
                               newlyAllowed: [], why: "no further change of one setting closes any of them once the plan's changes are made")
        let text = FleetFixesOutput.planText(one, count: 20, paths: given)
        #expect(text.hasPrefix("Plan: 1 change closes 20 of 20 paths; 1 left (1 of them opened by the plan):\n"), "\(text)")
        #expect(!text.contains("1 change close "))
        let report = FleetFixReport(paths: given, fixes: [], plan: one, candidates: 1)
        #expect(FleetFixesOutput.markdown(report).contains("**Plan**: 1 change closes 20 of 20 paths; 1 left (1 of them opened by the plan) ("))
        let two = FleetFixPlan(changes: [Self.fix("A.", closes: [given[0]]), Self.fix("B.", closes: [given[1]])], patches: [("f.json", [])],
                               closes: Array(given.prefix(2)), remaining: Array(given.dropFirst(2)), collateral: [], newlyAllowed: [], why: "x")
        #expect(FleetFixesOutput.planText(two, count: 20, paths: given).hasPrefix("Plan: 2 changes close 2 of 20 paths; 18 left:\n"))
        let all = FleetFixPlan(changes: [Self.fix("A.", closes: given)], patches: [("f.json", [])], closes: given, remaining: [], collateral: [],
                               newlyAllowed: [], why: nil)
        #expect(FleetFixesOutput.planText(all, count: 20, paths: given).hasPrefix("Plan: 1 change closes all 20 paths:\n"))
    }

    /// Five Intune channels each leak HR's data to Dropbox on their own: no change of one setting closes a path.
    static func leakyEverywhere(_ body: (_ policies: String, _ devices: String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openin-fixes-wording-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let policies = directory.appendingPathComponent("p.json").path, devices = directory.appendingPathComponent("devices.json").path
        try """
            {"@odata.type": "#microsoft.graph.iosManagedAppProtection", "displayName": "P", "allowedOutboundDataTransferDestinations": "allApps",
             "allowedInboundDataTransferSources": "allApps", "allowedOutboundClipboardSharingLevel": "allApps", "managedBrowserToOpenLinksRequired": true,
             "exemptedAppProtocols": [{"name": "a", "value": "dbapi-1"}, {"name": "b", "value": "dbapi-2"}, {"name": "c", "value": "dbapi-3"}],
             "apps": [{"mobileAppIdentifier": {"@odata.type": "#microsoft.graph.iosMobileAppIdentifier", "bundleId": "com.corp.hr"}}]}
            """.write(toFile: policies, atomically: true, encoding: .utf8)
        try #"{"apps": [], "devices": {"d": {"installed": ["com.corp.hr", "com.getdropbox.Dropbox"], "mdmEnrolled": true, "intuneMAMUPN": true, "schemeHandlers": {"dbapi-1": "com.getdropbox.Dropbox", "dbapi-2": "com.getdropbox.Dropbox", "dbapi-3": "com.getdropbox.Dropbox"}}}}"#
            .write(toFile: devices, atomically: true, encoding: .utf8)
        try body(policies, devices)
    }

    @Test("a plan that closes none of the paths prints no step and no patch, says nothing can be closed by one setting, and exits 2 (paths to close)")
    func planThatClosesNothing() throws {
        try Self.leakyEverywhere { policies, devices in
            let arguments = ["fleet", "fixes", "--fleet", policies, "--devices", devices]
            let text = try BuiltBinary.run(arguments)
            #expect(text.status == 2, "\(text.stderr)")
            #expect(text.stdout.contains("\nPlan: none; 3 paths left:\n"), "\(text.stdout)")
            #expect(text.stdout.contains("  why: no change of one setting closes any of them;"))
            #expect(!text.stdout.contains("patch for") && !text.stdout.contains("close 0 of"), "\(text.stdout)")
            let markdown = try BuiltBinary.run(arguments + ["--format", "markdown"])
            #expect(markdown.status == 2)
            #expect(markdown.stdout.contains("**Plan**: none; 3 paths left (no change of one setting closes any of them"), "\(markdown.stdout)")
            #expect(!markdown.stdout.contains("JSON Patch"))
            let json = try BuiltBinary.run(arguments + ["--format", "json"])
            #expect(json.status == 2)
            let plan = try #require(try FleetFixesCLITests.json(json.stdout)["plan"] as? [String: Any])
            #expect((plan["changes"] as? [Any])?.isEmpty == true && (plan["patch"] as? [Any])?.isEmpty == true && (plan["patches"] as? [Any])?.isEmpty == true)
            #expect(plan["remaining"] as? Int == 3)
        }
    }

    @Test("a budget's bound is stated against the paths, and only when it bounds something")
    func budgetBound() {
        var budget = FixBudget(limit: 10)
        budget.unverified = 4
        budget.unverifiedBound = 2
        let bounded = FleetFixes.unverified(budget, verified: 12, paths: 5)
        #expect(bounded.contains("4 were not, within the budget of 10: none of those can close more than 2 of the 5 paths"), "\(bounded)")
        budget.unverifiedBound = 5
        let unbounded = FleetFixes.unverified(budget, verified: 12, paths: 5)
        #expect(!unbounded.contains("close more than"), "\(unbounded)")
        #expect(unbounded.contains("any of those might close some (no bound below all 5 paths is known for them)"))
        budget.unverified = 0
        #expect(FleetFixes.unverified(budget, verified: 12, paths: 5).isEmpty)
    }

    @Test("a change that newly allows an inside flow says so in text and Markdown; a candidate that cannot be built is listed with why")
    func newlyAllowedAndNotBuilt() throws {
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "authorized",
                        "pasteboardPolicy": "unauthorized", "dragAndDropPolicy": "none"},
             "containerPolicies": [
               {"name": "Mail", "app": "com.acme.mail", "labels": ["All"], "openInPolicy": "whitelist", "openInWhitelist": ["com.acme.viewer", "com.getdropbox.Dropbox"]},
               {"name": "com.acme.hr (tightened)", "app": "com.acme.viewer", "labels": ["All"], "openInPolicy": "appconnect"}],
             "apps": [{"bundleID": "com.acme.hr", "appconnect": true}, {"bundleID": "com.acme.viewer", "appconnect": true},
                      {"bundleID": "com.acme.mail", "appconnect": true}, {"bundleID": "com.getdropbox.Dropbox", "appconnect": false}],
             "devices": {"d": {"labels": ["All"], "installed": ["com.acme.hr", "com.acme.viewer", "com.acme.mail", "com.getdropbox.Dropbox"],
                               "secureServicesAvailable": true}}}
            """
        let subject = try AppConnectFixSubject(document: try FixDocuments.read(Array(text.utf8), file: "f.json"), scope: FixScope())
        let report = try FleetFixes.run(subject)
        let out = FleetFixesOutput.text(report)
        #expect(out.contains("   also newly allows: "), "\(out)")
        #expect(out.contains("flows inside the zone of trust blocked before:\n     d: com.acme.mail → com.acme.hr (app-extension)\n     d: com.acme.mail → com.acme.hr (document-interaction)\n"), "\(out)")
        let markdown = FleetFixesOutput.markdown(report)
        #expect(markdown.contains("; also newly allows "), "\(markdown)")
        // HR takes a leaky control from the global policy, but the name its new policy would get is the viewer's policy's.
        #expect(report.unbuilt.count == 3, "\(report.unbuilt)")
        do {
            #expect(out.contains("\nNot built: \(report.unbuilt.count) candidate change"), "\(out)")
            #expect(out.contains("    why: the fleet already has a container policy named \"com.acme.hr (tightened)\""), "\(out)")
            #expect(markdown.contains("**Not built**: \(report.unbuilt.count) candidate change"), "\(markdown)")
            #expect(JSONWriter.compact(report.json).contains("\"notBuilt\":[{\"change\":\"Add a container policy"))
        }
    }
}
