import OpenInPolicy

/// What `fleet paths` prints, for both vendors: one block (text) or record (JSON) per device and starting
/// app. With `--from all` each is written as soon as it is made; with one app, the output is held until
/// every device is decided (an error prints nothing). A writer writes one run: its copies share what it holds.
public struct PathsWriter {
    /// The starting app; `nil` for every app (`--from all`).
    package let app: BundleID?
    package let to: String?
    package let target: BundleID?
    package let from: String
    /// Whether `--to` names an app the fleet does not know: "any other app".
    let targetIsOther: Bool
    package let names: any FleetAppLookup
    package let format: FleetPathsFormat
    package let sink: any ReportSink
    /// `--baseline`: judges each path to outside shown.
    public var baseline: BaselineRun?
    private var reached = false
    private var written = 0
    /// What a one-app search writes, held until every device is decided.
    private let pending = HeldOutput()
    /// Whether a one-app search writes straight to ``sink``: once the last device's paths are found, nothing can fail.
    private var streaming = false
    /// For the report formats (Markdown, SARIF, DOT): the paths shown, per device.
    package private(set) var reports: [DeviceReport] = []
    /// For SARIF: the log being written, once the first search is written.
    private var sarif: SARIFReport.Capped?
    /// How much of a report format GitHub takes (SARIF: results and bytes per run).
    public var limits = ReportLimits()

    /// A writer of the paths from `app` (every app when `nil`) to `target` (outside when `nil`), as `--from` and
    /// `--to` gave them (`from`, `to`), checked against the apps the fleet knows (`names`) by the caller.
    package init(app: BundleID?, from: String, to: String?, target: BundleID?, targetIsOther: Bool, names: any FleetAppLookup,
                 format: FleetPathsFormat, sink: any ReportSink) {
        (self.app, self.to, self.target, self.targetIsOther, self.names, self.format, self.sink, self.from) = (app, to, target, targetIsOther, names, format, sink, from)
    }

    /// How the text names the `--to` set: the app (saying when it is any other app, or not installed on
    /// `device`), or outside.
    private func targetName(device: String) -> String {
        guard let target else { return "outside" }
        if targetIsOther { return "\(target) (any other app: not an app of \(names.file))" }
        if target.isNativeMail || names.devices(installing: target).contains(where: { ExactText.same($0, device) }) { return "\(target)" }
        return "\(target) (not installed on this device; \(names.whereInstalled(target)))"
    }

    /// The node `--to` names, when it names one app.
    public var targetNode: FleetNode? { target.map { targetIsOther ? FleetNode.anyOtherApp : FleetNode.app($0) } }

    /// Where output goes now: the sink, or held while a one-app search's devices may still fail.
    private var output: any ReportSink { app == nil || streaming ? sink : pending }

    private mutating func out(_ text: String) {
        output.write(text)
    }

    /// Each node's name as the text shows it (escaped), made once.
    private var shownNames: [FleetNode: String] = [:]

    private mutating func shownName(_ node: FleetNode) -> String {
        if let known = shownNames[node] { return known }
        let name = DecisionText.escaped(node.description)
        shownNames[node] = name
        return name
    }

    /// The device whose zone line was written last (text: the zone line leads each device's output).
    private var zoned: String?

