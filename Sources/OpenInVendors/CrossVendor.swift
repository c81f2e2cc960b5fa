import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Policies of either vendor, with their devices: an AppConnect ``Fleet`` or an ``IntuneFleet``, as
/// the cross-vendor verbs (the diff across vendors, translation) compare them. The fleet analysis
/// does not use it: it asks each vendor's adapter (``FleetAnalysis``).
package enum VendorFleet: Sendable {
    /// An AppConnect fleet.
    case appConnect(Fleet)
    /// Intune app protection policies with their devices file.
    case intune(IntuneFleet)

    /// `AppConnect` or `Intune`.
    package var vendor: String {
        switch self {
        case .appConnect: "AppConnect"
        case .intune: "Intune"
        }
    }

    /// The device profiles' names, in file order.
    package var deviceNames: [String] {
        switch self {
        case .appConnect(let fleet): fleet.devices.map(\.name)
        case .intune(let fleet): fleet.devices.map(\.name)
        }
    }

    /// The apps installed on the device named `name` (empty when there is no such device).
    package func installed(on name: String) -> [BundleID] {
        switch self {
        case .appConnect(let fleet): fleet.profile(named: name)?.installed ?? []
        case .intune(let fleet): fleet.devices.first { ExactText.same($0.name, name) }?.installed ?? []
        }
    }

    /// The apps the policies manage: AppConnect apps of the fleet, or the apps the Intune policies target.
    var managedApps: [BundleID] {
        switch self {
        case .appConnect(let fleet): fleet.apps.filter(\.appConnect).map(\.bundleID)
        case .intune(let fleet): fleet.policies.flatMap(\.apps)
        }
    }

    /// The scheme handlers the device named `name` declares.
    func schemeHandlers(on name: String) -> [(scheme: String, app: BundleID)] {
        switch self {
        case .appConnect(let fleet):
            guard let profile = fleet.profile(named: name) else { return [] }
            var handlers = profile.facts.schemeHandlers.map { (scheme: $0.key, app: $0.value) }
            // Each installed app's entry by table, not a walk of the apps per app.
            let first = fleet.appPositions()
            for id in profile.installed { for scheme in first[id].map({ fleet.apps[$0].app.urlSchemes }) ?? [] { handlers.append((scheme, id)) } }
            return handlers
        case .intune(let fleet): return fleet.devices.first { ExactText.same($0.name, name) }?.schemeHandlers ?? []
        }
    }

    /// Decides `request` end to end on the device named `device`.
    package func decide(device: String, _ request: FleetRequest, resolved: FleetDevice?, index: IntuneDeviceIndex? = nil) throws(FleetError) -> FlowDecision {
        switch self {
        case .appConnect:
            let decision = try resolved!.decide(request)
            return FlowDecision(outcome: decision.outcome, receiverApp: decision.receiverApp, sender: decision.sender, receiver: decision.receiver,
                                senderInput: .appConnect(decision.senderPolicy!.policy), receiverInput: decision.receiverPolicy.map { .appConnect($0.policy) })
        case .intune(let fleet):
            let made: IntuneDeviceIndex
            if let index { made = index } else { made = try fleet.index(device: device) }
            let index = made
            let decision = index.decide(request)
            return FlowDecision(outcome: decision.outcome, receiverApp: decision.receiverApp, sender: decision.sender, receiver: decision.receiver,
                                senderInput: .intune(index.context(for: request.from)),
                                receiverInput: decision.receiver == nil ? nil : decision.receiverApp.map { .intune(index.context(for: $0)) })
        }
    }
}

extension FleetAnalysis {
    /// The fleet's policies, for the cross-vendor verbs (``CrossVendorDiff``, translation).
    package var source: VendorFleet {
        if let fleet = appConnect { return .appConnect(fleet) }
        guard let fleet = intune else { preconditionFailure("the cross-vendor verbs compare AppConnect and Intune fleets: \(vendor) is neither") }
        return .intune(fleet)
    }
}

/// One end-to-end decision, whichever vendor made it.
public struct FlowDecision: Sendable {
    /// The end-to-end outcome.
    public let outcome: Outcome
    /// The app that receives something, when known.
    public let receiverApp: BundleID?
    /// The sender's decision.
    public let sender: Decision
    /// The receiver's, when it decides.
    public let receiver: Decision?
    /// What the sender decided under.
    let senderInput: RowPolicy
    /// What the receiver decided under, when it decides.
    let receiverInput: RowPolicy?

