/// A value inside a JSON document with its key path and position, for typed
/// reading with errors that say what, where and how to fix it.
package struct JSONCursor {
    /// The value.
    package let value: JSONValue
    /// The key path from the document's root: `device.schemeHandlers.foo`, `openInWhitelist[2]`.
    package let path: String
    /// Where the value starts, when read from text.
    package let position: JSONPosition?

    package init(_ value: JSONValue, path: String = "", position: JSONPosition? = nil) {
        self.value = value
        self.path = path
        self.position = position
    }

    /// An error about this value, located at it.
    package func error(_ problem: String) -> FormatError {
        FormatError(path.isEmpty ? problem : "\(path): \(problem)", at: position)
    }

    /// How a message names the value: `the string "yes"`, `the number 2.0`, `an object`.
    package var found: String {
        if case .string(let text) = value {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "the string \(JSONWriter.quoted(shown))"
        }
        return value.kindDescription
    }

    package func string() throws(FormatError) -> String {
        guard case .string(let text) = value else { throw error("must be a string, not \(found)") }
        return text
    }

    package func bool() throws(FormatError) -> Bool {
        guard case .bool(let flag) = value else { throw error("must be true or false, not \(found)") }
        return flag
    }

    /// The object's members as cursors, in order, after checking every key is allowed.
    /// - Throws: for a value that is not an object, or an unknown key (with "Did you mean …?").
    package func members(allowed: [String], what: String) throws(FormatError) -> JSONFields {
        guard case .object(let object) = value else { throw error("must be an object (\(what)), not \(found)") }
        var result = JSONFields()
        for member in object.members {
            let childPath = path.isEmpty ? member.key : "\(path).\(member.key)"
            guard ExactText.isOne(member.key, of: allowed) else {
                let suggestion = Suggestion.phrase(for: member.key, among: allowed)
                let nonASCII = ExactText.asciiProblem(in: member.key).map { " (\($0))" } ?? ""
                throw FormatError("\(childPath): unknown key\(nonASCII).\(suggestion) Known keys: \(allowed.joined(separator: ", "))",
                                  at: member.keyPosition)
            }
            result.fields.append((member.key, JSONCursor(member.value, path: childPath, position: member.valuePosition)))
        }
        return result
    }

    /// Every member of an object, without checking keys (for maps such as `config`).
    package func anyMembers(what: String) throws(FormatError) -> [(key: String, value: JSONCursor, keyPosition: JSONPosition?)] {
        guard case .object(let object) = value else { throw error("must be an object (\(what)), not \(found)") }
        return object.members.map { member in
            (member.key, JSONCursor(member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)", position: member.valuePosition),
             member.keyPosition)
        }
    }

    /// The elements of an array as cursors.
    package func elements(what: String) throws(FormatError) -> [JSONCursor] {
        guard case .array(let array) = value else { throw error("must be an array (\(what)), not \(found)") }
        return array.indices.map { JSONCursor(array[$0], path: "\(path)[\($0)]", position: array.position(at: $0)) }
    }

    /// One element of an array as a cursor (as ``elements(what:)`` makes it), or `nil` when there is no such element.
    package func element(_ index: Int) -> JSONCursor? {
        guard case .array(let array) = value, array.indices.contains(index) else { return nil }
        return JSONCursor(array[index], path: "\(path)[\(index)]", position: array.position(at: index))
    }

    /// An array of strings.
    package func strings(what: String) throws(FormatError) -> [(text: String, cursor: JSONCursor)] {
        var result: [(String, JSONCursor)] = []
        for element in try elements(what: what) {
            result.append((try element.string(), element))
        }
        return result
    }
}

/// An object's members, each under a known key (the reader has refused repeats), looked up by
/// the key's bytes.
///
/// An array searched in order, not a dictionary: an object of known keys holds a few of them,
/// and the first `[String: JSONCursor]` a process made cost more than a small policy's reading.
package struct JSONFields {
    package fileprivate(set) var fields: [(key: String, cursor: JSONCursor)] = []

    /// The member whose key is exactly `key`, if the object has it.
    package subscript(key: String) -> JSONCursor? {
        fields.first { ExactText.same($0.key, key) }?.cursor
    }
}
