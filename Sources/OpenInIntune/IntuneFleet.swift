import OpenInCore
import OpenInFleet
import OpenInKit

/// Microsoft Intune app protection policies with the facts of the devices they are asked about:
/// the Intune counterpart of a ``Fleet``. An Intune policy targets a set of apps, so a set of
/// policies is a fleet by nature.
public struct IntuneFleet: Sendable {
    /// The iOS app protection policies, in the order read.
    public var policies: [IntunePolicy]
    /// The apps and their Intune App SDK versions (`apps` of the devices file).
    public var apps: [IntuneApp] { didSet { appVersions = Self.versions(of: apps) } }
    /// Each app's `appVersion` (its first entry's), by `IntuneBundleID.key`: what a filter reads, looked up, not searched for.
    private(set) var appVersions: [ExactKey: String] = [:]
    /// The device profiles (`devices` of the devices file), in file order.
    public var devices: [IntuneDeviceProfile]
    /// Where the policies were read from, when known.
    public var file: String?
    /// The Entra groups' display names by object id (the devices file's `groups`), for assignments that
    /// name a group by id.
    public var groupNames: [(id: String, name: String)] = []
    /// Whether a policy assigned to no one (`"assignments": []`) is analysed as if assigned to every
    /// profile (`--assume-assigned`: a template, a baseline before its rollout).
    public var assumeAssigned = false
    /// The managed-app assignment filters assignments name (the devices file's `assignmentFilters`).
    var filters = AssignmentFilters.none
    /// The devices file the profiles were read from, when known (for messages).
    package var devicesFile: String? = nil
    /// How several policies that reach one app on one profile combine (`--conflicts`): Microsoft's rule,
    /// the most restrictive value per setting, unless an auditor asks for the least restrictive.
    package var conflictMode = ConflictMode.mostRestrictive
    /// The app groups and devices-file flag of the last ``resolveAppGroups(_:devicesFile:)``, so that policies
    /// read again (as `fleet fixes` reads each changed copy) are resolved the same way.
    package private(set) var appGroupResolution: (groups: [(name: String, apps: [BundleID])], devicesFile: Bool)? = nil

    /// Creates an Intune fleet.
    public init(policies: [IntunePolicy], apps: [IntuneApp] = [], devices: [IntuneDeviceProfile] = [], file: String? = nil) {
        self.policies = policies
        self.apps = apps
        appVersions = Self.versions(of: apps)
        self.devices = devices
        self.file = file
    }

    /// What who a policy reaches reads of an app on a profile (``reach(_:_:on:membership:)``: its level and filters).
    struct AppFacts: Hashable {
        let managed: Bool
        let version: String?
    }

    static func versions(of apps: [IntuneApp]) -> [ExactKey: String] {
        var versions: [ExactKey: String] = [:], seen: Set<ExactKey> = []
        for app in apps where seen.insert(IntuneBundleID.key(app.bundleID)).inserted {
            if let version = app.appVersion { versions[IntuneBundleID.key(app.bundleID)] = version }
        }
        return versions
    }

    /// Resolves the apps of every policy that names an app group its export does not list
    /// (``IntuneAppGroups/resolve(_:groups:apps:file:)``), with the devices file's `appGroups` and apps.
    /// - Parameters:
    ///   - groups: the devices file's `appGroups` (``IntuneDevicesJSON/appGroups(_:file:)``).
    ///   - devicesFile: whether the fleet has a devices file (``apps`` then says which apps have the SDK).
    /// - Throws: ``FleetError`` for a group nothing resolves.
    public mutating func resolveAppGroups(_ groups: [(name: String, apps: [BundleID])], devicesFile: Bool = true) throws(FleetError) {
        appGroupResolution = (groups, devicesFile)
        for index in policies.indices {
            try IntuneAppGroups.resolve(&policies[index], groups: groups, apps: devicesFile ? apps : nil, file: file)
        }
    }

    /// The policy that targets `app` (bundle IDs compared ignoring ASCII case), if any.
    public func policy(for app: BundleID) -> IntunePolicy? { policies.first { $0.targets(app) } }

    /// The Intune App SDK version the devices file gives for `app`.
    public func sdkVersion(of app: BundleID) -> IntuneSDKVersion? {
        apps.first { IntuneBundleID.same($0.bundleID, app) }?.intuneSDKVersion
    }