    /// `rule` or `rule + receiver-rule`.
    public var rules: String { sender.rule.rawValue + (receiver.map { " + " + $0.rule.rawValue } ?? "") }
}

/// One end-to-end flow that decides differently under two sets of policies.
public struct FlowChange: Sendable {
    /// How a flow's decision changed.
    /// Named by what the receiving app can read: an allowed or redirected share is readable, a dummy file,
    /// an encrypted delivery (readable by policy-managed apps only) and a denied share are not.
    public enum Group: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The receiving app can now read what it could not (a leak): denied, dummy file or encrypted becomes allowed or redirected.
        case newlyAllowed = "newly readable"
        /// The receiving app can no longer read what it could (breaks a user).
        case newlyBlocked = "no longer readable"
        /// What the receiving app can read is the same, in another form: denied ↔ dummy file ↔ encrypted, or allowed ↔ redirected.
        case changedForm = "changed form"

        public var description: String { rawValue }
    }

    /// The device profile.
    public let device: String
    /// The request.
    public let request: FleetRequest
    /// The decision before.
    public let old: FlowDecision
    /// The decision after.
    public let new: FlowDecision

    /// The group the change is reported in.
    public var group: Group {
        func readable(_ outcome: Outcome) -> Bool { outcome == .allow || outcome == .redirect }
        switch (readable(old.outcome), readable(new.outcome)) {
        case (false, true): return .newlyAllowed
        case (true, false): return .newlyBlocked
        default: return .changedForm
        }
    }

    /// `channel FROM → TARGET` or `open-url FROM → URL` (`keyboard FROM → third-party keyboard`, `→ system keyboard`).
    public var subject: String {
        guard let to = request.url?.rawValue ?? request.target.map({ Self.receiverName($0, channel: request.channel) }) else {
            return "\(request.channel) \(request.from)"
        }
        return "\(request.channel) \(request.from) → \(to)"
    }

    /// How a subject names the target `target` of a request on `channel`: a keyboard or "any other app" by its name, an app by its bundle ID.
    static func receiverName(_ target: BundleID, channel: FleetChannel) -> String {
        if channel == .keyboard {
            return target == FleetMatrix.thirdPartyKeyboard ? FleetDiff.keyboardNames.thirdParty
                : target == .systemKeyboard ? FleetDiff.keyboardNames.system : target.rawValue
        }
        return target == BundleID.anyOtherApp ? FleetNode.anyOtherAppName : target.rawValue
    }
}

/// Compares two sets of policies, of either vendor, end to end: every flow (sender × receiver × channel,
/// per device profile) that decides differently.
public enum CrossVendorDiff {

    /// The changes from `old` to `new` on the device profiles both have (or on `device` alone).
    ///
    /// Senders are the apps either side manages and installs on the device; receivers those, the
    /// other installed apps, native Mail and "any other app"; channels the fleet channels, with
    /// `open-url` tried on `mailto:`, `tel:`, `sms:`, an `https:` link and each custom scheme either
    /// side's device handles; and each sender's `keyboard`, with a third-party keyboard and the system keyboard.
    /// - Complexity: O(devices × apps² × channels) end-to-end decisions.
    /// - Throws: ``FleetError`` when a side cannot decide, or no device profile is in both.
    public static func compare(old: FleetAnalysis, new: FleetAnalysis, device: String? = nil) throws(FleetError) -> [FlowChange] {
        try compare(old: old.source, new: new.source, device: device)
    }

    /// ``compare(old:new:device:)`` on the two vendors' policies.
    package static func compare(old: VendorFleet, new: VendorFleet, device: String? = nil) throws(FleetError) -> [FlowChange] {
        let names = try commonDevices(old: old, new: new, device: device)
        var changes: [FlowChange] = []
        for name in names {
            let oldDevice = try resolve(old, name), newDevice = try resolve(new, name)
            let oldIndex = try index(old, name), newIndex = try index(new, name)
            for request in requests(old: old, new: new, device: name) {
                let before = try old.decide(device: name, request, resolved: oldDevice, index: oldIndex)
                let after = try new.decide(device: name, request, resolved: newDevice, index: newIndex)
                // A receiver one side names and the other leaves unknown (a web link's browser) is no change.
                let receiverChanged = before.receiverApp != nil && after.receiverApp != nil && before.receiverApp != after.receiverApp
                if before.outcome != after.outcome || (after.outcome != .deny && receiverChanged) {
                    changes.append(FlowChange(device: name, request: request, old: before, new: after))
                }
            }
        }
        return changes
    }

