import Foundation

/// Files the tests write, in a directory of their own under the system's temporary directory.
enum TemporaryFile {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openin-check-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Writes `bytes` to a new file named `name` (made unique) and returns its path.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = directory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url.path
    }

    static func write(_ text: String, name: String) throws -> String {
        try write(Array(text.utf8), name: name)
    }

    /// A property list written by Foundation, XML or binary.
    static func plist(_ object: Any, binary: Bool, name: String) throws -> String {
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: binary ? .binary : .xml, options: 0)
        return try write(Array(data), name: name)
    }
}