    /// Writes one device's paths from one app.
    package mutating func emit(_ device: AnalyzedDevice, app: BundleID, _ all: [FleetPath]) {
        defer { written += 1 }
        let target = target
        let targetIsOther = targetIsOther, names = names
        let isOutside = device.isOutside
        let installed = device.isInstalled(app)
        func inSet(_ node: FleetNode) -> Bool {
            guard let target else { return isOutside(node) }
            if targetIsOther { return node == .anyOtherApp }
            guard case .app(let id) = node else { return false }
            return target.isNativeMail ? id.isNativeMail : names.same(id, target)
        }
        let shown = to == nil ? all : all.filter { inSet($0.to) }
        // With a baseline, each path to outside in the set asked about is judged; the gate fails on a new or expired one.
        // An app outside the zone of trust holds no managed documents: its paths are shown, never judged or reported as leaks.
        let managed = !isOutside(.app(app))
        var states: [(state: FleetBaseline.State, entry: FleetBaseline.Entry?)?] = []
        if baseline != nil {
            if installed { baseline!.examine(device: device.name, from: app) }
            states = shown.map { path in managed && isOutside(path.to) && inSet(path.to) ? baseline!.judge(device: device.name, from: app, to: path.to) : nil }
            if states.contains(where: { $0 != nil && $0!.state != .accepted }) { reached = true }
        } else if all.contains(where: { inSet($0.to) }) {
            reached = true
        }
        if format.report != nil {
            var paths: [ReportPath] = []
            var reportHops = ChainMemo<[ReportHop]>()
            let file = device.analysis.file
            for (index, path) in shown.enumerated() where managed && inSet(path.to) {
                let judged = states.isEmpty ? nil : states[index]
                let hops = reportHops.text(path.hops) { hop, part in part.append(ReportHop(hop, file: file)) }
                paths.append(ReportPath(device: device.name, from: app, to: path.to, outside: isOutside(path.to), hops: hops, state: judged?.state, entry: judged?.entry))
            }
            if let last = reports.indices.last, ExactText.same(reports[last].device, device.name) {
                reports[last].paths += paths
            } else {
                reports.append(DeviceReport(device: device.name, zone: device.zoneDescription, paths: paths))
            }
            return
        }
        let summary = device.summary(of: all, gatedBy: inSet)
        // Each hop of this search written once: a chain's lines are those of the chain before its last hop, plus that hop.
        var chains = ChainMemo<String>()
        if format == .json {
            var hopsJSON = ChainMemo<[UInt8]>(separator: [UInt8(ascii: ",")])
            out(Self.record(device, app: app, installed: installed, shown, summary: summary, states: states, first: written == 0,
                            fromOutside: !managed, chains: &hopsJSON))
            return
        }
        var text = written == 0 ? "" : "\n"
        if zoned.map({ !ExactText.same($0, device.name) }) ?? true {
            zoned = device.name
            text += "zone of trust: \(DecisionText.escaped(device.zoneDescription))\n"
        }
        let outsideSet = device.analysis.vendor == .intune ? "outside the policy-managed apps" : "outside"
        let device = device.name
        guard installed else {
            out(text + "device \(DecisionText.escaped(device)): \(app) is not installed: no documents, no paths (\(names.whereInstalled(app)))\n")
            return
        }
        let outside = all.filter { isOutside($0.to) }.count
        text += "device \(DecisionText.escaped(device)): \(app) reaches \(all.count) app\(all.count == 1 ? "" : "s"), \(outside) \(outsideSet)"
        let gated = summary.paths
        text += "; \(gated == 0 ? "no path" : "\(gated) path\(gated == 1 ? "" : "s")") to \(targetName(device: device))\n"
        for (index, path) in shown.enumerated() {
            let judged = states.isEmpty ? nil : states[index]
            let mark = judged.map { "  " + BaselineRun.mark($0.state, $0.entry) } ?? ""
            text += "  \(shownName(path.to))  \(path.hops.count) hop\(path.hops.count == 1 ? "" : "s")\(isOutside(path.to) ? "  OUTSIDE" : "")\(mark)\n"
            text += "    delivered by "
            for (index, node) in path.deliveredBy.enumerated() {
                if index > 0 { text += ", " }
                text += shownName(node)
            }
            if path.deliveredByCount > path.deliveredBy.count { text += " and \(path.deliveredByCount - path.deliveredBy.count) more" }
            text += "\n"
            text += chains.text(path.hops, hopText: Self.appendText)
        }
        out(text)
    }

    /// Per device and search, the bytes written once (names, settings, hops): text and JSON.
    private var fast = PathsBytes()
    /// The deliverers of one path, reused.
    private var deliverers: [Int32] = []

    /// Writes one device's paths from one app (text or JSON), from the search: each hop found by the device's
    /// ``FleetHopFinder`` when it has one (kept for the device's searches), otherwise from the search's tree with every hop decided.
    /// With `last` (the last device), a one-app search's held output is written and the rest goes straight out once
    /// the device's hops are known: nothing after can fail, so nothing more is held.
    /// - Throws: ``FleetError`` when a policy that must decide does not set the control it needs.
    package mutating func emit(_ device: AnalyzedDevice, app: BundleID, reach: FleetReach, last: Bool = false) throws(FleetError) {
        let kept = fast.finder?.isFor(reach) == true
        let finder = kept ? nil : device.hopFinder(for: reach)
        if kept || finder != nil {
            if last { startStreaming() }
            emit(device, app: app, tree: FleetTree(undecided: reach), finder: finder, found: true)
        } else {
            let tree = try device.tree(reach)
            if last { startStreaming() }
            emit(device, app: app, tree: tree)
        }
    }