    /// The device profiles and apps that the two sides' policies reach differently (`Rules/intune/README.md`,
    /// "Translating who a policy reaches"): for each profile both sides name (or `device` alone) and each app
    /// either side manages and installs there, the set of policies that reach the app on each side, by translated
    /// identity (``policyIdentity(_:)``). A fleet and its translation differ nowhere.
    /// - Complexity: O(profiles × (apps × policies)) reach checks.
    /// - Throws: ``FleetError`` when a side cannot work out who its policies reach, or no device profile is in both.
    public static func reach(old: FleetAnalysis, new: FleetAnalysis, device: String? = nil) throws(FleetError) -> [ReachChange] {
        try reach(old: old.source, new: new.source, device: device)
    }

    /// ``reach(old:new:device:)`` on the two vendors' policies.
    package static func reach(old: VendorFleet, new: VendorFleet, device: String? = nil) throws(FleetError) -> [ReachChange] {
        var changes: [ReachChange] = []
        for name in try commonDevices(old: old, new: new, device: device) {
            let senders = DeviceRequests(old: old, new: new, device: name).senders
            let before = try reaching(old, senders, on: name), after = try reaching(new, senders, on: name)
            for (position, app) in senders.enumerated() where before[position] != after[position] {
                changes.append(ReachChange(device: name, app: app, old: before[position], new: after[position]))
            }
        }
        return changes
    }

    /// The translated identity of a policy (`Rules/intune/README.md`, "Translating who a policy reaches"): an Intune
    /// policy's display name, the global policy's Intune policies (`Global policy (outside …)`, `Retired apps (outside …)`)
    /// as `Global policy` and `Retired apps`;
    /// an AppConnect container policy is named by its name (without the `: BUNDLE_ID` of its own app), the global
    /// policy as `Global policy`, or `Retired apps` where it retires the app.
    public static func policyIdentity(_ displayName: String) -> String {
        for name in [PolicyTranslation.globalPolicyName, PolicyTranslation.retiredPolicyName] where displayName.hasPrefix(name + " (outside ") && displayName.hasSuffix(")") {
            return name
        }
        return displayName
    }

    /// For each of `apps` (installed on the profile named `name`), the translated identities of the policies that reach
    /// it there, sorted by bytes: AppConnect's container policy (its name without the `: BUNDLE_ID` of its own app,
    /// which `translate --to appconnect` adds), `Global policy`, or `Retired apps` where the global policy retires it; Intune's policies that reach it (``policyIdentity(_:)``).
    package static func reaching(_ fleet: VendorFleet, _ apps: [BundleID], on name: String) throws(FleetError) -> [[String]] {
        func sorted(_ names: [String]) -> [String] {
            var seen: Set<ExactKey> = []
            return names.filter { seen.insert(ExactKey($0)).inserted }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        switch fleet {
        case .appConnect(let appConnect):
            let device = try appConnect.device(named: name)
            // The app as the profile installs it (Intune compares IDs ignoring ASCII case, so the other side may spell it so).
            var installed: [ExactKey: BundleID] = [:]
            for id in device.profile.installed where installed[IntuneBundleID.key(id)] == nil { installed[IntuneBundleID.key(id)] = id }
            return apps.map { app in
                let id = device.isInstalled(app) ? app : installed[IntuneBundleID.key(app)] ?? app
                switch device.effectivePolicy(for: id).authorization {
                case .containerPolicy(let policy, _):
                    let suffix = ": " + id.rawValue
                    return [policy.hasSuffix(suffix) && policy.count > suffix.count ? String(policy.dropLast(suffix.count)) : policy]
                case .globalDefault: return [PolicyTranslation.globalPolicyName]
                case .notAuthorized: return [PolicyTranslation.retiredPolicyName]
                case .notInstalled, .notAppConnect: return []
                }
            }
        case .intune(let intune):
            let device = try intune.device(named: name)
            let membership = intune.membership(of: device)
            var result: [[String]] = []
            for app in apps {
                result.append(sorted(try intune.reaching(app, on: device, membership: membership).map { policyIdentity(intune.policies[$0].displayName) }))
            }
            return result
        }
    }

    /// The device profiles both sides name, in the old side's order (or `device` alone).
    static func commonDevices(old: VendorFleet, new: VendorFleet, device: String?) throws(FleetError) -> [String] {
        if let device {
            guard old.deviceNames.contains(where: { ExactText.same($0, device) }), new.deviceNames.contains(where: { ExactText.same($0, device) }) else {
                throw FleetError("the device profile \(JSONWriter.quoted(device)) must be in both: the \(old.vendor) side has \(Printable.list(old.deviceNames)); the \(new.vendor) side has \(Printable.list(new.deviceNames))")
            }
            return [device]
        }
        let names = old.deviceNames.filter { name in new.deviceNames.contains { ExactText.same($0, name) } }
        guard !names.isEmpty else {
            throw FleetError("no device profile is in both: the \(old.vendor) side has \(Printable.list(old.deviceNames)); the \(new.vendor) side has \(Printable.list(new.deviceNames)). Name the devices alike in the fleet and the devices file")
        }
        return names
    }

    package static func index(_ fleet: VendorFleet, _ name: String) throws(FleetError) -> IntuneDeviceIndex? {
        if case .intune(let intune) = fleet { return try intune.index(device: name) }
        return nil
    }

    package static func resolve(_ fleet: VendorFleet, _ name: String) throws(FleetError) -> FleetDevice? {
        if case .appConnect(let appConnect) = fleet { return try appConnect.device(named: name) }
        return nil
    }

    /// The requests compared on one device, in a stable order.
    package static func requests(old: VendorFleet, new: VendorFleet, device name: String) -> [FleetRequest] {
        let device = DeviceRequests(old: old, new: new, device: name)
        return device.senders.flatMap(device.requests(from:))
    }
}

/// One device profile and app that two sets of policies reach differently: who gets which policy changed.
public struct ReachChange: Sendable, Hashable, CustomStringConvertible {
    /// The device profile.
    public let device: String
    /// The app.
    public let app: BundleID
    /// The translated identities of the policies that reach the app there before, sorted (empty: none).
    public let old: [String]
    /// The same after.
    public let new: [String]

