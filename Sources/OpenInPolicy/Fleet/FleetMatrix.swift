/// A device's end-to-end outcomes at a glance: for each channel, every fleet app as sender × every
/// fleet app and "any other app" as receiver.
///
/// A cell is the end-to-end outcome of the request from the row's app to the column's; `nil` when
/// there is no such request: an app to itself, an app not installed on the device (on either side:
/// it has no documents there, and nothing reaches it), or `open-url` to an app that handles no
/// custom scheme on the device.
///
/// Keyboards do not fit a sender × receiver grid (a keyboard extension is not an app receiving a
/// document), so each sender has a keyboard line of its own: typing in it with a third-party
/// keyboard and with the system keyboard (``keyboard(sender:system:)``).
public struct FleetMatrix: Sendable {
    /// The device profile's name.
    public let device: String
    /// The channels, one grid each: those that name the receiver (``FleetChannel/matrixChannels``).
    public let channels: [FleetChannel]
    /// The rows: the fleet's apps, in file order.
    public let senders: [BundleID]
    /// The columns: the fleet's apps, then "any other app".
    public let receivers: [FleetNode]
    /// The cells, channel by channel, row by row.
    let cells: [Outcome?]
    /// Per sender, the keyboard outcomes: a third-party keyboard, then the system keyboard.
    let keyboards: [Outcome?]

    init(device: String, channels: [FleetChannel], senders: [BundleID], receivers: [FleetNode], cells: [Outcome?], keyboards: [Outcome?]) {
        precondition(cells.count == channels.count * senders.count * receivers.count && keyboards.count == 2 * senders.count)
        self.device = device
        self.channels = channels
        self.senders = senders
        self.receivers = receivers
        self.cells = cells
        self.keyboards = keyboards
    }

    /// The outcome of typing in `senders[sender]` with a third-party keyboard (`system` false) or the
    /// system keyboard (`system` true), or `nil` when the sender is not installed on the device.
    public func keyboard(sender: Int, system: Bool) -> Outcome? { keyboards[2 * sender + (system ? 1 : 0)] }

    /// The keyboard extension a matrix's third-party keyboard requests name: a bundle ID no fleet
    /// lists, standing for every custom keyboard (the evaluators only ask whether it is the system one).
    public static let thirdPartyKeyboard = BundleID(known: "third-party-keyboard.openin-check")

    /// The end-to-end outcome on `channel` from `senders[sender]` to `receivers[receiver]`, or `nil` when there is no such request.
    public func outcome(_ channel: FleetChannel, sender: Int, receiver: Int) -> Outcome? {
        guard let grid = channels.firstIndex(of: channel) else { return nil }
        return cells[(grid * senders.count + sender) * receivers.count + receiver]
    }
}

extension FleetChannel {
    /// The channels a matrix shows: those whose request names its receiver (the target, or the
    /// handler of an `open-url`'s custom scheme). `mail-link` and `mail-compose` always go to the
    /// device's mail app, so a column per receiver says nothing for them.
    public static let matrixChannels: [FleetChannel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .paste, .openURL]
}

extension FleetDevice {
    /// The custom scheme (not web, not `mailto`) whose handler on this device is `app`, first in byte order, if any.
    func customScheme(handledBy app: BundleID) -> String? {
        facts.schemeHandlers.filter { $0.value == app && !ExactText.isOne($0.key, of: ["http", "https", "mailto"]) }
            .map(\.key).min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The request a matrix cell decides, or `nil` when there is none.
    func matrixRequest(_ channel: FleetChannel, from sender: BundleID, to receiver: FleetNode) -> FleetRequest? {
        if case .app(let id) = receiver, id == sender || !isInstalled(id) { return nil }
        if !isInstalled(sender) { return nil }
        let target = bundleID(of: receiver)
        if channel == .openURL {
            guard case .app(let id) = receiver, let scheme = customScheme(handledBy: id), let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") else { return nil }
            return try? FleetRequest(from: sender, channel: .openURL, url: url, document: FleetDevice.documentName)
        }
        return try? FleetRequest(from: sender, channel: channel, target: target, document: FleetDevice.documentName)
    }

    /// The matrix of this device.
    ///
    /// As `FleetGraph` does, the sender's decision on a targeted channel is made once per kind of
    /// target (listed or not, AppConnect app or not) and the receiver's Open From once per pair; every
    /// cell is the outcome ``decide(_:)`` gives (a test compares them).
    /// - Complexity: O(apps² × channels) cells, each O(1).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func matrix() throws(FleetError) -> FleetMatrix {
        let rows = matrixRows()
        var cells = [Outcome?](repeating: nil, count: rows.channels.count * rows.senders.count * rows.receivers.count)
        var keyboards = [Outcome?](repeating: nil, count: 2 * rows.senders.count)
        let columns = rows.receivers.count
        for s in rows.senders.indices {
            guard let row = try rows.row(sender: s) else { continue }
            for c in rows.channels.indices {
                for r in 0..<columns { cells[(c * rows.senders.count + s) * columns + r] = row.cells[c * columns + r] }
            }
            (keyboards[2 * s], keyboards[2 * s + 1]) = row.keyboard
        }
        return FleetMatrix(device: name, channels: rows.channels, senders: rows.senders, receivers: rows.receivers, cells: cells, keyboards: keyboards)
    }

    /// The matrix of this device made one sender's row at a time, as it is read: printing it needs
    /// memory for a row, not for every cell (a fleet of N apps has 7 N² of them).
    package func matrixRows() -> FleetMatrixRows { FleetMatrixRows(self) }
}

