import Foundation
@testable import OpenInCheckBench
@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// `fleet paths --write-baseline FILE --reason TEXT --expires DAY`, and the names of a baseline's entries
/// checked against the fleet ("Did you mean"; an entry that can never match is never resolved).
@Suite struct BaselineWriteTests {
    static let fleet = BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/acme.json").path

    static func run(_ arguments: [String]) -> (status: OpenInCheckCLI.ExitStatus, stdout: String, stderr: String) {
        let console = Console.memory()
        let status = CLI.run(arguments: arguments, console: console)
        return (status, console.stdout.text, console.stderr.text)
    }

    /// Runs `arguments` with standard output written to the file `stdout` (a 1,000-app fleet's paths in JSON
    /// are over a gigabyte: held in memory as text, then parsed whole, they took many gigabytes).
    static func run(_ arguments: [String], stdoutFile stdout: String) throws -> (status: OpenInCheckCLI.ExitStatus, stderr: String) {
        guard FileManager.default.createFile(atPath: stdout, contents: nil), let handle = FileHandle(forWritingAtPath: stdout) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? handle.close() }
        let console = Console(stdout: Output(fileDescriptor: handle.fileDescriptor), stderr: Output(), stdin: ByteSource(bytes: [], name: "standard input"))
        let status = CLI.run(arguments: arguments, console: console)
        console.stdout.flush()
        return (status, console.stderr.text)
    }

    /// The last element of the JSON array in `file`, read from the file's last 64 KiB alone (an array whose elements
    /// start at two spaces of indentation, as the writers put them); `nil` when the file does not end such an array.
    static func lastElement(ofArrayIn file: String) throws -> [String: Any]? {
        let handle = try #require(FileHandle(forReadingAtPath: file))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size > 65_536 ? size - 65_536 : 0)
        let tail = String(decoding: try #require(try handle.readToEnd()), as: UTF8.self)
        guard tail.hasSuffix("\n]\n") || tail.hasSuffix("\n]"), let start = tail.range(of: "\n  {\n", options: .backwards),
              let end = tail.range(of: "\n  }", options: .backwards), start.lowerBound < end.lowerBound else { return nil }
        let element = tail[tail.index(after: start.lowerBound)..<end.upperBound]
        return try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any]
    }

    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        try TemporaryFile.folder("openin-baseline")
    }

    static func write(_ file: String, fleet: String = fleet, reason: String = "SEC-200: accepted as they are today", expires: String = "2099-06-30",
                      extra: [String] = []) -> (status: OpenInCheckCLI.ExitStatus, stdout: String, stderr: String) {
        run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--write-baseline", file, "--reason", reason, "--expires", expires] + extra)
    }

    @Test("written, then gated on: every path accepted, exit 0; one grouped entry per device and source, the reader takes it back")
    func roundTrip() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("baseline.json").path
        let before = Self.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "all", "--to", "outside"])
        #expect(before.status == .notAllowed)
        let written = Self.write(file)
        #expect(written.status == .success, "\(written.stderr)")
        #expect(written.stderr.contains("baseline \(file) written: 0 kept, 20 added, 0 dropped as resolved"))
        let baseline = try FleetBaseline.read(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        #expect(baseline.entries.count == 20)
        #expect(baseline.entries.allSatisfy { $0.reason == "SEC-200: accepted as they are today" && $0.expires.description == "2099-06-30" })
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.contains("\"device\"") }.count == 4)
        let gate = Self.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "all", "--baseline", file])
        #expect(gate.status == .success)
        #expect(gate.stdout.contains("baseline \(file): 0 new, 20 accepted, 0 expired, 0 resolved"))
        #expect(gate.stderr.isEmpty)
        // Written again over itself: every entry kept, nothing added.
        let again = Self.write(file, reason: "other", expires: "2098-01-01")
        #expect(again.status == .success)
        #expect(again.stderr.contains("written: 20 kept, 0 added, 0 dropped"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
    }

    @Test("merging: kept entries keep their reason and expiry, new ones get the given ones, resolved ones are dropped and listed")
    func merge() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("b.json").path
        try """
            {"description": "kept",
             "accepted": [
              {"device": "employee-iphone", "from": "com.acme.hr", "to": "com.apple.mobilemail", "reason": "SEC-142", "expires": "2099-12-31"},
              {"device": "employee-iphone", "from": "com.acme.hr", "to": "com.acme.viewer", "reason": "gone", "expires": "2099-12-31"},
              {"device": "employee-iphone", "from": "com.acme.viewer", "to": "com.google.chrome.ios", "reason": "old", "expires": "2020-01-01"}
             ]}
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let written = Self.write(file, reason: "SEC-300", expires: "2098-02-28")
        #expect(written.stderr.contains("written: 2 kept, 18 added, 1 dropped as resolved"), "\(written.stderr)")
        #expect(written.stderr.contains("dropped: employee-iphone: com.acme.hr → com.acme.viewer  (line 4: no such path any more)"))
        #expect(written.stderr.contains("still expired: employee-iphone: com.acme.viewer → com.google.chrome.ios"))
        #expect(written.status == .notAllowed)
        let baseline = try FleetBaseline.read(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        #expect(baseline.descriptionText == "kept")
        #expect(baseline.entries.count == 20)
        #expect(baseline.entries[0].reason == "SEC-142" && baseline.entries[0].expires.description == "2099-12-31")
        #expect(baseline.entries[1].reason == "old" && baseline.entries[1].expires.description == "2020-01-01")
        #expect(baseline.entries.dropFirst(2).allSatisfy { $0.reason == "SEC-300" && $0.expires.description == "2098-02-28" })
        #expect(!baseline.entries.contains { $0.to == .app(try! BundleID("com.acme.viewer")) && $0.from.rawValue == "com.acme.hr" })
    }

    @Test("a missing, blank or malformed --reason or --expires is a usage error (64) and writes nothing",
          arguments: [
              ["--write-baseline", "F", "--reason", "R", "--expires", "2027-02-29"],
              ["--write-baseline", "F", "--reason", "R", "--expires", "31.03.2027"],
              ["--write-baseline", "F", "--reason", "R"],
              ["--write-baseline", "F", "--expires", "2027-03-31"],
              ["--write-baseline", "F", "--reason", "  ", "--expires", "2027-03-31"],
              ["--reason", "R", "--expires", "2027-03-31"],
              ["--write-baseline", "F", "--reason", "R", "--expires", "2027-03-31", "--baseline", "G"],
          ])
    func usage(_ options: [String]) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("F").path
        let arguments = options.map { $0 == "F" ? file : $0 }
        let result = Self.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "all"] + arguments)
        #expect(result.status == .usage, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a typo in each of device, from and to warns with Did you mean and is never listed as resolved", arguments: [
        ("device", "employee-iphon", "employee-iphone"),
        ("from", "com.acme.hrr", "com.acme.hr"),
        ("to", "com.apple.mobilemial", "com.apple.mobilemail"),
        ("to", "com.getdropbox.Dropbx", "com.getdropbox.Dropbox"),
    ])
    func typo(_ field: String, _ typed: String, _ meant: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("b.json").path
        var entry = ["device": "employee-iphone", "from": "com.acme.hr", "to": "com.google.chrome.ios", "reason": "SEC-1", "expires": "2099-01-01"]
        entry[field] = typed
        let data = try JSONSerialization.data(withJSONObject: ["accepted": [entry]], options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: file))
        for format in ["text", "json"] {
            let result = Self.run(["fleet", "paths", "--fleet", Self.fleet, "--from", "all", "--baseline", file, "--format", format])
            #expect(result.status == .notAllowed)
            #expect(result.stderr.contains("\(field) \(typed) is not a"), "\(result.stderr)")
            #expect(result.stderr.contains("Did you mean '\(meant)'?"))
            #expect(!result.stdout.contains("resolved:"))
            #expect(!result.stdout.contains("\"from\": \"\(field == "from" ? typed : "com.acme.hr")\", \"to\""))
            if format == "json" {
                let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
                let summary = try #require(records.last?["baseline"] as? [String: Any])
                #expect((summary["resolved"] as? [Any])?.isEmpty == true)
            } else {
                #expect(result.stdout.contains(" 0 resolved\n"))
            }
        }
        // Writing keeps the entry (it is never resolved) and adds the path it meant.
        let written = Self.write(file)
        #expect(written.stderr.contains("1 kept") && written.stderr.contains("0 dropped"), "\(written.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(typed))
    }

    @Test("a baseline's to may list destinations: one entry each; an empty list or a repeated path is refused")
    func toList() throws {
        let list = #"{"accepted": [{"device": "*", "from": "com.a", "to": ["com.b", "any other app"], "reason": "r", "expires": "2099-01-01"}]}"#
        let baseline = try FleetBaseline.read(Array(list.utf8), file: "b.json")
        #expect(baseline.entries.map(\.to.description) == ["com.b", "any other app"])
        let empty = #"{"accepted": [{"device": "*", "from": "com.a", "to": [], "reason": "r", "expires": "2099-01-01"}]}"#
        #expect(throws: FormatError.self) { try FleetBaseline.read(Array(empty.utf8), file: "b.json") }
        let twice = #"{"accepted": [{"device": "*", "from": "com.a", "to": ["com.b", "com.b"], "reason": "r", "expires": "2099-01-01"}]}"#
        #expect(throws: FormatError.self) { try FleetBaseline.read(Array(twice.utf8), file: "b.json") }
    }

    /// The generated fleet's size: 1,000 apps (161,600 paths) under `OPENIN_SOAK=1`, 60 otherwise.
    static let generatedApps = ProcessInfo.processInfo.environment["OPENIN_SOAK"] == "1" ? 1_000 : 60

    @Test("on a generated fleet: written within the reader's 16 MiB, then gated on with every path accepted (1,000 apps under OPENIN_SOAK=1)")
    func generated() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fleet = directory.appendingPathComponent("fleet.json").path
        try FleetBenchmark.fleet(apps: Self.generatedApps, seed: BenchCorpus.defaultSeed).write(toFile: fleet, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("baseline.json").path
        // Standard output goes to files: at 1,000 apps each command writes over a gigabyte of JSON.
        let paths = directory.appendingPathComponent("paths.json").path
        let written = try Self.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--write-baseline", file, "--reason", "SEC-200: accepted as they are today",
                                    "--expires", "2099-06-30", "--format", "json"], stdoutFile: paths)
        #expect(written.status == .success, "\(written.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(size <= 16 << 20)
        let gated = directory.appendingPathComponent("gated.json").path
        let gate = try Self.run(["fleet", "paths", "--fleet", fleet, "--from", "all", "--baseline", file, "--format", "json"], stdoutFile: gated)
        #expect(gate.status == .success, "\(gate.stderr)")
        // The whole output is one JSON array (read whole below the soak size); its last element is the baseline's summary.
        if Self.generatedApps < 1_000 {
            let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: gated))) as? [[String: Any]])
            #expect(records.count > 1)
            #expect(records.last.map { NSDictionary(dictionary: $0) } == (try Self.lastElement(ofArrayIn: gated)).map { NSDictionary(dictionary: $0) })
        }
        let last = try #require(try Self.lastElement(ofArrayIn: gated), "the output does not end with a JSON array's element")
        let summary = try #require(last["baseline"] as? [String: Any])
        #expect(summary["new"] as? Int == 0)
        #expect(summary["expired"] as? Int == 0)
        let accepted = try #require(summary["accepted"] as? Int)
        #expect(accepted > 0)
        if Self.generatedApps == 1_000 { #expect(accepted == 161_600) }
        #expect(written.stderr.contains("0 kept, \(accepted) added"))
    }
}
