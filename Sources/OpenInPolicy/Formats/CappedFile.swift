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
package enum CappedFile {
    /// The largest file read unless a caller says otherwise: 16 MiB, far more than any real policy, table or scenario.
    package static let defaultLimit = 16 << 20

    /// Why a file could not be read: a sentence naming the file, e.g.
    /// `cannot read policy file 'p.json': it is larger than 16 MiB`.
    package struct Failure: Error, Sendable, Hashable {
        /// How the file was named ("policy file").
        package let what: String
        /// The file's path.
        package let path: String
        /// Why it cannot be read ("no such file or directory", "it is larger than 16 MiB").
        package let reason: String

        /// The whole sentence.
        package var message: String { "cannot read \(what) '\(path)': \(reason)" }
    }

    /// Reads the whole file at `path`, of at most `limit` bytes.
    /// - Parameter what: how messages name the file ("policy file", "decision table", "scenario").
    /// - Throws: ``Failure`` when the file cannot be opened or read, is a directory, or is larger than `limit`.
    package static func read(path: String, what: String, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        func failure(_ reason: String) -> Failure { Failure(what: what, path: path, reason: reason) }
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 { throw failure(describe(errno)) }
        defer { _ = close(descriptor) }
        let tooLarge = failure("it is larger than \(sizeName(limit))")
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory; give a file") }
            if Int(status.st_size) > limit { throw tooLarge }
        }
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

    /// Why `path` must not be read by a decision table's `Policy:` or `Fleet:` link: it names a FIFO
    /// (named pipe), whose opening waits for a writer, forever if none comes. Nil for anything else.
    package static func pipeProblem(path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else { return nil }
        return "it is a named pipe (FIFO), which a table link does not wait on; name a regular file"
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
    package static func sizeName(_ bytes: Int) -> String {
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
