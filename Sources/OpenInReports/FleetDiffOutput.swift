import OpenInPolicy

extension FleetOutput {
    /// `fleet diff --format json` of two AppConnect fleets: an array of the changes.
    static func diffJSON(_ changes: [FleetChange]) -> String {
        let records: [JSONValue] = changes.map { change in
            .object(JSONObject(members: [.init("device", .string(change.device)), .init("kind", .string(change.kind.rawValue)),
                                         .init("change", .string(change.opened ? "opened" : "closed")), .init("subject", .string(change.subject)),
                                         .init("detail", .string(change.detail))]))
        }
        return JSONWriter.pretty(.array(JSONArray(records))) + "\n"
    }

    /// `fleet diff` of two AppConnect fleets as text: a line per change, then the counts.
    static func diffText(_ changes: [FleetChange]) -> String {
        var text = ""
        for change in changes {
            text += "\(change.opened ? "+" : "-") \(DecisionText.escaped(change.device)) \(change.kind.rawValue) \(change.opened ? "opened" : "closed"): \(DecisionText.escaped(change.subject))  (\(DecisionText.escaped(change.detail)))\n"
        }
        let opened = changes.filter(\.opened).count
        return text + "\(opened) opened, \(changes.count - opened) closed\n"
    }
}

extension FleetChanges {
    /// How `fleet diff` writes its changes.
    public enum Style: Sendable {
        /// Text: a line per change (AppConnect), or the flows by group.
        case text
        /// A JSON array of the changes.
        case json
        /// A Markdown table per group of the flows that change (`--rows`).
        case rows
    }

    /// The changes written in `style`.
    public func written(_ style: Style) -> String {
        switch self {
        case .fleet(let changes):
            return style == .json ? FleetOutput.diffJSON(changes) : FleetOutput.diffText(changes)
        case .flows(let changes, let old, let new, let reach):
            switch style {
            case .rows: return IntuneFleetOutput.diffRows(changes, old: old, new: new, reach: reach)
            case .json: return IntuneFleetOutput.diffJSON(changes, reach: reach)
            case .text: return IntuneFleetOutput.diffText(changes, old: old, new: new, reach: reach)
            }
        }
    }
}
