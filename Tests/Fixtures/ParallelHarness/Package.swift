// swift-tools-version:6.0
import PackageDescription

// An app team's test package: an app target written against the SDK, and tests of it in several suites
// and files, each test with its own AppConnectHarness, run as `swift test` runs them (in parallel, no flag).
// AppConnectParallelTests (Tests/AppConnectTests) builds it and runs it several times; see
// Tests/Fixtures/run-parallel-harness.sh for the 20-run proof.
let package = Package(
    name: "ParallelHarness",
    dependencies: [.package(name: "openin-check", path: "../../..")],
    targets: [
        .target(name: "NotesApp", dependencies: [.product(name: "AppConnect", package: "openin-check")]),
        .testTarget(name: "NotesAppTests", dependencies: [
            "NotesApp",
            .product(name: "AppConnect", package: "openin-check"),
            .product(name: "AppConnectTesting", package: "openin-check"),
        ]),
        // The README's first SDK-double test, file and manifest lines as it shows them (ParallelFixtureTests compares).
        .testTarget(name: "NotesTests", dependencies: [
            .product(name: "AppConnect", package: "openin-check"),         // the double, in place of AppConnect.framework
            .product(name: "AppConnectTesting", package: "openin-check"),  // the harness, for the tests only
        ]),
    ],
    swiftLanguageModes: [.v6]
)
