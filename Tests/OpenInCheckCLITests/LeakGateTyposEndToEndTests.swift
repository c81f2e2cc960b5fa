import Foundation
import Testing

/// A leak gate (`fleet paths --to`, `fleet eval`) fails closed on a misspelt bundle ID: a sender the fleet
/// does not know and a receiver one or two edits from one of its apps are errors (exit 1, "Did you mean"),
/// never a green "no path" (exit 0); any other receiver is "any other app", and the output says so.
@Suite struct LeakGateTyposEndToEndTests {
    static let fleet = "Examples/fleet/acme.json"
    static let intune = ["--fleet", "Examples/intune/acme-app-protection.json", "--devices", "Examples/intune/devices.json"]

    @Test(arguments: [["--fleet", fleet], intune])
    func pathsFromATypoIsAnError(vendor: [String]) throws {
        let run = try BuiltBinary.run(["fleet", "paths"] + vendor + ["--from", "com.acme.hrr", "--to", "outside"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--from: com.acme.hrr is not an app of "))
        #expect(run.stderr.contains("Did you mean 'com.acme.hr'?"))
        #expect(run.stderr.contains("(or all, for every app): com.acme.hr, com.acme.viewer"))
    }

    @Test(arguments: [["--fleet", fleet], intune])
    func pathsToATypoIsAnError(vendor: [String]) throws {
        // One swap from com.getdropbox.Dropbox: an app of the fleet (and of the devices file).
        let run = try BuiltBinary.run(["fleet", "paths"] + vendor + ["--from", "com.acme.hr", "--to", "com.getdropbox.Dropbxo"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--to: com.getdropbox.Dropbxo is not an app of "))
        #expect(run.stderr.contains("Did you mean 'com.getdropbox.Dropbox'?"))
        #expect(run.stderr.contains("taken for a typo: correct it, or, if it is another app, list it under "))
    }

    @Test func pathsToAnUnknownAppIsAnyOtherAppAndSaysSo() throws {
        // Far from every app of the fleet: any other app, which the viewer reaches on the employee iPhone.
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "com.example.unlisted"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("device employee-iphone: com.acme.hr reaches 7 apps, 5 outside; 1 path to com.example.unlisted (any other app: not an app of Examples/fleet/acme.json)\n"))
        #expect(run.stdout.contains("  any other app  2 hops  OUTSIDE\n"))
        // Before, an unknown --to never matched a node: "no path", exit 0, although any other app was reached.
        let outside = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--to", "outside"])
        #expect(outside.stdout.contains("  any other app  2 hops  OUTSIDE\n"))
    }

    @Test func intuneComparesIgnoringCaseAsIntuneDoes() throws {
        // Intune matches bundle IDs ignoring case: com.acme.HR is com.acme.hr, not a typo.
        let run = try BuiltBinary.run(["fleet", "paths"] + Self.intune + ["--device", "employee-iphone", "--from", "com.acme.HR", "--to", "com.acme.VIEWER"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("1 path to com.acme.VIEWER\n"))
        // AppConnect compares bytes: a case variant is one edit or two away, so a typo.
        let appConnect = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "com.acme.hr", "--to", "com.acme.Viewer"])
        #expect(appConnect.status == 1)
        #expect(appConnect.stderr.contains("Did you mean 'com.acme.viewer'?"))
    }

    @Test func anAppTheDeviceDoesNotInstallNamesTheDevicesThatDo() throws {
        let from = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "contractor-ipad", "--from", "com.microsoft.Office.Outlook", "--to", "outside"])
        #expect(from.status == 0)
        #expect(from.stdout.hasSuffix("device contractor-ipad: com.microsoft.Office.Outlook is not installed: no documents, no paths (installed on employee-iphone)\n"))
        let to = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.fleet, "--device", "contractor-ipad", "--from", "com.acme.hr", "--to", "com.microsoft.Office.Outlook"])
        #expect(to.status == 0)
        #expect(to.stdout.contains("no path to com.microsoft.Office.Outlook (not installed on this device; installed on employee-iphone)\n"))
        let eval = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--device", "contractor-ipad", "--from", "com.acme.hr", "--channel", "document-interaction",
                                        "--target", "com.microsoft.Office.Outlook"])
        #expect(eval.stdout.contains("  note      com.microsoft.Office.Outlook is not installed on this device (installed on employee-iphone)\n"))
    }

    @Test(arguments: [["--fleet", fleet], intune])
    func evalFromATypoIsAnErrorNotAnUnmanagedApp(vendor: [String]) throws {
        // Before: decided as an unmanaged app, allow, exit 0.
        let run = try BuiltBinary.run(["fleet", "eval"] + vendor + ["--from", "com.acme.hrr", "--channel", "document-interaction", "--target", "com.getdropbox.Dropbox"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--from: com.acme.hrr is not an app of "))
        #expect(run.stderr.contains("Did you mean 'com.acme.hr'?"))
        let target = try BuiltBinary.run(["fleet", "eval"] + vendor + ["--from", "com.acme.hr", "--channel", "document-interaction", "--target", "com.acme.vewer"])
        #expect(target.status == 1)
        #expect(target.stderr.contains("--target: com.acme.vewer is not an app of "))
        #expect(target.stderr.contains("Did you mean 'com.acme.viewer'?"))
    }

    @Test(arguments: [["--fleet", fleet], intune])
    func evalStreamLineWithATypoIsAnErrorRecord(vendor: [String]) throws {
        let input = """
            {"id": 1, "from": "com.acme.hrr", "channel": "document-interaction", "target": "com.getdropbox.Dropbox"}
            {"id": 2, "from": "com.acme.hr", "channel": "document-interaction", "target": "com.getdropbox.Dropbxo"}
            {"id": 3, "from": "com.acme.hr", "channel": "document-interaction", "target": "com.acme.viewer"}

            """
        let run = try BuiltBinary.run(["fleet", "eval"] + vendor + ["--device", "employee-iphone", "-"], stdin: input)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"{"line":1,"id":1,"error":"\"from\": com.acme.hrr is not an app of "#))
        #expect(lines[0].contains("Did you mean 'com.acme.hr'?"))
        #expect(lines[1].hasPrefix(#"{"line":2,"id":2,"error":"\"target\": com.getdropbox.Dropbxo is not an app of "#))
        #expect(lines[2].hasPrefix(#"{"id":3,"device":"employee-iphone""#))
    }

    @Test func evalToAnUnknownAppSaysAnyOtherApp() throws {
        let run = try BuiltBinary.run(["fleet", "eval", "--fleet", Self.fleet, "--device", "employee-iphone", "--from", "com.acme.hr", "--channel", "document-interaction",
                                       "--target", "com.example.unlisted"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("  note      com.example.unlisted is not an app of Examples/fleet/acme.json: decided as any other app\n"))
    }
}
