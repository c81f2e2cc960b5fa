import OpenInCore
import OpenInFleet
import OpenInKit

/// Whether and how an app is authorized on a device.
public enum Authorization: Sendable, Hashable, CustomStringConvertible {
    /// A container policy applies to the device (through `label`): that authorizes the app.
    case containerPolicy(name: String, label: String)
    /// No container policy applies, and the global policy authorizes apps without one.
    case globalDefault
    /// No container policy applies, and the global policy does not authorize apps without one: the app is retired.
    case notAuthorized
    /// An AppConnect app that is not installed on the device: not among its AppConnect apps.
    case notInstalled
    /// An app that does not embed AppConnect (or one the fleet does not list): AppConnect does not manage it.
    case notAppConnect

    /// Whether the app is an authorized AppConnect app (one of the device's "AppConnect apps" when installed).
    public var isAuthorized: Bool {
        switch self {
        case .containerPolicy, .globalDefault: true
        case .notAuthorized, .notInstalled, .notAppConnect: false
        }
    }

    public var description: String {
        switch self {
        case .containerPolicy(let name, let label): "authorized by the container policy \(JSONWriter.quoted(name)) (label \(JSONWriter.quoted(label)))"
        case .globalDefault: "authorized by the global policy (authorizeAppsWithoutContainerPolicy is true; no container policy applies)"
        case .notAuthorized: "not authorized: no container policy applies and the global policy does not authorize apps without one, so it is decided as a retired app"
        case .notInstalled: "an AppConnect app that is not installed on the device, so it is decided as a retired app"
        case .notAppConnect: "not an AppConnect app, so AppConnect does not restrict it"
        }
    }
}

/// Where one control of an effective policy comes from: what `--explain` cites.
public enum ControlSource: Sendable, Hashable, CustomStringConvertible {
    /// The app's container policy, which reaches the device through `label`.
    case containerPolicy(name: String, label: String)
    /// The global policy (the container policy does not set the control, or no container policy applies).
    case globalPolicy
    /// The app's AppConnect app configuration, which reaches the device through `label`.
    case appConfiguration(name: String, label: String)
    /// The app is retired (not authorized, or not installed): every control at the retired default.
    case retired
    /// The app is not an AppConnect app: no control applies.
    case notManaged
    /// Neither the container policy nor the global policy sets the control.
    case notSet

    public var description: String {
        switch self {
        case .containerPolicy(let name, let label): "container policy \(JSONWriter.quoted(name)) (label \(JSONWriter.quoted(label)))"
        case .globalPolicy: "global policy"
        case .appConfiguration(let name, let label): "app configuration \(JSONWriter.quoted(name)) (label \(JSONWriter.quoted(label)))"
        case .retired: "retired-app default"
        case .notManaged: "not managed"
        case .notSet: "not set"
        }
    }
}

/// One app's policy on one device, worked out from the fleet, with where each control came from.
public struct EffectivePolicy: Sendable {
    /// The app.
    public var app: BundleID { storage.app }
    /// The device profile's name.
    public var device: String { storage.device }
    /// Whether and how the app is authorized there.
    public var authorization: Authorization { storage.authorization }
    /// The policy its own requests are decided under (the single-app evaluator's input): for an
    /// authorized app, container over global control by control, with the device's authorized
    /// AppConnect apps as "All AppConnect apps"; for a retired app, the retired defaults; for an
    /// app AppConnect does not manage, not enforcing.
    public var policy: Policy { storage.policy }
    /// Where each control came from, in ``FleetControl`` order.
    public var sources: [(control: FleetControl, source: ControlSource)] { FleetControl.allCases.map { ($0, source(of: $0)) } }
    /// Where the app-specific configuration came from (`nil`: none applies, an empty configuration).
    public var configSource: ControlSource? { storage.configSource }
    /// Where the share-sheet activities the server excludes (`excludedAppleActivityTypes`) came from: the
    /// container policy when it sets them, the global policy otherwise; ``ControlSource/notSet`` when neither
    /// does (nothing is excluded), as for a retired app or one AppConnect does not manage.
    public var excludedActivitiesSource: ControlSource { Self.source(storage.picks.excludedActivities, authorization) }

    /// The values, held once: every decision names its sender's and receiver's effective policy, and
    /// copies one reference rather than a policy.
    private let storage: Storage

