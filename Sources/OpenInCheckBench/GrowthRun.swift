#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The second part of `openin-check-bench --adversarial`: the fleet, Intune and single-app `diff`
/// inputs that once grew faster than linearly, each run as a whole process at 1×, 10× and 100× its size, with the exponent of a
/// least-squares fit of log(time) and log(peak memory) against log(size). Linear is 1; the bound
/// checked by eye in the Performance article is 1.15.
struct GrowthRun {
    /// One workload: a name, its three sizes, and how to write its inputs for a size.
    struct Workload: Sendable {
        let name: String
        let unit: String
        let sizes: [Int]
        /// The size the exponents are fitted against, when it is not the input's (a matrix grows with its cells).
        var measure: @Sendable (_ n: Int) -> Int = { $0 }
        /// The exit statuses that show the input was read and answered (an input of invalid lines exits 1).
        var statuses: Set<Int32> = [0, 2]
        /// Writes the inputs of size `n` into `scratch` and returns `openin-check`'s arguments.
        let make: @Sendable (_ n: Int, _ scratch: ScratchDirectory) throws(BenchError) -> [String]
    }

    let binary: String

    static func write(_ text: String, _ name: String, _ scratch: ScratchDirectory) throws(BenchError) -> String {
        try AdversarialRun.write(text, name, scratch)
    }

    static func id(_ index: Int) -> String { "com.growth.app\(index)" }

    /// A fleet of `apps` AppConnect apps on one device carrying `labels` labels, every app's container
    /// policy on one of them: the labels grow, the apps stay.
    static func labelled(apps: Int, labels: Int) -> String {
        let names = (0..<labels).map { "\"L\($0)\"" }
        var text = """
            {"global": {"authorizeAppsWithoutContainerPolicy": false, "openInPolicy": "appconnect", "openFromPolicy": "appconnect",
                        "pasteboardPolicy": "securecopy", "printPolicy": "unauthorized", "dragAndDropPolicy": "appconnect"},
             "containerPolicies": [

            """
        text += (0..<apps).map { "  {\"name\": \"P\($0)\", \"app\": \"\(id($0))\", \"labels\": [\(names[($0 * 7919) % labels])]}" }.joined(separator: ",\n")
        text += "],\n \"apps\": [" + (0..<apps).map { "{\"bundleID\": \"\(id($0))\", \"appconnect\": true}" }.joined(separator: ", ") + "],\n"
        text += " \"devices\": {\"d\": {\"labels\": [" + names.joined(separator: ", ") + "], \"secureServicesAvailable\": true,\n"
        text += "  \"installed\": [" + (0..<apps).map { "\"\(id($0))\"" }.joined(separator: ", ") + "]}}}\n"
        return text
    }

    /// An Intune app protection policy targeting `apps` (and exempting `schemes` URL schemes).
    static func intunePolicy(name: String, apps: [String], schemes: Int = 0) -> String {
        var text = "{\"@odata.type\": \"#microsoft.graph.iosManagedAppProtection\", \"displayName\": \"\(name)\",\n"
        text += " \"allowedOutboundDataTransferDestinations\": \"managedApps\", \"allowedInboundDataTransferSources\": \"managedApps\",\n"
        if schemes > 0 {
            text += " \"exemptedAppProtocols\": [{\"name\": \"Many\", \"value\": \"" + (0..<schemes).map { "scheme\($0);" }.joined() + "\"}],\n"
        }
        text += " \"apps\": [" + apps.map { "{\"mobileAppIdentifier\": {\"@odata.type\": \"#microsoft.graph.iosMobileAppIdentifier\", \"bundleId\": \"\($0)\"}}" }
            .joined(separator: ",\n  ") + "]}\n"
        return text
    }

    /// A devices file listing `apps` apps, all installed on device `d`.
    static func devices(apps: [String]) -> String {
        "{\"apps\": [" + apps.map { "{\"bundleID\": \"\($0)\", \"intuneSDKVersion\": \"19.7.0\"}" }.joined(separator: ",\n ") + "],\n"
            + " \"devices\": {\"d\": {\"mdmEnrolled\": true, \"intuneMAMUPN\": true, \"installed\": [" + apps.map { "\"\($0)\"" }.joined(separator: ", ") + "]}}}\n"
    }

