import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// `excludedAppleActivityTypes` in a fleet's global and container policies (Rules/fleet/fleet.md,
/// "Share-sheet activities the server excludes"): read, resolved container over global, decided by rule 4 in
/// the sender, and named where it decides.
@Suite struct FleetExcludedActivitiesTests {
    static func fleet() throws -> Fleet {
        let path = "Rules/fleet/excluded-activities.json"
        return try FleetJSON.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test func containerListReplacesTheGlobalOne() throws {
        let device = try Self.fleet().device(named: "finance-phone")
        let ids = { (names: [String]) in try names.map { try BundleID($0) } }
        #expect(device.effectivePolicy(for: try BundleID("com.example.notes")).policy.excludedActivityTypes == (try ids(["com.example.docs"])))
        #expect(device.effectivePolicy(for: try BundleID("com.example.docs")).policy.excludedActivityTypes == [])
        #expect(device.effectivePolicy(for: try BundleID("com.example.crm")).policy.excludedActivityTypes == (try ids(["com.example.files", "com.apple.UIKit.activity.AirDrop"])))
        #expect(device.effectivePolicy(for: try BundleID("com.example.docs")).excludedActivitiesSource == .containerPolicy(name: "Docs", label: "Finance"))
        #expect(device.effectivePolicy(for: try BundleID("com.example.crm")).excludedActivitiesSource == .globalPolicy)
        // Retired and unmanaged apps exclude nothing, and say so.
        for app in ["com.example.legacy", "com.example.files"] {
            let policy = device.effectivePolicy(for: try BundleID(app))
            #expect(policy.policy.excludedActivityTypes.isEmpty && policy.excludedActivitiesSource == .notSet, "\(app)")
        }
    }

    @Test func theDecisionNamesTheEntryThatExcludes() throws {
        let device = try Self.fleet().device(named: "finance-phone")
        let fromContainer = try device.decide(try FleetRequest(from: try BundleID("com.example.notes"), channel: .activityView, target: try BundleID("com.example.docs")))
        #expect(fromContainer.sender.rule == ExcludedActivityRule.excluded.id && fromContainer.outcome == .deny)
        let named = fromContainer.settings.map { "\($0.key) = \($0.value) (\($0.policy), \($0.via), line \($0.line.map(String.init) ?? "-"))" }
        #expect(named == ["containerPolicies[0].excludedAppleActivityTypes[0] = com.example.docs (Notes, container policy by label Finance, line 15)"])
        let fromGlobal = try device.decide(try FleetRequest(from: try BundleID("com.example.crm"), channel: .activityView, target: try BundleID("com.apple.UIKit.activity.AirDrop")))
        #expect(fromGlobal.settings.map { "\($0.key) = \($0.value) (\($0.via))" } == ["global.excludedAppleActivityTypes[1] = com.apple.UIKit.activity.AirDrop (global default)"])
        // --explain names where the list came from, only where a policy sets it.
        #expect(FleetRecord.provenanceLines(fromGlobal.senderPolicy!).contains("excludedAppleActivityTypes: global policy"))
        let unmanaged = try device.decide(try FleetRequest(from: try BundleID("com.example.files"), channel: .activityView, target: try BundleID("com.example.crm")))
        #expect(!FleetRecord.provenanceLines(unmanaged.senderPolicy!).contains { $0.hasPrefix("excludedAppleActivityTypes") })
    }

    @Test func theReaderChecksTheList() {
        func error(_ global: String) -> String {
            let text = #"{"global": {"authorizeAppsWithoutContainerPolicy": true, "# + global + "}}"
            do {
                _ = try FleetJSON.read(Array(text.utf8), file: "f.json")
                return "read"
            } catch {
                return error.description
            }
        }
        #expect(error(#""excludedAppleActivityTypes": "com.apple.UIKit.activity.AirDrop""#).contains("must be an array (Apple activity types, such as com.apple.UIKit.activity.AirDrop)"))
        #expect(error(#""excludedAppleActivityTypes": ["com.apple.UIKit.activity.*"]"#).contains("malformed bundle ID"))
        #expect(error(#""excludedAppleActivityTypes": ["com.apple.UIKit.activity.AirDrop"]"#) == "read")
    }
}