    public var description: String {
        func names(_ list: [String]) -> String { list.isEmpty ? "no policy" : list.map(JSONWriter.quoted).joined(separator: " + ") }
        return "\(device)  \(app)  \(names(old)) → \(names(new))"
    }
}

/// The requests compared on one device, made sender by sender so a walk holds one sender's at a time.
package struct DeviceRequests {
    /// The apps either side manages and installs on the device, in installed order.
    package let senders: [BundleID]
    /// Every installed app, native Mail, then "any other app".
    package let receivers: [BundleID]
    /// `mailto:`, `tel:`, `sms:`, an `https:` link, then one URL per custom scheme either side's device handles.
    let urls: [ShareURL]

    package init(old: VendorFleet, new: VendorFleet, device name: String) {
        var installed: [BundleID] = []
        var seen: Set<ExactKey> = []
        for id in old.installed(on: name) + new.installed(on: name) where seen.insert(IntuneBundleID.key(id)).inserted { installed.append(id) }
        let managed = Set((old.managedApps + new.managedApps).map(IntuneBundleID.key))
        senders = installed.filter { managed.contains(IntuneBundleID.key($0)) }
        var receivers = installed
        if !receivers.contains(where: \.isNativeMail) { receivers.append(.mobileMail) }
        receivers.append(BundleID.anyOtherApp)
        self.receivers = receivers
        var texts = ["mailto:someone@example.com", "tel:+15550100", "sms:+15550100", "https://www.example.com/report"]
        var listed = Set(texts.map(ExactKey.init))
        for (scheme, _) in old.schemeHandlers(on: name) + new.schemeHandlers(on: name)
        where !ExactText.isOne(scheme, of: ["mailto", "tel", "telprompt", "sms", "http", "https"]) {
            let url = "\(scheme)://open"
            if listed.insert(ExactKey(url)).inserted { texts.append(url) }
        }
        urls = texts.compactMap { try? ShareURL($0) }
    }

    /// The channels a sender uses towards each other receiver, in the order of ``requests(from:)``.
    static let targetedChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste]

    /// The requests `sender` makes: each channel to each other receiver, `open-url` on each URL, the
    /// mail channels, then typing with a third-party keyboard and the system keyboard.
    package func requests(from sender: BundleID) -> [FleetRequest] {
        var result: [FleetRequest] = []
        for channel in Self.targetedChannels {
            for receiver in receivers where !IntuneBundleID.same(receiver, sender) {
                result.append(Self.request(from: sender, channel, to: receiver))
            }
        }
        return result + untargetedRequests(from: sender)
    }

