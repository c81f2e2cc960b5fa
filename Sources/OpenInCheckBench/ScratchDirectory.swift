#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of its own under `$TMPDIR` (or /tmp) for the files `bench` writes; removed with them at the end.
final class ScratchDirectory {
    let path: String
    private var files: [String] = []

    init() throws(BenchError) {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(parent)/openin-check-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .invalidInput("cannot make a scratch directory in '\(parent)': \(String(cString: strerror(errno)).lowercased())")
        }
        path = String(cString: made)
    }

    /// The path of a file called `name` in the directory, removed at the end.
    func file(_ name: String) -> String {
        let file = "\(path)/\(name)"
        files.append(file)
        return file
    }

    deinit {
        for file in files { unlink(file) }
        rmdir(path)
    }
}
