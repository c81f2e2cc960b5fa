import OpenInCore
import OpenInFleet
import OpenInKit

/// A Microsoft Intune app protection policy for iOS: the data-transfer settings of one Microsoft Graph
/// (beta) `iosManagedAppProtection`, and the apps it targets.
///
/// Every setting Intune documents for moving data between apps is here under its Graph name;
/// settings that do not concern data transfer (PIN, OS versions, threat levels) are read and left
/// out. A setting the file does not give has the default Microsoft Learn documents for it
/// ("iOS/iPadOS app protection policy settings").
public struct IntunePolicy: Sendable, Hashable {
    /// The policy's `displayName`.
    public var displayName: String
    /// The policy's `id`, when the export has one.
    public var id: String?
    /// `allowedOutboundDataTransferDestinations`: "Send org data to other apps".
    public var send: IntuneTransferLevel = .allApps
    /// `filterOpenInToOnlyManagedApps`: "Policy managed apps with Open-In/Share filtering".
    public var filterOpenInToOnlyManagedApps = false
    /// `disableProtectionOfManagedOutboundOpenInData`: "Policy managed apps with OS sharing".
    public var disableProtectionOfManagedOutboundOpenInData = false
    /// `allowedInboundDataTransferSources`: "Receive data from other apps".
    public var receive: IntuneTransferLevel = .allApps
    /// `protectInboundDataFromUnknownSources`: "All apps with incoming Org data".
    public var protectInboundDataFromUnknownSources = false
    /// `allowedOutboundClipboardSharingLevel`: "Restrict cut, copy and paste between other apps".
    public var clipboard: IntuneClipboardLevel = .allApps
    /// `allowedOutboundClipboardSharingExceptionLength`: "Cut and copy character limit for any app" (0 to 65535).
    public var clipboardExceptionLength = 0
    /// `printBlocked`: "Printing Org data" set to Block.
    public var printBlocked = false
    /// `thirdPartyKeyboardsBlocked`: "Third party keyboards" set to Block (only the system keyboard types in the app).
    public var thirdPartyKeyboardsBlocked = false
    /// `exemptedAppProtocols`: the exemptions as the admin named them, each a `name` and a `;`-separated list of URL schemes.
    public var exemptions: [IntuneExemption] = [] { didSet { exemptedKeys = Self.keys(of: exemptions) } }
    /// The schemes of `exemptions` as byte-exact keys, rebuilt when they change: `exempts(scheme:)` is a lookup.
    private var exemptedKeys = DerivedKeys()
    /// `exemptedUniversalLinks`: universal links an unmanaged app may open.
    public var exemptedUniversalLinks: [String] = []
    /// `managedUniversalLinks`: universal links that open in a managed app.
    public var managedUniversalLinks: [String] = []
    /// `managedBrowserToOpenLinksRequired`: web links must open in the managed browser (or a custom one).
    public var managedBrowserRequired = false
    /// `managedBrowser`: which managed browser opens web links.
    public var managedBrowser: IntuneManagedBrowser = .notConfigured
    /// `customBrowserProtocol`: the scheme of an unmanaged browser that opens web links (empty when none).
    public var customBrowserProtocol = ""
    /// `dialerRestrictionLevel`: "Transfer telecommunication data to".
    public var dialer: IntuneDialerLevel = .allApps
    /// `customDialerAppProtocol`: the scheme of the one dialer app allowed (empty when none).
    public var customDialerAppProtocol = ""
    /// `protectedMessagingRedirectAppType`: "Transfer messaging data to".
    public var messaging: IntuneMessagingLevel = .anyApp
    /// `messagingRedirectAppUrlScheme`: the scheme of the one messaging app allowed (empty when none).
    public var messagingRedirectAppUrlScheme = ""
    /// `saveAsBlocked`: "Save copies of org data" set to Block.
    public var saveAsBlocked = false
    /// `allowedDataStorageLocations`: "Allow user to save copies to selected services" (read when Save As is blocked).
    public var allowedDataStorageLocations: [DataLocation] = []
    /// `blockDataIngestionIntoOrganizationDocuments`: "Open data into Org documents" set to Block.
    public var blockDataIngestion = false
    /// `allowedDataIngestionLocations`: "Allow users to open data from selected services" (read when opening is blocked).
    public var allowedDataIngestionLocations: [DataLocation] = []
    /// `appGroupType`, when the export gives it.
    public var appGroupType: String?
    /// Where ``apps`` came from when the export lists none and names an app group (`allCoreMicrosoftApps`,
    /// `allMicrosoftApps`, `allApps`); `nil` when the export lists its apps. See ``IntuneAppGroups``.
    public var appsFromGroup: IntuneAppGroupSource?
    /// The targeted apps: `apps[].mobileAppIdentifier.bundleId`, as Intune stores them.
    public var apps: [BundleID] = []
    /// Where the policy and each of its properties were read (not part of its value).
    package var sources = SettingSources()
    /// Who the policy reaches: its assignments, or `nil` when the export has no `assignments` (exported
    /// without `$expand=assignments`: every device profile is then in scope, as before assignments were read).
    /// An empty list reaches no one.
    public var assignments: [IntuneAssignment]? = nil
    /// The management types the policy targets (`targetedAppManagementLevels`; every type when absent).
    public var managementLevels: IntuneManagementLevels = .all
    /// The export's `isAssigned`, when given (metadata: Microsoft's templates ship `false`).
    public var isAssigned: Bool? = nil

