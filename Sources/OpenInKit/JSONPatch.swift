/// An RFC 6901 JSON Pointer: the reference tokens from the document's root to one value.
///
/// Written `/containerPolicies/0/openInPolicy`; in a token `~` is written `~0` and `/` is written `~1`.
/// An array index is a token of digits without a leading zero; `-` names the position after an
/// array's last element (where `add` appends).
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, root first; empty for the whole document.
    package let tokens: [String]

    /// A pointer from unescaped tokens.
    package init(_ tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses a pointer's text.
    /// - Throws: ``JSONPatchError`` for text that does not start with `/` (and is not empty), or a `~`
    ///   followed by anything but `0` or `1`.
    package init(parsing text: String) throws(JSONPatchError) {
        if text.isEmpty {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { throw JSONPatchError("\(JSONWriter.quoted(text)) is not a JSON Pointer: it must start with /") }
        var result: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escape = false
            for scalar in raw.unicodeScalars {
                if escape {
                    switch scalar {
                    case "0": token.unicodeScalars.append("~")
                    case "1": token.unicodeScalars.append("/")
                    default: throw JSONPatchError("\(JSONWriter.quoted(text)): ~ must be followed by 0 or 1 in a JSON Pointer")
                    }
                    escape = false
                } else if scalar == "~" {
                    escape = true
                } else {
                    token.unicodeScalars.append(scalar)
                }
            }
            if escape { throw JSONPatchError("\(JSONWriter.quoted(text)): ~ must be followed by 0 or 1 in a JSON Pointer") }
            result.append(token)
        }
        tokens = result
    }

    /// The pointer one token further down.
    package func appending(_ token: String) -> JSONPointer { JSONPointer(tokens + [token]) }

    /// The pointer one index further down.
    package func appending(_ index: Int) -> JSONPointer { JSONPointer(tokens + [String(index)]) }

    /// The pointer's text, each token escaped (`~` as `~0`, `/` as `~1`).
    package var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            for scalar in token.unicodeScalars {
                switch scalar {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// Pointers compare by their tokens' bytes, not by Swift's canonical equivalence.
    package static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.count == rhs.tokens.count && zip(lhs.tokens, rhs.tokens).allSatisfy { ExactText.same($0, $1) }
    }

    package func hash(into hasher: inout Hasher) {
        for token in tokens { hasher.combine(Array(token.utf8)) }
    }

    /// The array index a token names, when it is one: digits, no leading zero.
    package static func index(_ token: String) -> Int? {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes.count == 1 || bytes[0] != 0x30 else { return nil }
        return Int(token)
    }
}

/// Why a JSON Patch cannot be applied, or a pointer does not resolve.
package struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package let message: String

    package init(_ message: String) {
        self.message = Printable.text(message)
    }

    package var description: String { message }
}

/// One operation of an RFC 6902 JSON Patch: `add`, `remove` or `replace` (the three a fix needs).
package struct JSONPatchOperation: Sendable, Hashable {
    /// The operation's name.
    package enum Kind: String, Sendable, Hashable {
        case add, remove, replace
    }

    /// What to do.
    package let op: Kind
    /// Where.
    package let path: JSONPointer
    /// The value `add` and `replace` put there; `nil` for `remove`.
    package let value: JSONValue?

    /// `{"op": "add", "path", "value"}`: a new member, an array element inserted (`-`: appended).
    package static func add(_ path: JSONPointer, _ value: JSONValue) -> JSONPatchOperation { JSONPatchOperation(op: .add, path: path, value: value) }
    /// `{"op": "remove", "path"}`.
    package static func remove(_ path: JSONPointer) -> JSONPatchOperation { JSONPatchOperation(op: .remove, path: path, value: nil) }
    /// `{"op": "replace", "path", "value"}`: the value there, which must exist.
    package static func replace(_ path: JSONPointer, _ value: JSONValue) -> JSONPatchOperation { JSONPatchOperation(op: .replace, path: path, value: value) }

    /// The operation as RFC 6902 writes it.
    package var json: JSONValue {
        var members = [JSONObject.Member("op", .string(op.rawValue)), JSONObject.Member("path", .string(path.description))]
        if let value { members.append(JSONObject.Member("value", value)) }
        return .object(JSONObject(members: members))
    }

    /// Reads one operation as RFC 6902 writes it (only `add`, `remove`, `replace`).
    package init(json: JSONValue) throws(JSONPatchError) {
        guard case .object(let object) = json, case .string(let name)? = object["op"], case .string(let pointer)? = object["path"] else {
            throw JSONPatchError("a JSON Patch operation is an object with \"op\" and \"path\" strings")
        }
        guard let kind = Kind.allCases.first(where: { ExactText.same($0.rawValue, name) }) else {
            throw JSONPatchError("unsupported JSON Patch op \(JSONWriter.quoted(name)): add, remove or replace")
        }
        if kind != .remove, object["value"] == nil { throw JSONPatchError("\(name) needs a \"value\"") }
        self.init(op: kind, path: try JSONPointer(parsing: pointer), value: kind == .remove ? nil : object["value"])
    }

    package init(op: Kind, path: JSONPointer, value: JSONValue?) {
        self.op = op
        self.path = path
        self.value = value
    }
}

