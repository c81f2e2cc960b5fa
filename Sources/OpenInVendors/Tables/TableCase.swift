import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// One row of a decision table: a request under a policy, and what should happen.
public struct TableCase: Sendable, Hashable, CustomStringConvertible {
    /// The file the row is in, as given to the parser.
    public let file: String
    /// The row's 1-based line in the file.
    public let line: Int
    /// The row's id (unique in its file).
    public let id: String
    /// The cells of the row by lowercase column name, as written (backticks and escapes removed).
    public let cells: [String: String]
    /// What the row expects.
    public let expected: Expectation
    /// The row's policy and request, built once when the row was parsed.
    let inputs: RowInputs.Built

    /// `file:line`, the place a failure points at.
    public var location: String { "\(file):\(line)" }

    /// `file: id`, the name of the row as a test case.
    public var description: String { "\(file): \(id)" }
}

/// What a row expects; `nil` fields are columns the table does not have.
public struct Expectation: Sendable, Hashable {
    /// The expected outcome, or `nil` when the row expects the input to be rejected (`error`).
    public let outcome: Outcome?
    /// The expected receiver (`.some(nil)` for "nobody").
    public let to: BundleID??
    /// The expected audience of an allowed copy (`.some(nil)` for none).
    public let audience: CopyAudience??
    /// The expected callbacks in table form (`name(argument)`).
    public let callbacks: [String]?
    /// The expected Open In UI state.
    public let openInUI: OpenInUI?
    /// The expected rule id.
    public let rule: RuleID?
    /// The expected dummy file name (`.some(nil)` for none).
    public let dummy: String??
}

/// The result of running one row.
public struct TableResult: Sendable, Hashable {
    /// The row.
    public let tableCase: TableCase
    /// One line per expected column that differs: `column: expected X, got Y`.
    public let mismatches: [String]

    /// Whether the decision matched every expected column.
    public var passed: Bool { mismatches.isEmpty }

    /// `file:line: id: mismatch; mismatch`, or `nil` when the row passed.
    public var failureMessage: String? {
        passed ? nil : "\(tableCase.location): \(tableCase.id): " + mismatches.joined(separator: "; ")
    }
}
