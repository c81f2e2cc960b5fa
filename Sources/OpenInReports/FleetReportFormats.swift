import OpenInPolicy

/// One device's part of a report: the paths shown (for `fleet diff`, the paths opened) and, for a
/// diff, the paths closed.
package struct DeviceReport: Sendable {
    package var device: String
    /// For `fleet paths`, what outside means there (the zone of trust), when known.
    package var zone: String?
    package var paths: [ReportPath]
    package var closed: [ReportPath] = []

    /// A value of these parts.
    package init(device: String, zone: String? = nil, paths: [ReportPath], closed: [ReportPath] = []) {
        self.device = device
        self.zone = zone
        self.paths = paths
        self.closed = closed
    }
}

/// What a report is about: the paths of one run of `fleet paths`, or what changed in `fleet diff`.
package enum ReportSubject {
    /// `fleet paths --from APP` (`all` for every app); `to` is the `--to` value, when given.
    case paths(from: String, to: String?)
    /// `fleet diff OLD NEW`.
    case diff(old: String, new: String)

    package var isDiff: Bool { if case .diff = self { true } else { false } }

    /// The `--from` value that asks for every app: each fleet app installed on the device, in file order.
    static let everyApp = "all"
}

/// The report formats of `fleet paths` and `fleet diff`: Markdown (tables and a Mermaid graph per
/// device, as GitHub renders them), SARIF 2.1.0 (a result per path, a code flow per hop) and
/// Graphviz DOT (a cluster per device). Everything taken from input is escaped for the format.
package enum LeakReportFormat: String {
    case markdown, sarif, dot

    /// Writes the whole report.
    package func write(_ devices: [DeviceReport], subject: ReportSubject, baseline: BaselineRun?, limits: ReportLimits = ReportLimits(), to sink: any ReportSink) {
        switch self {
        case .markdown: sink.write(MarkdownReport.report(devices, subject: subject, baseline: baseline, limits: limits))
        case .sarif: SARIFReport.write(devices, subject: subject, limits: limits, to: sink)
        case .dot: sink.write(DOTReport.report(devices, subject: subject))
        }
    }
}

// MARK: - Markdown