extension JSONPatchOperation.Kind: CaseIterable {}

/// Applying RFC 6902 patches to ``JSONValue``s, and finding where a pointer's value is in the text it was read from.
package enum JSONPatch {
    /// `document` with `operations` applied in order (RFC 6902 section 5: all or nothing).
    /// - Throws: ``JSONPatchError`` when a pointer does not resolve, `add` targets a member that has
    ///   no parent, `replace`/`remove` name a value that is not there, or an index is out of range.
    package static func apply(_ operations: [JSONPatchOperation], to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        for operation in operations { result = try apply(operation, to: result, depth: 0) }
        return result
    }

    /// The patch as a JSON array of operations.
    package static func json(_ operations: [JSONPatchOperation]) -> JSONValue { .array(JSONArray(operations.map(\.json))) }

    package static func apply(_ operation: JSONPatchOperation, to value: JSONValue, depth: Int) throws(JSONPatchError) -> JSONValue {
        let tokens = operation.path.tokens
        if depth == tokens.count {
            // The root itself (RFC 6902: add/replace of "" replaces the document).
            guard operation.op != .remove else { throw JSONPatchError("cannot remove the whole document") }
            return operation.value!
        }
        let token = tokens[depth]
        let last = depth == tokens.count - 1
        switch value {
        case .object(let object):
            let position = object.members.firstIndex { ExactText.same($0.key, token) }
            var members = object.members
            if last {
                switch operation.op {
                case .add:
                    if let position {
                        members[position] = JSONObject.Member(key: token, value: operation.value!, keyPosition: members[position].keyPosition, valuePosition: members[position].valuePosition)
                    } else {
                        members.append(JSONObject.Member(token, operation.value!))
                    }
                case .replace:
                    guard let position else { throw missing(operation.path, depth) }
                    members[position] = JSONObject.Member(key: token, value: operation.value!, keyPosition: members[position].keyPosition, valuePosition: members[position].valuePosition)
                case .remove:
                    guard let position else { throw missing(operation.path, depth) }
                    members.remove(at: position)
                }
                return .object(JSONObject(members: members))
            }
            guard let position else { throw missing(operation.path, depth) }
            let member = members[position]
            members[position] = JSONObject.Member(key: member.key, value: try apply(operation, to: member.value, depth: depth + 1),
                                                  keyPosition: member.keyPosition, valuePosition: member.valuePosition)
            return .object(JSONObject(members: members))
        case .array(let array):
            var elements = array.elements
            var positions = array.positions
            if last, operation.op == .add {
                let index = token == "-" ? elements.count : JSONPointer.index(token)
                guard let index, index <= elements.count else { throw JSONPatchError("\(operation.path): index \(token) is out of range (the array holds \(elements.count))") }
                elements.insert(operation.value!, at: index)
                if !positions.isEmpty { positions.insert(positions[max(0, min(index, positions.count - 1))], at: index) }
                return .array(JSONArray(elements: elements, positions: positions))
            }
            guard let index = JSONPointer.index(token), index < elements.count else {
                throw JSONPatchError("\(operation.path): index \(token) is out of range (the array holds \(elements.count))")
            }
            if last {
                if operation.op == .remove {
                    elements.remove(at: index)
                    if !positions.isEmpty { positions.remove(at: index) }
                } else {
                    elements[index] = operation.value!
                }
            } else {
                elements[index] = try apply(operation, to: elements[index], depth: depth + 1)
            }
            return .array(JSONArray(elements: elements, positions: positions))
        default:
            throw JSONPatchError("\(operation.path): \(JSONPointer(Array(tokens.prefix(depth)))) is \(value.kindDescription), which has no member \(JSONWriter.quoted(token))")
        }
    }

    static func missing(_ path: JSONPointer, _ depth: Int) -> JSONPatchError {
        JSONPatchError("\(path): \(JSONPointer(Array(path.tokens.prefix(depth + 1)))) is not in the document")
    }

    /// Where the value `pointer` names starts in the text `document` was read from; for a pointer that
    /// goes past the values the document has (a member to add, `-`), where its deepest existing
    /// container starts. `nil` only for a document built in code.
    package static func position(of pointer: JSONPointer, in document: JSONValue, root: JSONPosition = JSONPosition(line: 1, column: 1)) -> JSONPosition? {
        var value = document
        var position: JSONPosition? = root
        for token in pointer.tokens {
            switch value {
            case .object(let object):
                guard let member = object.member(token) else { return position }
                value = member.value
                position = member.valuePosition ?? position
            case .array(let array):
                guard let index = JSONPointer.index(token), index < array.count else { return position }
                value = array[index]
                position = array.position(at: index) ?? position
            default:
                return position
            }
        }
        return position
    }
}
