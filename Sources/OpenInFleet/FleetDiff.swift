import OpenInCore
import OpenInKit

/// What changes end to end between two fleets, per device: flows (a matrix cell that starts or
/// stops delivering) and leak paths (an app whose documents start or stop reaching an app outside).
public struct FleetChange: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable {
        /// One request from one app to another on one channel now delivers, or no longer does.
        case flow
        /// An app's documents now reach an app outside the device's authorized AppConnect apps, or no longer do.
        case leakPath = "leak-path"
        /// A device profile is in one fleet only.
        case device
        /// A control of one app that names no receiver (print, copy) decides differently: it opened when
        /// more can leave the app (deny → allow, or a copy readable by AppConnect apps only → by all apps).
        case control
    }

    /// The device profile.
    public let device: String
    /// What changed.
    public let kind: Kind
    /// Whether it opened (now delivers, now reaches, added) or closed.
    public let opened: Bool
    /// The flow (`document-interaction com.acme.hr → com.getdropbox.Dropbox`) or path (`com.acme.hr ⇒ com.getdropbox.Dropbox`).
    public let subject: String
    /// For a flow or a control, the outcomes before and after (`deny → allow`); for a leak path, the new chain or the old one.
    public let detail: String
}

/// Compares two fleets end to end.
public enum FleetDiff {
    /// The changes from `old` to `new` on the device profiles they share (and those in one only), or on
    /// `device` alone, for fleets of one vendor (``compare(old:new:device:)`` for AppConnect fleet files).
    /// - Complexity: per device, a matrix of each fleet and paths from each starting app: O(apps² × channels) decisions.
    /// - Throws: ``FleetError`` when either fleet cannot decide (a conflict, a control not set) or has no such device.
    package static func compare(old: FleetAnalysis, new: FleetAnalysis, device: String? = nil) throws(FleetError) -> [FleetChange] {
        var changes: [FleetChange] = []
        let oldNames = old.deviceNames, newNames = new.deviceNames
        let names: [String]
        if let device {
            names = [device]
        } else {
            names = oldNames + newNames.filter { name in !oldNames.contains { ExactText.same($0, name) } }
        }
        for name in names {
            let before = oldNames.contains { ExactText.same($0, name) }, after = newNames.contains { ExactText.same($0, name) }
            if !before, !after { throw FleetError("neither fleet has a device profile named \(JSONWriter.quoted(name))") }
            guard before, after else {
                changes.append(FleetChange(device: name, kind: .device, opened: after, subject: name, detail: after ? "added" : "removed"))
                continue
            }
            let oldDevice = try old.device(named: name), newDevice = try new.device(named: name)
            let oldLeaks = try leaks(oldDevice), newLeaks = try leaks(newDevice)
            for (key, chain) in newLeaks.sorted(by: { $0.key < $1.key }) where oldLeaks[key] == nil {
                changes.append(FleetChange(device: name, kind: .leakPath, opened: true, subject: key, detail: chain))
            }
            for (key, chain) in oldLeaks.sorted(by: { $0.key < $1.key }) where newLeaks[key] == nil {
                changes.append(FleetChange(device: name, kind: .leakPath, opened: false, subject: key, detail: chain))
            }
            let oldFlows = try flows(oldDevice), newFlows = try flows(newDevice)
            for (key, outcome) in newFlows.sorted(by: { $0.key < $1.key }) {
                let was = oldFlows[key]
                let delivers = outcome == .allow || outcome == .redirect
                let delivered = was == .allow || was == .redirect
                if delivers != delivered {
                    changes.append(FleetChange(device: name, kind: .flow, opened: delivers, subject: key, detail: "\(was?.rawValue ?? "no request") → \(outcome.rawValue)"))
                }
            }
            for (key, was) in oldFlows.sorted(by: { $0.key < $1.key }) where newFlows[key] == nil && (was == .allow || was == .redirect) {
                changes.append(FleetChange(device: name, kind: .flow, opened: false, subject: key, detail: "\(was.rawValue) → no request"))
            }
            // Print and copy name no receiver, so no flow shows them: compare each app's own decision.
            for app in newDevice.vendorDevice.installed where oldDevice.isInstalled(app) {
                for channel in [Channel.print, .copy] {
                    let was = oldDevice.vendorDevice.control(channel, of: app), now = newDevice.vendorDevice.control(channel, of: app)
                    guard was != now else { continue }
                    changes.append(FleetChange(device: name, kind: .control, opened: now.reach > was.reach, subject: "\(channel) \(app)",
                                               detail: "\(was.text) → \(now.text)"))
                }
            }
        }
        return changes
    }

    /// How a diff names the two keyboards a sender is tried with.
    package static let keyboardNames = (thirdParty: "third-party keyboard", system: "system keyboard")

    /// Every matrix cell of a device that has a request (and every sender's keyboard line), keyed `channel SENDER → RECEIVER` (bundle IDs and
    /// channel names are ASCII, so a `String` key compares them byte for byte).
    package static func flows(_ device: AnalyzedDevice) throws(FleetError) -> [String: Outcome] {
        let matrix = try device.matrix()
        var result: [String: Outcome] = [:]
        for channel in matrix.channels {
            for (s, sender) in matrix.senders.enumerated() {
                for (r, receiver) in matrix.receivers.enumerated() {
                    if let outcome = matrix.outcome(channel, sender: s, receiver: r) { result["\(channel) \(sender) → \(receiver)"] = outcome }
                }
            }
        }
        // Typing reaches the keyboard: a third-party keyboard newly allowed sees everything typed in the sender.
        for (s, sender) in matrix.senders.enumerated() {
            if let outcome = matrix.keyboard(sender: s, system: false) { result["\(FleetChannel.keyboard) \(sender) → \(keyboardNames.thirdParty)"] = outcome }
            if let outcome = matrix.keyboard(sender: s, system: true) { result["\(FleetChannel.keyboard) \(sender) → \(keyboardNames.system)"] = outcome }
        }
        return result
    }

    /// For each starting app, each outside node it reaches, keyed `APP ⇒ NODE`, with the chain.
    package static func leaks(_ device: AnalyzedDevice) throws(FleetError) -> [String: String] {
        var result: [String: String] = [:]
        for app in device.startingApps {
            for path in try device.paths(from: app) where device.isOutside(path.to) {
                result["\(app) ⇒ \(path.to)"] = ([app.rawValue] + path.hops.map { "\($0.channel) → \($0.to)" }).joined(separator: " ")
            }
        }
        return result
    }
}
