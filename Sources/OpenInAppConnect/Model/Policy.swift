import OpenInCore
import OpenInFleet
import OpenInKit

/// Everything a decision depends on besides the request: the server's policy,
/// the app's settings, the device and whether AppConnect is enforcing.
public struct Policy: Sendable, Hashable {
    /// The Open In status the app sees.
    public var status: OpenInStatus
    /// The whitelist (used under ``OpenInStatus/whitelist`` only).
    public var whitelist: Whitelist
    /// The server's app-specific configuration.
    public var config: AppConfig
    /// The `MI_APP_CONNECT` overrides from the app's Info.plist.
    public var infoPlist: InfoPlistOverrides
    /// What is installed on the device.
    public var device: DeviceFacts
    /// Facts about the app itself.
    public var app: AppFacts
    /// The server's separate drag-and-drop policy, when one is given.
    public var dragAndDrop: DragAndDropPolicy?
    /// Whether AppConnect enforces policy (library started, app in AppConnect mode).
    public var enforcing: Bool
    /// The server's Open From policy, when the policy sets it (`open-from` requests need it).
    public var openFrom: OpenFromPolicy? = nil
    /// The server's pasteboard policy, when the policy sets it (`copy` requests need it).
    public var pasteboard: PasteboardPolicy? = nil
    /// The server's print policy, when the policy sets it (`print` requests need it).
    public var print: PrintPolicy? = nil
    /// The AppConnect global policy's Web DLP setting for web addresses, when given (`nil`: a web address is decided as before).
    public var webDLP: WebDLPPolicy? = nil
    /// `excludedAppleActivityTypes`: the share-sheet activities the server excludes (compared byte for byte).
    public var excludedActivityTypes: [BundleID] = []

    /// Creates a policy that sets any control; everything but the status has a permissive-to-describe,
    /// restrictive-to-enforce default, and the controls beyond Open In (``openFrom``, ``pasteboard``,
    /// ``print``, ``webDLP``) are not set unless given (a request on their channel is then refused, or an error
    /// with ``Evaluator/decideOrThrow(_:)``).
    ///
    /// ```swift
    /// let policy = Policy(status: .whitelist, whitelist: try Whitelist(["com.example.viewer"]),
    ///                     openFrom: OpenFromPolicy(status: .authorized), pasteboard: .secureCopy, print: .unauthorized)
    /// ```
    public init(
        status: OpenInStatus,
        whitelist: Whitelist = .empty,
        config: AppConfig = AppConfig(),
        infoPlist: InfoPlistOverrides = InfoPlistOverrides(),
        device: DeviceFacts = DeviceFacts(),
        app: AppFacts = AppFacts(),
        dragAndDrop: DragAndDropPolicy? = nil,
        openFrom: OpenFromPolicy? = nil,
        pasteboard: PasteboardPolicy? = nil,
        print: PrintPolicy? = nil,
        webDLP: WebDLPPolicy? = nil,
        excludedActivityTypes: [BundleID] = [],
        enforcing: Bool = true
    ) {
        self.status = status
        self.whitelist = whitelist
        self.config = config
        self.infoPlist = infoPlist
        self.device = device
        self.app = app
        self.dragAndDrop = dragAndDrop
        self.openFrom = openFrom
        self.pasteboard = pasteboard
        self.print = print
        self.webDLP = webDLP
        self.excludedActivityTypes = excludedActivityTypes
        self.enforcing = enforcing
    }

    /// Creates a policy whose whitelist is given as strings, each checked: the one-`try` form.
    ///
    /// ```swift
    /// let policy = try Policy(status: .whitelist, whitelist: ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail"])
    /// ```
    /// The other parameters are those of ``init(status:whitelist:config:infoPlist:device:app:dragAndDrop:openFrom:pasteboard:print:webDLP:excludedActivityTypes:enforcing:)``.
    /// - Throws: ``InputError/malformedBundleID(_:reason:)`` for the first string that is not a bundle ID
    ///   (never a policy that silently drops it).
    public init(
        status: OpenInStatus,
        whitelist: [String],
        config: AppConfig = AppConfig(),
        infoPlist: InfoPlistOverrides = InfoPlistOverrides(),
        device: DeviceFacts = DeviceFacts(),
        app: AppFacts = AppFacts(),
        dragAndDrop: DragAndDropPolicy? = nil,
        openFrom: OpenFromPolicy? = nil,
        pasteboard: PasteboardPolicy? = nil,
        print: PrintPolicy? = nil,
        webDLP: WebDLPPolicy? = nil,
        excludedActivityTypes: [BundleID] = [],
        enforcing: Bool = true
    ) throws(InputError) {
        self.init(status: status, whitelist: try Whitelist(whitelist), config: config, infoPlist: infoPlist, device: device, app: app,
                  dragAndDrop: dragAndDrop, openFrom: openFrom, pasteboard: pasteboard, print: print, webDLP: webDLP,
                  excludedActivityTypes: excludedActivityTypes, enforcing: enforcing)
    }

