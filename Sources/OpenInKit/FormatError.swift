/// Why a source cannot be read: what, where, and how to fix it. The one error
/// type for policy files, plists, requests, decision tables (`TableError`)
/// and lifecycle scenarios (`ScenarioError` in `AppConnectRuntime`).
///
/// In a policy file the message names the key path (`device.schemeHandlers.foo`,
/// `openInWhitelist[2]`); the position, when known, is the line and column of
/// the offending value; the file is added by whoever knows it (``inFile(_:)``).
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the key path, and how to fix it.
    public let message: String
    /// Where in the file, when known (JSON files; a plist's parse errors give a line only).
    public let position: JSONPosition?
    /// The line, when only a line is known (plist parse errors).
    public let line: Int?
    /// The file's path as the user gave it, when known.
    public let file: String?

    /// Creates an error.
    /// - Parameters:
    ///   - message: what is wrong, naming the key path, and how to fix it.
    ///   - position: the line and column, when known.
    ///   - line: the line alone, when no column is known.
    ///   - file: the file's path, when known.
    public init(_ message: String, at position: JSONPosition? = nil, line: Int? = nil, file: String? = nil) {
        // Input quoted in the message cannot forge a line or hide itself (``Printable``).
        self.message = Printable.text(message)
        self.position = position
        self.line = position?.line ?? line
        self.file = file
    }

    /// Creates an error at `file:line`, where line 0 means the file as a whole.
    public init(file: String, line: Int, message: String) {
        self.init(message, line: line > 0 ? line : nil, file: file)
    }

    /// The same error, located in `file`.
    public func inFile(_ file: String) -> FormatError {
        FormatError(message, at: position, line: line, file: file)
    }

    /// `file:line:column: message`, with whatever part of the location is known.
    public var description: String {
        var location = file.map(Printable.text) ?? ""
        if let position {
            location += location.isEmpty ? "line \(position.line), column \(position.column)" : ":\(position.line):\(position.column)"
        } else if let line {
            location += location.isEmpty ? "line \(line)" : ":\(line)"
        }
        return location.isEmpty ? message : "\(location): \(message)"
    }
}

extension FormatError {
    /// Parses `bytes` as one JSON document and reads it with `read`: malformed JSON and every error
    /// `read` throws are located in `file` (the prelude every JSON file reader shares).
    package static func readJSON<Bytes: Collection, Result>(_ bytes: Bytes, file: String, _ read: (JSONValue) throws(FormatError) -> Result) throws(FormatError) -> Result
    where Bytes.Element == UInt8 {
        try readJSON(bytes, file: file, partsFrom: nil, mapping: [], { _, _ in () }) { (value, _) throws(FormatError) in try read(value) }
    }

    /// ``readJSON(_:file:_:)`` over ``JSONReader/read(_:mapping:_:)``: the root object's arrays at `keys`, when large, read
    /// in parts across the cores, each element given to `map` as soon as read; `read` gets the tree and what `map` made.
    package static func readJSON<Bytes: Collection, Mapped, Result>(_ bytes: Bytes, file: String, partsFrom: Int?, mapping keys: [String],
                                                                  _ map: (Int, JSONCursor) -> Mapped,
                                                                  _ read: (JSONValue, consuming [[Mapped]?]) throws(FormatError) -> Result) throws(FormatError) -> Result
    where Bytes.Element == UInt8 {
        let value: JSONValue, mapped: [[Mapped]?]
        do throws(JSONError) {
            var reader = JSONReader()
            reader.partsFrom = partsFrom
            (value, mapped) = try reader.read(bytes, mapping: keys, map)
        } catch {
            throw FormatError("not valid JSON: \(error.message)", at: error.position, file: file)
        }
        do throws(FormatError) {
            // Handed over, not shared: the reader can then move the elements out without copying them.
            return try read(value, consume mapped)
        } catch {
            throw error.inFile(file)
        }
    }
}
