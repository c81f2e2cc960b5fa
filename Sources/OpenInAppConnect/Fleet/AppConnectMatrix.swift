import OpenInCore
import OpenInFleet
import OpenInKit

extension FleetDevice {
    /// The custom scheme (not web, not `mailto`) whose handler on this device is `app`, first in byte order, if any.
    func customScheme(handledBy app: BundleID) -> String? {
        facts.schemeHandlers.filter { $0.value == app && !ExactText.isOne($0.key, of: ["http", "https", "mailto"]) }
            .map(\.key).min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Every app's ``customScheme(handledBy:)``, found in one pass over the scheme handlers (not a scan per app).
    func customSchemes() -> [BundleID: String] {
        var schemes: [BundleID: String] = [:]
        for (scheme, app) in facts.schemeHandlers where !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) {
            if let known = schemes[app], !scheme.utf8.lexicographicallyPrecedes(known.utf8) { continue }
            schemes[app] = scheme
        }
        return schemes
    }

    /// The request a matrix cell decides, or `nil` when there is none.
    func matrixRequest(_ channel: FleetChannel, from sender: BundleID, to receiver: FleetNode) -> FleetRequest? {
        matrixRequest(channel, from: sender, to: receiver, scheme: customScheme(handledBy:))
    }

    /// The request a matrix cell decides, with each app's custom scheme looked up in `schemes` (``customSchemes()``).
    func matrixRequest(_ channel: FleetChannel, from sender: BundleID, to receiver: FleetNode, schemes: [BundleID: String]) -> FleetRequest? {
        matrixRequest(channel, from: sender, to: receiver) { schemes[$0] }
    }

    /// The request a matrix cell decides, `scheme` giving an app's custom scheme: the one place both forms build it.
    private func matrixRequest(_ channel: FleetChannel, from sender: BundleID, to receiver: FleetNode, scheme customScheme: (BundleID) -> String?) -> FleetRequest? {
        if case .app(let id) = receiver, id == sender || !(isInstalled(id) || id.isNativeMail) { return nil }
        if !isInstalled(sender) { return nil }
        let target = bundleID(of: receiver)
        if channel == .openURL {
            guard case .app(let id) = receiver else { return nil }
            // mailto: goes to the device's mail app, or to Email+ by redirect: like mail-link and mail-compose, no cell.
            if id.isNativeMail { return nil }
            guard let scheme = customScheme(id), let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") else { return nil }
            return try? FleetRequest(from: sender, channel: .openURL, url: url, document: FleetDevice.documentName)
        }
        return try? FleetRequest(from: sender, channel: channel, target: target, document: FleetDevice.documentName)
    }

    /// The matrix of this device, every cell held (`matrixRows()` makes it one row at a time).
    ///
    /// As `FleetGraph` does, the sender's decision on a targeted channel is made once per kind of
    /// target (the facts the rules read of it, `TargetKinds`) and the receiver's Open From once per pair; every
    /// cell is the outcome ``decide(_:)`` gives (a test compares them).
    /// - Complexity: O(apps² × channels) cells, each O(1); memory O(apps² × channels).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func matrix() throws(FleetError) -> FleetMatrix { try matrixRows().matrix() }

    /// The matrix of this device made one sender's row at a time, as it is read: printing it needs
    /// memory for a row, not for every cell (a fleet of N apps has 7 N² of them).
    package func matrixRows() -> FleetMatrixRows {
        let senders = fleet.apps.map(\.bundleID)
        // Native Mail is on every device and always outside: a column of its own unless the fleet lists it.
        let mail: [FleetNode] = senders.contains(where: \.isNativeMail) ? [] : [.app(.mobileMail)]
        let receivers = senders.map(FleetNode.app) + mail + [.anyOtherApp]
        let rows = AppConnectMatrixRows(self, senders: senders, receivers: receivers)
        return FleetMatrixRows(device: name, channels: rows.channels, senders: senders, receivers: receivers, rows: rows)
    }
}

