/// A JSON value, as ``JSONReader`` reads it and ``JSONWriter`` writes it.
///
/// Containers remember where the reader found each member and element
/// (``JSONPosition``), so formats built on top can name the line of a wrong
/// value. Positions are metadata: two values are equal when they denote the
/// same JSON, wherever they were read.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as written: nothing is rounded or coerced.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array(JSONArray)
    /// An object, its members in the order written.
    case object(JSONObject)

    /// What kind of value this is, for messages: "a string", "an object", "true".
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let number): "the number \(number.literal)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A line and column in a JSON text, both counted from 1.
///
/// The column counts characters (Unicode scalars), not bytes.
public struct JSONPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public let line: Int
    /// The column, from 1, in characters.
    public let column: Int

    /// Creates a position; both numbers count from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as compilers write it after a file name.
    public var description: String { "\(line):\(column)" }

    /// Whether `lhs` comes before `rhs` in the text (by line, then column).
    public static func < (lhs: JSONPosition, rhs: JSONPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A JSON number kept as its literal, so no value is silently rounded or converted.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written, e.g. `2`, `-0.5`, `1e3`.
    public let literal: String

    /// Wraps a literal the reader has already checked against JSON's grammar.
    package init(validLiteral literal: String) {
        self.literal = literal
    }

    /// A number from an integer.
    public init(_ value: Int) {
        literal = String(value)
    }

    /// The value as an `Int` when the literal is an integer (no fraction, no
    /// exponent) that fits; `nil` otherwise: `2.0` and `2e0` are not integers here.
    public var intValue: Int? {
        literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? nil : Int(literal)
    }

    /// The literal, as written.
    public var description: String { literal }
}

/// A JSON array and where each element starts.
public struct JSONArray: Sendable, Hashable, RandomAccessCollection {
    /// The elements, in order.
    public let elements: [JSONValue]
    /// Where each element starts, when read from text (same count as `elements`); empty for built values.
    public let positions: [JSONPosition]

    /// An array built in code, without positions.
    public init(_ elements: [JSONValue]) {
        self.elements = elements
        positions = []
    }

    package init(elements: [JSONValue], positions: [JSONPosition]) {
        self.elements = elements
        self.positions = positions
    }

    /// Where element `index` starts, when known.
    @inlinable
    public func position(at index: Int) -> JSONPosition? {
        positions.indices.contains(index) ? positions[index] : nil
    }

    /// The first element's index: 0.
    @inlinable
    public var startIndex: Int { elements.startIndex }
    /// One past the last element's index: the count.
    @inlinable
    public var endIndex: Int { elements.endIndex }
    /// The element at `index`.
    @inlinable
    public subscript(index: Int) -> JSONValue { elements[index] }

    /// Arrays are equal when their elements are, wherever they were read.
    public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool { lhs.elements == rhs.elements }
    /// Hashes the elements alone, as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

/// A JSON object: its members in the order written, keys unique.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair and where it was read.
    public struct Member: Sendable, Hashable {
        /// The key.
        public let key: String
        /// The value.
        public let value: JSONValue
        /// Where the key starts, when read from text.
        public let keyPosition: JSONPosition?
        /// Where the value starts, when read from text.
        public let valuePosition: JSONPosition?

        /// A member built in code, without positions.
        public init(_ key: String, _ value: JSONValue) {
            self.init(key: key, value: value, keyPosition: nil, valuePosition: nil)
        }

        /// A member with where its key and value were read.
        package init(key: String, value: JSONValue, keyPosition: JSONPosition?, valuePosition: JSONPosition?) {
            self.key = key
            self.value = value
            self.keyPosition = keyPosition
            self.valuePosition = valuePosition
        }

        /// Members are equal when keys and values are, wherever they were read.
        public static func == (lhs: Member, rhs: Member) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }
        /// Hashes the key and the value alone, as `==` compares them.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    /// The members, in the order written.
    public let members: [Member]

    /// An object built in code from key-value pairs, in order.
    ///
    /// Keys are meant to be unique; the reader guarantees it for objects it reads.
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        members = pairs.map { Member($0.key, $0.value) }
    }

    /// An object from members, in order.
    public init(members: [Member]) {
        self.members = members
    }

    /// The member called `key`, if any.
    /// - Complexity: O(n) in the number of members; objects here are small.
    /// Keys are matched byte for byte (UTF-8), not by Swift's canonical equivalence.
    public func member(_ key: String) -> Member? { members.first { ExactText.same($0.key, key) } }

    /// The value for `key`, if any.
    public subscript(key: String) -> JSONValue? { member(key)?.value }
}

/// Why a text is not the JSON the reader accepts, and exactly where.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and how to fix it where that is not obvious.
    public let message: String
    /// Where the problem is.
    public let position: JSONPosition

    /// Creates an error at `position`.
    package init(_ message: String, at position: JSONPosition) {
        self.message = Printable.text(message)
        self.position = position
    }

    /// `line L, column C: message`.
    public var description: String { "line \(position.line), column \(position.column): \(message)" }
}
