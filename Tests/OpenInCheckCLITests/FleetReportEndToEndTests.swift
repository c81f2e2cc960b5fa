import Foundation
import Testing

/// Issue 28: `fleet paths` and `fleet diff` with `--baseline` and in the report formats (markdown, sarif, dot), on both
/// vendors' examples, through the built binary. Exact outputs are kept in `Tests/Expected/fleet-reports/` (reviewed by
/// hand; regenerate with `OPENIN_UPDATE_GOLDEN=1 swift test --filter FleetReportEndToEndTests`, never under CI=true).
@Suite struct FleetReportEndToEndTests {
    static let folder = "Tests/Expected/fleet-reports"
    static let acme = "Examples/fleet/acme.json"
    static let baseline = "Examples/fleet/acme-baseline.json"
    static let intune = ["Examples/intune/acme-app-protection.json", "Examples/intune/acme-app-protection-loosened.json"]
    static let devices = "Examples/intune/devices.json"
    static let formats = ["text", "json", "markdown", "sarif", "dot"]

    /// Each run: its arguments, the golden file's stem and the exit status.
    static let runs: [(arguments: [String], stem: String, status: Int32)] = [
        (["fleet", "paths", "--fleet", acme, "--from", "all", "--baseline", "Examples/fleet/acme-baseline-expired.json"], "acme-paths", 2),
        (["fleet", "paths", "--fleet", intune[1], "--devices", devices, "--from", "all"], "intune-paths", 2),
        (["fleet", "diff", acme, "Examples/fleet/acme-contractors.json", "--baseline", baseline], "acme-diff", 2),
        (["fleet", "diff", intune[0], intune[1], "--devices", devices], "intune-diff", 2),
    ]

    static var goldenCases: [([String], String, Int32)] {
        runs.flatMap { run in
            formats.compactMap { format -> ([String], String, Int32)? in
                // Text and JSON without a baseline are today's outputs, tested elsewhere.
                if run.stem.hasPrefix("intune"), format == "text" || format == "json" { return nil }
                return (run.arguments + ["--format", format], "\(run.stem).\(format == "markdown" ? "md" : format)", run.status)
            }
        }
    }

    static func file(_ name: String) -> URL { BuiltBinary.packageRoot.appendingPathComponent("\(folder)/\(name)") }

