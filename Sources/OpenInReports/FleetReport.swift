import OpenInPolicy

/// One hop of a leak path as the report formats (Markdown, SARIF, DOT) show it, either vendor's.
package struct ReportHop: Sendable {
    package var from: FleetNode
    package var to: FleetNode
    package var channel: FleetChannel
    package var url: String?
    /// The sender's rule, then the receiver's when it decides.
    package var rules: [RuleID]
    /// The file holding the setting that lets the hop through.
    package var file: String
    /// That setting's line, when known.
    package var line: Int?
    /// Every setting that lets it through.
    package var settings: [FleetSetting]

    /// A hop of these parts.
    package init(from: FleetNode, to: FleetNode, channel: FleetChannel, url: String?, rules: [RuleID], file: String, line: Int?, settings: [FleetSetting]) {
        (self.from, self.to, self.channel, self.url, self.rules, self.file, self.line, self.settings) = (from, to, channel, url, rules, file, line, settings)
    }

    /// Every setting that lets it through, in words (`com.acme.viewer: containerPolicies[1].openInPolicy = authorized
    /// (Viewer, container policy by label Employees, line 15)`), or the rules when none is named: made when a
    /// format shows it (DOT does not; Markdown shows the last hop's).
    var grant: String {
        let grant = settings.map { setting in
            "\(setting.app): \(setting.key) = \(setting.value) (\(setting.policy), \(setting.via)\(setting.line.map { ", line \($0)" } ?? ""))"
        }
        return grant.isEmpty ? rules.map(\.rawValue).joined(separator: ", ") : grant.joined(separator: "; ")
    }
}

/// One path to outside (or to the `--to` app) as the report formats show it.
package struct ReportPath: Sendable {
    package var device: String
    package var from: BundleID
    package var to: FleetNode
    package var outside: Bool
    /// The shortest chain, first hop first.
    package var hops: [ReportHop]
    /// Against the baseline, when one is given.
    package var state: FleetBaseline.State?
    /// The entry that accepted the path (accepted or expired).
    package var entry: FleetBaseline.Entry?

    /// The apps between the source and the destination, in order.
    package var via: [FleetNode] { hops.dropLast().map(\.to) }

    /// The path's stable identity (``LeakPathIdentity/fingerprint(device:from:to:chain:)``): the same across runs,
    /// re-indented files and unrelated additions.
    package var fingerprint: String {
        LeakPathIdentity.fingerprint(device: device, from: from, to: to, chain: hops.map { (channel: $0.channel, url: $0.url, to: $0.to) })
    }

    /// A value of these parts.
    package init(device: String, from: BundleID, to: FleetNode, outside: Bool, hops: [ReportHop], state: FleetBaseline.State? = nil, entry: FleetBaseline.Entry? = nil) {
        self.device = device
        self.from = from
        self.to = to
        self.outside = outside
        self.hops = hops
        self.state = state
        self.entry = entry
    }
}

extension ReportHop {
    /// A hop of `fleet paths`, placed at the sender's setting that lets it through (file and line), with every
    /// setting behind it in words; `file` is the fleet's, for a hop whose settings name none.
    package init(_ hop: FleetHop, file: String?) {
        let settings = hop.settings
        let sender = settings.first { $0.side == .sender } ?? settings.first
        self.init(from: hop.from, to: hop.to, channel: hop.channel, url: hop.request.url?.rawValue, rules: hop.rules,
                  file: sender?.file ?? file ?? "fleet", line: sender?.line, settings: settings)
    }
}

/// The baseline run in words: its marks, counts, text and JSON records.
extension BaselineRun {
    /// `2 new, 1 accepted, 0 expired, 1 resolved`.
    package var summary: String {
        "\(counts[.new, default: 0]) new, \(counts[.accepted, default: 0]) accepted, \(counts[.expired, default: 0]) expired, \(resolved.count) resolved"
    }

    /// How the text marks a judged path.
    package static func mark(_ state: FleetBaseline.State, _ entry: FleetBaseline.Entry?) -> String {
        switch state {
        case .new: "NEW"
        case .accepted: "accepted until \(entry?.expires.description ?? "")"
        case .expired: "EXPIRED on \(entry?.expires.description ?? "") (\(DecisionText.escaped(entry?.reason ?? "")))"
        }
    }

