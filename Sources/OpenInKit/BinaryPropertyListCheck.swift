/// Checks a binary property list's structure before ``BinaryPropertyListReader`` decodes it.
///
/// A binary list is a graph: a few hundred bytes whose arrays refer to the same object twice,
/// level after level, expand into 2^n values (a binary "billion laughs"), chains can be reused
/// deeper than they were first met, and objects can overlap. This check walks the trailer (as
/// CoreFoundation checks it), the offset table and the object references once per object
/// offset, without recursion, and fails closed with a plain message on anything out of range,
/// a cycle, a set, a dictionary key that is not a string, a key given twice in one dictionary
/// (or two canonically equivalent keys), nesting deeper than ``maxDepth`` at any use of an
/// object, objects that overlap to decode to more than the object area, or a tree of more than
/// ``maxValues`` values once shared objects are counted each time they are used.
/// - Complexity: O(n) in the file's size, plus O(k) per dictionary key's text (each decoded once).
enum BinaryPropertyListCheck {
    /// How many values the parsed tree may hold, shared objects counted at each use.
    static let maxValues = 100_000
    /// How deeply arrays and dictionaries may nest.
    static let maxDepth = 512

    /// What is wrong with a binary property list; the message finishes "…: " in ``PropertyList``.
    package struct Problem: Error {
        let message: String
    }