    /// The policy objects the controls came from, for naming the settings behind a decision.
    package struct Origin: Sendable {
        /// The app's entry in the fleet's apps (`nil`: the fleet does not list it).
        var app: FleetApp? { places.app < 0 ? nil : common.apps[Int(places.app)] }
        /// The container policy that applies, if any.
        var container: ContainerPolicy? { places.container < 0 ? nil : common.containerPolicies[Int(places.container)] }
        /// The app configuration that applies, if any.
        var configuration: AppConfiguration? { places.configuration < 0 ? nil : common.appConfigurations[Int(places.configuration)] }
        /// What every app's origin on one device shares, held once (a reference, not a copy of the global policy and profile per app).
        let common: Common
        /// The global policy.
        var global: GlobalPolicy { common.global }
        /// The device profile.
        var profile: DeviceProfile? { common.profile }
        /// The fleet file, when known.
        var file: String? { common.file }
        /// The objects' places in the common part's arrays (-1: none): a few bytes an app, where a copy of each object is hundreds.
        private let places: (app: Int32, container: Int32, configuration: Int32)

        /// The objects at these places of `common`'s fleet (`nil`: none). A place `common` does not hold names nothing.
        init(places: Places, common: Common) {
            self.common = common
            func place(_ place: Int?, below count: Int) -> Int32 { place.flatMap { $0 < count ? Int32(exactly: $0) : nil } ?? -1 }
            self.places = (place(places.app, below: common.apps.count), place(places.container, below: common.containerPolicies.count),
                           place(places.configuration, below: common.appConfigurations.count))
        }

        /// Where an app's objects are in a fleet: its entry, the container policy and the app configuration that apply.
        package struct Places: Sendable {
            var app: Int?
            var container: Int?
            var configuration: Int?
        }

        /// The global policy, the device profile and the fleet file, as every app's origin on one device names them.
        package final class Common: Sendable {
            let global: GlobalPolicy
            let profile: DeviceProfile?
            let file: String?
            /// The fleet's objects the origins' places are in (empty when they are not given by place): its arrays, each read
            /// alone (a copy of the fleet to read one would count a reference to each of its arrays).
            let apps: [FleetApp]
            let containerPolicies: [ContainerPolicy]
            let appConfigurations: [AppConfiguration]

            package init(global: GlobalPolicy, profile: DeviceProfile?, file: String?, fleet: borrowing Fleet? = nil) {
                (self.global, self.profile, self.file) = (global, profile, file)
                (apps, containerPolicies, appConfigurations) = if let fleet = copy fleet { (fleet.apps, fleet.containerPolicies, fleet.appConfigurations) } else { ([], [], []) }
            }
        }
    }

    /// Which policy each control came from, two bits each: what the sources are made from when asked for,
    /// not an array of them per app.
    package struct Picks: Sendable {
        /// Bits 2i…2i+1 for the control at index i; bits 10…11 for the excluded activities.
        fileprivate var bits: UInt16 = 0

        /// Where a control's value came from, under an authorization that gives the app a policy.
        package enum Pick: UInt16, Sendable {
            case notSet = 0
            case container = 1
            case global = 2
        }

        subscript(control: FleetControl) -> Pick {
            get { Pick(rawValue: (bits >> (2 * control.index)) & 3) ?? .notSet }
            set { bits = bits & ~(3 << (2 * control.index)) | newValue.rawValue << (2 * control.index) }
        }

        var excludedActivities: Pick {
            get { Pick(rawValue: (bits >> 10) & 3) ?? .notSet }
            set { bits = bits & ~(3 << 10) | newValue.rawValue << 10 }
        }
    }

    /// The source `pick` stands for under `authorization`.
    private static func source(_ pick: Picks.Pick, _ authorization: Authorization) -> ControlSource {
        switch (pick, authorization) {
        case (.container, .containerPolicy(let name, let label)): .containerPolicy(name: name, label: label)
        case (.global, _): .globalPolicy
        case (.container, _), (.notSet, _): .notSet
        }
    }

    private final class Storage: Sendable {
        let app: BundleID
        let device: String
        let authorization: Authorization
        let policy: Policy
        let picks: Picks
        let configSource: ControlSource?
        let origin: Origin?

