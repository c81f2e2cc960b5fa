@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet

/// The oracle of an AppConnect device's fast matrix rows (``AppConnectMatrixRows/row(sender:only:)``): a row
/// decided cell by cell, from the device alone, as ``FleetDevice/decide(_:)`` decides each request. Nothing is
/// made once and shared: no kinds of target, no whitelist's bit set, no per-device Open From answers, every
/// check made. It throws the error the fast row throws, at the same cell (receivers in order, then channels).
enum MatrixRowOracle {
    /// `senders[s]`'s row over `receivers`, for every grid (`only` `nil`), for `only`'s grid alone, or for none
    /// (`keyboard`: the keyboard and one-sided decisions alone); `nil` when the sender is not installed.
    static func row(_ device: FleetDevice, senders: [BundleID], receivers: [FleetNode], sender s: Int, only: FleetChannel?) throws(FleetError) -> FleetMatrixRow? {
        let sender = senders[s]
        guard device.isInstalled(sender) else { return nil }
        let channels = FleetChannel.matrixChannels
        let targetedChannels = FleetGraph.targetedChannels
        var row = FleetMatrixRow(channels: channels, columns: receivers.count, only: only)
        let (senderPolicy, prepared) = device.side(for: sender)
        // The sender's controls every targeted channel needs, checked before any cell (as the fast row checks them when a row can throw).
        let probe = try! FleetRequest(from: sender, channel: .paste, target: sender)
        for channel in [FleetChannel.documentInteraction, .dragAndDrop, .paste] { try device.check(senderPolicy, needs: channel.control, for: probe, on: channel) }
        if senderPolicy.policy.pasteboard == .secureCopy, device.facts.secureServicesAvailable == nil { _ = try device.decide(probe) }
        let wanted: Int? = only.map { channels.firstIndex(of: $0) ?? -1 }
        if wanted == nil || wanted == -1 {
            row.keyboard = (Evaluator.decide(try! ShareRequest(channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard), prepared).outcome,
                            Evaluator.decide(try! ShareRequest(channel: .keyboard, target: .systemKeyboard), prepared).outcome)
            row.oneSided = FleetOneSided(copy: senderPolicy.policy.pasteboard == nil ? nil : Evaluator.decide(try! ShareRequest(channel: .copy), prepared),
                                         print: senderPolicy.policy.print == nil ? nil : Evaluator.decide(try! ShareRequest(channel: .print), prepared),
                                         saveAs: [], openInto: [])
        }
        guard wanted != -1 else { return row }
        let openFrom = try! ShareRequest(channel: .openFrom, source: sender)
        let ids = receivers.map(device.bundleID(of:))
        // The receiver's Open From on a request that reaches it: a cell's outcome when it does not allow.
        func receiverSays(_ id: BundleID, checking request: FleetRequest) throws(FleetError) -> Outcome {
            let (receiverPolicy, receiver) = device.side(for: id)
            try device.check(receiverPolicy, needs: .openFrom, for: request)
            return Evaluator.decide(openFrom, receiver).outcome
        }
        for (r, receiver) in receivers.enumerated() {
            let id = ids[r]
            let present = if case .app(let app) = receiver { device.isInstalled(app) || app.isNativeMail } else { true }
            // The sender's own column (the first receiver that is the sender) has no cell.
            guard present, ids.firstIndex(of: sender) != r else { continue }
            for (c, channel) in targetedChannels.enumerated() where wanted == nil || wanted == c {
                let request = try! ShareRequest(channel: channel.senderChannel!, target: id, document: FleetDevice.documentName)
                var outcome = Evaluator.decide(request, prepared).outcome
                if device.appConnectApps.contains(id), channel.hasReceiverPart, outcome == .allow || outcome == .redirect {
                    let says = try receiverSays(id, checking: try! FleetRequest(from: sender, channel: .documentInteraction, target: id))
                    if says != .allow { outcome = says }
                }
                row.set(grid: c, receiver: r, outcome)
            }
            let c = targetedChannels.count
            guard wanted == nil || wanted == c, case .app(let app) = receiver, !app.isNativeMail, let scheme = device.customScheme(handledBy: app),
                let url = try? ShareURL("\(scheme)://\(FleetDevice.documentName)"), let request = try? ShareRequest(channel: .openURL, url: url, document: FleetDevice.documentName)
            else { continue }
            let decision = Evaluator.decide(request, prepared)
            var outcome = decision.outcome
            if let delivered = device.receiving(decision, channel: .openURL, request: request, from: sender), device.appConnectApps.contains(delivered) {
                let says = try receiverSays(delivered, checking: try! FleetRequest(from: sender, channel: .openURL, url: request.url))
                if says != .allow { outcome = says }
            }
            row.set(grid: c, receiver: r, outcome)
        }
        return row
    }
}
