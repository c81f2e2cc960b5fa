#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy
import OpenInReports

/// Where a verb reads and writes: the process's standard streams, or memory in tests.
final class Console {
    /// Standard output: results, help and version.
    let stdout: Output
    /// Standard error: error messages.
    let stderr: Output
    /// Standard input, for a request stream given as `-`.
    let stdin: ByteSource

    /// What ``keepUntilExit(_:)`` keeps.
    private var kept: [Any] = []

    init(stdout: Output, stderr: Output, stdin: ByteSource) {
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
    }

    /// The process's own standard streams.
    /// SIGTERM and SIGINT end it at the next record boundary (``Interruption``).
    /// It lives as long as the process (what it keeps is returned by exiting, not freed object by object).
    static func standard() -> Console {
        let console = Console(stdout: Output(fileDescriptor: 1), stderr: Output(fileDescriptor: 2),
                              stdin: ByteSource(fileDescriptor: 0, name: "standard input"))
        Interruption.install(flushing: console.stdout)
        _ = Unmanaged.passRetained(console)
        return console
    }

    /// Keeps `value` as long as the console: for the process's console, until the process exits. A loaded
    /// fleet is many small objects, and freeing them one by one after the answer is written took about a
    /// tenth of a one-app `fleet paths` on 10,000 apps; a console in memory (tests) frees them with itself.
    func keepUntilExit(_ value: Any) { kept.append(value) }

    /// A console that captures output in memory and reads `stdin` from bytes.
    static func memory(stdin: [UInt8] = []) -> Console {
        Console(stdout: Output(), stderr: Output(), stdin: ByteSource(bytes: stdin, name: "standard input"))
    }
}

/// A buffered output stream: a file descriptor, or memory when captured for tests.
final class Output: ReportSink {
    private let fileDescriptor: Int32?
    private var buffer: [UInt8] = []
    /// Everything written, when the output is captured in memory.
    private(set) var captured: [UInt8] = []

