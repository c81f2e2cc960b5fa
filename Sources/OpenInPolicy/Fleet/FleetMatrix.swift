/// A device's end-to-end outcomes at a glance: for each channel, every fleet app as sender × every
/// fleet app and "any other app" as receiver.
///
/// A cell is the end-to-end outcome of the request from the row's app to the column's; `nil` when
/// there is no such request: an app to itself, an app not installed on the device (on either side:
/// it has no documents there, and nothing reaches it), or `open-url` to an app that handles no
/// custom scheme on the device.
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
    /// - Complexity: O(apps² × channels) end-to-end decisions, each O(1).
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    public func matrix() throws(FleetError) -> FleetMatrix {
        let senders = fleet.apps.map(\.bundleID)
        let receivers = senders.map(FleetNode.app) + [.anyOtherApp]
        let channels = FleetChannel.matrixChannels
        var cells: [Outcome?] = []
        cells.reserveCapacity(channels.count * senders.count * receivers.count)
        for channel in channels {
            for sender in senders {
                for receiver in receivers {
                    guard let request = matrixRequest(channel, from: sender, to: receiver) else {
                        cells.append(nil)
                        continue
                    }
                    cells.append(try decide(request).outcome)
                }
            }
        }
        return FleetMatrix(device: name, channels: channels, senders: senders, receivers: receivers, cells: cells)
    }
}
