/// A property-list value, read by ``XMLPropertyListReader`` or
/// ``BinaryPropertyListReader`` and sorted into kinds so readers can check types exactly.
package enum PropertyListValue {
    case dictionary(PropertyListDictionary)
    case array([PropertyListValue])
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date
    case data

    /// How a message names the value, in the plist's own words: `a <string> ("YES")`.
    package var found: String {
        switch self {
        case .dictionary: "a <dict>"
        case .array: "an <array>"
        case .string(let text): "a <string> (\(Printable.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)))"
        case .bool(let flag): flag ? "<true/>" : "<false/>"
        case .integer(let number): "an <integer> (\(number))"
        case .real(let number): "a <real> (\(number))"
        case .date: "a <date>"
        case .data: "a <data>"
        }
    }
}

/// A property list's `<dict>`: keys looked up by their exact bytes, as the SDK's `NSDictionary` does.
///
/// Iterating gives the entries in byte order of their keys.
package struct PropertyListDictionary: Sequence {
    private let values: [ExactKey: PropertyListValue]
    /// The keys, in byte order.
    package let keys: [String]

    package init(_ entries: [(key: String, value: PropertyListValue)]) {
        var values: [ExactKey: PropertyListValue] = [:]
        for (key, value) in entries { values[ExactKey(key)] = value }
        self.values = values
        keys = values.keys.sorted().map(\.text)
    }

    /// The value whose key is exactly `key`, byte for byte.
    package subscript(key: String) -> PropertyListValue? { values[ExactKey(key)] }

    package func makeIterator() -> some IteratorProtocol<(key: String, value: PropertyListValue)> {
        keys.lazy.map { (key: $0, value: self.values[ExactKey($0)]!) }.makeIterator()
    }
}

/// Reading property lists, XML or binary, with the project's own readers (no Foundation).
package enum PropertyList {
    /// Reads an XML or binary property list.
    ///
    /// The rule for both formats: read exactly what CoreFoundation reads, or refuse the file.
    /// Hostile files are stopped before the readers build anything: a binary
    /// list (header `bplist0`) must pass ``BinaryPropertyListCheck``; an XML list may not define
    /// entities (`<!ENTITY`), which a property list never needs, nor nest
    /// deeper than ``BinaryPropertyListCheck/maxDepth``. The third format,
    /// OpenStep text, is not read: it is neither kind. A key given twice in
    /// one dictionary is an error naming it and both places, as are two keys
    /// that differ in bytes but are canonically equivalent (the SDK reads
    /// them as two keys; tools built on Swift's `String` keys merge them).
    /// - Throws: ``FormatError`` with the reader's message and line, when it gives one.
    package static func read<Bytes: Collection>(_ bytes: Bytes) throws(FormatError) -> PropertyListValue where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        // CoreFoundation reads `bplist0` and any one byte as binary; anything else after `bplist` it cannot read.
        if bytes.starts(with: Array("bplist".utf8)), !bytes.starts(with: Array("bplist0".utf8)) {
            throw FormatError("not a valid binary property list: its header \(Printable.quoted(String(decoding: bytes.prefix(8), as: UTF8.self))) is not 'bplist0…' (only version 0 binary property lists are read, as CoreFoundation reads them); convert the file with 'plutil -convert binary1'")
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            do throws(BinaryPropertyListCheck.Problem) {
                try BinaryPropertyListCheck.check(bytes)
                return try BinaryPropertyListReader.read(bytes)
            } catch {
                throw FormatError("not a valid binary property list: \(error.message)")
            }
        }
        guard looksLikeXML(bytes) else {
            // The decoder would try its OpenStep text parser.
            throw FormatError("not a valid property list (XML or binary): it starts with neither '<' nor 'bplist' (OpenStep text property lists are not read; convert one with 'plutil -convert xml1')")
        }
        do throws(XMLPropertyListReader.Problem) {
            return try XMLPropertyListReader.read(bytes)
        } catch where error.standsAlone {
            throw FormatError(error.message, line: error.line)
        } catch where error.isKeyProblem {
            throw FormatError("not a valid property list: \(error.message)", line: error.line)
        } catch {
            throw FormatError("not a valid property list (XML or binary): \(error.message)", line: error.line)
        }
    }

    /// Whether `bytes` start like an XML document: `<` after an optional UTF-8 byte order mark and
    /// whitespace, or a UTF-16 byte order mark.
    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        let rest = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return rest.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "<")
    }
}
