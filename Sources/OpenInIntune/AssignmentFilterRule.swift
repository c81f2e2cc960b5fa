import OpenInCore
import OpenInKit

/// A managed-app property a filter rule may name (`app.<name>`), as Microsoft Learn's "App and device
/// properties, operators, and rule editing when creating assignment filters" lists them under
/// "Managed app properties".
package enum FilterProperty: String, Sendable, CaseIterable {
    case deviceManagementType, appVersion, deviceManufacturer, deviceModel, osVersion, operatingSystemVersion

    /// `app.<name>`, as a rule writes it.
    package var spelled: String { "app.\(rawValue)" }

    /// The operators the reference lists for the property.
    var operators: [FilterOperator] {
        switch self {
        case .deviceManagementType: [.eq, .ne]
        case .operatingSystemVersion: [.eq, .ne, .gt, .ge, .lt, .le]
        default: [.eq, .ne, .in, .notIn, .startsWith, .contains, .notContains]
        }
    }
}

/// An operator of the filter rule language (each may be written with or without its leading dash).
enum FilterOperator: String, Sendable, CaseIterable {
    case eq, ne, `in`, notIn, startsWith, contains, notContains, gt, ge, lt, le

    /// `-name`, as messages show it.
    package var spelled: String { "-\(rawValue)" }
}

/// The value on the right of a clause.
enum FilterValue: Sendable, Hashable {
    /// A double-quoted string (or, for `operatingSystemVersion`, a bare version).
    case text(String)
    /// `["a","b"]`, for `-in` and `-notIn`.
    case list([String])
    /// `Null` or `$Null`, for `-eq` and `-ne`.
    case null
}

/// One comparison: `app.<property> <operator> <value>`.
struct FilterClause: Sendable, Hashable {
    package let property: FilterProperty
    package let op: FilterOperator
    package let value: FilterValue
    /// For `operatingSystemVersion`, the value read as a version (`nil` for `Null`).
    let version: IntuneSDKVersion?
}

/// A parsed rule: clauses joined by `-and` or `-or`, grouped by parentheses.
indirect enum FilterExpression: Sendable, Hashable {
    case clause(FilterClause)
    /// Every part holds (`-and`).
    case all([FilterExpression])
    /// Some part holds (`-or`).
    case any([FilterExpression])
}

/// Parses the managed-app filter rule language: one pass over the rule's bytes, nesting bounded by
/// ``maximumDepth`` (counted before descending, so no rule can exhaust the stack).
///
/// Precedence: Microsoft's reference states none between `-and` and `-or`, so a group that mixes
/// them without parentheses is refused rather than read one way.
struct FilterRuleParser {
    /// The deepest nesting of parentheses accepted.
    static let maximumDepth = 32

    /// Why the rule is refused and where: the 1-based character in the rule.
    package struct Failure: Error, Sendable {
        package let message: String
        package let character: Int
    }

    private let text: String
    private let bytes: [UInt8]
    private var index = 0

    private init(_ rule: String) {
        text = rule
        bytes = Array(rule.utf8)
    }

    /// Parses `rule`.
    /// - Throws: ``Failure`` naming what is wrong, where, and the fix.
    /// - Complexity: O(n) in the rule's length.
    static func parse(_ rule: String) throws(Failure) -> FilterExpression {
        var parser = FilterRuleParser(rule)
        parser.skipSpace()
        if parser.atEnd { throw parser.failure("the rule is empty: write a clause such as (app.deviceManagementType -eq \"Unmanaged\")") }
        let expression = try parser.expression(depth: 0)
        parser.skipSpace()
        if !parser.atEnd {
            if parser.bytes[parser.index] == UInt8(ascii: ")") {
                throw parser.failure("')' closes no '(': remove it or add the '(' it closes")
            }
            throw parser.failure("unexpected \(parser.describeHere()) after a complete clause: join clauses with -and or -or")
        }
        return expression
    }

    private var atEnd: Bool { index >= bytes.count }