    /// Reads the policy file at `path`, a JSON policy or an `AppConnect.plist` (no Foundation needed).
    ///
    /// Under "All AppConnect apps" the policy's whitelist is the device's AppConnect apps as the
    /// file lists them; ``PolicyFile/read(path:buildSettings:)`` keeps that setting for a caller
    /// that changes the device afterwards.
    /// - Throws: `FormatError` naming the file (and line) when it cannot be read or is not a valid policy.
    public init(contentsOfFile path: String) throws(FormatError) {
        self = try PolicyFile.read(path: path).policy
    }

    /// Whether `target` counts as listed: always under AUTHORIZED, under
    /// WHITELIST when the whitelist lists it (the whole pair for native Mail).
    public func lists(_ target: BundleID) -> Bool { status.lists(target, in: whitelist) }

    /// Whether native Mail is allowed: AUTHORIZED, or WHITELIST holding both Mail IDs.
    public var mailAllowed: Bool { status.lists(.mobileMail, in: whitelist) }

    /// Whether scheme blocking is disabled by the Info.plist or the server config.
    public var schemeBlockingDisabled: Bool {
        infoPlist.disableSchemeBlocking || config.disablesSchemeBlocking
    }

    /// The policy key a request on `channel` needs and this policy does not set, if any:
    /// the channel's control, or under SECURECOPY the device's secure services for `copy`.
    public func missingKey(for channel: Channel) -> String? {
        switch channel {
        case .openFrom: return openFrom == nil ? "openFromPolicy" : nil
        case .copy:
            guard let pasteboard else { return "pasteboardPolicy" }
            return pasteboard == .secureCopy && device.secureServicesAvailable == nil ? "device.secureServicesAvailable" : nil
        case .print: return print == nil ? "printPolicy" : nil
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose, .dragAndDrop, .paste, .keyboard: return nil
        }
    }

    /// Whether the server excludes `activity` from the share sheet (`excludedAppleActivityTypes`, exact bytes).
    public func excludes(activity: BundleID) -> Bool { excludedActivityTypes.contains(activity) }

    /// Checks that this policy can decide `request`: a request on `open-from`, `copy`
    /// or `print` needs the policy to set that channel's control.
    /// - Throws: ``InputError/policyKeyNotSet(_:_:)`` naming the missing key.
    public func check(_ request: ShareRequest) throws(InputError) {
        if let key = missingKey(for: request.channel) { throw .policyKeyNotSet(key, request.channel) }
    }

    /// The Open From whitelist the app sees (the device's AppConnect apps under
    /// "All AppConnect apps"), or `nil` when the policy does not set Open From.
    public var openFromWhitelist: Whitelist? {
        openFrom?.effectiveWhitelist(appConnectApps: device.appConnectApps)
    }

    /// The Open In UI state Table 11 asks for.
    public var openInUI: OpenInUI {
        if !enforcing || config.disablesOpenInEnforcement { return .enabled }
        return status == .unauthorized ? .disabled : .enabled
    }
}

/// The server's app-specific configuration: string key-value pairs (empty when none is set).
public struct AppConfig: Sendable, Hashable {
    /// `MI_AC_DISABLE_SCHEME_BLOCKING`: `true` lets `openURL:` with `mailto:` open native Mail.
    public static let disableSchemeBlockingKey = "MI_AC_DISABLE_SCHEME_BLOCKING"
    /// `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT`: `yes` or `true` allows Open In to all apps.
    public static let disableOpenInEnforcementKey = "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT"
    /// `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS`: `true` allows custom keyboards, any other value refuses them; absent, the app decides.
    public static let allowCustomKeyboardsKey = "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS"

    /// The key-value pairs.
    public let values: [String: String]
    /// Whether `MI_AC_DISABLE_SCHEME_BLOCKING` is exactly `true`.
    public let disablesSchemeBlocking: Bool
    /// Whether `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT` is `yes` or `true`, in any case.
    public let disablesOpenInEnforcement: Bool
    /// What `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` says: `nil` when the key is not set, `true` only for exactly `true`.
    public let allowsCustomKeyboards: Bool?

