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
