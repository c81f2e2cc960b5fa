import OpenInCore
import OpenInFleet
import OpenInKit

/// What an organisation configures on the AppConnect server, as one value: the global policy,
/// the container policies and app configurations that reach devices by label, the
/// organisation's apps and the device profiles the questions are asked about.
///
/// Read one with ``FleetJSON``; ask a device with ``device(named:)``, which resolves every
/// app's effective policy there (``FleetDevice``).
///
/// Facts it follows (Ivanti's Core guide, "AppConnect container policy", "AppConnect global
/// policy", "AppConnect app configuration"): a container policy overrides the global policy
/// control by control; "the presence of an AppConnect container policy for a device is what
/// authorizes the app on the device"; the global policy says whether apps with no container
/// policy are authorized; only one container policy and one app configuration apply to an app
/// on a device.
public struct Fleet: Sendable {
    /// The AppConnect global policy.
    public var global: GlobalPolicy
    /// The AppConnect container policies, in file order.
    public var containerPolicies: [ContainerPolicy]
    /// The AppConnect app configurations, in file order.
    public var appConfigurations: [AppConfiguration]
    /// The organisation's apps, AppConnect or not, in file order (an app not listed is "any other app").
    public var apps: [FleetApp]
    /// The device profiles, in file order.
    public var devices: [DeviceProfile]
    /// The file the fleet was read from, when known (errors name it).
    public var file: String?

    /// Creates a fleet.
    public init(global: GlobalPolicy, containerPolicies: [ContainerPolicy] = [], appConfigurations: [AppConfiguration] = [],
                apps: [FleetApp] = [], devices: [DeviceProfile] = [], file: String? = nil) {
        self.global = global
        self.containerPolicies = containerPolicies
        self.appConfigurations = appConfigurations
        self.apps = apps
        self.devices = devices
        self.file = file
    }

    /// The listed app whose bundle ID is exactly `id`, if any.
    public func app(_ id: BundleID) -> FleetApp? { apps.first { $0.bundleID == id } }

    /// Each app's place in ``apps`` (the first with its ID, the one ``app(_:)`` finds), for a caller that looks up many.
    package func appPositions() -> [BundleID: Int] {
        var positions: [BundleID: Int] = [:]
        positions.reserveCapacity(apps.count)
        // By index: each app's ID read in place, no app copied.
        for position in apps.indices where positions[apps[position].bundleID] == nil { positions[apps[position].bundleID] = position }
        return positions
    }

    /// The device profile named exactly `name` (byte for byte), if any.
    public func profile(named name: String) -> DeviceProfile? { devices.first { ExactText.same($0.name, name) } }

    /// Resolves the device profile named `name`: each app's authorization and effective policy there.
    /// - Throws: ``FleetError`` for an unknown device, or two container policies (or app configurations)
    ///   for one app on the device.
    public func device(named name: String) throws(FleetError) -> FleetDevice {
        guard let profile = profile(named: name) else {
            let names = devices.map(\.name)
            throw FleetError("no device profile is named \(JSONWriter.quoted(name)).\(Suggestion.phrase(for: name, among: names)) Device profiles: \(names.isEmpty ? "none" : Printable.list(names))")
        }
        return try FleetDevice(fleet: self, profile: profile)
    }

    /// Every device profile resolved, in file order.
    /// - Throws: ``FleetError`` as ``device(named:)``.
    public func resolvedDevices() throws(FleetError) -> [FleetDevice] {
        try checkDecidable()
        var resolved: [FleetDevice] = []
        for profile in devices { resolved.append(try FleetDevice(fleet: self, resolving: profile)) }
        return resolved
    }
}

