import Foundation
import Testing

/// The fleet and Intune readers read each input once (a pipe has its bytes only once), never wait
/// forever on a FIFO, refuse an empty folder, and every fleet verb stops within a second of SIGTERM
/// or SIGINT. Each run has a deadline: a hang fails the test instead of stalling the suite.
@Suite struct FleetInputsEndToEndTests {
    struct TimedRun {
        let stdout: String
        let stderr: String
        let status: Int32
        let signalled: Bool
        let seconds: Double
    }

    /// Runs `command` under `/bin/bash -c` in the package root (the binary is `$OPENIN`), killing it
    /// after `deadline` seconds (a failure); with `signal`, sends it that many seconds after the start.
    static func run(_ command: String, stdin: String? = nil, deadline: Double = 20, signal: (number: Int32, after: Double)? = nil) throws -> TimedRun {
        let binary = try #require(BuiltBinary.url)
        let out = try TemporaryFile.write("", name: "stdout"), err = try TemporaryFile.write("", name: "stderr")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // exec: the signal goes to openin-check itself, not to the shell.
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(["OPENIN": binary.path]) { $1 }
        process.currentDirectoryURL = BuiltBinary.packageRoot
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let start = Date()
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        var signalled = false
        while process.isRunning, Date().timeIntervalSince(start) < deadline {
            if let signal, !signalled, Date().timeIntervalSince(start) >= signal.after {
                kill(process.processIdentifier, signal.number)
                signalled = true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("'\(command)' was still running after \(deadline) s")
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        return TimedRun(stdout: try String(contentsOfFile: out, encoding: .utf8), stderr: try String(contentsOfFile: err, encoding: .utf8),
                        status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, seconds: seconds)
    }

    static let acme = "Examples/fleet/acme.json"

    @Test func aFleetOnAPipeIsReadOnce() throws {
        let file = try Self.run("exec \"$OPENIN\" fleet lint --fleet \(Self.acme)")
        #expect(file.status == 2 && file.stdout.hasSuffix("0 errors, 2 warnings, 0 info\n"), "\(file.stderr)")
        let substituted = try Self.run("exec \"$OPENIN\" fleet lint --fleet <(cat \(Self.acme))")
        #expect(substituted.status == 2, "\(substituted.stderr)")
        #expect(substituted.stdout == file.stdout.replacingOccurrences(of: Self.acme, with: "/dev/fd/63"))
        let standardInput = try Self.run("exec \"$OPENIN\" fleet paths --fleet /dev/stdin --device employee-iphone --from com.acme.hr --to outside",
                                         stdin: try String(contentsOfFile: BuiltBinary.packageRoot.appendingPathComponent(Self.acme).path, encoding: .utf8))
        let expected = try Self.run("exec \"$OPENIN\" fleet paths --fleet \(Self.acme) --device employee-iphone --from com.acme.hr --to outside")
        // The hops' settings name the file they come from: here, /dev/stdin.
        #expect(standardInput.status == 2 && standardInput.stdout == expected.stdout.replacingOccurrences(of: Self.acme, with: "/dev/stdin"),
                "\(standardInput.stderr)")
        #expect(expected.stdout.contains("\(Self.acme):13)"))
    }

    @Test func diffTranslateAndIntuneInputsOnPipesAreReadOnce() throws {
        let diff = try Self.run("exec \"$OPENIN\" fleet diff <(cat \(Self.acme)) <(cat Examples/fleet/acme-reviewed.json)")
        let expected = try Self.run("exec \"$OPENIN\" fleet diff \(Self.acme) Examples/fleet/acme-reviewed.json")
        #expect(diff.status == expected.status && diff.stdout == expected.stdout && !diff.stdout.isEmpty, "\(diff.stderr)")
        let intune = "Examples/intune/acme-app-protection.json", devices = "Examples/intune/devices.json"
        let piped = try Self.run("exec \"$OPENIN\" fleet matrix --fleet <(cat \(intune)) --devices <(cat \(devices)) --device employee-iphone")
        let plain = try Self.run("exec \"$OPENIN\" fleet matrix --fleet \(intune) --devices \(devices) --device employee-iphone")
        #expect(piped.status == 0 && piped.stdout == plain.stdout, "\(piped.stderr)")
        let translated = try Self.run("exec \"$OPENIN\" translate --to appconnect <(cat \(intune)) --devices <(cat \(devices))")
        let translatedPlain = try Self.run("exec \"$OPENIN\" translate --to appconnect \(intune) --devices \(devices)")
        #expect(translated.status == translatedPlain.status && translated.stdout == translatedPlain.stdout && !translated.stdout.isEmpty, "\(translated.stderr)")
        let toIntune = try Self.run("exec \"$OPENIN\" translate --to intune /dev/stdin",
                                    stdin: try String(contentsOfFile: BuiltBinary.packageRoot.appendingPathComponent(Self.acme).path, encoding: .utf8))
        #expect(toIntune.stdout.contains("iosManagedAppProtection"), "\(toIntune.stderr)")
    }

    @Test("eval --policy reads an Intune policy once: on a pipe, /dev/stdin and a FIFO it decides as on the file, with and without Intune options")
    func evalReadsAnIntunePolicyOnce() throws {
        let policy = "Examples/intune/framework/level-3-enterprise-high-data-protection-iOS.json", devices = "Examples/intune/framework-devices.json"
        let request = "--from com.microsoft.Office.Word --channel print"
        let plain = try Self.run("exec \"$OPENIN\" eval --policy \(policy) --devices \(devices) \(request)")
        #expect(plain.status == 0 || plain.status == 2, "\(plain.stderr)")
        #expect(!plain.stdout.isEmpty)
        let substituted = try Self.run("exec \"$OPENIN\" eval --policy <(cat \(policy)) --devices \(devices) \(request)")
        #expect(substituted.status == plain.status && substituted.stdout == plain.stdout.replacingOccurrences(of: policy, with: "/dev/fd/63"), "\(substituted.stderr)")
        let text = try String(contentsOfFile: BuiltBinary.packageRoot.appendingPathComponent(policy).path, encoding: .utf8)
        let standardInput = try Self.run("exec \"$OPENIN\" eval --policy /dev/stdin --devices \(devices) \(request)", stdin: text)
        #expect(standardInput.status == plain.status && standardInput.stdout == plain.stdout.replacingOccurrences(of: policy, with: "/dev/stdin"), "\(standardInput.stderr)")
        // Without an Intune option the file is first tried as an AppConnect policy: still one read.
        let bare = try Self.run("exec \"$OPENIN\" eval --policy \(policy) --from com.microsoft.Office.Word --channel print")
        let bareStdin = try Self.run("exec \"$OPENIN\" eval --policy /dev/stdin --from com.microsoft.Office.Word --channel print", stdin: text)
        #expect(bareStdin.status == bare.status && bareStdin.stdout == bare.stdout.replacingOccurrences(of: policy, with: "/dev/stdin") && !bare.stdout.isEmpty,
                "\(bareStdin.stderr)")
        let fifo = TemporaryFile.directory.appendingPathComponent("\(UUID().uuidString)-policy.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let written = try Self.run("cat \(policy) > '\(fifo)' & exec \"$OPENIN\" eval --policy '\(fifo)' --devices \(devices) \(request)")
        #expect(written.status == plain.status && written.stdout == plain.stdout.replacingOccurrences(of: policy, with: fifo), "\(written.stderr)")
    }

