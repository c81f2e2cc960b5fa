/// Text files in the encodings the tools that write them use: UTF-8 with or without a byte order
/// mark, or UTF-16 (little- or big-endian) with one, as Windows PowerShell 5.1's `Out-File` writes
/// by default.
///
/// ``decode(_:fix:)`` gives the text as UTF-8 without a byte order mark: the same characters in the
/// same order, every line break (CRLF or LF) kept, so a reader that counts lines by LF and columns by
/// character reports the line and column an editor shows for the original file. A byte order mark
/// is never part of the text. UTF-16 without a byte order mark (a zero byte in every other place),
/// UTF-32, an odd number of UTF-16 bytes and an unpaired surrogate are refused, naming what was
/// found, where, and the fix: the reader never guesses.
package enum TextEncoding: String, Sendable, Hashable {
    /// UTF-8 without a byte order mark.
    case utf8 = "UTF-8"
    /// UTF-8 starting with the byte order mark `EF BB BF`.
    case utf8WithByteOrderMark = "UTF-8 with a byte order mark"
    /// UTF-16, little-endian, starting with `FF FE`.
    case utf16LittleEndian = "UTF-16LE"
    /// UTF-16, big-endian, starting with `FE FF`.
    case utf16BigEndian = "UTF-16BE"

    /// Why bytes cannot be decoded: what was found, where, and how to fix it.
    package struct Problem: Error, Sendable, Hashable {
        /// What is wrong, and the fix.
        package let message: String
        /// The line (as an editor shows the file) of the problem, when it has one.
        package let line: Int?
    }

    /// The fix every refusal names unless the caller gives its own.
    static let saveAsUTF8 = "save the file as UTF-8"

    /// `bytes` as UTF-8 without a byte order mark, and the encoding they were in.
    /// - Parameter fix: how to fix a file this cannot read, ending the message (for example
    ///   "save it as UTF-8 (Out-File -Encoding utf8)").
    /// - Throws: ``Problem`` for UTF-16 without a byte order mark, UTF-32, an odd number of UTF-16
    ///   bytes, or an unpaired surrogate. UTF-8 itself is not checked here: the reader that parses
    ///   the text names a malformed byte at its line and column.
    package static func decode(_ bytes: [UInt8], fix: String = saveAsUTF8) throws(Problem) -> (utf8: [UInt8], encoding: TextEncoding) {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw Problem(message: "the file is UTF-32 (it starts with a UTF-32 byte order mark), which is not read: \(fix)", line: 1)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (Array(bytes.dropFirst(3)), .utf8WithByteOrderMark) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (try utf16(bytes, bigEndian: false, fix: fix), .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (try utf16(bytes, bigEndian: true, fix: fix), .utf16BigEndian) }
        if bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0) {
            // Text starts with a character below U+0100 (a brace, a bracket, a space): in UTF-16 one of its two bytes is zero.
            let order = bytes[1] == 0 ? "UTF-16LE" : "UTF-16BE"
            throw Problem(message: "the file looks like \(order) without a byte order mark (a zero byte in every other place), which is not read: \(fix)", line: 1)
        }
        if bytes.first == 0 {
            throw Problem(message: "the file starts with zero bytes: it is not UTF-8 text (UTF-32, or binary data?): \(fix)", line: 1)
        }
        return (bytes, .utf8)
    }

    /// UTF-16 after its byte order mark, as UTF-8; lines are counted as the units are decoded, so a
    /// problem names its line.
    private static func utf16(_ bytes: [UInt8], bigEndian: Bool, fix: String) throws(Problem) -> [UInt8] {
        let name = bigEndian ? "UTF-16BE" : "UTF-16LE"
        var out: [UInt8] = []
        // Most exports are ASCII: one UTF-8 byte per two UTF-16 bytes.
        out.reserveCapacity(bytes.count / 2)
        let end = bytes.count - bytes.count % 2
        var line = 1
        var index = 2
        func unit(at index: Int) -> UInt32 {
            bigEndian ? UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1]) : UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index])
        }
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        while index < end {
            let first = unit(at: index)
            var scalar = first
            if first >= 0xD800 && first <= 0xDFFF {
                let second = index + 2 < end ? unit(at: index + 2) : nil
                guard first <= 0xDBFF, let second, second >= 0xDC00 && second <= 0xDFFF else {
                    let kind = first <= 0xDBFF ? "a high surrogate not followed by a low one" : "a low surrogate with no high one before it"
                    throw Problem(message: "the file is \(name) (it starts with a byte order mark) but holds an unpaired surrogate, \(hex(first)) at byte offset \(index) (\(kind)): the text is damaged; \(fix)",
                                  line: line)
                }
                scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                index += 2
            }
            index += 2
            if scalar == 0x0A { line += 1 }
            switch scalar {
            case ..<0x80:
                out.append(UInt8(scalar))
            case ..<0x800:
                out.append(UInt8(0xC0 | scalar >> 6))
                out.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                out.append(UInt8(0xE0 | scalar >> 12))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            default:
                out.append(UInt8(0xF0 | scalar >> 18))
                out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        if end < bytes.count {
            throw Problem(message: "the file is \(name) (it starts with a byte order mark) but has an odd number of bytes (\(bytes.count)): its last character is cut short; \(fix)", line: line)
        }
        return out
    }
}

extension FormatError {
    /// The error for bytes ``TextEncoding/decode(_:fix:)`` refused, in `file`.
    package init(_ problem: TextEncoding.Problem, file: String?) {
        self.init(problem.message, line: problem.line, file: file)
    }
}
