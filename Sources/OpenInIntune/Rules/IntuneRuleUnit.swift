import OpenInCore
import OpenInFleet
import OpenInKit

/// One Microsoft Intune decision rule, whole: the Intune counterpart of ``RuleUnit``, deciding under an
/// ``IntuneContext`` instead of an AppConnect policy. Its rows are in `Rules/intune/*.md`, run by the
/// same table runner; its sources are Microsoft Learn sections and Graph property docs, or, for our
/// own choices, the `Rules/intune/*.md` section that states them.
package protocol IntuneRuleUnit: Sendable {
    /// The ids this unit can decide with, with their descriptions, in order.
    static var rules: [RuleInfo] { get }

    /// Whether this unit decides `request` in `context`, given that no earlier unit did.
    static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool

    /// Decides a request this unit ``covers(_:_:)``.
    static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision
}

/// The Intune rules, in order (first match decides).
enum IntuneRuleCatalog {
    /// The Intune rule units in evaluation order.
    package static let units: [any IntuneRuleUnit.Type] = [
        IntuneUnmanagedSenderRule.self,
        IntuneShareRule.self,
        IntuneURLRule.self,
        IntuneMailComposeRule.self,
        IntuneDragAndDropRule.self,
        IntuneReceiveRule.self,
        IntuneCopyRule.self,
        IntunePrintRule.self,
        IntunePasteRule.self,
        IntuneKeyboardRule.self,
    ]

    /// The units of the requests that name a location (``LocationRequest``), after ``units``.
    static let locationUnits: [any IntuneLocationRuleUnit.Type] = [
        IntuneSaveAsRule.self,
        IntuneOpenIntoOrgDocumentRule.self,
    ]

    /// Every Intune rule, unit by unit.
    package static let all: [RuleInfo] = units.flatMap { $0.rules } + locationUnits.flatMap { $0.rules }

    /// The step of an Intune rule (its unit's place, from 1), or `nil` for any other rule.
    package static func step(of rule: RuleID) -> Int? {
        for (index, unit) in units.enumerated() where unit.rules.contains(where: { $0.id == rule }) { return index + 1 }
        for (index, unit) in locationUnits.enumerated() where unit.rules.contains(where: { $0.id == rule }) { return units.count + index + 1 }
        return nil
    }

    /// The catalog every Intune rule id points at.
    package static let book = RuleBook(rules: { all }, step: { step(of: $0) })
}

extension RuleInfo {
    /// Creates an Intune rule's description (its id points at ``IntuneRuleCatalog``).
    package init(_ id: StaticString, summary: String, reason: String, source: [Citation], quote: String) {
        self.init(id, book: IntuneRuleCatalog.book, summary: summary, reason: reason, source: source, quote: quote)
    }

    /// Every Microsoft Intune rule, in evaluation order (their steps count from 1 in their own list).
    public static var intune: [RuleInfo] { IntuneRuleCatalog.all }

    /// Whether this is one of the Microsoft Intune rules.
    public var isIntune: Bool { id.book === IntuneRuleCatalog.book }
}

/// Who receives what an Intune decision delivers, when the rule does not name someone else.
enum IntuneDelivery {
    /// The request's target, the URL's handler, or native Mail for the mail channels.
    package static func receiver(of request: ShareRequest, _ context: IntuneContext) -> BundleID? {
        switch request.route {
        case .activityView(let target), .copy(let target): target
        case .document(let target), .dragAndDrop(let target): target
        case .mailto(let url), .otherURL(let url): context.isOwn(url.scheme) ? nil : handler(for: url.scheme, context)
        case .mailView: request.channel == .mailLink ? handler(for: "mailto", context) : .mobileMail
        case .keyboard(let keyboard): keyboard
        case .openFrom, .print, .paste: nil
        }
    }

    /// The app that opens `scheme`: the device's handler; native Mail for `mailto`, Safari for web
    /// links and Phone for `tel` when the device names none (iOS's own apps).
    package static func handler(for scheme: String, _ context: IntuneContext) -> BundleID? {
        if let handler = context.handler(forScheme: scheme) { return handler }
        switch scheme {
        case "mailto": return .mobileMail
        case "http", "https": return .safari
        default: return nil
        }
    }
}

extension BundleID {
    /// Safari, which opens web links when no other browser is named.
    static let safari = BundleID(known: "com.apple.mobilesafari")
    /// Microsoft Edge for iOS, Intune's managed browser.
    static let microsoftEdge = BundleID(known: "com.microsoft.msedge")
}

extension Decision {
    /// An Intune decision: no AppConnect callback, Open In UI enabled.
    package static func intune(_ outcome: Outcome, to target: BundleID?, _ rule: RuleInfo, audience: CopyAudience? = nil) -> Decision {
        Decision(outcome: outcome, target: outcome == .deny ? nil : target, audience: audience, openInUI: .enabled, rule: rule.id)
    }
}

/// The former name of ``DataLocation``, where an Intune policy's save-as and open-into requests go.
public typealias IntuneDataLocation = DataLocation
/// The former name of ``LocationChannel``: Intune's save-as and open-into-org-document channels.
public typealias IntuneLocationChannel = LocationChannel
/// The former name of ``LocationRequest``: a request on one of Intune's location channels.
public typealias IntuneLocationRequest = LocationRequest
