/// A decision table that cannot be read: what is wrong, where, and how to fix it.
public struct TableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given to the runner.
    public let file: String
    /// The 1-based line, or 0 when the problem is the file as a whole.
    public let line: Int
    /// What is wrong and how to fix it.
    public let message: String

    /// Creates an error at `file:line`.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}