    /// Checks that who each policy reaches can be worked out on every profile: every assignment's group
    /// spelled as the profiles and the groups map spell it (not only the same up to letter case or Unicode
    /// normalization: groups match byte for byte), known (a name, or an id some profile or the devices file's `groups` names), every profile saying its
    /// groups when a policy is assigned to groups, every filter defined and given what it reads. Several
    /// policies reaching one app on one profile are not an error: they decide together (most restrictive value per setting, `Rules/intune/conflicts.md`),
    /// with a devices file or without one.
    /// - Throws: ``FleetError`` naming the policy, the file and line, and the fix.
    public func checkConflicts() throws(FleetError) {
        try checkGroupSpelling()
        try checkResolved()
        try checkAssignments()
        // Who each policy reaches is worked out on every profile now, so that no later decision meets an error.
        // Several policies reaching one app at once are merged (``IntuneDeviceIndex``), not an error; without devices,
        // the question names its own profile (eval's device that knows only the app), where they merge alike.
        guard !devices.isEmpty else { return }
        // Only a filter can fail to resolve (a profile without groups was refused above): visit, per profile, the
        // policies whose groups include it and that filter an included group, never every policy (IntuneReachIndex).
        let index = IntuneReachIndex(self)
        // Each profile alone, in parts across the cores: the error of the first profile in file order that has one.
        let checked = Parallel.fill(devices.count, minimum: 64) { (position) throws(FleetError) in
            let device = devices[position]
            let membership = index.membership(of: device)
            for position in index.candidates(in: self, membership: membership).ordered where index.filtered[position] {
                // What a policy's reach reads of an app is its management type and version: apps alike are resolved once.
                var resolved: Set<AppFacts> = []
                for (app, number) in zip(policies[position].apps, index.appNumbersOf[position]) {
                    let managed = device.isManagedType(app)
                    guard resolved.insert(AppFacts(managed: managed, version: index.appVersions[number])).inserted, index.levels[position].targets(managed: managed) else { continue }
                    var subject: FilterSubject? = nil
                    _ = try admits(position, app, number: number, managed: managed, on: device, membership: membership, index: index, subject: &subject)
                }
            }
        }
        if let failure = checked.failure { throw failure }
    }

    /// The device profile named exactly `name`.
    /// - Throws: ``FleetError`` for an unknown name, with "Did you mean".
    public func device(named name: String) throws(FleetError) -> IntuneDeviceProfile {
        guard let device = devices.first(where: { ExactText.same($0.name, name) }) else {
            let names = devices.map(\.name)
            throw FleetError("no device profile is named \(JSONWriter.quoted(name)) in the Intune devices file.\(Suggestion.phrase(for: name, among: names)) Device profiles: \(names.isEmpty ? "none" : Printable.list(names))")
        }
        return device
    }

    /// Whether `app` is installed on `device` (bundle IDs compared ignoring ASCII case).
    public func isInstalled(_ app: BundleID, on device: IntuneDeviceProfile) -> Bool { IntuneBundleID.contains(device.installed, app) }

    /// The policy that protects `app` on `device`, if any: the one that targets it and reaches the profile
    /// (its groups, filter and management level). `nil` also when who is in scope cannot be worked out
    /// (``checkConflicts()`` reports why).
    public func policy(for app: BundleID, on device: IntuneDeviceProfile) -> IntunePolicy? {
        guard let reaching = try? reaching(app, on: device, membership: membership(of: device)), let first = reaching.first else { return nil }
        return reaching.count == 1 ? policies[first] : IntuneConflicts.merge(reaching.map { policies[$0] }, mode: conflictMode).policy
    }

    /// The policy-managed apps on `device`: installed apps a policy protects there.
    public func managedApps(on device: IntuneDeviceProfile) -> [BundleID] { device.installed.filter { policy(for: $0, on: device) != nil } }

    /// The context `app` decides its own requests in on `device`.
    public func context(for app: BundleID, on device: IntuneDeviceProfile) -> IntuneContext {
        context(for: app, on: device, managed: managedApps(on: device))
    }

    package func context(for app: BundleID, on device: IntuneDeviceProfile, managed: [BundleID]) -> IntuneContext {
        context(for: app, on: device, managed: managed, policy: policy(for: app, on: device), sdk: sdkVersion(of: app))
    }

    /// The context, with the app's policy and SDK version already found.
    package func context(for app: BundleID, on device: IntuneDeviceProfile, managed: [BundleID], policy: IntunePolicy?, sdk: IntuneSDKVersion?) -> IntuneContext {
        var context = IntuneContext(policy: policy)
        context.app = app
        context.senderSDKVersion = sdk
        context.managedApps = managed
        context.mdmManagedApps = device.mdmManagedApps
        context.mdmEnrolled = device.mdmEnrolled
        context.intuneMAMUPN = device.receivesUPN(app)
        for (scheme, handler) in device.schemeHandlers {
            try? context.setHandler(handler, for: scheme)
            // A scheme the device hands to the app itself is one of the app's own.
            if IntuneBundleID.same(handler, app) { try? context.addOwnScheme(scheme) }
        }
        return context
    }

    /// Decides `request` end to end on the device named `device`.
    ///
    /// The sender's part is its Intune decision; when it delivers (`allow`, `redirect`) to a
    /// policy-managed app on a channel with a receiving side, that app's "Receive data from other
    /// apps" decides too (`IntuneReceiveRule`), with the sender as source: allowed only if both allow.
    /// For a `paste` into a policy-managed app, that app's "Restrict cut, copy, and paste between other
    /// apps" decides the paste in (`IntunePasteRule`), with the copying app as source.
    /// - Throws: ``FleetError`` for an unknown device.
    public func decide(device name: String, _ request: FleetRequest) throws(FleetError) -> FleetDecision {
        try checkResolved()
        return try IntuneDeviceIndex(fleet: self, device: try device(named: name)).decide(request)
    }

    /// The device's facts worked out once, for the verbs that decide many requests on it.
    package func index(device name: String, reach: IntuneReachIndex? = nil) throws(FleetError) -> IntuneDeviceIndex {
        try checkResolved()
        return try IntuneDeviceIndex(fleet: self, device: try device(named: name), reach: reach)
    }

