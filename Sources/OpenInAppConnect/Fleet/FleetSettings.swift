import OpenInCore
import OpenInFleet
import OpenInKit

/// The settings behind an AppConnect fleet's end-to-end decision (``FleetDecision/settings``): for
/// each side, the policy value the deciding rule reads, found through the effective policy's
/// provenance (container policy over global policy, control by control; the app configuration).
enum FleetSettings {
    /// `senderControls` and `receiverControls`, when given, are the two apps' ``controls(of:)``, made once
    /// per app by the caller that decides many requests (the path finder), so a hop does not build them again.
    package static func appConnect(_ decision: FleetDecision, sender: EffectivePolicy, senderControls: [ControlSettings]? = nil,
                           receiverControls: [ControlSettings]? = nil) -> [FleetSetting] {
        var settings = senderSettings(decision, sender, controls: senderControls)
        if let receiver = decision.receiver, let policy = decision.receiverPolicy {
            settings += controlSettings(.openFrom, of: policy, side: .receiver, listing: receiver.rule.rawValue.hasSuffix(".listed-source") ? [decision.request.from] : [],
                                        made: receiverControls?[ControlSettings.position(.openFrom)])
        }
        return settings
    }

    /// The sender's settings, by the rule that decided its part: ``senderParts(_:_:controls:)`` put together.
    static func senderSettings(_ decision: FleetDecision, _ policy: EffectivePolicy, controls made: [ControlSettings]? = nil) -> [FleetSetting] {
        let parts = senderParts(decision, policy, controls: made)
        guard let listing = parts.listing else { return parts.before + parts.after }
        let apps: [BundleID] = switch listing {
        case .receiver: decision.receiverApp.map(receiverListing) ?? []
        case .fixed(let apps): apps
        }
        let entries = entrySettings(apps, of: policy, side: .sender, made: made?[ControlSettings.position(.openIn)] ?? ControlSettings(.openIn, of: policy))
        return parts.before + entries + parts.after
    }

    /// The sender's settings in three parts, so that a caller deciding many hops can make the parts that do
    /// not depend on the receiving app once: the settings before the Open In whitelist's entries, which
    /// entries (the receiving app's, or fixed ones), and the settings after them.
    struct SenderParts {
        /// Which entries of the sender's Open In whitelist follow ``before``.
        enum Listing {
            /// The receiving app's (``FleetSettings/receiverListing(_:)``), when the decision names one.
            case receiver
            /// These apps'.
            case fixed([BundleID])
        }

        package var before: [FleetSetting]
        package var listing: Listing?
        package var after: [FleetSetting] = []
        /// Whether ``before`` or ``after`` read the decision's receiving app (Email+, an own scheme's handler):
        /// then they hold for that receiving app only.
        var readsReceiver = false
    }

    /// The apps of a whitelist whose entries name `to` as a receiver: both native Mail IDs for native Mail.
    static func receiverListing(_ to: BundleID) -> [BundleID] { to.isNativeMail ? [.mailActivity, .mobileMail] : [to] }

