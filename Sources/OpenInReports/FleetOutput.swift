import OpenInPolicy

/// `fleet matrix`: what it prints, and the words the other fleet outputs share.
public enum FleetOutput {
    /// What `fleet matrix` writes.
    public enum FleetMatrixFormat: String, CaseIterable, Sendable {
        /// A grid per device and channel.
        case text
        /// One JSON document.
        case json
        /// A Markdown table per device and channel.
        case markdown
    }

    // MARK: matrix

    /// `fleet matrix`: prints the matrix of each of `devices` in `format` to `output`. Every row is made once before
    /// anything is printed (an error leaves no half-printed matrix), then each grid's rows are made again as they are
    /// printed, so no matrix is ever held whole: memory O(apps) for a row plus the device's tables, not O(apps²).
    /// - Throws: `FleetError` when a row cannot be decided; nothing is written then.
    public static func print(_ devices: [AnalyzedDevice], format: FleetMatrixFormat, to output: any ReportSink) throws(FleetError) {
        let matrices = devices.map { $0.matrixRows() }
        for matrix in matrices { try matrix.check() }
        try print(matrices, format: format, to: output)
    }

    /// Prints matrices row by row: one sender's row of one grid in memory at a time.
    package static func print(_ matrices: [FleetMatrixRows], format: FleetMatrixFormat, to output: any ReportSink) throws(FleetError) {
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
                        let cells = try matrix.row(sender: s, only: channel)?.cells(grid: c) ?? []
                        row += s == 0 ? jsonRowStart : jsonRowNext
                        for r in matrix.receivers.indices {
                            if r > 0 { row.append(UInt8(ascii: ",")) }
                            row += jsonCell(cells.isEmpty ? nil : cells[cells.startIndex + r])
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
        // A few cases, compared in order: no table hashed per cell.
        return outcomes.firstIndex(of: outcome)!
    }
    static let cellCount = Outcome.allCases.count
    /// `Outcome.allCases`, made once.
    static let outcomes = Outcome.allCases

    /// Each cell as the text grid shows it after the two spaces before it, padded to five (``cell(_:)``), and for no request.
    static let textCells: [[UInt8]] = (Outcome.allCases.map(Optional.some) + [nil]).map { Array(("  " + cell($0).padding(5)).utf8) }

    /// `channel`'s cells in `senders[s]`'s row, by receiver (`nil` everywhere for a sender not installed).
    package static func grid(_ matrix: FleetMatrixRows, _ channel: FleetChannel, sender s: Int) throws(FleetError) -> (Int) -> Outcome? {
        guard let row = try matrix.row(sender: s, only: channel), let c = matrix.channels.firstIndex(of: channel) else { return { _ in nil } }
        let cells = row.cells(grid: c)
        return { cells.isEmpty ? nil : cells[cells.startIndex + $0] }
    }

    /// A cell in a grid: `allow`, `deny`, `dummy` (substitute-dummy-file), `redir`, `encr` (deliver-encrypted), `-` (no request).
    package static func cell(_ outcome: Outcome?) -> String {
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
    static func byOutcome(_ outcomes: [(location: DataLocation, outcome: Outcome)]) -> String {
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

    static func oneSidedText(_ matrix: FleetMatrixRows, _ output: any ReportSink) throws(FleetError) {
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

    package static func text(_ matrix: FleetMatrixRows, _ output: any ReportSink) throws(FleetError) {
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
                let cells = try matrix.row(sender: s, only: channel)?.cells(grid: c) ?? []
                let start = row.count
                row += names[s]
                for r in matrix.receivers.indices {
                    let outcome = cells.isEmpty ? nil : cells[cells.startIndex + r]
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

    static func markdown(_ matrix: FleetMatrixRows, _ output: any ReportSink) throws(FleetError) {
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

}

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    package func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    /// The string without its trailing spaces.
    var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
