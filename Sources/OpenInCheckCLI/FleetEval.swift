import OpenInPolicy
import OpenInReports

/// `fleet eval`: one request from flags, or a JSON Lines stream, decided end to end on each device asked about.
struct FleetEvalCommand: FleetSubverb {
    /// Where the requests come from.
    enum Requests: Sendable {
        case flags(from: String, channel: String, target: String?, url: String?, document: String?, location: String?)
        case stream(String)
    }

    static let name = "eval"
    static let summary = "Decide requests end to end, the sender's part and the receiver's."
    static let usage = [
        "--fleet FILE [--device NAME] --from ID --channel CHANNEL [--target ID] [--url URL] [--location LOCATION] [--explain]",
        "--fleet FILE [--device NAME] (REQUESTS.jsonl | -)", "--fleet INTUNE.json --devices FILE …",
    ]
    static let details = """
        Decide requests end to end: the sender's part (its rule, outcome and
        callbacks, in the sender) and the receiver's part (its Open From rule and
        callbacks, in the receiver, when the receiver is an authorized AppConnect
        app and the channel hands it a document; null otherwise). The outcome is
        allowed only if both allow. paste is a copy made in the from app, pasted
        into the target: the from app's pasteboard policy decides it. copy and print
        are the from app's own decision (copy's audience says who may paste it);
        save-as and open-into-org-document name a --location and are Intune's only
        (an AppConnect fleet has no such control: an error).
        Request line: {"id"?, "from", "channel", "target"?, "url"?, "document"?, "location"?}.
        Record: {"id"?, "device", "from", "channel", "target"?, "url"?, "location"?, "outcome",
        "to"?, "sender": {"app", "rule", "outcome", "audience"?, "callbacks",
        "reason", "dummyFileName"?}, "receiver": {…} | null, "explanation"?};
        an invalid line gives {"line", "id"?, "device"?, "error"}.
        """
    static let options: [FleetOption] = [.fleet, .device, .from, .channel, .target, .url, .document, .location, .explain, .format, .devices, .assumeAssigned, .conflicts]
    static func formats(_ reporters: ReporterRegistry) -> [String] { OutputFormat.allCases.map(\.rawValue) }

    let input: FleetInput, requests: Requests, format: OutputFormat, explain: Bool

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options, operands: true)
        switch (options.value("--channel"), options.positionals.count) {
        case (let channel?, 0):
            guard let from = options.value("--from") else { throw UsageError("missing '--from BUNDLE_ID': give the sending app", verb: "fleet") }
            requests = .flags(from: from, channel: channel, target: options.value("--target"), url: options.value("--url"), document: options.value("--document"),
                              location: options.value("--location"))
        case (nil, 1):
            if let flag = ["--from", "--target", "--url", "--document", "--location"].first(where: { options.value($0) != nil }) {
                throw UsageError("'\(flag)' describes one request given with --channel; a stream's lines name their own", verb: "fleet")
            }
            requests = .stream(options.positionals[0])
        case (nil, 0):
            throw UsageError("no request given: give one with --from and --channel, or a JSON Lines stream (a file, or - for standard input)", verb: "fleet")
        default:
            throw UsageError("give one request with --channel or one stream, not both or more (unexpected argument '\(options.positionals.last!)')", verb: "fleet")
        }
        let isFlags: Bool = if case .flags = requests { true } else { false }
        format = try OutputFormat.parse(options, default: isFlags ? .text : .jsonl, verb: "fleet")
        explain = options.has("--explain")
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let analysis = try input.load(console).analysis
        return try FleetEval.run(requests, devices: try input.devices(analysis, console), names: input.names(analysis), format: format, explain: explain, console: console)
    }
}

/// `fleet eval`'s decisions, for `fleet eval` and for `eval` on Intune policies.
enum FleetEval {
    static func run(_ requests: FleetEvalCommand.Requests, devices: [AnalyzedDevice], names: FleetAppNames, format: OutputFormat, explain: Bool, console: Console) throws(CLIError) -> ExitStatus {
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
                do throws(FleetError) { decisions.append(try device.decide(request)) } catch { throw .invalidInput(error.description) }
            }
            let pairs = Array(zip(decisions, devices))
            switch format {
            case .text:
                console.stdout.write(pairs.map { FleetEvalOutput.block($0.0, explain: explain, on: $0.1, notes: names.notes(request, device: $0.1.name)) }.joined(separator: "\n"))
            case .json:
                let records = pairs.map { JSONValue.object(FleetEvalOutput.record($0.0, id: nil, explain: explain, on: $0.1)) }
                console.stdout.write(JSONWriter.pretty(records.count == 1 ? records[0] : .array(JSONArray(records))) + "\n")
            case .jsonl:
                for (decision, device) in pairs { console.stdout.write(JSONWriter.compact(.object(FleetEvalOutput.record(decision, id: nil, explain: explain, on: device))) + "\n") }
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
                emit(FleetEvalOutput.errorRecord(count, id: nil, device: nil, "the line is longer than \(RequestStream.defaultMaxLineLength) bytes"),
                     text: "line \(count): error  the line is too long\n")
                continue
            case .text(let bytes):
                do throws(RequestLine.Failure) {
                    parsed = try FleetRecord.read(bytes)
                } catch {
                    invalid += 1
                    emit(FleetEvalOutput.errorRecord(count, id: error.id, device: nil, error.message), text: "line \(count): error  \(DecisionText.escaped(error.message))\n")
                    continue
                }
            }
            do throws(FleetAppNames.Unknown) {
                try names.check(parsed.request, flags: false)
            } catch {
                invalid += 1
                emit(FleetEvalOutput.errorRecord(count, id: parsed.id, device: nil, error.message), text: "line \(count): error  \(DecisionText.escaped(error.message))\n")
                continue
            }
            for device in devices {
                do throws(FleetError) {
                    let decision = try device.decide(parsed.request)
                    if decision.outcome != .allow { notAllowed += 1 }
                    let notes = names.notes(parsed.request, device: device.name).map { "; " + DecisionText.escaped($0) }.joined()
                    emit(FleetEvalOutput.record(decision, id: parsed.id, explain: explain, on: device), text: "line \(count) \(DecisionText.escaped(device.name)): " + FleetEvalOutput.summary(decision) + notes + "\n")
                } catch {
                    invalid += 1
                    emit(FleetEvalOutput.errorRecord(count, id: parsed.id, device: device.name, error.message),
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
}
