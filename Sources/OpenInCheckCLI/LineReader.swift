/// Splits a byte stream into lines as they arrive, so a stream from a pipe is
/// answered line by line.
///
/// A line ends at `\n`; a `\r` before it is dropped (Windows line ends); a
/// last line without `\n` still counts. A line longer than ``maxLineLength``
/// is skipped and reported as ``Line/tooLong``, so memory stays bounded.
struct LineReader {
    /// One line, without its line break.
    enum Line: Equatable {
        case text(ArraySlice<UInt8>)
        case tooLong
    }

    /// The longest line read: 1 MiB.
    static let maxLineLength = 1 << 20
    private static let chunkSize = 64 * 1024

    private let source: ByteSource
    private let what: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var atEnd = false

    init(_ source: ByteSource, what: String) {
        self.source = source
        self.what = what
    }

    /// The next line, or `nil` at the end of the stream.
    /// - Parameter beforeWaiting: called before a read that may block, so output so far can be flushed.
    /// - Throws: ``CLIError/invalidInput(_:)`` on a read error.
    mutating func next(beforeWaiting: () -> Void) throws(CLIError) -> Line? {
        var discarding = false
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                start = newline + 1
                scanned = start
                return discarding || line.count > LineReader.maxLineLength ? .tooLong : .text(line)
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count || discarding else { return nil }
                var end = buffer.count
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                start = buffer.count
                scanned = start
                return discarding || line.count > LineReader.maxLineLength ? .tooLong : .text(line)
            }
            if buffer.count - start > LineReader.maxLineLength {
                discarding = true
                start = buffer.count
            }
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
            beforeWaiting()
            if try source.read(into: &buffer, upTo: LineReader.chunkSize, what: what) == 0 { atEnd = true }
        }
    }
}
