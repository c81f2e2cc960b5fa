#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program as `bench` times it: output to /dev/null, wall time by the
/// monotonic clock, peak resident memory from the kernel's accounting of the child.
enum ChildProcess {
    /// One run's wall time and peak resident set.
    struct Run {
        /// From just before the spawn to the child's exit, in seconds.
        let seconds: Double
        /// The child's peak resident set size in bytes (its `VmHWM`), when it was watched; else `nil`.
        ///
        /// Not `ru_maxrss`: a child started by `posix_spawn` (or `fork`) counts its parent's resident
        /// set at the start towards its own peak, and this parent holds a corpus in memory.
        let peakResidentBytes: Int?
        /// The exit status, or -1 when the child did not exit normally.
        let status: Int32
    }

    /// Runs `path` with `arguments` (the program's name first), standard input, output and error on /dev/null.
    /// - Parameter watchMemory: read the child's `VmHWM` every millisecond until it exits (for a run
    ///   that is not timed: the reading takes a little of the machine).
    /// - Throws: ``BenchError/invalidInput(_:)`` when the program cannot be started.
    static func run(_ path: String, _ arguments: [String], watchMemory: Bool = false) throws(BenchError) -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let clock = ContinuousClock()
        let start = clock.now
        let error = posix_spawn(&pid, path, &actions, nil, &argv, environ)
        guard error == 0 else {
            throw .invalidInput("cannot run '\(path)': \(String(cString: strerror(error)).lowercased())")
        }
        var status: Int32 = 0
        var peak: Int? = nil
        while true {
            let waited = waitpid(pid, &status, watchMemory ? WNOHANG : 0)
            if waited == pid { break }
            if waited < 0 {
                guard errno == EINTR else { throw .invalidInput("cannot wait for '\(path)': \(String(cString: strerror(errno)).lowercased())") }
                continue
            }
            if let reading = highWaterMark(of: pid) { peak = max(peak ?? 0, reading) }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        let seconds = (clock.now - start).seconds
        let exited = status & 0x7F == 0
        return Run(seconds: seconds, peakResidentBytes: peak, status: exited ? (status >> 8) & 0xFF : -1)
    }

    /// A running process's peak resident set so far (`VmHWM` in `/proc/PID/status`), in bytes.
    private static func highWaterMark(of pid: pid_t) -> Int? {
        guard let bytes = try? BenchFile.read("/proc/\(pid)/status") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        let digits = line.dropFirst("VmHWM:".count).filter { $0.isNumber }
        return Int(digits).map { $0 * 1024 }
    }

    /// The path of the running executable (so `bench` can time `eval` as its own child).
    static var currentExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first executable called `name` on `PATH`, if any.
    static func onPath(_ name: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for directory in String(cString: path).split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
