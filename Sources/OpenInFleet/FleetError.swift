import OpenInCore
import OpenInKit

/// A fleet that cannot answer: what is wrong and how to fix it (a file and line when the fleet file says where).
public struct FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and how to fix it.
    public let message: String
    /// The fleet file, when known.
    public let file: String?
    /// The 1-based line in the file, when known.
    public let line: Int?

    /// Creates an error.
    public init(_ message: String, file: String? = nil, line: Int? = nil) {
        self.message = Printable.text(message)
        self.file = file
        self.line = line
    }

    /// `FILE:LINE: message`, or as much of it as is known.
    public var description: String {
        switch (file, line) {
        case (let file?, let line?): "\(Printable.text(file)):\(line): \(message)"
        case (let file?, nil): "\(Printable.text(file)): \(message)"
        default: message
        }
    }
}
