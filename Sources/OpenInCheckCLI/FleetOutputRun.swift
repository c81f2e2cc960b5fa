import OpenInPolicy
import OpenInReports

extension FleetOutput {
    static func fail(_ error: FleetError) -> CLIError { .invalidInput(error.description) }

    /// `fleet matrix` on devices of either vendor: every row made once before anything is printed (an
    /// error leaves no half-printed matrix), then each grid's rows made again as they are printed, so no
    /// matrix is ever held whole: memory O(apps) for a row plus the device's tables, not O(apps²).
    static func matrix(_ devices: [AnalyzedDevice], format: FleetCommand.MatrixFormat, console: Console) throws(CLIError) -> ExitStatus {
        let matrices = devices.map { $0.matrixRows() }
        do throws(FleetError) {
            for matrix in matrices { try matrix.check() }
            try print(matrices, format: format, to: console.stdout)
        } catch {
            throw fail(error)
        }
        return .success
    }

    // MARK: paths

    /// The `--from` value that asks for every app: each fleet app installed on the device, in file order.
    static let everyApp = ReportSubject.everyApp

    /// `fleet paths` on a fleet of either vendor: one block (text) or record (JSON) per device and starting app,
    /// each written as soon as it is made, so the output of `--from all` is never held whole (memory: the
    /// device's graph, every app's search result, and one app's paths at a time).
    static func paths(_ devices: [AnalyzedDevice], maxHops: Int?, writer: PathsWriter) throws(CLIError) -> ExitStatus {
        var writer = writer
        /// Each search of `device` (the one app's, or every starting app's over one graph), given to `body` in turn.
        func searches(_ device: AnalyzedDevice, _ body: (FleetReach) throws(FleetError) -> Void) throws(CLIError) {
            do throws(FleetError) {
                if let app = writer.app { try body(try device.reach(from: app, maxHops: maxHops)) } else { try device.forEachReach(maxHops: maxHops, body) }
            } catch {
                throw fail(error)
            }
        }
        if writer.format == .markdown {
            // Markdown leads with every device's counts: a first pass searches without deciding a hop.
            for device in devices { try searches(device) { (reach) throws(FleetError) in writer.count(device, app: reach.from, reach) } }
            writer.writeHeader()
        }
        for device in devices {
            try searches(device) { (reach) throws(FleetError) in
                // Text and JSON from each search's tree, each hop written once; the report formats decide only the hops they show.
                if writer.format.report != nil { try writer.emitReport(device, app: reach.from, reach) } else { try writer.emit(device, app: reach.from, reach: reach) }
            }
        }
        return writer.finish() ? .notAllowed : .success
    }

    // MARK: lint