    /// Wraps key-value pairs and reads the two keys the engine uses.
    ///
    /// `MI_AC_DISABLE_SCHEME_BLOCKING` counts only when it is exactly `true`,
    /// the value the Open In policy API details give ("by adding the key MI_AC_DISABLE_SCHEME_BLOCKING
    /// with the value true"); any other value leaves blocking on (fail closed)
    /// and `openin-check lint` reports it. `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT`
    /// counts for `yes` or `true` in any case. `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS`
    /// allows custom keyboards only when it is exactly `true`; any other value
    /// refuses them (fail closed).
    ///
    /// Keys are matched byte for byte, as the SDK reads its `NSDictionary`:
    /// `MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING` (KELVIN SIGN for `K`) is another
    /// key, never read (`lint` reports it). Values are compared by bytes too.
    public init(_ values: [String: String] = [:]) {
        self.values = values
        var schemeBlocking = false, enforcement = false
        var keyboards: Bool? = nil
        for (key, value) in values {
            if ExactText.same(key, AppConfig.disableSchemeBlockingKey) {
                schemeBlocking = ExactText.same(value, "true")
            } else if ExactText.same(key, AppConfig.disableOpenInEnforcementKey) {
                enforcement = ExactText.sameIgnoringASCIICase(value, "yes") || ExactText.sameIgnoringASCIICase(value, "true")
            } else if ExactText.same(key, AppConfig.allowCustomKeyboardsKey) {
                keyboards = ExactText.same(value, "true")
            }
        }
        allowsCustomKeyboards = keyboards
        disablesSchemeBlocking = schemeBlocking
        disablesOpenInEnforcement = enforcement
    }

    /// The value whose key is exactly `key`, byte for byte, if set.
    /// - Complexity: O(n) in the number of keys.
    public subscript(key: String) -> String? { values.first { ExactText.same($0.key, key) }?.value }
}

/// The `MI_APP_CONNECT` dictionary of the app's Info.plist, as far as Open In is concerned.
public struct InfoPlistOverrides: Sendable, Hashable {
    /// `MI_AC_DISABLE_SCHEME_BLOCKING` = YES: `openURL:` with `mailto:` opens native Mail.
    public var disableSchemeBlocking: Bool

    /// Creates the overrides; none is set by default.
    public init(disableSchemeBlocking: Bool = false) {
        self.disableSchemeBlocking = disableSchemeBlocking
    }
}

/// What is installed on the device.
public struct DeviceFacts: Sendable, Hashable {
    /// Whether Email+ is installed.
    public var emailPlusInstalled: Bool
    /// Email+'s bundle IDs; the first is the one a redirect opens.
    public var emailPlusBundleIDs: [BundleID]
    /// URL scheme (lowercase) → bundle ID of the app that handles it.
    public private(set) var schemeHandlers: [String: BundleID]
    /// The installed AppConnect apps (the whitelist of "All AppConnect apps").
    public var appConnectApps: Set<BundleID>
    /// Whether AppConnect's secure services are available (`secureServicesAvailability`),
    /// or `nil` when not given; a copy under SECURECOPY needs it.
    public var secureServicesAvailable: Bool? = nil
    /// Whether Ivanti's secure browser Web@Work is installed (the Web DLP setting reads it).
    public var webAtWorkInstalled: Bool = false
    /// Web@Work's bundle IDs; the first is the one a redirect opens (never empty).
    public var webAtWorkBundleIDs: [BundleID] = [.webAtWork] {
        didSet { if webAtWorkBundleIDs.isEmpty { webAtWorkBundleIDs = [.webAtWork] } }
    }

    /// Creates device facts.
    /// - Throws: ``InputError/malformedScheme(_:)`` for a handler scheme that is not a scheme.
    public init(
        emailPlusInstalled: Bool = false,
        emailPlusBundleIDs: [BundleID] = [.emailPlus],
        schemeHandlers: [String: BundleID] = [:],
        appConnectApps: Set<BundleID> = []
    ) throws(InputError) {
        self.emailPlusInstalled = emailPlusInstalled
        self.emailPlusBundleIDs = emailPlusBundleIDs.isEmpty ? [.emailPlus] : emailPlusBundleIDs
        self.schemeHandlers = [:]
        self.appConnectApps = appConnectApps
        for (scheme, handler) in schemeHandlers { try setHandler(handler, for: scheme) }
    }

