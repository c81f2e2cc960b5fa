import OpenInCore
import OpenInFleet
import OpenInKit



/// The fleet-level checks of `openin-check fleet lint`.
public enum FleetLint {
    /// Every check: code, name, one line, and the severity of its findings.
    public static let checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)] = [
        ("FL001", "direct-leak", "An Open In whitelist names an app that is not an AppConnect app: documents leave the managed apps in one hop.", .warning),
        ("FL002", "leak-hub", "An AppConnect app's Open In is AUTHORIZED: whatever reaches it can go to any app.", .warning),
        ("FL003", "open-from-refuses", "A may send a document to B, but B's Open From refuses A: users see the share fail.", .warning),
        ("FL004", "conflicting-policies", "Two container policies (or app configurations) for one app share a label: a device with it has two.", .error),
        ("FL005", "unknown-app", "A container policy or app configuration is for an app the fleet's apps do not list.", .error),
        ("FL006", "unused-label", "A policy's label is carried by no device profile.", .info),
        ("FL007", "control-not-set", "Neither the global policy nor an app's container policy sets a control: requests that need it are errors.", .warning),
        ("FL008", "config-key-misspelled", "An app configuration's key looks like one the library reads but is not its bytes: it is never read.", .error),
        ("FL009", "label-look-alike", "A policy's label matches no device's but looks like (has the skeleton of) a label a device carries: it never reaches those devices.", .error),
        ("FL010", "label-misspelled", "A policy's label matches no device's but is one edit from a label a device carries.", .warning),
        ("FL011", "own-scheme-routed-outside", "A device routes one of an app's own URL schemes to an app outside the AppConnect apps: opening it is not Open In, so the URL leaves unchecked.", .warning),
        ("FL012", "own-scheme-routed-elsewhere", "A device routes one of an app's own URL schemes to another AppConnect app: its URLs go there, decided by that app's Open From.", .info),
    ]

    /// The findings for `fleet`, errors first, then by line.
    public static func findings(_ fleet: Fleet) -> [FleetFinding] {
        // The file's checks and the devices' are independent: one on each core (the devices', which make the most, as
        // the first: usually on this thread), the file's findings first.
        var (byDevice, fileFound) = Parallel.both({
            var found: [FleetFinding] = []
            deviceFindings(fleet) { code, line, device, keyPath, message, fix in
                let check = checks.first { $0.code == code }!
                found.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: line, device: device, keyPath: keyPath, message: message, fix: fix))
            }
            return found
        }, { fileFindings(fleet) })
        // Most severe first, each severity's findings in the order found: as found when they are in that order already
        // (no finding copied), else one pass per severity (a stable sort by severity).
        func severity(_ position: Int) -> FleetFinding.Severity {
            position < fileFound.count ? fileFound[position].severity : byDevice[position - fileFound.count].severity
        }
        if (1..<max(1, fileFound.count + byDevice.count)).allSatisfy({ severity($0 - 1) >= severity($0) }) {
            // The smaller list's findings copied into the larger's array.
            if fileFound.count >= byDevice.count {
                fileFound.append(contentsOf: byDevice)
                return fileFound
            }
            byDevice.insert(contentsOf: fileFound, at: 0)
            return byDevice
        }
        var sorted: [FleetFinding] = []
        sorted.reserveCapacity(fileFound.count + byDevice.count)
        for severity in [FleetFinding.Severity.error, .warning, .info] {
            sorted += fileFound.lazy.filter { $0.severity == severity }
            sorted += byDevice.lazy.filter { $0.severity == severity }
        }
        return sorted
    }

    /// The findings about the file as written, in check order: every check but those that resolve
    /// each device (FL003, and FL004 for two policies that reach one device by two labels).
    /// Their errors are the ones ``Fleet/checkDecidable()`` refuses to decide on.
    /// With `errorsOnly`, only the error findings, in the same order (``Fleet/checkDecidable()``: the
    /// warnings' checks are skipped and no text is made for them).
    static func fileFindings(_ fleet: Fleet, errorsOnly: Bool = false) -> [FleetFinding] {
        var findings: [FleetFinding] = []
        func add(_ code: String, line: Int?, device: String? = nil, at keyPath: String, _ message: @autoclosure () -> String, fix: @autoclosure () -> String) {
            let check = checks.first { $0.code == code }!
            if errorsOnly, check.severity != .error { return }
            findings.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: line, device: device, keyPath: keyPath, message: message(), fix: fix()))
        }
        // Whether each listed app embeds AppConnect, by bundle ID, found once (the first entry with its ID, as `fleet.app(_:)`
        // finds it; that scans the list: per whitelist entry, quadratic).
        var listed: [BundleID: Bool] = [:]
        listed.reserveCapacity(fleet.apps.count)
        for app in fleet.apps where listed[app.bundleID] == nil { listed[app.bundleID] = app.appConnect }
        // The policy objects, read in place: the global policy (-1), then each container policy; their names are worded only for a finding.
        func object(_ index: Int) -> (what: String, line: Int?, path: String) {
            if index < 0 { return ("the global policy", nil, "global") }
            return ("the container policy \(JSONWriter.quoted(fleet.containerPolicies[index].name))", fleet.containerPolicies[index].line, "containerPolicies[\(index)]")
        }
        // FL001 and FL002 are warnings.
        // What a policy's Open In flags: its whitelist's entries that are not listed AppConnect apps (FL001), in order, each
        // read once; whether it is AUTHORIZED (FL002); and where its settings were read (only for a finding).
        func flagged(_ controls: borrowing PolicyControls) -> (entries: [BundleID], authorized: Bool, sources: SettingSources?) {
            switch controls.openIn {
            case .status(.whitelist):
                let entries = controls.openInWhitelist.members.filter { !$0.isNativeMail && !(listed[$0] ?? false) }
                return (entries, false, entries.isEmpty ? nil : controls.sources)
            case .status(.authorized): return ([], true, controls.sources)
            default: return ([], false, nil)
            }
        }
        for index in -1..<(errorsOnly ? -1 : fleet.containerPolicies.count) {
            // The controls read in place, each branch its own (a choice between the two would copy them).
            let (entries, authorized, found) = index < 0 ? flagged(fleet.global.controls) : flagged(fleet.containerPolicies[index].controls)
            guard let sources = found else { continue }
            let object = object(index)
            for id in entries {
                let known = listed[id] == nil ? "an app the fleet does not list" : "not an AppConnect app"
                // At the entry's own line, as paths and fixes name the setting (else the list's, else the object's).
                let line = sources.entries["openInWhitelist"]?[id]?.line ?? sources.keys["openInWhitelist"]?.line ?? object.line
                add("FL001", line: line, at: object.path + ".openInWhitelist", "\(object.what) lists \(id) in its Open In whitelist, and it is \(known): documents leave the managed apps in one hop",
                    fix: "remove \(id) from the whitelist, or list it as an AppConnect app if it is one")
            }
            if authorized {
                let whose = object.line == nil ? "every app without a container policy that sets Open In" : "its app"
                add("FL002", line: sources.keys["openInPolicy"]?.line ?? object.line, at: object.path + ".openInPolicy", "\(object.what) sets Open In to AUTHORIZED: \(whose) can send what reaches it to any app, a path out for every app that can send to it",
                    fix: "use \"appconnect\" or a whitelist")
            }
        }
        for index in fleet.containerPolicies.indices where listed[fleet.containerPolicies[index].app] == nil {
            let policy = fleet.containerPolicies[index]
            add("FL005", line: policy.line, at: "containerPolicies[\(index)].app", "the container policy \(JSONWriter.quoted(policy.name)) is for \(policy.app), which apps does not list, so the fleet treats it as any other app and the policy never applies",
                fix: "add {\"bundleID\": \"\(policy.app)\", \"appconnect\": true} to apps, or fix the bundle ID")
        }
        for (index, configuration) in fleet.appConfigurations.enumerated() where listed[configuration.app] == nil {
            add("FL005", line: configuration.line, at: "appConfigurations[\(index)].app", "the app configuration \(JSONWriter.quoted(configuration.name)) is for \(configuration.app), which apps does not list",
                fix: "add the app to apps, or fix the bundle ID")
        }
        // Per app and label, the policies before this one that carry it: each pair found directly,
        // never by comparing every two policies of an app.
        var policiesWith: [LabelOfApp: [Int]] = [:]
        policiesWith.reserveCapacity(fleet.containerPolicies.count)
        for index in fleet.containerPolicies.indices {
            var shared: [(other: Int, label: Int)] = []
            // Each policy's app and labels read in place (not a copy of the policy per step).
            let app = fleet.containerPolicies[index].app
            for (position, label) in fleet.containerPolicies[index].labels.enumerated() {
                let key = LabelOfApp(app: app, label: ExactKey(label))
                for other in policiesWith[key] ?? [] { shared.append((other, position)) }
                policiesWith[key, default: []].append(index)
            }
            guard !shared.isEmpty else { continue }
            let policy = fleet.containerPolicies[index]
            for (other, position) in shared.sorted(by: { ($0.other, $0.label) < ($1.other, $1.label) }) {
                let other = fleet.containerPolicies[other], label = policy.labels[position]
                add("FL004", line: policy.line, at: "containerPolicies[\(index)].labels", "the container policies \(JSONWriter.quoted(other.name)) and \(JSONWriter.quoted(policy.name)) for \(policy.app) share the label \(JSONWriter.quoted(label)): a device with it would have two, and only one may apply (Ivanti's Core guide, \"AppConnect container policy\")",
                    fix: "give one of them other labels")
            }
        }
        var configurationsWith: [LabelOfApp: [Int]] = [:]
        for (index, configuration) in fleet.appConfigurations.enumerated() {
            var shared: [(other: Int, label: Int)] = []
            for (position, label) in configuration.labels.enumerated() {
                let key = LabelOfApp(app: configuration.app, label: ExactKey(label))
                for other in configurationsWith[key] ?? [] { shared.append((other, position)) }
                configurationsWith[key, default: []].append(index)
            }
            for (other, position) in shared.sorted(by: { ($0.other, $0.label) < ($1.other, $1.label) }) {
                let other = fleet.appConfigurations[other], label = configuration.labels[position]
                add("FL004", line: configuration.line, at: "appConfigurations[\(index)].labels", "the app configurations \(JSONWriter.quoted(other.name)) and \(JSONWriter.quoted(configuration.name)) for \(configuration.app) share the label \(JSONWriter.quoted(label)): only one may apply (Ivanti's Core guide, \"AppConnect app configuration\")",
                    fix: "give one of them other labels")
            }
        }
        let readKeys = [AppConfig.disableSchemeBlockingKey, AppConfig.disableOpenInEnforcementKey, AppConfig.allowCustomKeyboardsKey]
        for (index, configuration) in fleet.appConfigurations.enumerated() {
            for key in configuration.config.values.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }) {
                guard let known = readKeys.first(where: { KeySpelling.isMisspelling(key, of: $0) }) else { continue }
                add("FL008", line: configuration.line, at: "appConfigurations[\(index)].config", "the app configuration \(JSONWriter.quoted(configuration.name)) sets \(Printable.quoted(key)), which is not \(known)\(KeySpelling.difference(key)): keys are matched byte for byte, so the library never reads it",
                    fix: "rename the key to \(known)")
            }
        }
        // The labelled objects, read in place: container policies, then app configurations; worded only for a finding.
        let policyCount = fleet.containerPolicies.count
        func labelled(_ index: Int) -> (what: String, labels: [String], line: Int?, path: String) {
            if index < policyCount {
                let policy = fleet.containerPolicies[index]
                return ("the container policy \(JSONWriter.quoted(policy.name))", policy.labels, policy.line, "containerPolicies[\(index)].labels")
            }
            let configuration = fleet.appConfigurations[index - policyCount]
            return ("the app configuration \(JSONWriter.quoted(configuration.name))", configuration.labels, configuration.line, "appConfigurations[\(index - policyCount)].labels")
        }
        func labels(_ index: Int) -> [String] { index < policyCount ? fleet.containerPolicies[index].labels : fleet.appConfigurations[index - policyCount].labels }
        // Every label a device carries, by bytes, by skeleton, and by its one-deletion neighbours.
        var carried: Set<ExactKey> = []
        var bySkeleton: [String: String] = [:]
        var byDeletion: [ExactKey: [String]] = [:]
        for profile in fleet.devices {
            for label in profile.labels where carried.insert(ExactKey(label)).inserted {
                let skeleton = LabelSpelling.skeleton(label)
                if bySkeleton[skeleton] == nil { bySkeleton[skeleton] = label }
                for deletion in LabelSpelling.deletions(label) { byDeletion[ExactKey(deletion), default: []].append(label) }
            }
        }
        for index in 0..<(policyCount + fleet.appConfigurations.count) where labels(index).contains(where: { !carried.contains(ExactKey($0)) }) {
            let item = labelled(index)
            for label in item.labels where !carried.contains(ExactKey(label)) {
                if let lookAlike = bySkeleton[LabelSpelling.skeleton(label)] {
                    add("FL009", line: item.line, at: item.path, "the label \(Printable.quoted(label)) of \(item.what) looks like \(Printable.quoted(lookAlike)), which devices carry, but is other bytes (\(LabelSpelling.difference(label, from: lookAlike))): labels are matched byte for byte, so it never reaches those devices and their apps fall to the global policy",
                        fix: "write the label as \(Printable.quoted(lookAlike))")
                    continue
                }
                let near = LabelSpelling.deletions(label).flatMap { byDeletion[ExactKey($0)] ?? [] }
                    .first { Suggestion.editDistance(Array($0), Array(label)) <= 1 }
                if let near {
                    add("FL010", line: item.line, at: item.path, "no device profile carries the label \(Printable.quoted(label)) of \(item.what). Did you mean '\(Printable.text(near))'? A device with \(Printable.quoted(near)) does not get it",
                        fix: "write the label as \(Printable.quoted(near)), or add a device profile with \(Printable.quoted(label))")
                    continue
                }
                add("FL006", line: item.line, at: item.path, "no device profile carries the label \(JSONWriter.quoted(label)) of \(item.what), so the fleet says nothing about the devices it reaches",
                    fix: "add a device profile with the label, or fix its spelling")
            }
        }
        // FL007 is a warning.
        guard !errorsOnly else { return findings }
        // Per app, the controls some container policy of it sets, as bits (``FleetControl/index``); each policy read in place.
        var setByContainer: [BundleID: UInt8] = [:]
        for index in fleet.containerPolicies.indices {
            var bits: UInt8 = 0
            for control in FleetControl.allCases where fleet.containerPolicies[index].controls.sets(control) { bits |= 1 << UInt8(control.index) }
            if bits != 0 { setByContainer[fleet.containerPolicies[index].app, default: 0] |= bits }
        }
        for control in FleetControl.allCases where !fleet.global.controls.sets(control) {
            let bit: UInt8 = 1 << UInt8(control.index)
            let apps = fleet.apps.indices.filter { fleet.apps[$0].appConnect && (setByContainer[fleet.apps[$0].bundleID] ?? 0) & bit == 0 }
            guard let first = apps.first.map({ fleet.apps[$0] }) else { continue }
            add("FL007", line: nil, at: "global.\(control.rawValue)", "the global policy does not set \(control.rawValue), nor does a container policy of \(first.bundleID)\(apps.count > 1 ? " (and \(apps.count - 1) more)" : ""): a request that needs it is an error",
                fix: "set \(control.rawValue) in the global policy")
        }
        return findings
    }

    /// The findings that resolve each device: FL004 for two policies that reach it, FL003.
    static func deviceFindings(_ fleet: Fleet, _ report: (String, Int?, String?, String, String, String) -> Void) {
        func add(_ code: String, line: Int?, device: String? = nil, at keyPath: String, _ message: String, fix: String) {
            report(code, line, device, keyPath, message, fix)
        }
        var appPosition: [BundleID: Int] = [:]
        for (position, app) in fleet.apps.enumerated() where appPosition[app.bundleID] == nil { appPosition[app.bundleID] = position }
        for profile in fleet.devices {
            let device: FleetDevice
            do throws(FleetError) {
                device = try FleetDevice(fleet: fleet, resolving: profile)
            } catch {
                add("FL004", line: error.line, device: profile.name, at: "devices.\(profile.name)", error.message, fix: "give the policies labels no device carries together")
                continue
            }
            // Sorted as the pairs were when every pair was decided: by sender, then receiver.
            var refusals: [(sender: Int, receiver: Int, message: String, fix: String)] = []
            for refused in openFromRefusals(device) {
                let receiver = refused.receiver
                var decided: [(BundleID, FleetDecision, Decision)] = []
                for sender in refused.first {
                    guard let request = try? FleetRequest(from: sender, channel: .documentInteraction, target: receiver),
                          let decision = try? device.decide(request), decision.sender.outcome == .allow,
                          let refusal = decision.receiver, refusal.outcome != .allow else { continue }
                    decided.append((sender, decision, refusal))
                }
                if refused.count <= namedRefusals {
                    for (sender, decision, refusal) in decided {
                        refusals.append((appPosition[sender] ?? 0, appPosition[receiver] ?? 0,
                                         "\(sender) may send documents to \(receiver) (\(decision.sender.rule)), but \(receiver)'s Open From refuses them (\(refusal.rule)): users see the share fail",
                                         "add \(sender) to \(receiver)'s Open From, or take \(receiver) out of \(sender)'s Open In"))
                    }
                } else if let (sender, _, refusal) = decided.first {
                    let named = decided.prefix(namedRefusals).map { "\($0.0)" }.joined(separator: ", ")
                    let count = refused.count
                    refusals.append((appPosition[sender] ?? 0, appPosition[receiver] ?? 0,
                                     "\(count) apps may send documents to \(receiver), but its Open From refuses them (\(refusal.rule)): \(named) and \(count - min(decided.count, namedRefusals)) more: users see the shares fail",
                                     "add the apps that should send to \(receiver) to its Open From, or take \(receiver) out of their Open In"))
                }
            }
            for refusal in refusals.sorted(by: { ($0.sender, $0.receiver) < ($1.sender, $1.receiver) }) {
                add("FL003", line: nil, device: profile.name, at: "devices.\(profile.name)", refusal.message, fix: refusal.fix)
            }
            for finding in ownSchemesRoutedElsewhere(device) { add(finding.code, line: finding.line, device: profile.name, at: finding.path, finding.message, fix: finding.fix) }
            // The device's tables are freed on another core while the next device (or the report) goes on.
            Parallel.release(consume device)
        }
    }
}

