import OpenInPolicy

/// `fleet eval`'s records and text blocks, either vendor's.
public enum FleetEvalOutput {
    /// One decision's record: an AppConnect fleet's (``FleetRecord``), or Intune's.
    public static func record(_ decision: FleetDecision, id: JSONValue?, explain: Bool, on device: AnalyzedDevice) -> JSONObject {
        if let fleet = device.analysis.intune { return IntuneFleetOutput.record(decision, id: id, explain: explain, fleet: fleet) }
        return FleetRecord.json(decision, id: id, explain: explain)
    }

    /// One decision's text block: an AppConnect fleet's, or Intune's.
    public static func block(_ decision: FleetDecision, explain: Bool, on device: AnalyzedDevice, notes: [String] = []) -> String {
        if let fleet = device.analysis.intune { return IntuneFleetOutput.block(decision, explain: explain, fleet: fleet, notes: notes) }
        return block(decision, explain: explain, notes: notes)
    }

    /// The JSON record of line `line` of a fleet request stream that could not be decided (on `device`, when known).
    public static func errorRecord(_ line: Int, id: JSONValue?, device: String?, _ message: String) -> JSONObject {
        var members: [JSONObject.Member] = [.init("line", .number(JSONNumber(line)))]
        if let id { members.append(.init("id", id)) }
        if let device { members.append(.init("device", .string(device))) }
        members.append(.init("error", .string(message)))
        return JSONObject(members: members)
    }

    /// `deny  document-interaction from A to B  [sender RULE allow; receiver RULE deny]`.
    public static func summary(_ decision: FleetDecision) -> String {
        var text = "\(decision.outcome)  \(describe(decision.request))"
        text += "  [sender \(decision.sender.rule) \(decision.sender.outcome)"
        if let receiver = decision.receiver { text += "; receiver \(receiver.rule) \(receiver.outcome)" }
        return text + "]"
    }

    package static func describe(_ request: FleetRequest) -> String {
        var text = "\(request.channel) from \(request.from)"
        if let target = request.target { text += " to \(DecisionText.escaped(target.rawValue))" }
        if let url = request.url { text += " " + DecisionText.escaped(url.rawValue) }
        if let document = request.document { text += " (" + DecisionText.escaped(document) + ")" }
        return text
    }

    /// One decision as a block: the device and end-to-end outcome, then each side.
    static func block(_ decision: FleetDecision, explain: Bool, notes: [String] = []) -> String {
        var text = "device \(DecisionText.escaped(decision.device)): \(decision.outcome)"
        if decision.delivers, let to = decision.receiverApp { text += " (delivered to \(to))" }
        text += "\n  request   \(describe(decision.request))\n"
        for note in notes { text += "  note      \(DecisionText.escaped(note))\n" }
        text += side("sender", app: decision.request.from, decision.sender)
        if let receiver = decision.receiver, let app = decision.receiverApp {
            text += side("receiver", app: app, receiver)
        } else {
            text += "  receiver  none: \(receiverAbsence(decision))\n"
        }
        if explain {
            text += "  Why\n"
            for line in decision.senderPolicy.map(FleetRecord.provenanceLines) ?? [] { text += "    sender    \(DecisionText.escaped(line))\n" }
            for line in FleetRecord.senderInputs(decision) { text += "    sender    - \(DecisionText.escaped(line))\n" }
            if let receiver = decision.receiverPolicy {
                for line in FleetRecord.provenanceLines(receiver) { text += "    receiver  \(DecisionText.escaped(line))\n" }
                for line in FleetRecord.receiverInputs(decision) { text += "    receiver  - \(DecisionText.escaped(line))\n" }
            }
        }
        return text
    }

    static func receiverAbsence(_ decision: FleetDecision) -> String {
        if decision.request.channel == .keyboard { return "a keyboard extension is not an app receiving a document: the sender alone decides" }
        if !decision.delivers { return "nothing reaches another app" }
        if !decision.request.channel.hasReceiverPart { return "the receiver does not decide \(decision.request.channel)" }
        guard let app = decision.receiverApp else { return "the receiving app is not known" }
        return "\(app) is not an authorized AppConnect app on this device"
    }

    package static func side(_ label: String, app: BundleID, _ decision: Decision) -> String {
        let pad = String(repeating: " ", count: 10 - label.count)
        var text = "  \(label)\(pad)\(app): \(decision.outcome)  [\(decision.rule)] \(DecisionText.escaped(decision.reason))\n"
        if let audience = decision.audience { text += "            readable by \(audience == .allApps ? "all apps" : "AppConnect apps only")\n" }
        for callback in decision.callbacks { text += "            callback in \(app): \(DecisionText.describe(callback))\n" }
        return text
    }
}
