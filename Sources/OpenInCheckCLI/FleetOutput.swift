import OpenInPolicy

/// `fleet matrix`, `paths`, `lint` and `diff`: what they print.
enum FleetOutput {
    static func fail(_ error: FleetError) -> CLIError { .invalidInput(error.description) }

    // MARK: matrix

    /// `fleet matrix` on devices of either vendor: every row made once before anything is printed (an
    /// error leaves no half-printed matrix), then each grid's rows made again as they are printed, so no
    /// matrix is ever held whole: memory O(apps) for a row plus the device's tables, not O(apps²).
    static func matrix(_ devices: [AnalyzedDevice], format: FleetCommand.MatrixFormat, console: Console) throws(CLIError) -> ExitStatus {
        let matrices = devices.map { $0.matrixRows() }
        do throws(FleetError) {
            for matrix in matrices { try matrix.check() }
            try print(matrices, format: format, console: console)
        } catch {
            throw fail(error)
        }
        return .success
    }

    /// Prints matrices row by row: one sender's row of one grid in memory at a time.
    static func print(_ matrices: [FleetMatrixRows], format: FleetCommand.MatrixFormat, console: Console) throws(FleetError) {
        let output = console.stdout
        switch format {
        case .json:
            output.write("[")
            for (index, matrix) in matrices.enumerated() {
                output.write(index == 0 ? "\n" : ",\n")
                output.write("{\"device\": \(JSONWriter.quoted(matrix.device)), \"senders\": [\(matrix.senders.map { JSONWriter.quoted($0.rawValue) }.joined(separator: ", "))],\n")
                output.write(" \"receivers\": [\(matrix.receivers.map { JSONWriter.quoted($0.description) }.joined(separator: ", "))],\n \"channels\": {")
                for (c, channel) in matrix.channels.enumerated() {
                    output.write("\(c == 0 ? "" : ",")\n  \(JSONWriter.quoted(channel.rawValue)): [")
                    // Each row written as bytes: a cell is one of six tokens.
                    var row: [UInt8] = []
                    for s in matrix.senders.indices {
                        let made = try matrix.row(sender: s, only: channel)
                        row += s == 0 ? jsonRowStart : jsonRowNext
                        for r in matrix.receivers.indices {
                            if r > 0 { row.append(UInt8(ascii: ",")) }
                            row += jsonCell(made?.outcome(grid: c, receiver: r))
                        }
                        row.append(UInt8(ascii: "]"))
                        if row.count >= 1 << 16 {
                            row.withUnsafeBufferPointer { output.write(bytes: $0) }
                            row.removeAll(keepingCapacity: true)
                        }
                    }
                    row.withUnsafeBufferPointer { output.write(bytes: $0) }
                    output.write("]")
                }
                // Per sender: typing with a third-party keyboard, then with the system keyboard.
                output.write("},\n \"keyboard\": [")
                for s in matrix.senders.indices {
                    let keyboard = try matrix.row(sender: s, only: .keyboard)?.keyboard
                    let pair = [keyboard?.thirdParty, keyboard?.system].map { $0.map { "\"\($0.rawValue)\"" } ?? "null" }
                    output.write((s == 0 ? "\n   [" : ",\n   [") + pair.joined(separator: ",") + "]")
                }
                // Per sender: the decisions no receiver takes part in.
                output.write("],\n \"oneSided\": [")
                for s in matrix.senders.indices {
                    let one = try matrix.row(sender: s, only: .keyboard)?.oneSided ?? .none
                    output.write((s == 0 ? "\n   " : ",\n   ") + JSONWriter.compact(.object(oneSidedJSON(one))))
                }
                output.write("]}")
            }
            output.write("\n]\n")
        case .text, .markdown:
            for (index, matrix) in matrices.enumerated() {
                if index > 0 { output.write("\n") }
                if format == .text { try text(matrix, output) } else { try markdown(matrix, output) }
            }
        }
    }

    static let jsonRowStart = Array("\n   [".utf8), jsonRowNext = Array(",\n   [".utf8)
    /// Each outcome as a JSON string, and `null` (no request).
    static let jsonCells: [[UInt8]] = Outcome.allCases.map { Array("\"\($0.rawValue)\"".utf8) } + [Array("null".utf8)]

    /// A cell as JSON: the outcome's raw value quoted, or `null`.
    @inline(__always) static func jsonCell(_ outcome: Outcome?) -> [UInt8] {
        jsonCells[cellIndex(outcome)]
    }

    /// The position of `outcome` in `Outcome.allCases`; `allCases.count` for no request.
    @inline(__always) static func cellIndex(_ outcome: Outcome?) -> Int {
        guard let outcome else { return cellCount }
        return outcomeIndex[outcome]!
    }
    static let cellCount = Outcome.allCases.count
    static let outcomeIndex: [Outcome: Int] = Dictionary(uniqueKeysWithValues: Outcome.allCases.enumerated().map { ($1, $0) })