/// CommonMark as GitHub renders it, with one fenced `mermaid` block per device.
package enum MarkdownReport {
    /// The most edges a diagram draws; the rest are counted below it.
    static let maxEdges = 50

    /// The report within `limits`: the title, a line per device, the baseline's part, then per device the paths a
    /// reviewer acts on (without a baseline every path; with one, the new and expired ones, the accepted counted unless
    /// ``ReportLimits/showAccepted``), the closed ones (for a diff) and the graph of the paths listed; cut, with a note,
    /// where the next piece would pass ``ReportLimits/maxMarkdownBytes``.
    package static func report(_ devices: [DeviceReport], subject: ReportSubject, baseline: BaselineRun?, limits: ReportLimits = ReportLimits()) -> String {
        var budget = MarkdownBudget(limits.maxMarkdownBytes)
        var output = ""
        var rowsWritten = 0, devicesShown = 0
        @discardableResult func emit(_ piece: String, keep: Int = 0) -> Bool {
            guard budget.take(piece.utf8.count, keep: keep) else { return false }
            output += piece
            return true
        }
        func emitLines(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { emit(line + "\n") }
        }
        var text: String
        switch subject {
        case .paths(let from, let to):
            let start = ExactText.same(from, ReportSubject.everyApp) ? "every app" : MarkdownText.code(from, inTable: false)
            let target = to.map { ExactText.same($0, "outside") ? "outside" : MarkdownText.code($0, inTable: false) } ?? "outside"
            text = "## Leak paths from \(start) to \(target)\n\n"
        case .diff(let old, let new):
            text = "## Leak paths opened and closed: \(MarkdownText.code(old, inTable: false)) → \(MarkdownText.code(new, inTable: false))\n\n"
        }
        // The summary first: a line per device.
        for device in devices {
            text += "- \(MarkdownText.code(device.device, inTable: false)): "
            if subject.isDiff {
                text += "\(count(device.paths.count, "path")) opened, \(device.closed.count) closed"
            } else {
                let sources = Set(device.paths.map(\.from)).count
                text += "\(count(device.paths.count, "path")) from \(count(sources, "app"))"
            }
            if baseline != nil {
                let states = device.paths.compactMap(\.state)
                text += " (\(states.filter { $0 == .new }.count) new, \(states.filter { $0 == .accepted }.count) accepted, \(states.filter { $0 == .expired }.count) expired)"
            }
            text += "\n"
        }
        if devices.isEmpty { text += "No device was examined.\n" }
        if let baseline { text += baselineSection(baseline) }
        emitLines(text)
        let opened = subject.isDiff ? "opened" : nil
        var total = 0
        for device in devices {
            let listed = limits.showAccepted ? device.paths : device.paths.filter { $0.state != .accepted }
            let hidden = device.paths.count - listed.count
            total += listed.count
            if budget.cut { continue }
            var head = "\n### Device \(MarkdownText.code(device.device, inTable: false))\n\n"
            if let zone = device.zone { head += "Zone of trust: \(MarkdownText.text(zone)).\n\n" }
            head += listed.isEmpty && hidden > 0 ? "No new or expired path\(opened.map { " " + $0 } ?? "").\n" : tableHeader(listed, opened: opened, baseline: baseline != nil)
            guard emit(head, keep: budget.diagramRoom) else { continue }
            devicesShown += 1
            for path in listed {
                guard emit(row(path, opened: opened, baseline: baseline != nil), keep: budget.diagramRoom) else { break }
                rowsWritten += 1
            }
            func close(_ piece: String) { if budget.takeClosing(piece.utf8.count) { output += piece } }
            if hidden > 0 { close("\n\(count(hidden, "accepted path")) \(opened.map { $0 + " and " } ?? "")not listed (`--show accepted` lists them).\n") }
            if subject.isDiff && !device.closed.isEmpty, emit("\nClosed:\n\n" + tableHeader(device.closed, opened: "closed", baseline: false), keep: budget.diagramRoom) {
                for path in device.closed {
                    guard emit(row(path, opened: "closed", baseline: false), keep: budget.diagramRoom) else { break }
                }
            }
            if budget.room >= 1_000 {
                var shown = device
                shown.paths = listed
                close(graph(shown, maxBytes: budget.room))
            }
        }
        if budget.cut {
            output += MarkdownBudget.note(limit: budget.limit, left: total - rowsWritten, of: total,
                                          what: subject.isDiff ? "paths opened" : limits.showAccepted ? "paths" : "paths to act on", devices: devices.count - devicesShown)
        }
        return output
    }

    /// The baseline's summary and its resolved entries (accepted paths that no longer exist), after the device lines.
    static func baselineSection(_ baseline: BaselineRun) -> String {
        var text = "\nBaseline \(MarkdownText.code(baseline.baseline.file ?? "", inTable: false)): \(baseline.summary).\n"
        let resolved = baseline.resolved
        if !resolved.isEmpty {
            text += "\nResolved (accepted paths that no longer exist; the entries can go):\n\n"
            for entry in resolved {
                text += "- \(MarkdownText.code(entry.deviceName, inTable: false)): \(MarkdownText.code(entry.from.rawValue, inTable: false)) → \(MarkdownText.code(entry.to.description, inTable: false)) (line \(entry.line ?? 0))\n"
            }
        }
        return text
    }

    package static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    package static func table(_ paths: [ReportPath], opened: String?, baseline: Bool) -> String {
        paths.reduce(tableHeader(paths, opened: opened, baseline: baseline)) { $0 + row($1, opened: opened, baseline: baseline) }
    }

    /// A table's header row and separator, or "No path." when `paths` is empty.
    static func tableHeader(_ paths: [ReportPath], opened: String?, baseline: Bool) -> String {
        if paths.isEmpty { return opened == nil ? "No path.\n" : "No path \(opened!).\n" }
        var header = ["from", "to", "hops", "via", "granted by"]
        if opened != nil { header.insert("change", at: 0) }
        if baseline { header.append("state") }
        return "| " + header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: header.count) + "\n"
    }

    /// One path's row.
    package static func row(_ path: ReportPath, opened: String?, baseline: Bool) -> String {
        var cells = [MarkdownText.code(path.from.rawValue), MarkdownText.code(path.to.description), "\(path.hops.count)",
                     path.via.isEmpty ? "(direct)" : path.via.map { MarkdownText.code($0.description) }.joined(separator: ", "),
                     path.hops.last.map { MarkdownText.text($0.grant) } ?? ""]
        if let opened { cells.insert(opened, at: 0) }
        if baseline, let state = path.state {
            switch state {
            case .new: cells.append("**new**")
            case .accepted: cells.append("accepted until \(path.entry?.expires.description ?? ""): \(MarkdownText.text(path.entry?.reason ?? ""))")
            case .expired: cells.append("**expired** on \(path.entry?.expires.description ?? ""): \(MarkdownText.text(path.entry?.reason ?? ""))")
            }
        }
        return "| " + cells.joined(separator: " | ") + " |\n"
    }

    /// The device's leak graph, grouped (``LeakGraph``): the destinations one node per kind, the apps that carry the
    /// most paths drawn as themselves and the rest as one node, each edge labelled with its count of paths; at most
    /// ``maxEdges`` edges, within `maxBytes` and ``MermaidText/maxDiagramBytes``; each label quoted and escaped
    /// (``MermaidText/label(_:)``), ids generated (`n1`, `n2`, …).
    package static func graph(_ device: DeviceReport, maxBytes: Int = MermaidText.maxDiagramBytes) -> String {
        var keys: [FleetNode: Int] = [:]
        var order: [FleetNode] = []
        func key(_ node: FleetNode) -> Int {
            if let key = keys[node] { return key }
            order.append(node)
            keys[node] = order.count - 1
            return order.count - 1
        }
        var graph = LeakGraph()
        for path in device.paths {
            let chain = [key(.app(path.from))] + path.hops.map { key($0.to) }
            graph.add(chain, kind: LeakGraph.kind(path.to, outside: path.outside)) { order[$0].description }
        }
        return graph.mermaid(maxEdges: maxEdges, maxBytes: maxBytes)
    }
}

