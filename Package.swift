// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "openin-check",
    products: [
        .library(name: "OpenInKit", targets: ["OpenInKit"]),
        .library(name: "OpenInCore", targets: ["OpenInCore"]),
        .library(name: "OpenInFleet", targets: ["OpenInFleet"]),
        .library(name: "OpenInAppConnect", targets: ["OpenInAppConnect"]),
        .library(name: "OpenInIntune", targets: ["OpenInIntune"]),
        .library(name: "OpenInVendors", targets: ["OpenInVendors"]),
        .library(name: "OpenInPolicy", targets: ["OpenInPolicy"]),
        .library(name: "OpenInReports", targets: ["OpenInReports"]),
        .library(name: "AppConnectRuntime", targets: ["AppConnectRuntime"]),
        .library(name: "AppConnect", targets: ["AppConnect"]),
        .library(name: "AppConnectTesting", targets: ["AppConnectTesting"]),
        .executable(name: "openin-check", targets: ["openin-check"]),
        .executable(name: "openin-check-bench", targets: ["openin-check-bench"]),
    ],
    targets: [
        // Bytes and text only: JSON reader, writer and value, property lists, JSON Patch, edit distance,
        // capped files. Imports nothing of ours.
        .target(name: "OpenInKit"),
        // The vocabulary of one decision: bundle IDs, share requests and channels, decisions, rule ids
        // and citations. No vendor, no file I/O.
        .target(name: "OpenInCore", dependencies: ["OpenInKit"]),
        // The fleet analysis, written once over the vendor seam: graph search, paths and their identity,
        // matrix, diff, baselines and the gate, fixes ranking, settings. Names no vendor; renders nothing.
        .target(name: "OpenInFleet", dependencies: ["OpenInCore", "OpenInKit"]),
        // Ivanti AppConnect: the single-app engine (rules, evaluator, readers, streams, lint, diff), the
        // fleet file and its adapter to the seam, with the fast paths beside the rules they rely on.
        .target(name: "OpenInAppConnect", dependencies: ["OpenInFleet", "OpenInCore", "OpenInKit"]),
        // Microsoft Intune: app protection policies, their rules, readers, lint and fleet adapter.
        .target(name: "OpenInIntune", dependencies: ["OpenInFleet", "OpenInCore", "OpenInKit"]),
        // The one place that knows both vendors: detecting and loading either, translation, the
        // cross-vendor diff, decision tables.
        .target(name: "OpenInVendors", dependencies: ["OpenInAppConnect", "OpenInIntune", "OpenInFleet", "OpenInCore", "OpenInKit"]),
        // The umbrella: `import OpenInPolicy` gives every module above.
        .target(name: "OpenInPolicy", dependencies: ["OpenInVendors", "OpenInAppConnect", "OpenInIntune", "OpenInFleet", "OpenInCore", "OpenInKit"]),
        // The AppConnect lifecycle around the evaluator.
        .target(name: "AppConnectRuntime", dependencies: ["OpenInPolicy"]),
        // A drop-in test double of the AppConnect for iOS SDK: its Swift surface, on the runtime.
        .target(name: "AppConnect", dependencies: ["AppConnectRuntime", "OpenInPolicy"]),
        // The test side of the double: pick the device, push changes, assert on what happened.
        .target(name: "AppConnectTesting", dependencies: ["AppConnect", "AppConnectRuntime", "OpenInPolicy"]),
        // A value in, bytes out: one reporter per output format behind one protocol and one registry.
        .target(name: "OpenInReports", dependencies: ["OpenInPolicy"]),
        // The CLI's verbs, as a library so tests can call them in process.
        .target(name: "OpenInCheckCLI", dependencies: ["OpenInPolicy", "OpenInReports", "AppConnectRuntime", "BuildInfo"]),
        // The commit `--version` names, when the build defines it (C: a macro carries a value from the command line).
        .target(name: "BuildInfo"),
        .executableTarget(name: "openin-check", dependencies: ["OpenInCheckCLI", "AllocatorTuning"]),
        // The installed program's one allocator setting, made before anything runs (C: glibc's mallopt). The library
        // leaves an embedder's allocator alone.
        .target(name: "AllocatorTuning"),
        // The benchmark, a program of its own that times the openin-check binary it is given
        // (the installed openin-check has no bench code and no allocation hook).
        .target(name: "OpenInCheckBench", dependencies: ["OpenInPolicy", "AllocationCounting"]),
        // A hook that counts Swift heap allocations, for the benchmark only (C: it sets the runtime's hook).
        .target(name: "AllocationCounting"),
        .executableTarget(name: "openin-check-bench", dependencies: ["OpenInCheckBench"]),
        // A small program that embeds the library (Examples/Embedding).
        .executableTarget(name: "embed-example", dependencies: ["OpenInPolicy"], path: "Examples/Embedding"),
        // What the test targets share: the size of a random run (`OPENIN_SOAK=1`). No product links it.
        .target(name: "OpenInTestSupport", path: "Tests/Support"),
        .testTarget(name: "OpenInPolicyTests", dependencies: ["OpenInTestSupport", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy"]),
        .testTarget(name: "AppConnectRuntimeTests", dependencies: ["AppConnectRuntime", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy"]),
        // A sample app written against the SDK (Examples/SDKSampleApp), and its tests through the harness.
        .target(name: "SDKSampleApp", dependencies: ["AppConnect"], path: "Examples/SDKSampleApp"),
        .testTarget(name: "AppConnectTests", dependencies: ["AppConnect", "AppConnectTesting", "AppConnectRuntime", "SDKSampleApp", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy"]),
        .testTarget(name: "OpenInCheckCLITests", dependencies: ["OpenInTestSupport", "OpenInCheckCLI", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy", "OpenInReports", "OpenInCheckBench"]),
        .testTarget(name: "OpenInCheckBenchTests", dependencies: ["OpenInCheckBench", "OpenInCore", "OpenInFleet", "OpenInAppConnect", "OpenInIntune", "OpenInVendors", "OpenInPolicy"]),
    ],
    swiftLanguageModes: [.v6]
)