    /// The request of `sender` on a targeted channel to `receiver` (a bundle ID, as every receiver is, never fails to make one).
    package static func request(from sender: BundleID, _ channel: FleetChannel, to receiver: BundleID) -> FleetRequest {
        let senderRequest = try! ShareRequest(channel: channel.senderChannel!, target: receiver, document: channel == .paste ? nil : "report.pdf")
        return FleetRequest(from: sender, channel: channel, checked: senderRequest)
    }

    /// The requests of ``requests(from:)`` that name no receiver: `open-url` on each URL, the mail
    /// channels, then typing with a third-party keyboard and the system keyboard.
    func untargetedRequests(from sender: BundleID) -> [FleetRequest] {
        var result: [FleetRequest] = []
        for url in urls {
            if let request = try? FleetRequest(from: sender, channel: .openURL, url: url) { result.append(request) }
        }
        return result + mailAndKeyboardRequests(from: sender)
    }

    /// The requests of ``untargetedRequests(from:)`` after the URLs: the mail channels, then typing
    /// with a third-party keyboard and the system keyboard.
    func mailAndKeyboardRequests(from sender: BundleID) -> [FleetRequest] {
        var result: [FleetRequest] = []
        if let request = try? FleetRequest(from: sender, channel: .mailLink, url: try? ShareURL("mailto:someone@example.com")) { result.append(request) }
        if let request = try? FleetRequest(from: sender, channel: .mailCompose) { result.append(request) }
        // Typing in the sender: a third-party keyboard (it sees everything typed), then the system keyboard.
        for keyboard in [FleetMatrix.thirdPartyKeyboard, .systemKeyboard] {
            if let request = try? FleetRequest(from: sender, channel: .keyboard, target: keyboard) { result.append(request) }
        }
        return result
    }
}

/// What one side decided under, as a decision table row writes it.
enum RowPolicy: Sendable {
    case appConnect(Policy)
    case intune(IntuneContext)