    /// ``senderSettings(_:_:controls:)`` in parts: what it reads of `decision` is the sender's rule, the
    /// request's channel and URL, and (as ``SenderParts/listing`` and ``SenderParts/readsReceiver`` say) the receiving app.
    static func senderParts(_ decision: FleetDecision, _ policy: EffectivePolicy, controls made: [ControlSettings]? = nil) -> SenderParts {
        func controlSettings(_ control: FleetControl, of policy: EffectivePolicy, side: FleetSetting.Side) -> [FleetSetting] {
            FleetSettings.controlSettings(control, of: policy, side: side, listing: [], made: made?[ControlSettings.position(control)])
        }
        let rule = decision.sender.rule.rawValue
        switch policy.source(of: .openIn) {
        case .notManaged: return SenderParts(before: [unmanaged(policy, side: .sender)])
        case .retired: return SenderParts(before: [retired(policy, side: .sender)])
        default: break
        }
        if rule == "enforcement-disabled.allow" {
            // The configuration lets it through; the control that decides without it is named too.
            var settings = config(AppConfig.disableOpenInEnforcementKey, of: policy, side: .sender).map { [$0] } ?? []
            if let control = decision.request.channel.control { settings += controlSettings(control, of: policy, side: .sender) }
            return SenderParts(before: settings)
        }
        if rule == "mailto.scheme-blocking-disabled" {
            if policy.policy.config.disablesSchemeBlocking, let setting = config(AppConfig.disableSchemeBlockingKey, of: policy, side: .sender) { return SenderParts(before: [setting]) }
            return SenderParts(before: [infoPlist(policy, side: .sender)])
        }
        if rule == "open-url.own-scheme" { return SenderParts(before: ownScheme(decision, policy), readsReceiver: true) }
        if decision.sender.rule == ExcludedActivityRule.excluded.id { return SenderParts(before: excludedActivity(decision.request.target, policy), readsReceiver: true) }
        switch decision.request.channel {
        case .dragAndDrop: return SenderParts(before: controlSettings(.dragAndDrop, of: policy, side: .sender))
        case .paste: return SenderParts(before: controlSettings(.pasteboard, of: policy, side: .sender))
        case .keyboard:
            if policy.policy.config.allowsCustomKeyboards != nil, let setting = config(AppConfig.allowCustomKeyboardsKey, of: policy, side: .sender) { return SenderParts(before: [setting]) }
            return SenderParts(before: [])
        default: break
        }
        var parts = SenderParts(before: controlSettings(.openIn, of: policy, side: .sender))
        if rule.hasSuffix(".listed-target") || rule.hasSuffix(".listed-handler") {
            parts.listing = .receiver
        } else if rule == "mailto.mail-allowed" || rule == "mail-view.mail-allowed" {
            parts.listing = .fixed([.mailActivity, .mobileMail])
        }
        if rule == "mailto.email-plus-redirect" {
            parts.readsReceiver = true
            if let setting = emailPlus(policy, target: decision.receiverApp) { parts.before.insert(setting, at: 0) }
        }
        // A `mailto:` the policy lets through goes through anyway where scheme blocking is disabled: that is named too.
        if decision.request.channel == .openURL, decision.request.url?.isMailto == true, policy.policy.schemeBlockingDisabled, rule != "mailto.email-plus-redirect" {
            if policy.policy.config.disablesSchemeBlocking, let setting = config(AppConfig.disableSchemeBlockingKey, of: policy, side: .sender) {
                parts.after.append(setting)
            } else if policy.policy.infoPlist.disableSchemeBlocking {
                parts.after.append(infoPlist(policy, side: .sender))
            }
        }
        return parts
    }

    /// The setting of `control` for `policy`'s app, and the entries for `listing` in its whitelist
    /// when the control lists apps explicitly. `made`, when given, is ``controls(of:)``'s entry for `control`.
    static func controlSettings(_ control: FleetControl, of policy: EffectivePolicy, side: FleetSetting.Side, listing: [BundleID] = [],
                                made: ControlSettings? = nil) -> [FleetSetting] {
        let made = made ?? ControlSettings(control, of: policy)
        var settings = made.settings
        if side != .sender { for index in settings.indices { settings[index].side = side } }
        if !listing.isEmpty { settings += entrySettings(listing, of: policy, side: side, made: made) }
        return settings
    }

    /// The entries for `listing` in the whitelist of the control `made` is of (none when it lists no apps explicitly).
    static func entrySettings(_ listing: [BundleID], of policy: EffectivePolicy, side: FleetSetting.Side, made: ControlSettings) -> [FleetSetting] {
        guard let entries = made.entries, let first = made.settings.first else { return [] }
        var settings: [FleetSetting] = []
        for id in listing {
            guard let entry = entries[id] else { continue }
            settings.append(FleetSetting(side: side, app: policy.app, policy: first.policy, via: first.via, key: entry.path, value: entry.text, file: first.file, line: entry.line))
        }
        return settings
    }

    /// Each control's ``ControlSettings`` for `policy`'s app, in ``FleetControl`` order.
    package static func controls(of policy: EffectivePolicy) -> [ControlSettings] { FleetControl.allCases.map { ControlSettings($0, of: policy) } }

    /// The settings of one control of one app, as the sender's, without the whitelist entries of a
    /// particular request: what ``controlSettings(_:of:side:listing:made:)`` builds, made once per app
    /// and control by the path finder and shared by every hop that names it.
    struct ControlSettings: Sendable {
        /// The control's own setting (or what stands for it: a global default, an unmanaged or retired app), as the sender's.
        package let settings: [FleetSetting]
        /// The control's whitelist entries, by bundle ID, when the control lists apps explicitly.
        package let entries: [BundleID: ValueSource]?

        /// The position of `control` in ``FleetSettings/controls(of:)``.
        package static func position(_ control: FleetControl) -> Int { control.index }

