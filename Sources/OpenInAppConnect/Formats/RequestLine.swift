import OpenInCore
import OpenInFleet
import OpenInKit

/// One line of a JSON Lines request stream: `{"id"?, "channel", "target"?, "url"?, "source"?, "document"?}`.
///
/// `id` is optional, a string or a number, and is echoed in the line's record.
/// `channel` is required; `target`, `url`, `source` (the sending app, `open-from`
/// only) and `document` are strings where the
/// channel takes them (``ShareRequest`` checks which). Unknown keys, `null`s
/// and values of the wrong type are errors: the line gets an error record,
/// never a decision.
public struct RequestLine: Sendable, Hashable {
    /// The keys a request line may have.
    package static let keys = ["id", "channel", "target", "url", "source", "document"]

    /// The request's `id`, when given: a JSON string or number.
    public let id: JSONValue?
    /// The request.
    public let request: ShareRequest

    /// Pairs a request with its `id`.
    package init(id: JSONValue?, request: ShareRequest) {
        self.id = id
        self.request = request
    }

    /// Why a line is not a request; carries the line's `id` when it could be read.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line's `id`, when the line is a JSON object with a valid one.
        public let id: JSONValue?
        /// What is wrong, and where on the line (a column, or the key).
        public let message: String

        /// Creates a failure with the line's `id`, when known.
        package init(id: JSONValue?, message: String) {
            self.id = id
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// Reads one line (without its line break).
    /// - Throws: ``Failure``.
    public static func read<Bytes: Collection>(_ bytes: Bytes, reader: JSONReader = JSONReader()) throws(Failure) -> RequestLine where Bytes.Element == UInt8 {
        let value: JSONValue
        do throws(JSONError) {
            value = try reader.read(bytes)
        } catch {
            if error.message.hasPrefix("expected a JSON value, found the end of the input") {
                throw Failure(id: nil, message: "blank line: write one JSON request per line")
            }
            throw Failure(id: nil, message: "column \(error.position.column): not valid JSON: \(error.message)")
        }
        return try read(value)
    }

    /// Reads a request from a JSON value.
    /// - Throws: ``Failure``.
    package static func read(_ value: JSONValue) throws(Failure) -> RequestLine {
        guard case .object(let object) = value else {
            throw Failure(id: nil, message: "a request must be a JSON object such as {\"channel\": \"open-url\", \"url\": \"mailto:a@example.com\"}, not \(value.kindDescription)")
        }
        var id: JSONValue? = nil
        if let given = object["id"] {
            switch given {
            case .string, .number: id = given
            default: throw Failure(id: nil, message: "id: must be a string or a number, not \(JSONCursor(given).found)")
            }
        }
        let fields: JSONFields
        do throws(FormatError) {
            fields = try JSONCursor(value).members(allowed: keys, what: "a request")
        } catch {
            throw Failure(id: id, message: error.message)
        }
        func text(_ key: String) throws(Failure) -> String? {
            guard let field = fields[key] else { return nil }
            guard case .string(let string) = field.value else {
                let hint = field.value == .null ? " (leave the key out for none)" : ""
                throw Failure(id: id, message: "\(key): must be a string, not \(field.found)\(hint)")
            }
            return string
        }
        guard let channel = try text("channel") else {
            throw Failure(id: id, message: "channel: missing: add \"channel\": one of \(Channel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let target = try text("target"), url = try text("url"), source = try text("source"), document = try text("document")
        do throws(InputError) {
            return RequestLine(id: id, request: try ShareRequest(channel: channel, target: target, url: url, source: source, document: document))
        } catch {
            if case .unknownChannel = error, let suggestion = Suggestion.closest(to: channel, among: Channel.allCases.map(\.rawValue)) {
                throw Failure(id: id, message: "\(error.description). Did you mean '\(suggestion)'?")
            }
            throw Failure(id: id, message: error.description)
        }
    }
}
