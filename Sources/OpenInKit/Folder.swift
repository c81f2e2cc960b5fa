#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Listing a folder's files, for readers that take a folder of files (decision tables, Intune exports).
public enum Folder {
    /// Every path under the directory `path`, relative to it, descending into
    /// subdirectories but not into symbolic links to them; nil when a directory cannot be read.
    public static func subpaths(of path: String) -> [String]? {
        entries(of: path)?.map(\.path)
    }

    /// Every path under the directory `path`, relative to it, with whether it is a directory (symbolic
    /// links to directories are not: they are not descended into); nil when a directory cannot be read.
    package static func entries(of path: String) -> [(path: String, isDirectory: Bool)]? {
        var found: [(path: String, isDirectory: Bool)] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? path : (path.hasSuffix("/") ? path : path + "/") + relative
            guard let stream = opendir(directory) else { return nil }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                let full = (path.hasSuffix("/") ? path : path + "/") + child
                let isDirectory = lstat(full, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
                found.append((child, isDirectory))
                if isDirectory { pending.append(child) }
            }
        }
        return found
    }
}