        init(app: BundleID, device: String, authorization: Authorization, policy: Policy, picks: Picks, configSource: ControlSource?, origin: Origin?) {
            self.app = app
            self.device = device
            self.authorization = authorization
            self.policy = policy
            self.picks = picks
            self.configSource = configSource
            self.origin = origin
        }
    }

    package init(app: BundleID, device: String, authorization: Authorization, policy: Policy, picks: Picks, configSource: ControlSource?, origin: Origin? = nil) {
        storage = Storage(app: app, device: device, authorization: authorization, policy: policy, picks: picks, configSource: configSource, origin: origin)
    }

    /// The policy objects the controls came from.
    package var origin: Origin? { storage.origin }

    /// Where `control` came from.
    public func source(of control: FleetControl) -> ControlSource {
        switch authorization {
        case .notAppConnect: .notManaged
        case .notAuthorized, .notInstalled: .retired
        case .containerPolicy, .globalDefault: Self.source(storage.picks[control], authorization)
        }
    }

    /// The control a request on `channel` needs from this app as sender and neither policy sets, if any.
    public func missingControl(for channel: FleetChannel) -> FleetControl? {
        guard let control = channel.control else { return nil }
        return source(of: control) == .notSet ? control : nil
    }

    /// The single-app evaluator for ``policy``.
    package var evaluator: Evaluator { Evaluator(policy: policy) }
}

/// One device profile of a fleet, resolved: which apps are authorized there, each app's effective
/// policy, and end-to-end decisions (``decide(_:)``).
///
/// The device's "AppConnect apps" (the whitelist of "All AppConnect apps", the audience of a
/// secure copy, the AppConnect apps of drag and drop) are the authorized AppConnect apps installed on it.
public struct FleetDevice: Sendable {
    /// The fleet.
    public let fleet: Fleet
    /// The device profile.
    public let profile: DeviceProfile
    /// The authorized AppConnect apps installed on the device.
    public let appConnectApps: Set<BundleID>
    /// The device's facts as every app's policy sees them: the profile's, with the AppConnect
    /// apps and the scheme handlers the installed apps declare (the profile's own win).
    public let facts: DeviceFacts
    /// The effective policies of the listed and installed apps, worked out once.
    package let table: PolicyTable

    /// The device profile's name.
    public var name: String { profile.name }

    /// Resolves `profile` in `fleet`.
    /// - Throws: ``FleetError`` for two container policies, or two app configurations, for one app on the device.
    public init(fleet: Fleet, profile: DeviceProfile) throws(FleetError) {
        // The file's error checks on one core while the device is resolved on the other (resolving a fleet they
        // refuse is safe: lint does it); their error comes first, as when they ran first.
        // The resolution, which makes most of what the device holds, as the first (usually on this thread: its memory
        // from the heap the file's reading has just freed), the checks on the other core.
        let (resolved, checked) = Parallel.both({ Result { () throws(FleetError) in try FleetDevice(fleet: fleet, resolving: profile) } },
                                                { Result { () throws(FleetError) in try fleet.checkDecidable() } })
        try checked.get()
        self = try resolved.get()
    }