    /// The `policy`, `whitelist` and `context` cells.
    package func cells(webLinks: Bool) -> (policy: String, whitelist: String, context: String) {
        var settings: [String] = []
        switch self {
        case .appConnect(let policy):
            if !policy.enforcing { settings.append("not-enforcing") }
            if policy.device.emailPlusInstalled { settings.append("email-plus") }
            for id in policy.device.emailPlusBundleIDs where id != .emailPlus { settings.append("email-plus-id=\(id)") }
            if policy.infoPlist.disableSchemeBlocking { settings.append("plist-override") }
            for (key, value) in policy.config.values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            where !key.contains(";") && !value.contains(";") && !key.contains("|") && !value.contains("|") {
                settings.append("config:\(key)=\(value)")
            }
            for (scheme, app) in policy.device.schemeHandlers.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                settings.append("handler:\(scheme)=\(app)")
            }
            for scheme in policy.app.urlSchemes.sorted() { settings.append("app-scheme=\(scheme)") }
            if !policy.app.allowsCustomKeyboards { settings.append("app-custom-keyboards=refused") }
            if let drag = policy.dragAndDrop { settings.append("dnd=\(drag.rawValue)") }
            if !policy.device.appConnectApps.isEmpty { settings.append("appconnect-apps=" + policy.device.appConnectApps.sorted().map(\.rawValue).joined(separator: ",")) }
            if let openFrom = policy.openFrom {
                settings.append("open-from=\(openFrom.status.description.lowercased())")
                let list = openFrom.effectiveWhitelist(appConnectApps: policy.device.appConnectApps)
                if openFrom.status == .whitelist, !list.ids.isEmpty { settings.append("open-from-whitelist=" + list.ids.sorted().map(\.rawValue).joined(separator: ",")) }
            }
            if let pasteboard = policy.pasteboard { settings.append("pasteboard=\(pasteboard.description.lowercased())") }
            if let print = policy.print { settings.append("print=\(print.description.lowercased())") }
            if let secure = policy.device.secureServicesAvailable { settings.append("secure-services=\(secure ? "available" : "unavailable")") }
            let whitelist = policy.status == .whitelist && !policy.whitelist.ids.isEmpty ? policy.whitelist.ids.sorted().map(\.rawValue).joined(separator: ",") : "-"
            return (policy.status.name, whitelist, settings.isEmpty ? "-" : settings.joined(separator: "; "))
        case .intune(let context):
            guard let policy = context.policy else {
                // The app no policy reaches still opens a URL in its handler: the row names the handlers it reads.
                settings.append("not-targeted")
                for (key, app) in context.schemeHandlers.sorted(by: { $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8) }) { settings.append("handler:\(key.text)=\(app)") }
                for scheme in context.ownSchemes { settings.append("app-scheme=\(scheme)") }
                return ("intune", "-", settings.joined(separator: "; "))
            }
            settings.append("send=\(policy.send)")
            if policy.filterOpenInToOnlyManagedApps { settings.append("filter-open-in") }
            if policy.disableProtectionOfManagedOutboundOpenInData { settings.append("os-sharing") }
            settings.append("receive=\(policy.receive)")
            if policy.protectInboundDataFromUnknownSources { settings.append("incoming-org-data") }
            settings.append("clipboard=\(policy.clipboard)")
            if policy.clipboardExceptionLength > 0 { settings.append("clipboard-exception=\(policy.clipboardExceptionLength)") }
            if policy.printBlocked { settings.append("print-blocked") }
            if policy.thirdPartyKeyboardsBlocked { settings.append("keyboards-blocked") }
            if !policy.exemptedSchemes.isEmpty { settings.append("exempt=" + policy.exemptedSchemes.joined(separator: ",")) }
            if webLinks {
                for link in policy.exemptedUniversalLinks where !link.contains(";") && !link.contains("|") { settings.append("exempted-link=\(link)") }
                for link in policy.managedUniversalLinks where !link.contains(";") && !link.contains("|") { settings.append("managed-link=\(link)") }
            }
            if policy.managedBrowserRequired { settings.append(policy.customBrowserProtocol.isEmpty ? "browser=edge" : "browser=custom:\(policy.customBrowserProtocol)") }
            settings.append(policy.dialer == .customApp ? "dialer=customApp:\(policy.customDialerAppProtocol)" : "dialer=\(policy.dialer)")
            settings.append(policy.messaging == .specificApps ? "messaging=specificApps:\(policy.messagingRedirectAppUrlScheme)" : "messaging=\(policy.messaging)")
            if !context.managedApps.isEmpty { settings.append("managed-apps=" + context.managedApps.map(\.rawValue).joined(separator: ",")) }
            if !context.mdmManagedApps.isEmpty { settings.append("mdm-apps=" + context.mdmManagedApps.map(\.rawValue).joined(separator: ",")) }
            if context.mdmEnrolled { settings.append("mdm-enrolled") }
            if context.intuneMAMUPN { settings.append("upn") }
            if let version = context.senderSDKVersion { settings.append("sdk=\(version)") }
            if let app = context.app { settings.append("app=\(app)") }
            for (key, app) in context.schemeHandlers.sorted(by: { $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8) }) { settings.append("handler:\(key.text)=\(app)") }
            for scheme in context.ownSchemes { settings.append("app-scheme=\(scheme)") }
            return ("intune", "-", settings.joined(separator: "; "))
        }
    }
}

extension FlowChange {
    /// The columns of ``tableRows(id:)``.
    public static let tableColumns = ["id", "policy", "whitelist", "context", "channel", "target", "url", "source", "outcome", "to", "rule"]

    /// The new decision as decision-table rows (`Rules/README.md`'s format) a user can keep as tests:
    /// the sender's decision under its policy, and, when the receiver decides too, the receiver's
    /// `open-from` decision (for a `paste`, its `paste` decision) with the sender as source. Each row passes when `openin-check test` runs it.
    public func tableRows(id: String) -> [[String]] {
        let channel = request.senderRequest?.channel.rawValue ?? request.channel.rawValue
        let isWeb = request.url.map { $0.scheme == "http" || $0.scheme == "https" } ?? false
        let sender = new.senderInput.cells(webLinks: isWeb)
        func dash(_ text: String?) -> String { text ?? "-" }
        var rows: [[String]] = [[id, sender.policy, sender.whitelist, sender.context, channel, dash(request.target?.rawValue),
                                 dash(request.url?.rawValue), "-", new.sender.outcome.rawValue, dash(new.sender.target?.rawValue), new.sender.rule.rawValue]]
        if let receiver = new.receiver, let input = new.receiverInput {
            let cells = input.cells(webLinks: false)
            rows.append([id + "-receiver", cells.policy, cells.whitelist, cells.context, request.channel == .paste ? "paste" : "open-from", "-", "-", request.from.rawValue,
                         receiver.outcome.rawValue, dash(receiver.target?.rawValue), receiver.rule.rawValue])
        }
        return rows
    }
}