    /// Fails closed on a policy whose export names an app group without its apps and that was never resolved
    /// (``resolveAppGroups(_:devicesFile:)``): read as it is, it would target no app, and every share of its apps would be `allow`.
    func checkResolved() throws(FleetError) {
        for policy in policies where policy.appsFromGroup == .unresolved {
            throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) targets the app group \(policy.appGroupType ?? "?"), which its export does not list, and the group was not resolved: resolve it with the devices file's appGroups (IntuneFleet.resolveAppGroups) before deciding",
                             file: policy.sources.file ?? file, line: policy.sources.keys["appGroupType"]?.line)
        }
    }
}

/// One device of an ``IntuneFleet`` with its policy-managed apps and each app's context worked out
/// once: many decisions on a device cost one lookup each instead of a walk of every policy.
package struct IntuneDeviceIndex: Sendable {
    package let fleet: IntuneFleet
    package let device: IntuneDeviceProfile
    package let managed: [BundleID]
    /// The context of every app the device's nodes and the fleet's apps name, made once at creation, by the
    /// app's bundle ID with ASCII letters lowercased (Intune's comparison); others are made when asked.
    private let contexts: [ExactKey: (context: IntuneContext, side: IntunePolicySide)]
    /// Per policy, its side of a decision (``IntuneSides``), made once so a decision copies a reference, not a policy;
    /// then the side of an app no policy targets.
    private let sides: [IntunePolicySide]

    /// Each targeted app's policy (its first), and each app's SDK version, by `IntuneBundleID/key(_:)`.
    private let policyOf: [ExactKey: Int]
    private let sdkOf: [ExactKey: IntuneSDKVersion]
    private let managedKeys: Set<ExactKey>
    /// What every app's context on the device shares: the device's facts, the managed apps (with their
    /// keys) and the scheme handlers, set once, not once per app.
    private let base: IntuneContext
    /// Each app's own URL schemes (those the device hands to it), by `IntuneBundleID/key(_:)`.
    private let ownSchemes: [ExactKey: [String]]
    /// The apps that receive `IntuneMAMUPN`, when the devices file lists them (by `IntuneBundleID/key(_:)`).
    private let upnApps: Set<ExactKey>?
    /// The fleet's policies, then the policies merged on this device (where several reach one app at once).
    private let policies: [IntunePolicy]

    /// The index of `device`, every context made: O(policies' apps + assignments + apps + installed apps + scheme handlers).
    /// - Parameter reach: the fleet's ``IntuneReachIndex``, when the caller indexes several devices (else made here).
    package init(fleet: IntuneFleet, device: IntuneDeviceProfile, reach: IntuneReachIndex? = nil) throws(FleetError) {
        self.fleet = fleet
        self.device = device
        var policyOf: [ExactKey: Int] = [:], sdkOf: [ExactKey: IntuneSDKVersion] = [:]
        // Each targeted app's policy on this device: the one that reaches it (who is in scope, its level).
        // Several policies that reach one app at once decide together: one merged policy per distinct set,
        // most restrictive value per setting (or least, as `--conflicts` asks: Rules/intune/conflicts.md).
        var decided: Set<ExactKey> = []
        var policies = fleet.policies
        var mergedSlot: [[Int]: Int] = [:]
        // Only the policies whose groups include the profile can reach an app on it (IntuneReachIndex).
        let reach = reach ?? IntuneReachIndex(fleet)
        let membership = reach.membership(of: device)
        let candidates = reach.candidates(in: fleet, membership: membership)
        for position in candidates.ordered {
            for app in fleet.policies[position].apps {
                // Each app's key made once (a lowercased copy when the ID has capitals), for the set and the table.
                let key = IntuneBundleID.key(app)
                guard decided.insert(key).inserted else { continue }
                let reaching = try fleet.reaching(app, on: device, membership: membership, index: reach, candidates: candidates)
                guard reaching.count > 1 else {
                    if let index = reaching.first { policyOf[key] = index }
                    continue
                }
                if mergedSlot[reaching] == nil {
                    mergedSlot[reaching] = policies.count
                    policies.append(IntuneConflicts.merge(reaching.map { fleet.policies[$0] }, mode: fleet.conflictMode).policy)
                }
                policyOf[key] = mergedSlot[reaching]
            }
        }
        self.policies = policies
        var listed: Set<ExactKey> = []
        listed.reserveCapacity(fleet.apps.count)
        for app in fleet.apps {
            let key = IntuneBundleID.key(app.bundleID)
            if listed.insert(key).inserted, let version = app.intuneSDKVersion { sdkOf[key] = version }
        }
        self.policyOf = policyOf
        self.sdkOf = sdkOf
        let managed = device.installed.filter { policyOf[IntuneBundleID.key($0)] != nil }
        self.managed = managed
        managedKeys = Set(managed.map(IntuneBundleID.key))
        // As `IntuneFleet.context(for:on:managed:policy:sdk:)` makes it, with the handlers set once for all apps.
        var base = IntuneContext(policy: nil)
        base.managedApps = managed
        base.managedIndex.keys = managedKeys
        base.mdmManagedApps = device.mdmManagedApps
        base.mdmEnrolled = device.mdmEnrolled
        base.intuneMAMUPN = device.intuneMAMUPN
        let upnApps = device.intuneMAMUPNApps.map { Set($0.map(IntuneBundleID.key)) }
        self.upnApps = upnApps
        var ownSchemes: [ExactKey: [String]] = [:]
        for (scheme, handler) in device.schemeHandlers {
            try? base.setHandler(handler, for: scheme)
            ownSchemes[IntuneBundleID.key(handler), default: []].append(scheme)
        }
        self.base = base
        self.ownSchemes = ownSchemes
        let sides = policies.map { IntunePolicySide(policy: $0, file: fleet.file) } + [IntunePolicySide(policy: nil, file: fleet.file)]
        self.sides = sides
        var contexts: [ExactKey: (context: IntuneContext, side: IntunePolicySide)] = [:]
        let apps = device.installed + fleet.apps.map(\.bundleID) + [BundleID.anyOtherApp, .mobileMail]
        // Room for the larger list (the installed apps are usually among the fleet's, or the other way round).
        contexts.reserveCapacity(max(device.installed.count, fleet.apps.count) + 2)
        for app in apps {
            let key = IntuneBundleID.key(app)
            guard contexts[key] == nil else { continue }
            contexts[key] = (Self.context(for: app, base: base, ownSchemes: ownSchemes, policyOf: policyOf, sdkOf: sdkOf, upnApps: upnApps, policies: policies),
                             sides[policyOf[key] ?? sides.count - 1])
        }
        self.contexts = contexts
    }

    private static func context(
        for app: BundleID, base: IntuneContext, ownSchemes: [ExactKey: [String]], policyOf: [ExactKey: Int], sdkOf: [ExactKey: IntuneSDKVersion],
        upnApps: Set<ExactKey>?, policies: [IntunePolicy]
    ) -> IntuneContext {
        let key = IntuneBundleID.key(app)
        var context = base
        if let upnApps { context.intuneMAMUPN = upnApps.contains(key) }
        context.policy = policyOf[key].map { policies[$0] }
        context.app = app
        context.senderSDKVersion = sdkOf[key]
        for scheme in ownSchemes[key] ?? [] { try? context.addOwnScheme(scheme) }
        return context
    }

    /// The context of `app` on the device (made at creation for the apps the device and fleet name).
    /// The key is `IntuneBundleID.key(app)`, made without a lowercased copy when the ID has no ASCII
    /// capital (its bytes are then the key's): this lookup is made for every decision.
    package func context(for app: BundleID) -> IntuneContext { entry(for: app).context }

    /// ``context(for:)`` with the app's side of a decision (its policy, held once).
    private func entry(for app: BundleID) -> (context: IntuneContext, side: IntunePolicySide) {
        let raw = app.rawValue
        let key = raw.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) ? IntuneBundleID.key(app) : ExactKey(raw)
        if let made = contexts[key] { return made }
        return (Self.context(for: app, base: base, ownSchemes: ownSchemes, policyOf: policyOf, sdkOf: sdkOf, upnApps: upnApps, policies: policies),
                sides[policyOf[key] ?? sides.count - 1])
    }

    package func isManaged(_ app: BundleID) -> Bool { managedKeys.contains(IntuneBundleID.key(app)) }

    /// The app the device hands URLs with `scheme` (lowercase) to, as every app's context reads it.
    package func handler(forScheme scheme: String) -> BundleID? { base.handler(forScheme: scheme) }

    package func decide(_ request: FleetRequest) -> FleetDecision {
        let (senderContext, senderSide) = entry(for: request.from)
        guard let senderRequest = request.senderRequest else {
            // Save As and Open into Org documents name a location: the app's own policy alone decides.
            let decision = IntuneEvaluator(context: senderContext).decide(request.locationRequest!)
            return FleetDecision(device: device.name, request: request, outcome: decision.outcome, sender: decision, receiver: nil, receiverApp: nil,
                                 sides: IntuneSides(senderSide: senderSide, receiverSide: nil))
        }
        let sender = IntuneEvaluator(context: senderContext).decide(senderRequest)
        let delivers = sender.outcome == .allow || sender.outcome == .redirect
        var receiverApp = sender.outcome == .deny ? nil : sender.target
        if request.channel == .paste, delivers { receiverApp = request.target }
        // A paste has a receiving side under Intune: the receiving app's own clipboard level decides what may be
        // pasted into it (rule 9, `Rules/intune/paste-and-keyboards.md`).
        guard request.channel.hasReceiverPart || request.channel == .paste, delivers, let receiving = receiverApp, isManaged(receiving) else {
            return FleetDecision(device: device.name, request: request, outcome: sender.outcome, sender: sender, receiver: nil, receiverApp: receiverApp,
                                 sides: IntuneSides(senderSide: senderSide, receiverSide: nil))
        }
        let receiverRequest = try! ShareRequest(channel: request.channel == .paste ? .paste : .openFrom, source: request.from)
        let (receiverContext, receiverSide) = entry(for: receiving)
        let receiver = IntuneEvaluator(context: receiverContext).decide(receiverRequest)
        let outcome = receiver.outcome == .allow ? sender.outcome : receiver.outcome
        return FleetDecision(device: device.name, request: request, outcome: outcome, sender: sender, receiver: receiver, receiverApp: receiving,
                             sides: IntuneSides(senderSide: senderSide, receiverSide: receiverSide))
    }
}

