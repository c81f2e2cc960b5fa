import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// One setting a translation could not express exactly: what it was, what the translation chose
/// instead, and which requests decide differently because of it. Never a silent approximation.
public struct TranslationNote: Sendable, Hashable, CustomStringConvertible {
    /// The policy the setting belongs to (`container policy "HR"`, `policy "BYOD"`).
    public let policy: String
    /// The setting, as the source writes it.
    public let setting: String
    /// What the translation wrote instead.
    public let chosen: String
    /// The requests that decide differently.
    public let changes: String

    public var description: String { "\(policy): \(setting)\n  chosen: \(chosen)\n  changes: \(changes)" }
}

/// Translates policies between AppConnect and Intune.
public enum PolicyTranslation {
    // MARK: AppConnect → Intune

    /// An AppConnect fleet as Intune app protection policies (one per container policy, and one for
    /// the apps the global policy authorizes), the Intune devices file of its device profiles, and
    /// the notes on what Intune cannot express.
    public static func toIntune(_ fleet: Fleet) -> (policies: [IntunePolicy], fleet: IntuneFleet, notes: [TranslationNote]) {
        var policies: [IntunePolicy] = []
        var notes: [TranslationNote] = []
        // Everything looked up per policy or app is found once here: the work stays linear in the fleet.
        let lookup = AppLookup(fleet)
        let managed = ManagedApps(fleet.apps.filter(\.appConnect).map(\.bundleID))
        var targeted: Set<ExactKey> = []
        for container in fleet.containerPolicies {
            let controls = merged(container.controls, over: fleet.global.controls)
            let name = "container policy \(JSONWriter.quoted(container.name))"
            var policy = intunePolicy(displayName: container.name, controls: controls, config: lookup.configuration(of: container.app),
                                      lookup: lookup, managed: managed, except: container.app, name: name, notes: &notes)
            policy.apps = [container.app]
            policy.thirdPartyKeyboardsBlocked = keyboardsBlocked(apps: [container.app], lookup: lookup, name: name, notes: &notes)
            // Who it reaches: the group of each label (Rules/intune/README.md, "Translating who a policy reaches").
            policy.assignments = uniqueLabels(container.labels).map { IntuneAssignment(kind: .include, groupName: $0) }
            if lookup.app(container.app)?.appConnect != true {
                // AppConnect applies a container policy to an AppConnect app only: this one reaches no device.
                policy.assignments = []
                notes.append(TranslationNote(policy: name, setting: "app: \(container.app), which the fleet does not list as an AppConnect app",
                                             chosen: "\"assignments\": []: the policy is assigned to no one, as the container policy applies to no device",
                                             changes: "none; assign the policy to groups once the app embeds AppConnect (or Intune's SDK)"))
            }
            if !targeted.insert(IntuneBundleID.key(container.app)).inserted {
                notes.append(TranslationNote(policy: name, setting: "a second container policy for \(container.app)",
                                             chosen: "a second Intune policy targeting the app, assigned to the groups of its labels",
                                             changes: "none while no device carries labels of both (AppConnect refuses such a device; Intune would merge the two policies there)"))
            }
            policies.append(policy)
        }
        // The global policy reaches an app where none of its container policies does: one Intune policy per set of
        // labels the apps' container policies use, including the group every profile carries and excluding those labels.
        // When it authorizes no app without a container policy, it retires them there: the same, with every transfer blocked.
        var labelsOf: [BundleID: [String]] = [:]
        for container in fleet.containerPolicies { labelsOf[container.app, default: []] += container.labels }
        let everyDevice = everyDeviceGroup(avoiding: fleet)
        let retiring = !fleet.global.authorizeAppsWithoutContainerPolicy
        let baseName = retiring ? retiredPolicyName : globalPolicyName
        let controls = retiring
            ? PolicyControls(openIn: .status(.unauthorized), openFrom: OpenFromPolicy(status: .unauthorized), pasteboard: .unauthorized, print: .unauthorized)
            : fleet.global.controls
        var sets: [[String]] = []
        var appsOf: [ExactKey: [BundleID]] = [:]
        var seenApps: Set<BundleID> = []
        for app in fleet.apps where app.appConnect && seenApps.insert(app.bundleID).inserted {
            let labels = uniqueLabels(labelsOf[app.bundleID] ?? [])
            let key = ExactKey(labels.joined(separator: "\u{0}"))
            if appsOf[key] == nil { sets.append(labels) }
            appsOf[key, default: []].append(app.bundleID)
        }
        for labels in sets {
            let apps = appsOf[ExactKey(labels.joined(separator: "\u{0}"))]!
            let outside = labels.isEmpty ? "" : " (outside \(labels.joined(separator: ", ")))"
            let name = "the global policy\(outside)"
            var policy = intunePolicy(displayName: baseName + outside, controls: controls, config: AppConfig(), lookup: lookup, managed: managed,
                                      except: nil, name: name, notes: &notes)
            policy.apps = apps
            policy.thirdPartyKeyboardsBlocked = keyboardsBlocked(apps: apps, lookup: lookup, name: name, notes: &notes)
            policy.assignments = [IntuneAssignment(kind: .include, groupName: everyDevice)] + labels.map { IntuneAssignment(kind: .exclude, groupName: $0) }
            if retiring {
                notes.append(TranslationNote(policy: name, setting: "authorizeAppsWithoutContainerPolicy: false (\(apps.map(\.rawValue).joined(separator: ", ")) retired \(labels.isEmpty ? "on every device" : "where no container policy of theirs applies"))",
                                             chosen: "the Intune policy \(JSONWriter.quoted(baseName + outside)), with every transfer blocked (Send and Receive org data: None, clipboard blocked, printing blocked), assigned to every device\(labels.isEmpty ? "" : " but the groups of those labels"): Intune has no retired state",
                                             changes: "a retired app keeps no AppConnect data and runs no AppConnect session; under Intune it runs with its org data locked in (a dummy file becomes an encrypted one)"))
            }
            policies.append(policy)
        }
        var devices: [IntuneDeviceProfile] = []
        for profile in fleet.devices {
            var handlers = profile.facts.schemeHandlers.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { (scheme: $0.key, app: $0.value) }
            var handled = Set(handlers.map { ExactKey($0.scheme) })
            for id in profile.installed {
                for scheme in (lookup.app(id)?.app.urlSchemes ?? []).sorted() where handled.insert(ExactKey(scheme)).inserted {
                    handlers.append((scheme, id))
                }
            }
            var device = IntuneDeviceProfile(name: profile.name, installed: profile.installed, schemeHandlers: handlers)
            device.groups = uniqueLabels(profile.labels) + (sets.isEmpty ? [] : [everyDevice])
            devices.append(device)
            if profile.facts.emailPlusInstalled {
                notes.append(TranslationNote(policy: "device \(JSONWriter.quoted(profile.name))", setting: "emailPlusInstalled: true",
                                             chosen: "nothing: Intune does not redirect a blocked mailto: to another mail app",
                                             changes: "open-url mailto: that AppConnect redirects to Email+ is denied"))
            }
        }
        let apps = fleet.apps.filter(\.appConnect).map { IntuneApp(bundleID: $0.bundleID) }
        let translated = IntuneFleet(policies: policies, apps: apps, devices: devices)
        notes += flowsOpened(from: .appConnect(fleet), to: .intune(translated))
        return (policies, translated, notes)
    }

    /// The display name of the Intune policy that stands for the AppConnect global policy (and, with
    /// ` (outside LABEL, …)` after it, for the global policy over apps with labelled container policies).
    public static let globalPolicyName = "Global policy"

    /// The display name of the Intune policy that stands for the global policy's retirement of the apps no container
    /// policy reaches, when it authorizes none (`authorizeAppsWithoutContainerPolicy: false`); ` (outside LABEL, …)` as above.
    public static let retiredPolicyName = "Retired apps"

    /// The Entra group every profile of a translated devices file carries, which the global policy's Intune
    /// policies include: `AppConnect: every device`, with ` (openin-check)` after it while a label of the
    /// fleet has that name.
    static func everyDeviceGroup(avoiding fleet: Fleet) -> String {
        var labels: Set<ExactKey> = []
        for profile in fleet.devices { for label in profile.labels { labels.insert(ExactKey(label)) } }
        for container in fleet.containerPolicies { for label in container.labels { labels.insert(ExactKey(label)) } }
        var name = "AppConnect: every device"
        while labels.contains(ExactKey(name)) { name += " (openin-check)" }
        return name
    }

    /// `labels` without repeats, in order (compared byte for byte, as AppConnect compares labels).
    static func uniqueLabels(_ labels: [String]) -> [String] {
        var seen: Set<ExactKey> = []
        return labels.filter { seen.insert(ExactKey($0)).inserted }
    }

    /// `thirdPartyKeyboardsBlocked` for the Intune policy of `apps`: blocked when AppConnect refuses
    /// custom keyboards in any of them (`MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` set to anything but `true`,
    /// or not set and the app refusing them itself), with a note for each thing Intune cannot say.
    static func keyboardsBlocked(apps: [BundleID], lookup: AppLookup, name: String, notes: inout [TranslationNote]) -> Bool {
        let key = AppConfig.allowCustomKeyboardsKey
        func note(_ setting: String, _ chosen: String, _ changes: String) { notes.append(TranslationNote(policy: name, setting: setting, chosen: chosen, changes: changes)) }
        var refusing: [BundleID] = [], allowing: [BundleID] = []
        for app in apps {
            let appRefuses = !(lookup.app(app)?.app.allowsCustomKeyboards ?? true)
            if let value = lookup.configuration(of: app)[key] {
                if ExactText.same(value, "true") {
                    allowing.append(app)
                    if appRefuses {
                        note("\(key): true for \(app), over the app's own refusal (app.allowsCustomKeyboards: false)",
                             "thirdPartyKeyboardsBlocked: false; Intune has no setting that overrides the app's own -shouldAllowExtensionPointIdentifier:",
                             "none in these decisions (an Intune decision does not ask the app); on a device the app's own refusal applies again")
                    }
                } else {
                    refusing.append(app)
                    if !ExactText.same(value, "false") {
                        note("\(key): \(JSONWriter.quoted(value)) for \(app) (neither true nor false)",
                             "thirdPartyKeyboardsBlocked: true, as AppConnect refuses custom keyboards for any value but true",
                             "none: custom keyboards are refused either way")
                    }
                }
            } else if appRefuses {
                refusing.append(app)
                note("\(key) not set for \(app), and the app refuses custom keyboards itself (app.allowsCustomKeyboards: false)",
                     "thirdPartyKeyboardsBlocked: true: an Intune decision does not ask the app",
                     "none: custom keyboards are refused either way")
            } else {
                allowing.append(app)
            }
        }
        if !refusing.isEmpty, !allowing.isEmpty {
            note("custom keyboards allowed in \(allowing.map(\.rawValue).joined(separator: ", ")) but refused in \(refusing.map(\.rawValue).joined(separator: ", ")), under one Intune policy",
                 "thirdPartyKeyboardsBlocked: true for all of them (fail closed)",
                 "keyboard with a third-party keyboard in \(allowing.map(\.rawValue).joined(separator: ", ")): allowed becomes denied (newly blocked)")
        }
        return !refusing.isEmpty
    }

