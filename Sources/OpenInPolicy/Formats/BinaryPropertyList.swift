/// Reads a binary property list (`bplist00`) into a ``PropertyListValue``,
/// after ``BinaryPropertyListCheck`` has checked its structure.
///
/// The check has bounded everything that can blow up (offsets and lengths in
/// range, no cycle, no set, string keys given once, depth and the number of
/// values with shared objects counted at each use), so this reader only
/// decodes: Booleans, integers of 1, 2, 4 and 8 bytes (and 16-byte ones
/// that fit in 64 bits), 4- and 8-byte reals, dates, data, ASCII and
/// UTF-16 strings, arrays and dictionaries. A null, a fill byte, a UID (the
/// keyed archiver's), an ASCII string with a byte over 0x7F, a UTF-16 string
/// with an unpaired surrogate or an unknown marker is an error; a length or
/// size that runs past the objects is "truncated or corrupt".
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let end: Int
    private let offsets: [Int]
    private let referenceSize: Int

    /// What is wrong; the message finishes "not a valid binary property list: …".
    typealias Problem = BinaryPropertyListCheck.Problem

    /// Reads `bytes`, which have passed ``BinaryPropertyListCheck/check(_:)``.
    static func read(_ bytes: [UInt8]) throws(Problem) -> PropertyListValue {
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let objectCount = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 8, size: 8))
        let top = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 16, size: 8))
        let tableStart = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 24, size: 8))
        let offsets = (0..<objectCount).map { Int(clamping: BinaryPropertyListCheck.integer(bytes, at: tableStart + $0 * offsetSize, size: offsetSize)) }
        let reader = BinaryPropertyListReader(bytes: bytes, end: tableStart, offsets: offsets, referenceSize: Int(bytes[trailer + 7]))
        return try reader.value(of: top)
    }

    private init(bytes: [UInt8], end: Int, offsets: [Int], referenceSize: Int) {
        self.bytes = bytes
        self.end = end
        self.offsets = offsets
        self.referenceSize = referenceSize
    }

    private func value(of object: Int) throws(Problem) -> PropertyListValue {
        let start = offsets[object]
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: throw Problem(message: "it holds a null, which property lists do not have")
            default: throw Problem(message: "it holds an object of unknown kind (marker 0x\(hex(marker)))")
            }
        case 0x1:
            guard low <= 4 else { throw Problem(message: "it is truncated or corrupt") }
            let size = 1 << low
            try inside(start + 1, size)
            if size == 16 {
                let high = BinaryPropertyListCheck.integer(bytes, at: start + 1, size: 8)
                let value = BinaryPropertyListCheck.integer(bytes, at: start + 9, size: 8)
                guard high == 0 || (high == UInt64.max && Int64(bitPattern: value) < 0) else {
                    throw Problem(message: "it holds an integer that does not fit in 64 bits")
                }
                return .integer(Int(truncatingIfNeeded: value))
            }
            // 1, 2 and 4 bytes are unsigned; 8 bytes are signed.
            return .integer(Int(truncatingIfNeeded: BinaryPropertyListCheck.integer(bytes, at: start + 1, size: size)))
        case 0x2:
            guard low == 2 || low == 3 else { throw Problem(message: "it is truncated or corrupt") }
            let size = 1 << low
            try inside(start + 1, size)
            let bits = BinaryPropertyListCheck.integer(bytes, at: start + 1, size: size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits))
        case 0x3:
            guard marker == 0x33 else { throw Problem(message: "it is truncated or corrupt") }
            try inside(start + 1, 8)
            return .date
        case 0x4:
            let (length, position) = try length(at: start)
            try inside(position, length)
            return .data
        case 0x5:
            let (length, position) = try length(at: start)
            try inside(position, length)
            let text = bytes[position..<position + length]
            guard text.allSatisfy({ $0 < 0x80 }) else { throw Problem(message: "a string marked ASCII holds a byte over 0x7F") }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let (length, position) = try length(at: start)
            guard length <= (end - position) / 2 else { throw Problem(message: "it is truncated or corrupt") }
            let units = (0..<length).map { UInt16(bytes[position + 2 * $0]) << 8 | UInt16(bytes[position + 2 * $0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw Problem(message: "a UTF-16 string holds an unpaired surrogate") }
            return .string(text)
        case 0x8:
            throw Problem(message: "it holds a UID (a keyed archive's reference), which property lists do not have")
        case 0xA:
            let (count, position) = try length(at: start)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count { elements.append(try value(of: reference(at: position + index * referenceSize))) }
            return .array(elements)
        case 0xD:
            let (count, position) = try length(at: start)
            var entries: [(key: String, value: PropertyListValue)] = []
            entries.reserveCapacity(count)
            for index in 0..<count {
                guard case .string(let key) = try value(of: reference(at: position + index * referenceSize)) else {
                    throw Problem(message: "a dictionary has a key that is not a string")
                }
                entries.append((key: key, value: try value(of: reference(at: position + (count + index) * referenceSize))))
            }
            return .dictionary(PropertyListDictionary(entries))
        default:
            throw Problem(message: "it holds an object of unknown kind (marker 0x\(hex(marker)))")
        }
    }

    /// The object a reference at `position` points at (the check has range-checked both).
    private func reference(at position: Int) -> Int {
        Int(BinaryPropertyListCheck.integer(bytes, at: position, size: referenceSize))
    }

    /// An object's length and where its body starts (``BinaryPropertyListCheck/length(_:at:end:)``).
    private func length(at start: Int) throws(Problem) -> (Int, Int) {
        do throws(BinaryPropertyListCheck.LengthProblem) {
            return try BinaryPropertyListCheck.length(bytes, at: start, end: end)
        } catch {
            throw Problem(message: "it is truncated or corrupt")
        }
    }

    /// Checks that `count` bytes from `position` lie in the object area.
    private func inside(_ position: Int, _ count: Int) throws(Problem) {
        guard count >= 0, position <= end, count <= end - position else { throw Problem(message: "it is truncated or corrupt") }
    }

    private func hex(_ byte: UInt8) -> String { String(byte, radix: 16, uppercase: true) }
}