/// An app of the Intune devices file.
public struct IntuneApp: Sendable, Hashable {
    /// The app's bundle ID.
    public var bundleID: BundleID
    /// Its Intune App SDK version, when known.
    public var intuneSDKVersion: IntuneSDKVersion?
    /// Its version, for managed-app filters that read `app.appVersion`.
    public var appVersion: String? = nil

    /// Creates an app.
    public init(bundleID: BundleID, intuneSDKVersion: IntuneSDKVersion? = nil) {
        self.bundleID = bundleID
        self.intuneSDKVersion = intuneSDKVersion
    }
}

/// A device profile of the Intune devices file: what is installed, and the facts Intune depends on.
public struct IntuneDeviceProfile: Sendable, Hashable {
    /// The profile's name.
    public var name: String
    /// The installed apps.
    public var installed: [BundleID]
    /// Whether the device is MDM-enrolled.
    public var mdmEnrolled: Bool
    /// Whether the managed apps have the `IntuneMAMUPN` app configuration.
    public var intuneMAMUPN: Bool
    /// The app that handles each URL scheme (lowercase).
    public var schemeHandlers: [(scheme: String, app: BundleID)]
    /// The apps the device's MDM manages (for "Policy managed apps with OS sharing").
    public var mdmManagedApps: [BundleID]
    /// The user the profile stands for, when the devices file names one (for messages).
    public var user: String? = nil
    /// The Entra groups the profile's user belongs to, by display name or object id; `nil` when the
    /// devices file does not say (then no policy may be assigned to groups).
    public var groups: [String]? = nil
    /// The apps that receive the `IntuneMAMUPN` app configuration, when the devices file lists them
    /// (`"intuneMAMUPN": [BUNDLE_ID, ...]`); `nil` when ``intuneMAMUPN`` says it for every app.
    public var intuneMAMUPNApps: [BundleID]? = nil
    /// The device's manufacturer, model and OS version, for managed-app filters that read them.
    public var deviceManufacturer: String? = nil
    public var deviceModel: String? = nil
    public var osVersion: String? = nil
    /// The other spelling of each of ``groups`` that the devices file's `groups` gives (a name for an id, an id for a name).
    var groupAliases: [String] = []

