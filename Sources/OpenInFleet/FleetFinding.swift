import OpenInCore
import OpenInKit

/// One fleet-level mistake: a stable code, a severity, where, what and how to fix it.
public struct FleetFinding: Sendable, Hashable {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Information only.
        case info
        /// Likely a mistake: documents go where the fleet probably does not mean, or users see failures.
        case warning
        /// The fleet cannot answer as written.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

        /// The severity's place, least first: info, warning, error.
        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// The stable code, e.g. `FL001`.
    public let code: String
    /// The check's name, e.g. `direct-leak`.
    public let name: String
    /// The severity.
    public let severity: Severity
    /// The line in the fleet file, when one is to blame.
    public let line: Int?
    /// The file to blame when it is not the one given to lint: an Intune export folder's file.
    public package(set) var file: String? = nil
    /// The device profile, when the finding is about one.
    public let device: String?
    /// Where in the fleet file, as a key path (`containerPolicies[1].openInPolicy`, `devices.NAME`); empty when the finding is about the whole file.
    public package(set) var keyPath: String = ""
    /// What is wrong.
    public let message: String
    /// How to fix it.
    public let fix: String

    package init(code: String, name: String, severity: Severity, line: Int?, file: String? = nil, device: String?, keyPath: String = "", message: String, fix: String) {
        self.file = file
        self.keyPath = keyPath
        self.code = code
        self.name = name
        self.severity = severity
        self.line = line
        self.device = device
        self.message = message
        self.fix = fix
    }
}
