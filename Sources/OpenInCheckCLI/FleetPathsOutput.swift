import OpenInPolicy

/// What `fleet paths` prints, for both vendors: one block (text) or record (JSON) per device and starting
/// app. With `--from all` each is written as soon as it is made; with one app, the output is held until
/// every device is decided (an error prints nothing).
struct PathsWriter {
    /// The starting app; `nil` for every app (`--from all`).
    let app: BundleID?
    let to: String?
    let target: BundleID?
    let format: FleetCommand.PathsFormat
    let console: Console
    private var reached = false
    private var written = 0
    private var pending = ""

    init(from: String, to: String?, format: FleetCommand.PathsFormat, console: Console) throws(CLIError) {
        var app: BundleID? = nil
        if !ExactText.same(from, FleetOutput.everyApp) {
            do throws(InputError) { app = try BundleID(from) } catch { throw .invalidInput("--from: \(error.description) (or give \(FleetOutput.everyApp), for every app)") }
        }
        var target: BundleID? = nil
        if let to, !ExactText.same(to, "outside") {
            do throws(InputError) { target = try BundleID(to) } catch { throw .invalidInput("--to: \(error.description) (or give outside)") }
        }
        (self.app, self.to, self.target, self.format, self.console) = (app, to, target, format, console)
    }

    private mutating func out(_ text: String) {
        if app == nil { console.stdout.write(text) } else { pending += text }
    }

    /// The device whose zone line was written last (text: the zone line leads each device's output).
    private var zoned: String?

    /// Writes one device's paths from one app.
    mutating func emit(_ device: AnalyzedDevice, app: BundleID, _ all: [FleetPath]) {
        defer { written += 1 }
        let target = target
        let isOutside = device.isOutside
        let installed = device.isInstalled(app)
        func inSet(_ node: FleetNode) -> Bool {
            if let target { return node == .app(target) }
            return isOutside(node)
        }
        let shown = to == nil ? all : all.filter { inSet($0.to) }
        if all.contains(where: { inSet($0.to) }) { reached = true }
        let summary = device.summary(of: all, to: target)
        if format == .json {
            out(Self.record(device, app: app, installed: installed, shown, summary: summary, first: written == 0))
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
            out(text + "device \(DecisionText.escaped(device)): \(app) is not installed: no documents, no paths\n")
            return
        }
        let outside = all.filter { isOutside($0.to) }.count
        text += "device \(DecisionText.escaped(device)): \(app) reaches \(all.count) app\(all.count == 1 ? "" : "s"), \(outside) \(outsideSet)"
        let gated = summary.paths
        text += "; \(gated == 0 ? "no path" : "\(gated) path\(gated == 1 ? "" : "s")") to \(target.map { "\($0)" } ?? "outside")\n"
        for path in shown {
            text += "  \(DecisionText.escaped(path.to.description))  \(path.hops.count) hop\(path.hops.count == 1 ? "" : "s")\(isOutside(path.to) ? "  OUTSIDE" : "")\n"
            text += "    delivered by "
            text += path.deliveredBy.map { DecisionText.escaped($0.description) }.joined(separator: ", ")
            if path.deliveredByCount > path.deliveredBy.count { text += " and \(path.deliveredByCount - path.deliveredBy.count) more" }
            text += "\n"
            for hop in path.hops { Self.appendText(hop, to: &text) }
        }
        out(text)
    }

    /// Closes the output; the exit status: 2 when a path reaches the `--to` set (or, without `--to`, outside).
    mutating func finish() -> ExitStatus {
        if format == .json { out(written == 0 ? "[]\n" : "\n]\n") }
        console.stdout.write(pending)
        pending = ""
        return reached ? .notAllowed : .success
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
        for setting in hop.settings {
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
    }

    /// One element of the pretty-printed array of records (JSONWriter's layout: two spaces per level),
    /// written directly: a run over every app writes millions of hops.
    static func record(_ device: AnalyzedDevice, app: BundleID, installed: Bool, _ shown: [FleetPath], summary: FleetPathSummary, first: Bool) -> String {
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
                key("hops", 4)
                bytes.append(UInt8(ascii: "["))
                for (h, hop) in path.hops.enumerated() {
                    if h > 0 { bytes.append(UInt8(ascii: ",")) }
                    appendJSON(hop, device: device, level: 5, to: &bytes)
                }
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
        if !settings.isEmpty { JSONWriter.newline(&bytes, pretty: true, level: level + 1) }
        bytes.append(UInt8(ascii: "]"))
        appendKey("reproduce", level + 1, to: &bytes)
        JSONWriter.appendQuoted(device.reproduceCommand(hop), to: &bytes)
        JSONWriter.newline(&bytes, pretty: true, level: level)
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