    package static func merged(_ container: PolicyControls, over global: PolicyControls) -> PolicyControls {
        var controls = container
        if controls.openIn == nil { controls.openIn = global.openIn; controls.openInWhitelist = global.openInWhitelist }
        if controls.openFrom == nil { controls.openFrom = global.openFrom }
        if controls.pasteboard == nil { controls.pasteboard = global.pasteboard }
        if controls.print == nil { controls.print = global.print }
        if controls.dragAndDrop == nil { controls.dragAndDrop = global.dragAndDrop }
        if controls.excludedActivityTypes == nil { controls.excludedActivityTypes = global.excludedActivityTypes }
        return controls
    }

    /// What the translation looks up per app, found once: each app's entry (the first with its ID), its
    /// configuration (the first listed, which applies on any device), and the URL schemes each device
    /// profile's `schemeHandlers` hand it (web schemes left out), in profile order.
    struct AppLookup {
        private let fleet: Fleet
        private var position: [BundleID: Int] = [:]
        private var configurations: [BundleID: AppConfig] = [:]
        private var handled: [BundleID: [String]] = [:]

        /// - Complexity: O(apps + configurations + scheme handlers).
        package init(_ fleet: Fleet) {
            self.fleet = fleet
            position = fleet.appPositions()
            for configuration in fleet.appConfigurations where configurations[configuration.app] == nil { configurations[configuration.app] = configuration.config }
            var seen: Set<ExactKey> = []
            for profile in fleet.devices {
                for (scheme, handler) in profile.facts.schemeHandlers where !ExactText.isOne(scheme, of: ["http", "https"]) {
                    if seen.insert(ExactKey(handler.rawValue + "\u{0}" + scheme)).inserted { handled[handler, default: []].append(scheme) }
                }
            }
        }

        package func app(_ id: BundleID) -> FleetApp? { position[id].map { fleet.apps[$0] } }
        package func configuration(of app: BundleID) -> AppConfig { configurations[app] ?? AppConfig() }
        package func schemes(handledBy app: BundleID) -> [String] { handled[app] ?? [] }
    }

    /// The fleet's AppConnect apps in fleet order, indexed for a whitelist's translation: which apps share
    /// an ID's Intune key, and how many a whitelist lists.
    struct ManagedApps {
        package let ids: [BundleID]
        private var byKey: [ExactKey: [BundleID]] = [:]
        private var count: [BundleID: Int] = [:]

        package init(_ ids: [BundleID]) {
            self.ids = ids
            for id in ids {
                byKey[IntuneBundleID.key(id), default: []].append(id)
                count[id, default: 0] += 1
            }
        }

        /// Whether a managed app other than `except` has `id`'s Intune key (ASCII case ignored).
        package func holds(_ id: BundleID, except: BundleID?) -> Bool { byKey[IntuneBundleID.key(id)]?.contains { $0 != except } ?? false }

        /// The managed apps but `except` that `whitelist` leaves out: the first `named` in fleet order, and how many.
        /// - Complexity: O(whitelist + named + the listed apps met before the `named`-th), not O(apps).
        func leftOut(by whitelist: Whitelist, except: BundleID?, named: Int) -> (first: [BundleID], count: Int) {
            var listed = 0
            for id in whitelist where id != except { listed += count[id] ?? 0 }
            let total = ids.count - (except.map { count[$0] ?? 0 } ?? 0) - listed
            var first: [BundleID] = []
            var index = ids.startIndex
            while first.count < min(named, total), index < ids.endIndex {
                let id = ids[index]
                if id != except, !whitelist.contains(id) { first.append(id) }
                index += 1
            }
            return (first, total)
        }
    }

    /// The Intune policy for `controls` (a container policy's merged over the global policy's, or the global
    /// policy's), with a note for each thing Intune cannot say; `except` is the policy's own app, not counted
    /// among the managed apps it sends to.
    static func intunePolicy(displayName: String, controls: PolicyControls, config: AppConfig, lookup: AppLookup, managed: ManagedApps, except: BundleID?,
                             name: String, notes: inout [TranslationNote]) -> IntunePolicy {
        var policy = IntunePolicy(displayName: displayName)
        func note(_ setting: String, _ chosen: String, _ changes: String) { notes.append(TranslationNote(policy: name, setting: setting, chosen: chosen, changes: changes)) }
        if let excluded = controls.excludedActivityTypes, !excluded.isEmpty {
            note("excludedAppleActivityTypes: \(excluded.map(\.rawValue).joined(separator: ", "))", "none: Intune has no setting that takes an activity out of the share sheet",
                 "activity-view to \(excluded.map(\.rawValue).joined(separator: ", ")): decided by the data transfer settings instead of denied")
        }
        var openIn = controls.openIn
        if config.disablesOpenInEnforcement {
            openIn = .status(.authorized)
        }
        switch openIn {
        case nil:
            note("openInPolicy not set", "allowedOutboundDataTransferDestinations: allApps (Intune's default)", "every Open In request, which AppConnect refuses as an error, is allowed")
        case .status(.authorized):
            policy.send = .allApps
        case .status(.unauthorized):
            policy.send = .none
            policy.dialer = .blocked
            policy.messaging = .blocked
            note("openInPolicy: unauthorized", "allowedOutboundDataTransferDestinations: none, dialer and messaging blocked",
                 "document-interaction, quick-look, app-extension: a dummy file becomes an encrypted one (changed form); activity-view: denied becomes encrypted (changed form)")
        case .allAppConnectApps:
            policy.send = .managedApps
            policy.dialer = .managedApps
            policy.messaging = .anyManagedApp
            note("openInPolicy: appconnect", "allowedOutboundDataTransferDestinations: managedApps, dialer and messaging to managed apps",
                 "document-interaction, quick-look, app-extension to apps that are not managed: a dummy file becomes an encrypted one (changed form); activity-view: denied for every app becomes allowed to managed apps (newly allowed) and encrypted to the others")
        case .status(.whitelist):
            policy.send = .managedApps
            policy.dialer = .managedApps
            policy.messaging = .anyManagedApp
            let listed = controls.openInWhitelist.ids.sorted()
            let unlistedManaged = managed.leftOut(by: controls.openInWhitelist, except: except, named: namedFlows)
            var exempt: [String] = []
            if controls.openInWhitelist.containsMailPair {
                exempt.append("mailto")
                note("openInWhitelist: the native Mail pair", "the mailto exemption",
                     "activity-view to Mail: allowed becomes encrypted; mail-compose: allowed only with Intune SDK 14.5.0 or later")
            }
            var exempted = Set(exempt.map(ExactKey.init))
            for id in listed where !id.isNativeMail && !managed.holds(id, except: except) {
                let schemes = lookup.schemes(handledBy: id)
                for scheme in schemes where exempted.insert(ExactKey(scheme)).inserted { exempt.append(scheme) }
                note("openInWhitelist: \(id) (not an AppConnect app)",
                     schemes.isEmpty ? "nothing: Intune has no list of specific unmanaged apps" : "the exemption of its URL scheme\(schemes.count == 1 ? "" : "s") \(schemes.joined(separator: ", "))",
                     "document-interaction, quick-look, app-extension, activity-view to \(id): allowed becomes encrypted; drag-and-drop to it: allowed becomes denied")
            }
            if unlistedManaged.count > 0 {
                // The first few by name and how many more, as the flow notes do: one note per whitelist, not one name per app.
                let more = unlistedManaged.count > namedFlows ? " and \(unlistedManaged.count - namedFlows) more (\(unlistedManaged.count) apps)" : ""
                note("openInWhitelist leaves out \(unlistedManaged.first.map(\.rawValue).joined(separator: ", "))\(more)",
                     "Intune allows every policy-managed app",
                     "document-interaction, quick-look, app-extension, drag-and-drop to them: a dummy file or denied becomes allowed (newly allowed)")
            }
            if !exempt.isEmpty { policy.exemptions = [IntuneExemption(name: "Translated from the AppConnect whitelist", schemes: exempt)] }
            note("openInPolicy: whitelist", "allowedOutboundDataTransferDestinations: managedApps",
                 "activity-view: denied becomes allowed to managed apps and encrypted to the others")
        }
        if config.disablesSchemeBlocking {
            note("MI_AC_DISABLE_SCHEME_BLOCKING", "nothing: Intune has no override for the app's own openURL:",
                 "open-url with a custom scheme whose handler is not managed: allowed becomes denied")
        }
        switch controls.openFrom?.setting {
        case nil: note("openFromPolicy not set", "allowedInboundDataTransferSources: allApps (Intune's default)", "Open From of this app: an error becomes allowed")
        case .status(.authorized): policy.receive = .allApps
        case .status(.unauthorized): policy.receive = .none
        case .allAppConnectApps: policy.receive = .managedApps
        case .status(.whitelist):
            policy.receive = .managedApps
            note("openFromPolicy: whitelist", "allowedInboundDataTransferSources: managedApps",
                 "Open From an AppConnect app not in the Open From whitelist: refused becomes accepted; from a listed app that is not managed: accepted becomes refused")
        }
        switch controls.pasteboard {
        case nil: note("pasteboardPolicy not set", "allowedOutboundClipboardSharingLevel: allApps (Intune's default)", "paste from this app: an error becomes allowed")
        case .authorized: policy.clipboard = .allApps
        case .unauthorized: policy.clipboard = .blocked
        case .secureCopy: policy.clipboard = .managedAppsWithPasteIn
        }
        switch controls.print {
        case nil: note("printPolicy not set", "printBlocked: false (Intune's default)", "print: an error becomes allowed")
        case .authorized: policy.printBlocked = false
        case .unauthorized: policy.printBlocked = true
        }
        let intuneDrag: DragAndDropPolicy = switch policy.send {
        case .allApps: .all
        case .managedApps: .appConnect
        case .none: .none
        }
        if let drag = controls.dragAndDrop, drag != intuneDrag {
            note("dragAndDropPolicy: \(drag.rawValue)", "nothing: Intune documents no drag-and-drop setting; it follows Send org data (Rules/intune/drag-and-drop.md: Our choices), here \(intuneDrag.rawValue)",
                 "drag-and-drop: \(drag.rawValue) becomes \(intuneDrag.rawValue)")
        }
        return policy
    }

    // MARK: Intune → AppConnect