extension FleetLint {
    /// FL011 and FL012 (Rules/fleet/fleet.md, `fleet.own-scheme-elsewhere`): each installed app's own
    /// scheme that the device routes to another app, at the line that routes it (the profile's
    /// `schemeHandlers` entry, or its `installed` list when the profile names no handler and another
    /// app that declares the scheme comes first).
    /// - Complexity: O(installed apps' schemes), each a table lookup.
    static func ownSchemesRoutedElsewhere(_ device: FleetDevice) -> [(code: String, line: Int?, path: String, message: String, fix: String)] {
        var findings: [(code: String, line: Int?, path: String, message: String, fix: String)] = []
        let profile = device.profile
        let name = profile.name
        for id in profile.installed {
            guard let app = device.listedApp(id) else { continue }
            for scheme in app.app.urlSchemes.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard let handler = device.facts.handler(forScheme: scheme), handler != id, let node = device.node(receiving: handler) else { continue }
                let outside = device.isOutside(node)
                let given = profile.sources.keys["schemeHandlers.\(scheme)"]
                let routedBy = given.map { _ in "the profile's schemeHandlers route it to \(handler)" }
                    ?? "the profile names no handler, and \(handler), installed before it, declares the scheme too (iOS picks one of the apps that declare a scheme; this tool takes the first installed)"
                let what = outside ? "\(handler) is outside the AppConnect apps there, so the URL leaves with no Open In check"
                    : "\(handler) is an AppConnect app there: its Open From decides"
                let path = given?.path ?? "devices.\(name).installed"
                findings.append((outside ? "FL011" : "FL012", given?.line ?? profile.sources.keys["installed"]?.line ?? profile.sources.line, path,
                                 "\(id) declares the URL scheme \(Printable.quoted(scheme)) as its own, but on device \(JSONWriter.quoted(name)) \(routedBy): when \(id) opens \(scheme): URLs (its own scheme, not Open In, allowed), iOS delivers them to \(handler); \(what)",
                                 "give \(id) a scheme no other app on the device declares, or route \(Printable.quoted(scheme)) to \(id) in devices.\(name).schemeHandlers"))
            }
        }
        return findings
    }
}