/// The data-loss-prevention controls a policy object sets; each is `nil` when the object leaves it
/// to another (a container policy leaves it to the global policy). The values are the policy file's.
public struct PolicyControls: Sendable, Hashable {
    /// The Open In policy (`openInPolicy`).
    public var openIn: PolicySetting?
    /// The Open In whitelist (`openInWhitelist`), part of the Open In control.
    public var openInWhitelist: Whitelist
    /// The Open From policy and its whitelist (`openFromPolicy`, `openFromWhitelist`).
    public var openFrom: OpenFromPolicy?
    /// The pasteboard policy (`pasteboardPolicy`).
    public var pasteboard: PasteboardPolicy?
    /// The print policy (`printPolicy`).
    public var print: PrintPolicy?
    /// The drag-and-drop policy (`dragAndDropPolicy`).
    public var dragAndDrop: DragAndDropPolicy?
    /// The share-sheet activities the server excludes (`excludedAppleActivityTypes`), when the object sets them:
    /// a container policy's list, even empty, replaces the global policy's. Not a control a request needs: an
    /// app whose policies set none excludes nothing.
    public var excludedActivityTypes: [BundleID]?
    /// Where the object and each of its values were read (not part of its value).
    package var sources = SettingSources()

    /// Creates controls; none is set by default.
    public init(openIn: PolicySetting? = nil, openInWhitelist: Whitelist = .empty, openFrom: OpenFromPolicy? = nil,
                pasteboard: PasteboardPolicy? = nil, print: PrintPolicy? = nil, dragAndDrop: DragAndDropPolicy? = nil,
                excludedActivityTypes: [BundleID]? = nil) {
        self.excludedActivityTypes = excludedActivityTypes
        self.openIn = openIn
        self.openInWhitelist = openInWhitelist
        self.openFrom = openFrom
        self.pasteboard = pasteboard
        self.print = print
        self.dragAndDrop = dragAndDrop
    }

    /// Whether the object sets `control`.
    public func sets(_ control: FleetControl) -> Bool {
        switch control {
        case .openIn: openIn != nil
        case .openFrom: openFrom != nil
        case .pasteboard: pasteboard != nil
        case .print: print != nil
        case .dragAndDrop: dragAndDrop != nil
        }
    }
}

/// One data-loss-prevention control of a policy object, named by its policy key.
public enum FleetControl: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Open In (`openInPolicy` with `openInWhitelist`).
    case openIn = "openInPolicy"
    /// Open From (`openFromPolicy` with `openFromWhitelist`).
    case openFrom = "openFromPolicy"
    /// Copy/paste (`pasteboardPolicy`).
    case pasteboard = "pasteboardPolicy"
    /// Print (`printPolicy`).
    case print = "printPolicy"
    /// Drag and drop (`dragAndDropPolicy`).
    case dragAndDrop = "dragAndDropPolicy"

    public var description: String { rawValue }

    /// The control's place in ``allCases`` (found by a switch: no array made per call).
    package var index: Int {
        switch self {
        case .openIn: 0
        case .openFrom: 1
        case .pasteboard: 2
        case .print: 3
        case .dragAndDrop: 4
        }
    }
}

/// The AppConnect global policy: default controls, and whether apps with no container policy are authorized.
public struct GlobalPolicy: Sendable, Hashable {
    /// Whether an AppConnect app with no container policy on a device is authorized there.
    public var authorizeAppsWithoutContainerPolicy: Bool
    /// The default controls.
    public var controls: PolicyControls

    /// Creates a global policy.
    public init(authorizeAppsWithoutContainerPolicy: Bool, controls: PolicyControls = PolicyControls()) {
        self.authorizeAppsWithoutContainerPolicy = authorizeAppsWithoutContainerPolicy
        self.controls = controls
    }
}

/// An AppConnect container policy: the controls it sets for one app on the devices that carry one of its labels.
public struct ContainerPolicy: Sendable, Hashable {
    /// The policy's name (errors and explanations name it).
    public var name: String
    /// The app it applies to.
    public var app: BundleID
    /// The labels that bring it to a device, compared byte for byte.
    public var labels: [String]
    /// The controls it sets; the rest come from the global policy.
    public var controls: PolicyControls
    /// Its line in the fleet file, when read from one.
    public var line: Int?