    /// Intune policies with their devices as an AppConnect fleet (a container policy per targeted
    /// app, every device carrying the label `intune`), and the notes on what AppConnect cannot express.
    public static func toAppConnect(_ intune: IntuneFleet) -> (fleet: Fleet, notes: [TranslationNote]) {
        var notes: [TranslationNote] = []
        // Who each policy reaches, as labels (Rules/intune/README.md, "Translating who a policy reaches"): a group is
        // the label of its display name (else its object id); `everyone` is carried by every device.
        var names: [ExactKey: String] = [:]
        for (id, name) in intune.groupNames where names[ExactKey(id)] == nil { names[ExactKey(id)] = name }
        func groupLabel(_ group: String) -> String { names[ExactKey(group)] ?? group }
        func groupLabel(of assignment: IntuneAssignment) -> String { assignment.groupName ?? groupLabel(assignment.groupID ?? "") }
        let deviceLabels = intune.devices.map { device in uniqueLabels((device.groups ?? []).map(groupLabel)) }
        var taken: Set<ExactKey> = []
        for labels in deviceLabels { for label in labels { taken.insert(ExactKey(label)) } }
        for policy in intune.policies { for assignment in policy.assignments ?? [] { taken.insert(ExactKey(groupLabel(of: assignment))) } }
        var label = "intune"
        while taken.contains(ExactKey(label)) { label += " (openin-check)" }
        let carried = deviceLabels.map { Set(([label] + $0).map(ExactKey.init)) }
        // The label sets of the container policies kept for each app, so that no device gets two for one app.
        var keptLabels: [String: [Set<ExactKey>]] = [:]
        var containers: [ContainerPolicy] = []
        var apps: [FleetApp] = []
        var targeted: [BundleID] = []
        var configurations: [AppConfiguration] = []
        // The installed spelling of each ID, by key: the first device that installs it, its spelling there
        // (exports lowercase IDs; AppConnect compares exactly). One table, not a walk of every device per ID.
        var spelling: [ExactKey: BundleID] = [:]
        for device in intune.devices {
            for id in device.installed where spelling[IntuneBundleID.key(id)] == nil { spelling[IntuneBundleID.key(id)] = id }
        }
        func spelled(_ id: BundleID) -> BundleID { spelling[IntuneBundleID.key(id)] ?? id }
        let everyTargeted = intune.policies.flatMap { $0.apps.map(spelled) }
        // IDs are ASCII: String equality is byte equality, as AppConnect compares them.
        var targetedIDs: Set<String> = []
        for policy in intune.policies {
            let name = "policy \(JSONWriter.quoted(policy.displayName))"
            let spelledApps = policy.apps.map(spelled)
            let controls = appConnectControls(policy, intune: intune, targeted: everyTargeted, name: name, notes: &notes)
            let labels = containerLabels(policy, intune: intune, everyone: label, label: groupLabel(of:), name: name, notes: &notes)
            let labelKeys = Set(labels.map(ExactKey.init))
            for (original, app) in zip(policy.apps, spelledApps) {
                if original.rawValue != app.rawValue {
                    notes.append(TranslationNote(policy: name, setting: "apps: \(original)", chosen: "\(app), as the devices file installs it (AppConnect compares bundle IDs exactly)", changes: "none"))
                }
                // AppConnect applies one container policy per app on a device: a later policy's is kept only where no device
                // carries labels of both (Intune merges the policies there).
                if let kept = keptLabels[app.rawValue] {
                    let both = intune.devices.indices.filter { d in !carried[d].isDisjoint(with: labelKeys) && kept.contains { !carried[d].isDisjoint(with: $0) } }
                    if !both.isEmpty {
                        let profiles = both.prefix(namedFlows).map { JSONWriter.quoted(intune.devices[$0].name) }.joined(separator: ", ")
                            + (both.count > namedFlows ? " and \(both.count - namedFlows) more" : "")
                        notes.append(TranslationNote(policy: name, setting: "apps: \(app), which an earlier policy also reaches on \(profiles)",
                                                     chosen: "nothing for \(app): AppConnect applies one container policy per app on a device (Ivanti's Core guide, \"AppConnect container policy\"), here the earlier one's",
                                                     changes: "\(app) on those profiles decides under the earlier policy alone, not under both merged (most restrictive value per setting); on the profiles this policy alone reaches, \(app) is not protected by it"))
                        continue
                    }
                }
                keptLabels[app.rawValue, default: []].append(labelKeys)
                if targetedIDs.insert(app.rawValue).inserted {
                    targeted.append(app)
                    apps.append(FleetApp(bundleID: app, appConnect: true))
                }
                containers.append(ContainerPolicy(name: "\(policy.displayName): \(app)", app: app, labels: labels, controls: controls))
                // Block: the key set to false. Allow: the key left out, so AppConnect allows custom keyboards unless
                // the app refuses them itself, as under Intune (setting it to true would override the app).
                if policy.thirdPartyKeyboardsBlocked {
                    configurations.append(AppConfiguration(app: app, labels: labels, config: AppConfig([AppConfig.allowCustomKeyboardsKey: "false"])))
                }
            }
        }
        var devices: [DeviceProfile] = []
        var listedIDs = Set(apps.map(\.bundleID.rawValue))
        for (position, device) in intune.devices.enumerated() {
            var facts = DeviceFacts()
            for (scheme, app) in device.schemeHandlers { try? facts.setHandler(app, for: scheme) }
            facts.secureServicesAvailable = true
            devices.append(DeviceProfile(name: device.name, labels: [label] + deviceLabels[position], installed: device.installed, facts: facts))
            // A targeted app no policy reaches here is unmanaged under Intune; AppConnect marks an app as an AppConnect app
            // on every device, and the global policy below authorizes none without a container policy: it is retired here.
            let unreached = device.installed.filter { id in
                keptLabels[id.rawValue].map { sets in !sets.contains { !carried[position].isDisjoint(with: $0) } } ?? false
            }
            if !unreached.isEmpty {
                notes.append(TranslationNote(policy: "device \(JSONWriter.quoted(device.name))", setting: "\(unreached.map(\.rawValue).joined(separator: ", ")) reached by no policy here (unmanaged: every share allowed)",
                                             chosen: "retired: AppConnect marks an app as an AppConnect app on every device, and the fleet's global policy authorizes none without a container policy",
                                             changes: "every request from \(unreached.count == 1 ? "it" : "them") on this device: allowed becomes blocked (newly blocked)"))
            }
            for id in device.installed where !listedIDs.contains(id.rawValue) {
                listedIDs.insert(id.rawValue)
                apps.append(FleetApp(bundleID: id, appConnect: false))
            }
            if device.mdmEnrolled || device.intuneMAMUPN {
                notes.append(TranslationNote(policy: "device \(JSONWriter.quoted(device.name))", setting: "mdmEnrolled / intuneMAMUPN",
                                             chosen: "nothing: AppConnect decisions do not depend on them", changes: "OS sharing and incoming Org data, where a policy uses them"))
            }
        }
        let global = GlobalPolicy(authorizeAppsWithoutContainerPolicy: false,
                                  controls: PolicyControls(openIn: .status(.authorized), openFrom: OpenFromPolicy(status: .authorized), pasteboard: .authorized, print: .authorized))
        let translated = Fleet(global: global, containerPolicies: containers, appConfigurations: configurations, apps: apps, devices: devices)
        notes += flowsOpened(from: .intune(intune), to: .appConnect(translated))
        return (translated, notes)
    }

    /// The labels of the container policies of `policy`: `everyone` (every device carries it) when the export has no
    /// `assignments` (or `--assume-assigned` over `[]`), none for `[]`, else the label of each included group; with a
    /// note for each excluded group, filter and management level, which AppConnect cannot express.
    static func containerLabels(_ policy: IntunePolicy, intune: IntuneFleet, everyone: String, label: (IntuneAssignment) -> String, name: String,
                                notes: inout [TranslationNote]) -> [String] {
        func note(_ setting: String, _ chosen: String, _ changes: String) { notes.append(TranslationNote(policy: name, setting: setting, chosen: chosen, changes: changes)) }
        if policy.managementLevels != .all {
            note("targetedAppManagementLevels: \(policy.managementLevels.graphValue)", "every management type: AppConnect does not tell managed apps from unmanaged ones",
                 "the policy reaches its apps where they are \(policy.managementLevels.mdm ? "unmanaged" : "managed (MDM-enrolled, with IntuneMAMUPN)") too")
        }
        guard let assignments = policy.assignments else { return [everyone] }
        if assignments.isEmpty { return intune.assumeAssigned ? [everyone] : [] }
        let included = assignments.filter { $0.kind == .include }
        for assignment in assignments where assignment.kind == .exclude {
            note("excluded group \(assignment.groupDescription)", "nothing: AppConnect has no exclusions; the container policies reach every device that carries one of their labels",
                 "the policy reaches the users of \(assignment.groupDescription) who are in an included group too")
        }
        for assignment in included {
            if let filter = assignment.filter {
                note("filter \(JSONWriter.quoted(filter)) (\(assignment.filterType.rawValue)) on the group \(assignment.groupDescription)",
                     "the whole group: AppConnect has no assignment filters",
                     "the policy reaches the apps of \(assignment.groupDescription) where the filter \(assignment.filterType == .include ? "does not hold" : "holds") too")
            }
        }
        return uniqueLabels(included.map(label))
    }