    /// Writes to `fileDescriptor`, buffered.
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(Output.bufferSize)
    }

    /// Captures everything written in memory.
    init() {
        fileDescriptor = nil
    }

    private static let bufferSize = 64 * 1024

    /// What has been written, as text (captured outputs only).
    var text: String { String(decoding: captured, as: UTF8.self) }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    func write(bytes: UnsafeBufferPointer<UInt8>) {
        guard fileDescriptor != nil else {
            captured.append(contentsOf: bytes)
            return
        }
        if bytes.count >= Output.bufferSize {
            // A large piece (a block's records) goes out as it is, after what is buffered: no copy.
            flush()
            send(UnsafeRawBufferPointer(bytes))
        } else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Output.bufferSize { flush() }
        }
        // A signal waits for the record being written: it ends the process once the buffer ends a line.
        if Interruption.pending != nil, (buffer.isEmpty ? bytes.last : buffer.last) == UInt8(ascii: "\n"), Interruption.isFlushing(self) {
            Interruption.stop()
        }
    }

    /// Sends buffered bytes to the file descriptor.
    ///
    /// Records must never vanish quietly, so a failed write ends the process:
    /// when the reader of a pipe has gone (`… | head -1`), SIGPIPE ends it, or,
    /// if the parent ignores SIGPIPE, the write fails with EPIPE and the
    /// process exits with the same status, ``ExitStatus/outputClosed`` (141),
    /// without a message. Any other write error (a full disk) is reported on
    /// standard error and the process exits with status 1.
    func flush() {
        guard fileDescriptor != nil, !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { send($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `raw` to the file descriptor, all of it (or ends the process, as ``flush()`` says).
    private func send(_ raw: UnsafeRawBufferPointer) {
        guard let fileDescriptor, let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let written = systemWrite(fileDescriptor, base + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                Output.stop(writing: fileDescriptor, error: errno)
            }
            offset += written
        }
    }

    /// Ends the process after a failed write to `fileDescriptor`.
    private static func stop(writing fileDescriptor: Int32, error: Int32) -> Never {
        if error != EPIPE {
            let name = fileDescriptor == 1 ? "standard output" : fileDescriptor == 2 ? "standard error" : "file descriptor \(fileDescriptor)"
            var message = Array("Error: cannot write \(name): \(describeErrno(error))\n".utf8)
            _ = systemWrite(2, &message, message.count)
            exit(ExitStatus.invalidInput.rawValue)
        }
        exit(ExitStatus.outputClosed.rawValue)
    }
}

/// Bytes to read: a file descriptor (a file or standard input), or memory in tests.
final class ByteSource {
    /// How messages name the source: a path, or "standard input".
    let name: String
    private let fileDescriptor: Int32?
    private var bytes: [UInt8]
    private var offset = 0

    /// Whether the source is a regular file, whose reads never wait (``readAhead(into:upTo:)`` may be used).
    let isRegularFile: Bool

    init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        bytes = []
        var status = stat()
        isRegularFile = fstat(fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    init(bytes: [UInt8], name: String) {
        fileDescriptor = nil
        self.name = name
        self.bytes = bytes
        isRegularFile = false
    }

    /// Opens a file for reading.
    /// - Throws: ``CLIError/invalidInput(_:)`` saying why the file cannot be opened.
    static func open(path: String, what: String) throws(CLIError) -> ByteSource {
        let descriptor = systemOpen(path)
        if descriptor < 0 { throw .invalidInput("cannot read \(what) '\(path)': \(describeErrno(errno))") }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            _ = systemClose(descriptor)
            throw .invalidInput("cannot read \(what) '\(path)': it is a directory; give a file")
        }
        return ByteSource(fileDescriptor: descriptor, name: path)
    }

    /// Reads a whole file of at most 16 MiB (``CappedFile``, the one capped reader of the package).
    /// - Throws: ``CLIError/invalidInput(_:)`` when the file cannot be opened or read, or is too large.
    static func readFile(path: String, what: String, limit: Int = CappedFile.defaultLimit) throws(CLIError) -> [UInt8] {
        do throws(CappedFile.Failure) {
            return try CappedFile.read(path: path, what: what, limit: limit)
        } catch {
            throw .invalidInput(error.message)
        }
    }

    /// Appends up to `limit` bytes to `buffer`; returns how many (0 at the end).
    /// - Throws: ``CLIError/invalidInput(_:)`` on a read error.
    func read(into buffer: inout [UInt8], upTo limit: Int, what: String) throws(CLIError) -> Int {
        guard let fileDescriptor else {
            let count = min(limit, bytes.count - offset)
            buffer.append(contentsOf: bytes[offset..<offset + count])
            offset += count
            return count
        }
        // Wait for input in short slices: a signal may be handled on another thread (the stream's
        // workers), which would not interrupt this read, so the flag is checked between the slices.
        while true {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if Interruption.pending != nil { Interruption.stop() }
            if ready != 0 { break }
        }
        // Waiting for input, every record so far is whole: a pending signal can end the process here.
        let read = Self.appendRead(from: fileDescriptor, into: &buffer, upTo: limit) {
            if Interruption.pending != nil { Interruption.stop() }
        }
        guard let count = read else { throw .invalidInput("cannot read \(what) '\(name)': \(describeErrno(errno))") }
        return count
    }

    /// Appends up to `limit` bytes read from `fileDescriptor` to `buffer` and returns how many
    /// (0 at the end), or `nil` on an error (left in `errno`); `interrupted` runs before a read
    /// interrupted by a signal is tried again.
    private static func appendRead(from fileDescriptor: Int32, into buffer: inout [UInt8], upTo limit: Int, interrupted: () -> Void) -> Int? {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: limit))
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                systemRead(fileDescriptor, raw.baseAddress! + start, limit)
            }
            if count >= 0 {
                buffer.removeLast(limit - count)
                return count
            }
            if errno == EINTR {
                interrupted()
                continue
            }
            let number = errno
            buffer.removeLast(limit)
            errno = number
            return nil
        }
    }

    /// Appends up to `limit` bytes of a regular file to `buffer`, as ``read(into:upTo:what:)`` does, but
    /// without looking for a pending signal (the caller may hold records not yet written); returns how
    /// many (0 at the end), or `nil` on any error, which the next ``read(into:upTo:what:)`` then meets.
    func readAhead(into buffer: inout [UInt8], upTo limit: Int) -> Int? {
        guard isRegularFile, let fileDescriptor else { return nil }
        return Self.appendRead(from: fileDescriptor, into: &buffer, upTo: limit) {}
    }

    /// Closes a file opened with ``open(path:what:)``; standard input stays open.
    func close() {
        if let fileDescriptor, fileDescriptor > 2 { _ = systemClose(fileDescriptor) }
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, pointer, count)
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, pointer, count)
}

private func systemOpen(_ path: String) -> Int32 {
    open(path, O_RDONLY)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// The system's message for an error number, lowercased like the rest of our messages ("no such file or directory").
private func describeErrno(_ number: Int32) -> String {
    guard let message = strerror(number) else { return "error \(number)" }
    return String(cString: message).lowercased()
}