// MARK: - SARIF

/// SARIF 2.1.0: a rule per channel a leak's last hop takes (the kind of leak), a result per path,
/// each with a code flow of one location per hop at the line of the setting that lets it through,
/// and a fingerprint of what the path is.
package enum SARIFReport {
    /// The channels a leak can end on, in order: every channel paths follow (not keyboard, nor the one-sided
    /// copy, print, save-as and open-into-org-document).
    package static let channels: [FleetChannel] = FleetChannel.allCases.filter { ![.keyboard, .copy, .print, .saveAs, .openIntoOrgDocument].contains($0) }

    static func ruleID(_ channel: FleetChannel) -> String { "leak/\(channel.rawValue)" }

    package static func write(_ devices: [DeviceReport], subject: ReportSubject, limits: ReportLimits = ReportLimits(), to sink: any ReportSink) {
        var log = Capped(limits)
        for device in devices {
            for path in device.paths { log.offer(path, opened: subject.isDiff) }
        }
        log.finish(to: sink)
    }

    /// The log written a result at a time (`fleet paths --from all` writes each app's results as its search
    /// ends): the run's header, the results, the end. Each result is written directly; its code flow's steps
    /// are written once per hop of a search (paths from one app share the hops of their chains) and copied.
    package struct Stream {
        private var first = true
        /// The steps of the chains of the current search (device and source), by the node each ends at.
        private var steps = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
        private var search: (device: String, from: BundleID)? = nil

        /// A log with no result written yet.
        package init() {}

        /// The log up to the results array's opening bracket.
        package func start() -> [UInt8] { SARIFLog.start(driver: SARIFReport.driver()) }

        /// One result (after a comma when it is not the first): what ``SARIFReport/straightforward(_:subject:)``
        /// writes for it, laid out as the pretty JSON writer lays out the whole log, written as bytes. Each node's
        /// name and each setting's words are escaped once (every text from input through ``SARIFText/message(_:)``
        /// and JSON string escaping), each hop's code-flow step once per search, and the fingerprint hashed from
        /// bytes kept per node.
        package mutating func append(_ path: ReportPath, opened: Bool, to bytes: inout [UInt8]) {
            bytes += first ? Self.firstResult : Self.nextResult
            first = false
            appendResult(path, opened: opened, to: &bytes)
        }

        /// One result, without the comma and line break before it (``append(_:opened:to:)`` writes them).
        mutating func appendResult(_ path: ReportPath, opened: Bool, to bytes: inout [UInt8]) {
            if let search, ExactText.same(search.device, path.device), search.from == path.from {
            } else {
                steps = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
                search = (path.device, path.from)
                // The message's beginning and the fingerprint's first fields: the same for every path of the search.
                head = Array("device ".utf8)
                SARIFText.appendMessage(path.device, to: &head)
                head += ": documents from ".utf8
                fromText = node(.app(path.from))
                head += fromText.body
                head += " reach ".utf8
                searchHash = FNV1a.offsetBasis
                for field in [Array("leak-path/v1".utf8), Array(path.device.utf8), fromText.raw] { searchHash = Self.hash(field, searchHash) }
            }
            let channel = path.hops.last?.channel ?? .documentInteraction
            let c = Self.channelText[channel]!
            bytes += Self.ruleIdKey
            bytes += c.ruleID
            bytes += Self.ruleIndexKey
            bytes += String(channels.firstIndex(of: channel) ?? 0).utf8
            bytes += Self.levelAndMessageKey
            // The message: "device D: documents from F reach T[, outside the zone of trust,] in N hops: F c → X c → T.[…]"
            bytes += head
            let to = node(path.to)
            bytes += to.body
            if path.outside { bytes += ", outside the zone of trust,".utf8 }
            bytes += " in ".utf8
            bytes += MarkdownReport.count(path.hops.count, "hop").utf8
            bytes += ": ".utf8
            bytes += fromText.body
            var hash = Self.hash(to.raw, searchHash)
            for hop in path.hops {
                bytes.append(UInt8(ascii: " "))
                let hopChannel = Self.channelText[hop.channel]!
                bytes += hopChannel.name
                bytes += " → ".utf8
                let next = node(hop.to)
                bytes += next.body
                hash = Self.hash(hopChannel.raw, hash)
                if let url = hop.url { hash = Self.hash(Array(url.utf8), hash) } else { hash = Self.hash([], hash) }
                hash = Self.hash(next.raw, hash)
            }
            bytes.append(UInt8(ascii: "."))
            if opened { bytes += " The change opens this path.".utf8 }
            switch path.state {
            case .new?: bytes += " Not in the baseline.".utf8
            case .accepted?:
                bytes += " Accepted until ".utf8
                SARIFText.appendMessage((path.entry?.expires.description ?? "") + ": " + (path.entry?.reason ?? ""), to: &bytes)
                bytes.append(UInt8(ascii: "."))
            case .expired?:
                bytes += " The acceptance expired on ".utf8
                SARIFText.appendMessage((path.entry?.expires.description ?? "") + ": " + (path.entry?.reason ?? ""), to: &bytes)
                bytes.append(UInt8(ascii: "."))
            case nil: break
            }
            bytes += Self.messageEnd
            // "locations": [the place of the hop that leaks, the last: the Markdown's "granted by"].
            bytes += Self.locationsKey
            appendLocation(path.hops.last, level: 6, message: nil, to: &bytes)
            bytes += Self.locationsEnd
            if path.hops.isEmpty {
                let flow = JSONObject(members: [.init("threadFlows", .array(JSONArray([.object(JSONObject(members: [.init("locations", .array(JSONArray([])))]))])))])
                JSONWriter.append(.array(JSONArray([.object(flow)])), to: &bytes, pretty: true, level: 5)
            } else {
                // [{"threadFlows": [{"locations": [steps]}]}], each step written once per search.
                bytes += Self.codeFlowsStart
                var memo = steps
                steps = ChainMemo<[UInt8]>(separator: [])
                bytes += memo.text(path.hops, to: \ReportHop.to) { hop, part in
                    part += Self.indents[10]
                    part += Self.stepStart
                    appendLocation(hop, level: 11, message: hop, to: &part)
                    part += Self.indents[10]
                    part.append(UInt8(ascii: "}"))
                }
                steps = memo
                bytes += Self.codeFlowsEnd
            }
            bytes += Self.fingerprintKey
            let digits = Array(String(hash, radix: 16).utf8)
            bytes += repeatElement(UInt8(ascii: "0"), count: 16 - digits.count)
            bytes += digits
            bytes += Self.fingerprintEnd
            if opened { bytes += Self.baselineNew }
            if path.state == .accepted, let entry = path.entry {
                bytes += Self.suppressionsStart
                SARIFText.appendPlain(entry.reason, to: &bytes)
                bytes += Self.suppressionsEnd
            }
            bytes += Self.indents[4]
            bytes.append(UInt8(ascii: "}"))
        }

        /// A node's name: its UTF-8 bytes (for the fingerprint) and as it is shown in a JSON string (escaped), made once.
        struct NodeText {
            var raw: [UInt8]
            var body: [UInt8]
        }
        private var nodes: [FleetNode: NodeText] = [:]
        private var fromText = NodeText(raw: [], body: [])
        private var head: [UInt8] = []
        private var searchHash = FNV1a.offsetBasis
        /// Each setting's words as a step's message shows them (escaped), made once.
        private var settings: [PathsBytes.SettingKey: [UInt8]] = [:]
        /// The last file placed, and its URI as a JSON string.
        private var lastFile: String?
        private var lastURI: [UInt8] = []

        private mutating func node(_ node: FleetNode) -> NodeText {
            if let known = nodes[node] { return known }
            let text = node.description
            var body: [UInt8] = []
            SARIFText.appendMessage(text, to: &body)
            let made = NodeText(raw: Array(text.utf8), body: body)
            nodes[node] = made
            return made
        }

        /// A `location` object at `level` (``SARIFReport/location(_:text:)``): the hop's file and line, and,
        /// for a code-flow step, the hop and every setting that lets it through.
        private mutating func appendLocation(_ hop: ReportHop?, level: Int, message: ReportHop?, to bytes: inout [UInt8]) {
            let file = hop?.file ?? ""
            if lastFile.map({ !ExactText.same($0, file) }) ?? true {
                lastFile = file
                lastURI = []
                JSONWriter.appendQuoted(SARIFLog.uri(file), to: &lastURI)
            }
            bytes.append(UInt8(ascii: "{"))
            bytes += Self.indents[level + 1]
            bytes += Self.physicalKey
            bytes += Self.indents[level + 2]
            bytes += Self.artifactKey
            bytes += Self.indents[level + 3]
            bytes += Self.uriKey
            bytes += lastURI
            bytes += Self.indents[level + 2]
            bytes.append(UInt8(ascii: "}"))
            if let line = hop?.line {
                bytes.append(UInt8(ascii: ","))
                bytes += Self.indents[level + 2]
                bytes += Self.regionKey
                bytes += Self.indents[level + 3]
                bytes += Self.startLineKey
                bytes += String(line).utf8
                bytes += Self.indents[level + 2]
                bytes.append(UInt8(ascii: "}"))
            }
            bytes += Self.indents[level + 1]
            bytes.append(UInt8(ascii: "}"))
            if let hop = message {
                bytes.append(UInt8(ascii: ","))
                bytes += Self.indents[level + 1]
                bytes += Self.messageKey
                bytes += Self.indents[level + 2]
                bytes += Self.textKey
                // "F → T by CHANNEL[ URL]: GRANT" (``SARIFReport/step(_:)``).
                bytes += node(hop.from).body
                bytes += " → ".utf8
                bytes += node(hop.to).body
                bytes += " by ".utf8
                bytes += Self.channelText[hop.channel]!.name
                if let url = hop.url {
                    bytes.append(UInt8(ascii: " "))
                    SARIFText.appendMessage(url, to: &bytes)
                }
                bytes += ": ".utf8
                if hop.settings.isEmpty {
                    SARIFText.appendMessage(hop.rules.map(\.rawValue).joined(separator: ", "), to: &bytes)
                }
                for (index, setting) in hop.settings.enumerated() {
                    if index > 0 { bytes += "; ".utf8 }
                    let key = PathsBytes.SettingKey(setting)
                    if let known = settings[key] {
                        bytes += known
                        continue
                    }
                    var words: [UInt8] = []
                    SARIFText.appendMessage(
                        "\(setting.app): \(setting.key) = \(setting.value) (\(setting.policy), \(setting.via)\(setting.line.map { ", line \($0)" } ?? ""))", to: &words)
                    settings[key] = words
                    bytes += words
                }
                bytes.append(UInt8(ascii: "\""))
                bytes += Self.indents[level + 1]
                bytes.append(UInt8(ascii: "}"))
            }
            bytes += Self.indents[level]
            bytes.append(UInt8(ascii: "}"))
        }

        /// FNV-1a of `field` and a NUL after it, continuing `hash` (``ReportPath/fingerprint``).
        @inline(__always) package static func hash(_ field: [UInt8], _ hash: UInt64) -> UInt64 {
            var hash = hash
            for byte in field {
                hash ^= UInt64(byte)
                hash &*= FNV1a.prime
            }
            return (hash ^ 0) &* FNV1a.prime
        }

        /// Each channel's rule ID (a JSON string), name as messages show it, and raw value's bytes.
        static let channelText: [FleetChannel: (ruleID: [UInt8], name: [UInt8], raw: [UInt8])] = {
            var table: [FleetChannel: (ruleID: [UInt8], name: [UInt8], raw: [UInt8])] = [:]
            for channel in FleetChannel.allCases {
                var ruleID: [UInt8] = []
                JSONWriter.appendQuoted(SARIFReport.ruleID(channel), to: &ruleID)
                var name: [UInt8] = []
                SARIFText.appendMessage("\(channel)", to: &name)
                table[channel] = (ruleID, name, Array(channel.rawValue.utf8))
            }
            return table
        }()

        static func indent(_ level: Int) -> String { "\n" + String(repeating: "  ", count: level) }
        /// A line break and the indent of each level the log reaches (as the pretty JSON writer indents).
        static let indents: [[UInt8]] = (0..<16).map { Array(indent($0).utf8) }
        static let firstResult = Array((indent(4)).utf8), nextResult = Array(("," + indent(4)).utf8)
        static let ruleIdKey = Array(("{" + indent(5) + "\"ruleId\": ").utf8)
        static let ruleIndexKey = Array(("," + indent(5) + "\"ruleIndex\": ").utf8)
        static let levelAndMessageKey = Array(("," + indent(5) + "\"level\": \"error\"," + indent(5) + "\"message\": {" + indent(6) + "\"text\": \"").utf8)
        static let messageEnd = Array(("\"" + indent(5) + "},").utf8)
        static let locationsKey = Array((indent(5) + "\"locations\": [" + indent(6)).utf8)
        static let locationsEnd = Array((indent(5) + "]," + indent(5) + "\"codeFlows\": ").utf8)
        static let codeFlowsStart = Array(("[" + indent(6) + "{" + indent(7) + "\"threadFlows\": [" + indent(8) + "{" + indent(9) + "\"locations\": [").utf8)
        static let codeFlowsEnd = Array((indent(9) + "]" + indent(8) + "}" + indent(7) + "]" + indent(6) + "}" + indent(5) + "]").utf8)
        static let stepStart = Array(("{" + indent(11) + "\"location\": ").utf8)
        static let fingerprintKey = Array(("," + indent(5) + "\"partialFingerprints\": {" + indent(6) + "\"leakPath/v1\": \"").utf8)
        static let fingerprintEnd = Array(("\"" + indent(5) + "}").utf8)
        static let baselineNew = Array(("," + indent(5) + "\"baselineState\": \"new\"").utf8)
        static let suppressionsStart = Array(("," + indent(5) + "\"suppressions\": [" + indent(6) + "{" + indent(7) + "\"kind\": \"external\"," + indent(7) + "\"justification\": \"").utf8)
        static let suppressionsEnd = Array(("\"" + indent(6) + "}" + indent(5) + "]").utf8)
        static let physicalKey = Array("\"physicalLocation\": {".utf8), artifactKey = Array("\"artifactLocation\": {".utf8), uriKey = Array("\"uri\": ".utf8)
        static let regionKey = Array("\"region\": {".utf8), startLineKey = Array("\"startLine\": ".utf8)
        static let messageKey = Array("\"message\": {".utf8), textKey = Array("\"text\": \"".utf8)

        /// The end of the log, after the last result.
        package func end() -> [UInt8] { SARIFLog.end(empty: first) }
    }

    /// One step of a result's code flow: the hop, at the line of the setting that lets it through.
    package static func step(_ hop: ReportHop) -> JSONValue {
        .object(JSONObject(members: [.init("location", .object(location(hop, text: "\(hop.from) → \(hop.to) by \(hop.channel)\(hop.url.map { " \($0)" } ?? ""): \(hop.grant)")))]))
    }

    /// The tool: its name, version and a rule per channel a leak can end on.
    static func driver() -> JSONObject {
        let rules: [JSONValue] = channels.map { channel in
            .object(JSONObject(members: [
                .init("id", .string(ruleID(channel))),
                .init("name", .string("LeakBy" + channel.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())),
                .init("shortDescription", .object(JSONObject(["text": .string("Documents reach an app outside the zone of trust; the last hop is \(channel.rawValue).")]))),
                .init("fullDescription", .object(JSONObject(["text": .string("A chain of requests, each allowed end to end by the fleet's settings, delivers a document from a managed app to an app outside the device's zone of trust; its last hop uses \(channel.rawValue). The code flow names, hop by hop, the setting that lets it through.")]))),
                .init("defaultConfiguration", .object(JSONObject(["level": .string("error")]))),
                .init("helpUri", .string("https://github.com/openin-check/openin-check/blob/main/Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md")),
            ]))
        }
        return SARIFLog.driver(rules: rules)
    }

    /// A result as a JSON value: the message, the place of the hop that leaks (the last, whose grant the Markdown's
    /// "granted by" names), the code flow (a step per hop), the fingerprint,
    /// and for a diff the baseline state, for an accepted path its suppression.
    package static func result(_ path: ReportPath, opened: Bool) -> JSONObject {
        let channel = path.hops.last?.channel ?? .documentInteraction
        let chain = ([path.from.rawValue] + path.hops.map { "\($0.channel) → \($0.to)" }).joined(separator: " ")
        var message = "device \(path.device): documents from \(path.from) reach \(path.to)\(path.outside ? ", outside the zone of trust," : "") in \(MarkdownReport.count(path.hops.count, "hop")): \(chain)."
        if opened { message += " The change opens this path." }
        switch path.state {
        case .new?: message += " Not in the baseline."
        case .accepted?: message += " Accepted until \(path.entry?.expires.description ?? ""): \(path.entry?.reason ?? "")."
        case .expired?: message += " The acceptance expired on \(path.entry?.expires.description ?? ""): \(path.entry?.reason ?? "")."
        case nil: break
        }
        let flow = JSONObject(members: [.init("threadFlows", .array(JSONArray([.object(JSONObject(members: [.init("locations", .array(JSONArray(path.hops.map(step))))]))])))])
        var members: [JSONObject.Member] = [
            .init("ruleId", .string(ruleID(channel))),
            .init("ruleIndex", .number(JSONNumber(channels.firstIndex(of: channel) ?? 0))),
            .init("level", .string("error")),
            .init("message", .object(JSONObject(["text": .string(SARIFText.message(message))]))),
            .init("locations", .array(JSONArray([.object(location(path.hops.last, text: nil))]))),
            .init("codeFlows", .array(JSONArray([.object(flow)]))),
            .init("partialFingerprints", .object(JSONObject(["leakPath/v1": .string(path.fingerprint)]))),
        ]
        if opened { members.append(.init("baselineState", .string("new"))) }
        if path.state == .accepted, let entry = path.entry {
            members.append(.init("suppressions", .array(JSONArray([.object(JSONObject(members: [
                .init("kind", .string("external")), .init("justification", .string(SARIFText.plain(entry.reason))),
            ]))]))))
        }
        return JSONObject(members: members)
    }

    package static func location(_ hop: ReportHop?, text: String?) -> JSONObject {
        var physical: [JSONObject.Member] = [.init("artifactLocation", .object(JSONObject(["uri": .string(SARIFLog.uri(hop?.file ?? ""))])))]
        if let line = hop?.line { physical.append(.init("region", .object(JSONObject(["startLine": .number(JSONNumber(line))])))) }
        var members: [JSONObject.Member] = [.init("physicalLocation", .object(JSONObject(members: physical)))]
        if let text { members.append(.init("message", .object(JSONObject(["text": .string(SARIFText.message(text))])))) }
        return JSONObject(members: members)
    }
}