    static func appConnectControls(_ policy: IntunePolicy, intune: IntuneFleet, targeted: [BundleID], name: String, notes: inout [TranslationNote]) -> PolicyControls {
        func note(_ setting: String, _ chosen: String, _ changes: String) { notes.append(TranslationNote(policy: name, setting: setting, chosen: chosen, changes: changes)) }
        var controls = PolicyControls()
        switch policy.send {
        case .allApps:
            controls.openIn = .status(.authorized)
            controls.dragAndDrop = .all
        case .managedApps:
            controls.openIn = .allAppConnectApps
            controls.dragAndDrop = .appConnect
            if policy.filterOpenInToOnlyManagedApps {
                note("filterOpenInToOnlyManagedApps: true", "All AppConnect apps (a dummy file to the others)", "document-interaction, quick-look, app-extension to apps that are not managed: not offered (denied) becomes a dummy file (changed form)")
            } else if policy.disableProtectionOfManagedOutboundOpenInData {
                note("disableProtectionOfManagedOutboundOpenInData: true", "All AppConnect apps (a dummy file to the others)", "on MDM-enrolled devices with IntuneMAMUPN, Open-In to MDM-managed apps: allowed becomes a dummy file (newly blocked)")
            } else {
                note("allowedOutboundDataTransferDestinations: managedApps", "openInPolicy: appconnect", "document-interaction, quick-look, app-extension to apps that are not managed: an encrypted file becomes a dummy file (changed form); activity-view: allowed to managed apps becomes denied (newly blocked)")
            }
            if policy.dialer != .managedApps { note("dialerRestrictionLevel: \(policy.dialer)", "tel: follows the Open In listing of its handler", "open-url tel: to a dialer that is not an AppConnect app") }
            if policy.messaging != .anyManagedApp { note("protectedMessagingRedirectAppType: \(policy.messaging)", "sms: follows the Open In listing of its handler", "open-url sms: to a messaging app that is not an AppConnect app") }
        case .none:
            controls.openIn = .status(.unauthorized)
            controls.dragAndDrop = DragAndDropPolicy.none
            note("allowedOutboundDataTransferDestinations: none", "openInPolicy: unauthorized", "document-interaction, quick-look, app-extension: an encrypted file becomes a dummy file (changed form); activity-view: encrypted becomes denied")
            if policy.dialer != .blocked { note("dialerRestrictionLevel: \(policy.dialer)", "tel: denied, as every custom URL under unauthorized", "open-url tel:") }
            if policy.messaging != .blocked { note("protectedMessagingRedirectAppType: \(policy.messaging)", "sms: denied, as every custom URL under unauthorized", "open-url sms:") }
        }
        if policy.send == .allApps {
            if policy.dialer != .allApps { note("dialerRestrictionLevel: \(policy.dialer)", "tel: allowed, as every URL under authorized", "open-url tel: (newly allowed)") }
            if policy.messaging != .anyApp { note("protectedMessagingRedirectAppType: \(policy.messaging)", "sms: allowed, as every URL under authorized", "open-url sms: (newly allowed)") }
        }
        if !policy.exemptedSchemes.isEmpty, policy.send != .allApps {
            var whitelist = targeted
            var chosen: [String] = []
            for scheme in policy.exemptedSchemes {
                if scheme == "mailto" {
                    whitelist += [.mailActivity, .mobileMail]
                    chosen.append("mailto: the native Mail pair")
                    continue
                }
                let handlers = intune.devices.flatMap { device in device.schemeHandlers.filter { ExactText.same($0.scheme, scheme) }.map(\.app) }
                whitelist += handlers
                chosen.append(handlers.isEmpty ? "\(scheme): nothing (no device handles it)" : "\(scheme): \(handlers.map(\.rawValue).joined(separator: ", "))")
            }
            if whitelist.count > targeted.count || policy.send == .none {
                controls.openIn = .status(.whitelist)
                controls.openInWhitelist = Whitelist(whitelist)
            }
            note("exemptedAppProtocols: \(policy.exemptedSchemes.joined(separator: ";"))",
                 "the apps that handle them whitelisted, with every targeted app (\(chosen.joined(separator: "; ")))",
                 "Open-In and share to a whitelisted handler: encrypted becomes allowed (newly allowed); an exempted scheme no device handles: allowed becomes denied")
        }
        if policy.managedBrowserRequired {
            note("managedBrowserToOpenLinksRequired: true", "nothing: AppConnect opens web links in the device's browser", "open-url http(s): redirected to \(policy.customBrowserProtocol.isEmpty ? "Edge" : policy.customBrowserProtocol) becomes allowed to the browser")
        }
        switch policy.receive {
        case .allApps:
            controls.openFrom = OpenFromPolicy(status: .authorized)
            if policy.protectInboundDataFromUnknownSources { note("protectInboundDataFromUnknownSources: true", "openFromPolicy: authorized", "none: the document is accepted either way (AppConnect does not mark it as org data)") }
        case .managedApps: controls.openFrom = OpenFromPolicy(.allAppConnectApps)
        case .none: controls.openFrom = OpenFromPolicy(status: .unauthorized)
        }
        switch policy.clipboard {
        case .allApps: controls.pasteboard = .authorized
        case .managedAppsWithPasteIn: controls.pasteboard = .secureCopy
        case .managedApps:
            controls.pasteboard = .secureCopy
            note("allowedOutboundClipboardSharingLevel: managedApps", "pasteboardPolicy: securecopy", "paste into this app from an app that is not managed (AppConnect does not restrict pasting in)")
        case .blocked: controls.pasteboard = .unauthorized
        }
        if policy.clipboardExceptionLength > 0 {
            note("allowedOutboundClipboardSharingExceptionLength: \(policy.clipboardExceptionLength)", "nothing: AppConnect has no character limit", "a copy of at most \(policy.clipboardExceptionLength) characters to an app that is not managed: allowed becomes denied")
        }
        controls.print = policy.printBlocked ? .unauthorized : .authorized
        // Settings AppConnect has no control for (Rules/intune/save-as-and-open-into.md).
        if policy.send == .none || (policy.send == .managedApps && policy.saveAsBlocked) {
            let allowed = policy.send == .none ? "none" : policy.allowedDataStorageLocations.isEmpty ? "none" : policy.allowedDataStorageLocations.map(\.rawValue).joined(separator: ", ")
            note("saveAsBlocked: true, allowedDataStorageLocations: \(allowed)\(policy.send == .none ? " (Block: Send org data is None)" : "")",
                 "nothing: AppConnect has no Save As control", "save-as to a location that is not allowed (an app's own save to a storage service): denied becomes allowed (newly allowed)")
        }
        if policy.receive == .none || (policy.receive == .managedApps && policy.blockDataIngestion) {
            let allowed = policy.receive == .none ? "none" : policy.allowedDataIngestionLocations.isEmpty ? "none" : policy.allowedDataIngestionLocations.map(\.rawValue).joined(separator: ", ")
            note("blockDataIngestionIntoOrganizationDocuments: true, allowedDataIngestionLocations: \(allowed)\(policy.receive == .none ? " (Block: Receive data is None)" : "")",
                 "nothing: AppConnect has no control for opening data into org documents", "open-into-org-document from a location that is not allowed: denied becomes allowed (newly allowed)")
        }
        if !policy.exemptedUniversalLinks.isEmpty || !policy.managedUniversalLinks.isEmpty {
            note("exemptedUniversalLinks / managedUniversalLinks (\(policy.exemptedUniversalLinks.count + policy.managedUniversalLinks.count) patterns)",
                 "nothing: AppConnect has no universal-link lists", "open-url of a listed universal link: opens as any web link does")
        }
        if let source = policy.appsFromGroup, source != .unresolved {
            note("appGroupType: \(policy.appGroupType ?? "")", "the \(policy.apps.count) apps of \(source), listed by bundle ID",
                 "none today; the fleet does not follow the group as Microsoft adds apps to it")
        }
        return controls
    }

    // MARK: Flows the translation opens

    /// One flow the translation opens: a request, decided end to end on one device before and after.
    package struct OpenedFlow {
        package let device: String
        package let request: FleetRequest
        /// The decision before, or why the source could not decide the request.
        package let before: Result<FlowDecision, FleetError>
        package let after: FlowDecision
    }

    /// One side's device, resolved once: the AppConnect device or the Intune device index.
    package struct FlowSides {
        package let device: FleetDevice?
        package let index: IntuneDeviceIndex?

        package init(_ fleet: VendorFleet, _ name: String) throws(FleetError) {
            device = try CrossVendorDiff.resolve(fleet, name)
            index = try CrossVendorDiff.index(fleet, name)
        }
    }

    package static func readable(_ outcome: Outcome) -> Bool { outcome == .allow || outcome == .redirect }

    /// `request` decided before and after, when the translation opens it (``eachOpenedFlow(from:to:_:endOfSender:)``).
    static func openedFlow(_ request: FleetRequest, on name: String, from old: VendorFleet, _ before: Result<FlowSides, FleetError>,
                           to new: VendorFleet, _ after: FlowSides) -> OpenedFlow? {
        // The translated side cannot decide it, or delivers nothing readable: nothing opened.
        guard let after = try? new.decide(device: name, request, resolved: after.device, index: after.index), readable(after.outcome) else { return nil }
        return opened(request, on: name, after: after, was: decision(of: request, on: name, by: old, before))
    }

    /// `request` decided by `fleet` on the device resolved as `sides`, or why it cannot be.
    package static func decision(of request: FleetRequest, on name: String, by fleet: VendorFleet, _ sides: Result<FlowSides, FleetError>) -> Result<FlowDecision, FleetError> {
        Result { () throws(FleetError) in
            let sides = try sides.get()
            return try fleet.decide(device: name, request, resolved: sides.device, index: sides.index)
        }
    }

    /// The flow of `request` when the translation opens it, given its decisions: `after` (readable) and before (`was`).
    package static func opened(_ request: FleetRequest, on name: String, after: FlowDecision, was: Result<FlowDecision, FleetError>) -> OpenedFlow? {
        if case .success(let before) = was {
            let moved = before.receiverApp != nil && after.receiverApp != nil && before.receiverApp != after.receiverApp
            guard !readable(before.outcome) || moved else { return nil }
            // A URL the sender opened in itself before (its own Open From refusing) and keeps to itself now: nothing leaves.
            if after.receiverApp == nil, before.receiverApp == request.from { return nil }
        }
        return OpenedFlow(device: name, request: request, before: was, after: after)
    }

    /// How many receivers (or URLs) a flow note names before "and N more".
    static let namedFlows = 5

    /// The flows the translation opens (``eachOpenedFlow(from:to:_:endOfSender:)``), one note per
    /// device, sender, channel and change (the decisions before and after, with their rules): naming
    /// the first ``namedFlows`` receivers or URLs in request order, then how many more, so a fleet
    /// of many alike apps gives a report that grows with its senders, not with every pair. Every
    /// opened flow is counted in exactly one note.
    /// - Complexity: as ``eachOpenedFlow(from:to:_:endOfSender:)``; the notes are O(devices × senders × changes).
    static func flowsOpened(from old: VendorFleet, to new: VendorFleet) -> [TranslationNote] {
        var notes: [TranslationNote] = []
        eachOpenedFlowGroup(from: old, to: new) { notes.append($0.note) }
        return notes
    }

    /// One note of ``flowsOpened(from:to:)``: the flows of one sender on one channel, with one change.
    struct OpenedFlowGroup {
        /// The group's first flow.
        package let first: OpenedFlow
        package let device: String
        package let sender: BundleID
        package let channel: FleetChannel
        /// The decision after: `outcome (rules)`.
        package let chosen: String
        /// The decision before: `outcome (rules)`, or `an error (message)`.
        package let was: String
        package let outcome: Outcome
        /// The first ``PolicyTranslation/namedFlows`` receivers or URLs, each with the app that receives it when another.
        package var named: [String] = []
        /// How many flows the group holds.
        package var count = 0

        var note: TranslationNote {
            let more = count > named.count ? " and \(count - named.count) more (\(count) flows)" : ""
            let to = named.isEmpty ? "" : " → " + named.joined(separator: ", ") + more
            return TranslationNote(policy: "device \(JSONWriter.quoted(device))", setting: "\(channel) \(sender)\(to), decided end to end",
                                   chosen: chosen, changes: "newly readable: \(was) becomes \(outcome)")
        }
    }

    /// The groups of one sender's opened flows, in the order each group's first flow came.
    struct FlowGroups {
        private(set) var groups: [OpenedFlowGroup] = []
        private var index: [ExactKey: Int] = [:]

        /// What a note says of `flow` but its receiver: the decisions after (`chosen`) and before (`was`),
        /// and the receiver's name with where it went when that is another app.
        package static func describe(_ flow: OpenedFlow) -> (chosen: String, was: String, receiver: String?) {
            let after = flow.after
            let target = flow.request.url?.rawValue ?? flow.request.target.map { FlowChange.receiverName($0, channel: flow.request.channel) }
            // A channel with no target (mail-compose: one request per sender) says where it went in the decisions.
            func decided(_ decision: FlowDecision) -> String {
                "\(decision.outcome)\(target == nil ? decision.receiverApp.map { " to \($0)" } ?? "" : "") (\(decision.rules))"
            }
            let chosen = decided(after)
            let was: String
            var before: BundleID?
            switch flow.before {
            case .success(let decision):
                was = decided(decision)
                before = decision.receiverApp
            case .failure(let error):
                was = "an error (\(error.message))"
            }
            return (chosen, was, target.map { receiver($0, target: flow.request.target, after: after.receiverApp, before: before) })
        }

