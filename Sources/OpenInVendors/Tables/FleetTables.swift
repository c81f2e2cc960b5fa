import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Decision tables for fleets: a table whose section names a fleet file and a device on a line above it,
/// `Fleet: [title](PATH), device NAME` (PATH relative to the table's file), and whose rows name `from`
/// and the request, the expected end-to-end `outcome`, `sender rule` and `receiver rule` (`-`: no
/// receiver part); optionally `to`, `sender callbacks` and `receiver callbacks`.
enum FleetTables {
    static let inputColumns: Set<String> = ["id", "from", "channel", "target", "url", "document"]
    static let expectedColumns: Set<String> = ["outcome", "to", "sender rule", "receiver rule", "sender callbacks", "receiver callbacks"]
    static let requiredColumns = ["id", "from", "channel", "outcome", "sender rule", "receiver rule"]

    /// A row's device and request (or why it has none), and what it expects beyond ``Expectation``.
    final class Row: Sendable, Hashable {
        let built: Result<(AnalyzedDevice, FleetRequest), FleetError>
        let receiverRule: RuleID??
        let senderCallbacks: [String]?
        let receiverCallbacks: [String]?

        init(built: Result<(AnalyzedDevice, FleetRequest), FleetError>, receiverRule: RuleID??, senderCallbacks: [String]?, receiverCallbacks: [String]?) {
            self.built = built
            self.receiverRule = receiverRule
            self.senderCallbacks = senderCallbacks
            self.receiverCallbacks = receiverCallbacks
        }

        package static func == (lhs: Row, rhs: Row) -> Bool { lhs === rhs }
        package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// The `Fleet:` line of the section above a table (between the table and the heading or table before it), if any.
    static func fleetLine(above headerLine: Int, lines: [Substring]) -> (line: Int, text: Substring)? {
        var index = headerLine - 2
        while index >= 0 {
            let line = lines[index].trimmingSpaces
            if line.hasPrefix("#") || line.hasPrefix("|") { return nil }
            if line.hasPrefix("Fleet:") { return (index + 1, line) }
            index -= 1
        }
        return nil
    }

    /// Reads `Fleet: [title](PATH), device NAME`.
    /// The `Fleet:` line's fleet file, its Intune devices file when it names one, and its device:
    /// `Fleet: [title](PATH), device NAME` (an AppConnect fleet) or
    /// `Fleet: [title](POLICIES), devices [title](DEVICES), device NAME` (Intune app protection policies).
    static func reference(_ text: Substring, at place: Place) throws(TableError) -> (path: String, devices: String?, device: String) {
        let shape = "write it as 'Fleet: [title](PATH), device NAME' (an AppConnect fleet file) or 'Fleet: [title](POLICIES), devices [title](DEVICES), device NAME' (Intune), paths relative to this file"
        func link(_ text: Substring) -> (path: String, rest: Substring)? {
            guard text.hasPrefix("["), let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") else { return nil }
            return (String(text[text.index(after: open)..<close].trimmingSpaces), text[text.index(after: close)...].trimmingSpaces)
        }
        let afterLabel = text.dropFirst("Fleet:".count).trimmingSpaces
        guard let (path, rest) = link(afterLabel) else { throw place.error("this Fleet line has no link: \(shape)") }
        guard rest.hasPrefix(",") else { throw place.error("this Fleet line names no device: \(shape)") }
        var afterComma = rest.dropFirst().trimmingSpaces
        var devices: String? = nil
        if afterComma.hasPrefix("devices ") {
            guard let (devicesPath, afterDevices) = link(afterComma.dropFirst("devices ".count).trimmingSpaces), afterDevices.hasPrefix(",") else {
                throw place.error("this Fleet line's devices has no link followed by the device: \(shape)")
            }
            if devicesPath.isEmpty { throw place.error("this Fleet line's devices path is empty: \(shape)") }
            devices = devicesPath
            afterComma = afterDevices.dropFirst().trimmingSpaces
        }
        guard afterComma.hasPrefix("device ") else { throw place.error("this Fleet line names no device: \(shape)") }
        let device = String(afterComma.dropFirst("device ".count).trimmingSpaces)
        if path.isEmpty || device.isEmpty { throw place.error("this Fleet line's path or device is empty: \(shape)") }
        return (path, devices, device)
    }