/// What an AppConnect device's matrix rows share: per receiver, its requests and side, made once.
struct AppConnectMatrixRows: FleetMatrixRowMaker {
    package let device: FleetDevice
    package let channels = FleetChannel.matrixChannels
    package let senders: [BundleID]
    let receiverIDs: [BundleID]
    /// Per receiver, whether requests reach it: an installed app, native Mail (on every device), any other app.
    let present: [Bool]
    /// Per receiver, its request on each targeted channel.
    let targeted: [[ShareRequest]]
    /// Per receiver, the `open-url` request it receives: its first custom scheme; `mailto:` for native Mail when it is the mail app.
    let openURL: [ShareRequest?]
    /// Per receiver, its side (effective and prepared policy).
    package let sides: [FleetSide]
    /// Whether some row can throw: a present receiver (every installed sender is one) lacks a control
    /// or pastes a secure copy on a device that does not say whether secure services are available
    /// (``FleetGraph/lacks(_:on:)``), or an app of the fleet a URL may land on does not set Open From.
    package let canThrow: Bool
    /// Per receiver, whether the device's policies count it as an AppConnect app (every side on the device
    /// shares the device's tables, so the answer is the same for every sender): as a source, for the Open From of "All AppConnect apps".
    let isAppConnectApp: [Bool]
    /// Per receiver, whether it is an authorized AppConnect app (its Open From decides too).
    let authorized: [Bool]
    /// The receivers as targets, by the facts the rules read of them on the targeted channels (``TargetKinds``),
    /// and per sender its receivers by kind, each list read once from its entries (native Mail's columns apart:
    /// they are decided on their own).
    package let kinds: TargetKinds
    package let targets: [TargetKinds.Sender]
    /// When no row can throw: what each receiver's Open From answers a sender, as ``FleetGraph/RowWords`` reads
    /// it (every sender, the AppConnect apps, or the senders its own whitelist names); `nil` otherwise (each
    /// receiver's Open From checked and decided per cell).
    package let openFrom: OpenFromAnswers?
    /// Per receiver, whether it is native Mail; per targeted channel, whether it has a receiving side; per
    /// sender, its own column among the receivers (-1: none). Read once here: each is another module's call
    /// (`BundleID`, `FleetChannel`), which the row loop would otherwise make once per cell.
    let nativeMail: [Bool]
    let receiverParts: [Bool]
    let senderColumn: [Int]

    /// Per receiver, how its Open From answers a sender: `allow` or `deny`.
    struct OpenFromAnswers {
        /// The receivers whose Open From allows every sender (AUTHORIZED, or AppConnect not enforcing).
        let allowsEvery: [Bool]
        /// The receivers whose Open From whitelist is "all AppConnect apps".
        let allowsAppConnect: [Bool]
        /// Per sender, the receivers whose own Open From whitelist names it (exactly).
        let listing: [[Int32]]
    }

