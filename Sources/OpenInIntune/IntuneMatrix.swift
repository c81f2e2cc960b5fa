import OpenInCore
import OpenInFleet
import OpenInKit

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
    package func matrixRows() -> FleetMatrixRows {
        // Native Mail is on every device and always outside: a column of its own unless the profile installs it.
        let mail: [FleetNode] = device.installed.contains(where: \.isNativeMail) ? [] : [.app(.mobileMail)]
        let receivers = device.installed.map(FleetNode.app) + mail + [.anyOtherApp]
        let rows = IntuneMatrixRows(index: self, receivers: receivers)
        return FleetMatrixRows(device: device.name, channels: rows.channels, senders: rows.senders, receivers: receivers, rows: rows)
    }
}

/// What an Intune device's matrix rows share: the senders (the policy-managed apps installed), the
/// receivers and each receiver's `open-url` URL, made once; every cell is the device's end-to-end decision.
struct IntuneMatrixRows: FleetMatrixRowMaker {
    package let index: IntuneDeviceIndex
    package let channels = FleetChannel.matrixChannels
    package let senders: [BundleID]
    package let receivers: [FleetNode]
    /// Per receiver, the URL an `open-url` cell opens (its first custom scheme), or `nil`.
    let openURL: [ShareURL?]
    /// An Intune decision never throws.
    package var canThrow: Bool { false }

    package init(index: IntuneDeviceIndex, receivers: [FleetNode]) {
        self.index = index
        senders = index.managed
        self.receivers = receivers
        let schemes = index.matrixSchemes()
        openURL = receivers.map { IntuneDeviceIndex.matrixURL(to: $0, schemes: schemes) }
    }

    package func row(sender s: Int, only: FleetChannel?) throws(FleetError) -> FleetMatrixRow? {
        let sender = senders[s]
        var row = FleetMatrixRow(channels: channels, columns: receivers.count, only: only)
        for (c, channel) in channels.enumerated() where only == nil || only == channel {
            for (r, receiver) in receivers.enumerated() {
                if let request = IntuneDeviceIndex.matrixRequest(channel, from: sender, to: receiver, url: openURL[r]) {
                    row.set(grid: c, receiver: r, index.decide(request).outcome)
                }
            }
        }
        row.keyboard = (index.decide(try! FleetRequest(from: sender, channel: .keyboard, target: FleetMatrix.thirdPartyKeyboard)).outcome,
                        index.decide(try! FleetRequest(from: sender, channel: .keyboard, target: .systemKeyboard)).outcome)
        let evaluator = IntuneEvaluator(context: index.context(for: sender))
        func outcomes(_ channel: LocationChannel) -> [(location: DataLocation, outcome: Outcome)] {
            channel.locations.map { ($0, evaluator.decide(try! LocationRequest(channel: channel, location: $0)).outcome) }
        }
        row.oneSided = FleetOneSided(copy: evaluator.decide(try! ShareRequest(channel: .copy)), print: evaluator.decide(try! ShareRequest(channel: .print)),
                                     saveAs: outcomes(.saveAs), openInto: outcomes(.openIntoOrgDocument))
        return row
    }
}

extension IntuneDeviceIndex {
    /// Each app's first custom scheme (not web, not `mailto`) in byte order on the device, found once
    /// (not a scan of the handlers per cell): the scheme a matrix's `open-url` cell tries.
    func matrixSchemes() -> [BundleID: String] {
        var schemes: [BundleID: String] = [:]
        for (scheme, app) in device.schemeHandlers {
            guard !ExactText.isOne(scheme, of: ["http", "https", "mailto"]) else { continue }
            if let known = schemes[app], !scheme.utf8.lexicographicallyPrecedes(known.utf8) { continue }
            schemes[app] = scheme
        }
        return schemes
    }

    /// The URL a matrix's `open-url` cell opens towards `receiver` (its first custom scheme), or `nil` when there is none.
    static func matrixURL(to receiver: FleetNode, schemes: [BundleID: String]) -> ShareURL? {
        guard case .app(let id) = receiver, !id.isNativeMail else { return nil }
        return schemes[id].flatMap { try? ShareURL("\($0)://report.pdf") }
    }

    /// The request a matrix cell decides, or `nil` when there is none (an app to itself, `open-url` to an app
    /// with no custom scheme or to any other app); `url` is the receiver's ``matrixURL(to:schemes:)``.
    static func matrixRequest(_ channel: FleetChannel, from sender: BundleID, to receiver: FleetNode, url: ShareURL?) -> FleetRequest? {
        switch receiver {
        case .app(let id) where IntuneBundleID.same(id, sender):
            return nil
        case .app(let id):
            if channel == .openURL { return url.flatMap { try? FleetRequest(from: sender, channel: .openURL, url: $0) } }
            return try? FleetRequest(from: sender, channel: channel, target: id, document: channel == .paste ? nil : "report.pdf")
        case .anyOtherApp:
            return channel == .openURL ? nil
                : try? FleetRequest(from: sender, channel: channel, target: BundleID.anyOtherApp, document: channel == .paste ? nil : "report.pdf")
        }
    }
}

extension FleetNode {
    /// The app's bundle ID; `nil` for "any other app".
    package var bundleID: BundleID? { if case .app(let id) = self { id } else { nil } }
}
