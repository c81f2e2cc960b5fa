#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `bench` run stopped: a file it cannot read or write, a child that failed, a usage error.
struct BenchError: Error, Equatable, CustomStringConvertible {
    let message: String
    /// Whether the arguments were wrong (exit status 64) rather than the run (1).
    var isUsage = false

    static func invalidInput(_ message: String) -> BenchError { BenchError(message: message) }
    static func usage(_ message: String) -> BenchError { BenchError(message: message, isUsage: true) }

    var description: String { message }
}

/// A buffered writer to a file descriptor, or to memory (tests).
final class BenchOutput {
    private let fileDescriptor: Int32?
    private var buffer: [UInt8] = []
    /// Everything written, when captured in memory.
    private(set) var captured: [UInt8] = []

    init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }
    /// Captures what is written.
    init() { fileDescriptor = nil }

    var text: String { String(decoding: captured, as: UTF8.self) }

    func write(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { write(bytes: $0) } }

    func write(bytes: UnsafeBufferPointer<UInt8>) {
        guard fileDescriptor != nil else {
            captured.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard let fileDescriptor, !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Small whole files (`/proc` entries): at most 16 MiB.
enum BenchFile {
    static func read(_ path: String) throws(BenchError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .invalidInput("cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())") }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while contents.count <= 16 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .invalidInput("cannot read '\(path)': \(String(cString: strerror(errno)).lowercased())")
            }
            if count == 0 { break }
            contents += chunk[0..<count]
        }
        return contents
    }
}