        /// How a note names one flow's receiver (or URL) `name`: with the app that received it after, and the app
        /// that received it before when that is another, each when it is not the request's `target`.
        package static func receiver(_ name: String, target: BundleID?, after: BundleID?, before: BundleID?) -> String {
            var also: [String] = []
            if let app = after, app != target { also.append("to \(app)") }
            if let app = before, app != after, app != target { also.append("was to \(app)") }
            return also.isEmpty ? name : "\(name) (\(also.joined(separator: ", ")))"
        }

        /// Counts `flow` in its group.
        package mutating func add(_ flow: OpenedFlow) {
            let (chosen, was, receiver) = Self.describe(flow)
            add(channel: flow.request.channel, chosen: chosen, was: was, receiver: receiver) { flow }
        }

        /// Counts a flow on `channel` with decisions `chosen` and `was` to `receiver`; `first` makes the flow
        /// when it starts a group.
        @discardableResult
        package mutating func add(channel: FleetChannel, chosen: String, was: String, receiver: String?, first: () -> OpenedFlow) -> Int {
            // Everything the note says but the receivers (the device and sender are the walk's), compared as bytes.
            let key = ExactKey("\(channel)\u{0}\(chosen)\u{0}\(was)")
            let slot: Int
            if let found = index[key] {
                slot = found
            } else {
                let flow = first()
                slot = groups.count
                index[key] = slot
                groups.append(OpenedFlowGroup(first: flow, device: flow.device, sender: flow.request.from, channel: channel, chosen: chosen, was: was,
                                              outcome: flow.after.outcome))
            }
            count(slot, receiver: receiver)
            return slot
        }

        /// Counts one more flow in the group at `slot`, to `receiver` (made only while the group names fewer than it may).
        package mutating func count(_ slot: Int, receiver: @autoclosure () -> String?) {
            if groups[slot].named.count < namedFlows, let receiver = receiver() { groups[slot].named.append(receiver) }
            groups[slot].count += 1
        }

        /// Counts `more` flows in the group at `slot` that come after the ones it names.
        package mutating func count(_ slot: Int, more: Int) { groups[slot].count += more }
    }

    /// Groups the opened flows as ``flowsOpened(from:to:)`` describes, handing each group to `body`
    /// once its sender is done (in the order each group's first flow came): the same groups as
    /// ``eachOpenedFlowGroupByRequest(from:to:_:)``, without deciding every request.
    ///
    /// A sender's request on a targeted channel is decided, on either side, by what the decision
    /// reads of its receiver (``FlowKeys``): a receiver with the same key as one decided already on
    /// that channel gets the same outcome and rules, so only the first receiver of each key is
    /// decided, and the others are counted in its group (named while the group names fewer than
    /// ``namedFlows``). Receivers a decision may treat apart (native Mail, "any other app", Apple's
    /// IDs), keys whose first decision delivers to another app than the receiver, and receivers
    /// whose own policy cannot decide are decided one by one, as are the requests that name no
    /// receiver (mail, keyboards). `open-url` on a custom scheme is keyed the same way: on each
    /// side by whether the scheme is the sender's own and (Intune) exempted by its policy, and by
    /// its handler's key (the handler being the same app on both sides); `mailto:`, `tel:`, `sms:`,
    /// web links and URLs whose handler is decided alone are decided one by one.
    /// - Complexity: O(devices × senders × (receivers + URLs)) table lookups and O(devices ×
    ///   senders × keys) end-to-end decisions, where the keys are the kinds of receiver (and of URL)
    ///   a sender's decisions tell apart (a few, whatever the apps); memory O(apps + URLs + channels)
    ///   beyond the fleets.
    static func eachOpenedFlowGroup(from old: VendorFleet, to new: VendorFleet, _ body: (OpenedFlowGroup) -> Void) {
        let newNames = Set(new.deviceNames.map(ExactKey.init))
        for name in old.deviceNames where newNames.contains(ExactKey(name)) {
            guard let after = try? FlowSides(new, name) else { continue }
            let before = Result { () throws(FleetError) in try FlowSides(old, name) }
            let device = DeviceRequests(old: old, new: new, device: name)
            let receivers = device.receivers
            var oldKeys = FlowKeys(old, before, receivers: receivers)
            var newKeys = FlowKeys(new, .success(after), receivers: receivers)
            // Receivers a decision may compare with a constant, decided one by one.
            let alone = receivers.map { $0.isNativeMail || $0 == BundleID.anyOtherApp || $0 == .mailActivity || $0.rawValue.hasPrefix("com.apple.") }
            // The receiver walks made for the last few signatures of sender.
            var walks: [WalkSignature: ReceiverWalk] = [:]
            var other = [Bool](repeating: true, count: receivers.count)
            // Receivers by Intune's key (ASCII case ignored): a sender sends to every receiver but those with its key.
            var byKey: [ExactKey: [Int]] = [:]
            for (r, receiver) in receivers.enumerated() { byKey[IntuneBundleID.key(receiver), default: []].append(r) }
            // Each URL: whether its scheme is custom (not mail, phone, messages or web, which rules of their own read),
            // and its handler on each side; receivers by their exact ID.
            var position: [BundleID: Int] = [:]
            for (r, receiver) in receivers.enumerated() where position[receiver] == nil { position[receiver] = r }
            let handlers = device.urls.map { (old: oldKeys.handler(of: $0), new: newKeys.handler(of: $0)) }
            // Per URL, for every sender: whether it is keyed (a custom scheme — not mail, phone, messages or web, which
            // rules of their own read — that both sides hand to one app or none, as the note names it once), and the
            // place of its handler among the receivers (-1: no handler).
            var keyed = [Bool](repeating: false, count: device.urls.count)
            var handlerPlace = [Int](repeating: -1, count: device.urls.count)
            for (u, url) in device.urls.enumerated() where !ExactText.isOne(url.scheme, of: ["mailto", "tel", "telprompt", "sms", "http", "https"]) {
                let (oldHandler, newHandler) = handlers[u]
                guard oldKeys.failed || newKeys.failed || oldHandler == newHandler else { continue }
                if let handler = newKeys.failed ? oldHandler : newHandler {
                    guard let r = position[handler], !alone[r] else { continue }
                    handlerPlace[u] = r
                }
                keyed[u] = true
            }
            var urlMemo: [UInt64: Int] = [:]
            var urlKnown: [(state: KeyState, slot: Int, afterDelivers: Bool, beforeDelivers: Bool)] = []
            var state: [KeyState] = [], slotOf: [Int] = []
            var events: [Int] = [], firstOf: [Int] = [], visited: [Int] = [], total: [Int] = [], knownOf: [Known] = []
            for sender in device.senders {
                var groups = FlowGroups()
                oldKeys.begin(sender: sender)
                newKeys.begin(sender: sender)
                let itself = byKey[IntuneBundleID.key(sender)] ?? []
                for r in itself { other[r] = false }
                defer { for r in itself { other[r] = true } }
                // The walk of the receivers (each one's kind, how many each kind has, the receivers decided alone and the
                // first of each kind) depends on the sender only through what its keys read of it (`KeySignature`):
                // senders that share a policy share it, made once; then the sender's own receivers are left out.
                let signature = WalkSignature(old: oldKeys.signature, new: newKeys.signature)
                let walk: ReceiverWalk
                if let signature, let known = walks[signature] {
                    walk = known
                } else {
                    walk = ReceiverWalk(receivers: receivers.count, alone: alone, old: &oldKeys, new: &newKeys)
                    if let signature {
                        if walks.count >= 8 { walks.removeAll(keepingCapacity: true) }  // a few at a time: memory O(receivers)
                        walks[signature] = walk
                    }
                }
                let kinds = walk.kinds
                let kindCount = walk.total.count
                // Per kind, without the sender's own receivers: its first receiver (-1: none), how many, and the events
                // visited (the receivers decided alone, and the first `namedFlows` of each kind, in order).
                firstOf.removeAll(keepingCapacity: true)
                firstOf.append(contentsOf: repeatElement(-1, count: kindCount))
                visited.removeAll(keepingCapacity: true)
                visited.append(contentsOf: repeatElement(0, count: kindCount))
                total = walk.total
                for r in itself where kinds[r] >= 0 { total[kinds[r]] -= 1 }
                func visit<Places: Sequence<Int>>(_ places: Places) {
                    events.removeAll(keepingCapacity: true)
                    for r in places where other[r] {
                        let kind = kinds[r]
                        guard kind >= 0 else {
                            events.append(r)
                            continue
                        }
                        guard visited[kind] < namedFlows else { continue }
                        if firstOf[kind] < 0 { firstOf[kind] = r }
                        visited[kind] += 1
                        events.append(r)
                    }
                }
                visit(walk.events)
                // The walk keeps one receiver more than a note names per kind, for the sender's own (one receiver: the
                // receivers are one per Intune key); were a kind ever short, every receiver is visited instead.
                if !firstOf.indices.allSatisfy({ visited[$0] == min(total[$0], namedFlows) }) {
                    for kind in firstOf.indices { (firstOf[kind], visited[kind]) = (-1, 0) }
                    visit(receivers.indices)
                }
                for channel in DeviceRequests.targetedChannels {
                    // What each key does on this channel, from its first receiver. When none delivers elsewhere, only the
                    // events are visited and each key's other receivers are counted at once: the walk of a channel is
                    // O(keys + receivers decided alone), not O(receivers).
                    knownOf.removeAll(keepingCapacity: true)
                    for r in firstOf {
                        // A kind whose only receiver is the sender itself: nothing to decide.
                        guard r >= 0 else {
                            knownOf.append(.closed)
                            continue
                        }
                        let known = Known(DeviceRequests.request(from: sender, channel, to: receivers[r]), on: name, from: old, before, to: new, after)
                        if case .alone = known { break }
                        knownOf.append(known)
                    }
                    if knownOf.count == firstOf.count {
                        slotOf.removeAll(keepingCapacity: true)
                        slotOf.append(contentsOf: repeatElement(-1, count: firstOf.count))
                        for r in events {
                            let kind = kinds[r]
                            guard kind >= 0 else {
                                if let flow = openedFlow(DeviceRequests.request(from: sender, channel, to: receivers[r]), on: name, from: old, before, to: new, after) {
                                    groups.add(flow)
                                }
                                continue
                            }
                            guard case .opened(let flow, let chosen, let was, _, _) = knownOf[kind] else { continue }
                            if slotOf[kind] >= 0 {
                                groups.count(slotOf[kind], receiver: FlowChange.receiverName(receivers[r], channel: channel))
                            } else {
                                // The kind's first receiver: its flow was made deciding the kind.
                                slotOf[kind] = groups.add(channel: channel, chosen: chosen, was: was, receiver: FlowChange.receiverName(receivers[r], channel: channel)) { flow }
                            }
                        }
                        for kind in firstOf.indices where slotOf[kind] >= 0 { groups.count(slotOf[kind], more: total[kind] - visited[kind]) }
                        continue
                    }
                    // A key whose first receiver is delivered elsewhere: every receiver visited, that key's each decided alone.
                    // Per key: what its first receiver's decisions say for the others, and the slot of its group once it
                    // has one (plain integers: a receiver of a known key costs two array reads, no copy of a note's text).
                    state.removeAll(keepingCapacity: true)
                    state.append(contentsOf: repeatElement(KeyState.unknown, count: kindCount))
                    slotOf.removeAll(keepingCapacity: true)
                    slotOf.append(contentsOf: repeatElement(-1, count: kindCount))
                    for r in receivers.indices where other[r] {
                        let kind = kinds[r]
                        if kind >= 0 {
                            switch state[kind] {
                            case .opened:
                                groups.count(slotOf[kind], receiver: FlowChange.receiverName(receivers[r], channel: channel))
                                continue
                            case .closed:
                                continue
                            case .unknown:
                                let request = DeviceRequests.request(from: sender, channel, to: receivers[r])
                                switch Known(request, on: name, from: old, before, to: new, after) {
                                case .alone:
                                    state[kind] = .alone
                                    if let flow = openedFlow(request, on: name, from: old, before, to: new, after) { groups.add(flow) }
                                case .closed:
                                    state[kind] = .closed
                                case .opened(let flow, let chosen, let was, _, _):
                                    state[kind] = .opened
                                    slotOf[kind] = groups.add(channel: channel, chosen: chosen, was: was, receiver: FlowChange.receiverName(receivers[r], channel: channel)) { flow }
                                }
                                continue
                            case .alone:
                                break
                            }
                        }
                        // Decided alone: a receiver a decision may treat apart, or one of a key whose first delivered elsewhere.
                        if let flow = openedFlow(DeviceRequests.request(from: sender, channel, to: receivers[r]), on: name, from: old, before, to: new, after) {
                            groups.add(flow)
                        }
                    }
                }
                // open-url: a URL with a custom scheme is decided, on either side, by what the sender's policy says of
                // its scheme (own, exempted) and its handler's key; the first URL of each such key is decided.
                urlMemo.removeAll(keepingCapacity: true)
                urlKnown.removeAll(keepingCapacity: true)
                for (u, url) in device.urls.enumerated() {
                    // The URL's key for this sender: each side's bits, and its handler's kind (0: no handler); `nil`: decide it alone.
                    var key: UInt64?
                    if keyed[u], let oldBits = oldKeys.urlBits(url), let newBits = newKeys.urlBits(url) {
                        let r = handlerPlace[u]
                        if r < 0 {
                            key = oldBits | newBits << 2
                        } else if other[r], kinds[r] >= 0 {
                            key = oldBits | newBits << 2 | (UInt64(kinds[r]) + 1) << 4
                        }
                    }
                    if let key, let known = urlMemo[key] {
                        switch urlKnown[known].state {
                        case .closed:
                            continue
                        case .opened:
                            let (slot, afterDelivers, beforeDelivers) = (urlKnown[known].slot, urlKnown[known].afterDelivers, urlKnown[known].beforeDelivers)
                            groups.count(slot, receiver: FlowGroups.receiver(url.rawValue, target: nil, after: afterDelivers ? handlers[u].new : nil,
                                                                             before: beforeDelivers ? handlers[u].old : nil))
                            continue
                        case .alone, .unknown:
                            break
                        }
                    }
                    guard let request = try? FleetRequest(from: sender, channel: .openURL, url: url) else { continue }
                    guard let key, urlMemo[key] == nil else {
                        if let flow = openedFlow(request, on: name, from: old, before, to: new, after) { groups.add(flow) }
                        continue
                    }
                    var known = (state: KeyState.closed, slot: -1, afterDelivers: false, beforeDelivers: false)
                    switch Known(request, on: name, from: old, before, to: new, after, oldHandler: handlers[u].old, newHandler: handlers[u].new) {
                    case .alone:
                        known.state = .alone
                        if let flow = openedFlow(request, on: name, from: old, before, to: new, after) { groups.add(flow) }
                    case .closed:
                        break
                    case .opened(let flow, let chosen, let was, let afterDelivers, let beforeDelivers):
                        known = (.opened, groups.add(channel: .openURL, chosen: chosen, was: was, receiver: FlowGroups.describe(flow).receiver) { flow },
                                 afterDelivers, beforeDelivers)
                    }
                    urlMemo[key] = urlKnown.count
                    urlKnown.append(known)
                }
                for request in device.mailAndKeyboardRequests(from: sender) {
                    if let flow = openedFlow(request, on: name, from: old, before, to: new, after) { groups.add(flow) }
                }
                for group in groups.groups { body(group) }
            }
        }
    }

