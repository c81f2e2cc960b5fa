/// A strict JSON reader (RFC 8259) with exact error positions.
///
/// Stricter than most readers, on purpose — a policy or a request that is
/// not exactly what its author meant must not be decided:
/// - a duplicate key in an object is an error (naming the first occurrence);
/// - nesting deeper than ``maxDepth`` is an error, not a crash;
/// - numbers keep their literal (``JSONNumber``): nothing is rounded or coerced;
/// - invalid UTF-8, control characters in strings, lone surrogates in `\u`
///   escapes, trailing commas, comments, `NaN` and anything after the value are errors.
///
/// A UTF-8 byte order mark at the very start is skipped. Every error carries
/// its line and column (``JSONError``).
public struct JSONReader: Sendable {
    /// How deeply arrays and objects may nest; the default is 64.
    public let maxDepth: Int

    /// Creates a reader.
    /// - Parameter maxDepth: how deeply arrays and objects may nest (at least 1).
    public init(maxDepth: Int = 64) {
        self.maxDepth = max(1, maxDepth)
    }

    /// For ``read(_:mapping:_:)``: an array it maps is read in parts across the cores from about this many bytes on;
    /// `nil`: never (on one core, by default; a test sets it low to split small texts).
    package var partsFrom: Int? = Parallel.cores > 1 ? 1 << 18 : nil