    /// Prints findings (an AppConnect fleet's, or Intune policies'); `checks` are every check that made them (SARIF's rules).
    static func lint(_ findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)],
                     file: String, format: FleetCommand.FleetLintFormat, console: Console) -> ExitStatus {
        let counts = (findings.filter { $0.severity == .error }.count, findings.filter { $0.severity == .warning }.count, findings.filter { $0.severity == .info }.count)
        switch format {
        case .json:
            let records: [JSONValue] = findings.map { finding in
                var members: [JSONObject.Member] = [.init("code", .string(finding.code)), .init("name", .string(finding.name)),
                                                    .init("severity", .string(finding.severity.rawValue)), .init("file", .string(finding.file ?? file))]
                if let line = finding.line { members.append(.init("line", .number(JSONNumber(line)))) }
                if let device = finding.device { members.append(.init("device", .string(device))) }
                members += [.init("message", .string(finding.message)), .init("fix", .string(finding.fix))]
                return .object(JSONObject(members: members))
            }
            let summary = JSONObject(members: [.init("errors", .number(JSONNumber(counts.0))), .init("warnings", .number(JSONNumber(counts.1))), .init("info", .number(JSONNumber(counts.2)))])
            console.stdout.write(JSONWriter.pretty(.object(JSONObject(members: [.init("file", .string(file)), .init("findings", .array(JSONArray(records))), .init("summary", .object(summary))]))) + "\n")
        case .text:
            var text = ""
            for finding in findings {
                let place = DecisionText.escaped(finding.file ?? file) + (finding.line.map { ":\($0)" } ?? "")
                let device = finding.device.map { " (device \(DecisionText.escaped($0)))" } ?? ""
                text += "\(place): \(finding.severity.rawValue) \(finding.code) \(finding.name)\(device): \(DecisionText.escaped(finding.message, backslash: false))\n"
                text += "    fix: \(DecisionText.escaped(finding.fix, backslash: false))\n"
            }
            text += "\(counts.0) error\(counts.0 == 1 ? "" : "s"), \(counts.1) warning\(counts.1 == 1 ? "" : "s"), \(counts.2) info\n"
            console.stdout.write(text)
        case .markdown:
            let rows = findings.map { finding in
                [finding.severity.rawValue, MarkdownText.code(finding.code) + " " + finding.name,
                 MarkdownText.code((finding.file ?? file) + (finding.line.map { ":\($0)" } ?? "")) + (finding.device.map { " (device " + MarkdownText.code($0) + ")" } ?? ""),
                 MarkdownText.cell(finding.message), MarkdownText.cell(finding.fix)]
            }
            console.stdout.write(MarkdownText.table(["severity", "check", "where", "what", "fix"], rows))
            console.stdout.write("\n\(counts.0) error\(counts.0 == 1 ? "" : "s"), \(counts.1) warning\(counts.1 == 1 ? "" : "s"), \(counts.2) info\n")
        case .github:
            for finding in findings {
                let kind: GitHubAnnotation.Kind = switch finding.severity {
                case .error: .error
                case .warning: .warning
                case .info: .notice
                }
                let device = finding.device.map { "device \($0): " } ?? ""
                console.stdout.write(GitHubAnnotation.line(kind, file: finding.file ?? file, line: finding.line, title: "\(finding.code) \(finding.name)",
                                                           message: "\(device)\(finding.message)\nfix: \(finding.fix)"))
            }
            console.stdout.write("\(counts.0) error\(counts.0 == 1 ? "" : "s"), \(counts.1) warning\(counts.1 == 1 ? "" : "s"), \(counts.2) info\n")
        case .sarif:
            let level = { (severity: FleetFinding.Severity) in
                switch severity {
                case .error: "error"
                case .warning: "warning"
                case .info: "note"
                }
            }
            let rules = checks.map { SARIFLog.Rule(id: $0.code, name: $0.name, summary: $0.summary, level: level($0.severity)) }
            let results = findings.map { finding in
                let device = finding.device.map { "device \($0): " } ?? ""
                return SARIFLog.Result(ruleID: finding.code, ruleIndex: checks.firstIndex { ExactText.same($0.code, finding.code) }, level: level(finding.severity),
                                       message: device + finding.message, fix: finding.fix, file: finding.file ?? file, line: finding.line, column: nil, keyPath: finding.keyPath)
            }
            console.stdout.write(JSONWriter.pretty(.object(SARIFLog.log(rules: rules, results: results))) + "\n")
        }
        // As `lint`: findings at warning level or above exit 2; 1 is kept for input that cannot be read.
        return counts.0 + counts.1 > 0 ? .notAllowed : .success
    }

    // MARK: diff

    static func diff(old: Fleet, new: Fleet, device: String?, format: FleetCommand.PathsFormat, console: Console) throws(CLIError) -> ExitStatus {
        let changes: [FleetChange]
        do throws(FleetError) { changes = try FleetDiff.compare(old: old, new: new, device: device) } catch { throw fail(error) }
        switch format {
        case .json:
            let records: [JSONValue] = changes.map { change in
                .object(JSONObject(members: [.init("device", .string(change.device)), .init("kind", .string(change.kind.rawValue)),
                                             .init("change", .string(change.opened ? "opened" : "closed")), .init("subject", .string(change.subject)),
                                             .init("detail", .string(change.detail))]))
            }
            console.stdout.write(JSONWriter.pretty(.array(JSONArray(records))) + "\n")
        case .text, .markdown, .sarif, .dot:  // the report formats go through LeakDiff
            var text = ""
            for change in changes {
                text += "\(change.opened ? "+" : "-") \(DecisionText.escaped(change.device)) \(change.kind.rawValue) \(change.opened ? "opened" : "closed"): \(DecisionText.escaped(change.subject))  (\(DecisionText.escaped(change.detail)))\n"
            }
            let opened = changes.filter(\.opened).count
            text += "\(opened) opened, \(changes.count - opened) closed\n"
            console.stdout.write(text)
        }
        return changes.contains(where: \.opened) ? .notAllowed : .success
    }
}