extension Fleet {
    /// Refuses to decide on a fleet that `fleet lint` calls an error as written (FL004 two
    /// container policies or configurations for one app sharing a label, FL005 a policy for an
    /// app `apps` does not list, FL008 a misspelt configuration key, FL009 a look-alike label):
    /// `eval`, `paths`, `matrix`, `diff`, `translate` and the tables read one fleet as lint does.
    /// - Throws: ``FleetError`` at the first such finding's line, with its fix.
    public func checkDecidable() throws(FleetError) {
        guard let finding = FleetLint.fileFindings(self, errorsOnly: true).first(where: { $0.severity == .error }) else { return }
        throw FleetError("\(finding.message) (fleet lint \(finding.code) \(finding.name)): \(finding.fix)", file: file, line: finding.line)
    }
}

extension FleetLint {
    /// How many senders one receiver's Open From refuses (FL003): the receiver, the first senders in
    /// fleet order (at most ``namedRefusals`` + 1), and how many there are.
    struct Refusals {
        package let receiver: BundleID
        package let first: [BundleID]
        package let count: Int
    }

    /// Above this many refused senders, a receiver gets one FL003 finding naming the first few and the count.
    static let namedRefusals = 3

    /// For each of the device's AppConnect apps (in fleet order) whose Open From may refuse a sender that
    /// may send it a document (document interaction): those senders, the first few and the count.
    ///
    /// Deciding every pair is quadratic in apps. As in `FleetGraph`, the sender's Open In reads the target
    /// only through the facts the rules declare for document interaction (``TargetFacts/read(on:)``): whether
    /// its policy lists it (every target is one of the device's AppConnect apps here), so each sender is decided once per kind of target; a receiver's Open From reads the sender
    /// only through whether its Open From whitelist lists it. So the senders are counted from the lists:
    /// those that send to any AppConnect app, each receiver's listing senders (from the senders' Open In
    /// whitelists), less those the receiver's Open From whitelist names. The caller decides the first
    /// ones in full; a test compares the result with deciding every pair.
    /// - Complexity: O(apps + whitelist entries).
    static func openFromRefusals(_ device: FleetDevice) -> [Refusals] {
        let apps = device.fleet.apps.map(\.bundleID).filter(device.appConnectApps.contains)
        guard apps.count > 1 else { return [] }
        // The count below reads a target as the rules declare document interaction reads it (``TargetFacts/read(on:)``):
        // whether the sender lists it, every target being an AppConnect app here. A rule that reads more: every pair decided.
        guard TargetFacts.read(on: .documentInteraction).isSubset(of: [.listed, .appConnectApp]) else { return openFromRefusalsPairByPair(device, apps) }
        var position: [BundleID: Int] = [:]
        position.reserveCapacity(apps.count)
        for (index, id) in apps.enumerated() { position[id] = index }
        let sides = apps.map(device.side(for:))
        // Each app's container policies, by the app's position here (each policy's app read in place: no policy copied).
        let containers = PositionsByApp(apps.count, device.fleet.containerPolicies.indices.map { position[device.fleet.containerPolicies[$0].app] })
        func sends(_ s: Int, to r: Int) -> Bool {
            guard let request = try? ShareRequest(channel: .documentInteraction, target: apps[r], document: FleetDevice.documentName) else { return false }
            return Evaluator.decide(request, sides[s].prepared).outcome == .allow
        }
        // How each sender's document interaction to the other AppConnect apps goes.
        enum Sends { case none, all, listed, unlisted }
        // Each sender's kind and the apps its whitelist lists, decided in parts across the cores (each sender alone),
        // then gathered in sender order.
        let global = device.fleet.global, fleet = device.fleet
        let classified = Parallel.fill(apps.count, minimum: 256) { (s) throws(Never) -> (kind: Sends, listed: [Int]) in
            guard sides[s].policy.source(of: .openIn) != .notSet else { return (.none, []) }
            let policy = sides[s].policy.policy
            // A whitelist written out names its targets; "All AppConnect apps" lists every app here, as AUTHORIZED does.
            let explicit = policy.status == .whitelist
                && !isAllAppConnectApps(sides[s].policy, global: global, containers: containers[position[apps[s]] ?? s].lazy.map { fleet.containerPolicies[$0] })
            guard explicit else { return (sends(s, to: s == 0 ? 1 : 0) ? .all : .none, []) }
            let listed = policy.whitelist.members.compactMap { position[$0] }.filter { $0 != s && policy.lists(apps[$0]) }
            let unlisted = apps.indices.lazy.first { $0 != s && !policy.lists(apps[$0]) }
            switch (listed.first.map { sends(s, to: $0) } ?? false, unlisted.map { sends(s, to: $0) } ?? false) {
            case (true, true): return (.all, [])
            case (true, false): return (.listed, listed)
            case (false, true): return (.unlisted, listed)
            case (false, false): return (.none, [])
            }
        }.values
        let (kind, toAll, toUnlisted, listers, unlistedListers) = {
            var kind = [Sends](repeating: .none, count: apps.count)
            var toAll: [Int] = [], toUnlisted: [Int] = []
            var listers = [[Int]](repeating: [], count: apps.count), unlistedListers = [Int](repeating: 0, count: apps.count)
            for s in apps.indices {
                kind[s] = classified[s].kind
                switch classified[s].kind {
                case .none: break
                case .all: toAll.append(s)
                case .listed: for r in classified[s].listed { listers[r].append(s) }
                case .unlisted:
                    toUnlisted.append(s)
                    for r in classified[s].listed { unlistedListers[r] += 1 }
                }
            }
            return (kind, toAll, toUnlisted, listers, unlistedListers)
        }()
        func sendsTo(_ s: Int, _ r: Int) -> Bool {
            switch kind[s] {
            case .none: false
            case .all: s != r
            case .listed: s != r && sides[s].policy.policy.lists(apps[r])
            case .unlisted: s != r && !sides[s].policy.policy.lists(apps[r])
            }
        }
        /// The senders whose documents `r`'s Open From refuses: how many, and the first few.
        func refusals(to r: Int) -> Refusals? {
            let receiver = sides[r].policy
            guard receiver.source(of: .openFrom) != .notSet, let openFrom = receiver.policy.openFrom else { return nil }
            // AUTHORIZED, or "All AppConnect apps" (every sender here), refuses none of them.
            if openFrom.status == .authorized || openFrom.setting == .allAppConnectApps { return nil }
            let prepared = sides[r].prepared
            // The senders to r, less those its Open From whitelist accepts (each counted once).
            var count = toAll.count + listers[r].count + toUnlisted.count - unlistedListers[r]
            if kind[r] == .all || kind[r] == .unlisted { count -= 1 }  // r itself (it does not list itself as a target here)
            var accepted = Set<Int>()
            if openFrom.status == .whitelist {
                for id in openFrom.whitelist.members {
                    guard let s = position[id], prepared.openFromLists(id), sendsTo(s, r), accepted.insert(s).inserted else { continue }
                    count -= 1
                }
            }
            guard count > 0 else { return nil }
            // The first few, in fleet order: merge the three sorted lists, skipping the accepted.
            var first: [Int] = []
            var streams: [[Int].SubSequence] = [toAll[...], listers[r][...], toUnlisted[...]]
            while first.count <= namedRefusals {
                var best: Int? = nil
                for (index, stream) in streams.enumerated() {
                    guard let head = stream.first(where: { sendsTo($0, r) && !accepted.contains($0) }) else {
                        streams[index] = stream[stream.endIndex...]
                        continue
                    }
                    streams[index] = stream[stream.firstIndex(of: head)!...]
                    if best == nil || head < best! { best = head }
                }
                guard let next = best else { break }
                first.append(next)
                for index in streams.indices where streams[index].first == next { streams[index] = streams[index].dropFirst() }
            }
            return Refusals(receiver: apps[r], first: first.map { apps[$0] }, count: count)
        }
        // Each receiver alone, in parts across the cores, kept in receiver order.
        return Parallel.fill(apps.count, minimum: 256) { (r) throws(Never) in refusals(to: r) }.values.compactMap { $0 }
    }