    /// Checks `bytes`, which start with `bplist`.
    /// - Throws: ``Problem``.
    package static func check(_ bytes: [UInt8]) throws(Problem) {
        let trailerSize = 32
        guard bytes.count >= 8 + 1 + trailerSize else { throw Problem(message: "it is shorter than the smallest binary property list") }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Problem(message: "its trailer is corrupt (offset size \(offsetSize), reference size \(referenceSize))")
        }
        let objectCount = integer(bytes, at: trailer + 8, size: 8)
        let top = integer(bytes, at: trailer + 16, size: 8)
        let tableStart = integer(bytes, at: trailer + 24, size: 8)
        guard objectCount >= 1, objectCount <= UInt64(trailer), top < objectCount,
              tableStart >= 9, tableStart <= UInt64(trailer),
              (UInt64(trailer) - tableStart) / UInt64(offsetSize) >= objectCount else {
            throw Problem(message: "its trailer is corrupt (the objects or the offset table lie outside the file)")
        }
        // CoreFoundation's own checks of the trailer: the offset table fills the space up to the trailer exactly,
        // references and offsets are wide enough to reach every object and the table, and every offset lies before the table.
        guard UInt64(trailer) - tableStart == objectCount * UInt64(offsetSize) else {
            throw Problem(message: "its trailer is corrupt (the offset table does not end where the trailer starts)")
        }
        guard referenceSize == 8 || (1 << (8 * UInt64(referenceSize))) > objectCount,
              offsetSize == 8 || (1 << (8 * UInt64(offsetSize))) > tableStart else {
            throw Problem(message: "its trailer is corrupt (references or offsets too narrow for the objects)")
        }
        let offsets = (0..<Int(objectCount)).map { Int(clamping: integer(bytes, at: Int(tableStart) + $0 * offsetSize, size: offsetSize)) }
        guard offsets.allSatisfy({ $0 < Int(tableStart) }) else { throw Problem(message: "an object's offset lies outside the object area") }
        var walker = Walker(bytes: bytes, end: Int(tableStart), offsets: offsets, referenceSize: referenceSize)
        try walker.walk(from: Int(top))
    }

    /// For each object, the first object at the same offset: objects are decoded once per offset, as CoreFoundation caches them.
    static func firstAtSameOffset(_ offsets: [Int]) -> [Int] {
        var first: [Int: Int] = [:]
        first.reserveCapacity(offsets.count)
        return offsets.indices.map { index in
            if let earlier = first[offsets[index]] { return earlier }
            first[offsets[index]] = index
            return index
        }
    }

    /// A big-endian unsigned integer of `size` bytes (at most 8) at `offset`, which the caller has range-checked.
    static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Why an object's length cannot be read.
    enum LengthProblem: Error {
        /// The marker says a length follows, but what follows is not a small integer.
        case corrupt
        /// The length's integer runs past the object area.
        case outside
        /// The length is larger than the file.
        case longerThanFile
    }

    /// The length of the object whose marker is at `start` (its low four bits, or the integer
    /// after the marker when they are 0xF) and where its body starts; `end` is the object area's end.
    static func length(_ bytes: [UInt8], at start: Int, end: Int) throws(LengthProblem) -> (count: Int, body: Int) {
        let low = Int(bytes[start] & 0x0F)
        guard low == 0x0F else { return (low, start + 1) }
        let position = start + 1
        guard position < end, bytes[position] >> 4 == 0x1, bytes[position] & 0x0F <= 3 else { throw .corrupt }
        let size = 1 << Int(bytes[position] & 0x0F)
        guard position + 1 + size <= end else { throw .outside }
        let value = integer(bytes, at: position + 1, size: size)
        guard value <= UInt64(end) else { throw .longerThanFile }
        return (Int(value), position + 1 + size)
    }

    /// Walks the object graph from the top object without recursion (an explicit stack of at
    /// most ``maxDepth`` frames), once per object offset.
    ///
    /// For each object it keeps the number of values under it (shared objects counted at each
    /// use) and its height (how many arrays and dictionaries nest in it, itself included), so
    /// an object met again is checked against the depth where it is met now: a chain first met
    /// shallow cannot be reused deep. The bytes of the objects met, each offset once, may not
    /// add up to more than the object area: objects that overlap to be decoded many times over
    /// are refused, so what the reader builds is bounded by the file's size.
    private struct Walker {
        let bytes: [UInt8]
        /// Where the objects end: the offset table's start.
        let end: Int
        let offsets: [Int]
        let referenceSize: Int
        /// For each object, the first object at the same offset (the one memoised).
        let canonical: [Int]
        /// Key texts decoded so far, by object: a key shared by many dictionaries is decoded once.
        private var keyTexts: [Int: String] = [:]

        init(bytes: [UInt8], end: Int, offsets: [Int], referenceSize: Int) {
            self.bytes = bytes
            self.end = end
            self.offsets = offsets
            self.referenceSize = referenceSize
            canonical = BinaryPropertyListCheck.firstAtSameOffset(offsets)
        }

        /// An array or dictionary being walked.
        private struct Frame {
            let object: Int
            /// Where its references start, and how many there are (keys and values for a dictionary).
            let position: Int
            let references: Int
            var next = 0
            var total = 1
            var height = 1
        }

        private enum State: UInt8 { case new, open, done }

        mutating func walk(from top: Int) throws(Problem) {
            var state = [State](repeating: .new, count: offsets.count)
            var totals = [Int](repeating: 0, count: offsets.count)
            var heights = [Int](repeating: 0, count: offsets.count)
            var budget = end - 8
            var stack: [Frame] = []
            stack.reserveCapacity(16)
            let topObject = canonical[top]
            if let frame = try enter(topObject, containersAbove: 0, budget: &budget) {
                state[topObject] = .open
                stack.append(frame)
            } else {
                return
            }
            while !stack.isEmpty {
                let last = stack.count - 1
                if stack[last].next == stack[last].references {
                    let done = stack.removeLast()
                    state[done.object] = .done
                    totals[done.object] = done.total
                    heights[done.object] = done.height
                    if !stack.isEmpty { try add(total: done.total, height: done.height, to: &stack[stack.count - 1]) }
                    continue
                }
                let reference = BinaryPropertyListCheck.integer(bytes, at: stack[last].position + stack[last].next * referenceSize, size: referenceSize)
                stack[last].next += 1
                guard reference < UInt64(offsets.count) else { throw Problem(message: "a reference points at no object") }
                let child = canonical[Int(reference)]
                switch state[child] {
                case .open:
                    throw Problem(message: "an object contains itself")
                case .done:
                    // Memoised, but checked at this depth: its height counts from here.
                    guard stack.count + heights[child] <= BinaryPropertyListCheck.maxDepth else { throw Self.tooDeep }
                    try add(total: totals[child], height: heights[child], to: &stack[last])
                case .new:
                    if let frame = try enter(child, containersAbove: stack.count, budget: &budget) {
                        state[child] = .open
                        stack.append(frame)
                    } else {
                        state[child] = .done
                        totals[child] = 1
                        try add(total: 1, height: 0, to: &stack[last])
                    }
                }
            }
        }

        static let tooDeep = Problem(message: "arrays and dictionaries nest deeper than \(BinaryPropertyListCheck.maxDepth) levels")

        private func add(total: Int, height: Int, to frame: inout Frame) throws(Problem) {
            frame.total += total
            frame.height = max(frame.height, height + 1)
            if frame.total > BinaryPropertyListCheck.maxValues {
                throw Problem(message: "it expands to more than \(BinaryPropertyListCheck.maxValues) values (objects shared over and over)")
            }
        }

        /// Checks the object met for the first time; a frame for an array or dictionary, `nil` for anything else.
        private mutating func enter(_ object: Int, containersAbove: Int, budget: inout Int) throws(Problem) -> Frame? {
            let start = offsets[object]
            guard start >= 8, start < end else { throw Problem(message: "an object's offset lies outside the object area") }
            let marker = bytes[start]
            let kind = marker >> 4
            // Sets are no property-list type, and Foundation on Linux crashes (SIGSEGV) bridging one.
            if kind == 0xC { throw Problem(message: "it holds a set, which property lists do not have") }
            // Arrays (0xA) and dictionaries (0xD) refer to other objects; nothing else does.
            guard kind == 0xA || kind == 0xD else {
                try spend(leafSize(at: start), of: &budget)
                return nil
            }
            guard containersAbove < BinaryPropertyListCheck.maxDepth else { throw Self.tooDeep }
            let count: Int, position: Int
            do throws(LengthProblem) {
                (count, position) = try BinaryPropertyListCheck.length(bytes, at: start, end: end)
            } catch {
                throw Problem(message: error.message(for: "collection"))
            }
            let references = kind == 0xD ? count * 2 : count
            guard references <= (end - position) / referenceSize else {
                throw Problem(message: "a collection's references lie outside the object area")
            }
            try spend(position - start + references * referenceSize, of: &budget)
            if kind == 0xD { try checkKeys(of: object, at: start, count: count, position: position) }
            return Frame(object: object, position: position, references: references)
        }

        /// Takes an object's bytes from what the objects met may add up to.
        private func spend(_ size: Int, of budget: inout Int) throws(Problem) {
            budget -= size
            if budget < 0 {
                throw Problem(message: "its objects overlap: decoded, they would be larger than the file (objects decoded over and over)")
            }
        }

        /// The bytes of a leaf object (marker, length and body), as far as they lie in the object area.
        private func leafSize(at start: Int) -> Int {
            let marker = bytes[start], low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x1, 0x2: return 1 + (1 << min(low, 4))
            case 0x3: return 9
            case 0x4, 0x5, 0x6:
                guard let (length, position) = try? BinaryPropertyListCheck.length(bytes, at: start, end: end) else { return 1 }
                let body = marker >> 4 == 0x6 ? length.multipliedReportingOverflow(by: 2).partialValue : length
                return min(position - start + max(body, 0), end - start)
            default: return 1
            }
        }

        /// The keys of the dictionary at `start` are strings, each given once, and no two look the same.
        private mutating func checkKeys(of object: Int, at start: Int, count: Int, position: Int) throws(Problem) {
            var keys = RepeatedKeys<Int>()
            for index in 0..<count {
                let reference = BinaryPropertyListCheck.integer(bytes, at: position + index * referenceSize, size: referenceSize)
                guard reference < UInt64(offsets.count) else { throw Problem(message: "a reference points at no object") }
                let keyObject = canonical[Int(reference)]
                let text: String?
                if let known = keyTexts[keyObject] { text = known } else {
                    text = try keyText(keyObject)
                    if let text { keyTexts[keyObject] = text }
                }
                guard let key = text else {
                    throw Problem(message: "a dictionary has a key that is not a string")
                }
                if let first = keys.same(as: key) {
                    throw Problem(message: "duplicate key \(Printable.quoted(key)) in the dictionary at byte offset \(start) (keys \(first + 1) and \(index + 1) of \(count)): give each key once")
                }
                if let other = keys.lookalike(of: key) {
                    throw Problem(message: "keys \(other.place + 1) and \(index + 1) of the dictionary at byte offset \(start) are different bytes that look the same (canonically equivalent Unicode, \(Printable.quoted(other.key)) and \(Printable.quoted(key))): the SDK reads them as two keys, this tool cannot keep them apart; rename or remove one")
                }
                keys.add(key, at: index)
            }
        }

        /// The text of `object` when it is an ASCII (0x5) or UTF-16 (0x6) string, `nil` when it is not a string.
        /// - Throws: ``Problem`` for a string whose length runs outside the object area.
        func keyText(_ object: Int) throws(Problem) -> String? {
            let start = offsets[object]
            guard start >= 8, start < end else { return nil }
            let kind = bytes[start] >> 4
            guard kind == 0x5 || kind == 0x6 else { return nil }
            let length: Int, position: Int
            do throws(LengthProblem) {
                (length, position) = try BinaryPropertyListCheck.length(bytes, at: start, end: end)
            } catch {
                throw Problem(message: error.message(for: "string"))
            }
            let byteCount = kind == 0x6 ? length * 2 : length
            guard byteCount <= end - position else { throw Problem(message: "a string lies outside the object area") }
            if kind == 0x5 { return String(decoding: bytes[position..<position + byteCount], as: UTF8.self) }
            let units = (0..<length).map { UInt16(bytes[position + 2 * $0]) << 8 | UInt16(bytes[position + 2 * $0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
    }
}

extension BinaryPropertyListCheck.LengthProblem {
    /// The check's message for a `kind` ("collection", "string") whose length is unreadable.
    package func message(for kind: String) -> String {
        switch self {
        case .corrupt: "a \(kind)'s length is corrupt"
        case .outside: "a \(kind)'s length lies outside the object area"
        case .longerThanFile: "a \(kind) is longer than the file"
        }
    }
}