    package init(_ device: FleetDevice, senders: [BundleID], receivers: [FleetNode]) {
        self.device = device
        self.senders = senders
        let receiverIDs = receivers.map(device.bundleID(of:))
        self.receiverIDs = receiverIDs
        nativeMail = receiverIDs.map(\.isNativeMail)
        receiverParts = FleetChannel.matrixChannels.map(\.hasReceiverPart)
        var column: [BundleID: Int] = [:]
        for (r, id) in receiverIDs.enumerated() where column[id] == nil { column[id] = r }
        senderColumn = senders.map { column[$0] ?? -1 }
        precondition(Array(channels.prefix(FleetGraph.targetedChannels.count)) == FleetGraph.targetedChannels && channels.last == .openURL)
        present = receivers.map { node -> Bool in
            if case .app(let id) = node { return device.isInstalled(id) || id.isNativeMail }
            return true
        }
        targeted = receiverIDs.map { target in
            FleetGraph.targetedChannels.map { try! ShareRequest(channel: $0.senderChannel!, target: target, document: FleetDevice.documentName) }
        }
        sides = receiverIDs.map(device.side(for:))
        // Each installed app's custom scheme, found once (not a scan of the scheme handlers per app).
        var schemeOf: [BundleID: String] = [:]
        for (scheme, app) in device.facts.schemeHandlers where !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) {
            if let known = schemeOf[app], !scheme.utf8.lexicographicallyPrecedes(known.utf8) { continue }
            schemeOf[app] = scheme
        }
        let present = self.present
        let tables = device.side(for: device.anyOtherAppID).prepared
        isAppConnectApp = receiverIDs.map(tables.isAppConnectApp)
        authorized = receiverIDs.map(device.appConnectApps.contains)
        let lacks = FleetGraph.lacks(sides, on: device)
        // A row decides no print (the one-sided print cell is `nil` where the policy sets none): a missing print control throws nothing.
        canThrow = receivers.indices.contains { present[$0] && lacks[$0] & ~FleetGraph.bit(.print) != 0 }
            || device.fleet.apps.contains { device.side(for: $0.bundleID).policy.source(of: .openFrom) == .notSet }
        // Each sender's receivers by kind, from its lists' entries ("all AppConnect apps" is one whitelist shared by
        // every policy that says so, read once).
        var index: [BundleID: Int] = [:]
        for (r, id) in receiverIDs.enumerated() where index[id] == nil { index[id] = r }
        let sides = self.sides
        let senderSides = senders.indices.map { sides[$0].prepared }
        let kinds = TargetKinds(ids: receiverIDs, index: index, channels: FleetGraph.targetedChannels.compactMap(\.senderChannel), senders: senderSides,
                                device: tables)
        var shared: [ObjectIdentifier: TargetKinds.FactSet] = [:]
        var targets: [TargetKinds.Sender] = []
        for prepared in senderSides { targets.append(kinds.sender(prepared, shared: &shared)) }
        (self.kinds, self.targets) = (kinds, targets)
        if canThrow {
            openFrom = nil
        } else {
            // As OpenFromRule decides (after NotEnforcingRule): AUTHORIZED allows all, UNAUTHORIZED none, a whitelist its members.
            var allowsEvery = [Bool](repeating: false, count: receiverIDs.count), allowsAppConnect = allowsEvery
            var listing = [[Int32]](repeating: [], count: senders.count)
            var senderIndex: [BundleID: Int] = [:]
            for (s, id) in senders.enumerated() where senderIndex[id] == nil { senderIndex[id] = s }
            for r in receiverIDs.indices where authorized[r] {
                let prepared = sides[r].prepared
                if NotEnforcingRule.applies(prepared) || prepared.openFromStatus == .authorized {
                    allowsEvery[r] = true
                } else if prepared.openFromStatus == .whitelist, let openFrom = prepared.policy.openFrom {
                    if openFrom.setting == .allAppConnectApps {
                        allowsAppConnect[r] = true
                    } else {
                        for id in openFrom.whitelist { if let s = senderIndex[id] { listing[s].append(Int32(r)) } }
                    }
                }
            }
            openFrom = OpenFromAnswers(allowsEvery: allowsEvery, allowsAppConnect: allowsAppConnect, listing: listing)
        }
        openURL = receivers.indices.map { r -> ShareRequest? in
            guard case .app(let id) = receivers[r], present[r] else { return nil }
            if id.isNativeMail { return nil }
            guard let scheme = schemeOf[id], let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)") else { return nil }
            return try? ShareRequest(channel: .openURL, url: url, document: FleetDevice.documentName)
        }
    }

    /// `senders[s]`'s row (`FleetMatrixRows/row(sender:only:)`).
    ///
    /// The sender's decisions on the targeted channels are made once per kind of receiver (listed?, AppConnect
    /// app?) and read from each distinct whitelist's receivers; where no row can throw, a receiver's Open From is
    /// read from ``openFrom``. The tests' oracle decides every cell on its own and throws where this throws
    /// (`MatrixRowOracle`, compared on random fleets).
    package func row(sender s: Int, only: FleetChannel?) throws(FleetError) -> FleetMatrixRow? {
        let sender = senders[s]
        guard device.isInstalled(sender) else { return nil }
        let columns = receiverIDs.count
        let targetedCount = FleetGraph.targetedChannels.count
        var row = FleetMatrixRow(channels: channels, columns: columns, only: only)
        let (senderPolicy, prepared) = device.side(for: sender)
        // The grid asked for (-1: a channel with no grid, such as keyboard: no cells).
        let wanted: Int? = only.map { channels.firstIndex(of: $0) ?? -1 }
        if canThrow {
            let probe = try! FleetRequest(from: sender, channel: .paste, target: sender)
            for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] { try device.check(senderPolicy, needs: channel.control, for: probe, on: channel) }
            if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil { _ = try device.decide(probe) }
        }
        if wanted == nil || wanted == -1 {
            row.keyboard = (Evaluator.decide(try! ShareRequest(channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard), prepared).outcome,
                            Evaluator.decide(try! ShareRequest(channel: .keyboard, target: .systemKeyboard), prepared).outcome)
            row.oneSided = FleetOneSided(copy: senderPolicy.policy.pasteboard == nil ? nil : Evaluator.decide(try! ShareRequest(channel: .copy), prepared),
                                         print: senderPolicy.policy.print == nil ? nil : Evaluator.decide(try! ShareRequest(channel: .print), prepared),
                                         saveAs: [], openInto: [])
        }
        guard wanted != -1 else { return row }
        let openFrom = try! ShareRequest(channel: .openFrom, source: sender)
        // Where no row can throw: the receivers whose Open From lets this sender in.
        var allows: [Bool] = []
        if let answers = self.openFrom {
            allows = answers.allowsEvery
            if isAppConnectApp[s] { for r in 0..<columns where answers.allowsAppConnect[r] { allows[r] = true } }
            for r in answers.listing[s] { allows[Int(r)] = true }
        }
        func receiverOutcome(_ r: Int) throws(FleetError) -> Outcome {
            if !allows.isEmpty { return allows[r] ? .allow : .deny }
            let (receiverPolicy, receiver) = sides[r]
            try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .documentInteraction, target: receiverIDs[r]))
            return Evaluator.decide(openFrom, receiver).outcome
        }
        // Each receiver's kind read from one flat array of words (no fact copied, nor retained, per cell), and
        // each kind's outcomes in one flat array: the first receiver of a kind decides them for the rest.
        let masks = targets[s].masks(count: (columns + 63) / 64)
        var kindOutcomes = [Outcome](repeating: .deny, count: self.kinds.kindCount * targetedCount)
        var kindKnown = [Bool](repeating: false, count: self.kinds.kindCount)
        var mailOutcomes = [Outcome](repeating: .deny, count: targetedCount)
        let own = senderColumn[s]
        for r in 0..<columns where present[r] && r != own {
            if wanted == nil || (0..<targetedCount).contains(wanted!) {
                let kind = masks.kind(of: r)
                // Native Mail is decided on its own.
                let mail = nativeMail[r]
                if mail || !kindKnown[kind] {
                    for c in 0..<targetedCount {
                        let outcome = Evaluator.decide(targeted[r][c], prepared).outcome
                        if mail { mailOutcomes[c] = outcome } else { kindOutcomes[kind * targetedCount + c] = outcome }
                    }
                    if !mail { kindKnown[kind] = true }
                }
                var receiverSays: Outcome? = nil
                for c in 0..<targetedCount where wanted == nil || wanted == c {
                    var outcome = mail ? mailOutcomes[c] : kindOutcomes[kind * targetedCount + c]
                    if authorized[r], receiverParts[c], outcome == .allow || outcome == .redirect {
                        if receiverSays == nil { receiverSays = try receiverOutcome(r) }
                        if receiverSays != .allow { outcome = receiverSays! }
                    }
                    row.set(grid: c, receiver: r, outcome)
                }
            }
            if wanted == nil || wanted == targetedCount, let request = openURL[r] {
                let decision = Evaluator.decide(request, prepared)
                var outcome = decision.outcome
                if let delivered = device.receiving(decision, channel: .openURL, request: request, from: sender), device.appConnectApps.contains(delivered) {
                    let (receiverPolicy, receiver) = device.side(for: delivered)
                    try device.check(receiverPolicy, needs: .openFrom, for: try! FleetRequest(from: sender, channel: .openURL, url: request.url))
                    let says = Evaluator.decide(openFrom, receiver).outcome
                    if says != .allow { outcome = says }
                }
                row.set(grid: targetedCount, receiver: r, outcome)
            }
        }
        return row
    }
}