    /// What a sender's keys read of the sender on both sides; two senders with the same give every receiver the same kind.
    struct WalkSignature: Hashable {
        package let old: FlowKeys.Signature
        package let new: FlowKeys.Signature

        package init?(old: FlowKeys.Signature?, new: FlowKeys.Signature?) {
            guard let old, let new else { return nil }
            self.old = old
            self.new = new
        }
    }

    /// One walk of the receivers for a sender's signature, the sender's own receivers included (left out where used).
    struct ReceiverWalk {
        /// Each receiver's kind (its two keys, numbered as met; -1: decided alone).
        private(set) var kinds: [Int]
        /// How many receivers each kind has.
        private(set) var total: [Int] = []
        /// The receivers decided alone, and the first ``PolicyTranslation/namedFlows`` + 1 of each kind (one
        /// more than a note names, for when the sender is one of them), in order.
        private(set) var events: [Int] = []

        /// - Complexity: O(receivers) key reads and a lookup per change of key.
        package init(receivers count: Int, alone: [Bool], old: inout FlowKeys, new: inout FlowKeys) {
            kinds = [Int](repeating: -1, count: count)
            var numbered: [UInt64: Int] = [:]
            var (lastKey, lastKind) = (UInt64.max, -1)
            var kept: [Int] = []
            for r in 0..<count {
                guard !alone[r], let oldKey = old.key(r), let newKey = new.key(r) else {
                    events.append(r)
                    continue
                }
                let key = UInt64(oldKey) << 32 | UInt64(newKey)
                let kind: Int
                if key == lastKey {
                    kind = lastKind  // receivers in a row often share a key: no hashing then
                } else if let found = numbered[key] {
                    kind = found
                } else {
                    kind = numbered.count
                    numbered[key] = kind
                    total.append(0)
                    kept.append(0)
                }
                kinds[r] = kind
                (lastKey, lastKind) = (key, kind)
                total[kind] += 1
                if kept[kind] <= PolicyTranslation.namedFlows {
                    kept[kind] += 1
                    events.append(r)
                }
            }
        }
    }

    /// What is known of a key on one channel: nothing yet, or its first receiver's ``Known``.
    enum KeyState { case unknown, alone, closed, opened }

    /// What the first receiver of a key decided on one channel, for the others of that key.
    enum Known {
        /// Delivered to another app than the receiver on some side: each receiver is decided alone.
        case alone
        /// Not opened.
        case closed
        /// Opened: the flow, the note's decisions after and before, and whether each delivered to the receiver
        /// (or the URL's handler) or to no app.
        case opened(flow: OpenedFlow, chosen: String, was: String, afterDelivers: Bool, beforeDelivers: Bool)

        /// What `request` decided, for the others of its key: the receiver is `request.target`, or for a URL
        /// the handler each side's device hands it to (`oldHandler`, `newHandler`).
        package init(_ request: FleetRequest, on name: String, from old: VendorFleet, _ before: Result<FlowSides, FleetError>, to new: VendorFleet, _ after: FlowSides,
             oldHandler: BundleID? = nil, newHandler: BundleID? = nil) {
            let isURL = request.url != nil
            func delivers(_ decision: FlowDecision, _ handler: BundleID?) -> Bool {
                decision.receiverApp == nil || decision.receiverApp == (isURL ? handler : request.target)
            }
            // Each side decided once. Either may have delivered elsewhere (then the note says where, receiver by receiver).
            let decided = try? new.decide(device: name, request, resolved: after.device, index: after.index)
            if let decided, !delivers(decided, newHandler) {
                self = .alone
                return
            }
            let was = PolicyTranslation.decision(of: request, on: name, by: old, before)
            if case .success(let before) = was, !delivers(before, oldHandler) {
                self = .alone
                return
            }
            guard let decided, PolicyTranslation.readable(decided.outcome), let flow = PolicyTranslation.opened(request, on: name, after: decided, was: was) else {
                self = .closed
                return
            }
            let (chosen, text, _) = FlowGroups.describe(flow)
            var beforeDelivers = false
            if case .success(let decision) = flow.before { beforeDelivers = decision.receiverApp != nil }
            self = .opened(flow: flow, chosen: chosen, was: text, afterDelivers: flow.after.receiverApp != nil, beforeDelivers: beforeDelivers)
        }
    }

    /// What one side's end-to-end decision of a sender's request on a targeted channel reads of the
    /// receiver, as a key: two receivers with one key get the same outcome and rules, the receiver
    /// itself (or no app) receiving.
    ///
    /// AppConnect: the facts the rules read of a target (``TargetFact``: whether the sender's policy
    /// lists the receiver, counts it as an AppConnect app, excludes it as a share-sheet activity, …),
    /// and whether the device counts it as an AppConnect app; for one, its own Open From decision with the sender as source (made once per receiver
    /// and whether its Open From whitelist holds the sender: the rule reads the source only so).
    /// Intune: whether the receiver is policy-managed and MDM-managed; for a managed one, its
    /// Receive data and paste decisions with the sender as source (made once per receiver and
    /// whether the sender is managed). `nil`: decide it alone (its own policy cannot decide).
    struct FlowKeys {
        /// Which vendor's side this is (stored apart from its tables, so a key reads them without copying).
        private enum Kind { case appConnect, intune, failed }

        private let kind: Kind
        private let receivers: [BundleID]
        /// AppConnect: each receiver's prepared policy when the device counts it as an AppConnect app, and
        /// whether its policy leaves Open From unset.
        private let prepared: [PreparedPolicy?]
        private let openFromUnset: [Bool]
        private let device: FleetDevice?
        /// Intune: the device index, and whether each receiver is policy-managed, MDM-managed.
        private let index: IntuneDeviceIndex?
        private let managed: [Bool]
        private let mdm: [Bool]
        /// Per receiver, four slots of its own decisions, interned (0: not made; `UInt32.max`: cannot decide).
        private var made: [UInt32]
        private var interned: [String: UInt32] = [:]
        private var sender = BundleID.anyOtherApp
        private var senderPrepared: PreparedPolicy?
        private var senderManaged = false
        /// Intune: the sender's context (its policy and own schemes).
        private var senderContext: IntuneContext?
        /// AppConnect: whether the current sender has a policy here, and per fact the rules read (``readFacts``, by
        /// ``TargetFact`` raw value) that is neither the listing nor the device's: its answer for every receiver, or
        /// `nil` when it depends on the receiver (then asked of the sender's policy, receiver by receiver).
        private var hasSender = false
        private var senderConstant = [Bool?](repeating: false, count: TargetFact.allCases.count)
        /// The facts the rules read of a receiver on the targeted channels and of an `open-url`'s handler (the statement).
        private static let readFacts = TargetFacts.read(on: DeviceRequests.targetedChannels.compactMap(\.senderChannel) + [.openURL]).facts
        /// The key bits the facts take (one per ``TargetFact``); the receiver's own decision comes above them.
        private static let factBits = UInt32(TargetFact.allCases.count)
        /// AppConnect, read per receiver without a lookup: whether the device counts it as an AppConnect app (it
        /// then has a prepared policy), and which receivers the current sender's Open In lists (`listsEvery` when
        /// that does not depend on the receiver; otherwise a bit per receiver).
        private var appConnect: [Bool] = []
        private var listsEvery: Bool?
        private var listed: [UInt64] = []
        /// The bits of each large whitelist met (one at least 1/64 of the receivers), by its storage: a whitelist many
        /// senders share (All AppConnect apps) is read once, and the bits kept are never more than the whitelists' IDs.
        private var listedOf: [ObjectIdentifier: [UInt64]] = [:]
        /// Receivers by their exact ID, and native Mail's places (its listing needs the whole Mail pair).
        private var position: [BundleID: Int] = [:]
        private var mailPlaces: [Int] = []
        /// Whether a receiver's Open From whitelist lists the current sender: each receiver's distinct Open From
        /// whitelist (`groupOf`, -1: none), per bundle ID the whitelists that list it, and those of the current sender
        /// marked (`groupListed`, the marks in `marked`): per sender, a walk of the whitelists that list it.
        private var groupOf: [Int] = []
        private var groupListed: [Bool] = []
        private var marked: [Int] = []
        private var groupsListing: [BundleID: [Int]] = [:]