    /// Reads one JSON value that makes up the whole of `bytes` (surrounding whitespace allowed).
    /// - Throws: ``JSONError`` with the position of the first problem.
    /// - Complexity: O(n) in the length of the input.
    public func read<Bytes: Collection>(_ bytes: Bytes) throws(JSONError) -> JSONValue where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in readResult(buffer) }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { readResult($0) }.get()
    }

    /// Reads one JSON value from text.
    /// - Throws: ``JSONError``.
    public func read(_ text: String) throws(JSONError) -> JSONValue {
        try read(Array(text.utf8))
    }

    /// Reads `bytes` as ``read(_:)-(Bytes)`` does, with the same errors, except that when a member of the root object named
    /// in `keys` is an array of at least ``partsFrom`` bytes, its elements are read in parts across the cores, each given to
    /// `map` (with the key's index in `keys`, and as a cursor with its key path and position) as soon as it is read and not
    /// kept: the tree holds `null` in their places (their positions kept), and `mapped`, per key, what `map` made of each,
    /// in order. A key's `mapped` is `nil` when its array was read whole instead (a smaller one, none, or one whose parts
    /// meet a problem: read again element by element, which meets the first and says it). `map` must only read what it
    /// shares: it runs on every core at once.
    package func read<Bytes: Collection, T>(_ bytes: Bytes, mapping keys: [String], _ map: (Int, JSONCursor) -> T) throws(JSONError) -> (value: JSONValue, mapped: [[T]?])
    where Bytes.Element == UInt8 {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<(JSONValue, [[T]?]), JSONError> {
            withoutActuallyEscaping(map) { map in
                var parser = JSONParser(buffer, maxDepth: maxDepth)
                var mapped = [[T]?](repeating: nil, count: keys.count)
                if let partsFrom {
                    parser.mapping = (keys, { parser, key in
                        guard let (array, values) = parser.parseArrayInParts(partsFrom, key: keys[key], { map(key, $0) }) else { return nil }
                        mapped[key] = values
                        return array
                    })
                }
                do throws(JSONError) {
                    let value = try parser.parseDocument()
                    parser.mapping = nil
                    return .success((value, mapped))
                } catch {
                    return .failure(error)
                }
            }
        }
        if let result = bytes.withContiguousStorageIfAvailable({ run($0) }) { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { run($0) }.get()
    }

    /// Reads `buffer` (a policy file) as ``read(_:)-(Bytes)`` does, with the same errors, except that an array
    /// given as the value of one of `listKeys` in the root object is read in place: its strings are
    /// decoded over the buffer's own bytes (a string never decodes longer than it is written, and
    /// the bytes written are always behind the bytes read), each valid bundle ID one after the other
    /// from where the first began, and the tree holds an empty array in its place.
    /// - Returns: the tree, and what was found in each array read in place.
    /// - Throws: ``JSONError`` with the position of the first problem of the whole text.
    ///   `isElement` says which strings are kept (a bundle ID's spelling, for a policy's whitelists).
    package func readInPlace(_ buffer: UnsafeMutableBufferPointer<UInt8>, listKeys: [String],
                             isElement: @escaping (UnsafeBufferPointer<UInt8>) -> Bool) throws(JSONError) -> InPlaceRead {
        precondition(listKeys.count <= 2, "at most two lists are read in place")
        var parser = JSONParser(UnsafeBufferPointer(buffer), maxDepth: maxDepth)
        parser.writable = buffer.baseAddress
        parser.listKeys = listKeys
        parser.isElement = isElement
        let value = try parser.parseDocument()
        return InPlaceRead(value: value, lists: parser.lists)
    }

    private func readResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONError> {
        var parser = JSONParser(buffer, maxDepth: maxDepth)
        do throws(JSONError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

/// An array of strings ``JSONReader/readInPlace(_:listKeys:isElement:)`` read in place: where its
/// valid bundle IDs are in the buffer, and the first elements that are not.
package struct InPlaceList {
    /// The key whose value the array is.
    package let key: String
    /// Where the first ID starts.
    package let start: Int

    /// An array at `key` whose first ID starts at `start`, nothing read yet.
    package init(key: String, start: Int) {
        self.key = key
        self.start = start
    }
    /// Where each valid ID ends, in order (all of them only when there is no problem below).
    package var ends: [UInt32] = []
    /// The first element that is not a string (its ``JSONValue/kindDescription`` as `text`).
    package var firstNotString: ElementProblem? = nil
    /// The first string that is not a valid bundle ID (its decoded text as `text`).
    package var firstInvalid: ElementProblem? = nil
    /// Whether the array was read in place (an empty key: there was none).
    package var wasRead: Bool { !key.isEmpty }

    /// One element of the array, named in an error.
    package struct ElementProblem {
        package let index: Int
        package let position: JSONPosition
        package let text: String
    }
}

/// What ``JSONReader/readInPlace(_:listKeys:isElement:)`` read: the tree, and the arrays read in place.
package struct InPlaceRead {
    package let value: JSONValue
    package var lists: InPlaceLists
}

/// The arrays read in place: at most two (a policy's two whitelists), held without an array or
/// an optional of a list (one request from flags reads a policy, and each new generic type costs
/// its start-up a lookup of type metadata).
package struct InPlaceLists {
    package var first = InPlaceList(key: "", start: 0)
    package var second = InPlaceList(key: "", start: 0)
    /// How many of the two are lists read.
    package var count = 0

    /// No list read.
    package init() {}

    package mutating func append(_ list: InPlaceList) {
        if count == 0 { first = list } else { second = list }
        count += 1
    }

    /// The list read for `key`, or a list whose ``InPlaceList/wasRead`` is false.
    package func list(_ key: String) -> InPlaceList {
        if count > 0, ExactText.same(first.key, key) { return first }
        if count > 1, ExactText.same(second.key, key) { return second }
        return InPlaceList(key: "", start: 0)
    }
}

/// The parser's state over one buffer.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// The current line, from 1.
    var line = 1
    /// The index of the current line's first byte.
    var lineStart = 0
    /// UTF-8 continuation bytes seen on the current line, so columns count characters.
    var continuationBytes = 0
    /// The same buffer as `bytes`, writable, when arrays at ``listKeys`` are read in place.
    var writable: UnsafeMutablePointer<UInt8>? = nil
    /// The keys of the root object whose arrays are read in place.
    var listKeys: [String] = []
    /// Which strings of a list read in place are kept; the first that is not is its problem.
    var isElement: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true }
    /// Where the next decoded ID is written (never beyond `index`).
    var write = 0
    /// The arrays read in place (each key at most once: a repeated key is an error).
    var lists = InPlaceLists()

    /// Strings read before, by a hash of their bytes (one per slot, the last read wins), when the text is large
    /// enough to repeat itself (``internsFrom``): a value written many times (a bundle ID in many whitelists) is then
    /// one string, shared, not an allocation and a copy each time (keys are not: see ``parseString(interning:)``). Empty otherwise. Only strings too long to be held in place (more
    /// than 15 bytes) are kept; two strings share storage only when their bytes are the same.
    var interned: [String?] = []
    /// The slots' mask (their count minus one).
    var internMask = 0
    /// Texts from this size on intern their long strings.
    static let internsFrom = 1 << 16
    /// The root object's members whose arrays are read in parts (``JSONReader/read(_:mapping:_:)``), and how (given the
    /// key's index): `nil` from `run` when the array is read element by element after all.
    var mapping: (keys: [String], run: (inout JSONParser, Int) -> JSONArray?)? = nil

    /// A parser of `bytes`; its table of shared strings sized for `span` of them (all, by default).
    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, span: Int? = nil) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        let span = span ?? bytes.count
        if span >= Self.internsFrom {
            // About one slot per 64 bytes of text, a power of two, at most 2^16 (1 MiB of slots).
            var slots = 1 << 10
            while slots < 1 << 16, slots * 64 < span { slots <<= 1 }
            interned = Array(repeating: nil, count: slots)
            internMask = slots - 1
        }
    }

    /// Whether `known` holds the `count` bytes at `raw` (eight at a time).
    static func same(_ known: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawPointer, _ count: Int) -> Bool {
        guard known.count == count, count >= 8, let base = known.baseAddress else { return false }
        let other = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= count {
            if other.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        // The last eight bytes (overlapping those compared) cover the rest.
        return other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// A 64-bit finalizer (every bit of `x` reaches every bit of the result): an ID's differing bytes are its last.
    static func mix(_ x: UInt64) -> UInt64 {
        var x = x
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    /// The string of the plain (no escape, ASCII) bytes `start..<end`: one read before with the same bytes when the
    /// table has it, otherwise made (and kept in the table).
    mutating func plainString(_ start: Int, _ end: Int, interning: Bool) -> String {
        let count = end - start
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard interning, count > 15, !interned.isEmpty, let base = bytes.baseAddress else { return String(decoding: text, as: UTF8.self) }
        let raw = UnsafeRawPointer(base + start)
        let head = raw.loadUnaligned(as: UInt64.self), tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        let slot = Int(truncatingIfNeeded: Self.mix(tail ^ Self.mix(head ^ UInt64(count)))) & internMask
        if let known = interned[slot], known.utf8.withContiguousStorageIfAvailable({ Self.same($0, raw, count) }) == true {
            return known
        }
        let made = String(decoding: text, as: UTF8.self)
        interned[slot] = made
        return made
    }

    // MARK: Positions and errors

    var position: JSONPosition { position(at: index) }

    /// The position of `offset` on the current line.
    func position(at offset: Int) -> JSONPosition {
        JSONPosition(line: line, column: offset - lineStart - continuationBytes + 1)
    }

    func error(_ message: String) -> JSONError { JSONError(message, at: position) }

    /// How a message names what is at `offset`.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\n"): return "a line break"
        case UInt8(ascii: "\r"): return "a carriage return"
        case UInt8(ascii: "\t"): return "a tab"
        case UInt8(ascii: "/") where offset + 1 < bytes.count && (bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")):
            return "'/' (a comment, and comments are not JSON: remove it)"
        case UInt8(ascii: "#"):
            return "'#' (a comment, and comments are not JSON: remove it)"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "a space"
        default: return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    // MARK: Structure

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            continuationBytes = 3  // the mark is not a character a person sees
        }
        skipWhitespace()
        if index == bytes.count { throw error("expected a JSON value, found the end of the input") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(found(at: index)) after the JSON value: the input must hold exactly one value")
        }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
                continuationBytes = 0
            default:
                return
            }
        }
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value, found the end of the input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString(interning: true))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "'"): throw error("strings must be in double quotes, not single quotes")
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        case UInt8(ascii: "+"): throw error("a number may not start with '+'")
        case UInt8(ascii: "."): throw error("a number must have a digit before '.'")
        default:
            if bytes[index] >= 0x80 { try checkNonASCIIOutsideString() }
            throw error("expected a value (object, array, string, number, true, false or null), found \(found(at: index))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = bytes.count - index >= count && (0..<count).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        var end = index
        while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
        if !matches || end != index + count {
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(end, start + 1)]), as: UTF8.self)
            throw error("expected a value, found '\(word)' (the literals are true, false and null, in lowercase)")
        }
        index += count
    }

    private func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }

    mutating func enterContainer() throws(JSONError) {
        depth += 1
        if depth > maxDepth {
            throw error("arrays and objects nest deeper than \(maxDepth) levels")
        }
    }

    mutating func parseObject() throws(JSONError) -> JSONObject {
        try enterContainer()
        index += 1
        var members: [JSONObject.Member] = []
        // By bytes, as the SDK keys its dictionaries; and by canonical equivalence, which a Swift dictionary
        // (and so every reader of this object) would merge: two keys that differ only there are refused.
        var keys = RepeatedKeys<JSONPosition>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONObject(members: members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}"), !members.isEmpty {
                    throw error("trailing comma: remove the ',' before '}'")
                }
                throw error("expected a key in double quotes, found \(found(at: index))")
            }
            let keyPosition = position
            let key = try parseString()
            if let first = keys.same(as: key) {
                throw JSONError("duplicate key \(Printable.quoted(key)) (first at line \(first.line), column \(first.column)): give each key once", at: keyPosition)
            }
            if let other = keys.lookalike(of: key) {
                throw JSONError("the keys \(JSONWriter.quoted(other.key)) (line \(other.place.line), column \(other.place.column)) and \(JSONWriter.quoted(key)) are different bytes that look the same (canonically equivalent Unicode): rename or remove one", at: keyPosition)
            }
            keys.add(key, at: keyPosition)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\", found \(found(at: index))")
            }
            index += 1
            skipWhitespace()
            let valuePosition = position
            let value: JSONValue
            if depth == 1, writable != nil, index < bytes.count, bytes[index] == UInt8(ascii: "["), ExactText.isOne(key, of: listKeys) {
                lists.append(try parseListInPlace(key: key))
                value = .array(JSONArray([]))
            } else if depth == 1, let mapping, index < bytes.count, bytes[index] == UInt8(ascii: "["),
                      let mapped = mapping.keys.firstIndex(where: { ExactText.same($0, key) }), let array = mapping.run(&self, mapped) {
                value = .array(array)
            } else {
                value = try parseValue()
            }
            members.append(JSONObject.Member(key: key, value: value, keyPosition: keyPosition, valuePosition: valuePosition))
            let valueEnd = position
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found the end of the input: the object is not closed") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return JSONObject(members: members)
            }
            if bytes[index] == UInt8(ascii: "\"") {
                // The next member began: the comma between them is missing. Point at where it belongs.
                let next = position
                throw JSONError("a ',' is missing after the value of \"\(key)\", before the next key (line \(next.line), column \(next.column)): add ',' here", at: valueEnd)
            }
            throw error("expected ',' or '}' after the value of \"\(key)\", found \(found(at: index))")
        }
    }

    mutating func parseArray() throws(JSONError) -> JSONArray {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        var positions: [JSONPosition] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONArray(elements: elements, positions: positions)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]"), !elements.isEmpty {
                throw error("trailing comma: remove the ',' before ']'")
            }
            positions.append(position)
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the input: the array is not closed") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONArray(elements: elements, positions: positions)
            }
            throw error("expected ',' or ']' after an array element, found \(found(at: index))")
        }
    }

    /// Where a part of an array starts: its first byte, the index of its first element, and the line, the line's first
    /// byte and the UTF-8 continuation bytes before it on that line there (what ``position`` reads).
    struct PartStart {
        let offset: Int, element: Int, line: Int, lineStart: Int, continuationBytes: Int
    }

    /// The array whose '[' is at ``index`` (the member `key` of the root object), its elements read in parts across the
    /// cores and each given to `map` as soon as read; the array returned holds `null` in their places, with their
    /// positions. `nil`, nothing moved, when the array is smaller than `partsFrom` or when a part meets anything but
    /// elements separated by commas ending where the next part starts: the caller reads the array then element by
    /// element, which meets the first problem and says it.
    ///
    /// A look ahead (``splitArray(size:)``) finds the array's end and the commas between its elements by its brackets and
    /// strings alone, counting lines as it goes; each part is then parsed as this parser parses elements, from the state
    /// this parser would have there, so the elements, their positions and those within them are the same. Parts of about
    /// an eighth of the text per core, so a core that starts late takes fewer; each has its own table of shared strings.
    mutating func parseArrayInParts<T>(_ partsFrom: Int, key: String, _ map: (JSONCursor) -> T) -> (JSONArray, [T])? {
        guard bytes.count - index >= partsFrom, depth < maxDepth else { return nil }
        // The look ahead cuts where it can every sixteenth of the rest of the file per core; the cuts are then grouped into
        // one part per core of the array's own bytes, near equal, so the cores finish together (the rest of the file, which
        // the cuts were sized by, may be much more than the array). One part a core, not more: each part interns its own
        // strings (a bundle ID is one string per part it is in), and more parts gave no time back (10k apps: 8 parts, heap
        // peak 71.0 MB; 4, 69.3; 2, 67.9; the same time).
        let size = max(partsFrom / 16, (bytes.count - index) / (16 * Parallel.cores))
        guard let (cuts, cutEnds, elements) = splitArray(size: size), cuts.count > 1, cutEnds.last! - index >= partsFrom else { return nil }
        var (starts, ends) = ([cuts[0]], [Int]())
        let (first, total, wanted) = (cuts[0].offset, cutEnds.last! - cuts[0].offset, Parallel.cores)
        for cut in 1..<cuts.count where cuts[cut].offset - first >= total * starts.count / wanted {
            ends.append(cutEnds[cut - 1])
            starts.append(cuts[cut])
        }
        ends.append(cutEnds.last!)
        let (bytes, maxDepth, nesting) = (self.bytes, self.maxDepth, depth + 1)
        // What `map` makes goes straight to its place among all the array's (the look ahead counted the elements): nothing
        // copied from a part's own array (a policy's copy counts a reference to each of its many parts).
        let count = elements
        let storage = UnsafeMutablePointer<T>.allocate(capacity: count)
        defer { storage.deallocate() }
        // Per part: how many elements it made, from its first; and, when it read them all, its positions and where it ended.
        typealias Part = (made: Int, read: (positions: [JSONPosition], line: Int, lineStart: Int, continuationBytes: Int)?)
        let parts = withoutActuallyEscaping(map) { map in
            let shared = (storage: storage, map: map)
            return Parallel.fill(starts.count, minimum: 1) { (part) throws(Never) -> Part in
                let (start, end) = (starts[part], ends[part])
                let last = part + 1 < starts.count ? starts[part + 1].element : count
                var parser = JSONParser(bytes, maxDepth: maxDepth, span: end - start.offset)
                (parser.index, parser.depth, parser.line, parser.lineStart, parser.continuationBytes) =
                    (start.offset, nesting, start.line, start.lineStart, start.continuationBytes)
                var positions: [JSONPosition] = []
                positions.reserveCapacity(last - start.element)
                do throws(JSONError) {
                    while true {
                        parser.skipWhitespace()
                        let position = parser.position
                        let element = try parser.parseValue()
                        let at = start.element + positions.count
                        guard at < last else { return (positions.count, nil) }
                        (shared.storage + at).initialize(to: shared.map(JSONCursor(element, parent: key, step: .index(at), position: position)))
                        positions.append(position)
                        parser.skipWhitespace()
                        if parser.index == end { break }
                        guard parser.index < end, bytes[parser.index] == UInt8(ascii: ",") else { return (positions.count, nil) }
                        parser.index += 1
                    }
                } catch {
                    return (positions.count, nil)
                }
                guard start.element + positions.count == last else { return (positions.count, nil) }
                return (positions.count, (positions, parser.line, parser.lineStart, parser.continuationBytes))
            }.values
        }
        // The last part ends at the array's ']' (the look ahead may have closed it with a '}').
        guard bytes[ends.last!] == UInt8(ascii: "]"), parts.allSatisfy({ $0.read != nil }) else {
            for (part, made) in parts.enumerated() { (storage + starts[part].element).deinitialize(count: made.made) }
            return nil
        }
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: storage, count: count)
            initialized = count
        }
        var positions: [JSONPosition] = []
        positions.reserveCapacity(count)
        for part in parts { positions.append(contentsOf: part.read!.positions) }
        let last = parts.last!.read!
        (index, line, lineStart, continuationBytes) = (ends.last! + 1, last.line, last.lineStart, last.continuationBytes)
        return (JSONArray(elements: Array(repeating: .null, count: count), positions: positions), values)
    }

    /// From `index` in the `count` bytes at `base`, eight at a time, past every byte that is not a quote, a backslash, a
    /// control byte or non-ASCII: where the first such byte is, or where fewer than eight bytes remain.
    @inline(__always) static func skipPlain(_ base: UnsafeRawPointer, from index: Int, count: Int) -> Int {
        var index = index
        while index + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            // A byte's high bit is set where it is 0 (after the xor), below 0x20, or itself non-ASCII;
            // bytes above the first such byte may be marked wrongly, never bytes below it.
            let marks = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) | word) & highs
            if marks != 0 { return index + marks.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    /// The parts of the array whose '[' is at ``index``, by a look at its bytes that builds nothing: where each starts (after
    /// the '[' or after a comma between two of its elements, about `size` bytes after the last) and where it ends (that
    /// comma, or the byte closing the array), and how many elements it has (one more than its commas: an empty array is
    /// never read in parts). `nil` when the text ends first, or holds what only an error can (a control
    /// byte in a string, non-ASCII outside one): then the parts could not be read anyway.
    /// - Complexity: O(the array's bytes), eight at a time within strings.
    func splitArray(size: Int) -> (starts: [PartStart], ends: [Int], elements: Int)? {
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return nil }
        let count = bytes.count
        var i = index + 1, nesting = 1
        var (line, lineStart, continuationBytes) = (self.line, self.lineStart, self.continuationBytes)
        var starts = [PartStart(offset: i, element: 0, line: line, lineStart: lineStart, continuationBytes: continuationBytes)], ends: [Int] = []
        var commas = 0
        var next = i + size
        while i < count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                // To the closing quote: eight bytes at a time while none is a quote, a backslash, a control byte or non-ASCII.
                while true {
                    i = Self.skipPlain(base, from: i, count: count)
                    guard i < count else { return nil }
                    let inString = bytes[i]
                    if inString == UInt8(ascii: "\"") { break }
                    if inString == UInt8(ascii: "\\") {
                        i += 2
                    } else if inString >= 0x80 {
                        if inString & 0xC0 == 0x80 { continuationBytes += 1 }
                        i += 1
                    } else if inString < 0x20 {
                        return nil
                    } else {
                        i += 1
                    }
                }
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = i + 1
                continuationBytes = 0
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                nesting += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                nesting -= 1
                if nesting == 0 {
                    ends.append(i)
                    return (starts, ends, commas + 1)
                }
            case UInt8(ascii: ","):
                if nesting == 1 {
                    commas += 1
                    if i >= next {
                        ends.append(i)
                        starts.append(PartStart(offset: i + 1, element: commas, line: line, lineStart: lineStart, continuationBytes: continuationBytes))
                        next = i + size
                    }
                }
            case 0x80...:
                return nil
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// An array at one of ``listKeys``: ``parseArray()`` with the same errors, its strings decoded in place.
    mutating func parseListInPlace(key: String) throws(JSONError) -> InPlaceList {
        try enterContainer()
        index += 1
        var list = InPlaceList(key: key, start: write)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return list
        }
        var element = 0
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]"), element > 0 {
                throw error("trailing comma: remove the ',' before ']'")
            }
            let elementPosition = position
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let length = try parseStringInPlace()
                if list.firstNotString == nil, list.firstInvalid == nil {
                    let spelled = UnsafeBufferPointer(start: writable! + write, count: length)
                    if isElement(spelled) {
                        write += length
                        list.ends.append(UInt32(write))
                    } else {
                        list.firstInvalid = .init(index: element, position: elementPosition, text: String(decoding: spelled, as: UTF8.self))
                    }
                }
            } else {
                let value = try parseValue()
                if list.firstNotString == nil { list.firstNotString = .init(index: element, position: elementPosition, text: value.kindDescription) }
            }
            element += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the input: the array is not closed") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return list
            }
            throw error("expected ',' or ']' after an array element, found \(found(at: index))")
        }
    }

    /// Reads a string as ``parseString()`` does, writing its decoded bytes at `write` (not moving it); returns their count.
    mutating func parseStringInPlace() throws(JSONError) -> Int {
        let quote = index
        index += 1
        let start = index
        // Printable ASCII without escapes, as parseString's fast path: moved down as it is. Eight bytes
        // at a time while none of them is a quote, a backslash, a control byte or non-ASCII.
        index = Self.skipPlain(UnsafeRawPointer(bytes.baseAddress!), from: index, count: bytes.count)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let length = index - start
                if write != start, length > 0 { (writable! + write).update(from: writable! + start, count: length) }
                index += 1
                return length
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        index = quote
        var text = try parseString()
        return text.withUTF8 { decoded in
            // Never longer than as written, so it ends before the string's closing quote.
            if let source = decoded.baseAddress, decoded.count > 0 { (writable! + write).update(from: source, count: decoded.count) }
            return decoded.count
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(found(at: index))")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw JSONError("a number may not have leading zeros", at: position(at: index - 1))
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after '.', found \(found(at: index))")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(found(at: index))")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, isIdentifierByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
            throw error("unexpected \(found(at: index)) in a number")
        }
        return JSONNumber(validLiteral: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Strings

    /// With `interning`, a plain string is shared with an earlier one of the same bytes (``plainString(_:_:interning:)``):
    /// values, which repeat (bundle IDs), not keys, which every object of a kind holds and every thread would count.
    mutating func parseString(interning: Bool = false) throws(JSONError) -> String {
        let openingQuote = position
        index += 1
        let start = index
        // Fast path: printable ASCII without escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = plainString(start, index, interning: interning)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case 0..<0x20:
                let name = byte == UInt8(ascii: "\n") ? "a line break" : byte == UInt8(ascii: "\t") ? "a tab" : "control character U+00\(hex2(byte))"
                let escape = byte == UInt8(ascii: "\n") ? "\\n" : byte == UInt8(ascii: "\t") ? "\\t" : "\\u00\(hex2(byte))"
                throw error("\(name) inside a string: write it as \(escape), or close the string (opened at line \(openingQuote.line), column \(openingQuote.column))")
            case 0x80...:
                try copyUTF8Sequence(into: &scalars)
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw JSONError("the string is not closed: add the closing '\"'", at: openingQuote)
    }

    private func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    mutating func parseEscape(into scalars: inout [UInt8]) throws(JSONError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw JSONError("the string is not closed after '\\'", at: position(at: escapeStart)) }
        let byte = bytes[index]
        index += 1
        if let decoded = JSONBytes.shortEscape(byte) {
            scalars.append(decoded)
            return
        }
        switch byte {
        case UInt8(ascii: "u"):
            var value = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(value) {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONError("lone high surrogate in a \\u escape: it must be followed by a low surrogate (\\uDC00 to \\uDFFF)", at: position(at: escapeStart))
                }
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONError("a high surrogate must be followed by a low surrogate (\\uDC00 to \\uDFFF)", at: position(at: lowStart))
                }
                value = JSONBytes.combine(high: value, low: low)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw JSONError("lone low surrogate in a \\u escape", at: position(at: escapeStart))
            }
            // Not a surrogate, and at most 0x10FFFF by construction.
            scalars.append(contentsOf: String(Character(Unicode.Scalar(value)!)).utf8)
        default:
            throw JSONError("invalid escape '\\\(Character(Unicode.Scalar(byte)))': use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX", at: position(at: escapeStart))
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw JSONError("\\u must be followed by four hex digits", at: position(at: escapeStart))
            }
            guard let digit = JSONBytes.hexDigit(bytes[index]) else {
                throw JSONError("\\u must be followed by four hex digits", at: position(at: escapeStart))
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Copies one well-formed UTF-8 sequence starting at a byte ≥ 0x80, or throws.
    mutating func copyUTF8Sequence(into scalars: inout [UInt8]) throws(JSONError) {
        let length: Int
        switch JSONBytes.sequence(in: bytes, at: index) {
        case .valid(let count): length = count
        case .invalidLead: throw error("invalid UTF-8: byte 0x\(String(bytes[index], radix: 16, uppercase: true)) cannot start a character")
        case .truncated: throw error("invalid UTF-8: the input ends inside a character")
        case .malformed: throw error("invalid UTF-8: a character's bytes are malformed")
        }
        scalars.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
        index += length
        continuationBytes += length - 1
    }

    /// Outside strings no non-ASCII is allowed; this throws the clearer of the two messages.
    mutating func checkNonASCIIOutsideString() throws(JSONError) {
        let before = index
        var ignored: [UInt8] = []
        try copyUTF8Sequence(into: &ignored)
        let character = String(decoding: ignored, as: UTF8.self)
        index = before
        continuationBytes -= ignored.count - 1
        throw error("expected a value (object, array, string, number, true, false or null), found '\(character)'")
    }
}
