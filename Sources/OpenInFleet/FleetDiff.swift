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
            let leaks = try leakChanges(old: oldDevice, new: newDevice)
            for (key, chain) in leaks.opened { changes.append(FleetChange(device: name, kind: .leakPath, opened: true, subject: key, detail: chain)) }
            for (key, chain) in leaks.closed { changes.append(FleetChange(device: name, kind: .leakPath, opened: false, subject: key, detail: chain)) }
            let flows = flowChanges(old: try oldDevice.matrix(), new: try newDevice.matrix())
            for (key, was, outcome) in flows.changed {
                changes.append(FleetChange(device: name, kind: .flow, opened: Self.delivers(outcome), subject: key, detail: "\(was?.rawValue ?? "no request") → \(outcome.rawValue)"))
            }
            for (key, was) in flows.gone { changes.append(FleetChange(device: name, kind: .flow, opened: false, subject: key, detail: "\(was.rawValue) → no request")) }
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

    /// Whether an outcome delivers the document (`allow`, or `redirect` to another app).
    static func delivers(_ outcome: Outcome?) -> Bool { outcome == .allow || outcome == .redirect }

    /// The flows that deliver in one matrix and not in the other, keyed `channel SENDER → RECEIVER` (a sender's keyboard
    /// lines as receivers named ``keyboardNames``; bundle IDs and channel names are ASCII, so the keys sort byte for byte):
    /// `changed`, each cell of `new` with a request whose delivering differs from the same cell of `old` (`nil`: no request
    /// there), and `gone`, each cell of `old` that delivered and has no request in `new`; each sorted by key.
    ///
    /// The two matrices are compared cell by cell through their apps' and receivers' positions, with no key made but
    /// for a change: O(channels × senders × receivers) comparisons, O(changes) memory (a key per cell of both
    /// matrices was 7,000,000 strings for 1,000 apps).
    static func flowChanges(old: FleetMatrix, new: FleetMatrix) -> (changed: [(key: String, was: Outcome?, now: Outcome)], gone: [(key: String, was: Outcome)]) {
        // Each name's position (the last, as a table keyed by name keeps the last of two cells named alike).
        func positions(_ names: [String]) -> [String: Int] {
            var table: [String: Int] = [:]
            for (index, name) in names.enumerated() { table[name] = index }
            return table
        }
        let (oldSenderNames, newSenderNames) = (old.senders.map(\.rawValue), new.senders.map(\.rawValue))
        let (oldReceiverNames, newReceiverNames) = (old.receivers.map { "\($0)" }, new.receivers.map { "\($0)" })
        let (oldSenders, newSenders) = (positions(oldSenderNames), positions(newSenderNames))
        let (oldReceivers, newReceivers) = (positions(oldReceiverNames), positions(newReceiverNames))
        // Per position, the other matrix's position of the same name (-1: none), and whether this position is its name's.
        func mapping(_ names: [String], own: [String: Int], other: [String: Int]) -> (to: [Int], kept: [Bool]) {
            (names.map { other[$0] ?? -1 }, names.indices.map { own[names[$0]] == $0 })
        }
        let (senderToOld, newSenderKept) = mapping(newSenderNames, own: newSenders, other: oldSenders)
        let (receiverToOld, newReceiverKept) = mapping(newReceiverNames, own: newReceivers, other: oldReceivers)
        let (senderToNew, oldSenderKept) = mapping(oldSenderNames, own: oldSenders, other: newSenders)
        let (receiverToNew, oldReceiverKept) = mapping(oldReceiverNames, own: oldReceivers, other: newReceivers)
        func cell(_ matrix: FleetMatrix, _ grid: Int, _ sender: Int, _ receiver: Int) -> Outcome? {
            matrix.cells[(grid * matrix.senders.count + sender) * matrix.receivers.count + receiver]
        }
        var changed: [(key: String, was: Outcome?, now: Outcome)] = [], gone: [(key: String, was: Outcome)] = []
        for (grid, channel) in new.channels.enumerated() {
            let oldGrid = old.channels.firstIndex(of: channel)
            for s in new.senders.indices where newSenderKept[s] {
                for r in new.receivers.indices where newReceiverKept[r] {
                    guard let now = cell(new, grid, s, r) else { continue }
                    let was = oldGrid.flatMap { g in senderToOld[s] < 0 || receiverToOld[r] < 0 ? nil : cell(old, g, senderToOld[s], receiverToOld[r]) }
                    if delivers(now) != delivers(was) { changed.append(("\(channel) \(newSenderNames[s]) → \(newReceiverNames[r])", was, now)) }
                }
            }
        }
        for (grid, channel) in old.channels.enumerated() {
            let newGrid = new.channels.firstIndex(of: channel)
            for s in old.senders.indices where oldSenderKept[s] {
                for r in old.receivers.indices where oldReceiverKept[r] {
                    guard let was = cell(old, grid, s, r), delivers(was) else { continue }
                    let now = newGrid.flatMap { g in senderToNew[s] < 0 || receiverToNew[r] < 0 ? nil : cell(new, g, senderToNew[s], receiverToNew[r]) }
                    if now == nil { gone.append(("\(channel) \(oldSenderNames[s]) → \(oldReceiverNames[r])", was)) }
                }
            }
        }
        // Typing reaches the keyboard: a third-party keyboard newly allowed sees everything typed in the sender.
        for system in [false, true] {
            let receiver = system ? keyboardNames.system : keyboardNames.thirdParty
            for s in new.senders.indices where newSenderKept[s] {
                guard let now = new.keyboard(sender: s, system: system) else { continue }
                let was = senderToOld[s] < 0 ? nil : old.keyboard(sender: senderToOld[s], system: system)
                if delivers(now) != delivers(was) { changed.append(("\(FleetChannel.keyboard) \(newSenderNames[s]) → \(receiver)", was, now)) }
            }
            for s in old.senders.indices where oldSenderKept[s] {
                guard let was = old.keyboard(sender: s, system: system), delivers(was) else { continue }
                if (senderToNew[s] < 0 ? nil : new.keyboard(sender: senderToNew[s], system: system)) == nil {
                    gone.append(("\(FleetChannel.keyboard) \(oldSenderNames[s]) → \(receiver)", was))
                }
            }
        }
        changed.sort { $0.key < $1.key }
        gone.sort { $0.key < $1.key }
        return (changed, gone)
    }

    /// The leak paths one device opens and closes, keyed `APP ⇒ NODE` (each starting app and each outside node it
    /// reaches), with the chain (`APP channel → NODE …`): the new chain of an opened one, the old chain of a closed
    /// one; each sorted by key.
    ///
    /// Each side's searches are compared app by app, by the outside nodes they reach; only a search whose outside
    /// nodes differ has its chains to those nodes decided (``AnalyzedDevice/tree(_:only:)``), not every path of every app.
    static func leakChanges(old: AnalyzedDevice, new: AnalyzedDevice) throws(FleetError) -> (opened: [(key: String, chain: String)], closed: [(key: String, chain: String)]) {
        // Per starting app of the old device, the names of the outside nodes it reaches (as the keys name them).
        func outside(_ device: AnalyzedDevice, _ reach: FleetReach) -> [String: Int] {
            var found: [String: Int] = [:]
            for node in reach.order where device.isOutside(reach.nodes[Int(node)]) { found["\(reach.nodes[Int(node)])"] = Int(node) }
            return found
        }
        func chains(_ device: AnalyzedDevice, _ reach: FleetReach, to wanted: [(name: String, node: Int)]) throws(FleetError) -> [(key: String, chain: String)] {
            let nodes = Set(wanted.map(\.node))
            let tree = try device.tree(reach, only: { nodes.contains($0) })
            return wanted.map { target in
                var hops: [FleetHop] = []
                var node = target.node
                while let hop = tree.hops[node] {
                    hops.append(hop)
                    node = Int(reach.predecessor[node])
                }
                return ("\(reach.from) ⇒ \(target.name)", ([reach.from.rawValue] + hops.reversed().map { "\($0.channel) → \($0.to)" }).joined(separator: " "))
            }
        }
        var before: [String: [String: Int]] = [:]
        var oldApps: [BundleID] = []
        try old.forEachReach { (reach) throws(FleetError) in
            if before[reach.from.rawValue] == nil { oldApps.append(reach.from) }
            before[reach.from.rawValue] = outside(old, reach)
        }
        var opened: [(key: String, chain: String)] = [], closed: [(key: String, chain: String)] = []
        var seen: Set<String> = []
        try new.forEachReach { (reach) throws(FleetError) in
            let app = reach.from.rawValue
            seen.insert(app)
            let now = outside(new, reach), was = before[app] ?? [:]
            let added = now.filter { was[$0.key] == nil }.map { (name: $0.key, node: $0.value) }
            if !added.isEmpty { opened += try chains(new, reach, to: added) }
            let removed = was.filter { now[$0.key] == nil }
            if !removed.isEmpty {
                let search = try old.reach(from: reach.from)
                closed += try chains(old, search, to: removed.map { (name: $0.key, node: $0.value) })
            }
        }
        for app in oldApps where !seen.contains(app.rawValue) {
            let was = before[app.rawValue] ?? [:]
            guard !was.isEmpty else { continue }
            closed += try chains(old, try old.reach(from: app), to: was.map { (name: $0.key, node: $0.value) })
        }
        opened.sort { $0.key < $1.key }
        closed.sort { $0.key < $1.key }
        return (opened, closed)
    }
}