    /// Whether `app` receives the `IntuneMAMUPN` app configuration on this device.
    public func receivesUPN(_ app: BundleID) -> Bool { intuneMAMUPNApps.map { IntuneBundleID.contains($0, app) } ?? intuneMAMUPN }

    /// Whether `app` is **managed** on this device, as app protection tells management types apart: the
    /// device is MDM-enrolled and the app receives `IntuneMAMUPN` (otherwise it is **unmanaged**).
    public func isManagedType(_ app: BundleID) -> Bool { mdmEnrolled && receivesUPN(app) }

    /// Creates a device profile.
    public init(name: String, installed: [BundleID], mdmEnrolled: Bool = false, intuneMAMUPN: Bool = false,
                schemeHandlers: [(scheme: String, app: BundleID)] = [], mdmManagedApps: [BundleID] = []) {
        self.name = name
        self.installed = installed
        self.mdmEnrolled = mdmEnrolled
        self.intuneMAMUPN = intuneMAMUPN
        self.schemeHandlers = schemeHandlers
        self.mdmManagedApps = mdmManagedApps
    }

    public static func == (lhs: IntuneDeviceProfile, rhs: IntuneDeviceProfile) -> Bool {
        ExactText.same(lhs.name, rhs.name) && lhs.installed == rhs.installed && lhs.mdmEnrolled == rhs.mdmEnrolled
            && lhs.intuneMAMUPN == rhs.intuneMAMUPN && lhs.mdmManagedApps == rhs.mdmManagedApps
            && lhs.schemeHandlers.map(\.scheme) == rhs.schemeHandlers.map(\.scheme) && lhs.schemeHandlers.map(\.app) == rhs.schemeHandlers.map(\.app)
            && lhs.user == rhs.user && lhs.groups == rhs.groups && lhs.intuneMAMUPNApps == rhs.intuneMAMUPNApps
            && lhs.deviceManufacturer == rhs.deviceManufacturer && lhs.deviceModel == rhs.deviceModel && lhs.osVersion == rhs.osVersion
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// The Intune devices file (`--devices FILE`):
/// `{"apps": [{"bundleID", "intuneSDKVersion"?}], "devices": {"NAME": {"installed": [...], "mdmEnrolled": false,
/// "intuneMAMUPN": false, "schemeHandlers"?: {...}, "mdmManagedApps"?: [...]}}}`.
public enum IntuneDevicesJSON {
    /// Reads a devices file (UTF-8, or UTF-16 with a byte order mark, as ``IntuneGraphJSON/read(path:)`` reads exports).
    /// - Returns: the apps and the device profiles, in file order.
    /// - Throws: `FormatError` located in `file`, with key path, line and column.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> (apps: [IntuneApp], devices: [IntuneDeviceProfile]) where Bytes.Element == UInt8 {
        try FormatError.readJSON(IntuneGraphJSON.text(bytes, file: file), file: file) { value throws(FormatError) in try read(value) }
    }

    package static func read(_ value: JSONValue) throws(FormatError) -> (apps: [IntuneApp], devices: [IntuneDeviceProfile]) {
        let root = JSONCursor(value)
        let fields = try root.members(allowed: ["description", "apps", "devices", "appGroups", "groups", "assignmentFilters", "$schema"], what: "the Intune devices file")
        if let description = fields["description"] { _ = try description.string() }
        if let schema = fields["$schema"] { _ = try schema.string() }
        var apps: [IntuneApp] = []
        var listed: Set<ExactKey> = []
        for element in try fields["apps"]?.elements(what: "apps {\"bundleID\", \"intuneSDKVersion\"}") ?? [] {
            let app = try element.members(allowed: ["bundleID", "intuneSDKVersion", "appVersion"], what: "an app")
            guard let idField = app["bundleID"] else { throw element.error("has no bundleID") }
            let id = try bundleID(idField)
            if !listed.insert(IntuneBundleID.key(id)).inserted { throw idField.error("\(id) is listed twice: list each app once") }
            var version: IntuneSDKVersion?
            if let versionField = app["intuneSDKVersion"] {
                let text = try versionField.string()
                guard let parsed = IntuneSDKVersion(text) else { throw versionField.error("must be a version such as \"19.4.0\", not \(versionField.found)") }
                version = parsed
            }
            var entry = IntuneApp(bundleID: id, intuneSDKVersion: version)
            entry.appVersion = try app["appVersion"]?.string()
            apps.append(entry)
        }
        guard let devicesField = fields["devices"] else {
            throw FormatError("devices is missing: add \"devices\": {\"NAME\": {\"installed\": [...], \"mdmEnrolled\": false, \"intuneMAMUPN\": false}}", at: JSONPosition(line: 1, column: 1))
        }
        let names = try groupNames(value)
        // The groups map's entries by id and by name: a profile's aliases cost its groups, not the map.
        var entries: [ExactKey: [Int]] = [:]
        for (index, entry) in names.enumerated() {
            entries[ExactKey(entry.id), default: []].append(index)
            if !ExactText.same(entry.id, entry.name) { entries[ExactKey(entry.name), default: []].append(index) }
        }
        // Each profile alone (independent of the others), in parts across the cores: the profiles in file order, and
        // the error of the first profile in file order that has one.
        func profile(_ name: String, _ cursor: JSONCursor) throws(FormatError) -> IntuneDeviceProfile {
            let device = try cursor.members(
                allowed: ["installed", "mdmEnrolled", "intuneMAMUPN", "schemeHandlers", "mdmManagedApps", "user", "groups", "deviceManufacturer",
                          "deviceModel", "osVersion"],
                what: "a device profile")
            guard let installedField = device["installed"] else { throw cursor.error("has no installed: list the apps installed on the device") }
            var installed: [BundleID] = []
            // Each app's position by key: a lookup per app, not a walk of the apps read so far.
            var seen: [ExactKey: Int] = [:]
            for element in try installedField.elements(what: "bundle IDs") {
                let id = try bundleID(element)
                // Intune compares bundle IDs ignoring ASCII case: two spellings of one app are one app installed twice.
                if let other = seen[IntuneBundleID.key(id)].map({ installed[$0] }) {
                    throw element.error("\(id) is listed twice (also as \(other); Intune compares bundle IDs ignoring case): list each app once")
                }
                seen[IntuneBundleID.key(id)] = installed.count
                installed.append(id)
            }
            guard let enrolled = device["mdmEnrolled"] else { throw cursor.error("has no mdmEnrolled: say whether the device is MDM-enrolled (true or false)") }
            guard let upn = device["intuneMAMUPN"] else {
                throw cursor.error("has no intuneMAMUPN: say whether the apps have the IntuneMAMUPN app configuration (true or false), or list the apps that do")
            }
            var upnApps: [BundleID]?
            if case .array = upn.value {
                var listed: [BundleID] = []
                for element in try upn.elements(what: "the bundle IDs of the apps that receive IntuneMAMUPN") {
                    let id = try bundleID(element)
                    if IntuneBundleID.contains(listed, id) { throw element.error("\(id) is listed twice: list each app once") }
                    listed.append(id)
                }
                upnApps = listed
            }
            var handlers: [(scheme: String, app: BundleID)] = []
            if let field = device["schemeHandlers"] {
                for handler in try DeviceFactsRules.schemeHandlers(field) {
                    if seen[IntuneBundleID.key(handler.app)] == nil {
                        try DeviceFactsRules.refuseHandlerNotInstalled(handler.app, handler.cursor, listed: IntuneBundleID.contains(installed, handler.app), installed: installed)
                    }
                    do throws(InputError) {
                        handlers.append((try URLScheme.normalize(handler.scheme), handler.app))
                    } catch {
                        throw handler.cursor.error("\(error)")
                    }
                }
            }
            var mdm: [BundleID] = []
            for element in try device["mdmManagedApps"]?.elements(what: "bundle IDs") ?? [] { mdm.append(try bundleID(element)) }
            let upnForAll: Bool
            if let upnApps { upnForAll = !upnApps.isEmpty } else { upnForAll = try upn.bool() }
            var profile = IntuneDeviceProfile(name: name, installed: installed, mdmEnrolled: try enrolled.bool(),
                                              intuneMAMUPN: upnForAll, schemeHandlers: handlers, mdmManagedApps: mdm)
            profile.intuneMAMUPNApps = upnApps
            profile.user = try device["user"]?.string()
            if let field = device["groups"] {
                var groups: [String] = [], seen: Set<ExactKey> = []
                for element in try field.elements(what: "the Entra groups (display names or object ids) the profile's user belongs to") {
                    let group = try element.string()
                    if group.isEmpty { throw element.error("is empty: name the group by its display name or object id") }
                    if !seen.insert(ExactKey(group)).inserted { throw element.error("\(JSONWriter.quoted(group)) is listed twice: list each group once") }
                    groups.append(group)
                }
                profile.groups = groups
            }
            if let groups = profile.groups {
                // Each group's other spelling (its name for an id, its id for a name): assignments name either.
                let keys = Set(groups.map(ExactKey.init))
                let matched = Set(keys.flatMap { entries[$0] ?? [] }).sorted()
                profile.groupAliases = matched.map { names[$0] }.flatMap {
                    keys.contains(ExactKey($0.id)) ? [$0.name] : keys.contains(ExactKey($0.name)) ? [$0.id] : []
                }
            }
            profile.deviceManufacturer = try device["deviceManufacturer"]?.string()
            profile.deviceModel = try device["deviceModel"]?.string()
            profile.osVersion = try device["osVersion"]?.string()
            return profile
        }
        let members = try devicesField.anyMembers(what: "device profiles by name")
        let read = Parallel.fill(members.count, minimum: 128) { (index) throws(FormatError) in try profile(members[index].0, members[index].1) }
        if let failure = read.failure { throw failure }
        return (apps, read.values)
    }

    /// Reads a devices file's `appGroups`: `{"allCoreMicrosoftApps": [BUNDLE_ID, ...], "allMicrosoftApps": [...]}`,
    /// the tenant's members of each group (`Rules/intune/README.md`, "App groups"); empty when the file has none.
    /// - Throws: `FormatError` located in `file` for an unknown group (with "Did you mean"), a malformed
    ///   bundle ID, or an app listed twice in a group.
    public static func appGroups<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> [(name: String, apps: [BundleID])] where Bytes.Element == UInt8 {
        try FormatError.readJSON(IntuneGraphJSON.text(bytes, file: file), file: file) { value throws(FormatError) in try appGroups(value) }
    }

    static func appGroups(_ value: JSONValue) throws(FormatError) -> [(name: String, apps: [BundleID])] {
        guard case .object(let object) = value, let member = object.member("appGroups") else { return [] }
        let field = JSONCursor(member.value, path: "appGroups", position: member.valuePosition)
        var groups: [(name: String, apps: [BundleID])] = []
        for (name, cursor, keyPosition) in try field.anyMembers(what: "app groups {\"allCoreMicrosoftApps\": [BUNDLE_ID, ...], \"allMicrosoftApps\": [...]}") {
            guard ExactText.isOne(name, of: IntuneAppGroups.listable) else {
                let others = ExactText.isOne(name, of: IntuneAppGroups.names)
                    ? " (\(name) is not listed here: selectedPublicApps is the policy's own apps, allApps every app with an intuneSDKVersion)" : ""
                throw FormatError("appGroups.\(name): unknown app group\(others): groups are \(IntuneAppGroups.listable.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: IntuneAppGroups.names))",
                                  at: keyPosition)
            }
            var apps: [BundleID] = []
            for element in try cursor.elements(what: "bundle IDs") {
                let id = try bundleID(element)
                if IntuneBundleID.contains(apps, id) { throw element.error("\(id) is listed twice in \(name): list each app once") }
                apps.append(id)
            }
            groups.append((name, apps))
        }
        return groups
    }

    /// Reads a devices file's `groups`: `{"<object id>": "<display name>", ...}`, the Entra groups that
    /// assignments name by id (IntuneManagement's `MigrationTable.json` gives the same); empty when absent.
    /// - Throws: `FormatError` located in `file` for a name that is not a string, or one name carried by two ids.
    public static func groupNames<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> [(id: String, name: String)] where Bytes.Element == UInt8 {
        try FormatError.readJSON(IntuneGraphJSON.text(bytes, file: file), file: file) { value throws(FormatError) in try groupNames(value) }
    }

    package static func groupNames(_ value: JSONValue) throws(FormatError) -> [(id: String, name: String)] {
        guard case .object(let object) = value, let member = object.member("groups") else { return [] }
        let field = JSONCursor(member.value, path: "groups", position: member.valuePosition)
        var names: [(id: String, name: String)] = []
        var byName: [ExactKey: String] = [:]
        for (id, cursor, _) in try field.anyMembers(what: "Entra groups by object id {\"<object id>\": \"<display name>\"}") {
            let name = try cursor.string()
            if name.isEmpty { throw cursor.error("is empty: give the group's display name") }
            if let other = byName[ExactKey(name)] {
                throw cursor.error("\(JSONWriter.quoted(name)) is the name of two groups here (\(other) and \(id)): a name must say which group it is; rename one in this file")
            }
            byName[ExactKey(name)] = id
            names.append((id, name))
        }
        return names
    }

    /// Reads a devices file's `assignmentFilters`: `[{"id", "displayName", "rule"}, ...]`, the managed-app
    /// filters assignments name (by id, or by display name as IntuneCD writes them); empty when absent.
    static func assignmentFilters(_ value: JSONValue, file: String) throws(FormatError) -> [AssignmentFilter] {
        guard case .object(let object) = value, let member = object.member("assignmentFilters") else { return [] }
        return try AssignmentFilters.read(JSONCursor(member.value, path: "assignmentFilters", position: member.valuePosition), file: file)
    }

    package static func bundleID(_ cursor: JSONCursor) throws(FormatError) -> BundleID {
        let text = try cursor.string()
        do throws(InputError) { return try BundleID(text) } catch { throw cursor.error("\(error)") }
    }
}

extension IntuneFleet {
    /// The nodes content can reach on a device: its installed apps, native Mail, and "any other app".
    public func nodes(on device: IntuneDeviceProfile) -> [FleetNode] {
        var nodes = device.installed.map(FleetNode.app)
        if !device.installed.contains(where: \.isNativeMail) { nodes.append(.app(.mobileMail)) }
        nodes.append(.anyOtherApp)
        return nodes
    }

