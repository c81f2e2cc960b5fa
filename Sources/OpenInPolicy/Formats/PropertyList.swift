#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property-list value, read with `PropertyListDecoder` (XML and binary)
/// and sorted into kinds so readers can check types exactly.
enum PropertyListValue {
    case dictionary(PropertyListDictionary)
    case array([PropertyListValue])
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date
    case data

    /// How a message names the value, in the plist's own words: `a <string> ("YES")`.
    var found: String {
        switch self {
        case .dictionary: "a <dict>"
        case .array: "an <array>"
        case .string(let text): "a <string> (\(JSONWriter.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)))"
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
struct PropertyListDictionary: Sequence {
    private let values: [ExactKey: PropertyListValue]
    /// The keys, in byte order.
    let keys: [String]

    init(_ entries: [(key: String, value: PropertyListValue)]) {
        var values: [ExactKey: PropertyListValue] = [:]
        for (key, value) in entries { values[ExactKey(key)] = value }
        self.values = values
        keys = values.keys.sorted().map(\.text)
    }

    /// The value whose key is exactly `key`, byte for byte.
    subscript(key: String) -> PropertyListValue? { values[ExactKey(key)] }

    func makeIterator() -> some IteratorProtocol<(key: String, value: PropertyListValue)> {
        keys.lazy.map { (key: $0, value: self.values[ExactKey($0)]!) }.makeIterator()
    }
}

/// Reading property lists: `PropertyListDecoder` does the parsing, this file the typing.
enum PropertyList {
    /// Reads an XML or binary property list.
    ///
    /// Hostile files are stopped before the parser sees them: a binary list
    /// must pass ``BinaryPropertyListCheck``; an XML list may not define
    /// entities (`<!ENTITY`), which a property list never needs, nor nest
    /// deeper than the parser may recurse. The third format, OpenStep text,
    /// is not read: it is neither kind. A key given twice in one dictionary
    /// is an error naming it and both places (the parser would keep one
    /// silently), as are two keys that differ in bytes but are canonically
    /// equivalent (Swift's `String` keys would merge them; the SDK would not).
    /// - Throws: ``FormatError`` with the parser's message and line, when it gives one.
    static func read<Bytes: Collection>(_ bytes: Bytes) throws(FormatError) -> PropertyListValue where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        let binary = bytes.starts(with: Array("bplist".utf8))
        if binary {
            do throws(BinaryPropertyListCheck.Problem) {
                try BinaryPropertyListCheck.check(bytes)
            } catch {
                throw FormatError("not a valid binary property list: \(error.message)")
            }
        } else if !looksLikeXML(bytes) {
            // The decoder would try its OpenStep text parser.
            throw FormatError("not a valid property list (XML or binary): it starts with neither '<' nor 'bplist' (OpenStep text property lists are not read; convert one with 'plutil -convert xml1')")
        } else if let line = line(of: Array("<!ENTITY".utf8), in: bytes) {
            throw FormatError("entity definitions (<!ENTITY …>) are not allowed in a property list", line: line)
        } else {
            do throws(PropertyListKeyCheck.Problem) {
                try PropertyListKeyCheck.checkXML(bytes)
            } catch where error.tooDeep {
                throw FormatError("not a valid property list (XML or binary): \(error.message)")
            } catch {
                throw FormatError("not a valid property list: \(error.message)", line: error.line)
            }
        }
        var format = PropertyListDecoder.PropertyListFormat.xml
        let decoded: DecodedValue
        do {
            decoded = try PropertyListDecoder().decode(DecodedValue.self, from: Data(bytes), format: &format)
        } catch {
            if binary { throw FormatError("not a valid binary property list: it is truncated or corrupt") }
            throw parseError(error)
        }
        guard format == .xml || format == .binary else {
            throw FormatError("not a valid property list (XML or binary): this is an OpenStep text property list; convert it with 'plutil -convert xml1'")
        }
        return decoded.value
    }

    /// Whether `bytes` start like an XML document: `<` after an optional UTF-8 byte order mark and
    /// whitespace, or a UTF-16 byte order mark.
    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        let rest = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return rest.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "<")
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

    /// The parser's message ("Value missing for key inside <dict> at line 3") as ours: the line apart, lowercase start.
    private static func parseError(_ error: any Error) -> FormatError {
        var detail = "it is not a property list"
        if case DecodingError.dataCorrupted(let context) = error {
            detail = context.debugDescription
            if let underlying = context.underlyingError as? CocoaError,
               let description = underlying.userInfo["NSDebugDescription"] as? String {
                detail = description
            }
        }
        var line: Int? = nil
        if let range = detail.ranges(of: " at line ").last, let number = Int(detail[range.upperBound...]) {
            line = number
            detail = String(detail[..<range.lowerBound])
        }
        if let first = detail.first { detail = first.lowercased() + detail.dropFirst() }
        return FormatError("not a valid property list (XML or binary): \(detail)", line: line)
    }
}

/// Any property-list value, decoded by trying each kind in turn.
private struct DecodedValue: Decodable {
    let value: PropertyListValue

    /// A dictionary key of any spelling.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var entries: [(key: String, value: PropertyListValue)] = []
            for key in keyed.allKeys {
                entries.append((key: key.stringValue, value: try keyed.decode(DecodedValue.self, forKey: key).value))
            }
            value = .dictionary(PropertyListDictionary(entries))
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [PropertyListValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(DecodedValue.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        // Booleans first: the decoder gives no integer as a Bool, nor a Bool as an integer.
        if let flag = try? single.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? single.decode(Int.self) {
            value = .integer(number)
        } else if let number = try? single.decode(UInt64.self) {
            value = .integer(Int(truncatingIfNeeded: number))
        } else if let number = try? single.decode(Double.self) {
            value = .real(number)
        } else if let text = try? single.decode(String.self) {
            value = .string(text)
        } else if (try? single.decode(Date.self)) != nil {
            value = .date
        } else {
            _ = try single.decode(Data.self)
            value = .data
        }
    }
}
