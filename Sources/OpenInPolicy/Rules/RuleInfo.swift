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
    /// The rule's unit's position in the list of rules (from 1), which is the order of evaluation.
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

    /// The number of steps in the list of rules (the last rule's step).
    public static var stepCount: Int { RuleCatalog.lastStep }
}

/// One decision rule, whole: a small named unit (a caseless `enum`, one file
/// under `Sources/OpenInPolicy/Rules/`) that holds everything about the rule.
///
/// A unit carries:
/// - `rules`: the ids it decides with, each a ``RuleInfo`` (step, one-line
///   summary, reason, citable source and quote);
/// - `covers` and `decide`: whether it decides a request that no earlier unit
///   decided, and the decision;
/// - `explain`: the sentences `--explain` prints about the inputs that mattered
///   to a decision it made (ask ``ExplanationFacts`` for the common ones);
/// - `requestClasses`: the requests `diff` must try to tell two policies apart
///   on the channels it owns (none for units that apply to every channel).
///
/// The order of the units is written once, in ``RuleCatalog/units``: `rules`,
/// `Rules/README.md`'s table, diff's request classes and the tests read it.
/// ``Evaluator/decide(_:)`` dispatches with a `switch` over the request's route
/// for speed; a test checks it decides exactly as walking the list does.
///
/// To add a rule: write its unit, add its rows to a table in `Rules/*.md` (and
/// its line in `Rules/README.md`), add the unit to ``RuleCatalog/units``, and
/// call it from ``Evaluator/decide(_:)``. The README's "Adding a rule" section
/// walks through it.
protocol RuleUnit: Sendable {
    /// The ids this unit can decide with, with their descriptions, in order.
    static var rules: [RuleInfo] { get }

    /// Whether this unit decides `request` under `policy`, given that no earlier unit did.
    static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool

    /// Decides a request this unit ``covers(_:_:)``.
    static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision

    /// The inputs that mattered to `decision`, which this unit made, one sentence each without a final period.
    static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String]

    /// The request classes of the channels this unit owns (see ``RequestClasses``).
    static func requestClasses(_ space: RequestSpace) -> [ShareRequest]
}

extension RuleUnit {
    /// Units that apply to every channel own no request classes.
    static func requestClasses(_ space: RequestSpace) -> [ShareRequest] { [] }
}

/// All the rules, in order.
enum RuleCatalog {
    /// The rule units in evaluation order (first match decides): the one list of rules.
    static let units: [any RuleUnit.Type] = [
        NotEnforcingRule.self,
        DragAndDropPolicyRule.self,
        EnforcementDisabledRule.self,
        AuthorizedRule.self,
        ActivityViewRule.self,
        MailtoOpenURLRule.self,
        OtherSchemeOpenURLRule.self,
        MailViewRule.self,
        DocumentInteractionRule.self,
        DragAndDropListingRule.self,
    ]

    /// Every rule, unit by unit in evaluation order.
    static let all: [RuleInfo] = units.flatMap { $0.rules }

    static let byID: [String: RuleInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.id.rawValue, $0) })

    /// The unit of each rule id.
    private static let unitByID: [String: any RuleUnit.Type] = Dictionary(
        uniqueKeysWithValues: units.flatMap { unit in unit.rules.map { ($0.id.rawValue, unit) } })

    /// The unit that decides with `rule`.
    static func unit(of rule: RuleID) -> any RuleUnit.Type {
        guard let unit = unitByID[rule.rawValue] else { preconditionFailure("rule \(rule) is not in the catalog") }
        return unit
    }

    /// Decides `request` by walking ``units`` in order: the definition that the
    /// evaluator's faster `switch` must agree with (a test checks it does).
    static func decideInListOrder(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision? {
        for unit in units where unit.covers(request, policy) {
            return unit.decide(request, policy)
        }
        return nil
    }

    /// The last step of the list.
    static var lastStep: Int { all.last?.step ?? 0 }
}