    /// Whether `node` is outside on `device`: not a policy-managed app there (native Mail and any other app included).
    public func isOutside(_ node: FleetNode, on device: IntuneDeviceProfile) -> Bool {
        guard case .app(let id) = node else { return true }
        return !IntuneBundleID.contains(managedApps(on: device), id)
    }

    /// Every node `app`'s content can reach on the device, each by a shortest chain of requests that
    /// deliver it readable (`allow` or `redirect`: an encrypted delivery carries nothing readable).
    /// Channels tried: the fleet's document channels, drag and drop, paste, `open-url` on each
    /// scheme the receiver handles, and the mail channels to the device's mail app. Breadth first,
    /// so each path is a shortest one; at most `maxHops` hops when given.
    /// - Complexity: O(nodes² × channels) end-to-end decisions.
    /// - Throws: ``FleetError`` for an unknown device.
    public func paths(device name: String, from app: BundleID, maxHops: Int? = nil) throws(FleetError) -> [FleetPath] {
        let graph = IntuneGraph(try index(device: name))
        let reach = try FleetSearch.reach(graph, from: isInstalled(app, on: graph.index.device) ? graph.position(of: app) : nil, app: app, maxHops: maxHops)
        return try FleetSearch.paths(reach, on: graph)
    }
}

/// An Intune device's graph: an edge X → Y when one of X's candidate requests to Y delivers readable
/// content there, every request decided (the devices files are small).
final class IntuneGraph: FleetEdges {
    package let index: IntuneDeviceIndex
    package let nodes: [FleetNode]
    package let ids: [BundleID]
    /// Each node's position by `IntuneBundleID/key(_:)` (the first, when two compare the same).
    package let positions: [ExactKey: Int]
    /// Per node, the schemes (not web) the device hands to it, by their bytes (never the devices file's order).
    package let schemes: [[String]]

