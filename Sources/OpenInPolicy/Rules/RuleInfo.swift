/// The stable id of a decision rule, e.g. `activity-view.blocks-all`.
public struct RuleID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The id, held as a static string so that decisions copy it without reference counting.
    private let name: StaticString

    init(_ name: StaticString) { self.name = name }

    /// Looks up a rule id by name.
    /// - Returns: `nil` when no rule has that id.
    public init?(parsing text: String) {
        guard let info = RuleCatalog.everyVendor.first(where: { ExactText.same($0.id.rawValue, text) }) else { return nil }
        self = info.id
    }

    /// The id as written in decisions and tables.
    public var rawValue: String { name.description }

    /// Where the id's text lives: the same for every copy of one rule's id, so a table can key on it without making a string.
    var textAddress: UInt { UInt(bitPattern: name.utf8Start) }

    /// The rule's description.
    ///
    /// A walk of the catalog's few dozen rules comparing where each id's text lives (one
    /// integer each), not a dictionary: building one was a tenth of a one-request run.
    public var info: RuleInfo {
        let address = textAddress
        if let info = RuleCatalog.all.first(where: { $0.id.textAddress == address }) { return info }
        guard let info = RuleCatalog.everyVendor.first(where: { ExactText.same($0.id.rawValue, rawValue) }) else {
            preconditionFailure("rule \(rawValue) is not in the catalog")
        }
        return info
    }

    public static func == (lhs: RuleID, rhs: RuleID) -> Bool {
        lhs.name.utf8Start == rhs.name.utf8Start || lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A decision rule's description: id, summary, reason, and the source sentence it comes from.
public struct RuleInfo: Sendable, Hashable {
    /// The stable id.
    public let id: RuleID
    /// The position of the rule's unit in the list of rules (from 1), which is the order of evaluation.
    public var step: Int { RuleCatalog.step(of: id) }
    /// A one-line summary of the rule.
    public let summary: String
    /// One sentence a decision gives as its reason.
    public let reason: String
    /// Where the rule comes from, as documents a user can open, separated by `; `:
    /// a section of the AppConnect for iOS SDK Developer Guide, a declaration of
    /// the SDK's public header, or, for our own choices, the `Rules/*.md`
    /// section that states and argues them.
    public var source: String { citations.map(\.text).joined(separator: "; ") }
    /// The sentence of the first source the rule comes from.
    public let quote: String
    /// The sources, one by one.
    let citations: [Citation]

    init(_ id: StaticString, summary: String, reason: String, source: [Citation], quote: String) {
        self.id = RuleID(id)
        self.summary = summary
        self.reason = reason
        citations = source
        self.quote = quote
    }

    /// Every AppConnect rule, in evaluation order.
    public static var all: [RuleInfo] { RuleCatalog.all }

    /// Every Microsoft Intune rule, in evaluation order (their steps count from 1 in their own list).
    public static var intune: [RuleInfo] { IntuneRuleCatalog.all }

    /// Whether this is one of the Microsoft Intune rules.
    public var isIntune: Bool { IntuneRuleCatalog.all.contains { $0.id == id } }

    /// The number of steps in the list of rules (the last rule's step).
    public static var stepCount: Int { RuleCatalog.lastStep }
}

/// A document a rule cites, named so that a user can find and open it.
struct Citation: Sendable, Hashable {
    /// A section of the AppConnect for iOS SDK Developer Guide.
    enum GuideSection: String, Sendable, CaseIterable {
        case openIn = "Open In policy API details"
        case ready = "AppConnect ready API details"
        case notifications = "AppConnect-related notifications"
        case appConfig = "App-specific configuration API details"
        case dualMode = "Dual-mode API details"
        case dragAndDrop = "Drag and drop policy API details"
        case pasteboard = "Pasteboard policy API details"
        case revisionHistory440 = "AppConnect 4.4.0 for iOS SDK revision history"
    }

    /// Another of Ivanti's public AppConnect guides, by its title.
    enum IvantiGuide: String, Sendable, CaseIterable {
        /// The admin guide: the AppConnect global and container policies, the app configuration.
        case core = "MobileIron Core AppConnect Guide"
        /// The guide to wrapping an app with the AppConnect for iOS wrapper.
        case wrapper = "AppConnect for iOS App Wrapping Developers Guide"
    }

    /// A public header of the AppConnect for iOS SDK (`AppConnect.framework/Headers/`).
    enum Header: String, Sendable, CaseIterable {
        case appConnectInterface = "AppConnectInterface.h"
        case types = "ACTypes.h"
    }

    /// What the citation is.
    enum Kind: Sendable, Hashable {
        case guide(GuideSection)
        case header(Header, declaration: String)
        /// A section of another of Ivanti's AppConnect guides.
        case ivanti(IvantiGuide, section: String)
        /// A section of a file in this repository (`Rules/*.md`) that states one of our own choices.
        case choice(file: String, section: String)
        /// A section of a Microsoft Learn page, by the page's title.
        case learn(LearnPage, section: String)
        /// A property of a Microsoft Graph (beta) resource, by the resource page's title.
        case graph(resource: String, property: String)
    }

    /// A Microsoft Learn page about Intune app protection, by its public title.
    enum LearnPage: String, Sendable, CaseIterable {
        case iosSettings = "iOS/iPadOS app protection policy settings"
        case exceptions = "How to create exceptions to the Intune App Protection Policy (APP) data transfer policy"
        case overview = "App protection policies overview"
        case sdkPhase4 = "Intune App SDK for iOS - App protection CA, app participation features"
        case dataTransferIOS = "How to manage data transfer between iOS apps in Microsoft Intune"
    }

    /// The title of the SDK's developer guide, as the vendor publishes it.
    static let guideTitle = "AppConnect for iOS SDK Developer Guide"

    let kind: Kind

    /// A section of the SDK's developer guide.
    static func guide(_ section: GuideSection) -> Citation { Citation(kind: .guide(section)) }
    /// A section of another of Ivanti's guides, e.g. `(.core, "Web-related DLP policies")`.
    static func ivanti(_ guide: IvantiGuide, _ section: String) -> Citation { Citation(kind: .ivanti(guide, section: section)) }
    /// A declaration of one of the SDK's public headers, e.g. `-retire`.
    static func header(_ header: Header, _ declaration: String) -> Citation { Citation(kind: .header(header, declaration: declaration)) }
    /// A section of a Microsoft Learn page.
    static func learn(_ page: LearnPage, _ section: String) -> Citation { Citation(kind: .learn(page, section: section)) }
    /// A property of Graph's beta `iosManagedAppProtection`.
    static func graph(_ property: String) -> Citation { Citation(kind: .graph(resource: "iosManagedAppProtection", property: property)) }
    /// The section of a `Rules/*.md` file that states our choice, e.g. `("Rules/drag-and-drop.md", "Our choices")`.
    static func choice(_ file: String, _ section: String) -> Citation { Citation(kind: .choice(file: file, section: section)) }

    /// The citation as users read it: `Document: section`.
    var text: String {
        switch kind {
        case .guide(let section): "\(Self.guideTitle): \(section.rawValue)"
        case .header(let header, let declaration): "\(header.rawValue): \(declaration)"
        case .ivanti(let guide, let section): "\(guide.rawValue): \(section)"
        case .choice(let file, let section): "\(file): \(section)"
        case .learn(let page, let section): "Microsoft Learn, \(page.rawValue): \(section)"
        case .graph(let resource, let property): "Microsoft Graph beta, \(resource) resource type: \(property)"
        }
    }
}

/// One decision rule, whole: a small named unit (a caseless `enum`, one file
/// under `Sources/OpenInPolicy/Rules/`) that holds everything about the rule.
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
    static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily]

    /// What this unit reads of a request's target, on which channels (``TargetFact``): the statement
    /// every fast path keys its targets by; a test fails when the unit reads the target otherwise.
    static var targetReads: TargetReads { get }
}

extension RuleUnit {
    /// Units that apply to every channel own no request classes.
    static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] { [] }

    /// Most units decide without reading the target (or pass it on as the receiver).
    static var targetReads: TargetReads { .none }
}

/// All the rules, in order.
enum RuleCatalog {
    /// The rule units in evaluation order (first match decides): the one list of rules.
    static let units: [any RuleUnit.Type] = [
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
    static let all: [RuleInfo] = units.flatMap { $0.rules }

    /// The step of each rule id: its unit's place in the list, from 1.
    private static let stepByID: [String: Int] = Dictionary(
        uniqueKeysWithValues: units.enumerated().flatMap { index, unit in unit.rules.map { ($0.id.rawValue, index + 1) } })

    /// The rules of both vendors: AppConnect's, then Intune's.
    static let everyVendor: [RuleInfo] = all + IntuneRuleCatalog.all

    /// The step of `rule` (in its vendor's list).
    static func step(of rule: RuleID) -> Int {
        if let step = IntuneRuleCatalog.step(of: rule) { return step }
        guard let step = stepByID[rule.rawValue] else { preconditionFailure("rule \(rule) is not in the catalog") }
        return step
    }

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
    static var lastStep: Int { units.count }
}
