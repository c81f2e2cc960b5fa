/// A ``Policy`` with every answer the rules ask for worked out once, when an
/// ``Evaluator`` is made: flags are stored, lookups go through tables keyed by
/// the hashes bundle IDs and URLs carry, so deciding a request hashes no
/// string and allocates nothing.
///
/// A class, so the rules receive one reference instead of a copy of the policy.
final class PreparedPolicy: Sendable {
    /// The Open In status the app sees.
    let status: OpenInStatus
    /// The Open In UI state (Table 11), as ``Policy/openInUI``.
    let openInUI: OpenInUI
    /// Whether native Mail is allowed, as ``Policy/mailAllowed``.
    let mailAllowed: Bool
    /// Whether the Info.plist or the server config disables scheme blocking, as ``Policy/schemeBlockingDisabled``.
    let schemeBlockingDisabled: Bool
    /// Whether AppConnect enforces policy.
    let enforcing: Bool
    /// Whether the server config sets `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT`.
    let enforcementDisabled: Bool
    /// The server's drag-and-drop policy, when given.
    let dragAndDrop: DragAndDropPolicy?
    /// Whether Email+ is installed.
    let emailPlusInstalled: Bool
    /// The bundle ID a redirect to Email+ opens.
    let emailPlusTarget: BundleID
    /// The device's mail app when it is not native Mail: the `mailto` handler the device facts name, if any.
    let thirdPartyMailApp: BundleID?
    /// The Open From status, when the policy sets Open From.
    let openFromStatus: OpenFromStatus?
    /// The server's pasteboard policy, when set.
    let pasteboard: PasteboardPolicy?
    /// The server's print policy, when set.
    let print: PrintPolicy?
    /// Whether the device's secure services are available (`nil`: not given).
    let secureServicesAvailable: Bool?
    private let whitelist: Whitelist
    private let openFromWhitelist: BundleIDTable
    private let appConnectApps: BundleIDTable
    private let ownSchemes: SchemeTable<Bool>
    private let schemeHandlers: SchemeTable<BundleID>

    init(_ policy: Policy) {
        status = policy.status
        openInUI = policy.openInUI
        mailAllowed = policy.mailAllowed
        schemeBlockingDisabled = policy.schemeBlockingDisabled
        enforcing = policy.enforcing
        enforcementDisabled = policy.config.disablesOpenInEnforcement
        dragAndDrop = policy.dragAndDrop
        emailPlusInstalled = policy.device.emailPlusInstalled
        emailPlusTarget = policy.device.emailPlusTarget
        thirdPartyMailApp = policy.device.handler(forScheme: "mailto").flatMap { $0.isNativeMail ? nil : $0 }
        whitelist = policy.whitelist
        openFromStatus = policy.openFrom?.status
        openFromWhitelist = BundleIDTable(policy.openFromWhitelist?.ids ?? [])
        pasteboard = policy.pasteboard
        print = policy.print
        secureServicesAvailable = policy.device.secureServicesAvailable
        appConnectApps = BundleIDTable(policy.device.appConnectApps)
        ownSchemes = SchemeTable(policy.app.urlSchemes.map { ($0, true) })
        schemeHandlers = SchemeTable(policy.device.schemeHandlers.map { ($0.key, $0.value) })
    }

    /// Whether `target` counts as listed, as ``Policy/lists(_:)``.
    func lists(_ target: BundleID) -> Bool {
        switch status {
        case .authorized: true
        case .unauthorized: false
        case .whitelist: whitelist.lists(target)
        }
    }

    /// Whether `source` is in the Open From whitelist: exact membership, no mail pair.
    func openFromLists(_ source: BundleID) -> Bool { openFromWhitelist.contains(source) }

    /// Whether `target` is one of the device's AppConnect apps.
    func isAppConnectApp(_ target: BundleID) -> Bool { appConnectApps.contains(target) }

    /// Whether `url` uses one of the app's own schemes.
    func isOwnScheme(_ url: ShareURL) -> Bool { ownSchemes.value(for: url) != nil }

    /// The app that handles `url`'s scheme on the device, if known.
    func handler(for url: ShareURL) -> BundleID? { schemeHandlers.value(for: url) }
}
