import OpenInCore
import OpenInFleet
import OpenInKit

extension FleetDevice {
    /// Decides `request` end to end on this device.
    ///
    /// The sender's part is its effective policy's single-app decision; the receiver's part is the
    /// receiving app's Open From decision with the sender as source, when the sender lets the
    /// document go to an authorized AppConnect app on a channel with a receiving side
    /// (``FleetChannel/hasReceiverPart``). The outcome is allowed only if both allow.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs
    ///   (neither the container policy nor the global policy sets it), or a secure copy on a device
    ///   whose profile does not say whether secure services are available.
    public func decide(_ request: FleetRequest) throws(FleetError) -> FleetDecision {
        if let location = request.locationRequest {
            throw FleetError("\(location.channel) is Intune's \(location.channel.setting): AppConnect has no such control, so an AppConnect fleet cannot decide it (Rules/intune/save-as-and-open-into.md)",
                             file: fleet.file)
        }
        return try decide(request, sender: side(for: request.from), openFrom: nil, receiver: side(for:))
    }

    /// Decides `request` end to end with the sender's side given and `receiver` looking up a receiving app's:
    /// what ``decide(_:)`` does, for a caller that has the sides at hand (the path finder keeps one per node).
    /// `openFrom`, when given, is the Open From request with `request.from` as its source.
    @inline(__always)
    package func decide(_ request: FleetRequest, sender: FleetSide, openFrom: ShareRequest?, receiver: (BundleID) -> FleetSide) throws(FleetError) -> FleetDecision {
        let senderPolicy = sender.policy
        try check(senderPolicy, needs: request.channel.control, for: request)
        if request.channel == .paste || request.channel == .copy, senderPolicy.policy.pasteboard == .secureCopy, facts.secureServicesAvailable == nil {
            throw FleetError("a \(request.channel) from \(request.from) on \(JSONWriter.quoted(name)) is a secure copy, and the device profile does not say whether secure services are available: set devices.\(name).secureServicesAvailable to true or false",
                             file: fleet.file, line: profile.sources.line)
        }
        let sender = Evaluator.decide(request.senderRequest!, sender.prepared)
        let delivers = sender.outcome == .allow || sender.outcome == .redirect
        let receiverApp = receiving(sender, channel: request.channel, request: request.senderRequest!, from: request.from)
        guard request.channel.hasReceiverPart, delivers, let receiving = receiverApp, appConnectApps.contains(receiving) else {
            return FleetDecision(device: name, request: request, outcome: sender.outcome, sender: sender, receiver: nil,
                                 receiverApp: receiverApp, senderPolicy: senderPolicy, receiverPolicy: nil)
        }
        let (receiverPolicy, receiverPrepared) = receiver(receiving)
        try check(receiverPolicy, needs: .openFrom, for: request)
        let receiver = Evaluator.decide(openFrom ?? (try! ShareRequest(channel: .openFrom, source: request.from)), receiverPrepared)
        let outcome = receiver.outcome == .allow ? sender.outcome : receiver.outcome
        return FleetDecision(device: name, request: request, outcome: outcome, sender: sender, receiver: receiver,
                             receiverApp: receiving, senderPolicy: senderPolicy, receiverPolicy: receiverPolicy)
    }

    /// The app that receives what the sender's decision lets go, or `nil`: the copy's target for a
    /// `paste`; the sender's target; and for an `open-url` that the sender keeps to itself (one of its
    /// own schemes, which is not Open In), the app the device routes the scheme to when that is another
    /// app (Rules/fleet/fleet.md, `fleet.own-scheme-elsewhere`: iOS delivers a URL to the scheme's
    /// handler, whoever declares the scheme). Every verb asks this one place.
    @inline(__always)
    package func receiving(_ sender: Decision, channel: FleetChannel, request: ShareRequest, from: BundleID) -> BundleID? {
        guard sender.outcome == .allow || sender.outcome == .redirect else { return nil }
        if channel == .paste { return request.target }
        if let target = sender.target { return target }
        guard channel == .openURL, let url = request.url, !url.isMailto, let handler = facts.handler(forScheme: url.scheme), handler != from else { return nil }
        return handler
    }

    /// Decides a request given as strings.
    /// - Throws: ``FleetError`` for an invalid request (unknown channel, malformed bundle ID or URL,
    ///   a field the channel needs or does not take) or a control not set.
    public func decide(from: String, channel: String, target: String? = nil, url: String? = nil, document: String? = nil, location: String? = nil) throws(FleetError) -> FleetDecision {
        let request: FleetRequest
        let fleetChannel = try FleetChannel(parsing: channel)
        do throws(InputError) {
            request = try FleetRequest(from: try BundleID(from), channel: fleetChannel, target: try target.map { text throws(InputError) in try BundleID(text) },
                                       url: try url.map { text throws(InputError) in try ShareURL(text) }, document: document, location: location)
        } catch {
            throw FleetError(error.description)
        }
        return try decide(request)
    }

    /// Refuses a decision that needs `control` when neither the app's container policy nor the
    /// global policy sets it, naming the line of the policy that should set it and the channel
    /// that needs it (`channel`, when the request given is only a probe for the app).
    package func check(_ policy: EffectivePolicy, needs control: FleetControl?, for request: FleetRequest, on channel: FleetChannel? = nil) throws(FleetError) {
        guard let control, policy.source(of: control) == .notSet else { return }
        let container: String
        var line = fleet.global.controls.sources.line
        if case .containerPolicy(let name, _) = policy.authorization {
            let policyLine = fleet.containerPolicies.first { ExactText.same($0.name, name) }?.line
            container = "its container policy \(JSONWriter.quoted(name))\(policyLine.map { " (line \($0))" } ?? "")"
            line = policyLine ?? line
        } else {
            container = "a container policy (none applies to it here)"
        }
        let global = fleet.global.controls.sources.line.map { "the global policy (line \($0))" } ?? "the global policy"
        let named = channel ?? request.channel
        let role = policy.app == request.from ? "sends on \(named)" : "receives from \(request.from) on \(named), so its Open From decides"
        throw FleetError("\(policy.app) \(role) on the device \(JSONWriter.quoted(name)), and \(control.rawValue) is set by neither \(container) nor \(global): set it in one of them (no default is invented)",
                         file: fleet.file, line: line)
    }
}
