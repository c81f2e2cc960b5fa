import OpenInPolicy

/// `fleet report`: one self-contained HTML page an auditor opens offline: per device the zone of
/// trust, the counts, the leak graph (inline SVG laid out here), the paths with their hops; the
/// fixes and the plan; the channel matrix; the lint findings; and the data as JSON.
///
/// Nothing is loaded from anywhere: a Content-Security-Policy of `default-src 'none'` allows only
/// the page's own style and script, by hash. Every text from the input goes through `HTMLText`: shown, elided past 1,000 characters, never markup.
public enum FleetReportOutput {
    /// Caps, so a large fleet's page stays readable and under 10 MB.
    static let maxPathsListed = 300
    static let maxNodesDrawn = 80
    static let maxEdgesDrawn = 300
    static let maxMatrixApps = 40
    static let maxDataBytes = 4_000_000
    /// At most this many candidate changes verified for the page (``FixBudget``: the highest upper bound of
    /// what they can close first), so a large fleet's report is made in seconds; the page says what it left out.
    static let maxCandidatesVerified = 1_000

    /// One hop as the page shows it.
    package struct Hop {
        package let from: String
        package let to: String
        package let channel: String
        package let url: String?
        package let rules: [String]
        package let settings: [String]
        let reproduce: String

        /// A value of these parts.
        package init(from: String, to: String, channel: String, url: String? = nil, rules: [String], settings: [String], reproduce: String) {
            self.from = from
            self.to = to
            self.channel = channel
            self.url = url
            self.rules = rules
            self.settings = settings
            self.reproduce = reproduce
        }
    }

    /// One path to outside.
    package struct Path {
        package let from: String
        package let to: String
        package let hops: [Hop]
        /// With `--baseline`: new, accepted until a date, or expired.
        package var state: String? = nil

        /// A value of these parts.
        package init(from: String, to: String, hops: [Hop], state: String? = nil) {
            self.from = from
            self.to = to
            self.hops = hops
            self.state = state
        }
    }

    /// One device's part of the page.
    package struct Device {
        package let name: String
        package let zone: String
        package let inside: Int
        /// The paths listed (at most ``maxPathsListed``), each with its hops.
        package var paths: [Path] = []
        /// How many paths to outside there are, listed or not, and from how many apps.
        var pathCount = 0
        package var leaking = 0
        package var outside: Set<String> = []
        package var matrix: FleetMatrix?

        /// A value of these parts.
        package init(name: String, zone: String, inside: Int, paths: [Path] = [], outside: Set<String> = [], matrix: FleetMatrix? = nil) {
            self.name = name
            self.zone = zone
            self.inside = inside
            self.paths = paths
            self.outside = outside
            self.matrix = matrix
        }
    }

    // MARK: HTML