        package init(_ control: FleetControl, of policy: EffectivePolicy) {
            (settings, entries) = Self.make(control, of: policy)
        }

        private static func make(_ control: FleetControl, of policy: EffectivePolicy) -> ([FleetSetting], [BundleID: ValueSource]?) {
            guard let origin = policy.origin else { return ([], nil) }
            let key = control.rawValue
            let listKey = control == .openIn ? "openInWhitelist" : "openFromWhitelist"
            let controls: PolicyControls
            let name: String, via: String
            switch policy.source(of: control) {
            case .containerPolicy(let policyName, let label):
                guard let container = origin.container else { return ([], nil) }
                controls = container.controls
                (name, via) = (policyName, "container policy by label \(label)")
            case .globalPolicy:
                controls = origin.global.controls
                name = "global policy"
                if case .containerPolicy(let container, _) = policy.authorization {
                    via = "global default (container policy \(JSONWriter.quoted(container)) sets no \(key))"
                } else {
                    via = "global default"
                }
            case .notManaged: return ([unmanaged(policy, side: .sender)], nil)
            case .retired: return ([retired(policy, side: .sender)], nil)
            case .notSet, .appConfiguration: return ([], nil)
            }
            let source = controls.sources.keys[key]
            let setting = FleetSetting(side: .sender, app: policy.app, policy: name, via: via,
                                       key: source?.path ?? "\(controls.sources.path.isEmpty ? "global" : controls.sources.path).\(key)",
                                       value: source?.text ?? value(of: control, in: controls), file: origin.file, line: source?.line ?? controls.sources.line)
            let explicit: Bool = switch control {
            case .openIn: controls.openIn == .status(.whitelist)
            case .openFrom: controls.openFrom?.setting == .status(.whitelist)
            default: false
            }
            // Each entry's key path made once here, for the hops that name it.
            return ([setting], explicit ? (controls.sources.entries[listKey]?.withPaths ?? [:]) : nil)
        }
    }

    /// The value of `control` as a policy file writes it, for controls made in code (no source).
    package static func value(of control: FleetControl, in controls: PolicyControls) -> String {
        switch control {
        case .openIn:
            switch controls.openIn {
            case .allAppConnectApps?: "appconnect"
            case .status(let status)?: "\(status)"
            case nil: "not set"
            }
        case .openFrom: controls.openFrom.map { $0.setting == .allAppConnectApps ? "appconnect" : "\($0.status)" } ?? "not set"
        case .pasteboard: controls.pasteboard.map { "\($0)" } ?? "not set"
        case .print: controls.print.map { "\($0)" } ?? "not set"
        case .dragAndDrop: controls.dragAndDrop.map { "\($0)" } ?? "not set"
        }
    }

    /// The app configuration key `key` of `policy`'s app, when a configuration applies.
    package static func config(_ key: String, of policy: EffectivePolicy, side: FleetSetting.Side) -> FleetSetting? {
        guard let origin = policy.origin, let configuration = origin.configuration, case .appConfiguration(let name, let label)? = policy.configSource else { return nil }
        let source = configuration.sources.config[ExactKey(key)]
        return FleetSetting(side: side, app: policy.app, policy: name, via: "app configuration by label \(label)",
                            key: source?.path ?? "appConfigurations.config.\(key)", value: source?.text ?? configuration.config[key] ?? "",
                            file: origin.file, line: source?.line ?? configuration.line)
    }

    /// The app's own Info.plist override of scheme blocking.
    static func infoPlist(_ policy: EffectivePolicy, side: FleetSetting.Side) -> FleetSetting {
        let source = policy.origin?.app?.sources.keys["infoPlist"]
        return FleetSetting(side: side, app: policy.app, policy: "the app's Info.plist", via: "the app itself",
                            key: (source?.path ?? "apps.infoPlist") + ".MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING", value: "true",
                            file: policy.origin?.file, line: source?.line)
    }