    /// Creates device facts with no scheme handlers (cannot fail).
    public init() {
        emailPlusInstalled = false
        emailPlusBundleIDs = [.emailPlus]
        schemeHandlers = [:]
        appConnectApps = []
    }

    /// Records the app that handles `scheme` (compared case-insensitively).
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public mutating func setHandler(_ handler: BundleID, for scheme: String) throws(InputError) {
        schemeHandlers[try URLScheme.normalize(scheme)] = handler
    }

    /// The app that handles `scheme` (already lowercase), if known.
    public func handler(forScheme scheme: String) -> BundleID? { schemeHandlers[scheme] }

    /// The bundle ID a redirect to Email+ opens.
    public var emailPlusTarget: BundleID { emailPlusBundleIDs.first ?? .emailPlus }

    /// The bundle ID a redirect to Web@Work opens.
    public var webAtWorkTarget: BundleID { webAtWorkBundleIDs.first ?? .webAtWork }
}

/// Facts about the app being managed.
public struct AppFacts: Sendable, Hashable {
    /// The app's own URL schemes, lowercase: opening one of these is not Open In.
    public private(set) var urlSchemes: Set<String>
    /// Where each scheme (lowercase) was declared, in the order given, for explanations;
    /// a scheme added without an origin has none.
    public private(set) var schemeOrigins: [String: [SchemeOrigin]] = [:]
    /// The schemes added without an origin (they stay when ``removeInfoPlistSchemes()`` runs).
    private var schemesWithoutOrigin: Set<String> = []
    /// Whether the app lets custom keyboards in, its answer to `-shouldAllowExtensionPointIdentifier:`
    /// (asked only when the config does not set `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS`).
    public var allowsCustomKeyboards: Bool = true

    /// Creates app facts with no schemes.
    public init() { urlSchemes = [] }

    /// Creates app facts with the app's own schemes.
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public init<S: Sequence>(urlSchemes: S) throws(InputError) where S.Element == String {
        self.urlSchemes = []
        for scheme in urlSchemes { try addScheme(scheme) }
    }

    /// Adds one of the app's own schemes (compared case-insensitively).
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public mutating func addScheme(_ scheme: String) throws(InputError) {
        let name = try URLScheme.normalize(scheme)
        urlSchemes.insert(name)
        schemesWithoutOrigin.insert(name)
    }

    /// Adds one of the app's own schemes and records where it was declared.
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public mutating func addScheme(_ scheme: String, from origin: SchemeOrigin) throws(InputError) {
        let name = try URLScheme.normalize(scheme)
        urlSchemes.insert(name)
        if schemeOrigins[name]?.contains(origin) != true { schemeOrigins[name, default: []].append(origin) }
    }

    /// Removes the schemes an Info.plist declared (a scheme also given another way stays), so
    /// another Info.plist can replace them.
    public mutating func removeInfoPlistSchemes() {
        for (name, origins) in schemeOrigins {
            let kept = origins.filter { !$0.isInfoPlist }
            schemeOrigins[name] = kept.isEmpty ? nil : kept
            if kept.isEmpty, !schemesWithoutOrigin.contains(name) { urlSchemes.remove(name) }
        }
    }

    /// Equal when the schemes and the keyboard answer are: where schemes were declared does not change a decision.
    public static func == (lhs: AppFacts, rhs: AppFacts) -> Bool {
        lhs.urlSchemes == rhs.urlSchemes && lhs.allowsCustomKeyboards == rhs.allowsCustomKeyboards
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(urlSchemes)
        hasher.combine(allowsCustomKeyboards)
    }
}

/// Where one of the app's own URL schemes was declared: what `--explain` cites.
public enum SchemeOrigin: Sendable, Hashable, CustomStringConvertible {
    /// An Info.plist's `CFBundleURLTypes`: the file when known (nil: a policy file's `infoPlist`),
    /// the key path, and the string as written when build settings changed it.
    case infoPlist(file: String?, keyPath: String, written: String?)
    /// A policy file's `app.urlSchemes`: the key path.
    case policyFile(keyPath: String)
    /// A command-line flag, as given (`--app-scheme acme`).
    case flag(String)

    /// Whether the scheme comes from an Info.plist (a file, or a policy file's `infoPlist`).
    public var isInfoPlist: Bool {
        if case .infoPlist = self { return true }
        return false
    }