    /// Resolves `profile` in a fleet already checked (``Fleet/checkDecidable()``), or for lint, which reports what that refuses.
    package init(fleet: Fleet, resolving profile: DeviceProfile) throws(FleetError) {
        self.fleet = fleet
        self.profile = profile
        let installed = Set(profile.installed)
        let appIndex = fleet.appPositions()
        // Each listed app's container policies and configurations, found once (not a scan of every policy per app),
        // grouped by the app's position in file order: two arrays each, not an array per app.
        // (Each app read in place, by index: no policy copied.)
        let policiesOf = PositionsByApp(fleet.apps.count, fleet.containerPolicies.indices.map { appIndex[fleet.containerPolicies[$0].app] })
        let configurationsOf = PositionsByApp(fleet.apps.count, fleet.appConfigurations.indices.map { appIndex[fleet.appConfigurations[$0].app] })
        let carried = profile.labelSet  // looked up once per policy label: not a scan of the profile's labels
        // Each app's authorization, independent of the others: in parts across the cores, the first error in the apps' order.
        let authorized = Parallel.fill(fleet.apps.count, minimum: 512) { (position) throws(FleetError) in
            // An app listed twice (a fleet made in code) has the policies of its first listing, as every lookup by ID gives.
            try FleetDevice.authorization(of: fleet.apps[position], installed: installed, positions: policiesOf[appIndex[fleet.apps[position].bundleID] ?? position],
                                          fleet: fleet, profile: profile, carried: carried)
        }
        if let failure = authorized.failure { throw failure }
        let authorizations = authorized.values
        var apps: Set<BundleID> = []
        apps.reserveCapacity(fleet.apps.count)
        for position in fleet.apps.indices where authorizations[position].0.isAuthorized { apps.insert(fleet.apps[position].bundleID) }
        appConnectApps = apps
        var facts = profile.facts
        facts.appConnectApps = apps
        for id in profile.installed {
            guard let position = appIndex[id] else { continue }
            for scheme in fleet.apps[position].app.urlSchemes.sorted() where facts.handler(forScheme: scheme) == nil {
                try? facts.setHandler(id, for: scheme)
            }
        }
        self.facts = facts
        let tables = PreparedPolicy.DeviceTables(facts)
        var sides: [BundleID: FleetSide] = [:]
        sides.reserveCapacity(fleet.apps.count + profile.installed.count)
        let common = EffectivePolicy.Origin.Common(global: fleet.global, profile: profile, file: fleet.file, fleet: fleet)
        // Each listed app's policy and prepared policy, independent of the others: worked out in parts across the cores,
        // then taken in the apps' order (the first app whose configurations conflict is the error, as in one loop).
        // Beside them, the name that stands for "any other app" (a scan of every list of the fleet).
        // What every app reads, taken out of the fleet once (read through the fleet, each app's read copied it).
        let (listed, policies, configurations, global) = (fleet.apps, fleet.containerPolicies, fleet.appConfigurations, fleet.global)
        let (resolved, anyOtherApp) = Parallel.both({ Parallel.fill(listed.count, minimum: 256) { (position) throws(FleetError) -> FleetSide in
            let app = listed[position]
            let (authorization, container) = authorizations[position]
            let configuration = try FleetDevice.configuration(of: app.bundleID, positions: configurationsOf[appIndex[app.bundleID] ?? position], fleet: fleet,
                                                              profile: profile, carried: carried)
            // The objects read in place, named by their places: no copy of each kept per app.
            let policy = FleetDevice.effectivePolicy(app: app, authorization: authorization, container: container, of: policies,
                                                     configuration: configuration.map { (configurations[$0.position], $0.label) },
                                                     global: global, facts: facts, allAppConnect: tables.appConnectWhitelist, device: profile.name,
                                                     common: common, places: .init(app: position, container: container, configuration: configuration?.position))
            return (policy, PreparedPolicy(policy.policy, tables: tables))
        } }, { PolicyTable.anyOtherApp(in: fleet) })
        if let failure = resolved.failure { throw failure }
        for (position, side) in resolved.values.enumerated() { sides[fleet.apps[position].bundleID] = side }
        for id in profile.installed where sides[id] == nil {
            let policy = FleetDevice.effectivePolicy(app: FleetApp(bundleID: id, appConnect: false), authorization: .notAppConnect, container: nil,
                                                     configuration: nil, global: fleet.global, facts: facts, allAppConnect: tables.appConnectWhitelist, device: profile.name,
                                                     common: common)
            sides[id] = (policy, PreparedPolicy(policy.policy, tables: tables))
        }
        table = PolicyTable(sides: sides, installed: installed, appIndex: appIndex, tables: tables, anyOtherApp: anyOtherApp,
                            nativeMail: profile.installed.first(where: \.isNativeMail) ?? .mobileMail)
    }

    /// The effective policy of `app` on this device; an app the fleet neither lists nor installs is
    /// "any other app": AppConnect does not manage it.
    public func effectivePolicy(for app: BundleID) -> EffectivePolicy {
        if let known = table.sides[app] { return known.policy }
        return FleetDevice.effectivePolicy(app: FleetApp(bundleID: app, appConnect: false), authorization: .notAppConnect, container: nil, configuration: nil,
                                           global: fleet.global, facts: facts, allAppConnect: .empty, device: profile.name, fleet: fleet, profile: profile)
    }

    /// Whether `app` is installed on the device.
    public func isInstalled(_ app: BundleID) -> Bool { table.installed.contains(app) }

