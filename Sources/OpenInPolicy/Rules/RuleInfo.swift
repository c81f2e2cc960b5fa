/// The stable id of a decision rule, e.g. `activity-view.blocks-all`.
public struct RuleID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The id, held as a static string so that decisions copy it without reference counting.
    private let name: StaticString

    init(_ name: StaticString) { self.name = name }

    /// Looks up a rule id by name.
    /// - Returns: `nil` when no rule has that id.
    public init?(parsing text: String) {
        guard let info = RuleCatalog.byID[text] else { return nil }
        self = info.id
    }

    /// The id as written in decisions and tables.
    public var rawValue: String { name.description }

    /// Where the id's text lives: the same for every copy of one rule's id, so a table can key on it without making a string.
    var textAddress: UInt { UInt(bitPattern: name.utf8Start) }

    /// The rule's description.
    public var info: RuleInfo {
        guard let info = RuleCatalog.byID[rawValue] else { preconditionFailure("rule \(rawValue) is not in the catalog") }
        return info
    }

    public static func == (lhs: RuleID, rhs: RuleID) -> Bool {
        lhs.name.utf8Start == rhs.name.utf8Start || lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A decision rule's description: id, summary, reason, and the seed sentence it comes from.
public struct RuleInfo: Sendable, Hashable {
    /// The stable id.
    public let id: RuleID
    /// The position in the list of rules (1 to 13), which is the order of evaluation.
    public let step: Int
    /// A one-line summary of the rule.
    public let summary: String
    /// One sentence a decision gives as its reason.
    public let reason: String
    /// Where the rule comes from: a seed file in `shared/seeds/`, or `DESIGN.md` for our choices.
    public let source: String
    /// The sentence of the source the rule comes from.
    public let quote: String

    init(_ id: StaticString, step: Int, summary: String, reason: String, source: String, quote: String) {
        self.id = RuleID(id)
        self.step = step
        self.summary = summary
        self.reason = reason
        self.source = source
        self.quote = quote
    }

    /// Every rule, in evaluation order.
    public static var all: [RuleInfo] { RuleCatalog.all }
}

/// A rule of DESIGN's list: a small named unit that decides a request or passes it on.
///
/// Each unit has a static `decide`; the units that apply to every channel
/// (rules 1, 3 and 4) also have a static `applies`, which ``Evaluator``
/// checks in order. (A yes-or-no test, not an optional decision: returning
/// `nil` in a `Decision?` costs a copy of the whole decision per rule.)
protocol DecisionRule {
    /// The ids this unit can decide with, with their descriptions.
    static var rules: [RuleInfo] { get }
}

/// All the rules, in order.
enum RuleCatalog {
    /// Every rule, unit by unit in evaluation order.
    static let all: [RuleInfo] = [
        NotEnforcingRule.rules,
        DragAndDropPolicyRule.rules,
        EnforcementDisabledRule.rules,
        AuthorizedRule.rules,
        ActivityViewRule.rules,
        MailtoOpenURLRule.rules,
        OtherSchemeOpenURLRule.rules,
        MailViewRule.rules,
        DocumentInteractionRule.rules,
        DragAndDropListingRule.rules,
        OpenFromRule.rules,
        CopyRule.rules,
        PrintRule.rules,
    ].flatMap { $0 }

    static let byID: [String: RuleInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.id.rawValue, $0) })
}
