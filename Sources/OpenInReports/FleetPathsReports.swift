import OpenInPolicy

/// The Markdown and DOT reports of `fleet paths`, written device by device as the searches end: what
/// ``MarkdownReport/report(_:subject:baseline:)`` and ``DOTReport/report(_:subject:)`` write for the same
/// paths, without holding them. Per device it keeps what the format must: Markdown, the grouped diagram's
/// ``LeakGraph`` (paths counted per node and edge); DOT, every node and edge of the device's cluster (each
/// once, with its channels) and the same ``LeakGraph``, drawn instead beyond ``ReportLimits/maxDOTEdges`` edges.
/// So memory is O(nodes + distinct edges) per device, never per path.
///
/// Markdown leads with a summary of every device (the paths, their sources and baseline states) and
/// the baseline's resolved entries, so it is written in two passes over the searches: ``count`` (no
/// hop decided) for the summary, then ``rows`` for the tables and diagrams.
struct PathsReportStream {
    package let format: LeakReportFormat
    package let subject: ReportSubject

    /// Markdown's first pass: per device searched, the paths shown, their distinct sources and states.
    struct DeviceCount {
        package var device: String
        package var paths = 0
        package var sources: Set<String> = []
        package var states: [FleetBaseline.State: Int] = [:]
    }
    private(set) var counts: [DeviceCount] = []

    /// The device being written (its name and cluster number), and what its diagram needs.
    private var device: String?
    private var clusters = 0
    private var nodes: [FleetNode] = []
    /// Per node index: its id in the diagram (0: none yet), whether a path ends there outside, whether a path starts there.
    private var ids: [Int32] = []
    private var order: [Int] = []
    private var isOutside: [Bool] = []
    private var isSource: [Bool] = []
    /// DOT: every edge, by its ends' ids.
    private var edges: [(from: Int32, to: Int32, channels: [FleetChannel])] = []
    private var edgeIndex: [Int: Int] = [:]
    /// Both: the paths shown, grouped (``LeakGraph``), and a path's node indices, source first.
    private var graph = LeakGraph()
    private var chainNodes: [Int] = []
    /// Markdown: each node's name as an inline code span, made once per device.
    private var codes: [String?] = []
    private var text: [UInt8] = []
    /// Markdown: what it may still write, the rows written, the devices whose section was begun, and the device being written's counts.
    package let limits: ReportLimits
    private var budget: MarkdownBudget
    private var rowsWritten = 0
    private var devicesShown = 0
    private var current: DeviceCount?
    /// Whether the device being written has its heading written (its closing pieces go under it).
    private var shown = false

    package init(format: LeakReportFormat, subject: ReportSubject, limits: ReportLimits = ReportLimits()) {
        (self.format, self.subject, self.limits) = (format, subject, limits)
        budget = MarkdownBudget(limits.maxMarkdownBytes)
    }

    /// The paths of `count` a table lists: every one shown, less the accepted ones unless `--show accepted`.
    private func listed(_ count: DeviceCount) -> Int { count.paths - hidden(count) }

    /// The accepted paths of `count` that are counted, not listed.
    private func hidden(_ count: DeviceCount) -> Int { limits.showAccepted ? 0 : count.states[.accepted, default: 0] }

    /// Writes `piece` when it fits the budget (leaving `keep` bytes more); whether it was written.
    @discardableResult private mutating func emit(_ piece: String, keep: Int = 0, to output: any ReportSink) -> Bool {
        guard budget.take(piece.utf8.count, keep: keep) else { return false }
        output.write(piece)
        return true
    }

    // MARK: Markdown, first pass

    /// Counts one search's paths shown (`states`: the baseline's judgement of each, when one is given).
    package mutating func count(device: String, app: BundleID, paths: Int, states: [FleetBaseline.State]) {
        if counts.last.map({ !ExactText.same($0.device, device) }) ?? true { counts.append(DeviceCount(device: device)) }
        counts[counts.count - 1].paths += paths
        if paths > 0 { counts[counts.count - 1].sources.insert(app.rawValue) }
        for state in states { counts[counts.count - 1].states[state, default: 0] += 1 }
    }

    /// Writes ``header(baseline:)`` line by line within the budget.
    mutating func writeHeader(baseline: BaselineRun?, to output: any ReportSink) {
        let text = header(baseline: baseline)
        var line = ""
        for character in text {
            line.append(character)
            if character == "\n" {
                emit(line, to: output)
                line = ""
            }
        }
        if !line.isEmpty { emit(line, to: output) }
    }