    /// `app`'s effective policy and its evaluator, prepared with the device's shared tables (once per
    /// listed or installed app: copies of the device share them).
    package func evaluator(for app: BundleID) -> (EffectivePolicy, Evaluator) {
        let (policy, prepared) = side(for: app)
        return (policy, Evaluator(prepared: prepared))
    }

    /// `app`'s effective policy and its prepared policy (what ``evaluator(for:)`` gives, as two references).
    package func side(for app: BundleID) -> FleetSide {
        if let known = table.sides[app] { return known }
        let policy = effectivePolicy(for: app)
        return (policy, PreparedPolicy(policy.policy, tables: table.tables))
    }

    /// The listed app with bundle ID `id`, found in the device's index of the fleet's apps.
    func listedApp(_ id: BundleID) -> FleetApp? { table.appIndex[id].map { fleet.apps[$0] } }

    /// Whether and how `app` is authorized on the device, with the place in `fleet.containerPolicies` of the container policy
    /// that applies: `positions` are the places of the policies for the app, in file order (read in place: no policy copied).
    package static func authorization(of app: FleetApp, installed: Set<BundleID>, positions: some Sequence<Int>, fleet: Fleet, profile: DeviceProfile,
                                      carried: Set<ExactKey>) throws(FleetError) -> (Authorization, Int?) {
        guard app.appConnect else { return (.notAppConnect, nil) }
        var found: (position: Int, label: String)? = nil
        for position in positions {
            guard let label = fleet.containerPolicies[position].labels.first(where: { carried.contains(ExactKey($0)) }) else { continue }
            if let first = found {
                let (policy, firstPolicy) = (fleet.containerPolicies[position], fleet.containerPolicies[first.position])
                let shared = first.label == label ? "the label \(JSONWriter.quoted(label))" : "the labels \(JSONWriter.quoted(first.label)) and \(JSONWriter.quoted(label))"
                throw FleetError("two container policies for \(app.bundleID) apply to the device \(JSONWriter.quoted(profile.name)): \(JSONWriter.quoted(firstPolicy.name)) and \(JSONWriter.quoted(policy.name)), through \(shared) it carries. Only one container policy may apply to an app on a device (Ivanti's Core guide, \"AppConnect container policy\"): give them labels no device carries together",
                                 file: fleet.file, line: policy.line)
            }
            found = (position, label)
        }
        if let found {
            guard installed.contains(app.bundleID) else { return (.notInstalled, nil) }
            return (.containerPolicy(name: fleet.containerPolicies[found.position].name, label: found.label), found.position)
        }
        guard installed.contains(app.bundleID) else { return (.notInstalled, nil) }
        return (fleet.global.authorizeAppsWithoutContainerPolicy ? .globalDefault : .notAuthorized, nil)
    }

    /// The app configuration for `app` that applies on the device, by its place in `fleet.appConfigurations`, with the label
    /// that brings it: `positions` are the places of the configurations for the app, in file order.
    package static func configuration(of app: BundleID, positions: some Sequence<Int>, fleet: Fleet, profile: DeviceProfile,
                                      carried: Set<ExactKey>) throws(FleetError) -> (position: Int, label: String)? {
        var found: (position: Int, label: String)? = nil
        for position in positions {
            let configuration = fleet.appConfigurations[position]
            guard let label = configuration.labels.first(where: { carried.contains(ExactKey($0)) }) else { continue }
            if let first = found {
                let shared = first.label == label ? "the label \(JSONWriter.quoted(label))" : "the labels \(JSONWriter.quoted(first.label)) and \(JSONWriter.quoted(label))"
                throw FleetError("two app configurations for \(app) apply to the device \(JSONWriter.quoted(profile.name)): \(JSONWriter.quoted(fleet.appConfigurations[first.position].name)) and \(JSONWriter.quoted(configuration.name)), through \(shared) it carries. Only one app configuration may apply to an app on a device (Ivanti's Core guide, \"AppConnect app configuration\"): give them labels no device carries together",
                                 file: fleet.file, line: configuration.line)
            }
            found = (position, label)
        }
        return found
    }