    /// The text lines of the resolved entries and the counts.
    package var text: String {
        var text = "\nbaseline \(DecisionText.escaped(baseline.file ?? "")): \(summary)\n"
        for entry in resolved {
            text += "  resolved: \(DecisionText.escaped(entry.deviceName)): \(DecisionText.escaped(entry.from.rawValue)) → \(DecisionText.escaped(entry.to.description))"
            text += "  (line \(entry.line ?? 0): no such path any more; the entry can go)\n"
        }
        return text
    }

    /// The JSON record closing an output array: `{"baseline": {"file", "new", "accepted", "expired", "resolved": [entry]}}`.
    package var json: JSONValue { json(paths: nil) }

    /// The JSON record, listing `paths` (a diff's opened paths, with their states) when given.
    package func json(paths: [ReportPath]?) -> JSONValue {
        let resolved: [JSONValue] = resolved.map { entry in
            var members: [JSONObject.Member] = [.init("device", .string(entry.deviceName)), .init("from", .string(entry.from.rawValue)),
                                                .init("to", .string(entry.to.description)), .init("reason", .string(entry.reason)),
                                                .init("expires", .string(entry.expires.description))]
            if let line = entry.line { members.append(.init("line", .number(JSONNumber(line)))) }
            return .object(JSONObject(members: members))
        }
        return .object(JSONObject(members: [.init("baseline", .object(JSONObject(members: [
            .init("file", .string(baseline.file ?? "")),
            .init("new", .number(JSONNumber(counts[.new, default: 0]))),
            .init("accepted", .number(JSONNumber(counts[.accepted, default: 0]))),
            .init("expired", .number(JSONNumber(counts[.expired, default: 0]))),
        ] + (paths.map { paths in [JSONObject.Member.init("paths", .array(JSONArray(paths.map(Self.pathJSON))))] } ?? []) + [
            .init("resolved", .array(JSONArray(resolved))),
        ])))]))
    }

    /// A judged path: device, from, to, state, and the entry that accepted it.
    static func pathJSON(_ path: ReportPath) -> JSONValue {
        var members: [JSONObject.Member] = [.init("device", .string(path.device)), .init("from", .string(path.from.rawValue)),
                                            .init("to", .string(path.to.description)), .init("state", .string(path.state?.rawValue ?? "new"))]
        if let entry = path.entry {
            members.append(.init("accepted", .object(JSONObject(members: [.init("reason", .string(entry.reason)), .init("expires", .string(entry.expires.description)),
                                                                      .init("line", .number(JSONNumber(entry.line ?? 0)))]))))
        }
        if let hop = path.hops.last {
            var grant: [JSONObject.Member] = [.init("file", .string(hop.file)), .init("setting", .string(hop.grant))]
            if let line = hop.line { grant.append(.init("line", .number(JSONNumber(line)))) }
            members.append(.init("lastHop", .object(JSONObject(members: grant))))
        }
        return .object(JSONObject(members: members))
    }

    /// `fleet diff --baseline` as text or JSON: `diff` (the diff's own output), then the baseline's part on the paths
    /// it `opened` (judged): a last JSON record, or the opened paths' lines and the counts.
    func diffSection(after diff: String, opened: [ReportPath], asJSON: Bool) -> String {
        var text = diff
        if asJSON {
            // The array of changes gains a last record: {"baseline": {…, "paths": [opened paths with their state], "resolved": [...]}}.
            var bytes: [UInt8] = []
            JSONWriter.append(self.json(paths: opened), to: &bytes, pretty: true, level: 1)
            let record = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("[]\n") {
                text = String(text.dropLast(3)) + "[\n  " + record + "\n]\n"
            } else if text.hasSuffix("\n]\n") {
                text = String(text.dropLast(3)) + ",\n  " + record + "\n]\n"
            }
        } else {
            text += "\nleak paths opened, against the baseline:\n"
            if opened.isEmpty { text += "  none\n" }
            for path in opened {
                text += "  \(DecisionText.escaped(path.device)): \(DecisionText.escaped(path.from.rawValue)) ⇒ \(DecisionText.escaped(path.to.description))  \(BaselineRun.mark(path.state!, path.entry))"
                if let hop = path.hops.last { text += "  (\(DecisionText.escaped(hop.grant)))" }
                text += "\n"
            }
            text += self.text
        }
        return text
    }
}
