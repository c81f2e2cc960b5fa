import OpenInCore
import OpenInFleet
import OpenInKit

/// How serious a lint finding is.
///
/// `openin-check lint` exits 2 when any finding is an error or a warning, 0 when
/// there are none (info findings allowed), and 1 for input it cannot read
/// (``LintCheck/invalidInput``); `--strict` reports warnings as errors.
public enum LintSeverity: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Worth knowing; nothing is wrong (exit status unaffected).
    case info
    /// Probably a mistake, or a setting that will surprise whoever changes it next.
    case warning
    /// The policy does not do what it says, or does something dangerous.
    case error

    public var description: String { rawValue }

    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool { lhs.order < rhs.order }

    private var order: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
}

/// Where something is written: a file, the line and column when the format
/// records them, and the key path (`openInWhitelist[2]`, `config.MI_AC_DISABLE_SCHEME_BLOCKING`).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as the user named it.
    public let file: String
    /// The line, from 1, when known (JSON files).
    public let line: Int?
    /// The column, from 1, when known.
    public let column: Int?
    /// The path of keys and indexes from the document's root; empty for the whole file.
    public let keyPath: String

    /// Creates a location.
    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }

    /// `file:line:column`, or as much of it as is known.
    public var description: String {
        guard let line else { return file }
        return column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
    }

    /// Whether a finding here is about the same thing as the reader's `error`:
    /// the same line of the same file, or, without lines (plists), the key
    /// path the reader's message starts with (readers write `path: problem`).
    package func covers(_ error: Written<String>) -> Bool {
        guard file == error.location.file else { return false }
        if let line, let errorLine = error.location.line { return line == errorLine }
        return !keyPath.isEmpty && error.value.hasPrefix(keyPath + ":")
    }
}

/// One problem lint found: which check, how serious, where, what is wrong and how to fix it.
public struct LintFinding: Sendable, Hashable {
    /// The check that found it.
    public let check: LintCheck
    /// How serious it is: the check's severity, or `error` for a warning under `--strict`.
    public let severity: LintSeverity
    /// Where it is.
    public let location: SourceLocation
    /// What is wrong, in one sentence.
    public let message: String
    /// How to fix it, in one sentence.
    public let fix: String

    /// Creates a finding with its check's severity.
    /// A run of more than 200 characters without a space in `message` or `fix` (a megabyte bundle ID
    /// quoted) keeps its first 120 and says how many bytes it leaves out.
    public init(_ check: LintCheck, at location: SourceLocation, _ message: String, fix: String) {
        self.check = check
        severity = check.severity
        self.location = location
        self.message = Printable.shortened(message)
        self.fix = Printable.shortened(fix)
    }

    private init(_ finding: LintFinding, severity: LintSeverity) {
        check = finding.check
        self.severity = severity
        location = finding.location
        message = finding.message
        fix = finding.fix
    }

    /// The finding as `--strict` reads it: a warning becomes an error.
    public var strict: LintFinding {
        severity == .warning ? LintFinding(self, severity: .error) : self
    }
}
