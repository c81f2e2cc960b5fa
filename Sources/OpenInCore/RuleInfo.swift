import OpenInKit

/// The stable id of a decision rule, e.g. `activity-view.blocks-all`.
public struct RuleID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The id, held as a static string so that decisions copy it without reference counting.
    private let name: StaticString
    /// The catalog the rule belongs to (its vendor's), which describes it: never released (every
    /// catalog is a static constant), so held without reference counting too.
    package unowned(unsafe) let book: RuleBook

    package init(_ name: StaticString, book: RuleBook) {
        self.name = name
        self.book = book
    }

    /// The id as written in decisions and tables.
    public var rawValue: String { name.description }

    /// Where the id's text lives: the same for every copy of one rule's id, so a table can key on it without making a string.
    package var textAddress: UInt { UInt(bitPattern: name.utf8Start) }

    /// The rule's description.
    ///
    /// A walk of the catalog's few dozen rules comparing where each id's text lives (one
    /// integer each), not a dictionary: building one was a tenth of a one-request run.
    public var info: RuleInfo {
        let address = textAddress
        let rules = book.rules()
        if let info = rules.first(where: { $0.id.textAddress == address }) { return info }
        guard let info = rules.first(where: { ExactText.same($0.id.rawValue, rawValue) }) else {
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
    public var step: Int {
        guard let step = id.book.step(id) else { preconditionFailure("rule \(id) is not in the catalog") }
        return step
    }
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
    package let citations: [Citation]

    package init(_ id: StaticString, book: RuleBook, summary: String, reason: String, source: [Citation], quote: String) {
        self.id = RuleID(id, book: book)
        self.summary = summary
        self.reason = reason
        citations = source
        self.quote = quote
    }
}

/// A document a rule cites, named so that a user can find and open it.
package struct Citation: Sendable, Hashable {
    /// A section of the AppConnect for iOS SDK Developer Guide.
    package enum GuideSection: String, Sendable, CaseIterable {
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
    package enum IvantiGuide: String, Sendable, CaseIterable {
        /// The admin guide: the AppConnect global and container policies, the app configuration.
        case core = "MobileIron Core AppConnect Guide"
        /// The guide to wrapping an app with the AppConnect for iOS wrapper.
        case wrapper = "AppConnect for iOS App Wrapping Developers Guide"
    }

    /// A public header of the AppConnect for iOS SDK (`AppConnect.framework/Headers/`).
    package enum Header: String, Sendable, CaseIterable {
        case appConnectInterface = "AppConnectInterface.h"
        case types = "ACTypes.h"
    }

    /// What the citation is.
    package enum Kind: Sendable, Hashable {
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
    package enum LearnPage: String, Sendable, CaseIterable {
        case iosSettings = "iOS/iPadOS app protection policy settings"
        case exceptions = "How to create exceptions to the Intune App Protection Policy (APP) data transfer policy"
        case overview = "App protection policies overview"
        case sdkPhase4 = "Intune App SDK for iOS - App protection CA, app participation features"
        case dataTransferIOS = "How to manage data transfer between iOS apps in Microsoft Intune"
    }

    /// The title of the SDK's developer guide, as the vendor publishes it.
    static let guideTitle = "AppConnect for iOS SDK Developer Guide"

    package let kind: Kind

    /// A section of the SDK's developer guide.
    package static func guide(_ section: GuideSection) -> Citation { Citation(kind: .guide(section)) }
    /// A section of another of Ivanti's guides, e.g. `(.core, "Web-related DLP policies")`.
    package static func ivanti(_ guide: IvantiGuide, _ section: String) -> Citation { Citation(kind: .ivanti(guide, section: section)) }
    /// A declaration of one of the SDK's public headers, e.g. `-retire`.
    package static func header(_ header: Header, _ declaration: String) -> Citation { Citation(kind: .header(header, declaration: declaration)) }
    /// A section of a Microsoft Learn page.
    package static func learn(_ page: LearnPage, _ section: String) -> Citation { Citation(kind: .learn(page, section: section)) }
    /// A property of Graph's beta `iosManagedAppProtection`.
    package static func graph(_ property: String) -> Citation { Citation(kind: .graph(resource: "iosManagedAppProtection", property: property)) }
    /// The section of a `Rules/*.md` file that states our choice, e.g. `("Rules/drag-and-drop.md", "Our choices")`.
    package static func choice(_ file: String, _ section: String) -> Citation { Citation(kind: .choice(file: file, section: section)) }

    /// The citation as users read it: `Document: section`.
    package var text: String {
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

/// One vendor's catalog of rules, which every ``RuleID`` of that vendor points at: its rules in
/// evaluation order and each one's step. A class so that an id can hold it as one word that is never
/// retained (every catalog is a static constant that lives as long as the process).
package final class RuleBook: Sendable {
    /// The vendor's rules, in evaluation order.
    package let rules: @Sendable () -> [RuleInfo]
    /// A rule's step in its vendor's list (from 1), or `nil` when it is not one of the vendor's.
    package let step: @Sendable (RuleID) -> Int?

    package init(rules: @escaping @Sendable () -> [RuleInfo], step: @escaping @Sendable (RuleID) -> Int?) {
        self.rules = rules
        self.step = step
    }
}