// MARK: - DOT

/// A Graphviz digraph: one cluster per device, outside apps filled red, sources blue, each edge
/// labelled with its channels; for a diff, opened edges solid and closed ones dashed.
package enum DOTReport {
    /// The digraph's beginning: its title and defaults.
    package static func start(_ subject: ReportSubject) -> String {
        // Each name elided to under half of what a quoted string shows, so the title keeps both.
        let name = { (text: String) in text.elidedInTheMiddle(limit: String.shownNameLimit / 2 - 40) }
        let title: String = switch subject {
        case .paths(let from, let to): "leak paths from \(name(from)) to \(name(to ?? "outside"))"
        case .diff(let old, let new): "leak paths opened and closed, \(name(old)) → \(name(new))"
        }
        return "digraph \"leak paths\" {\n    label=\(DOTText.quoted(title));\n    labelloc=t;\n    rankdir=LR;\n    node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];\n    edge [fontname=\"Helvetica\", fontsize=10];\n"
    }

    package static func report(_ devices: [DeviceReport], subject: ReportSubject) -> String {
        var text = start(subject)
        for (d, device) in devices.enumerated() {
            text += "    subgraph cluster_\(d + 1) {\n        label=\(DOTText.quoted("device " + device.device));\n"
            var ids: [FleetNode: Int] = [:]
            var nodes: [(FleetNode, outside: Bool, source: Bool)] = []
            var edges: [(from: Int, to: Int, channels: [String], closed: Bool)] = []
            var edgeIndex: [Int: Int] = [:]
            func id(_ node: FleetNode) -> Int {
                if let id = ids[node] { return id }
                nodes.append((node, false, false))
                ids[node] = nodes.count
                return nodes.count
            }
            for (closed, paths) in [(false, device.paths), (true, device.closed)] {
                for path in paths {
                    // Colours come from the paths shown (for a diff, the new fleet's): a closed path's ends may have changed sides.
                    if !closed {
                        nodes[id(.app(path.from)) - 1].source = true
                        if path.outside { nodes[id(path.to) - 1].outside = true }
                    }
                    for hop in path.hops {
                        let from = id(hop.from), to = id(hop.to)
                        let key = from << 33 | to << 1 | (closed ? 1 : 0)
                        if let index = edgeIndex[key] {
                            if !edges[index].channels.contains(hop.channel.rawValue) { edges[index].channels.append(hop.channel.rawValue) }
                        } else {
                            edgeIndex[key] = edges.count
                            edges.append((from, to, [hop.channel.rawValue], closed))
                        }
                    }
                }
            }
            for (index, node) in nodes.enumerated() {
                var attributes = "label=\(DOTText.quoted(node.0.description))"
                if node.outside { attributes += ", style=\"rounded,filled\", fillcolor=\"#fde2e1\", color=\"#b42318\"" } else if node.source { attributes += ", style=\"rounded,filled\", fillcolor=\"#e0eaff\", color=\"#1849a9\"" }
                text += "        d\(d + 1)n\(index + 1) [\(attributes)];\n"
            }
            for edge in edges {
                let style = edge.closed ? ", style=dashed, color=\"#667085\"" : ""
                text += "        d\(d + 1)n\(edge.from) -> d\(d + 1)n\(edge.to) [label=\(DOTText.quoted(edge.channels.joined(separator: ", ")))\(style)];\n"
            }
            if nodes.isEmpty { text += "        d\(d + 1)none [label=\"no path\", shape=plaintext];\n" }
            text += "    }\n"
        }
        return text + "}\n"
    }
}
