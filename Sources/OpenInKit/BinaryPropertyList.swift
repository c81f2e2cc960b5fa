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
    package typealias Problem = BinaryPropertyListCheck.Problem

    /// Reads `bytes`, which have passed ``BinaryPropertyListCheck/check(_:)``.
    package static func read(_ bytes: [UInt8]) throws(Problem) -> PropertyListValue {
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let objectCount = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 8, size: 8))
        let top = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 16, size: 8))
        let tableStart = Int(BinaryPropertyListCheck.integer(bytes, at: trailer + 24, size: 8))
        let offsets = (0..<objectCount).map { Int(clamping: BinaryPropertyListCheck.integer(bytes, at: tableStart + $0 * offsetSize, size: offsetSize)) }
        var reader = BinaryPropertyListReader(bytes: bytes, end: tableStart, offsets: offsets, referenceSize: Int(bytes[trailer + 7]))
        return try reader.tree(from: top)
    }

    /// Values decoded so far, by the first object at their offset: each offset is decoded once,
    /// as CoreFoundation caches objects, and a shared string or array is stored once (Swift's
    /// values share their storage) however often it is used.
    private var decoded: [Int: PropertyListValue] = [:]
    /// For each object, the first object at the same offset.
    private lazy var canonical = BinaryPropertyListCheck.firstAtSameOffset(offsets)

    /// An array or dictionary whose elements are being decoded.
    private struct Frame {
        let object: Int
        let isDictionary: Bool
        let count: Int
        let position: Int
        var next = 0
        var elements: [PropertyListValue] = []
    }

    /// The tree under `top`, built without recursion: the check has bounded its depth and size.
    private mutating func tree(from top: Int) throws(Problem) -> PropertyListValue {
        let first = canonical[top]
        if let value = try leaf(first) { return value }
        var stack = [try frame(first)]
        while true {
            let last = stack.count - 1
            let wanted = stack[last].isDictionary ? 2 * stack[last].count : stack[last].count
            if stack[last].next == wanted {
                let done = stack.removeLast()
                let value = try build(done)
                decoded[done.object] = value
                if stack.isEmpty { return value }
                stack[stack.count - 1].elements.append(value)
                continue
            }
            let child = canonical[reference(at: stack[last].position + stack[last].next * referenceSize)]
            stack[last].next += 1
            if let value = decoded[child] {
                stack[last].elements.append(value)
            } else if let value = try leaf(child) {
                decoded[child] = value
                stack[last].elements.append(value)
            } else {
                stack.append(try frame(child))
            }
        }
    }

    /// A frame for the array or dictionary `object`.
    private func frame(_ object: Int) throws(Problem) -> Frame {
        let start = offsets[object]
        let (count, position) = try length(at: start)
        var frame = Frame(object: object, isDictionary: bytes[start] >> 4 == 0xD, count: count, position: position)
        frame.elements.reserveCapacity(frame.isDictionary ? 2 * count : count)
        return frame
    }

    /// The finished array or dictionary of `frame` (a dictionary's elements are its keys, then its values).
    private func build(_ frame: Frame) throws(Problem) -> PropertyListValue {
        guard frame.isDictionary else { return .array(frame.elements) }
        var entries: [(key: String, value: PropertyListValue)] = []
        entries.reserveCapacity(frame.count)
        for index in 0..<frame.count {
            guard case .string(let key) = frame.elements[index] else { throw Problem(message: "a dictionary has a key that is not a string") }
            entries.append((key: key, value: frame.elements[frame.count + index]))
        }
        return .dictionary(PropertyListDictionary(entries))
    }

    private init(bytes: [UInt8], end: Int, offsets: [Int], referenceSize: Int) {
        self.bytes = bytes
        self.end = end
        self.offsets = offsets
        self.referenceSize = referenceSize
    }

    /// The value of `object` when it is no array or dictionary; `nil` when it is one.
    private func leaf(_ object: Int) throws(Problem) -> PropertyListValue? {
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
                // CoreFoundation reads the low 64 bits as an unsigned number (a negative one too): only 0 to Int64.max read alike.
                guard high == 0, Int64(bitPattern: value) >= 0 else {
                    throw Problem(message: "it holds an integer that does not fit in 64 bits as CoreFoundation reads it (a 16-byte one must be 0 to 9223372036854775807)")
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
            // CoreFoundation allocates the characters first, and an allocation of none fails: it cannot read an empty one.
            guard length > 0 else { throw Problem(message: "it holds an empty UTF-16 string, which CoreFoundation cannot read (write it as an empty ASCII string)") }
            let units = (0..<length).map { UInt16(bytes[position + 2 * $0]) << 8 | UInt16(bytes[position + 2 * $0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw Problem(message: "a UTF-16 string holds an unpaired surrogate") }
            return .string(text)
        case 0x8:
            throw Problem(message: "it holds a UID (a keyed archive's reference), which property lists do not have")
        case 0xA, 0xD:
            return nil
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