    /// `the Info.plist Examples/Info.plist at CFBundleURLTypes[0].CFBundleURLSchemes[0] (written "ac$(PRODUCT_BUNDLE_IDENTIFIER)")`.
    public var description: String {
        switch self {
        case .infoPlist(let file, let keyPath, let written):
            let place = file.map { "the Info.plist \($0) at \(keyPath)" } ?? "the policy file's infoPlist at \(keyPath)"
            return written.map { "\(place) (written \(JSONWriter.quoted($0)))" } ?? place
        case .policyFile(let keyPath):
            return "the policy file at \(keyPath)"
        case .flag(let flag):
            return "the flag \(flag)"
        }
    }
}

/// The server's drag-and-drop policy, separate from the Open In policy.
public enum DragAndDropPolicy: String, Sendable, Hashable, CaseIterable {
    /// Drag and drop to all apps.
    case all
    /// Drag and drop to AppConnect apps only.
    case appConnect = "appconnect"
    /// No drag and drop.
    case none

    /// Reads `all`, `appconnect` or `none` (ASCII letters in any case, every other byte exactly).
    /// - Throws: ``InputError/unknownDragAndDropPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let value = DragAndDropPolicy.allCases.first(where: { ExactText.sameIgnoringASCIICase(text, $0.rawValue) }) else {
            throw .unknownDragAndDropPolicy(text)
        }
        self = value
    }
}

/// The AppConnect global policy's Web DLP setting: may an unsecured browser display a web address the app opens?
public enum WebDLPPolicy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An unsecured browser may display it (with Web@Work installed, the user chooses).
    case allowed
    /// Only Web@Work may display it; without Web@Work the page does not display.
    case notAllowed = "not-allowed"

    /// Reads `allowed` or `not-allowed` (ASCII letters in any case, every other byte exactly).
    /// - Throws: ``InputError/unknownWebDLPPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let value = WebDLPPolicy.allCases.first(where: { ExactText.sameIgnoringASCIICase(text, $0.rawValue) }) else {
            throw .unknownWebDLPPolicy(text)
        }
        self = value
    }

    public var description: String { rawValue }
}

extension AppConfig {
    /// Why a key given on the command line cannot be set.
    public struct KeyProblem: Error, Sendable {
        /// Why, and the key to write instead.
        public let message: String
    }

    /// This configuration with `key` set to `value`, keys compared byte for byte (as the SDK's
    /// `NSDictionary` compares them), never by Swift's canonical equivalence.
    ///
    /// A key with exactly `key`'s bytes is overridden. A key that is different bytes but
    /// canonically equivalent (`MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING` against the file's
    /// `MI_AC_DISABLE_SCHEME_BLOCKING`) is an error: the SDK would hold two keys, which
    /// ``values`` cannot. So is a key that is not a known key's bytes but is spelled like one
    /// (`KeySpelling`, the check `lint` applies to files): the SDK would never read it.
    /// - Complexity: O(n) in the number of keys, plus the spelling check's O(key length × known key length).
    public func setting(_ key: String, to value: String) throws(KeyProblem) -> AppConfig {
        for known in [AppConfig.disableSchemeBlockingKey, AppConfig.disableOpenInEnforcementKey, AppConfig.allowCustomKeyboardsKey]
        where KeySpelling.isMisspelling(key, of: known) {
            throw KeyProblem(message: "the key \(Printable.quoted(key)) is not \(known)\(KeySpelling.difference(key)): keys are matched byte for byte, so the SDK would never read it; write \(known)")
        }
        return try replacing(key, with: value)
    }

    /// This configuration with `key` set to `value`, keys compared byte for byte: a key with
    /// exactly `key`'s bytes is overridden; a different key canonically equivalent to it is an
    /// error (``values``, a Swift dictionary, would merge the two, and keep the other's bytes).
    /// A misspelling of a known key is set as written (a decision table may show that it is ignored).
    /// - Complexity: O(n) in the number of keys.
    package func replacing(_ key: String, with value: String) throws(KeyProblem) -> AppConfig {
        var values = self.values
        if let other = values.keys.first(where: { $0 == key }), !ExactText.same(other, key) {
            throw KeyProblem(message: "the key \(Printable.quoted(key)) and the key \(Printable.quoted(other)) already set are different bytes that look the same (canonically equivalent Unicode): the SDK reads them as two keys, this tool cannot keep them apart; give the key's exact bytes")
        }
        values[key] = value
        return AppConfig(values)
    }
}