        package init(_ fleet: VendorFleet, _ sides: Result<FlowSides, FleetError>, receivers: [BundleID]) {
            self.receivers = receivers
            made = [UInt32](repeating: 0, count: receivers.count * 4)
            var kind = Kind.failed
            var prepared: [PreparedPolicy?] = [], openFromUnset: [Bool] = [], managed: [Bool] = [], mdm: [Bool] = []
            var device: FleetDevice?, index: IntuneDeviceIndex?
            if case .success(let sides) = sides {
                if let resolved = sides.device {
                    kind = .appConnect
                    device = resolved
                    for receiver in receivers {
                        let side = resolved.appConnectApps.contains(receiver) ? resolved.side(for: receiver) : nil
                        prepared.append(side?.prepared)
                        openFromUnset.append(side.map { $0.policy.source(of: .openFrom) == .notSet } ?? false)
                    }
                } else if let made = sides.index {
                    kind = .intune
                    index = made
                    let mdmKeys = Set(made.device.mdmManagedApps.map(IntuneBundleID.key))
                    managed = receivers.map(made.isManaged)
                    mdm = receivers.map { mdmKeys.contains(IntuneBundleID.key($0)) }
                }
            }
            self.kind = kind
            self.prepared = prepared
            self.openFromUnset = openFromUnset
            self.device = device
            self.index = index
            self.managed = managed
            self.mdm = mdm
            guard kind == .appConnect else { return }
            appConnect = prepared.map { $0 != nil }
            groupOf = [Int](repeating: -1, count: receivers.count)
            for (r, receiver) in receivers.enumerated() {
                if position[receiver] == nil { position[receiver] = r }
                if receiver.isNativeMail { mailPlaces.append(r) }
            }
            var groups: [ObjectIdentifier: Int] = [:]
            for (r, own) in prepared.enumerated() {
                guard let whitelist = own?.openFromList else { continue }
                let identity = ObjectIdentifier(whitelist.list)
                if let group = groups[identity] {
                    groupOf[r] = group
                    continue
                }
                let group = groupListed.count
                groups[identity] = group
                groupOf[r] = group
                groupListed.append(false)
                for id in whitelist { groupsListing[id, default: []].append(group) }
            }
        }

        /// The bits of the receivers `whitelist` lists (as ``Whitelist/lists(_:)``: native Mail only with the whole pair).
        private func bits(of whitelist: Whitelist) -> [UInt64] {
            var bits = [UInt64](repeating: 0, count: (receivers.count + 63) / 64)
            for id in whitelist { if let r = position[id] { bits[r >> 6] |= 1 << UInt64(r & 63) } }
            for r in mailPlaces {
                if whitelist.lists(receivers[r]) { bits[r >> 6] |= 1 << UInt64(r & 63) } else { bits[r >> 6] &= ~(1 << UInt64(r & 63)) }
            }
            return bits
        }

        mutating func begin(sender: BundleID) {
            self.sender = sender
            switch kind {
            case .appConnect:
                senderPrepared = device?.side(for: sender).prepared
                hasSender = senderPrepared != nil
                for fact in FlowKeys.readFacts where fact != .listed {
                    guard let sending = senderPrepared else { break }
                    switch fact.extent(under: sending) {
                    case .constant(let value): senderConstant[fact.rawValue] = value
                    case .device, .members: senderConstant[fact.rawValue] = nil
                    }
                }
                for group in marked { groupListed[group] = false }
                marked = groupsListing[sender] ?? []
                for group in marked { groupListed[group] = true }
                listsEvery = senderPrepared?.listsEveryTarget
                if let sending = senderPrepared, listsEvery == nil {
                    let whitelist = sending.openInWhitelist
                    if whitelist.count * 64 >= receivers.count {
                        let identity = ObjectIdentifier(whitelist.list)
                        if let known = listedOf[identity] {
                            listed = known
                        } else {
                            listed = bits(of: whitelist)
                            listedOf[identity] = listed
                        }
                    } else {
                        listed = bits(of: whitelist)
                    }
                }
            case .intune:
                senderManaged = index?.isManaged(sender) ?? false
                senderContext = index?.context(for: sender)
            case .failed: break
            }
        }

        /// Whether this side cannot decide on the device (every request is the same error).
        var failed: Bool { kind == .failed }

        /// What ``key(_:)`` reads of the current sender, as a value (two senders with the same get the same key for
        /// every receiver), or `nil` when it is not worth sharing (an AppConnect sender with a list of its own besides
        /// Open In's, such as excluded activities).
        struct Signature: Hashable {
            let flags: Int
            package let whitelist: ObjectIdentifier?
            let groups: [Int]
        }

        /// The current sender's ``Signature``.
        var signature: Signature? {
            switch kind {
            case .failed:
                return Signature(flags: 0, whitelist: nil, groups: [])
            case .appConnect:
                guard hasSender, let sending = senderPrepared else { return Signature(flags: 1, whitelist: nil, groups: []) }
                // Every other fact the same for every receiver (or the device's): then only the listing and the groups tell senders apart.
                for fact in FlowKeys.readFacts where fact != .listed {
                    guard case .constant(let value) = fact.extent(under: sending) else {
                        if case .device = fact.extent(under: sending) { continue }
                        return nil
                    }
                    guard !value else { return nil }
                }
                switch listsEvery {
                case true?: return Signature(flags: 2, whitelist: nil, groups: marked)
                case false?: return Signature(flags: 3, whitelist: nil, groups: marked)
                case nil: return Signature(flags: 4, whitelist: ObjectIdentifier(sending.openInWhitelist.list), groups: marked)
                }
            case .intune:
                return Signature(flags: senderManaged ? 6 : 5, whitelist: nil, groups: [])
            }
        }

        /// The app this side's device hands `url` to (the handler every sender's decision reads), or `nil`.
        package func handler(of url: ShareURL) -> BundleID? {
            switch kind {
            case .failed: nil
            case .appConnect: device?.facts.handler(forScheme: url.scheme)
            case .intune: index?.handler(forScheme: url.scheme)
            }
        }

        /// What this side's decision of the current sender's `open-url` on `url` (a custom scheme) reads besides
        /// its handler's key: whether the scheme is the sender's own (1) and, Intune, whether the sender's policy
        /// exempts it (2). `nil`: decide it alone. The handler is the device's (``handler(of:)``) for every sender:
        /// each policy prepared on an AppConnect device reads the device's scheme table, and each Intune context
        /// on a device is made from the device's handlers.
        func urlBits(_ url: ShareURL) -> UInt64? {
            switch kind {
            case .failed:
                return 0
            case .appConnect:
                guard let sending = senderPrepared else { return nil }
                return sending.isOwnScheme(url) ? 1 : 0
            case .intune:
                guard let context = senderContext else { return nil }
                let exempted = context.policy.map { !$0.exemptions.isEmpty && $0.exempts(scheme: url.scheme) } ?? false
                return (context.isOwn(url.scheme) ? 1 : 0) | (exempted ? 2 : 0)
            }
        }

        /// The receiver's own decision in `slot`, interned: 1 and up, or `UInt32.max` when it cannot decide.
        private mutating func own(_ r: Int, _ slot: Int, _ decide: () -> Decision?) -> UInt32 {
            let at = r * 4 + slot
            if made[at] != 0 { return made[at] }
            var value = UInt32.max
            if let decision = decide() {
                let text = "\(decision.outcome) \(decision.rule.rawValue)"
                if let found = interned[text] {
                    value = found
                } else {
                    value = UInt32(interned.count + 1)
                    interned[text] = value
                }
            }
            made[at] = value
            return value
        }

        /// The key of receiver `r` for the current sender, or `nil` to decide it alone: a few array reads,
        /// inlined into the walk of the receivers; a receiver's own decisions are made (once) out of line.
        @inline(__always)
        package mutating func key(_ r: Int) -> UInt32? {
            switch kind {
            case .failed:
                return 0
            case .appConnect:
                guard hasSender else { return nil }
                var key: UInt32 = 0
                for fact in FlowKeys.readFacts where holds(fact, r) { key |= 1 << UInt32(fact.rawValue) }
                if appConnect[r] {
                    let group = groupOf[r]
                    let slot = group >= 0 && groupListed[group] ? 1 : 0
                    var decision = made[r * 4 + slot]
                    if decision == 0 { decision = openFrom(r, slot) }
                    guard decision < 1 << 20 else { return nil }
                    key |= 1 << FlowKeys.factBits | decision << (FlowKeys.factBits + 1)
                }
                return key
            case .intune:
                guard managed[r] else { return mdm[r] ? 2 : 0 }
                let slot = senderManaged ? 1 : 0
                let at = r * 4
                var receive = made[at + slot], paste = made[at + 2 + slot]
                if receive == 0 || paste == 0 { (receive, paste) = receiveAndPaste(r, slot) }
                guard receive < 1 << 14, paste < 1 << 14 else { return nil }
                return 1 | (mdm[r] ? 2 : 0) | receive << 2 | paste << 16
            }
        }

        /// Whether `fact` holds for receiver `r` under the current sender's policy: the listing and the device's AppConnect
        /// apps from the bits made per sender; another fact from ``senderConstant``, or asked of the policy.
        @inline(__always)
        private func holds(_ fact: TargetFact, _ r: Int) -> Bool {
            switch fact {
            case .listed: listsEvery ?? (listed[r >> 6] >> UInt64(r & 63) & 1 == 1)
            case .appConnectApp: appConnect[r]
            default: senderConstant[fact.rawValue] ?? asked(fact, r)
            }
        }

        /// Whether `fact` holds for receiver `r`, asked of the current sender's policy.
        @inline(never)
        private func asked(_ fact: TargetFact, _ r: Int) -> Bool { senderPrepared.map { fact.holds(for: receivers[r], under: $0) } ?? false }

