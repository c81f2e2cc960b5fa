import OpenInCore
import OpenInFleet
import OpenInKit

/// One decision rule, whole: a small named unit (a caseless `enum`, one file
/// under `Sources/OpenInAppConnect/Rules/`) that holds everything about the rule.
///
/// A unit carries:
/// - `rules`: the ids it decides with, each a ``RuleInfo`` (one-line summary,
///   reason, source and quote; the step is the unit's place in the list). A
///   source is a ``Citation`` a user can open: `.guide(section)` of the SDK
///   developer guide, `.header(file, declaration)` of its public header, or
///   `.choice("Rules/….md", "Our choices")` for our own choices, whose quote
///   must be a sentence of that section (a test checks);
/// - `covers` and `decide`: whether it decides a request that no earlier unit
///   decided, and the decision;
/// - `explain`: the sentences `--explain` prints about the inputs that mattered
///   to a decision it made (ask ``ExplanationFacts`` for the common ones);
/// - `requestClasses`: the requests `diff` must try to tell two policies apart
///   on the channels it owns (none for units that apply to every channel);
/// - `targetReads`: what it reads of a request's target, on which channels
///   (``TargetFact``), the statement every fleet fast path keys targets by.
///
/// The order of the units is written once, in ``RuleCatalog/units``: `rules`,
/// `Rules/README.md`'s table, diff's request classes and the tests read it.
/// ``Evaluator/decide(_:)`` dispatches with a `switch` over the request's route
/// for speed; a test checks it decides exactly as walking the list does.
///
/// To add a rule: add its rows to a table in `Rules/*.md` and its line to
/// `Rules/README.md`, write its unit, add the unit to ``RuleCatalog/units``,
/// and call it from ``Evaluator/decide(_:)`` at the same place; then make the
/// test reference model (`Tests/OpenInPolicyTests/ReferenceModel.swift`)
/// follow, without calling the engine. "Adding a rule" (`OpenInPolicy.docc/Rules.md`)
/// walks through it; `swift test` fails when a step is forgotten.
package protocol RuleUnit: Sendable {
    /// The ids this unit can decide with, with their descriptions, in order.
    static var rules: [RuleInfo] { get }

    /// Whether this unit decides `request` under `policy`, given that no earlier unit did.
    static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool

    /// Decides a request this unit ``covers(_:_:)``.
    static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision

    /// The inputs that mattered to `decision`, which this unit made, one sentence each without a final period.
    static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String]

    /// The request classes of the channels this unit owns (see ``RequestClasses``).
    static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily]

    /// What this unit reads of a request's target, on which channels (``TargetFact``): the statement
    /// every fast path keys its targets by; a test fails when the unit reads the target otherwise.
    static var targetReads: TargetReads { get }
}

extension RuleUnit {
    /// Units that apply to every channel own no request classes.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] { [] }

    /// Most units decide without reading the target (or pass it on as the receiver).
    package static var targetReads: TargetReads { .none }
}

/// All the rules, in order.
package enum RuleCatalog {
    /// The rule units in evaluation order (first match decides): the one list of rules.
    package static let units: [any RuleUnit.Type] = [
        NotEnforcingRule.self,
        DragAndDropPolicyRule.self,
        WebDLPRule.self,
        ExcludedActivityRule.self,
        EnforcementDisabledRule.self,
        AuthorizedRule.self,
        ActivityViewRule.self,
        MailtoOpenURLRule.self,
        OtherSchemeOpenURLRule.self,
        MailViewRule.self,
        DocumentInteractionRule.self,
        DragAndDropListingRule.self,
        OpenFromRule.self,
        CopyRule.self,
        PrintRule.self,
        PasteRule.self,
        KeyboardRule.self,
    ]

    /// Every rule, unit by unit in evaluation order.
    package static let all: [RuleInfo] = units.flatMap { $0.rules }

    /// The step of each rule id: its unit's place in the list, from 1.
    private static let stepByID: [String: Int] = Dictionary(
        uniqueKeysWithValues: units.enumerated().flatMap { index, unit in unit.rules.map { ($0.id.rawValue, index + 1) } })

    /// The rules of both vendors: AppConnect's, then Intune's.
    /// The step of `rule` (in its vendor's list).
    package static func step(of rule: RuleID) -> Int? { stepByID[rule.rawValue] }

    /// The catalog every AppConnect rule id points at.
    package static let book = RuleBook(rules: { all }, step: { step(of: $0) })

    /// The unit of each rule id.
    private static let unitByID: [String: any RuleUnit.Type] = Dictionary(
        uniqueKeysWithValues: units.flatMap { unit in unit.rules.map { ($0.id.rawValue, unit) } })

    /// The unit that decides with `rule`.
    package static func unit(of rule: RuleID) -> any RuleUnit.Type {
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
    static var lastStep: Int { units.count }
}

extension RuleInfo {
    /// Creates an AppConnect rule's description (its id points at ``RuleCatalog``).
    package init(_ id: StaticString, summary: String, reason: String, source: [Citation], quote: String) {
        self.init(id, book: RuleCatalog.book, summary: summary, reason: reason, source: source, quote: quote)
    }

    /// Every AppConnect rule, in evaluation order.
    public static var all: [RuleInfo] { RuleCatalog.all }

    /// The number of steps in the list of rules (the last rule's step).
    public static var stepCount: Int { RuleCatalog.lastStep }
}