    /// A policy with every setting at its documented default, targeting no app.
    public init(displayName: String) { self.displayName = displayName }

    /// The URL schemes exempted from the policy, lowercased, in order, each once.
    public var exemptedSchemes: [String] {
        var schemes: [String] = []
        var seen: Set<ExactKey> = []
        for exemption in exemptions {
            for scheme in exemption.schemes where seen.insert(ExactKey(scheme)).inserted { schemes.append(scheme) }
        }
        return schemes
    }

    /// Whether the policy exempts URL scheme `scheme` (lowercase).
    package func exempts(scheme: String) -> Bool { exemptedKeys.keys.contains(ExactKey(scheme)) }

    private static func keys(of exemptions: [IntuneExemption]) -> DerivedKeys {
        var keys = DerivedKeys()
        for exemption in exemptions { for scheme in exemption.schemes { keys.keys.insert(ExactKey(scheme)) } }
        return keys
    }

    /// Whether the policy targets `app`: bundle IDs compared ignoring ASCII letter case, as
    /// `Rules/intune/README.md` "Targeted apps" argues.
    public func targets(_ app: BundleID) -> Bool { apps.contains { IntuneBundleID.same($0, app) } }
}

/// One entry of `exemptedAppProtocols`: a label and the URL schemes it exempts.
public struct IntuneExemption: Sendable, Hashable {
    /// The label (`name`), free text.
    public var name: String
    /// The schemes of `value`, lowercased, without `://`, in order.
    public var schemes: [String]

    /// Creates an exemption.
    public init(name: String, schemes: [String]) {
        self.name = name
        self.schemes = schemes
    }

    /// `value` as Graph writes it: the schemes each followed by `;`.
    public var value: String { schemes.map { $0 + ";" }.joined() }
}

/// Graph's `managedAppDataTransferLevel`.
public enum IntuneTransferLevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `allApps`: "All apps".
    case allApps
    /// `managedApps`: "Policy managed apps".
    case managedApps
    /// `none`: "None".
    case none

    public var description: String { rawValue }
}

/// Graph's `managedAppClipboardSharingLevel`.
public enum IntuneClipboardLevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `allApps`: "Any app".
    case allApps
    /// `managedAppsWithPasteIn`: "Policy managed with paste in".
    case managedAppsWithPasteIn
    /// `managedApps`: "Policy managed apps".
    case managedApps
    /// `blocked`: "Blocked".
    case blocked

    public var description: String { rawValue }
}

/// Graph's `managedBrowserType`.
public enum IntuneManagedBrowser: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `notConfigured`.
    case notConfigured
    /// `microsoftEdge`.
    case microsoftEdge

    public var description: String { rawValue }
}

/// Graph's `managedAppPhoneNumberRedirectLevel`.
public enum IntuneDialerLevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `allApps`: "Any dialer app".
    case allApps
    /// `managedApps`: "Any policy-managed dialer app".
    case managedApps
    /// `customApp`: "A specific dialer app" (`customDialerAppProtocol`).
    case customApp
    /// `blocked`: "None, do not transfer this data between apps".
    case blocked

    public var description: String { rawValue }
}

