import Foundation
import Testing

/// The switches that let a test pass without checking (rewrite the expected file, swap the
/// binary under test) are refused in CI: `.ci/run` refuses them under `CI=true`, and so does
/// this test, for runs that do not go through it.
@Suite struct CIModeTests {
    @Test func noUpdateModeOrBinaryOverrideUnderCI() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["CI"] == "true" else { return }
        for name in ["OPENIN_UPDATE_GOLDEN", "OPENIN_UPDATE_PUBLIC_API", "OPENIN_CHECK_BINARY"] {
            #expect(environment[name] == nil, "\(name) is set under CI=true: it lets tests pass without checking")
        }
    }

    /// `.ci/run` itself refuses them: run with CI=true and one of them set, it stops before building.
    @Test(arguments: ["OPENIN_UPDATE_GOLDEN", "OPENIN_UPDATE_PUBLIC_API", "OPENIN_CHECK_BINARY"])
    func theCIScriptRefusesThem(_ name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // A `swift` that only fails comes first on PATH: a script that did not refuse would run it, not the suite again.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("openin-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let fake = bin.appendingPathComponent("swift")
        try "#!/bin/sh\nexit 99\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["-i", "PATH=\(bin.path):/usr/bin:/bin", "CI=true", "\(name)=1", "bash", root.appendingPathComponent(".ci/run").path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message == ".ci/run: \(name) is set under CI=true: it lets tests pass without checking; unset it\n")
    }
}