    package init(_ index: IntuneDeviceIndex) {
        self.index = index
        nodes = index.fleet.nodes(on: index.device)
        let ids = nodes.map { node in
            if case .app(let id) = node { return id }
            return BundleID.anyOtherApp
        }
        self.ids = ids
        var positions: [ExactKey: Int] = [:]
        for (position, id) in ids.enumerated() where positions[IntuneBundleID.key(id)] == nil { positions[IntuneBundleID.key(id)] = position }
        self.positions = positions
        var schemes = [[String]](repeating: [], count: ids.count)
        for (scheme, handler) in index.device.schemeHandlers where !ExactText.isOne(scheme, of: ["http", "https"]) {
            // Only an app node receives a scheme: "any other app" is the last node and handles none.
            if let y = positions[IntuneBundleID.key(handler)], case .app = nodes[y] { schemes[y].append(scheme) }
        }
        // By bytes, as the AppConnect graph lists its schemes: a hop's URL (part of a path's identity) does not follow
        // the devices file's order.
        for y in schemes.indices where schemes[y].count > 1 { schemes[y].sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        self.schemes = schemes
    }

    /// The node of `app` (bundle IDs compared as Intune compares them), if any: the devices file installs
    /// no app twice (ignoring case), so at most one node compares the same.
    package func position(of app: BundleID) -> Int? { positions[IntuneBundleID.key(app)] }

    /// X's candidate requests to Y, in the order tried: the targeted channels, `open-url` on each
    /// scheme Y handles, `mail-compose` when Y is native Mail.
    package func requests(from x: Int, to y: Int) -> [FleetRequest] {
        var requests: [FleetRequest] = []
        for channel in [FleetChannel.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste] {
            if let request = try? FleetRequest(from: ids[x], channel: channel, target: ids[y], document: channel == .paste ? nil : "report.pdf") {
                requests.append(request)
            }
        }
        if case .app(let receiving) = nodes[y] {
            for scheme in schemes[y] {
                if let url = try? ShareURL(scheme == "mailto" ? "mailto:someone@example.com" : "\(scheme)://report.pdf"),
                   let request = try? FleetRequest(from: ids[x], channel: .openURL, url: url) { requests.append(request) }
            }
            if receiving.isNativeMail, let request = try? FleetRequest(from: ids[x], channel: .mailCompose) { requests.append(request) }
        }
        return requests
    }

    package func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop? {
        for request in requests(from: x, to: y) {
            let decision = index.decide(request)
            guard decision.outcome == .allow || decision.outcome == .redirect, let to = decision.receiverApp, IntuneBundleID.same(to, ids[y]) else { continue }
            return FleetHop(from: nodes[x], to: nodes[y], decision: decision)
        }
        return nil
    }

    package func row(_ x: Int, among candidates: NodeSet) throws(FleetError) -> NodeSet {
        var result = NodeSet(count: nodes.count)
        // swift-format-ignore: ReplaceForEachWithForLoop
        try candidates.forEach { (y) throws(FleetError) in
            if y != x, try hop(from: x, to: y) != nil { result.insert(y) }
        }
        return result
    }
}