    /// The report's beginning, from the first pass: the title, a line per device, the baseline's summary and resolved entries.
    package func header(baseline: BaselineRun?) -> String {
        var text: String
        switch subject {
        case .paths(let from, let to):
            let start = ExactText.same(from, ReportSubject.everyApp) ? "every app" : MarkdownText.code(from, inTable: false)
            let target = to.map { ExactText.same($0, "outside") ? "outside" : MarkdownText.code($0, inTable: false) } ?? "outside"
            text = "## Leak paths from \(start) to \(target)\n\n"
        case .diff(let old, let new):
            text = "## Leak paths opened and closed: \(MarkdownText.code(old, inTable: false)) → \(MarkdownText.code(new, inTable: false))\n\n"
        }
        for device in counts {
            text += "- \(MarkdownText.code(device.device, inTable: false)): \(MarkdownReport.count(device.paths, "path")) from \(MarkdownReport.count(device.sources.count, "app"))"
            if baseline != nil {
                text += " (\(device.states[.new, default: 0]) new, \(device.states[.accepted, default: 0]) accepted, \(device.states[.expired, default: 0]) expired)"
            }
            text += "\n"
        }
        if counts.isEmpty { text += "No device was examined.\n" }
        if let baseline { text += MarkdownReport.baselineSection(baseline) }
        return text
    }

    // MARK: Both formats, second pass

