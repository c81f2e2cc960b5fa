import OpenInPolicy
import OpenInReports

/// `fleet eval`: end-to-end decisions, one request from flags or a JSON Lines stream, on each device asked about.
enum FleetEval {
    static func run(_ requests: FleetCommand.EvalRequests, devices: [AnalyzedDevice], names: FleetAppNames, format: OutputFormat, explain: Bool, console: Console) throws(CLIError) -> ExitStatus {
        switch requests {
        case .flags(let from, let channel, let target, let url, let document, let location):
            let request: FleetRequest
            do throws(FleetError) {
                request = try FleetRecord.request(from: from, channel: channel, target: target, url: url, document: document, location: location)
            } catch {
                throw .invalidInput(error.message)
            }
            do throws(FleetAppNames.Unknown) { try names.check(request, flags: true) } catch { throw .invalidInput(error.message) }
            var decisions: [FleetDecision] = []
            for device in devices {
                do throws(FleetError) {
                    decisions.append(try device.decide(request))
                } catch {
                    throw .invalidInput(error.description)
                }
            }
            let pairs = Array(zip(decisions, devices))
            switch format {
            case .text:
                console.stdout.write(pairs.map { block($0.0, explain: explain, on: $0.1, notes: names.notes(request, device: $0.1.name)) }.joined(separator: "\n"))
            case .json:
                let records = pairs.map { JSONValue.object(record($0.0, id: nil, explain: explain, on: $0.1)) }
                console.stdout.write(JSONWriter.pretty(records.count == 1 ? records[0] : .array(JSONArray(records))) + "\n")
            case .jsonl:
                for (decision, device) in pairs { console.stdout.write(JSONWriter.compact(.object(record(decision, id: nil, explain: explain, on: device))) + "\n") }
            }
            return decisions.allSatisfy { $0.outcome == .allow } ? .success : .notAllowed
        case .stream(let path):
            let source = path == "-" ? console.stdin : try ByteSource.open(path: path, what: "request stream")
            defer { source.close() }
            return try stream(source, devices: devices, names: names, format: format, explain: explain, console: console)
        }
    }

    private static func stream(_ source: ByteSource, devices: [AnalyzedDevice], names: FleetAppNames, format: OutputFormat, explain: Bool, console: Console) throws(CLIError) -> ExitStatus {
        var lines = LineReader(source, what: "request stream", maxLength: RequestStream.defaultMaxLineLength)
        var count = 0, invalid = 0, notAllowed = 0
        var first = true
        if format == .json { console.stdout.write("[") }
        func emit(_ record: JSONObject, text: String) {
            switch format {
            case .jsonl: console.stdout.write(JSONWriter.compact(.object(record)) + "\n")
            case .json:
                console.stdout.write((first ? "\n" : ",\n") + JSONWriter.compact(.object(record)))
                first = false
            case .text: console.stdout.write(text)
            }
        }
        while let line = try lines.next(beforeWaiting: { console.stdout.flush() }) {
            count += 1
            let parsed: FleetRecord.Line
            switch line {
            case .tooLong:
                invalid += 1
                emit(errorRecord(count, id: nil, device: nil, "the line is longer than \(RequestStream.defaultMaxLineLength) bytes"),
                     text: "line \(count): error  the line is too long\n")
                continue
            case .text(let bytes):
                do throws(RequestLine.Failure) {
                    parsed = try FleetRecord.read(bytes)
                } catch {
                    invalid += 1
                    emit(errorRecord(count, id: error.id, device: nil, error.message), text: "line \(count): error  \(DecisionText.escaped(error.message))\n")
                    continue
                }
            }
            do throws(FleetAppNames.Unknown) {
                try names.check(parsed.request, flags: false)
            } catch {
                invalid += 1
                emit(errorRecord(count, id: parsed.id, device: nil, error.message), text: "line \(count): error  \(DecisionText.escaped(error.message))\n")
                continue
            }
            for device in devices {
                do throws(FleetError) {
                    let decision = try device.decide(parsed.request)
                    if decision.outcome != .allow { notAllowed += 1 }
                    let notes = names.notes(parsed.request, device: device.name).map { "; " + DecisionText.escaped($0) }.joined()
                    emit(record(decision, id: parsed.id, explain: explain, on: device), text: "line \(count) \(DecisionText.escaped(device.name)): " + summary(decision) + notes + "\n")
                } catch {
                    invalid += 1
                    emit(errorRecord(count, id: parsed.id, device: device.name, error.message),
                         text: "line \(count) \(DecisionText.escaped(device.name)): error  \(DecisionText.escaped(error.message))\n")
                }
            }
        }
        if format == .json { console.stdout.write(first ? "]\n" : "\n]\n") }
        if count == 0 {
            throw .invalidInput("the request stream \(source.name == "standard input" ? "on standard input" : "'\(source.name)'") is empty: write one JSON request per line")
        }
        if invalid > 0 { return .invalidInput }
        return notAllowed > 0 ? .notAllowed : .success
    }

    /// One decision's record: an AppConnect fleet's (``FleetRecord``), or Intune's.
    static func record(_ decision: FleetDecision, id: JSONValue?, explain: Bool, on device: AnalyzedDevice) -> JSONObject {
        if let fleet = device.analysis.intune { return IntuneFleetOutput.record(decision, id: id, explain: explain, fleet: fleet) }
        return FleetRecord.json(decision, id: id, explain: explain)
    }

    /// One decision's text block: an AppConnect fleet's, or Intune's.
    static func block(_ decision: FleetDecision, explain: Bool, on device: AnalyzedDevice, notes: [String] = []) -> String {
        if let fleet = device.analysis.intune { return IntuneFleetOutput.block(decision, explain: explain, fleet: fleet, notes: notes) }
        return block(decision, explain: explain, notes: notes)
    }

    static func errorRecord(_ line: Int, id: JSONValue?, device: String?, _ message: String) -> JSONObject {
        var members: [JSONObject.Member] = [.init("line", .number(JSONNumber(line)))]
        if let id { members.append(.init("id", id)) }
        if let device { members.append(.init("device", .string(device))) }
        members.append(.init("error", .string(message)))
        return JSONObject(members: members)
    }

    /// `deny  document-interaction from A to B  [sender RULE allow; receiver RULE deny]`.
    static func summary(_ decision: FleetDecision) -> String {
        var text = "\(decision.outcome)  \(describe(decision.request))"
        text += "  [sender \(decision.sender.rule) \(decision.sender.outcome)"
        if let receiver = decision.receiver { text += "; receiver \(receiver.rule) \(receiver.outcome)" }
        return text + "]"
    }

    static func describe(_ request: FleetRequest) -> String {
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

    static func side(_ label: String, app: BundleID, _ decision: Decision) -> String {
        let pad = String(repeating: " ", count: 10 - label.count)
        var text = "  \(label)\(pad)\(app): \(decision.outcome)  [\(decision.rule)] \(DecisionText.escaped(decision.reason))\n"
        if let audience = decision.audience { text += "            readable by \(audience == .allApps ? "all apps" : "AppConnect apps only")\n" }
        for callback in decision.callbacks { text += "            callback in \(app): \(DecisionText.describe(callback))\n" }
        return text
    }
}