/// A device's matrix (``FleetDevice/matrix()``), made one sender's row at a time.
package struct FleetMatrixRows {
    /// The device profile's name.
    package var device: String { fleetDevice.name }
    /// The channels (``FleetChannel/matrixChannels``).
    package let channels: [FleetChannel]
    /// The rows: the fleet's apps, in file order.
    package let senders: [BundleID]
    /// The columns: the fleet's apps, then "any other app".
    package let receivers: [FleetNode]
    let fleetDevice: FleetDevice
    let receiverIDs: [BundleID]
    let present: [Bool]
    /// Per receiver, its request on each targeted channel.
    let targeted: [[ShareRequest]]
    /// Per receiver, the `open-url` request to its custom scheme, if it handles one.
    let openURL: [ShareRequest?]
    /// Per receiver, its side (effective and prepared policy).
    let sides: [FleetSide]

    init(_ device: FleetDevice) {
        fleetDevice = device
        senders = device.fleet.apps.map(\.bundleID)
        receivers = senders.map(FleetNode.app) + [.anyOtherApp]
        receiverIDs = receivers.map(device.bundleID(of:))
        channels = FleetChannel.matrixChannels
        precondition(Array(channels.prefix(FleetGraph.targetedChannels.count)) == FleetGraph.targetedChannels && channels.last == .openURL)
        present = receivers.map { node -> Bool in
            if case .app(let id) = node { return device.isInstalled(id) }
            return true
        }
        targeted = receiverIDs.map { target in
            FleetGraph.targetedChannels.map { try! ShareRequest(channel: $0.senderChannel, target: target, document: FleetDevice.documentName) }
        }
        sides = receiverIDs.map(device.side(for:))
        // Each installed app's custom scheme, found once (not a scan of the scheme handlers per app).
        var schemeOf: [BundleID: String] = [:]
        for (scheme, app) in device.facts.schemeHandlers where !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) {
            if let known = schemeOf[app], !scheme.utf8.lexicographicallyPrecedes(known.utf8) { continue }
            schemeOf[app] = scheme
        }
        openURL = receivers.map { node -> ShareRequest? in
            guard case .app(let id) = node, device.isInstalled(id), let scheme = schemeOf[id],
                  let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") else { return nil }
            return try? ShareRequest(channel: .openURL, url: url, document: FleetDevice.documentName)
        }
    }

    /// The cells of `senders[s]`'s row, channel by channel (`channels.count × receivers.count`), and its
    /// keyboard outcomes (a third-party keyboard, the system keyboard); `nil` when the sender is not
    /// installed on the device (every cell `nil`). With `only`, the cells of that channel's grid alone
    /// are made (the others are `nil`).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    package func row(sender s: Int, only: FleetChannel? = nil) throws(FleetError) -> (cells: [Outcome?], keyboard: (Outcome?, Outcome?))? {
        let device = fleetDevice
        let sender = senders[s]
        guard device.isInstalled(sender) else { return nil }
        let columns = receivers.count
        let targetedCount = FleetGraph.targetedChannels.count
        var cells = [Outcome?](repeating: nil, count: channels.count * columns)
        let (senderPolicy, prepared) = sides[s]
        let probe = try! FleetRequest(from: sender, channel: .paste, target: sender)
        for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] { try device.check(senderPolicy, needs: channel.control, for: probe, on: channel) }
        if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil { _ = try device.decide(probe) }
        let keyboard = (Evaluator.decide(try! ShareRequest(channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard), prepared).outcome,
                        Evaluator.decide(try! ShareRequest(channel: .keyboard, target: .systemKeyboard), prepared).outcome)
        let openFrom = try! ShareRequest(channel: .openFrom, source: sender)
        func receiverOutcome(_ r: Int) throws(FleetError) -> Outcome {
            let (receiverPolicy, receiver) = sides[r]
            try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .documentInteraction, target: receiverIDs[r]))
            return Evaluator.decide(openFrom, receiver).outcome
        }
        // The grid asked for (-1: a channel with no grid, such as keyboard: no cells).
        let wanted: Int? = only.map { channels.firstIndex(of: $0) ?? -1 }
        var kinds: [[Outcome]?] = [nil, nil, nil, nil]
        for r in 0..<columns where present[r] && receiverIDs[r] != sender {
            let target = receiverIDs[r]
            if wanted == nil || (0..<targetedCount).contains(wanted!) {
                let kind = (prepared.lists(target) ? 2 : 0) | (prepared.isAppConnectApp(target) ? 1 : 0)
                let outcomes: [Outcome]
                if let known = kinds[kind] {
                    outcomes = known
                } else {
                    outcomes = targeted[r].map { Evaluator.decide($0, prepared).outcome }
                    kinds[kind] = outcomes
                }
                var receiverSays: Outcome? = nil
                let authorized = device.appConnectApps.contains(target)
                for c in 0..<targetedCount where wanted == nil || wanted == c {
                    var outcome = outcomes[c]
                    if authorized, channels[c].hasReceiverPart, outcome == .allow || outcome == .redirect {
                        if receiverSays == nil { receiverSays = try receiverOutcome(r) }
                        if receiverSays != .allow { outcome = receiverSays! }
                    }
                    cells[c * columns + r] = outcome
                }
            }
            if wanted == nil || wanted == targetedCount, let request = openURL[r] {
                let decision = Evaluator.decide(request, prepared)
                var outcome = decision.outcome
                if outcome == .allow || outcome == .redirect, let delivered = decision.target, device.appConnectApps.contains(delivered) {
                    let (receiverPolicy, receiver) = device.side(for: delivered)
                    try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .openURL, url: request.url))
                    let says = Evaluator.decide(openFrom, receiver).outcome
                    if says != .allow { outcome = says }
                }
                cells[targetedCount * columns + r] = outcome
            }
        }
        return (cells, keyboard)
    }
}