        /// AppConnect receiver `r`'s Open From decision with the current sender as source (`slot` 1: its whitelist holds it), interned.
        @inline(never)
        private mutating func openFrom(_ r: Int, _ slot: Int) -> UInt32 {
            let own = prepared[r]!, from = sender, unset = openFromUnset[r]
            return self.own(r, slot) { unset ? nil : Evaluator.decide(try! ShareRequest(channel: .openFrom, source: from), own) }
        }

        /// Intune receiver `r`'s Receive data and paste decisions with the current sender as source (`slot` 1: it is managed), interned.
        @inline(never)
        private mutating func receiveAndPaste(_ r: Int, _ slot: Int) -> (UInt32, UInt32) {
            guard let index else { return (UInt32.max, UInt32.max) }
            let context = index.context(for: receivers[r]), from = sender
            let receive = own(r, slot) { IntuneEvaluator(context: context).decide(try! ShareRequest(channel: .openFrom, source: from)) }
            let paste = own(r, 2 + slot) { IntuneEvaluator(context: context).decide(try! ShareRequest(channel: .paste, source: from)) }
            return (receive, paste)
        }
    }

    // MARK: Writing

    /// The policies as Graph beta JSON (an array of `iosManagedAppProtection` objects, as the Graph
    /// API and backup tools take them), indented.
    public static func graphJSON(_ policies: [IntunePolicy]) -> String {
        JSONWriter.pretty(.array(JSONArray(policies.map(graphObject)))) + "\n"
    }

    static func graphObject(_ policy: IntunePolicy) -> JSONValue {
        var members: [JSONObject.Member] = [
            .init("@odata.type", .string(IntuneGraphJSON.odataType)),
            .init("displayName", .string(policy.displayName)),
            .init("description", .string("Translated by openin-check")),
            .init("allowedOutboundDataTransferDestinations", .string(policy.send.rawValue)),
            .init("filterOpenInToOnlyManagedApps", .bool(policy.filterOpenInToOnlyManagedApps)),
            .init("disableProtectionOfManagedOutboundOpenInData", .bool(policy.disableProtectionOfManagedOutboundOpenInData)),
            .init("allowedInboundDataTransferSources", .string(policy.receive.rawValue)),
            .init("protectInboundDataFromUnknownSources", .bool(policy.protectInboundDataFromUnknownSources)),
            .init("allowedOutboundClipboardSharingLevel", .string(policy.clipboard.rawValue)),
            .init("allowedOutboundClipboardSharingExceptionLength", .number(JSONNumber(policy.clipboardExceptionLength))),
            .init("printBlocked", .bool(policy.printBlocked)),
            .init("thirdPartyKeyboardsBlocked", .bool(policy.thirdPartyKeyboardsBlocked)),
            .init("exemptedAppProtocols", .array(JSONArray(policy.exemptions.map { exemption in
                .object(JSONObject(members: [.init("@odata.type", .string("#microsoft.graph.keyValuePair")), .init("name", .string(exemption.name)),
                                             .init("value", .string(exemption.value))]))
            }))),
            .init("exemptedUniversalLinks", .array(JSONArray(policy.exemptedUniversalLinks.map(JSONValue.string)))),
            .init("managedUniversalLinks", .array(JSONArray(policy.managedUniversalLinks.map(JSONValue.string)))),
            .init("managedBrowserToOpenLinksRequired", .bool(policy.managedBrowserRequired)),
            .init("managedBrowser", .string(policy.managedBrowser.rawValue)),
            .init("customBrowserProtocol", .string(policy.customBrowserProtocol)),
            .init("dialerRestrictionLevel", .string(policy.dialer.rawValue)),
            .init("customDialerAppProtocol", .string(policy.customDialerAppProtocol)),
            .init("protectedMessagingRedirectAppType", .string(policy.messaging.rawValue)),
            .init("messagingRedirectAppUrlScheme", .string(policy.messagingRedirectAppUrlScheme)),
            .init("saveAsBlocked", .bool(policy.saveAsBlocked)),
            .init("allowedDataStorageLocations", .array(JSONArray(policy.allowedDataStorageLocations.map { .string($0.rawValue) }))),
            .init("blockDataIngestionIntoOrganizationDocuments", .bool(policy.blockDataIngestion)),
            .init("allowedDataIngestionLocations", .array(JSONArray(policy.allowedDataIngestionLocations.map { .string($0.rawValue) }))),
            .init("appGroupType", .string(policy.appGroupType ?? "selectedPublicApps")),
        ]
        members.append(.init("apps", .array(JSONArray(policy.apps.map { app in
            .object(JSONObject(members: [.init("mobileAppIdentifier", .object(JSONObject(members: [
                .init("@odata.type", .string("#microsoft.graph.iosMobileAppIdentifier")), .init("bundleId", .string(app.rawValue)),
            ])))]))
        }))))
        if policy.managementLevels != .all { members.append(.init("targetedAppManagementLevels", .string(policy.managementLevels.graphValue))) }
        if let assignments = policy.assignments { members.append(.init("assignments", .array(JSONArray(assignments.map(graphAssignment))))) }
        return .object(JSONObject(members: members))
    }

    /// An assignment as IntuneCD writes one (`intunecdlib/BaseGraphModule.py`: `get_object_assignment` drops `id`,
    /// `groupId` and `sourceId`; the group is named by `groupName`, which IntuneCD's restore looks up), or with
    /// `groupId` when the assignment names the group by id only.
    static func graphAssignment(_ assignment: IntuneAssignment) -> JSONValue {
        var target: [JSONObject.Member] = [
            .init("@odata.type", .string(assignment.kind == .include ? "#microsoft.graph.groupAssignmentTarget" : "#microsoft.graph.exclusionGroupAssignmentTarget")),
            .init("deviceAndAppManagementAssignmentFilterId", assignment.filter.map(JSONValue.string) ?? .null),
            .init("deviceAndAppManagementAssignmentFilterType", .string(assignment.filterType.rawValue)),
        ]
        if let name = assignment.groupName {
            target += [.init("groupName", .string(name)), .init("groupType", .string("StaticMembership"))]
        }
        if let id = assignment.groupID { target.append(.init("groupId", .string(id))) }
        return .object(JSONObject(members: [.init("source", .string("direct")), .init("target", .object(JSONObject(members: target)))]))
    }

    /// The Intune devices file of `fleet`'s device profiles.
    public static func devicesJSON(_ fleet: IntuneFleet) -> String {
        let apps = fleet.apps.map { app -> JSONValue in
            var members: [JSONObject.Member] = [.init("bundleID", .string(app.bundleID.rawValue))]
            if let version = app.intuneSDKVersion { members.append(.init("intuneSDKVersion", .string(version.description))) }
            return .object(JSONObject(members: members))
        }
        let devices = fleet.devices.map { device in
            JSONObject.Member(device.name, .object(JSONObject(members: [
                .init("installed", .array(JSONArray(device.installed.map { .string($0.rawValue) }))),
                .init("mdmEnrolled", .bool(device.mdmEnrolled)),
                .init("intuneMAMUPN", .bool(device.intuneMAMUPN)),
                .init("schemeHandlers", .object(JSONObject(members: device.schemeHandlers.map { .init($0.scheme, .string($0.app.rawValue)) }))),
            ] + (device.groups.map { [JSONObject.Member("groups", .array(JSONArray($0.map(JSONValue.string))))] } ?? []))))
        }
        return JSONWriter.pretty(.object(JSONObject(members: [.init("apps", .array(JSONArray(apps))), .init("devices", .object(JSONObject(members: devices)))]))) + "\n"
    }

    /// A fleet as a fleet file (the keys ``FleetJSON`` reads).
    public static func fleetJSON(_ fleet: Fleet) -> String {
        func controls(_ controls: PolicyControls) -> [JSONObject.Member] {
            var members: [JSONObject.Member] = []
            switch controls.openIn {
            case .allAppConnectApps: members.append(.init("openInPolicy", .string("appconnect")))
            case .status(let status): members.append(.init("openInPolicy", .string(status.name)))
            case nil: break
            }
            if controls.openIn == .status(.whitelist) {
                members.append(.init("openInWhitelist", .array(JSONArray(controls.openInWhitelist.ids.sorted().map { .string($0.rawValue) }))))
            }
            if let openFrom = controls.openFrom {
                switch openFrom.setting {
                case .allAppConnectApps: members.append(.init("openFromPolicy", .string("appconnect")))
                case .status(let status): members.append(.init("openFromPolicy", .string(status.description.lowercased())))
                }
            }
            if let pasteboard = controls.pasteboard { members.append(.init("pasteboardPolicy", .string(pasteboard.description.lowercased()))) }
            if let print = controls.print { members.append(.init("printPolicy", .string(print.description.lowercased()))) }
            if let drag = controls.dragAndDrop { members.append(.init("dragAndDropPolicy", .string(drag.rawValue))) }
            return members
        }
        let global = JSONValue.object(JSONObject(members: [.init("authorizeAppsWithoutContainerPolicy", .bool(fleet.global.authorizeAppsWithoutContainerPolicy))] + controls(fleet.global.controls)))
        let containers = fleet.containerPolicies.map { container in
            JSONValue.object(JSONObject(members: [.init("name", .string(container.name)), .init("app", .string(container.app.rawValue)),
                                                  .init("labels", .array(JSONArray(container.labels.map(JSONValue.string))))] + controls(container.controls)))
        }
        let configurations = fleet.appConfigurations.map { configuration in
            let values = configuration.config.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return JSONValue.object(JSONObject(members: [.init("name", .string(configuration.name)), .init("app", .string(configuration.app.rawValue)),
                                                         .init("labels", .array(JSONArray(configuration.labels.map(JSONValue.string)))),
                                                         .init("config", .object(JSONObject(members: values.map { .init($0.key, .string($0.value)) })))]))
        }
        let apps = fleet.apps.map { app in
            JSONValue.object(JSONObject(members: [.init("bundleID", .string(app.bundleID.rawValue)), .init("appconnect", .bool(app.appConnect))]))
        }
        let devices = fleet.devices.map { profile in
            var members: [JSONObject.Member] = [.init("labels", .array(JSONArray(profile.labels.map(JSONValue.string)))),
                                                .init("installed", .array(JSONArray(profile.installed.map { .string($0.rawValue) })))]
            let handlers = profile.facts.schemeHandlers.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            if !handlers.isEmpty { members.append(.init("schemeHandlers", .object(JSONObject(members: handlers.map { .init($0.key, .string($0.value.rawValue)) })))) }
            if let secure = profile.facts.secureServicesAvailable { members.append(.init("secureServicesAvailable", .bool(secure))) }
            return JSONObject.Member(profile.name, .object(JSONObject(members: members)))
        }
        return JSONWriter.pretty(.object(JSONObject(members: [
            .init("global", global), .init("containerPolicies", .array(JSONArray(containers))),
        ] + (configurations.isEmpty ? [] : [JSONObject.Member("appConfigurations", .array(JSONArray(configurations)))]) + [
            .init("apps", .array(JSONArray(apps))), .init("devices", .object(JSONObject(members: devices))),
        ]))) + "\n"
    }
}