    @Test(arguments: goldenCases)
    func exactOutput(_ arguments: [String], _ name: String, _ status: Int32) throws {
        let run = try BuiltBinary.run(arguments)
        #expect(run.stderr == "")
        #expect(run.status == status)
        if ProcessInfo.processInfo.environment["OPENIN_UPDATE_GOLDEN"] == "1" {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "OPENIN_UPDATE_GOLDEN=1 under CI=true: the file is rewritten, not compared")
            try FileManager.default.createDirectory(at: Self.file(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try run.stdout.write(to: Self.file(name), atomically: true, encoding: .utf8)
            return
        }
        #expect(run.stdout == (try String(contentsOf: Self.file(name), encoding: .utf8)), "regenerate \(name) with: openin-check \(arguments.joined(separator: " "))")
    }

    // MARK: baseline

    /// Writes `text` to a file named `name`, in a folder of its own, and returns its path (`TemporaryFile.remove(_:)` removes it).
    static func temporary(_ name: String, _ text: String) throws -> String {
        let url = try TemporaryFile.folder("openin-fleet-report").appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func entry(_ device: String, _ to: String, expires: String = "2099-12-31", reason: String = "reviewed") -> String {
        "{\"device\": \"\(device)\", \"from\": \"com.acme.hr\", \"to\": \"\(to)\", \"reason\": \"\(reason)\", \"expires\": \"\(expires)\"}"
    }

    static let hrOutside = ["com.microsoft.Office.Outlook", "com.google.chrome.ios", "com.getdropbox.Dropbox", "com.apple.mobilemail", "any other app"]

    /// Every path accepted: exit 0; one acceptance expired, or one path not accepted: exit 2 naming it; on both vendors.
    @Test func theGatePassesOnlyWhenEveryPathIsAccepted() throws {
        let all = try Self.temporary("all.json", "{\"accepted\": [\(Self.hrOutside.map { Self.entry("employee-iphone", $0) }.joined(separator: ", "))]}")
        defer { TemporaryFile.remove(all) }
        let passing = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.hr", "--to", "outside", "--baseline", all])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.hasSuffix("baseline \(all): 0 new, 5 accepted, 0 expired, 0 resolved\n"))

        let expired = try Self.temporary("expired.json", "{\"accepted\": [\(Self.hrOutside.map { Self.entry("employee-iphone", $0, expires: $0 == "com.getdropbox.Dropbox" ? "2020-01-31" : "2099-12-31") }.joined(separator: ", "))]}")
        defer { TemporaryFile.remove(expired) }
        let failing = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.hr", "--to", "outside", "--baseline", expired])
        #expect(failing.status == 2)
        #expect(failing.stdout.contains("  com.getdropbox.Dropbox  2 hops  OUTSIDE  EXPIRED on 2020-01-31 (reviewed)\n"))

        let missing = try Self.temporary("missing.json", "{\"accepted\": [\(Self.hrOutside.dropFirst().map { Self.entry("*", $0) }.joined(separator: ", "))]}")
        defer { TemporaryFile.remove(missing) }
        let new = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.hr", "--format", "json", "--baseline", missing])
        #expect(new.status == 2)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(new.stdout.utf8)) as? [[String: Any]])
        let paths = records.compactMap { $0["paths"] as? [[String: Any]] }.flatMap { $0 }
        #expect(paths.filter { $0["state"] as? String == "new" }.compactMap { $0["to"] as? String } == ["com.microsoft.Office.Outlook"])
        // Paths to apps inside the zone of trust are not judged.
        #expect(paths.filter { $0["outside"] as? Bool == false }.allSatisfy { $0["state"] == nil })
        let summary = try #require(records.last?["baseline"] as? [String: Any])
        #expect(summary["new"] as? Int == 1 && summary["accepted"] as? Int == 4 && summary["expired"] as? Int == 0)
    }

    /// Intune: the loosened policy's paths, accepted by a `*` entry per destination, pass; without the entries they fail.
    @Test func intunePathsAreJudgedToo() throws {
        let destinations = ["any other app", "com.apple.mobilemail", "com.getdropbox.Dropbox", "com.google.chrome.ios"]
        let entries = ["com.acme.hr", "com.acme.viewer", "com.microsoft.Office.Outlook", "com.mobileiron.ios.emailplus"].flatMap { from in
            destinations.map { "{\"device\": \"*\", \"from\": \"\(from)\", \"to\": \"\($0)\", \"reason\": \"r\", \"expires\": \"2099-12-31\"}" }
        }
        let file = try Self.temporary("intune.json", "{\"accepted\": [\(entries.joined(separator: ", "))]}")
        defer { TemporaryFile.remove(file) }
        let passing = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.intune[1], "--devices", Self.devices, "--from", "all", "--to", "outside", "--baseline", file])
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(passing.stdout.contains(" new, ") && passing.stdout.contains("\nbaseline \(file): 0 new, 24 accepted, 0 expired, 0 resolved\n"))
        let diff = try BuiltBinary.run(["fleet", "diff", Self.intune[0], Self.intune[1], "--devices", Self.devices, "--baseline", file])
        #expect(diff.status == 0, "\(diff.stdout)")
        let empty = try Self.temporary("empty.json", "{\"accepted\": []}")
        defer { TemporaryFile.remove(empty) }
        let gate = try BuiltBinary.run(["fleet", "diff", Self.intune[0], Self.intune[1], "--devices", Self.devices, "--baseline", empty])
        #expect(gate.status == 2)
        #expect(gate.stdout.contains("  employee-iphone: com.acme.hr ⇒ com.getdropbox.Dropbox  NEW  (com.acme.hr: allowedOutboundDataTransferDestinations = allApps (Acme - iOS - App Protection (loosened), Intune targeting, line 24))\n"))
    }