    /// Reads a text file a `Fleet:` line names (never waiting on a FIFO); an Intune file (`intune`) in UTF-8
    /// or UTF-16 with a byte order mark, as ``IntuneGraphJSON/read(path:)`` reads it.
    static func readNamed(_ path: String, what: String, line: Int, of file: String, intune: Bool = false) throws(FormatError) -> String {
        if let problem = CappedFile.pipeProblem(path: path) {
            throw FormatError(file: path, line: 0, message: "cannot read the \(what) named on line \(line) of \(file): \(problem)")
        }
        if intune {
            let bytes: [UInt8]
            do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: path, what: what) } catch {
                throw FormatError(file: path, line: 0, message: "cannot read the \(what) named on line \(line) of \(file): \(error.reason)")
            }
            guard let text = String(validating: try IntuneGraphJSON.text(bytes, file: path), as: UTF8.self) else { throw FormatError(file: path, line: 0, message: "cannot read the \(what) as UTF-8 text") }
            return text
        }
        return try CappedFile.readText(path: path, what: what, unreadable: { "cannot read the \(what) named on line \(line) of \(file): \($0)" },
                                       notUTF8: "cannot read the \(what) as UTF-8 text")
    }

    static func cases(_ table: MarkdownTables.Table, fleetLine: (line: Int, text: Substring), file: String,
                      fleets: inout [String: Result<FleetAnalysis, FormatError>], seenIDs: inout [String: Int]) throws(TableError) -> [TableCase] {
        let header = table.header.map { $0.lowercased() }
        for (column, name) in header.enumerated() where !inputColumns.contains(name) && !expectedColumns.contains(name) {
            let known = inputColumns.union(expectedColumns).sorted()
            throw TableError(file: file, line: table.headerLine,
                             message: "unknown column '\(table.header[column])' in a fleet table: columns are \(known.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: known))")
        }
        for required in requiredColumns where !header.contains(required) {
            throw TableError(file: file, line: table.headerLine, message: "a fleet table needs a '\(required)' column")
        }
        if Set(header).count != header.count { throw TableError(file: file, line: table.headerLine, message: "a column appears twice in the header") }
        if table.rows.isEmpty { throw TableError(file: file, line: table.headerLine, message: "this decision table has no rows: add a row under the delimiter line, or remove the table") }
        let reference = try reference(fleetLine.text, at: Place(file: file, line: fleetLine.line))
        let directory = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
        func resolved(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        let path = resolved(reference.path)
        let devicesPath = reference.devices.map(resolved)
        let key = path + (devicesPath.map { "\u{0}" + $0 } ?? "")
        if fleets[key] == nil {
            do throws(FormatError) {
                let text = try readNamed(path, what: devicesPath == nil ? "fleet file" : "Intune policies file", line: fleetLine.line, of: file, intune: devicesPath != nil)
                if let devicesPath {
                    // Loaded as the command line loads it (``FleetLoader``), the devices file read after the policies and named by this line.
                    let devices = FleetLoader.Devices.read(devicesPath) { () throws(FormatError) in
                        Array(try readNamed(devicesPath, what: "Intune devices file", line: fleetLine.line, of: file, intune: true).utf8)
                    }
                    let intune: IntuneFleet
                    do throws(FleetLoader.Failure) {
                        intune = try FleetLoader.intune(FleetLoader.File(path: path, bytes: Array(text.utf8)), devices: devices)
                    } catch {
                        switch error {
                        case .file(let error), .devices(let error): throw error
                        case .policies(let error): throw FormatError(file: path, line: 0, message: error.message)
                        case .unreadable(let message), .needsDevices(let message), .emptyFolder(let message), .wrongVendor(let message):
                            throw FormatError(file: path, line: 0, message: message)
                        }
                    }
                    fleets[key] = .success(FleetAnalysis(intune, devicesFile: devicesPath))
                } else {
                    // Intune policies (a Graph export: an array, or an object with @odata.type or value) need their devices file.
                    if IntuneFleet.holdsPolicies(Array(text.utf8)) {
                        throw FormatError(file: path, line: 0, message: "it holds Intune app protection policies: name the devices file they are asked about too, 'Fleet: [title](POLICIES), devices [title](DEVICES), device NAME'")
                    }
                    fleets[key] = .success(FleetAnalysis(try FleetJSON.read(Array(text.utf8), file: path)))
                }
            } catch {
                fleets[key] = .failure(error)
            }
        }
        let fleet: FleetAnalysis
        switch fleets[key]! {
        case .success(let read): fleet = read
        case .failure(let error): throw TableError(file: file, line: fleetLine.line, message: "the fleet file \(path) cannot be read: \(error)")
        }
        guard fleet.deviceNames.contains(where: { ExactText.same($0, reference.device) }) else {
            throw TableError(file: file, line: fleetLine.line, message: "the fleet \(path) has no device profile named \(JSONWriter.quoted(reference.device)).\(Suggestion.phrase(for: reference.device, among: fleet.deviceNames))")
        }
        let device: Result<AnalyzedDevice, FleetError>
        do throws(FleetError) { device = .success(try fleet.device(named: reference.device)) } catch { device = .failure(error) }
        var cases: [TableCase] = []
        for row in table.rows {
            guard row.cells.count == header.count else {
                throw TableError(file: file, line: row.line, message: "this row has \(row.cells.count) cells but the header has \(header.count); write '\\|' for a '|' inside a cell")
            }
            let cells = Dictionary(uniqueKeysWithValues: zip(header, row.cells))
            let id = cells["id"] ?? ""
            if id.isEmpty { throw TableError(file: file, line: row.line, message: "the id cell is empty: give every row a name") }
            if let first = seenIDs[id] { throw TableError(file: file, line: row.line, message: "duplicate id '\(id)' (first used on line \(first)); ids must be unique in a file") }
            seenIDs[id] = row.line
            let place = Place(file: file, line: row.line)
            func value(_ column: String) throws(TableError) -> String? {
                guard let text = cells[column] else { return nil }
                if text.isEmpty { throw place.error("the '\(column)' cell is empty: write '-' for none") }
                return text == "-" ? nil : text
            }
            guard let from = try value("from"), let channel = try value("channel") else { throw place.error("a fleet row needs 'from' and 'channel'") }
            let target = try value("target"), url = try value("url"), document = try value("document")
            let built: Result<(AnalyzedDevice, FleetRequest), FleetError>
            switch device {
            case .failure(let error): built = .failure(error)
            case .success(let resolved):
                do throws(FleetError) {
                    built = .success((resolved, try FleetRecord.request(from: from, channel: channel, target: target, url: url, document: document)))
                } catch {
                    built = .failure(error)
                }
            }
            // The expected outcome, `to` and the sender's rule are read as every table reads them.
            var renamed = cells
            renamed["rule"] = cells["sender rule"]
            renamed["callbacks"] = nil
            if let outcome = cells["outcome"], outcome == "error" {
                for column in ["to", "sender rule", "receiver rule", "sender callbacks", "receiver callbacks"] where (cells[column] ?? "-") != "-" {
                    throw place.error("a row expecting 'error' has no decision: write '-' in the '\(column)' cell")
                }
                renamed["rule"] = "-"
            }
            var expected = try DecisionTables.expectation(renamed.filter { ["outcome", "to", "rule"].contains($0.key) && !($0.key == "rule" && $0.value == "-") }, at: place)
            if expected.outcome != nil, expected.rule == nil { throw place.error("the 'sender rule' cell must name the sender's rule") }
            var receiverRule: RuleID?? = nil
            if let text = cells["receiver rule"], expected.outcome != nil {
                if text == "-" {
                    receiverRule = .some(nil)
                } else {
                    guard let parsed = RuleID(parsing: text) else {
                        throw place.error("unknown rule '\(text)' in 'receiver rule'.\(Suggestion.phrase(for: text, among: RuleInfo.all.map(\.id.rawValue)))")
                    }
                    receiverRule = .some(parsed)
                }
            }
            func callbacks(_ column: String) throws(TableError) -> [String]? {
                guard let text = cells[column], expected.outcome != nil else { return nil }
                return try DecisionTables.expectation(["outcome": "allow", "callbacks": text], at: place).callbacks
            }
            let row = Row(built: built, receiverRule: receiverRule, senderCallbacks: try callbacks("sender callbacks"), receiverCallbacks: try callbacks("receiver callbacks"))
            expected = Expectation(outcome: expected.outcome, to: expected.to, audience: nil, callbacks: nil, openInUI: nil, rule: expected.rule, dummy: nil)
            cases.append(TableCase(file: file, line: place.line, id: id, cells: cells, expected: expected, inputs: .fleet(row)))
        }
        return cases
    }

    /// Runs one fleet row: decides it end to end and compares every expected column.
    package static func run(_ tableCase: TableCase, _ row: Row) -> TableResult {
        let expected = tableCase.expected
        let decision: FleetDecision
        switch row.built {
        case .failure(let error):
            if expected.outcome == nil { return TableResult(tableCase: tableCase, mismatches: []) }
            return TableResult(tableCase: tableCase, mismatches: ["outcome: expected \(expected.outcome!), got error: \(error.message)"])
        case .success(let (device, request)):
            do throws(FleetError) {
                decision = try device.decide(request)
            } catch {
                if expected.outcome == nil { return TableResult(tableCase: tableCase, mismatches: []) }
                return TableResult(tableCase: tableCase, mismatches: ["outcome: expected \(expected.outcome!), got error: \(error.message)"])
            }
        }
        guard let outcome = expected.outcome else {
            return TableResult(tableCase: tableCase, mismatches: ["outcome: expected error, got \(decision.outcome) (sender rule \(decision.sender.rule))"])
        }
        var mismatches: [String] = []
        func compare(_ column: String, _ want: String, _ got: String) {
            if want != got { mismatches.append("\(column): expected \(want), got \(got)") }
        }
        compare("outcome", outcome.rawValue, decision.outcome.rawValue)
        // `to` as in a single-app table: the app that receives something (the content, a dummy file), `-` for nobody.
        if let to = expected.to {
            compare("to", to?.rawValue ?? "-", decision.outcome == .deny ? "-" : (decision.receiverApp ?? decision.sender.target)?.rawValue ?? "-")
        }
        if let rule = expected.rule { compare("sender rule", rule.rawValue, decision.sender.rule.rawValue) }
        if let rule = row.receiverRule { compare("receiver rule", rule?.rawValue ?? "-", decision.receiver?.rule.rawValue ?? "-") }
        func callbacks(_ list: [Callback]) -> String { list.isEmpty ? "-" : list.map(\.description).joined(separator: "; ") }
        if let want = row.senderCallbacks { compare("sender callbacks", want.isEmpty ? "-" : want.joined(separator: "; "), callbacks(decision.sender.callbacks)) }
        if let want = row.receiverCallbacks { compare("receiver callbacks", want.isEmpty ? "-" : want.joined(separator: "; "), callbacks(decision.receiver?.callbacks ?? [])) }
        return TableResult(tableCase: tableCase, mismatches: mismatches)
    }
}