    /// Creates a container policy.
    public init(name: String, app: BundleID, labels: [String], controls: PolicyControls = PolicyControls(), line: Int? = nil) {
        self.name = name
        self.app = app
        self.labels = labels
        self.controls = controls
        self.line = line
    }
}

/// An AppConnect app configuration: app-specific key-value pairs (`MI_AC_*` keys among them) for one app, by label.
public struct AppConfiguration: Sendable, Hashable {
    /// The configuration's name (defaults to `Default BUNDLE_ID Configuration`, as Core names the one it creates).
    public var name: String
    /// The app it applies to.
    public var app: BundleID
    /// The labels that bring it to a device, compared byte for byte.
    public var labels: [String]
    /// The key-value pairs.
    public var config: AppConfig
    /// Its line in the fleet file, when read from one.
    public var line: Int?
    /// Where the configuration and each of its keys were read (not part of its value).
    package var sources = SettingSources()

    /// Creates an app configuration.
    public init(name: String? = nil, app: BundleID, labels: [String], config: AppConfig, line: Int? = nil) {
        self.name = name ?? "Default \(app.rawValue) Configuration"
        self.app = app
        self.labels = labels
        self.config = config
        self.line = line
    }
}

/// One of the organisation's apps.
public struct FleetApp: Sendable, Hashable {
    /// The app's bundle ID.
    public var bundleID: BundleID
    /// Whether the app embeds AppConnect (an SDK or wrapped app): only those are managed.
    public var appConnect: Bool
    /// The app's own URL schemes (from `urlSchemes` and its Info.plist's `CFBundleURLTypes`), and its
    /// answer on custom keyboards (`allowsCustomKeyboards`, default `true`).
    public var app: AppFacts
    /// The `MI_APP_CONNECT` overrides of its Info.plist.
    public var infoPlist: InfoPlistOverrides
    /// Where the app's entry and its values were read (not part of its value).
    package var sources = SettingSources()

    /// Creates an app.
    public init(bundleID: BundleID, appConnect: Bool, app: AppFacts = AppFacts(), infoPlist: InfoPlistOverrides = InfoPlistOverrides()) {
        self.bundleID = bundleID
        self.appConnect = appConnect
        self.app = app
        self.infoPlist = infoPlist
    }
}

/// A named device profile: the labels a device carries and what is installed on it.
public struct DeviceProfile: Sendable, Hashable {
    /// The profile's name.
    public var name: String
    /// The labels the device carries, compared byte for byte.
    public var labels: [String]
    /// The installed apps, in the order given.
    public var installed: [BundleID]
    /// Facts the single-app evaluator reads: Email+, scheme handlers, secure services.
    /// (Its AppConnect apps are not given: they follow from the fleet, ``FleetDevice/appConnectApps``.)
    public var facts: DeviceFacts
    /// Where the profile and its values were read (not part of its value).
    package var sources = SettingSources()

    /// Creates a device profile.
    public init(name: String, labels: [String], installed: [BundleID], facts: DeviceFacts = DeviceFacts()) {
        self.name = name
        self.labels = labels
        self.installed = installed
        self.facts = facts
    }

    /// Whether the device carries `label` (byte for byte).
    public func carries(_ label: String) -> Bool { labels.contains { ExactText.same($0, label) } }

    /// The labels, as a set compared by bytes: made once where many labels are looked up.
    var labelSet: Set<ExactKey> { Set(labels.map(ExactKey.init)) }
}

extension FleetChannel {
    /// The control the sender's policy must set for a request on this channel; `nil` for `keyboard`,
    /// which no container or global policy control decides (the app configuration's key, or the app).
    public var control: FleetControl? {
        switch self {
        case .dragAndDrop: .dragAndDrop
        case .paste, .copy: .pasteboard
        case .print: .print
        case .keyboard, .saveAs, .openIntoOrgDocument: nil
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose: .openIn
        }
    }
}
