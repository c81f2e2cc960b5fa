#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the package reads a whole input file — a policy file, a plist, a decision
/// table, a scenario — with a size cap, so that `/dev/zero`, a pipe that never ends or a
/// runaway file cannot exhaust memory.
public enum CappedFile {
    /// The largest file read unless a caller says otherwise: 16 MiB, far more than any real policy, table or scenario.
    public static let defaultLimit = 16 << 20

    /// Why a file could not be read: a sentence naming the file, e.g.
    /// `cannot read policy file 'p.json': it is larger than 16 MiB`.
    public struct Failure: Error, Sendable, Hashable {
        /// How the file was named ("policy file").
        public let what: String
        /// The file's path.
        public let path: String
        /// Why it cannot be read ("no such file or directory", "it is larger than 16 MiB").
        public let reason: String

        /// The whole sentence.
        public var message: String { "cannot read \(what) '\(path)': \(reason)" }
    }

    /// Reads the whole file at `path`, of at most `limit` bytes.
    /// - Parameter what: how messages name the file ("policy file", "decision table", "scenario").
    /// - Throws: ``Failure`` when the file cannot be opened or read, is a directory, or is larger than `limit`.
    public static func read(path: String, what: String, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        func failure(_ reason: String) -> Failure { Failure(what: what, path: path, reason: reason) }
        // Opened without waiting: opening a FIFO (named pipe) for reading otherwise waits for a writer, forever if none comes.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        if descriptor < 0 { throw failure(describe(errno)) }
        defer { _ = close(descriptor) }
        let tooLarge = failure("it is larger than \(sizeName(limit))")
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory; give a file") }
            if (status.st_mode & S_IFMT) == S_IFIFO {
                do throws(PipeFailure) {
                    return try readPipe(descriptor, limit: limit)
                } catch {
                    throw failure(error.reason(limit: limit))
                }
            }
            if Int(status.st_size) > limit { throw tooLarge }
        }
        // Anything else (a file, a device such as a terminal) is read as before, waiting for its bytes.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var contents: [UInt8] = []
        // A regular file's size is known: one allocation instead of doubling (and twice the memory) as
        // it grows, read into directly (no copy through a scratch buffer); one byte more, to see the end.
        if Int(status.st_size) > 0 {
            var problem: Int32 = 0
            contents = [UInt8](unsafeUninitializedCapacity: Int(status.st_size) + 1) { buffer, count in
                while count < buffer.count {
                    let read = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
                    if read < 0 {
                        if errno == EINTR { continue }
                        problem = errno
                        return
                    }
                    if read == 0 { return }
                    count += read
                }
            }
            if problem != 0 { throw failure(describe(problem)) }
            if contents.count <= Int(status.st_size) { return contents }  // the end, before the extra byte
            if contents.count > limit { throw tooLarge }  // it grew since fstat; read on, capped, below
        }
        let chunk = 64 * 1024
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { scratch.deallocate() }
        while true {
            let count = systemRead(descriptor, scratch.baseAddress!, chunk)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(describe(errno))
            }
            if count == 0 { return contents }
            contents.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            if contents.count > limit { throw tooLarge }  // a device or a pipe, whose size fstat does not give
        }
    }

    /// How long a pipe may stay without a writer before its reading is refused: long enough for a writer
    /// started just before (`cat fleet.json > fifo &`) to open it, short enough that nothing hangs.
    static let writerWait = 2.0

    /// Why a pipe could not be read.
    enum PipeFailure: Error {
        case noWriter
        case tooLarge
        case system(Int32)

        func reason(limit: Int) -> String {
            switch self {
            case .noWriter: "it is a pipe (FIFO) that no writer opened within \(Int(CappedFile.writerWait)) seconds, or whose writer wrote nothing; start the writer first, or give a regular file"
            case .tooLarge: "it is larger than \(sizeName(limit))"
            case .system(let number): describe(number)
            }
        }
    }

    /// Reads a pipe opened without waiting (`O_NONBLOCK`) — a FIFO, `/dev/stdin` on a pipe, or a shell's
    /// `<(command)` — once, to its end: its bytes as they come while a writer holds it open; an error
    /// when no writer comes within ``writerWait`` seconds and nothing was written, so it never waits forever.
    static func readPipe(_ descriptor: Int32, limit: Int) throws(PipeFailure) -> [UInt8] {
        var contents: [UInt8] = []
        let chunk = 64 * 1024
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { scratch.deallocate() }
        var waited = 0.0
        var hadWriter = false
        while true {
            let count = systemRead(descriptor, scratch.baseAddress!, chunk)
            if count > 0 {
                hadWriter = true
                contents.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                if contents.count > limit { throw .tooLarge }
                continue
            }
            if count == 0 {
                // The end: no writer holds the pipe open. Before any byte, a writer may still be on its way.
                if hadWriter || !contents.isEmpty { return contents }
                if waited >= writerWait { throw .noWriter }
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                hadWriter = true  // a writer holds it open and has written nothing yet: wait for its bytes
            } else if errno != EINTR {
                throw .system(errno)
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Without a writer, poll says nothing until one comes: wait in slices, counted only then. A
            // writer that came and went without writing leaves a hang-up: the next read meets the end.
            let events = poll(&ready, 1, 100)
            if events == 0, !hadWriter { waited += 0.1 }
            if events > 0, ready.revents & Int16(POLLHUP) != 0 { hadWriter = true }
        }
    }

    /// Why `path` must not be read by a decision table's `Policy:` or `Fleet:` link: it names a FIFO
    /// (named pipe), whose opening waits for a writer, forever if none comes. Nil for anything else.
    package static func pipeProblem(path: String) -> String? {
        guard isPipe(path: path) else { return nil }
        return "it is a named pipe (FIFO), which a table link does not wait on; name a regular file"
    }

    /// Whether `path` names a FIFO (named pipe), following symbolic links.
    package static func isPipe(path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// Reads the whole file at `path` as UTF-8 text: ``read(path:what:limit:)``, then a check of the encoding.
    /// - Parameters:
    ///   - unreadable: the message when the file cannot be read, given the reason.
    ///   - notUTF8: the message when the file is not UTF-8.
    /// - Throws: ``FormatError`` for `path` as a whole (no line) with one of the two messages.
    package static func readText(path: String, what: String, unreadable: (String) -> String, notUTF8: String) throws(FormatError) -> String {
        let bytes: [UInt8]
        do throws(Failure) {
            bytes = try read(path: path, what: what)
        } catch {
            throw FormatError(file: path, line: 0, message: unreadable(error.reason))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FormatError(file: path, line: 0, message: notUTF8)
        }
        return text
    }

    /// `16 MiB`, `512 KiB`, `100 bytes`.
    static func sizeName(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The system's message for an error number, lowercased like the rest of our messages ("no such file or directory").
    package static func describe(_ number: Int32) -> String {
        guard let message = strerror(number) else { return "error \(number)" }
        return String(cString: message).lowercased()
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, pointer, count)
}
