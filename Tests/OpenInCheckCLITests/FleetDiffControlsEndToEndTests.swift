import Foundation
import Testing

/// `fleet diff` compares every control a fleet file sets: print and copy, which name no receiver and
/// so show in no flow, per app and device, beside the flows and leak paths.
@Suite struct FleetDiffControlsEndToEndTests {
    static func acme(replacing old: String, with new: String) throws -> String {
        let text = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json"), encoding: .utf8)
        #expect(text.contains(old))
        return try TemporaryFile.write(text.replacingOccurrences(of: old, with: new), name: "acme.json")
    }

    @Test func aPrintPolicyChangeIsNotZeroChanges() throws {
        // Before: "0 opened, 0 closed", exit 0.
        let allowed = try Self.acme(replacing: #""printPolicy": "unauthorized""#, with: #""printPolicy": "authorized""#)
        let run = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", allowed])
        #expect(run.status == 2)
        #expect(run.stdout == """
            + employee-iphone control opened: print com.acme.hr  (deny → allow)
            + employee-iphone control opened: print com.acme.viewer  (deny → allow)
            + employee-iphone control opened: print com.mobileiron.ios.emailplus  (deny → allow)
            + contractor-ipad control opened: print com.acme.viewer  (deny → allow)
            4 opened, 0 closed

            """)
        let back = try BuiltBinary.run(["fleet", "diff", allowed, "Examples/fleet/acme.json", "--device", "contractor-ipad", "--format", "json"])
        #expect(back.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [[String: String]])
        #expect(records == [["device": "contractor-ipad", "kind": "control", "change": "closed", "subject": "print com.acme.viewer", "detail": "allow → deny"]])
    }

    @Test func aCopyReadableByMoreAppsOpens() throws {
        let authorized = try Self.acme(replacing: #""pasteboardPolicy": "securecopy""#, with: #""pasteboardPolicy": "authorized""#)
        let run = try BuiltBinary.run(["fleet", "diff", "Examples/fleet/acme.json", authorized, "--device", "employee-iphone"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("+ employee-iphone control opened: copy com.acme.hr  (allow (readable by AppConnect apps only) → allow)\n"))
    }
}
