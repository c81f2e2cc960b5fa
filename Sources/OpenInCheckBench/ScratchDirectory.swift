#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of its own under `$TMPDIR` (or /tmp) for the files `bench` writes; removed with all it holds at the end.
final class ScratchDirectory {
    let path: String

    init() throws(BenchError) {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(parent)/openin-check-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .invalidInput("cannot make a scratch directory in '\(parent)': \(String(cString: strerror(errno)).lowercased())")
        }
        path = String(cString: made)
    }

    /// The path of a file (or folder) called `name` in the directory, removed at the end.
    func file(_ name: String) -> String {
        "\(path)/\(name)"
    }

    deinit {
        // The whole tree, not a list of names: a folder's files, or a policy written next to its corpus, go too.
        Self.removeTree(path)
    }

    /// Removes `path` and, when it is a directory, everything in it; a symbolic link is removed, never followed.
    private static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        var names: [String] = []
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
        }
        for name in names { removeTree("\(path)/\(name)") }
        rmdir(path)
    }
}