    /// Entries matching no path are resolved (listed, never failing); an entry for a device the fleet lacks is a warning.
    @Test func resolvedEntriesAndUnknownDevices() throws {
        let file = try Self.temporary("resolved.json", """
            {"accepted": [
              \(Self.hrOutside.map { Self.entry("employee-iphone", $0) }.joined(separator: ",\n  ")),
              \(Self.entry("contractor-ipad", "com.getdropbox.Dropbox")),
              \(Self.entry("employee-iphon", "com.getdropbox.Dropbox"))
            ]}
            """)
        defer { TemporaryFile.remove(file) }
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.hr", "--baseline", file])
        #expect(run.status == 0)
        #expect(run.stderr == "warning: \(file):8: accepted[]: device employee-iphon is not a device of the fleet, so the entry can never match (and is never called resolved). Did you mean 'employee-iphone'?\n")
        #expect(run.stdout.hasSuffix("""
            baseline \(file): 0 new, 5 accepted, 0 expired, 1 resolved
              resolved: contractor-ipad: com.acme.hr → com.getdropbox.Dropbox  (line 7: no such path any more; the entry can go)

            """))
        // A run over another app examines nothing the entries name: none is called resolved.
        let other = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.viewer", "--baseline", file])
        #expect(other.stdout.contains(" 0 resolved\n"))
    }

    /// A baseline mistake is invalid input (exit 1) naming the file, line and key path; never a pass.
    @Test(arguments: [
        ("{\"accepted\": [\n{\"device\": \"*\", \"from\": \"com.acme.hr\", \"to\": \"com.getdropbox.Dropbox\", \"reason\": \"\", \"expires\": \"2099-12-31\"}]}", ":2:82: accepted[0].reason: is empty"),
        ("{\"accepted\": [\n{\"device\": \"*\", \"from\": \"com.acme.hr\", \"to\": \"com.getdropbox.Dropbox\", \"reason\": \"r\", \"expiry\": \"2099-12-31\"}]}", "accepted[0].expiry: unknown key. Did you mean 'expires'?"),
        ("{\"accepted\": [\n{\"device\": \"*\", \"from\": \"com.acme.hr\", \"to\": \"com.getdropbox.Dropbox\", \"reason\": \"r\", \"expires\": \"2099-02-29\"}]}", "\"2099-02-29\" is not a date"),
    ])
    func baselineMistakesAreInvalidInput(_ text: String, _ message: String) throws {
        let file = try Self.temporary("bad.json", text)
        defer { TemporaryFile.remove(file) }
        for arguments in [["fleet", "paths", "--fleet", Self.acme, "--from", "all"], ["fleet", "diff", Self.acme, Self.acme]] {
            let run = try BuiltBinary.run(arguments + ["--baseline", file])
            #expect(run.status == 1)
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("Error: \(file):2:") && run.stderr.contains(message), "\(run.stderr)")
        }
    }

    /// The baseline's JSON Schema (Examples/schemas/baseline.schema.json) takes the bundled baseline and refuses what
    /// the reader refuses that a schema can say.
    @Test func theBaselineSchemaAgreesWithTheReader() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/schemas/baseline.schema.json"))) as? [String: Any])
        let check = JSONSchemaCheck(root: schema)
        let example = try JSONSerialization.jsonObject(with: Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(Self.baseline)))
        #expect(check.problems(example).isEmpty)
        let good = Self.entry("*", "any other app")
        #expect(check.problems(try JSONSerialization.jsonObject(with: Data("{\"accepted\": [\(good)]}".utf8))).isEmpty)
        for bad in [Self.entry("*", "any other app", reason: " "), Self.entry("*", "any other app", expires: "2027-3-31"), Self.entry("", "com.x"),
                    Self.entry("*", "com x"), String(good.dropLast()) + ", \"expiry\": \"2027-01-01\"}", "{\"device\": \"*\", \"from\": \"com.a\", \"to\": \"com.b\", \"expires\": \"2027-01-01\"}"] {
            let text = "{\"accepted\": [\(bad)]}"
            #expect(!check.problems(try JSONSerialization.jsonObject(with: Data(text.utf8))).isEmpty, "\(bad)")
            // The reader refuses each too.
            let file = try Self.temporary("bad.json", text)
            defer { TemporaryFile.remove(file) }
            #expect(try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "all", "--baseline", file]).status == 1, "\(bad)")
        }
    }

    // MARK: SARIF

    /// The members SARIF 2.1.0's schema requires of every object the log holds, and the values its enumerations allow.
    static func checkSARIF(_ text: String, resultCount: Int? = nil) throws -> [[String: Any]] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(Set(log.keys).isSubset(of: ["$schema", "version", "runs", "inlineExternalProperties", "properties"]))
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] is String)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for rule in rules {
            #expect(rule["id"] is String)
            for key in ["shortDescription", "fullDescription"] { #expect((rule[key] as? [String: Any])?["text"] is String) }
            #expect(["none", "note", "warning", "error"].contains(((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String) ?? ""))
            if let uri = rule["helpUri"] as? String { #expect(URL(string: uri)?.scheme == "https") }
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        if let resultCount { #expect(results.count == resultCount) }
        func checkLocation(_ location: [String: Any]) throws {
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(URL(string: uri) != nil && !uri.isEmpty)
            if let region = physical["region"] as? [String: Any] { #expect((region["startLine"] as? Int ?? 0) >= 1) }
            if let message = location["message"] { #expect((message as? [String: Any])?["text"] is String) }
        }
        for result in results {
            #expect((result["message"] as? [String: Any])?["text"] is String)
            #expect(["none", "note", "warning", "error"].contains(result["level"] as? String ?? ""))
            let ruleID = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules.indices.contains(index) && rules[index]["id"] as? String == ruleID)
            let locations = try #require(result["locations"] as? [[String: Any]])
            #expect(locations.count == 1)
            for location in locations { try checkLocation(location) }
            let flows = try #require(result["codeFlows"] as? [[String: Any]])
            #expect(flows.count == 1)
            // codeFlow requires threadFlows (minItems 1); threadFlow requires locations (minItems 1).
            let threads = try #require(flows[0]["threadFlows"] as? [[String: Any]])
            #expect(threads.count == 1)
            let steps = try #require(threads[0]["locations"] as? [[String: Any]])
            #expect(!steps.isEmpty)
            for step in steps { try checkLocation(try #require(step["location"] as? [String: Any])) }
            let fingerprints = try #require(result["partialFingerprints"] as? [String: Any])
            #expect(!fingerprints.isEmpty && fingerprints.values.allSatisfy { $0 is String })
            if let state = result["baselineState"] { #expect(["new", "unchanged", "updated", "absent"].contains(state as? String ?? "")) }
            if let suppressions = result["suppressions"] {
                let list = try #require(suppressions as? [[String: Any]])
                for suppression in list {
                    // suppression requires kind, one of inSource and external.
                    #expect(["inSource", "external"].contains(suppression["kind"] as? String ?? ""))
                    #expect(suppression["justification"] is String)
                }
            }
        }
        return results
    }

    @Test(arguments: runs.map { $0.arguments + ["--format", "sarif"] })
    func sarifHasEveryMemberTheSchemaRequires(_ arguments: [String]) throws {
        let run = try BuiltBinary.run(arguments)
        _ = try Self.checkSARIF(run.stdout)
        if let path = ProcessInfo.processInfo.environment["OPENIN_SARIF_SCHEMA"] {
            // The whole schema, when a copy is at hand (its licence does not let the package ship one).
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let log = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
            let problems = JSONSchemaCheck(root: schema).problems(log)
            #expect(problems.isEmpty, "\(problems.prefix(10))")
        }
    }

    /// What a reviewer sees: one result per path to outside, the accepted ones suppressed with their reason, each hop
    /// a step of the code flow at the line of the setting that lets it through.
    @Test func sarifResultsSuppressAcceptedPathsAndPlaceEachHop() throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "com.acme.hr", "--baseline", "Examples/fleet/acme-baseline-expired.json", "--format", "sarif"])
        #expect(run.status == 2)
        let results = try Self.checkSARIF(run.stdout, resultCount: 5)
        let suppressed = results.filter { $0["suppressions"] != nil }
        #expect(suppressed.count == 4)
        #expect(((suppressed.first?["suppressions"] as? [[String: Any]])?.first?["justification"] as? String)?.hasPrefix("SEC-142") == true)
        let dropbox = try #require(results.first { (($0["message"] as? [String: Any])?["text"] as? String)?.contains("reach com.getdropbox.Dropbox") == true })
        #expect(dropbox["suppressions"] == nil && dropbox["level"] as? String == "error")
        #expect(((dropbox["message"] as? [String: Any])?["text"] as? String)?.contains("The acceptance expired on 2026-06-30") == true)
        let steps = try #require((((dropbox["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]]))
        let lines = steps.map { (((($0["location"] as? [String: Any])?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int) ?? 0 }
        // HR's container policy's openInPolicy (line 13) lets the first hop through, the viewer's (line 16) the second.
        #expect(lines == [13, 16])
    }

    // MARK: fingerprints

    /// Each result's print, keyed by its path ("device D: documents from A reach B"), with its whole message (which shows the chain).
    static func fingerprints(_ sarif: String) throws -> [String: (message: String, print: String)] {
        var result: [String: (String, String)] = [:]
        for entry in try checkSARIF(sarif) {
            let text = try #require((entry["message"] as? [String: Any])?["text"] as? String)
            // "device D: documents from A reach B, …": a (device, from, to) has one path.
            let key = String(text[..<(text.range(of: ", outside")?.lowerBound ?? text.endIndex)])
            result[key] = (text, try #require((entry["partialFingerprints"] as? [String: String])?["leakPath/v1"]))
        }
        return result
    }

    /// Fingerprints come from what a path is: the same after an unrelated app and device are added and the
    /// file is re-indented (every line moves), and different for a different chain.
    @Test func fingerprintsSurviveUnrelatedEdits() throws {
        let original = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(Self.acme), encoding: .utf8)
        var edited = original.replacingOccurrences(of: "\"apps\": [\n", with: "\"apps\": [\n    {\"bundleID\": \"com.example.unrelated\", \"appconnect\": false},\n")
        edited = edited.replacingOccurrences(of: "\"devices\": {\n", with: "\"devices\": {\n    \"kiosk\": {\"labels\": [], \"installed\": [\"com.example.unrelated\"]},\n")
        edited = "\n\n" + edited.split(separator: "\n", omittingEmptySubsequences: false).map { "\t  " + $0 }.joined(separator: "\n")
        #expect(edited != original)
        let path = try Self.temporary("acme.json", edited)
        defer { TemporaryFile.remove(path) }
        let before = try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "all", "--format", "sarif"])
        let after = try BuiltBinary.run(["fleet", "paths", "--fleet", path, "--from", "all", "--format", "sarif"])
        #expect(after.status == before.status)
        let old = try Self.fingerprints(before.stdout), new = try Self.fingerprints(after.stdout)
        #expect(old.count >= 10)
        // Every path of the original is still there with its print; the added device's paths are new.
        #expect(old.allSatisfy { new[$0.key]?.print == $0.value.print && new[$0.key]?.message == $0.value.message })
        #expect(new.keys.filter { old[$0] == nil }.allSatisfy { $0.hasPrefix("device kiosk:") })
        // The lines did move: the fingerprints would not survive if they were made of them.
        #expect(before.stdout.replacingOccurrences(of: Self.acme, with: "") != after.stdout.replacingOccurrences(of: SARIFURI.encode(path), with: ""))
        // Twice the same run: the same log.
        #expect(try BuiltBinary.run(["fleet", "paths", "--fleet", Self.acme, "--from", "all", "--format", "sarif"]).stdout == before.stdout)
        // Each path has its own print; after a change, a path whose chain stayed keeps it.
        let changed = try BuiltBinary.run(["fleet", "paths", "--fleet", "Examples/fleet/acme-contractors.json", "--from", "all", "--format", "sarif"])
        let added = try Self.fingerprints(changed.stdout)
        #expect(Set(added.values.map(\.print)).count == added.count && Set(old.values.map(\.print)).count == old.count)
        #expect(added.count > old.count)
        let same = old.filter { added[$0.key]?.message == $0.value.message }, rerouted = old.filter { entry in added[entry.key].map { $0.message != entry.value.message } ?? false }
        #expect(same.count >= 10 && same.allSatisfy { added[$0.key]?.print == $0.value.print })
        #expect(rerouted.allSatisfy { added[$0.key]?.print != $0.value.print })
    }

    // MARK: DOT

    static var dot: String? {
        ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Graphviz must be there under CI (`.ci/run` installs it); elsewhere, without it, the rendering is skipped.
    static var canRender: Bool { dot != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    static func render(_ source: String) throws -> (status: Int32, stderr: String, svg: String) {
        let binary = try #require(dot, "Graphviz's dot is not installed: .ci/run installs Debian's graphviz (apt-get install graphviz)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(source.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorText = Thread.collect(errors.fileHandleForReading)
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errorText(), as: UTF8.self), String(decoding: svg, as: UTF8.self))
    }

    @Test(.enabled(if: canRender), arguments: runs.map { $0.arguments + ["--format", "dot"] })
    func dotRendersWithoutAWarning(_ arguments: [String]) throws {
        let run = try BuiltBinary.run(arguments)
        let rendered = try Self.render(run.stdout)
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "")
        #expect(rendered.svg.contains("<svg") && rendered.svg.contains("cluster_1"))
    }

    // MARK: hostile names

    /// Names a fleet, a policy or a baseline can hold that try to break out of each format.
    static let hostile = "Ev\"il' <script>alert(1)</script> `end` ```x|y|\\n #quot; & [l](javascript:x) $x$ \u{1B}[31m\u{202E}\t"

    static func hostileFleet() throws -> (fleet: String, baseline: String) {
        let name = String(data: try JSONSerialization.data(withJSONObject: [hostile], options: [.withoutEscapingSlashes]), encoding: .utf8)!.dropFirst().dropLast()
        var fleet = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(acme), encoding: .utf8)
        fleet = fleet.replacingOccurrences(of: "{\"name\": \"Viewer\"", with: "{\"name\": \(name)")
        fleet = fleet.replacingOccurrences(of: "\"employee-iphone\": {", with: "\"end|`x`\\\"<b>\\u001b\": {")
        let baseline = "{\"accepted\": [{\"device\": \"end|`x`\\\"<b>\\u001b\", \"from\": \"com.acme.hr\", \"to\": \"com.getdropbox.Dropbox\", \"reason\": \(name), \"expires\": \"2099-12-31\"}]}"
        return (try temporary("fleet \"x\".json", fleet), try temporary("baseline.json", baseline))
    }

    @Test func hostileNamesAreEscapedInEveryFormat() throws {
        let (fleet, baseline) = try Self.hostileFleet()
        defer {
            TemporaryFile.remove(fleet)
            TemporaryFile.remove(baseline)
        }
        func run(_ format: String) throws -> String {
            let run = try BuiltBinary.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--baseline", baseline, "--format", format])
            #expect(run.status == 2, "\(run.stderr)")
            // No raw control character (line feeds aside); no bidi override but in JSON's data, which keeps names exact.
            #expect(!run.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || ($0 == "\u{202E}" && format != "json") }, "\(format)")
            return run.stdout
        }
        let markdown = try run("markdown")
        // Outside code spans (which show text as it is) nothing is markup: the policy name and the reason are escaped.
        #expect(!markdown.contains("<script>") && markdown.contains("\\<script\\>"))
        var inMermaid = false
        var fences = 0
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fences += 1
                inMermaid = line == "```mermaid"
                continue
            }
            if inMermaid {
                // Every line of a diagram is a node, an edge or a class, with generated ids and quoted labels free of quotes.
                let node = line.range(of: #"^    n[0-9]+\["[^"`<>|]*"\](:::(outside|source))?$"#, options: .regularExpression) != nil
                let edge = line.range(of: #"^    n[0-9]+ -->\|"[^"`<>|]*"\| n[0-9]+$"#, options: .regularExpression) != nil
                #expect(node || edge || line.hasPrefix("    classDef ") || line == "flowchart LR", "\(line)")
            } else if line.hasPrefix("|") {
                // Table rows keep their column count: every other | is escaped.
                let unescaped = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
                #expect(unescaped == 6 || unescaped == 7, "\(line)")
            }
        }
        #expect(fences == 4)
        #expect(markdown.contains("#quot;"))
        // Each diagram as mermaid.js reads it: accepted and drawn as written.
        let blocks = MermaidFlowchart.blocks(inMarkdown: markdown)
        #expect(blocks.count == 2)
        for block in blocks { MermaidFlowchartGrammarTests.drawn(block) }

        let sarif = try run("sarif")
        let results = try Self.checkSARIF(sarif)
        let shown = Self.hostile.replacingOccurrences(of: "\u{1B}", with: "\\u{1B}").replacingOccurrences(of: "\u{202E}", with: "\\u{202E}").replacingOccurrences(of: "\t", with: "\\t")
        #expect(results.contains { (($0["suppressions"] as? [[String: Any]])?.first?["justification"] as? String) == shown })
        #expect(results.contains { (($0["message"] as? [String: Any])?["text"] as? String)?.contains("device end|`x`\"<b>\\u{{1B}}:") == true })

        let dot = try run("dot")
        if Self.canRender {
            let rendered = try Self.render(dot)
            #expect(rendered.status == 0 && rendered.stderr == "", "\(rendered.stderr)")
            #expect(!rendered.svg.contains("<script>") && !rendered.svg.contains("<b>"))
        }
        // Intune: a policy's displayName reaches every report format the same way.
        let name = String(data: try JSONSerialization.data(withJSONObject: [Self.hostile], options: [.withoutEscapingSlashes]), encoding: .utf8)!.dropFirst().dropLast()
        let policies = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(Self.intune[1]), encoding: .utf8)
            .replacingOccurrences(of: "\"displayName\": \"Acme - iOS - App Protection (loosened)\"", with: "\"displayName\": \(name)")
        let intune = try Self.temporary("intune \"x\".json", policies)
        defer { TemporaryFile.remove(intune) }
        for format in ["markdown", "sarif", "dot"] {
            let run = try BuiltBinary.run(["fleet", "diff", Self.intune[0], intune, "--devices", Self.devices, "--format", format])
            #expect(run.status == 2, "\(run.stderr)")
            #expect(!run.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(format)")
            switch format {
            case "markdown":
                #expect(!run.stdout.contains("<script>") && run.stdout.contains("\\<script\\>") && run.stdout.contains("allowedOutboundDataTransferDestinations = allApps"))
                for block in MermaidFlowchart.blocks(inMarkdown: run.stdout) { MermaidFlowchartGrammarTests.drawn(block) }
            case "sarif": _ = try Self.checkSARIF(run.stdout)
            default: if Self.canRender { #expect(try Self.render(run.stdout).stderr == "") }
            }
        }
        let text = try run("text")
        #expect(text.contains("EXPIRED") == false && text.contains("accepted until 2099-12-31"))
        let json = try run("json")
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [Any])
    }
}

/// A file path as SARIF writes it (the encoding of `SARIFLog.uri`), for comparisons.
enum SARIFURI {
    static func encode(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}

extension Thread {
    /// Reads `handle` to its end on a thread of its own; the closure returned waits for it.
    static func collect(_ handle: FileHandle) -> () -> Data {
        final class Box: @unchecked Sendable {
            var data = Data()
            let done = DispatchSemaphore(value: 0)
        }
        let box = Box()
        Thread {
            box.data = handle.readDataToEndOfFile()
            box.done.signal()
        }.start()
        return {
            box.done.wait()
            return box.data
        }
    }
}

/// A JSON Schema (draft-04) check with the keywords SARIF's schema uses: `$ref` (to `#/definitions/…`), `type`,
/// `properties`, `additionalProperties`, `required`, `enum`, `items`, `minItems`, `uniqueItems`, `minimum`, `anyOf`,
/// `oneOf`, `pattern`, `minLength`, `maxLength`; `format` and `default` are not checked.
struct JSONSchemaCheck {
    let root: [String: Any]

    func problems(_ value: Any) -> [String] {
        var problems: [String] = []
        check(value, root, path: "$", into: &problems)
        return problems
    }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/definitions/") else { return schema }
        return ((root["definitions"] as? [String: Any])?[String(reference.dropFirst("#/definitions/".count))] as? [String: Any]) ?? [:]
    }

    private static func type(of value: Any) -> String {
        switch value {
        case is NSNull: "null"
        case let number as NSNumber: number.doubleValue.rounded() == number.doubleValue ? "integer" : "number"
        case is String: "string"
        case is [Any]: "array"
        case is [String: Any]: "object"
        default: "unknown"
        }
    }

    private func check(_ value: Any, _ given: [String: Any], path: String, into problems: inout [String]) {
        let schema = resolve(given)
        let kind = Self.type(of: value)
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            // SARIF's logs here hold no booleans; a JSON true reads as the number 1.
            if !(allowed.contains(kind) || (kind == "integer" && (allowed.contains("number") || allowed.contains("boolean")))) { problems.append("\(path): \(kind), not \(allowed)") }
        }
        if let values = schema["enum"] as? [Any], !values.contains(where: { "\($0)" == "\(value)" }) { problems.append("\(path): \(value) not in \(values)") }
        if let text = value as? String {
            if let minimum = schema["minLength"] as? Int, text.unicodeScalars.count < minimum { problems.append("\(path): shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, text.unicodeScalars.count > maximum { problems.append("\(path): longer than \(maximum)") }
        }
        if let minimum = schema["minimum"] as? Double, let number = value as? NSNumber, number.doubleValue < minimum { problems.append("\(path): below \(minimum)") }
        if let pattern = schema["pattern"] as? String, let text = value as? String,
           text.range(of: pattern, options: .regularExpression) == nil { problems.append("\(path): does not match \(pattern)") }
        if let anyOf = schema["anyOf"] as? [[String: Any]] {
            if !anyOf.contains(where: { branch in var inner: [String] = []; check(value, branch, path: path, into: &inner); return inner.isEmpty }) {
                problems.append("\(path): matches no anyOf branch")
            }
        }
        if let oneOf = schema["oneOf"] as? [[String: Any]] {
            let matching = oneOf.filter { branch in var inner: [String] = []; check(value, branch, path: path, into: &inner); return inner.isEmpty }.count
            if matching != 1 { problems.append("\(path): matches \(matching) oneOf branches") }
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { problems.append("\(path): \(key) is required") }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    check(member, property, path: "\(path).\(key)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool {
                        if !allowed { problems.append("\(path).\(key): not allowed") }
                    } else if let other = additional as? [String: Any] {
                        check(member, other, path: "\(path).\(key)", into: &problems)
                    }
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum { problems.append("\(path): fewer than \(minimum) items") }
            if schema["uniqueItems"] as? Bool == true {
                let texts = array.map { String(data: (try? JSONSerialization.data(withJSONObject: [$0], options: [.sortedKeys])) ?? Data(), encoding: .utf8) ?? "" }
                if Set(texts).count != texts.count { problems.append("\(path): items not unique") }
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, element) in array.enumerated() { check(element, items, path: "\(path)[\(index)]", into: &problems) }
            }
        }
    }
}
