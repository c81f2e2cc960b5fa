import Foundation

/// Files the tests write, in a directory of their own under the system's temporary directory, removed when the
/// test process exits.
enum TemporaryFile {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openin-check-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // The helpers below hand out paths with no end of use, so the directory goes, with all it holds, at exit.
        atexit { try? FileManager.default.removeItem(at: TemporaryFile.directory) }
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

    /// A new, empty folder of its own inside `directory`, its name starting with `prefix`.
    static func folder(_ prefix: String) throws -> URL {
        let url = directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes `file`, written by a helper: with the folder of its own it was written into (one inside `directory`),
    /// or alone when it lies straight in `directory` (as `write` puts it); a path anywhere else is left alone.
    static func remove(_ file: String) {
        // Paths, not URLs: a URL made from a folder's path may end in a slash, and is then unequal to one that does not.
        let folder = (file as NSString).deletingLastPathComponent
        if folder == directory.path {
            try? FileManager.default.removeItem(atPath: file)
        } else if (folder as NSString).deletingLastPathComponent == directory.path {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
