import OpenInPolicy

/// A hop as `fleet paths` prints it: an AppConnect fleet's (`FleetHop`) or Intune's (`IntuneHop`).
protocol PrintedHop {
    /// Where the content is.
    var from: FleetNode { get }
    /// Where the request delivers it.
    var to: FleetNode { get }
    /// The request that delivers it.
    var request: FleetRequest { get }
    /// The sender's rule.
    var senderRule: RuleID { get }
    /// The receiver's rule, when a receiver decides.
    var receiverRule: RuleID? { get }
}

/// A path as `fleet paths` prints it, either vendor's.
protocol PrintedPath {
    associatedtype Hop: PrintedHop
    /// The node reached.
    var to: FleetNode { get }
    /// The hops, first to last.
    var hops: [Hop] { get }
}

extension FleetHop: PrintedHop {
    var request: FleetRequest { decision.request }
    var senderRule: RuleID { decision.sender.rule }
    var receiverRule: RuleID? { decision.receiver?.rule }
}

extension IntuneHop: PrintedHop {
    var request: FleetRequest { decision.request }
    var senderRule: RuleID { decision.sender.rule }
    var receiverRule: RuleID? { decision.receiver?.rule }
}

extension FleetPath: PrintedPath {}
extension IntunePath: PrintedPath {}

/// What `fleet paths` prints, for both vendors: one block (text) or record (JSON) per device and starting
/// app. With `--from all` each is written as soon as it is made; with one app, the output is held until
/// every device is decided (an error prints nothing).
struct PathsWriter {
    /// The starting app; `nil` for every app (`--from all`).
    let app: BundleID?
    let to: String?
    let target: BundleID?
    /// Whether `--to` names an app the fleet does not know: "any other app".
    let targetIsOther: Bool
    let names: FleetAppNames
    let format: FleetCommand.PathsFormat
    let console: Console
    private var reached = false
    private var written = 0
    private var pending = ""

    /// Reads `--from` and `--to`, checked against the apps the fleet knows (`names`).
    init(from: String, to: String?, names: FleetAppNames, format: FleetCommand.PathsFormat, console: Console) throws(CLIError) {
        var app: BundleID? = nil
        if !ExactText.same(from, FleetOutput.everyApp) {
            do throws(InputError) { app = try BundleID(from) } catch { throw .invalidInput("--from: \(error.description) (or give \(FleetOutput.everyApp), for every app)") }
        }
        var target: BundleID? = nil
        if let to, !ExactText.same(to, "outside") {
            do throws(InputError) { target = try BundleID(to) } catch { throw .invalidInput("--to: \(error.description) (or give outside)") }
        }
        var targetIsOther = false
        do throws(FleetAppNames.Unknown) {
            if let app { try names.checkSender(app, what: "--from", orAll: true) }
            if let target { targetIsOther = try names.checkReceiver(target, what: "--to") == .anyOtherApp }
        } catch {
            throw .invalidInput(error.message)
        }
        (self.app, self.to, self.target, self.targetIsOther, self.names, self.format, self.console) = (app, to, target, targetIsOther, names, format, console)
    }

    /// How the text names the `--to` set: the app (saying when it is any other app, or not installed on
    /// `device`), or outside.
    private func targetName(device: String) -> String {
        guard let target else { return "outside" }
        if targetIsOther { return "\(target) (any other app: not an app of \(names.file))" }
        if target.isNativeMail || names.devices(installing: target).contains(where: { ExactText.same($0, device) }) { return "\(target)" }
        return "\(target) (not installed on this device; \(names.whereInstalled(target)))"
    }

    private mutating func out(_ text: String) {
        if app == nil { console.stdout.write(text) } else { pending += text }
    }

