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
        /// The child's peak resident set size (`ru_maxrss`), in bytes.
        let peakResidentBytes: Int
        /// The exit status, or -1 when the child did not exit normally.
        let status: Int32
    }

    /// Runs `path` with `arguments` (the program's name first), standard input, output and error on /dev/null.
    /// - Throws: ``CLIError/invalidInput(_:)`` when the program cannot be started.
    static func run(_ path: String, _ arguments: [String]) throws(CLIError) -> Run {
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .invalidInput("cannot wait for '\(path)': \(String(cString: strerror(errno)).lowercased())") }
        }
        let seconds = (clock.now - start).seconds
        let exited = status & 0x7F == 0
        return Run(seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024, status: exited ? (status >> 8) & 0xFF : -1)
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