    /// An `open-url` with one of the sender's own schemes: no policy control decides it, the app's
    /// declaration of the scheme does; and, when it is delivered to another app, what routes the
    /// scheme there on the device (its `schemeHandlers` entry, or the handler's place in `installed`:
    /// Rules/fleet/fleet.md, `fleet.own-scheme-elsewhere`).
    static func ownScheme(_ decision: FleetDecision, _ policy: EffectivePolicy) -> [FleetSetting] {
        guard let origin = policy.origin, let app = origin.app, let scheme = decision.request.url?.scheme else { return [] }
        let declared = app.sources.keys["urlSchemes"] ?? app.sources.keys["infoPlist"]
        var settings = [FleetSetting(side: .sender, app: policy.app, policy: "the app's own URL schemes", via: "the app itself",
                                     key: declared?.path ?? "apps.urlSchemes", value: declared?.text ?? scheme, file: origin.file, line: declared?.line ?? app.sources.line)]
        if let profile = origin.profile, let to = decision.receiverApp {
            let given = profile.sources.keys["schemeHandlers.\(scheme)"]
            let installed = profile.sources.entries["installed"]?[to]
            settings.append(FleetSetting(side: .sender, app: policy.app, policy: "device profile \(JSONWriter.quoted(profile.name))",
                                         via: given == nil ? "device facts (the first installed app that declares the scheme)" : "device facts (scheme handler)",
                                         key: given?.path ?? installed?.path ?? "devices.\(profile.name).installed", value: given?.text ?? to.rawValue,
                                         file: origin.file, line: given?.line ?? installed?.line ?? profile.sources.line))
        }
        return settings
    }

    /// The entry of the sender's `excludedAppleActivityTypes` that names `target` (rule 4, `activity-view.excluded-activity`),
    /// from the container policy that sets the list or the global policy.
    static func excludedActivity(_ target: BundleID?, _ policy: EffectivePolicy) -> [FleetSetting] {
        guard let origin = policy.origin, let target else { return [] }
        let key = FleetJSON.excludedActivitiesKey
        let controls: PolicyControls
        let name: String, via: String
        switch policy.excludedActivitiesSource {
        case .containerPolicy(let policyName, let label):
            guard let container = origin.container else { return [] }
            controls = container.controls
            (name, via) = (policyName, "container policy by label \(label)")
        case .globalPolicy:
            controls = origin.global.controls
            name = "global policy"
            if case .containerPolicy(let container, _) = policy.authorization {
                via = "global default (container policy \(JSONWriter.quoted(container)) sets no \(key))"
            } else {
                via = "global default"
            }
        default: return []
        }
        let entry = controls.sources.entries[key]?[target], list = controls.sources.keys[key]
        let path = controls.sources.path.isEmpty ? "global" : controls.sources.path
        return [FleetSetting(side: .sender, app: policy.app, policy: name, via: via, key: entry?.path ?? list?.path ?? "\(path).\(key)",
                             value: entry?.text ?? target.rawValue, file: origin.file, line: entry?.line ?? list?.line ?? controls.sources.line)]
    }

    /// Email+ installed on the device, where a `mailto:` the policy does not let through is redirected.
    static func emailPlus(_ policy: EffectivePolicy, target: BundleID?) -> FleetSetting? {
        guard let origin = policy.origin, let profile = origin.profile, let target else { return nil }
        let source = profile.sources.entries["installed"]?[target]
        return FleetSetting(side: .sender, app: policy.app, policy: "device profile \(JSONWriter.quoted(profile.name))", via: "device facts (Email+ installed)",
                            key: source?.path ?? "devices.\(profile.name).installed", value: source?.text ?? target.rawValue, file: origin.file, line: source?.line ?? profile.sources.line)
    }

    /// An app AppConnect does not manage: what says so.
    package static func unmanaged(_ policy: EffectivePolicy, side: FleetSetting.Side) -> FleetSetting {
        if let app = policy.origin?.app {
            let source = app.sources.keys["appconnect"]
            return FleetSetting(side: side, app: policy.app, policy: "none (not an AppConnect app)", via: "not an AppConnect app",
                                key: source?.path ?? "apps.appconnect", value: source?.text ?? "false", file: policy.origin?.file, line: source?.line ?? app.sources.line)
        }
        return FleetSetting(side: side, app: policy.app, policy: "none (not in the fleet)", via: "not listed in the fleet's apps", key: "apps", value: "(not listed)",
                            file: policy.origin?.file, line: nil)
    }

    /// A retired app: every control at the retired default.
    static func retired(_ policy: EffectivePolicy, side: FleetSetting.Side) -> FleetSetting {
        let source = policy.origin?.global.controls.sources.keys["authorizeAppsWithoutContainerPolicy"]
        return FleetSetting(side: side, app: policy.app, policy: "none (retired)", via: "\(policy.authorization)", key: source?.path ?? "global.authorizeAppsWithoutContainerPolicy",
                            value: source?.text ?? "false", file: policy.origin?.file, line: source?.line)
    }
}
