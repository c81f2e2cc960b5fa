/// Reads an XML property list into a ``PropertyListValue`` exactly as CoreFoundation's
/// CFPropertyList reads it, or refuses it: the elements of Apple's property-list DTD and no
/// more, with no library behind it.
///
/// Reads `<plist>` (or a bare value), `<dict>`, `<key>`, `<array>`, `<string>`, `<integer>`
/// (decimal, or hexadecimal after `0x`), `<real>`, `<true/>`, `<false/>`, `<date>` and
/// `<data>`; around and between them whitespace, comments, processing instructions and, before
/// the top element, DOCTYPEs without an internal subset; inside `<string>`, `<key>` and
/// `<real>` the five named character references, numeric ones and CDATA sections. Tags are
/// split as CoreFoundation splits them (a tag ends at its first `>`, quotes or not), and the
/// encoding is decided as it decides it (see ``utf8(_:)``). Anything CoreFoundation cannot read,
/// or would read as another value, is an error naming the line, never a guess; so is a key
/// given twice in one `<dict>`, and two keys that are different bytes but canonically
/// equivalent (`BLOCKING` and `BLOC\u{212A}ING`). The places where the reader is stricter than
/// CoreFoundation are listed in the PropertyListSecurity article. Arrays and dictionaries may
/// nest ``BinaryPropertyListCheck/maxDepth`` levels, read with an explicit stack (no recursion).
/// - Complexity: O(n) time in the file's size; memory O(n).
struct XMLPropertyListReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    /// What went wrong, and on which line (none for nesting too deep).
    package struct Problem: Error {
        let message: String
        let line: Int?
        /// A repeated or look-alike key: the file is well-formed, its keys are not.
        var isKeyProblem = false
        /// A message that needs no "not a valid property list" before it (entity definitions).
        var standsAlone = false
    }

    /// A start tag, read up to its `>`.
    private struct Tag {
        let name: [UInt8]
        let selfClosing: Bool
        let line: Int
    }

    /// Reads `bytes` (UTF-8, or UTF-16 with a byte order mark).
    package static func read(_ bytes: [UInt8]) throws(Problem) -> PropertyListValue {
        let text = try utf8(bytes)
        // Checked on the text as the reader sees it, so a UTF-16 file cannot hide one.
        if let line = line(of: Array("<!ENTITY".utf8), in: text) {
            throw Problem(message: "entity definitions (<!ENTITY …>) are not allowed in a property list", line: line, standsAlone: true)
        }
        var reader = XMLPropertyListReader(bytes: text)
        return try reader.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// An XML property list's bytes as UTF-8, decided as CoreFoundation decides the encoding:
    /// a UTF-16 byte order mark first (the bytes are converted), then a UTF-8 one; then an
    /// `<?xml … encoding="…"?>` declaration at the very start. UTF-32, UTF-16 without a byte
    /// order mark and any declared encoding but UTF-8 are refused: CoreFoundation would convert
    /// from them, and this reader reads UTF-8 and UTF-16 only.
    package static func utf8(_ bytes: [UInt8]) throws(Problem) -> [UInt8] {
        let convert = "convert the file with 'plutil -convert xml1'"
        if bytes.count > 4, bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw Problem(message: "it is UTF-32, which this reader does not read; \(convert)", line: 1)
        }
        if bytes.count > 3, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return bytes }
        if bytes.count > 2, bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return try utf16(bytes)
        }
        if bytes.count > 2, bytes[0] == 0 || bytes[1] == 0 {
            throw Problem(message: "it starts with a zero byte (UTF-16 without a byte order mark?), which this reader does not read; \(convert)", line: 1)
        }
        // CoreFoundation looks for `encoding=` right after `<?xml`, up to the first `?` or `>`.
        guard bytes.starts(with: Array("<?xml".utf8)) else { return bytes }
        var index = 5
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: ">") { return bytes }
            index += 1
            guard index + 8 < bytes.count else {
                throw Problem(message: "the <?xml …?> declaration runs to the end of the file", line: 1)
            }
            if byte == UInt8(ascii: "e"), bytes[index..<index + 8].elementsEqual("ncoding=".utf8) {
                index += 8
                break
            }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return bytes }
        let quote = bytes[index]
        guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return bytes }
        let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
        guard ExactText.sameIgnoringASCIICase(name, "utf-8") else {
            throw Problem(message: "the encoding \(Printable.quoted(name)) is not read (only UTF-8, and UTF-16 with a byte order mark, are); \(convert)", line: 1)
        }
        return bytes
    }

    /// UTF-16 with a byte order mark as UTF-8; an odd byte count or an unpaired surrogate is an error.
    private static func utf16(_ bytes: [UInt8]) throws(Problem) -> [UInt8] {
        guard bytes.count % 2 == 0 else { throw Problem(message: "it is UTF-16 with an odd number of bytes", line: nil) }
        let bigEndian = bytes[0] == 0xFE
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let high = UInt16(bytes[bigEndian ? index : index + 1]), low = UInt16(bytes[bigEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        guard let text = String(validating: units, as: UTF16.self) else {
            throw Problem(message: "it is UTF-16 with an unpaired surrogate", line: nil)
        }
        return Array(text.utf8)
    }

    /// The 1-based line where `needle` first occurs in `bytes`, if it does.
    private static func line(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var line = 1
        for start in 0...(bytes.count - needle.count) {
            if bytes[start] == UInt8(ascii: "\n") { line += 1 }
            if bytes[start] == needle[0], bytes[start..<start + needle.count].elementsEqual(needle) { return line }
        }
        return nil
    }

    private func fail(_ message: String, line: Int? = nil) -> Problem { Problem(message: message, line: line ?? self.line) }

    // MARK: Document

    private mutating func document() throws(Problem) -> PropertyListValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipMisc(prolog: true)
        guard index < bytes.count else { throw fail("it holds no value (no <plist> element)") }
        let tag = try startTag()
        let value: PropertyListValue
        if Self.same(tag.name, "plist") {
            guard !tag.selfClosing else { throw fail("the <plist> element is empty: it must hold one value", line: tag.line) }
            try skipMisc(prolog: false)
            guard index < bytes.count else { throw fail("the <plist> element is not closed") }
            if bytes[index...].starts(with: Self.endPlist) { throw fail("the <plist> element is empty: it must hold one value", line: tag.line) }
            value = try self.value(try startTag())
            try skipMisc(prolog: false)
            try endTag("plist", opened: tag)
        } else {
            value = try self.value(tag)
        }
        try skipMisc(prolog: false)
        guard index >= bytes.count else { throw fail("there is more after the property list's value: a property list holds one value") }
        return value
    }

    private static let endPlist = Array("</plist".utf8)

    /// Skips whitespace, comments and processing instructions, and in the prolog (before the top
    /// element) DOCTYPEs.
    ///
    /// In the prolog CoreFoundation's reader skips a comment from one byte past `<!--` and a
    /// processing instruction from one byte past `<?`, so it does not see the end of `<!---->` or
    /// `<?>` and reads on to the next `-->` or `?>`: those two are refused there, as is a DOCTYPE
    /// with an internal subset (`[`), which CoreFoundation cannot read.
    private mutating func skipMisc(prolog: Bool) throws(Problem) {
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) {
                if byte == 0x0A { line += 1 }
                index += 1
            } else if byte == UInt8(ascii: "<"), index + 1 < bytes.count {
                let rest = bytes[index...]
                if rest.starts(with: Self.commentStart) {
                    if prolog, bytes[(index + 4)...].starts(with: Self.commentEnd) {
                        throw fail("an empty comment <!----> stands before the top element: CoreFoundation's reader does not end it there (it reads on to the next '-->'); remove it or write <!-- -->")
                    }
                    try skipComment()
                } else if bytes[index + 1] == UInt8(ascii: "?") {
                    if prolog, bytes[(index + 1)...].starts(with: Array("?>".utf8)) {
                        throw fail("'<?>' stands before the top element: CoreFoundation's reader does not end it there (it reads on to the next '?>'); remove it")
                    }
                    try processingInstruction()
                } else if prolog, rest.starts(with: Self.doctype) {
                    try skipDoctype()
                } else {
                    return
                }
            } else if byte == UInt8(ascii: "<") {
                return
            } else {
                throw fail("text \(Self.describe(byte)) stands where an element belongs")
            }
        }
    }

    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let doctype = Array("<!DOCTYPE".utf8)

    private mutating func skipComment() throws(Problem) {
        let start = line
        index += 4
        guard try skip(past: Self.commentEnd) else { throw fail("a comment is not closed (no '-->')", line: start) }
    }

    /// A `<?…?>`, skipped (the encoding an `<?xml …?>` declares was checked before reading).
    private mutating func processingInstruction() throws(Problem) {
        let start = line
        guard try skip(past: Array("?>".utf8)) else { throw fail("a processing instruction is not closed (no '?>')", line: start) }
    }

    /// A `<!DOCTYPE …>`, which ends at the first `>` as CoreFoundation ends it; an internal subset is refused.
    private mutating func skipDoctype() throws(Problem) {
        let start = line
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: "[") {
                throw fail("the DOCTYPE has an internal subset ('[…]'), which CoreFoundation's reader cannot read; use <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">", line: start)
            }
            if byte == UInt8(ascii: ">") { return }
        }
        throw fail("the DOCTYPE is not closed", line: start)
    }

    /// Moves past `terminator`, counting lines; false (at the end) when it never comes.
    private mutating func skip(past terminator: [UInt8]) throws(Problem) -> Bool {
        while index < bytes.count {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index] == terminator[0], bytes[index...].starts(with: terminator) {
                index += terminator.count
                return true
            }
            index += 1
        }
        return false
    }

    // MARK: Tags

    /// Reads a start tag at `<` as CoreFoundation's reader does: the tag ends at the first `>`
    /// (quotes mean nothing: `<key a=">">` ends after `a="`), the name is what comes before the
    /// first whitespace (or before the `>`, less a `/` just before it), anything between name and
    /// `>` is ignored, and the tag is empty when a `/` stands just before the `>`.
    private mutating func startTag() throws(Problem) -> Tag {
        let tagLine = line
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { throw fail("an element is missing") }
        index += 1
        guard index < bytes.count, bytes[index] != UInt8(ascii: "/") else {
            throw fail("an end tag stands where a value belongs")
        }
        let nameStart = index
        var nameEnd: Int? = nil
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if Self.isSpace(bytes[index]) {
                if nameEnd == nil { nameEnd = index }
                if bytes[index] == 0x0A { line += 1 }
            }
            index += 1
        }
        guard index < bytes.count else {
            let shown = Array(bytes[nameStart..<(nameEnd ?? index)].prefix(40))
            throw fail("the <\(Printable.text(Self.text(shown)))> tag is not closed (no '>')", line: tagLine)
        }
        let selfClosing = index > nameStart && bytes[index - 1] == UInt8(ascii: "/")
        let name = Array(bytes[nameStart..<(nameEnd ?? (selfClosing ? index - 1 : index))])
        index += 1
        guard !name.isEmpty else { throw fail("a '<' does not start an element", line: tagLine) }
        return Tag(name: name, selfClosing: selfClosing, line: tagLine)
    }

    /// Reads `</name>`, which must close `opened`.
    private mutating func endTag(_ name: String, opened: Tag) throws(Problem) {
        let close = Array("</\(name)".utf8)
        guard index < bytes.count, bytes[index...].starts(with: close) else {
            if index >= bytes.count { throw fail("<\(name)> (line \(opened.line)) is not closed") }
            throw fail("expected </\(name)> to close <\(name)> (line \(opened.line))")
        }
        index += close.count
        while index < bytes.count, Self.isSpace(bytes[index]) {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw fail("the </\(name)> tag is malformed") }
        index += 1
    }

    // MARK: Values

    /// An array or dictionary whose contents are being read.
    private struct Open {
        let tag: Tag
        let isDictionary: Bool
        var elements: [PropertyListValue] = []
        var entries: [(key: String, value: PropertyListValue)] = []
        var keys = RepeatedKeys<Int>()
        /// A dictionary's key whose value comes next.
        var key: String? = nil
        var keyLine = 0
        var name: String { isDictionary ? "dict" : "array" }
    }

    /// The value that `first` starts, read without recursion: an explicit stack of the open
    /// arrays and dictionaries (at most ``BinaryPropertyListCheck/maxDepth``), so the depth a
    /// file may nest costs no call stack (an app may read plists on a thread with a small one).
    private mutating func value(_ first: Tag) throws(Problem) -> PropertyListValue {
        var stack: [Open] = []
        var tag = first
        while true {
            var finished: PropertyListValue?
            if let leaf = try leaf(tag) {
                finished = leaf
            } else {
                // At most maxDepth levels of arrays and dictionaries, empty ones included, as the binary check allows.
                if stack.count + 1 > BinaryPropertyListCheck.maxDepth {
                    throw Problem(message: "too many nested arrays or dictionaries, failing on line \(tag.line)", line: nil)
                }
                let isDictionary = Self.same(tag.name, "dict")
                if tag.selfClosing {
                    finished = isDictionary ? .dictionary(PropertyListDictionary([])) : .array([])
                } else {
                    stack.append(Open(tag: tag, isDictionary: isDictionary))
                }
            }
            // Hands finished values to the open container, closes containers, and finds the next tag.
            while true {
                if let value = finished {
                    guard !stack.isEmpty else { return value }
                    let last = stack.count - 1
                    if stack[last].isDictionary {
                        stack[last].entries.append((key: stack[last].key ?? "", value: value))
                        stack[last].key = nil
                    } else {
                        stack[last].elements.append(value)
                    }
                    finished = nil
                }
                let last = stack.count - 1
                try skipMisc(prolog: false)
                guard index < bytes.count else { throw fail("<\(stack[last].name)> (line \(stack[last].tag.line)) is not closed") }
                if bytes[index...].starts(with: Array("</".utf8)) {
                    let open = stack.removeLast()
                    try endTag(open.name, opened: open.tag)
                    finished = try close(open)
                    continue
                }
                tag = stack[last].isDictionary ? try keyAndValueTag(&stack[last]) : try startTag()
                break
            }
        }
    }

    /// Reads a dictionary's `<key>` (checked against the keys before it) and the start tag of its value.
    private mutating func keyAndValueTag(_ open: inout Open) throws(Problem) -> Tag {
        let keyTag = try startTag()
        guard Self.same(keyTag.name, "key") else {
            throw fail("<\(Self.shown(keyTag.name))> stands where a <key> belongs inside <dict> (line \(open.tag.line))", line: keyTag.line)
        }
        let key = try text(keyTag)
        if let first = open.keys.same(as: key) {
            throw Problem(message: "duplicate key \(Printable.quoted(key)) in a <dict> (first at line \(first)): give each key once",
                          line: keyTag.line, isKeyProblem: true)
        }
        if let other = open.keys.lookalike(of: key) {
            throw Problem(message: "the keys \(Printable.quoted(other.key)) (line \(other.place)) and \(Printable.quoted(key)) in one <dict> are different bytes that look the same (canonically equivalent Unicode): the SDK reads them as two keys, this tool cannot keep them apart; rename or remove one",
                          line: keyTag.line, isKeyProblem: true)
        }
        open.keys.add(key, at: keyTag.line)
        try skipMisc(prolog: false)
        guard index < bytes.count, !bytes[index...].starts(with: Array("</".utf8)) else {
            throw fail("the value is missing for key \(Printable.quoted(key)) inside <dict>", line: keyTag.line)
        }
        let valueTag = try startTag()
        if Self.same(valueTag.name, "key") {
            throw fail("the value is missing for key \(Printable.quoted(key)) inside <dict>", line: keyTag.line)
        }
        open.key = key
        open.keyLine = keyTag.line
        return valueTag
    }

    /// The value of a closed array or dictionary.
    private func close(_ open: Open) throws(Problem) -> PropertyListValue {
        guard open.isDictionary else { return .array(open.elements) }
        // CoreFoundation turns a dictionary of one integer under CF$UID into a keyed archive's UID.
        if open.entries.count == 1, ExactText.same(open.entries[0].key, "CF$UID"), case .integer = open.entries[0].value {
            throw fail("a <dict> whose one key is CF$UID holding an <integer> is a keyed archive's reference (CoreFoundation reads it as one), not a dictionary", line: open.tag.line)
        }
        return .dictionary(PropertyListDictionary(open.entries))
    }

    /// The value of a leaf element; `nil` for `<dict>` and `<array>`.
    private mutating func leaf(_ tag: Tag) throws(Problem) -> PropertyListValue? {
        switch Self.text(tag.name) {
        case "dict", "array": return nil
        case "string": return .string(try text(tag))
        case "key": throw fail("a <key> stands where a value belongs (keys belong in a <dict>, each followed by its value)", line: tag.line)
        case "true", "false":
            if !tag.selfClosing {
                // CoreFoundation wants the end tag right away: no text, reference or CDATA.
                guard try text(tag, raw: true).isEmpty else { throw fail("<\(Self.text(tag.name))> holds text; write <\(Self.text(tag.name))/>", line: tag.line) }
            }
            return .bool(Self.same(tag.name, "true"))
        case "integer": return .integer(try integer(try text(tag, raw: true), line: tag.line))
        case "real": return .real(try real(try text(tag), line: tag.line))
        case "date":
            let written = try text(tag, raw: true)
            guard Self.isDate(written) else { throw fail("<date> \(Printable.quoted(written)) is not a date (write YYYY-MM-DDTHH:MM:SSZ)", line: tag.line) }
            return .date
        case "data":
            // CoreFoundation refuses an empty <data/> (and <date/>, <integer/>, <real/>).
            guard !tag.selfClosing else { throw fail("<data/> is empty; write <data></data> for no bytes", line: tag.line) }
            let written = try text(tag, raw: true)
            guard Self.isBase64(written) else { throw fail("<data> does not hold base64", line: tag.line) }
            return .data
        case "plist": throw fail("a <plist> stands inside another", line: tag.line)
        default: throw fail("unknown element <\(Self.shown(tag.name))> (a property list has dict, key, array, string, integer, real, true, false, date and data)", line: tag.line)
        }
    }

    /// The text of a `<string>`, `<key>` or other leaf up to its end tag: references decoded,
    /// CDATA kept as written; an element or a comment inside is an error.
    ///
    /// `raw` text (`<integer>`, `<date>`, `<data>`) is read as CoreFoundation reads it: bytes up
    /// to the end tag, no references and no CDATA (either is an error).
    private mutating func text(_ tag: Tag, raw: Bool = false) throws(Problem) -> String {
        if tag.selfClosing { return "" }
        var written: [UInt8] = []
        let name = Self.text(tag.name)
        while index < bytes.count {
            let byte = bytes[index]
            if raw, byte == UInt8(ascii: "&") || (byte == UInt8(ascii: "<") && bytes[index...].starts(with: Self.cdataStart)) {
                throw fail("<\(name)> holds a character reference or CDATA, which CoreFoundation's reader does not decode there; write the \(name) plainly")
            }
            if byte == UInt8(ascii: "&") {
                written.append(contentsOf: try reference())
                continue
            }
            if byte != UInt8(ascii: "<") {
                if byte == 0x0A { line += 1 }
                written.append(byte)
                index += 1
                continue
            }
            let rest = bytes[index...]
            if rest.starts(with: Self.commentStart) {
                // Foundation's reader refuses a comment inside text, and so the SDK's plist would not load.
                throw fail("<\(name)> holds a comment; a comment may stand between elements, not inside text")
            } else if rest.starts(with: Self.cdataStart) {
                let start = line
                index += Self.cdataStart.count
                let from = index
                guard try skip(past: Array("]]>".utf8)) else { throw fail("a CDATA section is not closed (no ']]>')", line: start) }
                written.append(contentsOf: bytes[from..<(index - 3)])
            } else if rest.starts(with: Array("</".utf8)) {
                try endTag(name, opened: tag)
                guard let decoded = String(validating: written, as: UTF8.self) else {
                    throw fail("<\(name)> holds bytes that are not UTF-8", line: tag.line)
                }
                // CoreFoundation's string conversion drops a leading byte order mark: the text would not be what it reads.
                guard !written.starts(with: [0xEF, 0xBB, 0xBF]) else {
                    throw fail("<\(name)> starts with U+FEFF (a byte order mark), which CoreFoundation's reader drops; remove it", line: tag.line)
                }
                return decoded
            } else {
                throw fail("<\(name)> holds an element; it may hold only text", line: line)
            }
        }
        throw fail("<\(name)> (line \(tag.line)) is not closed")
    }

    private static let cdataStart = Array("<![CDATA[".utf8)

    /// Decodes the `&…;` at `index` and moves past it.
    private mutating func reference() throws(Problem) -> [UInt8] {
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("an '&' starts no character reference (write &amp; for '&')")
        }
        let body = Array(bytes[(index + 1)..<end])
        index = end + 1
        switch Self.text(body) {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var digits = body[...]
            guard digits.first == UInt8(ascii: "#") else { throw fail("unknown character reference &\(Self.shown(body));") }
            digits = digits.dropFirst()
            let hex = digits.first == UInt8(ascii: "x")
            if hex { digits = digits.dropFirst() }
            // CoreFoundation reads at most eight digits.
            guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy({ Self.isDigit($0, radix: hex ? 16 : 10) }), let value = UInt32(Self.text(Array(digits)), radix: hex ? 16 : 10),
                  let scalar = Unicode.Scalar(value), value != 0 else {
                throw fail("the character reference &\(Self.shown(body)); names no character")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: Numbers and leaves

    private func integer(_ written: String, line: Int) throws(Problem) -> Int {
        var digits = Array(written.utf8)[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.starts(with: Array("0x".utf8)) || digits.starts(with: Array("0X".utf8)) {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ Self.isDigit($0, radix: radix) }),
              let magnitude = UInt64(String(decoding: digits, as: UTF8.self), radix: radix) else {
            throw fail("<integer> \(Printable.quoted(written)) is not an integer", line: line)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("<integer> \(Printable.quoted(written)) is out of range", line: line) }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        // CoreFoundation keeps a larger one as an unsigned 64-bit number, which no Int holds.
        guard magnitude <= UInt64(Int64.max) else { throw fail("<integer> \(Printable.quoted(written)) is out of range (above \(Int64.max))", line: line) }
        return Int(truncatingIfNeeded: magnitude)
    }

    /// A `<real>`: CoreFoundation's words for infinities and NaN (any case), or a decimal number
    /// `[+-]digits[.digits][e[+-]digits]` (a form both CoreFoundation's scanner and Swift read alike).
    private func real(_ written: String, line: Int) throws(Problem) -> Double {
        let words: [(String, Double)] = [("nan", .nan), ("+infinity", .infinity), ("-infinity", -.infinity), ("infinity", .infinity),
                                         ("-inf", -.infinity), ("inf", .infinity), ("+inf", .infinity)]
        if let word = words.first(where: { ExactText.sameIgnoringASCIICase($0.0, written) }) { return word.1 }
        var text = Array(written.utf8)[...]
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
        let whole = text.prefix { Self.isDigit($0, radix: 10) }
        text = text.dropFirst(whole.count)
        var fraction: ArraySlice<UInt8> = []
        if text.first == UInt8(ascii: ".") {
            text = text.dropFirst()
            fraction = text.prefix { Self.isDigit($0, radix: 10) }
            text = text.dropFirst(fraction.count)
        }
        var exponentOK = true
        if let e = text.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            text = text.dropFirst()
            if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
            let digits = text.prefix { Self.isDigit($0, radix: 10) }
            exponentOK = !digits.isEmpty
            text = text.dropFirst(digits.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty, exponentOK, text.isEmpty, let number = Double(written) else {
            throw fail("<real> \(Printable.quoted(written)) is not a number", line: line)
        }
        return number
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the one form property lists write.
    private static func isDate(_ written: String) -> Bool {
        let shape = Array("dddd-dd-ddTdd:dd:ddZ".utf8)
        let text = Array(written.utf8)
        guard text.count == shape.count else { return false }
        return zip(text, shape).allSatisfy { byte, expected in
            expected == UInt8(ascii: "d") ? isDigit(byte, radix: 10) : byte == expected
        }
    }

    private static func isBase64(_ written: String) -> Bool {
        var count = 0, padding = 0
        for byte in written.utf8 {
            if isSpace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else {
                guard padding == 0 else { return false }
                let letter = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                guard letter || isDigit(byte, radix: 10) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") else { return false }
            }
            count += 1
        }
        return padding <= 2 && count % 4 == 0
    }

    // MARK: Bytes

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNameEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || isSpace(byte) }

    private static func isDigit(_ byte: UInt8, radix: Int) -> Bool {
        if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { return true }
        guard radix == 16 else { return false }
        return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    private static func same(_ name: [UInt8], _ expected: String) -> Bool { name.elementsEqual(expected.utf8) }
    private static func text(_ name: [UInt8]) -> String { String(decoding: name, as: UTF8.self) }
    /// An element name or reference body from the input, made printable for a message.
    private static func shown(_ name: [UInt8]) -> String { Printable.text(text(name)) }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "(byte 0x\(String(byte, radix: 16, uppercase: true)))"
    }

}