    /// An Intune tenant sized as the Intune-tenant issue sizes one, scaled by `profiles`: one policy per 20 profiles
    /// (at least 5), each targeting 4 of `profiles / 50` apps (at least 10), including 10 of `profiles / 10` groups
    /// (one in five through a managed-app filter) and excluding one; each profile in 3 groups with 5 apps installed,
    /// half of them MDM-enrolled. Everything grows in proportion (about 10 policies target each app at every size), so
    /// the answers do too. At 10,000 profiles: 500 policies with 5,500 assignments over 200 apps. Writes the export
    /// folder and the devices file and returns `fleet lint`'s arguments.
    static func tenant(profiles: Int, _ scratch: ScratchDirectory) throws(BenchError) -> [String] {
        var random = SeededGenerator(seed: 2026)
        let policies = max(5, profiles / 20), groups = max(20, profiles / 10), apps = max(10, profiles / 50)
        func app(_ index: Int) -> String { "com.tenant.app\(index)" }
        func group(_ index: Int) -> String { "00000000-0000-4000-8000-\(String(repeating: "0", count: 12 - String(index).count))\(index)" }
        let folder = scratch.file("tenant")
        guard mkdir(folder, 0o755) == 0 else { throw .invalidInput("cannot make \(folder)") }
        for index in 0..<policies {
            var text = String(intunePolicy(name: "P\(index)", apps: (0..<4).map { _ in app(random.below(apps)) }).dropLast(2))
            text += ",\n \"targetedAppManagementLevels\": \"\(random.pick(["unspecified", "unspecified", "mdm", "unmanaged"]))\",\n \"assignments\": ["
            text += (0..<11).map { k in
                let kind = k == 10 ? "exclusionGroupAssignmentTarget" : "groupAssignmentTarget"
                let filter = k < 10 && random.chance(percent: 20) ? "\"deviceAndAppManagementAssignmentFilterId\": \"f1\", \"deviceAndAppManagementAssignmentFilterType\": \"include\"" : "\"deviceAndAppManagementAssignmentFilterType\": \"none\""
                return "{\"target\": {\"@odata.type\": \"#microsoft.graph.\(kind)\", \"groupId\": \"\(group(random.below(groups)))\", \(filter)}}"
            }.joined(separator: ",\n  ") + "]}\n"
            _ = try write(text, "tenant/p\(index).json", scratch)
        }
        var devices = "{\"apps\": [" + (0..<apps).map { "{\"bundleID\": \"\(app($0))\", \"intuneSDKVersion\": \"19.7.0\"}" }.joined(separator: ",\n ") + "],\n"
        devices += " \"assignmentFilters\": [{\"id\": \"f1\", \"displayName\": \"iOS 17 and later\", \"rule\": \"(app.osVersion -startsWith \\\"17\\\") or (app.osVersion -startsWith \\\"18\\\")\"}],\n"
        devices += " \"groups\": {" + (0..<groups).map { "\"\(group($0))\": \"Group \($0)\"" }.joined(separator: ", ") + "},\n \"devices\": {\n"
        devices += (0..<profiles).map { index in
            let installed = (0..<5).map { _ in app(random.below(apps)) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let carried = (0..<3).map { _ in group(random.below(groups)) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            return "  \"d\(index)\": {\"mdmEnrolled\": \(index % 2 == 0), \"intuneMAMUPN\": true, \"osVersion\": \"\(random.pick(["16.7", "17.5", "18.1"]))\", "
                + "\"installed\": [" + installed.map { "\"\($0)\"" }.joined(separator: ", ") + "], \"groups\": [" + carried.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
        }.joined(separator: ",\n") + "}}\n"
        return ["fleet", "lint", "--fleet", folder, "--devices", try write(devices, "tenant-devices.json", scratch)]
    }

    /// `lines` request lines for the fleet benchmark's fleet of `apps` apps, each naming an app it does not know:
    /// every other line a typo one edit from one of its IDs as the target (`com.bench.apq00042`), the others an
    /// unknown sender.
    static func unknownNames(lines: Int, apps: Int) -> String {
        (0..<lines).map { index in
            let digits = String(index % apps)
            let padded = String(repeating: "0", count: max(0, 5 - digits.count)) + digits
            let known = "com.bench.app" + padded, typo = "com.bench.apq" + padded
            return index % 2 == 0
                ? "{\"from\": \"\(known)\", \"channel\": \"document-interaction\", \"target\": \"\(typo)\"}"
                : "{\"from\": \"com.unknown.sender\(index)\", \"channel\": \"document-interaction\", \"target\": \"\(known)\"}"
        }.joined(separator: "\n") + "\n"
    }

    static let workloads: [Workload] = [
        Workload(name: "diff of two policies, every ID changed", unit: "IDs per policy", sizes: [6_000, 60_000, 600_000]) { n, scratch throws(BenchError) in
            let old = try write(AdversarialRun.policy(ids: (0..<n).map { "com.example.old\($0)" }), "old-large.json", scratch)
            let new = try write(AdversarialRun.policy(ids: (0..<n).map { "com.example.new\($0)" }), "new-large.json", scratch)
            return ["diff", old, new]
        },
        Workload(name: "diff --requests over invalid lines (each an unknown channel: a \"Did you mean\" each)", unit: "request lines",
                 sizes: [3_000, 30_000, 300_000], statuses: [1]) { n, scratch throws(BenchError) in
            let old = try write(AdversarialRun.policy(ids: ["com.example.a"]), "old-requests.json", scratch)
            let new = try write(AdversarialRun.policy(ids: ["com.example.b"]), "new-requests.json", scratch)
            let log = try write(String(repeating: "{\"channel\":\"nowhere\",\"target\":\"x\"}\n", count: n), "invalid.jsonl", scratch)
            return ["diff", "--requests", log, old, new]
        },
        Workload(name: "fleet eval, 2,000 lines each naming an app the fleet does not know (a typo of one of its apps, or an unknown sender)",
                 unit: "apps", sizes: [300, 3_000, 30_000], statuses: [1]) { n, scratch throws(BenchError) in
            // The bench fleet's IDs are com.bench.app00000…: a typo is one edit from one of them ("Did you mean"),
            // an unknown sender is none of them (its message suggests and lists). The lines stay, the apps grow:
            // a question that walked every app made this grow with lines × apps.
            let fleet = try write(FleetBenchmark.fleet(apps: n, seed: 2024), "names.json", scratch)
            return ["fleet", "eval", "--fleet", fleet, "--device", "bench", try write(unknownNames(lines: 2_000, apps: n), "names.jsonl", scratch)]
        },
        Workload(name: "fleet eval, one line per app, each naming an app the fleet does not know (the lines grow with the apps)",
                 unit: "apps and lines", sizes: [300, 3_000, 30_000], statuses: [1]) { n, scratch throws(BenchError) in
            // As above, with as many lines as apps: the IDs fill their space more densely as the fleet grows, so a
            // "Did you mean" that visited every prefix within two edits grew with the apps as well as the lines.
            let fleet = try write(FleetBenchmark.fleet(apps: n, seed: 2024), "names-dense.json", scratch)
            return ["fleet", "eval", "--fleet", fleet, "--device", "bench", try write(unknownNames(lines: n, apps: n), "names-dense.jsonl", scratch)]
        },
        Workload(name: "fleet lint (the fleet benchmark's generated fleet)", unit: "apps", sizes: [300, 3_000, 30_000]) { n, scratch throws(BenchError) in
            ["fleet", "lint", "--fleet", try write(FleetBenchmark.fleet(apps: n, seed: 2024), "lint.json", scratch)]
        },
        Workload(name: "fleet lint, 100 apps on a device carrying many labels", unit: "labels", sizes: [3_000, 30_000, 300_000]) { n, scratch throws(BenchError) in
            ["fleet", "lint", "--fleet", try write(labelled(apps: 100, labels: n), "labels.json", scratch)]
        },
        Workload(name: "fleet matrix --format text (time against the cells printed: 7 × apps × (apps + 1))", unit: "apps", sizes: [100, 316, 1_000],
                 measure: { 7 * $0 * ($0 + 1) }) { n, scratch throws(BenchError) in
            ["fleet", "matrix", "--fleet", try write(FleetBenchmark.fleet(apps: n, seed: 2024), "matrix.json", scratch)]
        },
        Workload(name: "fleet paths --from all --format text (time against the pairs searched: apps × apps)", unit: "apps", sizes: [100, 316, 1_000],
                 measure: { $0 * $0 }) { n, scratch throws(BenchError) in
            ["fleet", "paths", "--fleet", try write(FleetBenchmark.fleet(apps: n, seed: 2024), "paths.json", scratch), "--from", "all"]
        },
        // translate reports every flow it opens: each sender's requests to its receivers (and URLs) decided once per kind
        // of receiver (what the decisions read of it), the others counted; fitted against the apps, its input, from 158
        // to 1,581 apps (below that the start-up is a large share of the time).
        Workload(name: "translate --to intune (the fleet benchmark's generated fleet)", unit: "apps", sizes: [158, 500, 1_581]) { n, scratch throws(BenchError) in
            ["translate", "--to", "intune", try write(FleetBenchmark.fleet(apps: n, seed: 2024), "translate.json", scratch)]
        },
        Workload(name: "translate --to appconnect: one Intune policy targeting every app, all installed", unit: "targeted apps",
                 sizes: [158, 500, 1_581]) { n, scratch throws(BenchError) in
            let apps = (0..<n).map(id)
            return ["translate", "--to", "appconnect", try write(intunePolicy(name: "All", apps: apps), "translate-intune.json", scratch),
                    "--devices", try write(devices(apps: apps), "translate-devices.json", scratch)]
        },
        Workload(name: "Intune: one policy targeting every app, all installed; one request", unit: "targeted apps", sizes: [1_000, 10_000, 100_000]) { n, scratch throws(BenchError) in
            let apps = (0..<n).map(id)
            return ["fleet", "eval", "--fleet", try write(intunePolicy(name: "All", apps: apps), "targeted.json", scratch),
                    "--devices", try write(devices(apps: apps), "targeted-devices.json", scratch),
                    "--from", id(0), "--channel", "document-interaction", "--target", id(n - 1)]
        },
        Workload(name: "Intune: one policy exempting many URL schemes; one open-url request", unit: "exempted schemes", sizes: [1_000, 10_000, 100_000]) { n, scratch throws(BenchError) in
            let apps = [id(0), id(1)]
            return ["fleet", "eval", "--fleet", try write(intunePolicy(name: "Exempt", apps: apps, schemes: n), "exempt.json", scratch),
                    "--devices", try write(devices(apps: apps), "exempt-devices.json", scratch),
                    "--from", id(0), "--channel", "open-url", "--url", "scheme\(n - 1)://x"]
        },
        Workload(name: "Intune: a devices file of many apps, ten targeted; one request", unit: "apps in the devices file", sizes: [300, 3_000, 30_000]) { n, scratch throws(BenchError) in
            let apps = (0..<n).map(id)
            return ["fleet", "eval", "--fleet", try write(intunePolicy(name: "Ten", apps: Array(apps.prefix(10))), "ten.json", scratch),
                    "--devices", try write(devices(apps: apps), "many-devices.json", scratch),
                    "--from", id(0), "--channel", "document-interaction", "--target", id(n - 1)]
        },
        Workload(name: "Intune tenant: a policy per 20 profiles (10,000 profiles: 500 policies, 5,500 assignments, groups, a filter, levels); fleet lint",
                 unit: "device profiles", sizes: [100, 1_000, 10_000]) { n, scratch throws(BenchError) in
            try tenant(profiles: n, scratch)
        },
        Workload(name: "Intune: an export folder of one-app policies; fleet lint", unit: "files", sizes: [100, 1_000, 10_000]) { n, scratch throws(BenchError) in
            let folder = scratch.file("export")
            guard mkdir(folder, 0o755) == 0 else { throw .invalidInput("cannot make \(folder)") }
            for index in 0..<n {
                _ = try write(intunePolicy(name: "P\(index)", apps: [id(index)]), "export/p\(index).json", scratch)
            }
            return ["fleet", "lint", "--fleet", folder, "--devices", try write(devices(apps: (0..<10).map(id)), "folder-devices.json", scratch)]
        },
    ]

    /// The slope of the least-squares line through (log x, log y).
    static func exponent(_ points: [(x: Double, y: Double)]) -> Double {
        let logs = points.map { (log($0.x), log(max($0.y, 1e-9))) }
        let meanX = logs.map(\.0).reduce(0, +) / Double(logs.count), meanY = logs.map(\.1).reduce(0, +) / Double(logs.count)
        let covariance = logs.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
        let variance = logs.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        return variance == 0 ? 0 : covariance / variance
    }

    /// Runs every workload once per size and describes the figures and the fitted exponents.
    func measure(progress: (String) -> Void) throws(BenchError) {
        progress("growth (fleet and Intune inputs), whole processes at 1×, 10× and 100×, exponents fitted on log-log:\n")
        for workload in Self.workloads {
            var line = "  \(workload.name) (\(workload.unit)):"
            var times: [(x: Double, y: Double)] = [], memories: [(x: Double, y: Double)] = []
            for n in workload.sizes {
                let scratch = try ScratchDirectory()
                let arguments = try workload.make(n, scratch)
                let run = try ChildProcess.run(binary, ["openin-check"] + arguments, watchMemory: true)
                guard workload.statuses.contains(run.status) else {
                    throw .invalidInput("'\(workload.name)' at \(n): openin-check exited with status \(run.status)")
                }
                let memory = run.peakResidentBytes.map { ", peak \(Format.megabytes($0))" } ?? ""
                line += " \(Format.grouped(n)): \(Format.fixed(run.seconds, decimals: 3)) s\(memory);"
                times.append((Double(workload.measure(n)), run.seconds))
                if let peak = run.peakResidentBytes { memories.append((Double(n), Double(peak))) }
            }
            line += " exponent: time \(Format.fixed(Self.exponent(times), decimals: 2))"
            if memories.count == workload.sizes.count { line += ", memory \(Format.fixed(Self.exponent(memories), decimals: 2))" }
            progress(line + "\n")
        }
    }
}