    /// The policy AppConnect leaves a retired app with: every control UNAUTHORIZED, no drag-and-drop
    /// policy, no configuration (the lifecycle's retired state); the app's Info.plist stays its own.
    static func retiredPolicy(_ app: FleetApp, facts: DeviceFacts) -> Policy {
        var policy = Policy(status: .unauthorized, infoPlist: app.infoPlist, device: facts, app: app.app)
        policy.openFrom = OpenFromPolicy(status: .unauthorized)
        policy.pasteboard = .unauthorized
        policy.print = .unauthorized
        return policy
    }

    /// `app`'s effective policy: `container` is the place in `policies` of the container policy that applies (`authorization`
    /// names it; its controls are read in place), `configuration` the app configuration that applies with its label; `places` are where `fleet` holds the app's
    /// objects (`nil`: the fleet does not list the app, and no container policy or configuration applies).
    package static func effectivePolicy(app: FleetApp, authorization: Authorization, container: Int?, of policies: [ContainerPolicy] = [],
                                        configuration: (AppConfiguration, String)?,
                                        global: GlobalPolicy, facts: DeviceFacts, allAppConnect: Whitelist, device: String, fleet: Fleet? = nil,
                                        profile: DeviceProfile? = nil, common: EffectivePolicy.Origin.Common? = nil,
                                        places: EffectivePolicy.Origin.Places? = nil) -> EffectivePolicy {
        let common = common ?? EffectivePolicy.Origin.Common(global: global, profile: profile, file: fleet?.file, fleet: places == nil ? nil : fleet)
        let origin = EffectivePolicy.Origin(places: places ?? .init(), common: common)
        switch authorization {
        case .notAppConnect:
            var policy = Policy(status: .authorized, infoPlist: app.infoPlist, device: facts, app: app.app, enforcing: false)
            policy.openFrom = OpenFromPolicy(status: .authorized)
            policy.pasteboard = .authorized
            policy.print = .authorized
            return EffectivePolicy(app: app.bundleID, device: device, authorization: authorization, policy: policy, picks: .init(), configSource: nil, origin: origin)
        case .notAuthorized, .notInstalled:
            return EffectivePolicy(app: app.bundleID, device: device, authorization: authorization, policy: retiredPolicy(app, facts: facts),
                                   picks: .init(), configSource: nil, origin: origin)
        case .containerPolicy, .globalDefault:
            var picks = EffectivePolicy.Picks()
            let fromContainer: Bool = if case .containerPolicy = authorization { true } else { false }
            // The container policy's value of a control when it sets it, the global policy's otherwise (each read in place).
            func value<T>(_ control: FleetControl, _ read: (borrowing PolicyControls) -> T?) -> T? {
                if fromContainer, let container, policies[container].controls.sets(control) {
                    picks[control] = .container
                    return read(policies[container].controls)
                }
                if global.controls.sets(control) {
                    picks[control] = .global
                    return read(global.controls)
                }
                picks[control] = .notSet
                return nil
            }
            var policy = Policy(status: .unauthorized, infoPlist: app.infoPlist, device: facts, app: app.app)
            if let (setting, list) = value(.openIn, { controls in controls.openIn.map { ($0, controls.openInWhitelist) } }) {
                switch setting {
                case .status(let status):
                    policy.status = status
                    policy.whitelist = list
                case .allAppConnectApps:
                    policy.status = .whitelist
                    policy.whitelist = allAppConnect
                }
            }
            policy.openFrom = value(.openFrom) { $0.openFrom }
            policy.pasteboard = value(.pasteboard) { $0.pasteboard }
            policy.print = value(.print) { $0.print }
            policy.dragAndDrop = value(.dragAndDrop) { $0.dragAndDrop }
            // The excluded share-sheet activities: the container policy's list when it sets one (even empty), the global policy's otherwise.
            if fromContainer, let container, let list = policies[container].controls.excludedActivityTypes {
                (policy.excludedActivityTypes, picks.excludedActivities) = (list, .container)
            } else if let list = global.controls.excludedActivityTypes {
                (policy.excludedActivityTypes, picks.excludedActivities) = (list, .global)
            }
            var configSource: ControlSource? = nil
            if let (configuration, label) = configuration {
                policy.config = configuration.config
                configSource = .appConfiguration(name: configuration.name, label: label)
            }
            return EffectivePolicy(app: app.bundleID, device: device, authorization: authorization, policy: policy, picks: picks, configSource: configSource,
                                   origin: origin)
        }
    }
}

