import OpenInPolicy

/// One device's part of a report: the paths shown (for `fleet diff`, the paths opened) and, for a
/// diff, the paths closed.
struct DeviceReport {
    var device: String
    /// For `fleet paths`, what outside means there (the zone of trust), when known.
    var zone: String?
    var paths: [ReportPath]
    var closed: [ReportPath] = []
}

/// What a report is about: the paths of one run of `fleet paths`, or what changed in `fleet diff`.
enum ReportSubject {
    /// `fleet paths --from APP` (`all` for every app); `to` is the `--to` value, when given.
    case paths(from: String, to: String?)
    /// `fleet diff OLD NEW`.
    case diff(old: String, new: String)

    var isDiff: Bool { if case .diff = self { true } else { false } }
}

/// The report formats of `fleet paths` and `fleet diff`: Markdown (tables and a Mermaid graph per
/// device, as GitHub renders them), SARIF 2.1.0 (a result per path, a code flow per hop) and
/// Graphviz DOT (a cluster per device). Everything taken from input is escaped for the format.
enum LeakReportFormat: String {
    case markdown, sarif, dot

    /// Writes the whole report.
    func write(_ devices: [DeviceReport], subject: ReportSubject, baseline: BaselineRun?, console: Console) {
        switch self {
        case .markdown: console.stdout.write(MarkdownReport.report(devices, subject: subject, baseline: baseline))
        case .sarif: SARIFReport.write(devices, subject: subject, console: console)
        case .dot: console.stdout.write(DOTReport.report(devices, subject: subject))
        }
    }
}

// MARK: - Markdown

/// CommonMark as GitHub renders it, with one fenced `mermaid` block per device.
enum MarkdownReport {
    /// The most edges a diagram draws; the rest are counted below it.
    static let maxEdges = 50