    /// Starts `device` unless it is the one being written (its nodes are `nodes`); ends the one before it.
    mutating func enter(_ device: AnalyzedDevice, nodes: [FleetNode], baseline: Bool, to output: any ReportSink) {
        if let current = self.device, ExactText.same(current, device.name) { return }
        leave(to: output)
        self.device = device.name
        clusters += 1
        self.nodes = nodes
        ids = Array(repeating: 0, count: nodes.count)
        order = []
        isOutside = Array(repeating: false, count: nodes.count)
        isSource = isOutside
        edges = []
        edgeIndex = [:]
        graph = LeakGraph()
        codes = Array(repeating: nil, count: nodes.count)
        switch format {
        case .markdown:
            var text = "\n### Device \(MarkdownText.code(device.name, inTable: false))\n\n"
            text += "Zone of trust: \(MarkdownText.text(device.zoneDescription)).\n\n"
            current = counts.first { ExactText.same($0.device, device.name) }
            let paths = current?.paths ?? 0
            if paths == 0 {
                text += "No path.\n"
            } else if current.map(listed) == 0 {
                text += "No new or expired path.\n"
            } else {
                var header = ["from", "to", "hops", "via", "granted by"]
                if baseline { header.append("state") }
                text += "| " + header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: header.count) + "\n"
            }
            shown = emit(text, keep: budget.diagramRoom, to: output)
            if shown { devicesShown += 1 }
        case .dot:
            if clusters == 1 { output.write(DOTReport.start(subject)) }
            output.write("    subgraph cluster_\(clusters) {\n        label=\(DOTText.quoted("device " + device.name));\n")
        case .sarif:
            break
        }
    }

    /// Ends the device being written: Markdown's diagram, DOT's nodes and edges.
    mutating func leave(to output: any ReportSink) {
        guard device != nil else { return }
        device = nil
        switch format {
        case .markdown:
            guard shown else { break }
            if let current, hidden(current) > 0 {
                let line = "\n\(MarkdownReport.count(hidden(current), "accepted path")) not listed (`--show accepted` lists them).\n"
                if budget.takeClosing(line.utf8.count) { output.write(line) }
            }
            if budget.room >= 1_000 {
                let diagram = mermaid(maxBytes: budget.room)
                if budget.takeClosing(diagram.utf8.count) { output.write(diagram) }
            }
        case .dot: output.write(cluster())
        case .sarif: break
        }
    }

    /// Ends the report.
    package mutating func finish(to output: any ReportSink) {
        leave(to: output)
        if format == .markdown, budget.cut {
            let total = counts.reduce(0) { $0 + listed($1) }
            let what = subject.isDiff ? "paths opened" : limits.showAccepted ? "paths" : "paths to act on"
            output.write(MarkdownBudget.note(limit: budget.limit, left: total - rowsWritten, of: total, what: what, devices: counts.count - devicesShown))
        }
        if format == .dot {
            if clusters == 0 { output.write(DOTReport.start(subject)) }
            output.write("}\n")
        }
    }

    /// The id of the node at `index` in the diagram, given on first sight.
    private mutating func id(_ index: Int) -> Int32 {
        if ids[index] == 0 {
            order.append(index)
            ids[index] = Int32(order.count)
        }
        return ids[index]
    }

    /// One search's paths shown (each a node of `tree`, outside or not, with its baseline state and entry),
    /// as table rows (Markdown) and edges (both).
    package mutating func rows(_ tree: FleetTree, device: AnalyzedDevice, from app: BundleID, shown: [(node: Int, outside: Bool, state: FleetBaseline.State?, entry: FleetBaseline.Entry?)],
                       to output: any ReportSink) {
        guard let first = shown.first else { return }
        var start = first.node
        while tree.predecessor(start) >= 0 { start = tree.predecessor(start) }
        let file = device.analysis.file
        var chain: [Int] = []
        for path in shown {
            chain.removeAll(keepingCapacity: true)
            var current = path.node
            while tree.predecessor(current) >= 0 {
                chain.append(current)
                current = tree.predecessor(current)
            }
            chain.reverse()
            if format != .sarif, path.state != .accepted || limits.showAccepted || format == .dot {
                chainNodes.removeAll(keepingCapacity: true)
                chainNodes.append(start)
                chainNodes += chain
                let nodes = nodes
                graph.add(chainNodes, kind: LeakGraph.kind(nodes[path.node], outside: path.outside)) { nodes[$0].description }
            }
            switch format {
            case .markdown:
                if path.state == .accepted && !limits.showAccepted { continue }
                if budget.cut { continue }
                var cells = [code(start), code(path.node), "\(chain.count)",
                             chain.count == 1 ? "(direct)" : chain.dropLast().map { code($0) }.joined(separator: ", "),
                             MarkdownText.text(ReportHop(tree.hops[path.node]!, file: file).grant)]
                if let state = path.state {
                    switch state {
                    case .new: cells.append("**new**")
                    case .accepted: cells.append("accepted until \(path.entry?.expires.description ?? ""): \(MarkdownText.text(path.entry?.reason ?? ""))")
                    case .expired: cells.append("**expired** on \(path.entry?.expires.description ?? ""): \(MarkdownText.text(path.entry?.reason ?? ""))")
                    }
                }
                let row = "| " + cells.joined(separator: " | ") + " |\n"
                guard budget.take(row.utf8.count, keep: budget.diagramRoom) else { continue }
                rowsWritten += 1
                text += row.utf8
            case .dot:
                isSource[Int(id(start)) - 1] = true
                if path.outside { isOutside[Int(id(path.node)) - 1] = true }
                for y in chain {
                    let from = id(tree.predecessor(y)), to = id(y)
                    let channel = tree.hops[y]!.channel
                    let key = Int(from) << 32 | Int(to)
                    if let index = edgeIndex[key] {
                        if !edges[index].channels.contains(channel) { edges[index].channels.append(channel) }
                    } else {
                        edgeIndex[key] = edges.count
                        edges.append((from, to, [channel]))
                    }
                }
            case .sarif:
                break
            }
            if text.count >= 1 << 16 {
                text.withUnsafeBufferPointer { output.write(bytes: $0) }
                text.removeAll(keepingCapacity: true)
            }
        }
        text.withUnsafeBufferPointer { output.write(bytes: $0) }
        text.removeAll(keepingCapacity: true)
    }

    /// The node at `index` as an inline code span, made once per device.
    private mutating func code(_ index: Int) -> String {
        if let known = codes[index] { return known }
        let made = MarkdownText.code(nodes[index].description)
        codes[index] = made
        return made
    }

    /// Markdown's diagram of the device being left (``MarkdownReport/graph(_:maxBytes:)``'s text).
    private func mermaid(maxBytes: Int) -> String { graph.mermaid(maxEdges: MarkdownReport.maxEdges, maxBytes: maxBytes) }

    /// DOT's nodes and edges of the device being left, and the cluster's end (``DOTReport/report(_:subject:)``'s text);
    /// beyond ``ReportLimits/maxDOTEdges`` edges, the grouped graph (``LeakGraph``).
    private func cluster() -> String {
        let d = clusters
        if edges.count > limits.maxDOTEdges { return graph.dot(cluster: d, maxEdges: limits.maxDOTEdges) + "    }\n" }
        var text = ""
        for (position, index) in order.enumerated() {
            var attributes = "label=\(DOTText.quoted(nodes[index].description))"
            if isOutside[position] {
                attributes += ", style=\"rounded,filled\", fillcolor=\"#fde2e1\", color=\"#b42318\""
            } else if isSource[position] {
                attributes += ", style=\"rounded,filled\", fillcolor=\"#e0eaff\", color=\"#1849a9\""
            }
            text += "        d\(d)n\(position + 1) [\(attributes)];\n"
        }
        for edge in edges {
            text += "        d\(d)n\(edge.from) -> d\(d)n\(edge.to) [label=\(DOTText.quoted(edge.channels.map(\.rawValue).joined(separator: ", ")))];\n"
        }
        if order.isEmpty { text += "        d\(d)none [label=\"no path\", shape=plaintext];\n" }
        return text + "    }\n"
    }
}
