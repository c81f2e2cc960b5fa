#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy
import OpenInReports

/// Splits a byte stream into lines as they arrive, so a stream from a pipe is
/// answered line by line.
///
/// A line ends at `\n`; a `\r` before it is dropped (Windows line ends); a
/// last line without `\n` still counts. A line longer than ``maxLength``
/// is skipped and reported as ``Line/tooLong``, so memory stays bounded: the
/// buffer never holds more than the limit and one read.
struct LineReader {
    /// One line, without its line break.
    enum Line: Equatable {
        case text(ArraySlice<UInt8>)
        case tooLong

        /// The line as ``RequestStream`` takes it.
        var streamLine: RequestStream.Line {
            switch self {
            case .text(let bytes): .bytes(bytes)
            case .tooLong: .tooLong
            }
        }
    }

    /// The longest line read unless `--max-line-length` says otherwise: 1 MiB.
    static let maxLineLength = RequestStream.defaultMaxLineLength
    /// The most `--max-line-length` may allow: 1 GiB.
    static let largestMaxLineLength = 1 << 30
    private static let chunkSize = 64 * 1024

    private let source: ByteSource
    private let what: String
    /// The longest line this reader returns, in bytes (without the line break).
    let maxLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var atEnd = false

    init(_ source: ByteSource, what: String, maxLength: Int = LineReader.maxLineLength) {
        self.source = source
        self.what = what
        self.maxLength = maxLength
    }

    /// What ``nextBlock(beforeWaiting:)`` returns.
    enum Block: Equatable {
        /// Whole lines, each ended by `\n`, except that the stream's last line may have none;
        /// a line in it may still be longer than the limit (``RequestStream`` checks).
        case lines(ArraySlice<UInt8>)
        /// One line longer than the limit, skipped without being held.
        case tooLong
    }

    /// How much a block read asks for at once: large blocks let ``RequestStream`` split them between threads.
    private static let blockSize = 1 << 20

    /// The next block of whole lines, as much as has arrived, or `nil` at the end of the stream.
    /// (Use either this or ``next(beforeWaiting:)`` on one reader.)
    /// - Parameter beforeWaiting: called before a read that may block, so output so far can be flushed.
    /// - Throws: ``CLIError/invalidInput(_:)`` on a read error.
    mutating func nextBlock(beforeWaiting: () -> Void) throws(CLIError) -> Block? {
        while true {
            if discardingBlock {
                // The rest of a line too long to hold: drop bytes up to its line break.
                if let newline = LineReader.firstNewline(in: buffer, from: start) {
                    start = newline + 1
                    discardingBlock = false
                    return .tooLong
                }
                start = buffer.count
                if atEnd {
                    discardingBlock = false
                    return .tooLong
                }
            } else if let newline = LineReader.lastNewline(in: buffer, from: start) {
                let block = buffer[start...newline]
                start = newline + 1
                return .lines(block)
            } else if atEnd {
                guard start < buffer.count else { return nil }
                let block = buffer[start...]
                start = buffer.count
                return .lines(block)
            } else if buffer.count - start > maxLength + 1 {
                // No line break within the limit (and a `\r`): the line is too long whatever follows.
                discardingBlock = true
                start = buffer.count
            }
            if readAheadCount != nil, !discardingBlock {
                // The bytes read ahead follow the rest of the current buffer: they become the buffer.
                swap(&buffer, &spare)
                start = 0
                scanned = 0
                if readAheadCount == 0 { atEnd = true }
                readAheadCount = nil
                continue
            }
            readAheadCount = nil
            buffer.removeSubrange(0..<start)
            start = 0
            scanned = 0
            beforeWaiting()
            if try source.read(into: &buffer, upTo: LineReader.blockSize, what: what) == 0 { atEnd = true }
        }
    }

    private var discardingBlock = false
    /// The other buffer: the bytes after the last block and those read ahead (``readAhead(_:)``).
    private var spare: [UInt8] = []
    /// How many bytes were read ahead into ``spare`` (0: the end), or `nil` when none were.
    private var readAheadCount: Int? = nil

    /// Reads the next block's bytes of a regular file while the caller still uses the last block
    /// (which stays as it is): into the other buffer, after the bytes that follow the last block.
    /// Does nothing for a stream that may wait (a pipe), at the end, or while a too-long line is skipped.
    mutating func readAhead() {
        guard source.isRegularFile, readAheadCount == nil, !atEnd, !discardingBlock, buffer.count - start <= maxLength + 1 else { return }
        spare.removeAll(keepingCapacity: true)
        spare.append(contentsOf: buffer[start...])
        readAheadCount = source.readAhead(into: &spare, upTo: LineReader.blockSize)
    }

    /// The index of the last `\n` in `buffer` at or after `start` (searched from the end: it is
    /// usually within a line of it).
    static func lastNewline(in buffer: [UInt8], from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            var index = bytes.count - 1
            while index >= start {
                if bytes[index] == UInt8(ascii: "\n") { return index }
                index -= 1
            }
            return nil
        }
    }

    /// The index of the first `\n` in `buffer` at or after `start` (memchr, which looks at many bytes at a time: a byte-at-a-time search was a tenth of the JSON Lines fast path's time).
    static func firstNewline(in buffer: [UInt8], from start: Int) -> Int? {
        buffer.withUnsafeBytes { raw in
            guard start < raw.count, let found = memchr(raw.baseAddress! + start, Int32(UInt8(ascii: "\n")), raw.count - start) else { return nil }
            return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The next line, or `nil` at the end of the stream.
    /// - Parameter beforeWaiting: called before a read that may block, so output so far can be flushed.
    /// - Throws: ``CLIError/invalidInput(_:)`` on a read error.
    mutating func next(beforeWaiting: () -> Void) throws(CLIError) -> Line? {
        var discarding = false
        while true {
            if let newline = LineReader.firstNewline(in: buffer, from: scanned) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                start = newline + 1
                scanned = start
                return discarding || line.count > maxLength ? .tooLong : .text(line)
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count || discarding else { return nil }
                var end = buffer.count
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                start = buffer.count
                scanned = start
                return discarding || line.count > maxLength ? .tooLong : .text(line)
            }
            if buffer.count - start > maxLength {
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
