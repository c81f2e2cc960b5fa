import OpenInCore
import OpenInFleet
import OpenInKit

/// A ``Policy`` ready for deciding: the rules ask it, and it answers with the
/// policy's own properties (``Policy/mailAllowed``, ``Policy/openInUI``, …) and,
/// for whether a target is listed, the one definition ``Policy/lists(_:)`` uses
/// too (`OpenInStatus.lists(_:in:)`), so each notion is written once. What
/// those cannot answer without hashing a string is
/// worked out once, when an ``Evaluator`` is made: the device's AppConnect
/// apps, the app's own schemes and the scheme handlers go into tables keyed
/// by the hashes bundle IDs and URLs carry, so deciding a request hashes no
/// string and allocates nothing.
///
/// A class, so the rules receive one reference instead of a copy of the policy.
package final class PreparedPolicy: Sendable {
    /// The policy the answers come from.
    package let policy: Policy
    /// The device's mail app when it is not native Mail: the `mailto` handler the device facts name, if any.
    @inline(__always) var thirdPartyMailApp: BundleID? { device.thirdPartyMailApp }
    /// The bundle ID a redirect to Email+ opens: ``DeviceFacts/emailPlusTarget``, read once (it copies out of an array).
    @inline(__always) var emailPlusTarget: BundleID { device.emailPlusTarget }
    /// The Open From status, when the policy sets Open From: read once (it would copy the Open From policy).
    let openFromStatus: OpenFromStatus?
    /// The policy's status and whitelist, kept beside it so a lookup reads them from here.
    private let openInStatus: OpenInStatus
    /// Whether native Mail is allowed: ``Policy/mailAllowed``, asked once.
    let mailAllowed: Bool
    private let whitelist: Whitelist
    /// The Open From whitelist the app sees, as ``Policy/openFromWhitelist`` (computed once: it may build a whitelist).
    private let openFromWhitelist: Whitelist?
    /// What the policy reads of its device's facts, indexed once per device and shared by every policy prepared on it.
    private let device: DeviceTables
    /// The share-sheet activities the server excludes.
    private let excludedActivities: BundleIDTable
    /// Whether the server excludes any activity (so a share-sheet request needs no lookup when none is).
    let excludesActivities: Bool
    /// The bundle ID a redirect to Web@Work opens: ``DeviceFacts/webAtWorkTarget``, read once.
    @inline(__always) var webAtWorkTarget: BundleID { device.webAtWorkTarget }
    private let ownSchemes: SchemeTable<Bool>

    /// Tables of one device's facts, made once and given to every policy prepared on that device
    /// (a fleet prepares one policy per app; each would otherwise index the same facts again).
    package final class DeviceTables: Sendable {
        /// The device's AppConnect apps, as ``appConnectApps`` indexes them.
        let appConnectApps: BundleIDTable
        /// The same apps as a whitelist: the Open From whitelist of "All AppConnect apps".
        let appConnectWhitelist: Whitelist
        /// The scheme handlers, as ``schemeHandlers`` indexes them.
        let schemeHandlers: SchemeTable<BundleID>
        /// What each policy prepared on the device reads of its facts, read once: ``PreparedPolicy/thirdPartyMailApp``,
        /// ``PreparedPolicy/emailPlusTarget``, ``PreparedPolicy/webAtWorkTarget``.
        let thirdPartyMailApp: BundleID?
        let emailPlusTarget: BundleID
        let webAtWorkTarget: BundleID

        /// The tables of `device`; with `whitelist` false, no ``appConnectWhitelist`` (a single policy's, which reads
        /// its own Open From whitelist).
        init(_ device: DeviceFacts, whitelist: Bool = true) {
            appConnectApps = BundleIDTable(device.appConnectApps)
            appConnectWhitelist = whitelist ? Whitelist(device.appConnectApps.sorted()) : .empty
            schemeHandlers = SchemeTable(device.schemeHandlers.map { ($0.key, $0.value) })
            thirdPartyMailApp = device.handler(forScheme: "mailto").flatMap { $0.isNativeMail ? nil : $0 }
            (emailPlusTarget, webAtWorkTarget) = (device.emailPlusTarget, device.webAtWorkTarget)
        }
    }

    /// Prepares `policy`; with `tables` (made from the same `policy.device`), its device's tables are those.
    package init(_ policy: Policy, tables: DeviceTables? = nil) {
        self.policy = policy
        openInStatus = policy.status
        mailAllowed = policy.mailAllowed
        whitelist = policy.whitelist
        openFromStatus = policy.openFrom?.status
        if let tables {
            openFromWhitelist = policy.openFrom.map { $0.setting == .allAppConnectApps ? tables.appConnectWhitelist : $0.whitelist }
            device = tables
        } else {
            openFromWhitelist = policy.openFromWhitelist
            device = DeviceTables(policy.device, whitelist: false)
        }
        excludedActivities = BundleIDTable(policy.excludedActivityTypes)
        excludesActivities = !policy.excludedActivityTypes.isEmpty
        ownSchemes = SchemeTable(policy.app.urlSchemes.map { ($0, true) })
    }

    /// The Open In status the app sees.
    @inline(__always) var status: OpenInStatus { policy.status }
    /// The Open In UI state (Table 11): ``Policy/openInUI``.
    @inline(__always) var openInUI: OpenInUI { policy.openInUI }
    /// Whether the Info.plist or the server config disables scheme blocking: ``Policy/schemeBlockingDisabled``.
    @inline(__always) var schemeBlockingDisabled: Bool { policy.schemeBlockingDisabled }
    /// Whether AppConnect enforces policy.
    @inline(__always) var enforcing: Bool { policy.enforcing }
    /// Whether the server config sets `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT`.
    @inline(__always) var enforcementDisabled: Bool { policy.config.disablesOpenInEnforcement }
    /// The server's drag-and-drop policy, when given.
    @inline(__always) package var dragAndDrop: DragAndDropPolicy? { policy.dragAndDrop }
    /// Whether Email+ is installed.
    @inline(__always) var emailPlusInstalled: Bool { policy.device.emailPlusInstalled }
    /// The server's pasteboard policy, when set.
    @inline(__always) package var pasteboard: PasteboardPolicy? { policy.pasteboard }
    /// The server's print policy, when set.
    @inline(__always) package var print: PrintPolicy? { policy.print }
    /// Whether the device's secure services are available (`nil`: not given).
    @inline(__always) package var secureServicesAvailable: Bool? { policy.device.secureServicesAvailable }

    /// The Web DLP setting, when given.
    @inline(__always) package var webDLP: WebDLPPolicy? { policy.webDLP }
    /// Whether Web@Work is installed.
    @inline(__always) var webAtWorkInstalled: Bool { policy.device.webAtWorkInstalled }
    /// What `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` says (`nil`: not set).
    @inline(__always) var configAllowsCustomKeyboards: Bool? { policy.config.allowsCustomKeyboards }
    /// The app's own answer for custom keyboards.
    @inline(__always) var appAllowsCustomKeyboards: Bool { policy.app.allowsCustomKeyboards }

    /// Whether the server excludes `activity` from the share sheet.
    package func excludes(activity: BundleID) -> Bool { excludesActivities && excludedActivities.contains(activity) }

    /// Whether `target` counts as listed: the definition ``Policy/lists(_:)`` uses.
    @inline(__always) package func lists(_ target: BundleID) -> Bool { openInStatus.lists(target, in: whitelist) }

    /// The Open In whitelist ``lists(_:)`` reads under WHITELIST.
    package var openInWhitelist: Whitelist { whitelist }

    /// What ``lists(_:)`` answers for every target when it does not depend on the target (AUTHORIZED:
    /// `true`, UNAUTHORIZED: `false`); `nil` for a whitelist.
    package var listsEveryTarget: Bool? {
        switch openInStatus {
        case .authorized: true
        case .unauthorized: false
        case .whitelist: nil
        }
    }

    /// Whether `source` is in the Open From whitelist: exact membership, no mail pair.
    func openFromLists(_ source: BundleID) -> Bool { openFromWhitelist?.contains(source) ?? false }

    /// The Open From whitelist ``openFromLists(_:)`` reads, when there is one.
    package var openFromList: Whitelist? { openFromWhitelist }

    /// Whether `target` is one of the device's AppConnect apps.
    func isAppConnectApp(_ target: BundleID) -> Bool { device.appConnectApps.contains(target) }

    /// Whether `url` uses one of the app's own schemes.
    package func isOwnScheme(_ url: ShareURL) -> Bool { ownSchemes.value(for: url) != nil }

    /// The app that handles `url`'s scheme on the device, if known.
    package func handler(for url: ShareURL) -> BundleID? { device.schemeHandlers.value(for: url) }
}