/// Graph's `messagingRedirectAppType`.
public enum IntuneMessagingLevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `anyApp`: "Any messaging app".
    case anyApp
    /// `anyManagedApp`: "Any policy-managed messaging app".
    case anyManagedApp
    /// `specificApps`: "A specific messaging app" (`messagingRedirectAppUrlScheme`).
    case specificApps
    /// `blocked`: "None".
    case blocked

    public var description: String { rawValue }
}

/// How Intune compares bundle IDs: ignoring ASCII letter case (exports store them lowercased).
package enum IntuneBundleID {
    /// Whether `a` and `b` are the same app for Intune.
    package static func same(_ a: BundleID, _ b: BundleID) -> Bool { ExactText.sameIgnoringASCIICase(a.rawValue, b.rawValue) }

    /// Whether `list` holds `app` for Intune.
    package static func contains(_ list: [BundleID], _ app: BundleID) -> Bool { list.contains { same($0, app) } }

    /// The key `same` compares by: the bundle ID with ASCII letters lowercased, for sets and tables of apps.
    package static func key(_ app: BundleID) -> ExactKey { ExactKey(ExactText.asciiLowercased(app.rawValue)) }
}

/// An Intune App SDK version, `major.minor.patch` (missing parts are 0).
public struct IntuneSDKVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, from the most significant.
    public let parts: [Int]

    /// Reads `14.5.0`; `nil` when the text is not one to four dot-separated numbers.
    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard !piece.isEmpty, piece.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), piece.count <= 6, let number = Int(piece) else { return nil }
            parts.append(number)
        }
        while parts.count < 3 { parts.append(0) }
        self.parts = parts
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (lhs: IntuneSDKVersion, rhs: IntuneSDKVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let a = index < lhs.parts.count ? lhs.parts[index] : 0
            let b = index < rhs.parts.count ? rhs.parts[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// 14.5.0: the first SDK whose `mailto` and `sms` exemptions also allow the compose sheets.
    static let composeExemptions = IntuneSDKVersion("14.5.0")!
}

extension IntunePolicy {
    /// Checks the constraints Microsoft Graph's `iosManagedAppProtection` documents between properties.
    /// - Throws: ``InputError/intuneConstraint(_:)`` naming the property, the constraint and the fix.
    public func validate() throws(InputError) {
        if disableProtectionOfManagedOutboundOpenInData, send != .managedApps {
            throw .intuneConstraint("disableProtectionOfManagedOutboundOpenInData is true but allowedOutboundDataTransferDestinations is \(send): Graph allows it to be true only when allowedOutboundDataTransferDestinations is managedApps")
        }
        if filterOpenInToOnlyManagedApps, send != .managedApps || disableProtectionOfManagedOutboundOpenInData {
            throw .intuneConstraint("filterOpenInToOnlyManagedApps is true but \(send != .managedApps ? "allowedOutboundDataTransferDestinations is \(send)" : "disableProtectionOfManagedOutboundOpenInData is true"): Graph applies it only when allowedOutboundDataTransferDestinations is managedApps and disableProtectionOfManagedOutboundOpenInData is false")
        }
        if protectInboundDataFromUnknownSources, receive != .allApps {
            throw .intuneConstraint("protectInboundDataFromUnknownSources is true but allowedInboundDataTransferSources is \(receive): Graph allows it to be true only when allowedInboundDataTransferSources is allApps")
        }
        if !(0...65535).contains(clipboardExceptionLength) {
            throw .intuneConstraint("allowedOutboundClipboardSharingExceptionLength is \(clipboardExceptionLength): Graph's valid values are 0 to 65535")
        }
        if dialer == .customApp, customDialerAppProtocol.isEmpty {
            throw .intuneConstraint("dialerRestrictionLevel is customApp but customDialerAppProtocol is empty: name the dialer app's URL scheme")
        }
        if messaging == .specificApps, messagingRedirectAppUrlScheme.isEmpty {
            throw .intuneConstraint("protectedMessagingRedirectAppType is specificApps but messagingRedirectAppUrlScheme is empty: name the messaging app's URL scheme")
        }
    }
}
