extension IntuneFleet {
    /// The device's end-to-end outcomes at a glance, as ``FleetDevice/matrix()`` gives them for a fleet:
    /// senders are the installed apps a policy targets, receivers every installed app, native Mail and
    /// "any other app"; `open-url` is tried on each receiver's first custom scheme (in byte order).
    /// - Complexity: O(apps² × channels) end-to-end decisions, each O(1) in the number of apps.
    /// - Throws: ``FleetError`` for an unknown device.
    public func matrix(device name: String) throws(FleetError) -> FleetMatrix {
        try index(device: name).matrixRows().matrix()
    }
}

extension IntuneDeviceIndex {
    /// The device's matrix, made one sender's row at a time (`FleetMatrixRows`).
    func matrixRows() -> FleetMatrixRows {
        let senders = managed
        // Native Mail is on every device and always outside: a column of its own unless the profile installs it.
        let mail: [FleetNode] = device.installed.contains(where: \.isNativeMail) ? [] : [.app(.mobileMail)]
        let receivers = device.installed.map(FleetNode.app) + mail + [.anyOtherApp]
        let channels = FleetChannel.matrixChannels
        // Each app's first custom scheme in byte order, found once (not a scan of the handlers per cell).
        var schemeOf: [BundleID: String] = [:]
        for (scheme, app) in device.schemeHandlers {
            guard !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) else { continue }
            if let known = schemeOf[app], !scheme.utf8.lexicographicallyPrecedes(known.utf8) { continue }
            schemeOf[app] = scheme
        }
        let openURL: [ShareURL?] = receivers.map { node in
            guard case .app(let id) = node else { return nil }
            if id.isNativeMail { return nil }
            return schemeOf[id].flatMap { try? ShareURL("\($0)://report.pdf") }
        }
        var rows = FleetMatrixRows(device: device.name, channels: channels, senders: senders, receivers: receivers) { (s, only) throws(FleetError) in
            let sender = senders[s]
            var row = FleetMatrixRow(channels: channels, columns: receivers.count, only: only)
            for (c, channel) in channels.enumerated() where only == nil || only == channel {
                for (r, receiver) in receivers.enumerated() {
                    let request: FleetRequest?
                    switch receiver {
                    case .app(let id) where IntuneBundleID.same(id, sender):
                        request = nil
                    case .app:
                        if channel == .openURL {
                            request = openURL[r].flatMap { try? FleetRequest(from: sender, channel: .openURL, url: $0) }
                        } else {
                            request = try? FleetRequest(from: sender, channel: channel, target: receiver.bundleID!, document: channel == .paste ? nil : "report.pdf")
                        }
                    case .anyOtherApp:
                        request = channel == .openURL ? nil
                            : try? FleetRequest(from: sender, channel: channel, target: CrossVendorDiff.anyOtherApp, document: channel == .paste ? nil : "report.pdf")
                    }
                    if let request { row.set(grid: c, receiver: r, self.decide(request).outcome) }
                }
            }
            row.keyboard = (self.decide(try! FleetRequest(from: sender, channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard)).outcome,
                            self.decide(try! FleetRequest(from: sender, channel: .keyboard, target: .systemKeyboard)).outcome)
            let evaluator = IntuneEvaluator(context: self.context(for: sender))
            func outcomes(_ channel: IntuneLocationChannel) -> [(location: IntuneDataLocation, outcome: Outcome)] {
                channel.locations.map { ($0, evaluator.decide(try! IntuneLocationRequest(channel: channel, location: $0)).outcome) }
            }
            row.oneSided = FleetOneSided(copy: evaluator.decide(try! ShareRequest(channel: .copy)), print: evaluator.decide(try! ShareRequest(channel: .print)),
                                         saveAs: outcomes(.saveAs), openInto: outcomes(.openIntoOrgDocument))
            return row
        }
        rows.canThrow = false
        return rows
    }
}

extension FleetNode {
    /// The app's bundle ID; `nil` for "any other app".
    var bundleID: BundleID? { if case .app(let id) = self { id } else { nil } }
}
