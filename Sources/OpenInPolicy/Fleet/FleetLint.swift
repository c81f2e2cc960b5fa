/// One fleet-level mistake: a stable code, a severity, where, what and how to fix it.
public struct FleetFinding: Sendable, Hashable {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Information only.
        case info
        /// Likely a mistake: documents go where the fleet probably does not mean, or users see failures.
        case warning
        /// The fleet cannot answer as written.
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            let order: [Severity] = [.info, .warning, .error]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// The stable code, e.g. `FL001`.
    public let code: String
    /// The check's name, e.g. `direct-leak`.
    public let name: String
    /// The severity.
    public let severity: Severity
    /// The line in the fleet file, when one is to blame.
    public let line: Int?
    /// The device profile, when the finding is about one.
    public let device: String?
    /// Where in the fleet file, as a key path (`containerPolicies[1].openInPolicy`, `devices.NAME`); empty when the finding is about the whole file.
    public internal(set) var keyPath: String = ""
    /// What is wrong.
    public let message: String
    /// How to fix it.
    public let fix: String
}

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
    ]

    /// The findings for `fleet`, errors first, then by line.
    public static func findings(_ fleet: Fleet) -> [FleetFinding] {
        var findings = fileFindings(fleet)
        func add(_ code: String, line: Int?, device: String? = nil, at keyPath: String, _ message: String, fix: String) {
            let check = checks.first { $0.code == code }!
            findings.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: line, device: device, keyPath: keyPath, message: message, fix: fix))
        }
        deviceFindings(fleet) { add($0, line: $1, device: $2, at: $3, $4, fix: $5) }
        return findings.enumerated().sorted { a, b in
            if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The findings about the file as written, in check order: every check but those that resolve
    /// each device (FL003, and FL004 for two policies that reach one device by two labels).
    /// Their errors are the ones ``Fleet/checkDecidable()`` refuses to decide on.
    static func fileFindings(_ fleet: Fleet) -> [FleetFinding] {
        var findings: [FleetFinding] = []
        func add(_ code: String, line: Int?, device: String? = nil, at keyPath: String, _ message: String, fix: String) {
            let check = checks.first { $0.code == code }!
            findings.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: line, device: device, keyPath: keyPath, message: message, fix: fix))
        }
        let objects: [(what: String, controls: PolicyControls, line: Int?, path: String)] =
            [("the global policy", fleet.global.controls, nil, "global")]
            + fleet.containerPolicies.enumerated().map { ("the container policy \(JSONWriter.quoted($1.name))", $1.controls, $1.line, "containerPolicies[\($0)]") }
        for object in objects {
            if case .status(.whitelist) = object.controls.openIn {
                for id in object.controls.openInWhitelist.members where !id.isNativeMail && !(fleet.app(id)?.appConnect ?? false) {
                    let known = fleet.app(id) == nil ? "an app the fleet does not list" : "not an AppConnect app"
                    add("FL001", line: object.line, at: object.path + ".openInWhitelist", "\(object.what) lists \(id) in its Open In whitelist, and it is \(known): documents leave the managed apps in one hop",
                        fix: "remove \(id) from the whitelist, or list it as an AppConnect app if it is one")
                }
            }
            if case .status(.authorized) = object.controls.openIn {
                let whose = object.line == nil ? "every app without a container policy that sets Open In" : "its app"
                add("FL002", line: object.line, at: object.path + ".openInPolicy", "\(object.what) sets Open In to AUTHORIZED: \(whose) can send what reaches it to any app, a path out for every app that can send to it",
                    fix: "use \"appconnect\" or a whitelist")
            }
        }
        for (index, policy) in fleet.containerPolicies.enumerated() where fleet.app(policy.app) == nil {
            add("FL005", line: policy.line, at: "containerPolicies[\(index)].app", "the container policy \(JSONWriter.quoted(policy.name)) is for \(policy.app), which apps does not list, so the fleet treats it as any other app and the policy never applies",
                fix: "add {\"bundleID\": \"\(policy.app)\", \"appconnect\": true} to apps, or fix the bundle ID")
        }
        for (index, configuration) in fleet.appConfigurations.enumerated() where fleet.app(configuration.app) == nil {
            add("FL005", line: configuration.line, at: "appConfigurations[\(index)].app", "the app configuration \(JSONWriter.quoted(configuration.name)) is for \(configuration.app), which apps does not list",
                fix: "add the app to apps, or fix the bundle ID")
        }
        for (index, policy) in fleet.containerPolicies.enumerated() {
            for other in fleet.containerPolicies[..<index] where other.app == policy.app {
                for label in policy.labels where other.labels.contains(where: { ExactText.same($0, label) }) {
                    add("FL004", line: policy.line, at: "containerPolicies[\(index)].labels", "the container policies \(JSONWriter.quoted(other.name)) and \(JSONWriter.quoted(policy.name)) for \(policy.app) share the label \(JSONWriter.quoted(label)): a device with it would have two, and only one may apply (Ivanti's Core guide, \"AppConnect container policy\")",
                        fix: "give one of them other labels")
                }
            }
        }
        for (index, configuration) in fleet.appConfigurations.enumerated() {
            for other in fleet.appConfigurations[..<index] where other.app == configuration.app {
                for label in configuration.labels where other.labels.contains(where: { ExactText.same($0, label) }) {
                    add("FL004", line: configuration.line, at: "appConfigurations[\(index)].labels", "the app configurations \(JSONWriter.quoted(other.name)) and \(JSONWriter.quoted(configuration.name)) for \(configuration.app) share the label \(JSONWriter.quoted(label)): only one may apply (Ivanti's Core guide, \"AppConnect app configuration\")",
                        fix: "give one of them other labels")
                }
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
        let labelled: [(what: String, labels: [String], line: Int?, path: String)] =
            fleet.containerPolicies.enumerated().map { ("the container policy \(JSONWriter.quoted($1.name))", $1.labels, $1.line, "containerPolicies[\($0)].labels") }
            + fleet.appConfigurations.enumerated().map { ("the app configuration \(JSONWriter.quoted($1.name))", $1.labels, $1.line, "appConfigurations[\($0)].labels") }
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
        for item in labelled {
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
        for control in FleetControl.allCases where !fleet.global.controls.sets(control) {
            let apps = fleet.apps.filter { app in app.appConnect && !fleet.containerPolicies.contains { $0.app == app.bundleID && $0.controls.sets(control) } }
            guard let first = apps.first else { continue }
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
        for profile in fleet.devices {
            let device: FleetDevice
            do throws(FleetError) {
                device = try FleetDevice(fleet: fleet, resolving: profile)
            } catch {
                add("FL004", line: error.line, device: profile.name, at: "devices.\(profile.name)", error.message, fix: "give the policies labels no device carries together")
                continue
            }
            for sender in fleet.apps where device.appConnectApps.contains(sender.bundleID) {
                for receiver in fleet.apps where receiver.bundleID != sender.bundleID && device.appConnectApps.contains(receiver.bundleID) {
                    guard let request = try? FleetRequest(from: sender.bundleID, channel: .documentInteraction, target: receiver.bundleID),
                          let decision = try? device.decide(request), decision.sender.outcome == .allow,
                          let refusal = decision.receiver, refusal.outcome != .allow else { continue }
                    add("FL003", line: nil, device: profile.name, at: "devices.\(profile.name)", "\(sender.bundleID) may send documents to \(receiver.bundleID) (\(decision.sender.rule)), but \(receiver.bundleID)'s Open From refuses them (\(refusal.rule)): users see the share fail",
                        fix: "add \(sender.bundleID) to \(receiver.bundleID)'s Open From, or take \(receiver.bundleID) out of \(sender.bundleID)'s Open In")
                }
            }
        }
    }
}

extension Fleet {
    /// Refuses to decide on a fleet that `fleet lint` calls an error as written (FL004 two
    /// container policies or configurations for one app sharing a label, FL005 a policy for an
    /// app `apps` does not list, FL008 a misspelt configuration key, FL009 a look-alike label):
    /// `eval`, `paths`, `matrix`, `diff`, `translate` and the tables read one fleet as lint does.
    /// - Throws: ``FleetError`` at the first such finding's line, with its fix.
    package func checkDecidable() throws(FleetError) {
        guard let finding = FleetLint.fileFindings(self).first(where: { $0.severity == .error }) else { return }
        throw FleetError("\(finding.message) (fleet lint \(finding.code) \(finding.name)): \(finding.fix)", file: file, line: finding.line)
    }
}