    @Test func aFIFOWithAWriterIsReadAndOneWithoutIsAnErrorNotAWait() throws {
        let fifo = TemporaryFile.directory.appendingPathComponent("\(UUID().uuidString)-fleet.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let written = try Self.run("cat \(Self.acme) > '\(fifo)' & exec \"$OPENIN\" fleet lint --fleet '\(fifo)'")
        #expect(written.status == 2 && written.stdout.hasSuffix("0 errors, 2 warnings, 0 info\n"), "\(written.stderr)")
        for arguments in ["fleet lint --fleet '\(fifo)'", "fleet matrix --fleet Examples/intune/acme-app-protection.json --devices '\(fifo)'",
                          "fleet diff \(Self.acme) '\(fifo)'", "translate --to intune '\(fifo)'"] {
            let waiting = try Self.run("exec \"$OPENIN\" \(arguments)", deadline: 15)
            #expect(waiting.status == 1, "\(arguments): \(waiting.stderr)")
            #expect(waiting.stderr.contains("it is a pipe (FIFO) that no writer opened within 2 seconds"), "\(arguments): \(waiting.stderr)")
            #expect(waiting.seconds < 10)
        }
    }

    @Test func aFIFOInAnIntuneExportFolderIsAnError() throws {
        let folder = TemporaryFile.directory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BuiltBinary.packageRoot.appendingPathComponent("Examples/intune/acme-app-protection.json"),
                                         to: folder.appendingPathComponent("a.json"))
        #expect(mkfifo(folder.appendingPathComponent("b.json").path, 0o600) == 0)
        let run = try Self.run("exec \"$OPENIN\" fleet lint --fleet '\(folder.path)' --devices Examples/intune/devices.json", deadline: 15)
        #expect(run.status == 1)
        #expect(run.stderr.contains("b.json': it is a named pipe (FIFO), not an exported file; remove it from the folder"), "\(run.stderr)")
        #expect(run.seconds < 10)
    }

    @Test func anEmptyFolderIsNotIntunePolicies() throws {
        let folder = TemporaryFile.directory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = try Self.run("exec \"$OPENIN\" fleet lint --fleet '\(folder.path)'")
        #expect(run.status == 1)
        #expect(run.stderr == "Error: '\(folder.path)' is a folder with no JSON file in it: give a fleet file, or a folder of Intune app protection policies exported as *.json\n")
    }

    /// A fleet of `count` AppConnect apps on one device, each with a container policy: large enough that lint and matrix run for seconds.
    static func largeFleet(_ count: Int) throws -> String {
        let ids = (0..<count).map { "com.signal.app\($0)" }
        let policies = ids.enumerated().map { index, id in
            "{\"name\": \"P\(index)\", \"app\": \"\(id)\", \"labels\": [\"L\"], \"openFromPolicy\": \"whitelist\", \"openFromWhitelist\": [\"\(ids[(index + 1) % count])\"]}"
        }
        let text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": true, "openInPolicy": "appconnect", "openFromPolicy": "appconnect",
                        "pasteboardPolicy": "securecopy", "printPolicy": "unauthorized", "dragAndDropPolicy": "appconnect"},
             "containerPolicies": [\(policies.joined(separator: ",\n"))],
             "apps": [\(ids.map { "{\"bundleID\": \"\($0)\", \"appconnect\": true}" }.joined(separator: ",\n"))],
             "devices": {"d": {"labels": ["L"], "secureServicesAvailable": true, "installed": [\(ids.map { "\"\($0)\"" }.joined(separator: ", "))]}}}
            """
        return try TemporaryFile.write(text, name: "large-fleet.json")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func everyFleetVerbStopsWithinASecondOfASignal(signal: Int32, status: Int32) throws {
        let fleet = try Self.largeFleet(20_000)
        for verb in ["lint", "matrix --format json", "paths --from all"] {
            let run = try Self.run("exec \"$OPENIN\" fleet \(verb) --fleet '\(fleet)' > /dev/null", deadline: 30, signal: (signal, 1.5))
            #expect(!run.signalled && run.status == status, "fleet \(verb): \(run.status) \(run.stderr)")
            // 1.5 s before the signal, then at most a second (and some slack for a loaded machine).
            #expect(run.seconds < 4.5, "fleet \(verb) took \(run.seconds) s")
        }
    }
}