    /// Writes one device's paths from one app. `outsideSet` names the outside set in the text header
    /// ("outside", or "outside the policy-managed apps").
    mutating func emit<Path: PrintedPath>(device: String, app: BundleID, installed: Bool, _ all: [Path], outsideSet: String, isOutside: (FleetNode) -> Bool) {
        defer { written += 1 }
        let target = target
        let targetIsOther = targetIsOther, names = names
        func inSet(_ node: FleetNode) -> Bool {
            guard let target else { return isOutside(node) }
            if targetIsOther { return node == .anyOtherApp }
            guard case .app(let id) = node else { return false }
            return target.isNativeMail ? id.isNativeMail : names.same(id, target)
        }
        let shown = to == nil ? all : all.filter { inSet($0.to) }
        if all.contains(where: { inSet($0.to) }) { reached = true }
        if format == .json {
            out(Self.record(device: device, app: app, installed: installed, shown, first: written == 0, isOutside: isOutside))
            return
        }
        var text = written == 0 ? "" : "\n"
        guard installed else {
            out(text + "device \(DecisionText.escaped(device)): \(app) is not installed: no documents, no paths (\(names.whereInstalled(app)))\n")
            return
        }
        let outside = all.filter { isOutside($0.to) }.count
        text += "device \(DecisionText.escaped(device)): \(app) reaches \(all.count) app\(all.count == 1 ? "" : "s"), \(outside) \(outsideSet)"
        text += to == nil ? "\n" : "; \(shown.isEmpty ? "no path" : "\(shown.count) path\(shown.count == 1 ? "" : "s")") to \(targetName(device: device))\n"
        for path in shown {
            text += "  \(DecisionText.escaped(path.to.description))  \(path.hops.count) hop\(path.hops.count == 1 ? "" : "s")\(isOutside(path.to) ? "  OUTSIDE" : "")\n"
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

    /// One hop's line of the text block.
    static func appendText<Hop: PrintedHop>(_ hop: Hop, to text: inout String) {
        text += "    "
        text += DecisionText.escaped(hop.from.description)
        text += " → "
        text += DecisionText.escaped(hop.to.description)
        text += "  "
        text += hop.request.channel.rawValue
        if let url = hop.request.url { text += " \(DecisionText.escaped(url.rawValue))" }
        text += "  ["
        text += hop.senderRule.rawValue
        if let receiver = hop.receiverRule { text += ", " + receiver.rawValue }
        text += "]\n"
    }

    /// One element of the pretty-printed array of records (JSONWriter's layout: two spaces per level),
    /// written directly: a run over every app writes millions of hops.
    static func record<Path: PrintedPath>(device: String, app: BundleID, installed: Bool, _ shown: [Path], first: Bool, isOutside: (FleetNode) -> Bool) -> String {
        var bytes: [UInt8] = Array((first ? "[" : ",").utf8)
        func line(_ level: Int) { JSONWriter.newline(&bytes, pretty: true, level: level) }
        func key(_ name: String, _ level: Int, first: Bool = false) { appendKey(name, level, first: first, to: &bytes) }
        line(1)
        bytes.append(UInt8(ascii: "{"))
        key("device", 2, first: true)
        JSONWriter.appendQuoted(device, to: &bytes)
        key("from", 2)
        JSONWriter.appendQuoted(app.rawValue, to: &bytes)
        key("installed", 2)
        bytes.append(contentsOf: (installed ? "true" : "false").utf8)
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
                bytes.append(contentsOf: (isOutside(path.to) ? "true" : "false").utf8)
                key("hops", 4)
                bytes.append(UInt8(ascii: "["))
                for (h, hop) in path.hops.enumerated() {
                    if h > 0 { bytes.append(UInt8(ascii: ",")) }
                    appendJSON(hop, level: 5, to: &bytes)
                }
                if path.hops.isEmpty { bytes.append(UInt8(ascii: "]")) } else { line(4); bytes.append(UInt8(ascii: "]")) }
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
    static func appendJSON<Hop: PrintedHop>(_ hop: Hop, level: Int, to bytes: inout [UInt8]) {
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
        JSONWriter.appendQuoted(hop.senderRule.rawValue, to: &bytes)
        if let receiver = hop.receiverRule {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.newline(&bytes, pretty: true, level: level + 2)
            JSONWriter.appendQuoted(receiver.rawValue, to: &bytes)
        }
        JSONWriter.newline(&bytes, pretty: true, level: level + 1)
        bytes.append(UInt8(ascii: "]"))
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
