/// Checks every `<dict>` of an XML property list for keys given twice, before the parser reads it.
///
/// Foundation resolves a duplicate key silently (the last one wins in XML),
/// and on Linux it also merges two keys that are different bytes but
/// canonically equivalent (`BLOCKING` and `BLOC\u{212A}ING`), keeping one
/// key's spelling with the other's value. The SDK reads keys byte for byte,
/// so neither resolution is the device's: both are errors here, naming the key
/// and the two lines. The scan knows just enough XML for property lists:
/// elements, comments, processing instructions, a DOCTYPE, CDATA and the
/// five named and the numeric character references.
enum PropertyListKeyCheck {
    /// A key given twice in one dictionary, or two keys Foundation cannot keep apart.
    struct Problem: Error {
        let message: String
        let line: Int
        /// Arrays and dictionaries nest deeper than the parser is allowed to go (a parse error, not a key's).
        var tooDeep = false
    }

    /// One open element that matters: a `<dict>` (with the keys seen so far) or anything else.
    private struct Frame {
        var isDictionary: Bool
        /// Each key, by bytes → the line it is on.
        var exact: [ExactKey: Int] = [:]
        /// Each key under Swift's canonical equivalence → its spelling and line.
        var canonical: [String: (key: String, line: Int)] = [:]
    }

    /// Scans an XML property list (UTF-8, or UTF-16 with a byte order mark).
    /// - Throws: ``Problem`` for the first repeated key.
    static func checkXML(_ bytes: [UInt8]) throws(Problem) {
        try scan(utf8(bytes))
    }

    /// An XML property list's bytes as UTF-8: UTF-16 with a byte order mark is converted, anything else is kept.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) else { return bytes }
        let bigEndian = bytes[0] == 0xFE
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let high = UInt16(bytes[bigEndian ? index : index + 1]), low = UInt16(bytes[bigEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    private static func scan(_ bytes: [UInt8]) throws(Problem) {
        var index = 0, line = 1
        var stack: [Frame] = []
        var key: [UInt8]? = nil
        var keyLine = 1

        /// Moves past `terminator`, counting lines; at the end of the input when it never comes.
        func skip(past terminator: [UInt8]) {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                if bytes[index] == terminator[0], bytes[index...].starts(with: terminator) {
                    index += terminator.count
                    return
                }
                index += 1
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                if byte == UInt8(ascii: "\n") { line += 1 }
                if key != nil {
                    if byte == UInt8(ascii: "&") {
                        let (decoded, length) = reference(bytes, at: index)
                        key!.append(contentsOf: decoded)
                        index += length
                        continue
                    }
                    key!.append(byte)
                }
                index += 1
                continue
            }
            let rest = bytes[index...]
            if rest.starts(with: Array("<!--".utf8)) {
                skip(past: Array("-->".utf8))
            } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                index += 9
                let start = index
                skip(past: Array("]]>".utf8))
                if key != nil { key!.append(contentsOf: bytes[start..<max(start, index - 3)]) }
            } else if rest.starts(with: Array("<?".utf8)) {
                skip(past: Array("?>".utf8))
            } else if rest.starts(with: Array("<!".utf8)) {
                // A DOCTYPE, perhaps with an internal subset in brackets.
                var depth = 0
                while index < bytes.count {
                    let current = bytes[index]
                    index += 1
                    if current == UInt8(ascii: "\n") { line += 1 }
                    if current == UInt8(ascii: "[") { depth += 1 }
                    if current == UInt8(ascii: "]") { depth -= 1 }
                    if current == UInt8(ascii: ">"), depth <= 0 { break }
                }
            } else {
                let tagLine = line
                let start = index
                skip(past: [UInt8(ascii: ">")])
                let tag = bytes[start..<index]
                let closing = tag.dropFirst().first == UInt8(ascii: "/")
                let selfClosing = tag.dropLast().last == UInt8(ascii: "/")
                let name = Array(tag.dropFirst(closing ? 2 : 1).prefix { !isNameEnd($0) })
                if closing {
                    if name == Array("key".utf8), let written = key {
                        key = nil
                        try record(written, line: keyLine, in: &stack)
                    } else if name == Array("dict".utf8) || name == Array("array".utf8) || name == Array("plist".utf8) {
                        if !stack.isEmpty { stack.removeLast() }
                    }
                } else if name == Array("key".utf8) {
                    keyLine = tagLine
                    if selfClosing { try record([], line: keyLine, in: &stack) } else { key = [] }
                } else if !selfClosing, name == Array("dict".utf8) || name == Array("array".utf8) || name == Array("plist".utf8) {
                    stack.append(Frame(isDictionary: name == Array("dict".utf8)))
                    // The parser recurses once per level: refuse what would exhaust its stack.
                    if stack.count > BinaryPropertyListCheck.maxDepth + 1 {
                        throw Problem(message: "too many nested arrays or dictionaries, failing on line \(tagLine)", line: tagLine, tooDeep: true)
                    }
                }
            }
        }
    }

    /// Notes `written` as a key of the innermost dictionary.
    private static func record(_ written: [UInt8], line: Int, in stack: inout [Frame]) throws(Problem) {
        guard let last = stack.indices.last, stack[last].isDictionary else { return }
        let text = String(decoding: written, as: UTF8.self)
        if let first = stack[last].exact[ExactKey(text)] {
            throw Problem(message: "duplicate key \(JSONWriter.quoted(text)) in a <dict> (first at line \(first)): give each key once", line: line)
        }
        if let other = stack[last].canonical[text] {
            throw Problem(message: "the keys \(JSONWriter.quoted(other.key)) (line \(other.line)) and \(JSONWriter.quoted(text)) in one <dict> are different bytes that look the same (canonically equivalent Unicode): the SDK reads them as two keys, this tool cannot keep them apart; rename or remove one", line: line)
        }
        stack[last].exact[ExactKey(text)] = line
        stack[last].canonical[text] = (text, line)
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The bytes an `&…;` reference stands for, and its length (an unknown one is kept as written).
    private static func reference(_ bytes: [UInt8], at start: Int) -> ([UInt8], Int) {
        guard let end = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return ([bytes[start]], 1) }
        let body = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        let length = end - start + 1
        switch body {
        case "lt": return (Array("<".utf8), length)
        case "gt": return (Array(">".utf8), length)
        case "amp": return (Array("&".utf8), length)
        case "quot": return (Array("\"".utf8), length)
        case "apos": return (Array("'".utf8), length)
        default:
            var digits = Substring(body)
            guard digits.first == "#" else { return ([bytes[start]], 1) }
            digits = digits.dropFirst()
            let hex = digits.first == "x" || digits.first == "X"
            if hex { digits = digits.dropFirst() }
            guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) else {
                return ([bytes[start]], 1)
            }
            return (Array(String(Character(scalar)).utf8), length)
        }
    }
}
