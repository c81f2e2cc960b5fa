import Foundation
import Testing

/// What one run of the built `openin-check` binary printed and returned.
struct BinaryRun: Sendable {
    let stdout: String
    let stderr: String
    let status: Int32
}

/// Runs the `openin-check` executable that `swift build` / `swift test` built.
///
/// The binary is `$OPENIN_CHECK_BINARY` when set; otherwise it sits next to
/// the test bundle in the build directory (`.build/<triple>/debug/`).
enum BuiltBinary {
    /// `fleet paths` outputs of one device run one app at a time, as `--from all` prints them together:
    /// joined by a blank line, the zone line only once (it leads each device's output).
    static func zonedOnce(_ outputs: [String]) -> String {
        outputs.enumerated().map { index, output in
            index > 0 && output.hasPrefix("zone of trust: ") ? String(output.drop { $0 != "\n" }.dropFirst()) : output
        }.joined(separator: "\n")
    }

    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["OPENIN_CHECK_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("openin-check")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Whether `OPENIN_CHECK_BINARY` swaps the binary while `CI=true`.
    static var overriddenInCI: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] == "true" && environment["OPENIN_CHECK_BINARY"] != nil
    }

    /// The package's root directory, where `Examples/` is.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the binary with `arguments` in the package root, feeding `stdin`.
    static func run(_ arguments: [String], stdin: String = "") throws -> BinaryRun {
        let binary = try #require(url, "the openin-check binary was not found next to the test bundle; build it with 'swift build' or set OPENIN_CHECK_BINARY")
        // In CI the binary under test is the one this build made, never a swapped-in one.
        #expect(!overriddenInCI, "OPENIN_CHECK_BINARY is set under CI=true: the tests would run another binary")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Write stdin and read both outputs concurrently so no pipe fills up and blocks the child.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryRun(stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData.finish(), as: UTF8.self),
                         status: process.terminationStatus)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}