    /// The 1-based character (Unicode scalar) at byte offset `offset`.
    private func character(at offset: Int) -> Int {
        String(decoding: bytes[..<min(offset, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
    }

    private func failure(_ message: String, at offset: Int? = nil) -> Failure {
        Failure(message: message, character: character(at: offset ?? index))
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// What is at the current position, for messages: a word, a character, or a non-ASCII scalar by name.
    private func describeHere() -> String {
        guard !atEnd else { return "the end of the rule" }
        if bytes[index] >= 0x80 {
            let scalar = String(decoding: bytes[index...].prefix(4), as: UTF8.self).unicodeScalars.first!
            return "\(ExactText.describe(scalar)), which is not ASCII (a look-alike of \(lookalike(scalar))?)"
        }
        if isWordByte(bytes[index]) || bytes[index] == UInt8(ascii: "-") {
            var end = index + 1
            while end < bytes.count, isWordByte(bytes[end]), end - index < 40 { end += 1 }
            return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
        }
        return "'\(Character(Unicode.Scalar(bytes[index])))'"
    }

    /// The ASCII character a non-ASCII scalar is likely meant as.
    private func lookalike(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x2010...0x2015, 0x2212, 0xFE63, 0xFF0D: "'-'"
        case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0xFF02: "'\"'"
        case 0x00A0, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: "a space"
        case 0xFF08: "'('"
        case 0xFF09: "')'"
        default: "an ASCII character"
        }
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$")
    }

    /// A word (letters, digits, `.`, `_`, `$`), possibly empty.
    private mutating func word() -> String {
        let start = index
        while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Terms joined by one connective; stops before `)` or the end.
    private mutating func expression(depth: Int) throws(Failure) -> FilterExpression {
        var parts = [try term(depth: depth)]
        var connective: (isAnd: Bool, spelled: String)? = nil
        while true {
            skipSpace()
            if atEnd || bytes[index] == UInt8(ascii: ")") { break }
            let start = index
            let dash = bytes[index] == UInt8(ascii: "-")
            if dash { index += 1 }
            let name = word()
            let lowered = ExactText.asciiLowercased(name)
            guard lowered == "and" || lowered == "or" else {
                index = start
                throw failure("unexpected \(describeHere()) after a complete clause: join clauses with -and or -or (or and, or), or end the rule")
            }
            let spelled = (dash ? "-" : "") + name
            let isAnd = lowered == "and"
            if let connective, connective.isAnd != isAnd {
                throw failure("'\(spelled)' follows '\(connective.spelled)' in one group: Microsoft's filter reference does not say whether -and binds tighter than -or, so a rule that mixes them must group them with parentheses, such as (A -and B) -or C", at: start)
            }
            connective = (isAnd, spelled)
            parts.append(try term(depth: depth))
        }
        guard let connective else { return parts[0] }
        return connective.isAnd ? .all(parts) : .any(parts)
    }

    /// `(expression)` or a clause.
    private mutating func term(depth: Int) throws(Failure) -> FilterExpression {
        skipSpace()
        guard !atEnd else { throw failure("the rule ends where a clause should start: write app.<property> <operator> <value>") }
        if bytes[index] == UInt8(ascii: "(") {
            let open = index
            guard depth < Self.maximumDepth else {
                throw failure("parentheses nest more than \(Self.maximumDepth) deep: the reader refuses deeper rules; remove the redundant parentheses", at: open)
            }
            index += 1
            let inner = try expression(depth: depth + 1)
            skipSpace()
            guard !atEnd, bytes[index] == UInt8(ascii: ")") else {
                throw failure("the '(' at character \(character(at: open)) is never closed: add ')'", at: atEnd ? bytes.count : index)
            }
            index += 1
            return inner
        }
        return .clause(try clause())
    }

    private mutating func clause() throws(Failure) -> FilterClause {
        let start = index
        let name = word()
        guard !name.isEmpty else { throw failure("expected a property such as app.deviceModel, found \(describeHere())") }
        let known = FilterProperty.allCases.map(\.spelled)
        guard let property = FilterProperty.allCases.first(where: { ExactText.sameIgnoringASCIICase($0.spelled, name) }) else {
            let lowered = ExactText.asciiLowercased(name)
            if lowered.hasPrefix("device.") {
                throw failure("\(name) is a managed-device property: app protection policies take managed-app filters, whose properties are \(known.joined(separator: ", "))", at: start)
            }
            if !atEnd, bytes[index] >= 0x80 { throw failure("\(describeHere()) inside the property name '\(name)…': write it in ASCII") }
            throw failure("unknown property '\(name)': managed-app filters use \(known.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: known))", at: start)
        }
        skipSpace()
        let opStart = index
        let dash = !atEnd && bytes[index] == UInt8(ascii: "-")
        if dash { index += 1 }
        let opName = word()
        guard !opName.isEmpty else {
            throw failure("expected an operator after \(property.spelled), found \(describeHere()): use \(property.operators.map(\.spelled).joined(separator: ", "))", at: index)
        }
        if !atEnd, bytes[index] >= 0x80 { throw failure("\(describeHere()) inside the operator '\(opName)…': write it in ASCII") }
        let allNames = FilterOperator.allCases.map(\.rawValue)
        guard let op = FilterOperator.allCases.first(where: { ExactText.sameIgnoringASCIICase($0.rawValue, opName) }) else {
            let spelled = (dash ? "-" : "") + opName
            throw failure("unknown operator '\(spelled)': \(property.spelled) takes \(property.operators.map(\.spelled).joined(separator: ", ")).\(Suggestion.phrase(for: opName, among: allNames))", at: opStart)
        }
        guard property.operators.contains(op) else {
            throw failure("\(property.spelled) does not take \(op.spelled): Microsoft's filter reference lists \(property.operators.map(\.spelled).joined(separator: ", ")) for it", at: opStart)
        }
        skipSpace()
        let valueStart = index
        let value = try self.value(for: property)
        return try checked(property, op, value, at: valueStart)
    }

    private mutating func string() throws(Failure) -> String {
        let open = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
        guard index < bytes.count else {
            throw failure("the string starting at character \(character(at: open)) has no closing '\"': add it", at: open)
        }
        let text = String(decoding: bytes[(open + 1)..<index], as: UTF8.self)
        index += 1
        return text
    }

    private mutating func value(for property: FilterProperty) throws(Failure) -> FilterValue {
        guard !atEnd else { throw failure("\(property.spelled) and its operator have no value: write a value in double quotes") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .text(try string())
        case UInt8(ascii: "["):
            let open = index
            index += 1
            var items: [String] = []
            while true {
                skipSpace()
                guard !atEnd else { throw failure("the list starting at character \(character(at: open)) has no closing ']': add it", at: open) }
                if bytes[index] == UInt8(ascii: "]"), items.isEmpty {
                    throw failure("the list is empty: -in and -notIn take at least one value, such as [\"a\",\"b\"]", at: open)
                }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw failure("a list holds strings in double quotes, separated by commas: found \(describeHere())")
                }
                items.append(try string())
                skipSpace()
                guard !atEnd else { throw failure("the list starting at character \(character(at: open)) has no closing ']': add it", at: open) }
                if bytes[index] == UInt8(ascii: "]") { index += 1; break }
                guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or ']' in the list, found \(describeHere())") }
                index += 1
            }
            return .list(items)
        case UInt8(ascii: "'"):
            throw failure("values are written in double quotes (\"…\"), not single quotes")
        default:
            let start = index
            let bare = word()
            let lowered = ExactText.asciiLowercased(bare)
            if lowered == "null" || lowered == "$null" { return .null }
            if property == .operatingSystemVersion, !bare.isEmpty, bare.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true {
                // The reference writes operatingSystemVersion values bare: (app.operatingSystemVersion -eq 14.2.1).
                return .text(bare)
            }
            index = start
            if bare.isEmpty { throw failure("expected a value in double quotes, found \(describeHere())") }
            throw failure("the value '\(bare)' has no quotes: write it as \"\(bare)\" (values are double-quoted strings; Null and $Null stand alone)")
        }
    }

    /// The clause, after checking its value suits its property and operator.
    private func checked(_ property: FilterProperty, _ op: FilterOperator, _ value: FilterValue, at start: Int) throws(Failure) -> FilterClause {
        switch (op, value) {
        case (.in, .list), (.notIn, .list): break
        case (.in, _), (.notIn, _):
            throw failure("\(op.spelled) takes a list in brackets, such as [\"a\",\"b\"]", at: start)
        case (_, .list):
            throw failure("a list is a value for -in and -notIn only: \(op.spelled) takes one value in double quotes", at: start)
        case (.eq, .null), (.ne, .null):
            if property == .deviceManagementType {
                throw failure("app.deviceManagementType is always Managed or Unmanaged on iOS: compare it with \"Managed\" or \"Unmanaged\", not Null", at: start)
            }
        case (_, .null):
            throw failure("Null is a value for -eq and -ne only (Microsoft's reference: \"Null or $Null as a value with the -Equals and -NotEquals operators\")", at: start)
        default: break
        }
        var version: IntuneSDKVersion? = nil
        if case .text(let text) = value {
            switch property {
            case .deviceManagementType:
                guard ["managed", "unmanaged"].contains(ExactText.asciiLowercased(text)) else {
                    throw failure("app.deviceManagementType on iOS is \"Managed\" or \"Unmanaged\", not \(JSONWriter.quoted(text)) (the other values Microsoft lists are Android's)", at: start)
                }
            case .operatingSystemVersion:
                guard let parsed = IntuneSDKVersion(text) else {
                    throw failure("app.operatingSystemVersion compares versions: \(JSONWriter.quoted(text)) is not one (write one to four numbers separated by dots, such as 17.4.1)", at: start)
                }
                version = parsed
            default: break
            }
        }
        return FilterClause(property: property, op: op, value: value, version: version)
    }
}