    /// JSON inside a `<script>` element: `<` written as `\u003c`, so no `</script` or `<!--` can appear in it.
    static func scriptSafe(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em;color:#1d1d1f;background:#fff}
        h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
        table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .5em;vertical-align:top;text-align:left}
        th{background:#f3f3f3}.outside{color:#b00020}.inside{color:#0b6e2e}code{font-size:.92em}
        .counts span{display:inline-block;margin-right:1.5em;font-weight:600}.note{color:#666}
        svg{border:1px solid #ddd;background:#fcfcfc;max-width:100%;height:auto}td code{overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere}
        svg .node rect{fill:#e8f3ec;stroke:#0b6e2e}svg .node.outside rect{fill:#fde8eb;stroke:#b00020}
        svg text{font:12px system-ui,sans-serif;fill:#1d1d1f}svg .edge{stroke:#888;fill:none}
        .m td{text-align:center;font-size:.85em}.allow{background:#fde8eb}.blocked{background:#eef6f0}
        """

    static let script = """
        document.getElementById('filter').hidden=false;
        document.getElementById('device').addEventListener('change',function(e){var v=e.target.value;
        document.querySelectorAll('section.device').forEach(function(s){s.hidden=v!==''&&s.dataset.device!==v;});});
        """

    static func html(title: String, file: String, devices: [Device], report: FleetFixReport, findings: [FleetFinding], lintFile: String,
                     data: String, omittedRecords: Int, fixesOmitted: Bool = false) -> String {
        let styleHash = "sha256-" + SHA256.base64(SHA256.digest(Array(style.utf8)))
        let scriptHash = "sha256-" + SHA256.base64(SHA256.digest(Array(script.utf8)))
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src '\(styleHash)'; script-src '\(scriptHash)'\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(HTMLText.text(title))</title>\n<style>\(style)</style>\n</head>\n<body>\n"
        out += "<h1>\(HTMLText.text(title))</h1>\n"
        let total = devices.reduce(0) { $0 + $1.pathCount }
        out += "<p class=\"counts\"><span>\(devices.count) device\(devices.count == 1 ? "" : "s")</span><span>\(total) path\(total == 1 ? "" : "s") to outside</span>"
        out += "<span>\(report.fixes.count) verified fix\(report.fixes.count == 1 ? "" : "es")</span><span>\(findings.count) lint finding\(findings.count == 1 ? "" : "s")</span></p>\n"
        out += "<p class=\"note\">Made by openin-check from <code>\(HTMLText.text(file))</code>. A path is one (device, app, app reached outside the zone of trust); each hop names the channel and the rules that let the document through.</p>\n"
        out += "<p id=\"filter\" hidden><label>Device: <select id=\"device\"><option value=\"\">every device</option>"
        for device in devices { out += "<option value=\"\(HTMLText.attribute(device.name))\">\(HTMLText.text(device.name))</option>" }
        out += "</select></label></p>\n"
        for device in devices { out += section(device) }
        out += fixes(report)
        out += lint(findings, file: lintFile)
        out += "<script type=\"application/json\" id=\"openin-check-data\">\(scriptSafe(data))</script>\n"
        if omittedRecords > 0 { out += "<p class=\"note\">The embedded data leaves out \(omittedRecords) path records (over \(maxDataBytes) bytes): run fleet paths --from all --format json for all.</p>\n" }
        if fixesOmitted { out += "<p class=\"note\">The embedded data leaves out the fixes (over \(maxDataBytes) bytes): run fleet fixes --format json for them.</p>\n" }
        out += "<script>\(script)</script>\n</body>\n</html>\n"
        return out
    }

    package static func section(_ device: Device) -> String {
        var out = "<section class=\"device\" data-device=\"\(HTMLText.attribute(device.name))\">\n<h2>Device \(HTMLText.text(device.name))</h2>\n"
        out += "<p>Zone of trust: \(HTMLText.text(device.zone)).</p>\n"
        let sources = device.leaking
        out += "<p class=\"counts\"><span>\(device.pathCount) path\(device.pathCount == 1 ? "" : "s") to outside</span><span>\(sources) app\(sources == 1 ? "" : "s") leaking</span><span>\(device.outside.count) outside app\(device.outside.count == 1 ? "" : "s") reached</span></p>\n"
        if !device.paths.isEmpty {
            out += graph(device)
            let judged = device.paths.contains { $0.state != nil }
            out += "<h3>Paths to outside</h3>\n<table>\n<tr><th>From</th><th>To</th>\(judged ? "<th>Baseline</th>" : "")<th>Hops (channel, rules)</th></tr>\n"
            for path in device.paths {
                out += "<tr><td>\(HTMLText.text(path.from))</td><td class=\"outside\">\(HTMLText.text(path.to))</td>\(judged ? "<td>\(HTMLText.text(path.state ?? ""))</td>" : "")<td>"
                out += path.hops.map { hop in
                    var text = "\(HTMLText.text(hop.from)) → \(HTMLText.text(hop.to)) <code>\(HTMLText.text(hop.channel))\(hop.url.map { " " + HTMLText.text($0) } ?? "")</code> [\(hop.rules.map(HTMLText.text).joined(separator: ", "))]"
                    for setting in hop.settings { text += "<br><small>\(HTMLText.text(setting))</small>" }
                    text += "<br><small><code>\(HTMLText.text(hop.reproduce))</code></small>"
                    return text
                }.joined(separator: "<br>")
                out += "</td></tr>\n"
            }
            out += "</table>\n"
            if device.pathCount > device.paths.count { out += "<p class=\"note\">\(device.pathCount - device.paths.count) more paths not listed.</p>\n" }
        }
        if let matrix = device.matrix { out += self.matrix(matrix) } else { out += "<p class=\"note\">Channel matrix not shown for a fleet of more than \(maxMatrixApps) apps: run fleet matrix.</p>\n" }
        return out + "</section>\n"
    }

    /// The leak graph: the leaking apps and the apps on their chains in layers by hops, the outside apps in the last column.
    package static func graph(_ device: Device) -> String {
        var layer: [String: Int] = [:]
        var order: [String] = []
        func place(_ node: String, _ depth: Int) {
            if let known = layer[node] {
                if depth < known { layer[node] = depth }
            } else {
                layer[node] = depth
                order.append(node)
            }
        }
        var edges: [(from: String, to: String, channel: String)] = []
        var seenEdges: Set<String> = []
        for path in device.paths {
            place(path.from, 0)
            for (index, hop) in path.hops.enumerated() {
                place(hop.from, index)
                place(hop.to, index + 1)
                if seenEdges.insert(hop.from + "\u{0}" + hop.to).inserted { edges.append((hop.from, hop.to, hop.channel)) }
            }
        }
        let insideNodes = order.filter { !device.outside.contains($0) }
        let outsideNodes = order.filter { device.outside.contains($0) }
        let drawnInside = Array(insideNodes.prefix(maxNodesDrawn))
        let drawnOutside = Array(outsideNodes.prefix(maxNodesDrawn))
        let lastLayer = (drawnInside.map { layer[$0]! }.max() ?? 0) + 1
        var columns = [[String]](repeating: [], count: lastLayer + 1)
        for node in drawnInside { columns[layer[node]!].append(node) }
        columns[lastLayer] = drawnOutside
        // A left margin for the arcs between apps of one column.
        let width = 240, gap = 90, rowHeight = 34, boxWidth = 220, boxHeight = 24, margin = 70
        var position: [String: (x: Int, y: Int)] = [:]
        for (c, column) in columns.enumerated() {
            for (r, node) in column.enumerated() { position[node] = (margin + c * (width + gap), 20 + r * rowHeight) }
        }
        let tallest = columns.map(\.count).max() ?? 1
        let svgWidth = margin + 20 + columns.count * (width + gap) - gap, svgHeight = 40 + tallest * rowHeight
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"leak graph of \(HTMLText.attribute(device.name))\" width=\"\(svgWidth)\" height=\"\(svgHeight)\" viewBox=\"0 0 \(svgWidth) \(svgHeight)\">\n"
        out += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#888\"/></marker></defs>\n"
        var drawnEdges = 0
        for edge in edges {
            guard drawnEdges < maxEdgesDrawn, let a = position[edge.from], let b = position[edge.to] else { continue }
            drawnEdges += 1
            let x1 = a.x + boxWidth, y1 = a.y + boxHeight / 2, x2 = b.x, y2 = b.y + boxHeight / 2
            let d: String
            if x2 > x1 {
                // Forward, to a later column: from the right side to the left side.
                d = "M\(x1),\(y1) C\(x1 + 40),\(y1) \(x2 - 40),\(y2) \(x2),\(y2)"
            } else {
                // Within a column or back to an earlier one: an arc out to the left of both boxes, left side to left side,
                // wider the further apart they are.
                let bulge = min(margin - 10, 24 + abs(y2 - y1) / 8)
                let left = min(a.x, b.x) - bulge
                d = "M\(a.x),\(y1) C\(left),\(y1) \(left),\(y2) \(x2),\(y2)"
            }
            out += "<path class=\"edge\" d=\"\(d)\" marker-end=\"url(#arrow)\"><title>\(HTMLText.text(edge.from)) → \(HTMLText.text(edge.to)) (\(HTMLText.text(edge.channel)))</title></path>\n"
        }
        for column in columns {
            for node in column {
                let p = position[node]!
                let outside = device.outside.contains(node)
                let label = node.count > 34 ? String(node.prefix(33)) + "…" : node
                out += "<g class=\"node\(outside ? " outside" : "")\" data-app=\"\(HTMLText.attribute(node))\"><rect x=\"\(p.x)\" y=\"\(p.y)\" width=\"\(boxWidth)\" height=\"\(boxHeight)\" rx=\"4\"/>"
                out += "<text x=\"\(p.x + 8)\" y=\"\(p.y + 16)\">\(HTMLText.text(label))</text><title>\(HTMLText.text(node))\(outside ? " (outside)" : "")</title></g>\n"
            }
        }
        out += "</svg>\n"
        let hiddenNodes = insideNodes.count - drawnInside.count + outsideNodes.count - drawnOutside.count
        if hiddenNodes > 0 || drawnEdges < edges.count {
            out += "<p class=\"note\">\(hiddenNodes) more apps and \(edges.count - drawnEdges) more edges not drawn.</p>\n"
        }
        if device.pathCount > device.paths.count {
            out += "<p class=\"note\">The graph draws the chains of the \(device.paths.count) paths listed below; those of the other \(device.pathCount - device.paths.count) are not drawn (fleet paths --format dot draws every one).</p>\n"
        }
        return out
    }

    package static func matrix(_ matrix: FleetMatrix) -> String {
        var out = "<details><summary>Channel matrix (end-to-end outcome, sender × receiver)</summary>\n"
        for (c, channel) in matrix.channels.enumerated() {
            out += "<h4>\(HTMLText.text(channel.rawValue))</h4>\n<table class=\"m\"><tr><th></th>"
            for receiver in matrix.receivers { out += "<th>\(HTMLText.text(receiver.description))</th>" }
            out += "</tr>\n"
            for (s, sender) in matrix.senders.enumerated() {
                out += "<tr><th>\(HTMLText.text(sender.rawValue))</th>"
                for r in matrix.receivers.indices {
                    let outcome = matrix.outcome(matrix.channels[c], sender: s, receiver: r)
                    let text = FleetOutput.cell(outcome)
                    out += "<td class=\"\(outcome == .allow ? "allow" : outcome == nil ? "" : "blocked")\">\(HTMLText.text(text))</td>"
                }
                out += "</tr>\n"
            }
            out += "</table>\n"
        }
        return out + "</details>\n"
    }

    package static func fixes(_ report: FleetFixReport) -> String {
        var out = "<section id=\"fixes\">\n<h2>What to change</h2>\n"
        guard !report.paths.isEmpty else { return out + "<p>No path to close.</p>\n</section>\n" }
        out += "<p>\(report.paths.count) paths to close; \(report.candidates) candidate changes verified (each applied to a copy of the fleet and the paths found again).</p>\n"
        if let budget = report.budget, budget.unverified > 0 {
            out += "<p class=\"note\">Not verified: \(budget.unverified) more candidate changes. The page verifies at most \(budget.limit), those that could close the most paths first (an upper bound: the sources that reach the apps a change touches × the destinations those apps reach), and \(budget.unverifiedBound < report.paths.count ? "none of the others can close more than \(budget.unverifiedBound) of the \(report.paths.count) paths" : "no bound below all \(report.paths.count) paths is known for the others: any of them might close some"). Every fix listed here was verified; run openin-check fleet fixes to verify every candidate.</p>\n"
        }
        out += "<table>\n<tr><th>#</th><th>Change</th><th>Paths closed</th><th>Collateral (inside flows blocked)</th><th>File</th><th>JSON Patch</th></tr>\n"
        for (number, fix) in report.fixes.prefix(maxPathsListed).enumerated() {
            out += "<tr><td>\(number + 1)</td><td>\(HTMLText.text(fix.change))</td><td>\(fix.closes.count) of \(report.paths.count)</td><td>\(flows(fix.collateral))\(fix.newlyAllowed.isEmpty ? "" : "<br>Also newly allows (blocked before): " + flows(fix.newlyAllowed))</td>"
            out += "<td>\(HTMLText.text(fix.file))\(fix.line.map { ":\($0)" } ?? "")</td><td><code>\(HTMLText.text(FleetFixesOutput.patchText(fix.patch)))</code></td></tr>\n"
        }
        out += "</table>\n"
        if report.fixes.count > maxPathsListed { out += "<p class=\"note\">\(report.fixes.count - maxPathsListed) more fixes not listed.</p>\n" }
        if !report.unbuilt.isEmpty {
            out += "<p class=\"note\">Not built: \(report.unbuilt.count) candidate change\(report.unbuilt.count == 1 ? "" : "s") could not be made or verified.</p>\n<ul>\n"
            out += report.unbuilt.prefix(maxPathsListed).map { "<li>\(HTMLText.text($0.change)) Why: \(HTMLText.text($0.why))</li>\n" }.joined() + "</ul>\n"
        }
        let plan = report.plan
        guard !plan.changes.isEmpty else {
            // Nothing to apply: no step, no patch.
            return out + "<h3>Plan</h3>\n<p>None; \(plan.remaining.count) paths left: \(HTMLText.text(plan.why ?? "")).</p>\n</section>\n"
        }
        out += "<h3>Plan</h3>\n<p>\(FleetFixesOutput.planSummary(plan, count: report.paths.count, paths: report.paths))"
        out += plan.remaining.isEmpty ? ".</p>\n" : ": \(HTMLText.text(plan.why ?? "")).</p>\n"
        out += "<ol>\n" + plan.changes.map { "<li>\(HTMLText.text($0.change))</li>\n" }.joined() + "</ol>\n"
        out += "<p>Collateral: \(flows(plan.collateral))</p>\n"
        if !plan.newlyAllowed.isEmpty { out += "<p>Also newly allows (inside the zone of trust, blocked before): \(flows(plan.newlyAllowed))</p>\n" }
        for file in plan.patches { out += "<p>JSON Patch for <code>\(HTMLText.text(file.file))</code>:</p>\n<pre>\(HTMLText.lines(JSONWriter.pretty(JSONPatch.json(file.patch))))</pre>\n" }
        if !plan.remaining.isEmpty {
            out += "<ul>\n" + plan.remaining.prefix(maxPathsListed).map { "<li>\(HTMLText.text($0.device)): \(HTMLText.text($0.from)) → \(HTMLText.text($0.to))</li>\n" }.joined() + "</ul>\n"
        }
        return out + "</section>\n"
    }

    package static func flows(_ flows: [InsideFlow]) -> String {
        guard !flows.isEmpty else { return "none" }
        var parts = flows.prefix(20).map { "\(HTMLText.text($0.from)) → \(HTMLText.text($0.to)) (\(HTMLText.text($0.channel)), \(HTMLText.text($0.device)))" }
        if flows.count > 20 { parts.append("\(flows.count - 20) more not listed") }
        return parts.joined(separator: "<br>")
    }

    package static func lint(_ findings: [FleetFinding], file: String) -> String {
        var out = "<section id=\"lint\">\n<h2>Lint findings</h2>\n"
        guard !findings.isEmpty else { return out + "<p>None.</p>\n</section>\n" }
        out += "<table>\n<tr><th>Code</th><th>Severity</th><th>Where</th><th>Finding</th><th>Fix</th></tr>\n"
        for finding in findings.prefix(maxPathsListed) {
            out += "<tr><td>\(HTMLText.text(finding.code))</td><td>\(HTMLText.text(finding.severity.rawValue))</td><td>\(HTMLText.text(file))\(finding.line.map { ":\($0)" } ?? "")\(finding.device.map { " (" + HTMLText.text($0) + ")" } ?? "")</td>"
            out += "<td>\(HTMLText.text(finding.message))</td><td>\(HTMLText.text(finding.fix))</td></tr>\n"
        }
        out += "</table>\n"
        if findings.count > maxPathsListed { out += "<p class=\"note\">\(findings.count - maxPathsListed) more findings not listed.</p>\n" }
        return out + "</section>\n"
    }
}
