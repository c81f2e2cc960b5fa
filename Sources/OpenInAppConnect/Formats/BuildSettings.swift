import OpenInCore
import OpenInFleet
import OpenInKit

/// Values for the Xcode build-setting references in a source-tree Info.plist.
///
/// Xcode copies an app's Info.plist into the built app after replacing
/// `$(NAME)` and `${NAME}` in its strings with the build setting's value
/// (`$(PRODUCT_BUNDLE_IDENTIFIER)` becomes `com.example.app`). A source-tree
/// Info.plist still holds the references; these values resolve them the same
/// way, for the strings openin-check reads (the app's URL schemes).
///
/// Supported: `$(NAME)`, `${NAME}`, and the modifiers `:lower`, `:upper` and
/// `:rfc1034identifier` (every character that is not an ASCII letter, digit,
/// `-` or `.` becomes `-`), chained left to right (`$(NAME:lower:rfc1034identifier)`).
/// Any other modifier, a reference that is not closed, or a name that is not
/// letters, digits and `_` is an error, as is a name with no value: nothing
/// is guessed. A value is used as given: references inside a value are not
/// expanded again. A `$` not followed by `(` or `{` is kept as it is.
public struct BuildSettings: Sendable, Hashable {
    /// The modifiers a reference may carry, in the order the help lists them.
    public static let modifiers = ["lower", "upper", "rfc1034identifier"]

    /// Setting name → value. Names are ASCII (checked by ``set(_:to:)``), so
    /// `String` equality is byte equality here.
    public private(set) var values: [String: String] = [:]

    /// No settings: every reference is unresolved.
    public init() {}

    /// Sets one build setting.
    /// - Throws: ``Problem/malformedName(_:)`` for a name that is not letters, digits and `_`.
    public mutating func set(_ name: String, to value: String) throws(Problem) {
        guard Self.isName(Substring(name)) else { throw .malformedName(name) }
        values[name] = value
    }

    /// Why a string's references cannot be resolved.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// A reference to a setting with no value: the reference as written, and the name.
        case unresolved(reference: String, name: String)
        /// A modifier openin-check does not apply: the reference and the modifier.
        case unsupportedModifier(reference: String, modifier: String)
        /// `$(` or `${` that is not closed, or holds something other than a name and modifiers.
        case malformedReference(String)
        /// A `--build-setting` name that is not letters, digits and `_`.
        case malformedName(String)

        public var description: String { description(in: nil) }

        /// The description, naming the string the reference is in (when it is more than the reference).
        public func description(in written: String?) -> String {
            func place(_ reference: String) -> String {
                guard let written, written != reference else { return reference }
                return "\(reference) in \(JSONWriter.quoted(written))"
            }
            switch self {
            case .unresolved(let reference, _):
                return "the build setting reference \(place(reference)) is not resolved"
            case .unsupportedModifier(let reference, let modifier):
                return "the build setting reference \(place(reference)) uses the modifier ':\(modifier)', which openin-check does not apply (it applies :lower, :upper and :rfc1034identifier)"
            case .malformedReference(let reference):
                return "\(place(reference)) is not a build setting reference openin-check can read: write $(NAME) or ${NAME}, NAME being letters, digits and '_', optionally followed by :lower, :upper or :rfc1034identifier"
            case .malformedName(let name):
                return "'\(name)' is not a build setting name: use letters, digits and '_'"
            }
        }
    }

    /// Whether `text` holds a `$(` or `${`, resolvable or not.
    public static func hasReference(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "$"), byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    /// `text` with every reference replaced by its setting's value.
    /// - Throws: ``Problem`` for the first reference that cannot be resolved.
    public func resolve(_ text: String) throws(Problem) -> String {
        guard Self.hasReference(text) else { return text }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let open = rest.index(after: dollar)
            guard open < rest.endIndex, rest[open] == "(" || rest[open] == "{" else {
                result.append("$")
                rest = rest[open...]
                continue
            }
            let close: Character = rest[open] == "(" ? ")" : "}"
            guard let end = rest[open...].firstIndex(of: close) else {
                throw .malformedReference(String(rest[dollar...]))
            }
            let reference = String(rest[dollar...end])
            let parts = rest[rest.index(after: open)..<end].split(separator: ":", omittingEmptySubsequences: false)
            let name = parts[0]
            guard Self.isName(name) else { throw .malformedReference(reference) }
            for modifier in parts.dropFirst() where !Self.modifiers.contains(String(modifier)) {
                throw .unsupportedModifier(reference: reference, modifier: String(modifier))
            }
            guard var value = values[String(name)] else { throw .unresolved(reference: reference, name: String(name)) }
            for modifier in parts.dropFirst() { value = Self.apply(String(modifier), to: value) }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    private static func apply(_ modifier: String, to value: String) -> String {
        switch modifier {
        case "lower":
            String(String.UnicodeScalarView(value.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
        case "upper":
            String(String.UnicodeScalarView(value.unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32)! : $0 }))
        default:
            String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        }
    }

    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