    /// Each cell as the text grid shows it after the two spaces before it, padded to five (``cell(_:)``), and for no request.
    static let textCells: [[UInt8]] = (Outcome.allCases.map(Optional.some) + [nil]).map { Array(("  " + cell($0).padding(5)).utf8) }

    /// `channel`'s cells in `senders[s]`'s row, by receiver (`nil` everywhere for a sender not installed).
    static func grid(_ matrix: FleetMatrixRows, _ channel: FleetChannel, sender s: Int) throws(FleetError) -> (Int) -> Outcome? {
        guard let row = try matrix.row(sender: s, only: channel), let c = matrix.channels.firstIndex(of: channel) else { return { _ in nil } }
        return { row.outcome(grid: c, receiver: $0) }
    }

    /// A cell in a grid: `allow`, `deny`, `dummy` (substitute-dummy-file), `redir`, `encr` (deliver-encrypted), `-` (no request).
    static func cell(_ outcome: Outcome?) -> String {
        switch outcome {
        case nil: "-"
        case .allow: "allow"
        case .deny: "deny"
        case .substituteDummyFile: "dummy"
        case .redirect: "redir"
        case .deliverEncrypted: "encr"
        }
    }

    /// A sender's one-sided decisions as JSON: `{"copy": {"outcome", "audience"?} | null, "print": OUTCOME | null,
    /// "save-as"?: {LOCATION: OUTCOME}, "open-into-org-document"?: {LOCATION: OUTCOME}}`.
    static func oneSidedJSON(_ one: FleetOneSided) -> JSONObject {
        var copy: JSONValue = .null
        if let decision = one.copy {
            var members: [JSONObject.Member] = [.init("outcome", .string(decision.outcome.rawValue))]
            if let audience = decision.audience { members.append(.init("audience", .string(audience.rawValue))) }
            copy = .object(JSONObject(members: members))
        }
        var members: [JSONObject.Member] = [.init("copy", copy), .init("print", one.print.map { .string($0.outcome.rawValue) } ?? .null)]
        for (name, outcomes) in [("save-as", one.saveAs), ("open-into-org-document", one.openInto)] where !outcomes.isEmpty {
            members.append(.init(name, .object(JSONObject(members: outcomes.map { .init($0.location.rawValue, .string($0.outcome.rawValue)) }))))
        }
        return JSONObject(members: members)
    }

