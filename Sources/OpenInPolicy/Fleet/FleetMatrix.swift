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
    /// Per sender, the decisions no receiver takes part in: copy, print, and Intune's Save As and
    /// Open into Org documents by location.
    public let oneSided: [FleetOneSided]

    init(device: String, channels: [FleetChannel], senders: [BundleID], receivers: [FleetNode], cells: [Outcome?], keyboards: [Outcome?],
         oneSided: [FleetOneSided]) {
        precondition(cells.count == channels.count * senders.count * receivers.count && keyboards.count == 2 * senders.count
                     && oneSided.count == senders.count)
        self.oneSided = oneSided
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

/// A sender's decisions that no receiver takes part in, as a matrix shows them.
public struct FleetOneSided: Sendable {
    /// Its copy decision (with its audience: who may paste the copy); `nil` when the sender is not
    /// installed, or its policy sets no pasteboard control.
    public let copy: Decision?
    /// Its print decision; `nil` when the sender is not installed, or its policy sets no print control.
    public let print: Decision?
    /// Intune's Save As, each location of `save-as` with its outcome (empty for AppConnect: no such control).
    public let saveAs: [(location: IntuneDataLocation, outcome: Outcome)]
    /// Intune's Open into Org documents, each location with its outcome (empty for AppConnect).
    public let openInto: [(location: IntuneDataLocation, outcome: Outcome)]

    /// Nothing decided: the sender is not installed.
    static let none = FleetOneSided(copy: nil, print: nil, saveAs: [], openInto: [])
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
        let senders = fleet.apps.map(\.bundleID)
        let receivers = senders.map(FleetNode.app) + [.anyOtherApp]
        let receiverIDs = receivers.map(bundleID(of:))
        let channels = FleetChannel.matrixChannels
        let targetedCount = FleetGraph.targetedChannels.count
        precondition(Array(channels.prefix(targetedCount)) == FleetGraph.targetedChannels && channels.last == .openURL)
        let present = receivers.map { node -> Bool in
            if case .app(let id) = node { return isInstalled(id) }
            return true
        }
        let targeted = receiverIDs.map { target in
            FleetGraph.targetedChannels.map { try! ShareRequest(channel: $0.senderChannel!, target: target, document: FleetDevice.documentName) }
        }
        let openURL = receivers.map { node -> ShareRequest? in
            guard case .app(let id) = node, isInstalled(id), let scheme = customScheme(handledBy: id),
                  let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") else { return nil }
            return try? ShareRequest(channel: .openURL, url: url, document: FleetDevice.documentName)
        }
        let rows = senders.count, columns = receivers.count
        var cells = [Outcome?](repeating: nil, count: channels.count * rows * columns)
        var keyboards = [Outcome?](repeating: nil, count: 2 * rows)
        var oneSided = [FleetOneSided](repeating: .none, count: rows)
        // Each receiver's evaluator, made when first asked.
        var cachedReceivers: [(EffectivePolicy, Evaluator)?] = Array(repeating: nil, count: columns)
        func receiverEvaluator(_ r: Int) -> (EffectivePolicy, Evaluator) {
            if let known = cachedReceivers[r] { return known }
            let made = self.evaluator(for: receiverIDs[r])
            cachedReceivers[r] = made
            return made
        }
        for (s, sender) in senders.enumerated() where isInstalled(sender) {
            let (senderPolicy, evaluator) = self.evaluator(for: sender)
            let probe = try! FleetRequest(from: sender, channel: .paste, target: sender)
            for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] { try check(senderPolicy, needs: channel.control, for: probe, on: channel) }
            if senderPolicy.policy.pasteboard == .secureCopy, facts.secureServicesAvailable == nil { _ = try decide(probe) }
            keyboards[2 * s] = evaluator.decide(try! ShareRequest(channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard)).outcome
            keyboards[2 * s + 1] = evaluator.decide(try! ShareRequest(channel: .keyboard, target: .systemKeyboard)).outcome
            oneSided[s] = FleetOneSided(copy: senderPolicy.policy.pasteboard == nil ? nil : evaluator.decide(try! ShareRequest(channel: .copy)),
                                        print: senderPolicy.policy.print == nil ? nil : evaluator.decide(try! ShareRequest(channel: .print)),
                                        saveAs: [], openInto: [])
            let openFrom = try! ShareRequest(channel: .openFrom, source: sender)
            func receiverOutcome(_ r: Int) throws(FleetError) -> Outcome {
                let (receiverPolicy, receiver) = receiverEvaluator(r)
                try check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .documentInteraction, target: receiverIDs[r]))
                return receiver.decide(openFrom).outcome
            }
            var kinds: [[Outcome]?] = [nil, nil, nil, nil]
            let prepared = evaluator.prepared
            for r in 0..<columns where present[r] && receiverIDs[r] != sender {
                let target = receiverIDs[r]
                let kind = (prepared.lists(target) ? 2 : 0) | (prepared.isAppConnectApp(target) ? 1 : 0)
                let outcomes: [Outcome]
                if let known = kinds[kind] {
                    outcomes = known
                } else {
                    outcomes = targeted[r].map { evaluator.decide($0).outcome }
                    kinds[kind] = outcomes
                }
                var receiverSays: Outcome? = nil
                let authorized = appConnectApps.contains(target)
                for c in 0..<targetedCount {
                    var outcome = outcomes[c]
                    if authorized, channels[c].hasReceiverPart, outcome == .allow || outcome == .redirect {
                        if receiverSays == nil { receiverSays = try receiverOutcome(r) }
                        if receiverSays != .allow { outcome = receiverSays! }
                    }
                    cells[(c * rows + s) * columns + r] = outcome
                }
                if let request = openURL[r] {
                    let decision = evaluator.decide(request)
                    var outcome = decision.outcome
                    if let delivered = receiving(decision, channel: .openURL, request: request, from: sender), appConnectApps.contains(delivered) {
                        let (receiverPolicy, receiver) = self.evaluator(for: delivered)
                        try check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .openURL, url: request.url))
                        let says = receiver.decide(openFrom).outcome
                        if says != .allow { outcome = says }
                    }
                    cells[(targetedCount * rows + s) * columns + r] = outcome
                }
            }
        }
        return FleetMatrix(device: name, channels: channels, senders: senders, receivers: receivers, cells: cells, keyboards: keyboards, oneSided: oneSided)
    }
}
