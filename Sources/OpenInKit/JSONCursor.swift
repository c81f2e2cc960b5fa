/// A value inside a JSON document with its key path and position, for typed
/// reading with errors that say what, where and how to fix it.
package struct JSONCursor {
    /// The value.
    package let value: JSONValue
    /// The key path from the document's root: `device.schemeHandlers.foo`, `openInWhitelist[2]`.
    ///
    /// Made when asked: a member's or element's cursor keeps its parent's path and its own key or
    /// index, so reading an object of many members makes the parent's path once and no path per
    /// member (a source keeps the two, ``place``). Ask once where a path is used many times.
    package var path: String { Self.path(parent, step) }
    /// Where the value starts, when read from text.
    package let position: JSONPosition?
    /// The parent's key path (the whole path when ``step`` is `.none`).
    private let parent: String
    /// The value's key or index under ``parent``.
    private let step: Step

    /// A value's place under its parent.
    package enum Step: Sendable {
        /// The parent path is the value's own.
        case none
        /// A member's key.
        case key(String)
        /// An element's index.
        case index(Int)
    }

    package init(_ value: JSONValue, path: String = "", position: JSONPosition? = nil) {
        self.init(value, parent: path, step: .none, position: position)
    }

    package init(_ value: JSONValue, parent: String, step: Step, position: JSONPosition?) {
        self.value = value
        self.parent = parent
        self.step = step
        self.position = position
    }

    /// The key path of a value at `step` under `parent`.
    package static func path(_ parent: String, _ step: Step) -> String {
        switch step {
        case .none: parent
        case .key(let key): parent.isEmpty ? key : "\(parent).\(key)"
        case .index(let index): "\(parent)[\(index)]"
        }
    }

    /// The parent path and step, for a source that keeps them rather than the path (``path`` made when named).
    package var place: (parent: String, step: Step) { (parent, step) }

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
        result.fields.reserveCapacity(object.members.count)
        let path = self.path
        for member in object.members {
            guard ExactText.isOne(member.key, of: allowed) else {
                let suggestion = Suggestion.phrase(for: member.key, among: allowed)
                let nonASCII = ExactText.asciiProblem(in: member.key).map { " (\($0))" } ?? ""
                throw FormatError("\(Self.path(path, .key(member.key))): unknown key\(nonASCII).\(suggestion) Known keys: \(allowed.joined(separator: ", "))",
                                  at: member.keyPosition)
            }
            result.fields.append((member.key, JSONCursor(member.value, parent: path, step: .key(member.key), position: member.valuePosition)))
        }
        return result
    }

    /// Every member of an object, without checking keys (for maps such as `config`).
    package func anyMembers(what: String) throws(FormatError) -> [(key: String, value: JSONCursor, keyPosition: JSONPosition?)] {
        guard case .object(let object) = value else { throw error("must be an object (\(what)), not \(found)") }
        let path = self.path
        return object.members.map { member in
            (member.key, JSONCursor(member.value, parent: path, step: .key(member.key), position: member.valuePosition), member.keyPosition)
        }
    }

    /// The elements of an array as cursors.
    package func elements(what: String) throws(FormatError) -> [JSONCursor] {
        guard case .array(let array) = value else { throw error("must be an array (\(what)), not \(found)") }
        let path = self.path
        return array.indices.map { JSONCursor(array[$0], parent: path, step: .index($0), position: array.position(at: $0)) }
    }

    /// One element of an array as a cursor (as ``elements(what:)`` makes it), or `nil` when there is no such element.
    package func element(_ index: Int) -> JSONCursor? {
        guard case .array(let array) = value, array.indices.contains(index) else { return nil }
        return JSONCursor(array[index], parent: path, step: .index(index), position: array.position(at: index))
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