    /// ``openFromRefusals(_:)`` by deciding every pair of `apps` (the device's AppConnect apps, in fleet order): for a
    /// statement of what the rules read of a target that the count from the lists does not follow.
    /// - Complexity: O(apps²) decisions.
    static func openFromRefusalsPairByPair(_ device: FleetDevice, _ apps: [BundleID]) -> [Refusals] {
        apps.compactMap { receiver -> Refusals? in
            let senders = apps.filter { sender in
                guard sender != receiver, let request = try? FleetRequest(from: sender, channel: .documentInteraction, target: receiver),
                      let decision = try? device.decide(request), decision.sender.outcome == .allow, let refusal = decision.receiver else { return false }
                return refusal.outcome != .allow
            }
            return senders.isEmpty ? nil : Refusals(receiver: receiver, first: Array(senders.prefix(namedRefusals + 1)), count: senders.count)
        }
    }

    /// Whether `policy`'s Open In is "All AppConnect apps" (the whitelist of the device's AppConnect apps).
    static func isAllAppConnectApps(_ policy: EffectivePolicy, global: GlobalPolicy, containers: some Collection<ContainerPolicy>) -> Bool {
        switch policy.source(of: .openIn) {
        case .globalPolicy: return global.controls.openIn == .allAppConnectApps
        case .containerPolicy(let name, _):
            return containers.first { ExactText.same($0.name, name) }?.controls.openIn == .allAppConnectApps
        default: return false
        }
    }
}

/// A label of one app's policies, compared by bytes.
private struct LabelOfApp: Hashable {
    let app: BundleID
    let label: ExactKey
}
