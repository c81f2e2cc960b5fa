import Foundation
import Testing

/// `--explain` on Intune policies with assignments: which policies reach each side's app on the profile and why
/// (`Rules/intune/README.md`, "Explaining who a policy reaches"), in text and JSON, for `fleet eval` and `eval --policy`.
@Suite struct IntuneExplainEndToEndTests {
    static let fleet = ["--fleet", "Examples/intune/by-level/app-protection.json", "--devices", "Examples/intune/by-level/devices.json"]
    static let word = "com.microsoft.Office.Word"

    @Test("text: the management type and why, each policy that targets the app with the step that decided, the group's name and id, the filter's rule and the value it read")
    func text() throws {
        let run = try BuiltBinary.run(["fleet", "eval"] + Self.fleet + ["--device", "enrolled-iphone", "--from", Self.word, "--channel", "document-interaction",
                                                                        "--target", "com.getdropbox.Dropbox", "--explain"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("""
                com.microsoft.Office.Word on enrolled-iphone is Managed (the device is MDM-enrolled and the app receives IntuneMAMUPN)
                1 of the 3 policies that target it reaches it
                policy "Acme - iOS - Unmanaged devices - Printing disabled": does not reach the app
                  targets the app: listed in its apps
                  level unmanaged (Unmanaged apps only) does not take Managed apps
                  its groups are not looked at: the management level already leaves the app out
                policy "Acme - iOS - Managed devices - OS sharing": reaches the app
                  targets the app: listed in its apps
                  level mdm (Managed apps only) takes Managed apps
                  included by group "Acme staff" (9f2c41d7-3b6a-4e58-a1c0-5d7e8f9a0b12); no group it excludes holds the user
                  include filter "iOS 17 and later" (app.operatingSystemVersion -ge 17.0): holds (app.operatingSystemVersion = "17.5"), so it admits the app
            """), "\(run.stdout)")
        // Excluded: no policy reaches Word, and the output says why it is not policy-managed.
        let admin = try BuiltBinary.run(["fleet", "eval"] + Self.fleet + ["--device", "admin-iphone", "--from", Self.word, "--channel", "print", "--explain"])
        #expect(admin.stdout.contains("com.microsoft.Office.Word: no app protection policy reaches it on this profile"), "\(admin.stdout)")
        #expect(admin.stdout.contains("no policy that targets it reaches it here: it is not policy-managed (Intune allows its shares as unprotected)"))
        #expect(admin.stdout.contains(#"excluded by group "Break glass admins" (2d4e6f80-9a1b-4c3d-8e5f-60718293a4b5), which holds the user: exclusion wins"#))
        #expect(admin.stdout.contains(#"no group it includes holds the user (it includes "Contractors" (c0a8e1f2-5b6c-4d7e-9f80-a1b2c3d4e5f6))"#))
        // Without --explain, nothing of it: the rule's reason says only that no policy protects the app here.
        let plain = try BuiltBinary.run(["fleet", "eval"] + Self.fleet + ["--device", "admin-iphone", "--from", Self.word, "--channel", "print"])
        for explained in ["reaches it on this profile", "exclusion wins", "no group it includes", "Break glass admins", "Contractors"] {
            #expect(!plain.stdout.contains(explained), "\(plain.stdout)")
        }
        #expect(plain.stdout.contains("[intune.unmanaged.allow]  No Intune app protection policy protects the sending app here (none targets it, or none that does reaches this profile)"))
    }

    @Test("several policies reach: both sides say which policy decided the setting their rule read, with the --conflicts mode")
    func decidedBy() throws {
        for (mode, policy) in [("most-restrictive", "Acme - iOS - Unmanaged devices - Printing disabled"), ("least-restrictive", "Acme - iOS - Contractors - All apps")] {
            let run = try BuiltBinary.run(["fleet", "eval"] + Self.fleet + ["--device", "contractor-ipad", "--from", Self.word, "--channel", "document-interaction",
                                                                            "--target", "com.microsoft.Office.Outlook", "--explain", "--conflicts", mode])
            #expect(run.stdout.contains("2 of the 3 policies that target it reach it: their settings merge, \(mode)"), "\(run.stdout)")
            #expect(run.stdout.contains("allowedOutboundDataTransferDestinations decided by \"\(policy)\" (\(mode))"), "\(run.stdout)")
            #expect(run.stdout.contains("app protection policies \"Acme - iOS - Unmanaged devices - Printing disabled\" + \"Acme - iOS - Contractors - All apps\" (merged, \(mode))"))
        }
    }

    @Test("JSON: the same as structured fields under explanation.<side>.reach, the existing fields as they were; eval --policy gives it too")
    func json() throws {
        for verb in [["fleet", "eval"] + Self.fleet, ["eval", "--policy", Self.fleet[1], "--devices", Self.fleet[3]]] {
            let run = try BuiltBinary.run(verb + ["--device", "contractor-ipad", "--from", Self.word, "--channel", "print", "--explain", "--format", "json"])
            let record = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
            let sender = try #require((record["explanation"] as? [String: Any])?["sender"] as? [String: Any])
            #expect(sender["step"] as? Int != nil && sender["quote"] as? String != nil)
            let reach = try #require(sender["reach"] as? [String: Any])
            #expect(reach["managementType"] as? String == "Unmanaged" && reach["mdmEnrolled"] as? Bool == false && reach["intuneMAMUPN"] as? Bool == false)
            let policies = try #require(reach["policies"] as? [[String: Any]])
            #expect(policies.map { $0["reaches"] as? Bool } == [true, false, true])
            #expect(policies.map { $0["scope"] as? String } == ["included", nil, "included"])
            #expect((policies[2]["includedBy"] as? [String: String]) == ["name": "Contractors", "id": "c0a8e1f2-5b6c-4d7e-9f80-a1b2c3d4e5f6"])
            #expect(policies[1]["levelMatches"] as? Bool == false && policies[1]["managementLevels"] as? String == "mdm")
            #expect(reach["conflicts"] as? String == "most-restrictive")
            #expect((reach["decidedBy"] as? [[String: String]]) == [["setting": "printBlocked", "policy": "Acme - iOS - Unmanaged devices - Printing disabled"]])
        }
        let filtered = try BuiltBinary.run(["fleet", "eval"] + Self.fleet + ["--device", "enrolled-iphone", "--from", Self.word, "--channel", "print", "--explain", "--format", "json"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [String: Any], "\(filtered.stdout)")
        let reach = try #require(((record["explanation"] as? [String: Any])?["sender"] as? [String: Any])?["reach"] as? [String: Any])
        let policies = try #require(reach["policies"] as? [[String: Any]])
        let filter = try #require(policies[1]["filter"] as? [String: Any])
        #expect(filter["name"] as? String == "iOS 17 and later" && filter["id"] as? String == "7e1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b")
        #expect(filter["type"] as? String == "include" && filter["rule"] as? String == "(app.operatingSystemVersion -ge 17.0)")
        #expect(filter["holds"] as? Bool == true && filter["admits"] as? Bool == true)
        #expect(filter["read"] as? [String: String] == ["app.operatingSystemVersion": "17.5"])
        // One policy reaches: no merge, so no conflicts mode and no decider.
        #expect(reach["conflicts"] == nil && reach["decidedBy"] == nil)
    }
}