    static func report(_ devices: [DeviceReport], subject: ReportSubject, baseline: BaselineRun?) -> String {
        var text: String
        switch subject {
        case .paths(let from, let to):
            let start = ExactText.same(from, FleetOutput.everyApp) ? "every app" : code(from)
            let target = to.map { ExactText.same($0, "outside") ? "outside" : code($0) } ?? "outside"
            text = "## Leak paths from \(start) to \(target)\n\n"
        case .diff(let old, let new):
            text = "## Leak paths opened and closed: \(code(old)) → \(code(new))\n\n"
        }
        // The summary first: a line per device.
        for device in devices {
            text += "- \(code(device.device)): "
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
        for device in devices {
            text += "\n### Device \(code(device.device))\n\n"
            if let zone = device.zone { text += "Zone of trust: \(plain(zone)).\n\n" }
            text += table(device.paths, opened: subject.isDiff ? "opened" : nil, baseline: baseline != nil)
            if subject.isDiff && !device.closed.isEmpty {
                text += "\nClosed:\n\n" + table(device.closed, opened: "closed", baseline: false)
            }
            text += graph(device)
        }
        return text
    }

    /// The baseline's summary and its resolved entries (accepted paths that no longer exist), after the device lines.
    static func baselineSection(_ baseline: BaselineRun) -> String {
        var text = "\nBaseline \(code(baseline.baseline.file ?? "")): \(baseline.summary).\n"
        let resolved = baseline.resolved
        if !resolved.isEmpty {
            text += "\nResolved (accepted paths that no longer exist; the entries can go):\n\n"
            for entry in resolved {
                text += "- \(code(entry.deviceName)): \(code(entry.from.rawValue)) → \(code(entry.to.description)) (line \(entry.line ?? 0))\n"
            }
        }
        return text
    }

    static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    static func table(_ paths: [ReportPath], opened: String?, baseline: Bool) -> String {
        if paths.isEmpty { return opened == nil ? "No path.\n" : "No path \(opened!).\n" }
        var header = ["from", "to", "hops", "via", "granted by"]
        if opened != nil { header.insert("change", at: 0) }
        if baseline { header.append("state") }
        var text = "| " + header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: header.count) + "\n"
        for path in paths {
            var cells = [code(path.from.rawValue), code(path.to.description), "\(path.hops.count)",
                         path.via.isEmpty ? "(direct)" : path.via.map { code($0.description) }.joined(separator: ", "),
                         path.hops.last.map { plain($0.grant) } ?? ""]
            if let opened { cells.insert(opened, at: 0) }
            if baseline, let state = path.state {
                switch state {
                case .new: cells.append("**new**")
                case .accepted: cells.append("accepted until \(path.entry?.expires.description ?? ""): \(plain(path.entry?.reason ?? ""))")
                case .expired: cells.append("**expired** on \(path.entry?.expires.description ?? ""): \(plain(path.entry?.reason ?? ""))")
                }
            }
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }

    /// The device's leak graph: each node once, with a generated id (`n1`, `n2`, …), its label quoted
    /// and escaped; the sources drawn apart, outside apps styled apart; at most ``maxEdges`` edges.
    static func graph(_ device: DeviceReport) -> String {
        var ids: [FleetNode: Int] = [:]
        var order: [FleetNode] = []
        var edges: [(from: Int, to: Int, label: String)] = []
        // By from and to node ids; and each (edge, channel) labelled, so a repeated hop costs two lookups.
        var edgeIndex: [Int: Int] = [:]
        var labelled: Set<Int> = []
        var outside: Set<FleetNode> = []
        var sources: Set<FleetNode> = []
        func id(_ node: FleetNode) -> Int {
            if let id = ids[node] { return id }
            order.append(node)
            ids[node] = order.count
            return order.count
        }
        for path in device.paths {
            sources.insert(.app(path.from))
            if path.outside { outside.insert(path.to) }
            for hop in path.hops {
                let from = id(hop.from), to = id(hop.to)
                let key = from << 32 | to
                let channel = FleetChannel.allCases.firstIndex(of: hop.channel)!
                if let index = edgeIndex[key] {
                    if labelled.insert(index << 6 | channel).inserted { edges[index].label += ", " + hop.channel.rawValue }
                } else {
                    edgeIndex[key] = edges.count
                    labelled.insert(edges.count << 6 | channel)
                    edges.append((from, to, hop.channel.rawValue))
                }
            }
        }
        if edges.isEmpty { return "" }
        let drawn = edges.prefix(maxEdges)
        var used: Set<Int> = []
        for edge in drawn { used.insert(edge.from); used.insert(edge.to) }
        var text = "\n```mermaid\nflowchart LR\n"
        for (index, node) in order.enumerated() where used.contains(index + 1) {
            let style = outside.contains(node) ? ":::outside" : sources.contains(node) ? ":::source" : ""
            text += "    n\(index + 1)[\"\(mermaid(node.description))\"]\(style)\n"
        }
        for edge in drawn { text += "    n\(edge.from) -->|\"\(mermaid(edge.label))\"| n\(edge.to)\n" }
        text += "    classDef outside fill:#fde2e1,stroke:#b42318,color:#7a271a\n    classDef source fill:#e0eaff,stroke:#1849a9\n```\n"
        if edges.count > maxEdges { text += "\n\(edges.count - maxEdges) more edges not drawn.\n" }
        return text
    }

    /// Text as a Mermaid label inside double quotes: control characters shown as escapes first, then
    /// every ASCII character but letters, digits, space and `.-_/:@+,` as a Mermaid entity code
    /// (`#quot;`, `#35;`, …), so no name can close the label, start markup or end the block.
    static func mermaid(_ text: String) -> String {
        var result = ""
        for scalar in DecisionText.escaped(text).unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", ".", "-", "_", "/", ":", "@", "+", ",": result.unicodeScalars.append(scalar)
            case "\"": result += "#quot;"
            case _ where scalar.isASCII: result += "#\(scalar.value);"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text as an inline code span that survives a table cell: control characters shown as escapes,
    /// `|` escaped, the fence longer than any run of backticks inside.
    static func code(_ text: String) -> String {
        let shown = DecisionText.escaped(text).escapingCharacters { $0 == "|" ? "\\|" : nil }
        var longest = 0, run = 0
        for character in shown {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = shown.hasPrefix("`") || shown.hasSuffix("`") || shown.hasPrefix(" ") || shown.hasSuffix(" ") || shown.isEmpty ? " \(shown) " : shown
        return fence + padded + fence
    }

    /// Text as plain Markdown: control characters shown as escapes, and every character that can
    /// start inline markup, HTML, an entity, math or a table cell backslash-escaped (CommonMark allows
    /// it for any ASCII punctuation), so no input turns into markup.
    static func plain(_ text: String) -> String {
        DecisionText.escaped(text).escapingScalars { scalar in
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "!", "#", "|", "~", "&", "$", "(", ")": "\\" + String(scalar)
            default: nil
            }
        }
    }
}

// MARK: - SARIF

/// SARIF 2.1.0: a rule per channel a leak's last hop takes (the kind of leak), a result per path,
/// each with a code flow of one location per hop at the line of the setting that lets it through,
/// and a fingerprint of what the path is.
enum SARIFReport {
    /// The channels a leak can end on, in order: every channel paths follow (not keyboard, nor the one-sided
    /// copy, print, save-as and open-into-org-document).
    static let channels: [FleetChannel] = FleetChannel.allCases.filter { ![.keyboard, .copy, .print, .saveAs, .openIntoOrgDocument].contains($0) }

    static func ruleID(_ channel: FleetChannel) -> String { "leak/\(channel.rawValue)" }

    static func write(_ devices: [DeviceReport], subject: ReportSubject, console: Console) {
        var stream = Stream()
        var bytes = stream.start()
        for device in devices {
            for path in device.paths {
                stream.append(path, opened: subject.isDiff, to: &bytes)
                if bytes.count > 1 << 16 {
                    console.stdout.write(String(decoding: bytes, as: UTF8.self))
                    bytes.removeAll(keepingCapacity: true)
                }
            }
        }
        bytes += stream.end()
        console.stdout.write(String(decoding: bytes, as: UTF8.self))
    }

    /// The log written a result at a time (`fleet paths --from all` writes each app's results as its search
    /// ends): the run's header, the results, the end. Each result is written directly; its code flow's steps
    /// are written once per hop of a search (paths from one app share the hops of their chains) and copied.
    struct Stream {
        private var first = true
        /// The steps of the chains of the current search (device and source), by the node each ends at.
        private var steps = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
        private var search: (device: String, from: BundleID)? = nil

        /// The log up to the results array's opening bracket.
        func start() -> [UInt8] {
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
            let driver = JSONObject(members: [
                .init("name", .string(CLI.name)),
                .init("version", .string(CLI.version)),
                .init("informationUri", .string("https://github.com/openin-check/openin-check")),
                .init("rules", .array(JSONArray(rules))),
            ])
            var bytes: [UInt8] = Array("{\n  \"$schema\": \(JSONWriter.quoted(SARIFLog.schema)),\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": ".utf8)
            JSONWriter.append(.object(driver), to: &bytes, pretty: true, level: 4)
            bytes += Array("\n      },\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [".utf8)
            return bytes
        }

        /// One result (after a comma when it is not the first), as ``SARIFReport/result(_:opened:)`` makes it,
        /// laid out as the pretty JSON writer lays out the whole log.
        mutating func append(_ path: ReportPath, opened: Bool, to bytes: inout [UInt8]) {
            bytes += Array((first ? "\n        " : ",\n        ").utf8)
            first = false
            if let search, ExactText.same(search.device, path.device), search.from == path.from {
            } else {
                steps = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
                search = (path.device, path.from)
            }
            let members = result(path, opened: opened).members
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.newline(&bytes, pretty: true, level: 5)
                JSONWriter.appendQuoted(member.key, to: &bytes)
                bytes += Array(": ".utf8)
                guard ExactText.same(member.key, "codeFlows"), !path.hops.isEmpty else {
                    JSONWriter.append(member.value, to: &bytes, pretty: true, level: 5)
                    continue
                }
                // [{"threadFlows": [{"locations": [steps]}]}], each step written once per search.
                bytes.append(UInt8(ascii: "["))
                JSONWriter.newline(&bytes, pretty: true, level: 6)
                bytes += Array("{".utf8)
                JSONWriter.newline(&bytes, pretty: true, level: 7)
                bytes += Array("\"threadFlows\": [".utf8)
                JSONWriter.newline(&bytes, pretty: true, level: 8)
                bytes += Array("{".utf8)
                JSONWriter.newline(&bytes, pretty: true, level: 9)
                bytes += Array("\"locations\": [".utf8)
                bytes += steps.text(path.hops, to: \ReportHop.to) { hop, part in
                    JSONWriter.newline(&part, pretty: true, level: 10)
                    JSONWriter.append(step(hop), to: &part, pretty: true, level: 10)
                }
                for level in [9, 8, 7, 6, 5] {
                    JSONWriter.newline(&bytes, pretty: true, level: level)
                    bytes.append(level % 2 == 1 ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                }
            }
            JSONWriter.newline(&bytes, pretty: true, level: 4)
            bytes.append(UInt8(ascii: "}"))
        }

        /// The end of the log, after the last result.
        func end() -> [UInt8] { Array(((first ? "]" : "\n      ]") + "\n    }\n  ]\n}\n").utf8) }
    }

    /// One step of a result's code flow: the hop, at the line of the setting that lets it through.
    static func step(_ hop: ReportHop) -> JSONValue {
        .object(JSONObject(members: [.init("location", .object(location(hop, text: "\(hop.from) → \(hop.to) by \(hop.channel)\(hop.url.map { " \($0)" } ?? ""): \(hop.grant)")))]))
    }

    static func result(_ path: ReportPath, opened: Bool) -> JSONObject {
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
        // The code flow's steps are written by `Stream` (each once per search); an empty flow stands for them here.
        let flow = JSONObject(members: [.init("threadFlows", .array(JSONArray([.object(JSONObject(members: [.init("locations", .array(JSONArray([])))]))])))])
        var members: [JSONObject.Member] = [
            .init("ruleId", .string(ruleID(channel))),
            .init("ruleIndex", .number(JSONNumber(channels.firstIndex(of: channel) ?? 0))),
            .init("level", .string("error")),
            .init("message", .object(JSONObject(["text": .string(shown(message))]))),
            .init("locations", .array(JSONArray([.object(location(path.hops.first, text: nil))]))),
            .init("codeFlows", .array(JSONArray([.object(flow)]))),
            .init("partialFingerprints", .object(JSONObject(["leakPath/v1": .string(path.fingerprint)]))),
        ]
        if opened { members.append(.init("baselineState", .string("new"))) }
        if path.state == .accepted, let entry = path.entry {
            members.append(.init("suppressions", .array(JSONArray([.object(JSONObject(members: [
                .init("kind", .string("external")), .init("justification", .string(shown(entry.reason))),
            ]))]))))
        }
        return JSONObject(members: members)
    }

    static func location(_ hop: ReportHop?, text: String?) -> JSONObject {
        var physical: [JSONObject.Member] = [.init("artifactLocation", .object(JSONObject(["uri": .string(SARIFLog.uri(hop?.file ?? ""))])))]
        if let line = hop?.line { physical.append(.init("region", .object(JSONObject(["startLine": .number(JSONNumber(line))])))) }
        var members: [JSONObject.Member] = [.init("physicalLocation", .object(JSONObject(members: physical)))]
        if let text { members.append(.init("message", .object(JSONObject(["text": .string(shown(text))])))) }
        return JSONObject(members: members)
    }

    /// Text a reviewer reads (messages, justifications): control, bidirectional and line-separator characters
    /// shown as escapes, so none reorders or hides what code scanning displays.
    static func shown(_ text: String) -> String { DecisionText.escaped(text, backslash: false) }
}

// MARK: - DOT

/// A Graphviz digraph: one cluster per device, outside apps filled red, sources blue, each edge
/// labelled with its channels; for a diff, opened edges solid and closed ones dashed.
enum DOTReport {
    /// The digraph's beginning: its title and defaults.
    static func start(_ subject: ReportSubject) -> String {
        let title: String = switch subject {
        case .paths(let from, let to): "leak paths from \(from) to \(to ?? "outside")"
        case .diff(let old, let new): "leak paths opened and closed, \(old) → \(new)"
        }
        return "digraph \"leak paths\" {\n    label=\(quoted(title));\n    labelloc=t;\n    rankdir=LR;\n    node [shape=box, style=\"rounded\", fontname=\"Helvetica\"];\n    edge [fontname=\"Helvetica\", fontsize=10];\n"
    }

    static func report(_ devices: [DeviceReport], subject: ReportSubject) -> String {
        var text = start(subject)
        for (d, device) in devices.enumerated() {
            text += "    subgraph cluster_\(d + 1) {\n        label=\(quoted("device " + device.device));\n"
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
                var attributes = "label=\(quoted(node.0.description))"
                if node.outside { attributes += ", style=\"rounded,filled\", fillcolor=\"#fde2e1\", color=\"#b42318\"" } else if node.source { attributes += ", style=\"rounded,filled\", fillcolor=\"#e0eaff\", color=\"#1849a9\"" }
                text += "        d\(d + 1)n\(index + 1) [\(attributes)];\n"
            }
            for edge in edges {
                let style = edge.closed ? ", style=dashed, color=\"#667085\"" : ""
                text += "        d\(d + 1)n\(edge.from) -> d\(d + 1)n\(edge.to) [label=\(quoted(edge.channels.joined(separator: ", ")))\(style)];\n"
            }
            if nodes.isEmpty { text += "        d\(d + 1)none [label=\"no path\", shape=plaintext];\n" }
            text += "    }\n"
        }
        return text + "}\n"
    }

    /// A DOT double-quoted string: control characters shown as escapes first, then `\` and `"` escaped,
    /// so no name ends the string or forms a Graphviz escape (`\N`, `\l`).
    static func quoted(_ text: String) -> String {
        "\"" + DecisionText.escaped(text).escapingScalars { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            default: nil
            }
        } + "\""
    }
}
