import Foundation
@testable import OpenInKit
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// ``CappedFile``: the one capped reader, used by policy files, plists (through the CLI), tables and scenarios.
@Suite struct CappedFileTests {
    @Test("a device with no end, a missing file and a directory are errors, never a read without end")
    func refusals() {
        #expect(throws: CappedFile.Failure(what: "policy file", path: "/dev/zero", reason: "it is larger than 16 MiB")) {
            try CappedFile.read(path: "/dev/zero", what: "policy file")
        }
        #expect(throws: CappedFile.Failure(what: "scenario", path: "/nonexistent/x", reason: "no such file or directory")) {
            try CappedFile.read(path: "/nonexistent/x", what: "scenario")
        }
        #expect(throws: CappedFile.Failure(what: "decision table", path: "/tmp", reason: "it is a directory; give a file")) {
            try CappedFile.read(path: "/tmp", what: "decision table")
        }
        #expect(CappedFile.Failure(what: "policy file", path: "p.json", reason: "x").message == "cannot read policy file 'p.json': x")
    }

    @Test("a file at the limit is read whole; one byte more is refused")
    func limit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("capped-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try CappedFile.read(path: path, what: "file", limit: 100_000) == bytes)
        #expect(throws: CappedFile.Failure(what: "file", path: path, reason: "it is larger than 99999 bytes")) {
            try CappedFile.read(path: path, what: "file", limit: 99_999)
        }
    }

    @Test("decision tables are read through the cap")
    func tables() {
        #expect(throws: TableError(file: "/dev/zero", line: 0, message: "cannot read the file: it is larger than 16 MiB")) {
            try DecisionTables.load(paths: ["/dev/zero"])
        }
    }
}