/// One side of an end-to-end decision: an app's effective policy and the same policy prepared for deciding
/// (a reference each: copying a side copies no ``Policy``).
package typealias FleetSide = (policy: EffectivePolicy, prepared: PreparedPolicy)

/// A device's effective policies and the tables every evaluator on it shares, made once (a class: copies of a device share it).
package final class PolicyTable: Sendable {
    package let installed: Set<BundleID>
    /// Each listed app's position in the fleet's apps.
    let appIndex: [BundleID: Int]
    /// The device's facts indexed once, for every evaluator made on the device.
    package let tables: PreparedPolicy.DeviceTables
    /// A bundle ID no list of the fleet names, standing for "any other app".
    package let anyOtherApp: BundleID
    /// Each app's effective policy with its prepared policy, made once: with the shared tables, a prepared policy costs about its own schemes.
    package let sides: [BundleID: FleetSide]
    /// The node native Mail is on the device: the first native Mail the profile installs, else `com.apple.mobilemail` (found once, not per delivery).
    let nativeMail: BundleID

    /// A table of policies already prepared with `tables`; `anyOtherApp` from ``anyOtherApp(in:)``.
    package init(sides: [BundleID: FleetSide], installed: Set<BundleID>, appIndex: [BundleID: Int], tables: PreparedPolicy.DeviceTables, anyOtherApp: BundleID,
                 nativeMail: BundleID) {
        self.nativeMail = nativeMail
        self.installed = installed
        self.appIndex = appIndex
        self.tables = tables
        self.sides = sides
        self.anyOtherApp = anyOtherApp
    }

    /// The first of `any-other-app.openin-check`, `any-other-app1.openin-check`, … that no list of `fleet` names.
    package static func anyOtherApp(in fleet: Fleet) -> BundleID {
        var candidate = BundleID(known: "any-other-app.openin-check")
        var counter = 1
        while FleetDevice.names(candidate, in: fleet) {
            candidate = BundleID(known: "any-other-app\(counter).openin-check")
            counter += 1
        }
        return candidate
    }
}

extension FleetDevice {
    /// Whether any list of `fleet` names `id`.
    package static func names(_ id: BundleID, in fleet: Fleet) -> Bool {
        if fleet.apps.contains(where: { $0.bundleID == id }) || fleet.devices.contains(where: { $0.installed.contains(id) }) { return true }
        func lists(_ controls: borrowing PolicyControls) -> Bool {
            controls.openInWhitelist.list.contains(id) || (controls.openFrom?.whitelist.list.contains(id) ?? false)
        }
        // The policies in place: no copy of every policy's controls.
        if lists(fleet.global.controls) { return true }
        for index in fleet.containerPolicies.indices where lists(fleet.containerPolicies[index].controls) { return true }
        return false
    }
}

extension Evaluator {
    /// An evaluator for `policy`, prepared with its device's shared tables.
    package init(policy: Policy, tables: PreparedPolicy.DeviceTables) {
        self.policy = policy
        prepared = PreparedPolicy(policy, tables: tables)
    }

    /// An evaluator for a policy already prepared.
    package init(prepared: PreparedPolicy) {
        policy = prepared.policy
        self.prepared = prepared
    }
}

/// Positions in a list (container policies, app configurations) grouped by the position of the app each names, in
/// list order: a counting sort into one array, so grouping N items makes two arrays, not one per app.
struct PositionsByApp {
    /// Where each app's positions start in ``order`` (one more entry than there are apps).
    private let starts: [Int]
    private let order: [Int]

    /// Groups the items whose apps are `owners` (each an app's position below `apps`, or `nil`: no listed app, left out).
    init(_ apps: Int, _ owners: [Int?]) {
        var starts = [Int](repeating: 0, count: apps + 1)
        for owner in owners { if let owner { starts[owner + 1] += 1 } }
        for app in 0..<apps { starts[app + 1] += starts[app] }
        var next = starts
        var order = [Int](repeating: 0, count: starts[apps])
        for (position, owner) in owners.enumerated() {
            guard let owner else { continue }
            order[next[owner]] = position
            next[owner] += 1
        }
        (self.starts, self.order) = (starts, order)
    }

    /// The positions of the items of the app at `app`, in list order.
    subscript(_ app: Int) -> ArraySlice<Int> { order[starts[app]..<starts[app + 1]] }
}