    /// Writes what is held, and from now on writes straight to the sink.
    private mutating func startStreaming() {
        guard app != nil, !streaming else { return }
        pending.release(to: sink)
        streaming = true
    }

    /// Writes one device's paths from one app (text or JSON), from the search's tree: what ``emit(_:app:_:)``
    /// writes for the same search's paths, each hop written once per search and each chain copied from them.
    /// With `found`, the tree's hops are not decided: the finder (`finder`, or the one kept for the device) finds them.
    package mutating func emit(_ device: AnalyzedDevice, app: BundleID, tree: FleetTree, finder: (any FleetHopSource)? = nil, found: Bool = false) {
        precondition(format == .text || format == .json, "the report formats are written from paths")
        defer { written += 1 }
        let target = target, targetIsOther = targetIsOther, names = names
        let isOutside = device.isOutside
        func inSet(_ node: FleetNode) -> Bool {
            guard let target else { return isOutside(node) }
            if targetIsOther { return node == .anyOtherApp }
            guard case .app(let id) = node else { return false }
            return target.isNativeMail ? id.isNativeMail : names.same(id, target)
        }
        let nodes = tree.nodes
        fast.prepare(device, nodes: nodes, inSet: inSet)
        if let finder { fast.use(finder, device: device) }
        fast.startSearch()
        let installed = device.isInstalled(app)
        let order = tree.order
        var shown: [Int] = []
        shown.reserveCapacity(order.count)
        var outsideCount = 0, gated = 0
        for node in order {
            let y = Int(node)
            if fast.outside[y] { outsideCount += 1 }
            if fast.inSet[y] { gated += 1 }
            if to == nil || fast.inSet[y] { shown.append(y) }
        }
        let fromOutside = isOutside(.app(app))
        let managed = !fromOutside
        var states: [(state: FleetBaseline.State, entry: FleetBaseline.Entry?)?] = []
        if baseline != nil {
            if installed { baseline!.examine(device: device.name, from: app) }
            states = shown.map { y in managed && fast.outside[y] && fast.inSet[y] ? baseline!.judge(device: device.name, from: app, to: nodes[y]) : nil }
            if states.contains(where: { $0 != nil && $0!.state != .accepted }) { reached = true }
        } else if gated > 0 {
            reached = true
        }
        if found, to == nil, installed, shown.count >= hopsInParts {
            // Every node reached is shown: its hop is written in parts across the cores first, then each chain copies them.
            fast.writeHops(shown.filter { tree.predecessor($0) >= 0 }, tree: tree, json: format == .json, minimum: hopsInParts)
        }
        var bytes: [UInt8] = []
        if format == .json {
            record(device, app: app, installed: installed, fromOutside: fromOutside, tree: tree, found: found, shown: shown,
                   summary: (order.count, outsideCount, gated), states: states, to: &bytes)
            out(bytes)
            return
        }
        var text = written == 0 ? "" : "\n"
        if zoned.map({ !ExactText.same($0, device.name) }) ?? true {
            zoned = device.name
            text += "zone of trust: \(DecisionText.escaped(device.zoneDescription))\n"
        }
        let outsideSet = device.analysis.vendor == .intune ? "outside the policy-managed apps" : "outside"
        guard installed else {
            out(text + "device \(DecisionText.escaped(device.name)): \(app) is not installed: no documents, no paths (\(names.whereInstalled(app)))\n")
            return
        }
        text += "device \(DecisionText.escaped(device.name)): \(app) reaches \(order.count) app\(order.count == 1 ? "" : "s"), \(outsideCount) \(outsideSet)"
        text += "; \(gated == 0 ? "no path" : "\(gated) path\(gated == 1 ? "" : "s")") to \(targetName(device: device.name))\n"
        bytes += text.utf8
        for (index, y) in shown.enumerated() {
            bytes += PathsBytes.twoSpaces
            bytes += fast.names[y]
            bytes += PathsBytes.twoSpaces
            let count = tree.hopCount(y)
            bytes += String(count).utf8
            bytes += (count == 1 ? PathsWriter.hopWord : PathsWriter.hopsWord)
            if fast.outside[y] { bytes += PathsWriter.outsideMark }
            if !states.isEmpty, let judged = states[index] {
                bytes += PathsBytes.twoSpaces
                bytes += BaselineRun.mark(judged.state, judged.entry).utf8
            }
            bytes += PathsWriter.deliveredByStart
            let deliveredCount = tree.deliveredBy(y, into: &deliverers)
            for (d, x) in deliverers.enumerated() {
                if d > 0 { bytes += PathsBytes.commaSpace }
                bytes += fast.names[Int(x)]
            }
            if deliveredCount > deliverers.count { bytes += " and \(deliveredCount - deliverers.count) more".utf8 }
            bytes.append(UInt8(ascii: "\n"))
            if found {
                fast.appendChain(y, tree: tree, json: false, to: &bytes)
            } else {
                fast.appendChain(y, tree: tree, to: &bytes) { fast, hop, node, part in
                    fast.appendText(hop, into: node, from: tree.predecessor(node), to: &part)
                }
            }
            if bytes.count >= 1 << 16 {
                out(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        out(bytes)
    }

    /// From this many paths shown, a search's hops are written in parts (of at least this many) across the cores
    /// before its chains; tests set it low, so that small fleets take that way too.
    package var hopsInParts = 2_048

    /// The report formats, written as the searches end (Markdown and DOT hold per device only what their diagrams need).
    private var stream: PathsReportStream?
    /// The baseline as it was before Markdown's first pass: its second pass judges the paths again with it,
    /// for the table's states, while ``baseline`` keeps the counts and resolved entries of the first.
    private var judging: BaselineRun?

    /// The report format's stream, made on first use.
    private mutating func reportStream() -> PathsReportStream {
        stream ?? PathsReportStream(format: format.report!, subject: .paths(from: from, to: to), limits: limits)
    }

    /// The paths a report shows of one search: managed sources' paths into the `--to` set (by default, outside).
    private mutating func reportNodes(_ device: AnalyzedDevice, app: BundleID, _ reach: FleetReach) -> (managed: Bool, nodes: [Int]) {
        let target = target, targetIsOther = targetIsOther, names = names
        let isOutside = device.isOutside
        fast.prepare(device, nodes: reach.nodes) { node in
            guard let target else { return isOutside(node) }
            if targetIsOther { return node == .anyOtherApp }
            guard case .app(let id) = node else { return false }
            return target.isNativeMail ? id.isNativeMail : names.same(id, target)
        }
        let managed = !isOutside(.app(app))
        var nodes: [Int] = []
        var any = false
        for node in reach.reachedIndices {
            let y = Int(node)
            if fast.inSet[y] {
                any = true
                if managed { nodes.append(y) }
            }
        }
        if baseline == nil, any { reached = true }
        return (managed, nodes)
    }

    /// Markdown's first pass over one search: the counts of its summary, the baseline judged (and the gate).
    package mutating func count(_ device: AnalyzedDevice, app: BundleID, _ reach: FleetReach) {
        if judging == nil { judging = baseline }
        var stream = reportStream()
        let (_, nodes) = reportNodes(device, app: app, reach)
        var states: [FleetBaseline.State] = []
        if baseline != nil {
            if device.isInstalled(app) { baseline!.examine(device: device.name, from: app) }
            for y in nodes where fast.outside[y] {
                let judged = baseline!.judge(device: device.name, from: app, to: reach.nodes[y])
                states.append(judged.state)
                if judged.state != .accepted { reached = true }
            }
        }
        stream.count(device: device.name, app: app, paths: nodes.count, states: states)
        self.stream = stream
    }

    /// Markdown's summary, once the first pass has counted every search.
    mutating func writeHeader() {
        guard format == .markdown else { return }
        var stream = reportStream()
        let target = output
        stream.writeHeader(baseline: baseline, to: target)
        self.stream = stream
    }

    /// Writes one search's paths in a report format: only the hops on their chains are decided (when no
    /// decision can throw).
    mutating func emitReport(_ device: AnalyzedDevice, app: BundleID, _ reach: FleetReach) throws(FleetError) {
        defer { written += 1 }
        var stream = reportStream()
        defer { self.stream = stream }
        let (_, nodes) = reportNodes(device, app: app, reach)
        let wanted = Set(nodes)
        let tree = try device.tree(reach, only: { wanted.contains($0) })
        var states: [(state: FleetBaseline.State, entry: FleetBaseline.Entry?)?] = []
        if format == .markdown {
            if judging != nil { states = nodes.map { y in fast.outside[y] ? judging!.judge(device: device.name, from: app, to: reach.nodes[y]) : nil } }
        } else if baseline != nil {
            if device.isInstalled(app) { baseline!.examine(device: device.name, from: app) }
            states = nodes.map { y in fast.outside[y] ? baseline!.judge(device: device.name, from: app, to: reach.nodes[y]) : nil }
            if states.contains(where: { $0 != nil && $0!.state != .accepted }) { reached = true }
        }
        if format == .sarif {
            // A result per path, its code flow's steps written once per search; the log kept within the limits.
            if sarif == nil { sarif = SARIFReport.Capped(limits) }
            var hops = [ReportHop?](repeating: nil, count: reach.nodes.count)
            let file = device.analysis.file
            for (index, y) in nodes.enumerated() {
                var chain: [ReportHop] = []
                var current = y
                while tree.predecessor(current) >= 0 {
                    if hops[current] == nil { hops[current] = ReportHop(tree.hops[current]!, file: file) }
                    chain.append(hops[current]!)
                    current = tree.predecessor(current)
                }
                let judged = states.isEmpty ? nil : states[index]
                sarif!.offer(ReportPath(device: device.name, from: app, to: reach.nodes[y], outside: fast.outside[y], hops: chain.reversed(),
                                        state: judged?.state, entry: judged?.entry), opened: false)
            }
            return
        }
        let target = output
        stream.enter(device, nodes: reach.nodes, baseline: baseline != nil, to: target)
        stream.rows(tree, device: device, from: app,
                    shown: nodes.enumerated().map { (index, y) in (y, fast.outside[y], states.isEmpty ? nil : states[index]?.state, states.isEmpty ? nil : states[index]?.entry) },
                    to: target)
    }

    static let hopWord = Array(" hop".utf8), hopsWord = Array(" hops".utf8), outsideMark = Array("  OUTSIDE".utf8)
    static let deliveredByStart = Array("\n    delivered by ".utf8)

    /// ``record(_:app:installed:_:summary:states:first:fromOutside:chains:)`` from a search's tree, each hop's JSON written once per search.
    private mutating func record(_ device: AnalyzedDevice, app: BundleID, installed: Bool, fromOutside: Bool, tree: FleetTree, found: Bool, shown: [Int],
                                 summary: (reachable: Int, outside: Int, paths: Int), states: [(state: FleetBaseline.State, entry: FleetBaseline.Entry?)?], to bytes: inout [UInt8]) {
        bytes += (written == 0 ? "[" : ",").utf8
        func line(_ level: Int) { JSONWriter.newline(&bytes, pretty: true, level: level) }
        func key(_ name: String, _ level: Int, first: Bool = false) { Self.appendKey(name, level, first: first, to: &bytes) }
        line(1)
        bytes.append(UInt8(ascii: "{"))
        key("device", 2, first: true)
        JSONWriter.appendQuoted(device.name, to: &bytes)
        key("from", 2)
        JSONWriter.appendQuoted(app.rawValue, to: &bytes)
        key("installed", 2)
        bytes.append(contentsOf: (installed ? "true" : "false").utf8)
        key("fromOutside", 2)
        bytes.append(contentsOf: (fromOutside ? "true" : "false").utf8)
        key("zone", 2)
        JSONWriter.appendQuoted(device.zoneDescription, to: &bytes)
        key("summary", 2)
        bytes.append(contentsOf: "{\"reachable\": \(summary.reachable), \"outside\": \(summary.outside), \"paths\": \(summary.paths)}".utf8)
        key("paths", 2)
        if shown.isEmpty {
            bytes.append(contentsOf: "[]".utf8)
        } else {
            bytes.append(UInt8(ascii: "["))
            for (p, y) in shown.enumerated() {
                if p > 0 { bytes.append(UInt8(ascii: ",")) }
                line(3)
                bytes.append(UInt8(ascii: "{"))
                key("to", 4, first: true)
                bytes += fast.quoted[y]
                key("outside", 4)
                bytes.append(contentsOf: (fast.outside[y] ? "true" : "false").utf8)
                if !states.isEmpty, let judged = states[p] {
                    key("state", 4)
                    JSONWriter.appendQuoted(judged.state.rawValue, to: &bytes)
                    if let entry = judged.entry {
                        key("accepted", 4)
                        JSONWriter.append(.object(JSONObject(members: [.init("reason", .string(entry.reason)), .init("expires", .string(entry.expires.description)),
                                                                       .init("line", .number(JSONNumber(entry.line ?? 0)))])), to: &bytes, pretty: true, level: 4)
                    }
                }
                key("hops", 4)
                bytes.append(UInt8(ascii: "["))
                if found {
                    fast.appendChain(y, tree: tree, json: true, to: &bytes)
                } else {
                    fast.appendChain(y, tree: tree, separator: UInt8(ascii: ","), to: &bytes) { _, hop, _, part in
                        Self.appendJSON(hop, device: device, level: 5, to: &part)
                    }
                }
                line(4)
                bytes.append(UInt8(ascii: "]"))
                key("deliveredBy", 4)
                bytes.append(UInt8(ascii: "["))
                let deliveredCount = tree.deliveredBy(y, into: &deliverers)
                for (d, x) in deliverers.enumerated() {
                    if d > 0 { bytes.append(contentsOf: ", ".utf8) }
                    bytes += fast.quoted[Int(x)]
                }
                bytes.append(UInt8(ascii: "]"))
                if deliveredCount > deliverers.count {
                    key("deliveredByMore", 4)
                    bytes.append(contentsOf: String(deliveredCount - deliverers.count).utf8)
                }
                line(3)
                bytes.append(UInt8(ascii: "}"))
                if bytes.count >= 1 << 16 {
                    out(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            line(2)
            bytes.append(UInt8(ascii: "]"))
        }
        line(1)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func out(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { output.write(bytes: $0) }
    }

    /// Closes the output; whether the gate fails: a path reaches the `--to` set (or, without `--to`, outside), or with a
    /// baseline a path to outside is new or expired.
    package mutating func finish() -> Bool {
        if format == .sarif {
            let log = sarif ?? SARIFReport.Capped(limits)
            let target = output
            log.finish(to: target)
            pending.release(to: sink)
            return reached
        }
        if format.report != nil {
            var stream = reportStream()
            let target = output
            stream.finish(to: target)
            pending.release(to: sink)
            return reached
        }
        if format == .json {
            if let baseline {
                var bytes: [UInt8] = Array((written == 0 ? "[" : ",").utf8)
                JSONWriter.newline(&bytes, pretty: true, level: 1)
                JSONWriter.append(baseline.json, to: &bytes, pretty: true, level: 1)
                out(String(decoding: bytes, as: UTF8.self) + "\n]\n")
            } else {
                out(written == 0 ? "[]\n" : "\n]\n")
            }
        } else if let baseline {
            out(baseline.text)
        }
        pending.release(to: sink)
        return reached
    }

    /// One hop's lines of the text block: the hop, then each setting that lets it through.
    static func appendText(_ hop: FleetHop, to text: inout String) {
        text += "    "
        text += DecisionText.escaped(hop.from.description)
        text += " → "
        text += DecisionText.escaped(hop.to.description)
        text += "  "
        text += hop.request.channel.rawValue
        if let url = hop.request.url { text += " \(DecisionText.escaped(url.rawValue))" }
        text += "  ["
        text += hop.decision.sender.rule.rawValue
        if let receiver = hop.decision.receiver { text += ", " + receiver.rule.rawValue }
        text += "]\n"
        for setting in hop.settings { appendSetting(setting, to: &text) }
    }

    /// One setting's line under a hop in the text block.
    static func appendSetting(_ setting: FleetSetting, to text: inout String) {
        text += "      "
        text += setting.side.rawValue
        text += " "
        text += DecisionText.escaped(setting.app.rawValue)
        text += ": "
        text += DecisionText.escaped(setting.key)
        text += " = "
        text += DecisionText.escaped(setting.value)
        text += "  ("
        text += DecisionText.escaped(setting.policy)
        text += ", "
        text += DecisionText.escaped(setting.via)
        let place = setting.place
        if !place.isEmpty {
            text += ", "
            text += DecisionText.escaped(place)
        }
        text += ")\n"
    }

    /// One element of the pretty-printed array of records (JSONWriter's layout: two spaces per level),
    /// written directly: a run over every app writes millions of hops.
    package static func record(_ device: AnalyzedDevice, app: BundleID, installed: Bool, _ shown: [FleetPath], summary: FleetPathSummary,
                       states: [(state: FleetBaseline.State, entry: FleetBaseline.Entry?)?] = [], first: Bool, fromOutside: Bool? = nil,
                       chains: inout ChainMemo<[UInt8]>) -> String {
        var bytes: [UInt8] = Array((first ? "[" : ",").utf8)
        func line(_ level: Int) { JSONWriter.newline(&bytes, pretty: true, level: level) }
        func key(_ name: String, _ level: Int, first: Bool = false) { appendKey(name, level, first: first, to: &bytes) }
        line(1)
        bytes.append(UInt8(ascii: "{"))
        key("device", 2, first: true)
        JSONWriter.appendQuoted(device.name, to: &bytes)
        key("from", 2)
        JSONWriter.appendQuoted(app.rawValue, to: &bytes)
        key("installed", 2)
        bytes.append(contentsOf: (installed ? "true" : "false").utf8)
        if let fromOutside {
            key("fromOutside", 2)
            bytes.append(contentsOf: (fromOutside ? "true" : "false").utf8)
        }
        key("zone", 2)
        JSONWriter.appendQuoted(device.zoneDescription, to: &bytes)
        key("summary", 2)
        bytes.append(contentsOf: "{\"reachable\": \(summary.reachable), \"outside\": \(summary.outside), \"paths\": \(summary.paths)}".utf8)
        key("paths", 2)
        if shown.isEmpty {
            bytes.append(contentsOf: "[]".utf8)
        } else {
            bytes.append(UInt8(ascii: "["))
            for (p, path) in shown.enumerated() {
                if p > 0 { bytes.append(UInt8(ascii: ",")) }
                line(3)
                bytes.append(UInt8(ascii: "{"))
                key("to", 4, first: true)
                appendName(path.to, to: &bytes)
                key("outside", 4)
                bytes.append(contentsOf: (device.isOutside(path.to) ? "true" : "false").utf8)
                if !states.isEmpty, let judged = states[p] {
                    key("state", 4)
                    JSONWriter.appendQuoted(judged.state.rawValue, to: &bytes)
                    if let entry = judged.entry {
                        key("accepted", 4)
                        JSONWriter.append(.object(JSONObject(members: [.init("reason", .string(entry.reason)), .init("expires", .string(entry.expires.description)),
                                                                       .init("line", .number(JSONNumber(entry.line ?? 0)))])), to: &bytes, pretty: true, level: 4)
                    }
                }
                key("hops", 4)
                bytes.append(UInt8(ascii: "["))
                bytes += chains.text(path.hops) { hop, part in appendJSON(hop, device: device, level: 5, to: &part) }
                if path.hops.isEmpty { bytes.append(UInt8(ascii: "]")) } else { line(4); bytes.append(UInt8(ascii: "]")) }
                key("deliveredBy", 4)
                bytes.append(UInt8(ascii: "["))
                for (d, node) in path.deliveredBy.enumerated() {
                    if d > 0 { bytes.append(contentsOf: ", ".utf8) }
                    appendName(node, to: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
                if path.deliveredByCount > path.deliveredBy.count {
                    key("deliveredByMore", 4)
                    bytes.append(contentsOf: String(path.deliveredByCount - path.deliveredBy.count).utf8)
                }
                line(3)
                bytes.append(UInt8(ascii: "}"))
            }
            line(2)
            bytes.append(UInt8(ascii: "]"))
        }
        line(1)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One hop's JSON object at `level`: from, to, channel, url (for a URL open), rules.
    static func appendJSON(_ hop: FleetHop, device: AnalyzedDevice, level: Int, to bytes: inout [UInt8]) {
        JSONWriter.newline(&bytes, pretty: true, level: level)
        bytes.append(UInt8(ascii: "{"))
        appendKey("from", level + 1, first: true, to: &bytes)
        appendName(hop.from, to: &bytes)
        appendKey("to", level + 1, to: &bytes)
        appendName(hop.to, to: &bytes)
        appendKey("channel", level + 1, to: &bytes)
        JSONWriter.appendQuoted(hop.request.channel.rawValue, to: &bytes)
        if let url = hop.request.url {
            appendKey("url", level + 1, to: &bytes)
            JSONWriter.appendQuoted(url.rawValue, to: &bytes)
        }
        appendKey("rules", level + 1, to: &bytes)
        bytes.append(UInt8(ascii: "["))
        JSONWriter.newline(&bytes, pretty: true, level: level + 2)
        JSONWriter.appendQuoted(hop.decision.sender.rule.rawValue, to: &bytes)
        if let receiver = hop.decision.receiver {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.newline(&bytes, pretty: true, level: level + 2)
            JSONWriter.appendQuoted(receiver.rule.rawValue, to: &bytes)
        }
        JSONWriter.newline(&bytes, pretty: true, level: level + 1)
        bytes.append(UInt8(ascii: "]"))
        appendKey("settings", level + 1, to: &bytes)
        let settings = hop.settings
        bytes.append(UInt8(ascii: "["))
        for (index, setting) in settings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.newline(&bytes, pretty: true, level: level + 2)
            appendSettingJSON(setting, to: &bytes)
        }
        if !settings.isEmpty { JSONWriter.newline(&bytes, pretty: true, level: level + 1) }
        bytes.append(UInt8(ascii: "]"))
        appendKey("reproduce", level + 1, to: &bytes)
        JSONWriter.appendQuoted(device.reproduceCommand(hop), to: &bytes)
        JSONWriter.newline(&bytes, pretty: true, level: level)
        bytes.append(UInt8(ascii: "}"))
    }

    /// One setting's JSON object under a hop's `settings`.
    static func appendSettingJSON(_ setting: FleetSetting, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "{\"side\": ".utf8)
        JSONWriter.appendQuoted(setting.side.rawValue, to: &bytes)
        for (name, value) in [("app", setting.app.rawValue), ("policy", setting.policy), ("via", setting.via), ("key", setting.key), ("value", setting.value)] {
            bytes.append(contentsOf: ", \"\(name)\": ".utf8)
            JSONWriter.appendQuoted(value, to: &bytes)
        }
        bytes.append(contentsOf: ", \"file\": ".utf8)
        if let file = setting.file { JSONWriter.appendQuoted(file, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        bytes.append(contentsOf: ", \"line\": ".utf8)
        bytes.append(contentsOf: (setting.line.map(String.init) ?? "null").utf8)
        bytes.append(UInt8(ascii: "}"))
    }

    private static func appendKey(_ name: String, _ level: Int, first: Bool = false, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.newline(&bytes, pretty: true, level: level)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: "\": ".utf8)
    }

    private static func appendName(_ node: FleetNode, to bytes: inout [UInt8]) {
        switch node {
        case .app(let id): JSONWriter.appendQuoted(id.rawValue, to: &bytes)
        case .anyOtherApp: JSONWriter.appendQuoted(FleetNode.anyOtherAppName, to: &bytes)
        }
    }
}

/// The written form of each chain of one search's paths, by the node it ends at: a chain is the chain
/// of the node before its last hop, plus that hop (the path finder builds chains so), so each hop is
/// written once per search and a chain's text is the one before it with one hop more.
package struct ChainMemo<Text: RangeReplaceableCollection> {
    private var known: [FleetNode: Text] = [:]
    /// What goes between two hops.
    package let separator: Text

    package init(separator: Text = Text()) { self.separator = separator }

    /// `hops`' text, each hop written by `hopText`, the chains it extends taken from those already written.
    package mutating func text(_ hops: [FleetHop], hopText: (FleetHop, inout Text) -> Void) -> Text { text(hops, to: \.to, hopText: hopText) }

    /// As ``text(_:hopText:)``, for hops of any kind (`to`: the node a hop ends at).
    package mutating func text<Hop>(_ hops: [Hop], to: (Hop) -> FleetNode, hopText: (Hop, inout Text) -> Void) -> Text {
        var start = hops.count
        while start > 0, known[to(hops[start - 1])] == nil { start -= 1 }
        var text = start > 0 ? known[to(hops[start - 1])]! : Text()
        for index in start..<hops.count {
            if index > 0 { text += separator }
            hopText(hops[index], &text)
            known[to(hops[index])] = text
        }
        return text
    }
}