    /// `allow: oneDriveForBusiness, sharePoint; deny: box, other`: the locations grouped by outcome, in Graph's order.
    static func byOutcome(_ outcomes: [(location: IntuneDataLocation, outcome: Outcome)]) -> String {
        var groups: [(Outcome, [String])] = []
        for (location, outcome) in outcomes {
            if let index = groups.firstIndex(where: { $0.0 == outcome }) { groups[index].1.append(location.rawValue) } else { groups.append((outcome, [location.rawValue])) }
        }
        return groups.map { "\($0.0.rawValue): \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
    }

    /// A one-sided copy or print cell: the outcome (and a copy's audience), or what the policy leaves unset.
    static func oneSidedCell(_ decision: Decision?, unset: String) -> String {
        guard let decision else { return "- (\(unset) not set)" }
        return decision.outcome.rawValue + (decision.audience.map { " (audience \($0.rawValue))" } ?? "")
    }

    static func oneSidedText(_ matrix: FleetMatrixRows, _ output: Output) throws(FleetError) {
        output.write("\none-sided (decided by the sender alone)\n")
        for (s, sender) in matrix.senders.enumerated() {
            let one = try matrix.row(sender: s, only: .keyboard)?.oneSided ?? .none
            var text = "  \(DecisionText.escaped(sender.rawValue))\n"
            guard one.copy != nil || one.print != nil || !one.saveAs.isEmpty else {
                output.write(text + "    -  (not installed, or no control set)\n")
                continue
            }
            text += "    copy                    \(oneSidedCell(one.copy, unset: "pasteboardPolicy"))\n"
            text += "    print                   \(oneSidedCell(one.print, unset: "printPolicy"))\n"
            if !one.saveAs.isEmpty { text += "    save-as                 \(byOutcome(one.saveAs))\n" }
            if !one.openInto.isEmpty { text += "    open-into-org-document  \(byOutcome(one.openInto))\n" }
            output.write(text)
        }
    }

    /// A receiver as the text matrix lists it: native Mail says so.
    static func receiverName(_ receiver: FleetNode) -> String {
        let name = DecisionText.escaped(receiver.description)
        if case .app(let id) = receiver, id.isNativeMail { return name + " (native Mail)" }
        return name
    }

    static func text(_ matrix: FleetMatrixRows, _ output: Output) throws(FleetError) {
        var text = "Device \(DecisionText.escaped(matrix.device)): end-to-end outcomes, sender (row) → receiver (column)\n"
        text += "Receivers:\n"
        for (r, receiver) in matrix.receivers.enumerated() { text += "  \(r + 1)  \(receiverName(receiver))\n" }
        output.write(text)
        let width = max(matrix.senders.map(\.rawValue.count).max() ?? 0, 6)
        var encrypted = false
        // Each sender's name padded, made once; each row written as bytes.
        let names = matrix.senders.map { Array(("  " + DecisionText.escaped($0.rawValue).padding(width)).utf8) }
        var row: [UInt8] = []
        for (c, channel) in matrix.channels.enumerated() {
            var header = "  " + "sender".padding(width)
            for r in matrix.receivers.indices { header += "  " + String(r + 1).padding(5) }
            output.write("\n\(channel)\n" + header.trimmingTrailingSpaces + "\n")
            for s in matrix.senders.indices {
                let made = try matrix.row(sender: s, only: channel)
                let start = row.count
                row += names[s]
                for r in matrix.receivers.indices {
                    let outcome = made?.outcome(grid: c, receiver: r)
                    if outcome == .deliverEncrypted { encrypted = true }
                    row += textCells[cellIndex(outcome)]
                }
                while row.count > start, row.last == UInt8(ascii: " ") { row.removeLast() }
                row.append(UInt8(ascii: "\n"))
                if row.count >= 1 << 16 {
                    row.withUnsafeBufferPointer { output.write(bytes: $0) }
                    row.removeAll(keepingCapacity: true)
                }
            }
            row.withUnsafeBufferPointer { output.write(bytes: $0) }
            row.removeAll(keepingCapacity: true)
        }
        output.write("\nkeyboard (typing in the sender)\n" + ("  " + "sender".padding(width) + "  third-party  system").trimmingTrailingSpaces + "\n")
        for (s, sender) in matrix.senders.enumerated() {
            let keyboard = try matrix.row(sender: s, only: .keyboard)?.keyboard
            let row = "  " + DecisionText.escaped(sender.rawValue).padding(width) + "  " + cell(keyboard?.thirdParty).padding(11) + "  " + cell(keyboard?.system)
            output.write(row.trimmingTrailingSpaces + "\n")
        }
        try oneSidedText(matrix, output)
        output.write(
            "\nCells: allow, deny, dummy (substitute-dummy-file), redir (redirect), - (no such request: the app itself, an app not\ninstalled on the device, or open-url to an app that handles no custom scheme there).\nnative Mail is on every device and always outside (mailto:, mail-link and mail-compose go to the mail app: no cell).\n")
        if encrypted { output.write("encr: deliver-encrypted (Intune delivers the file encrypted: only policy-managed apps can read it).\n") }
    }

    static func markdown(_ matrix: FleetMatrixRows, _ output: Output) throws(FleetError) {
        output.write("### Device \(MarkdownText.code(matrix.device, inTable: false))\n")
        for channel in matrix.channels {
            output.write("\n**\(channel)** (sender → receiver)\n\n| sender | " + matrix.receivers.map { MarkdownText.code($0.description) }.joined(separator: " | ") + " |\n")
            output.write("|---|" + String(repeating: "---|", count: matrix.receivers.count) + "\n")
            for (s, sender) in matrix.senders.enumerated() {
                let cells = try grid(matrix, channel, sender: s)
                output.write("| \(MarkdownText.code(sender.description)) | " + matrix.receivers.indices.map { cell(cells($0)) }.joined(separator: " | ") + " |\n")
            }
        }
        output.write("\n**keyboard** (typing in the sender)\n\n| sender | third-party | system |\n|---|---|---|\n")
        for (s, sender) in matrix.senders.enumerated() {
            let keyboard = try matrix.row(sender: s, only: .keyboard)?.keyboard
            output.write("| \(MarkdownText.code(sender.description)) | \(cell(keyboard?.thirdParty)) | \(cell(keyboard?.system)) |\n")
        }
        // Intune's location decisions: whether any sender has them decides the table's columns (the vendor's, the same for every sender).
        var intune = false
        for s in matrix.senders.indices where !intune { intune = !(try matrix.row(sender: s, only: .keyboard)?.oneSided.saveAs.isEmpty ?? true) }
        output.write("\n**one-sided** (decided by the sender alone)\n\n| sender | copy | print |" + (intune ? " save-as | open-into-org-document |" : "") + "\n")
        output.write("|---|---|---|" + (intune ? "---|---|" : "") + "\n")
        for (s, sender) in matrix.senders.enumerated() {
            let one = try matrix.row(sender: s, only: .keyboard)?.oneSided ?? .none
            var line = "| \(MarkdownText.code(sender.description)) | \(oneSidedCell(one.copy, unset: "pasteboardPolicy")) | \(oneSidedCell(one.print, unset: "printPolicy")) |"
            line += intune ? " \(byOutcome(one.saveAs)) | \(byOutcome(one.openInto)) |\n" : "\n"
            output.write(line)
        }
    }

    // MARK: paths

    /// The `--from` value that asks for every app: each fleet app installed on the device, in file order.
    static let everyApp = "all"

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
        return writer.finish()
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

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    /// The string without its trailing spaces.
    var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
