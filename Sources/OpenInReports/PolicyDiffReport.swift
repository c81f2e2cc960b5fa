import OpenInPolicy

/// `diff`'s output over the request classes.
public enum DiffReport {
    static let groups: [(kind: DecisionChange.Kind, title: String, key: String)] = [
        (.newlyBlocked, "Newly blocked", "newlyBlocked"),
        (.newlyAllowed, "Newly allowed", "newlyAllowed"),
        (.deliveredElsewhere, "Delivered elsewhere", "deliveredElsewhere"),
        (.changed, "Changed outcome or callback", "changed"),
    ]

    /// The changes as text: a block per class of request that changes, its cells before and after.
    public static func text(_ diff: PolicyDiff, old: String, new: String) -> String {
        var text = "diff \(old) → \(new): \(diff.requestClassCount) request classes, "
        text += diff.changeCount == 0 ? "none decides differently\n" : "\(diff.changeCount) decide differently\n"
        for group in groups {
            let changes = diff.changes(group.kind)
            if changes.isEmpty { continue }
            text += "\n\(group.title) (\(diff.count(group.kind))):\n"
            for change in changes { text += ChangeText.block(change, indent: "  ") }
            if let more = omittedSentence(diff, group.kind) { text += "  … \(more)\n" }
        }
        if !diff.controlGaps.isEmpty {
            text += "\nDecided by one policy only (\(diff.controlGaps.count)):\n"
            for gap in diff.controlGaps { text += "  \(gapSentence(gap))\n" }
        }
        return text + "\nverdict: \(diff.verdict)\n"
    }

    /// The changes as GitHub-flavoured Markdown: a table per kind of change.
    public static func markdown(_ diff: PolicyDiff, old: String, new: String) -> String {
        var text = "**diff** \(MarkdownText.code(old, inTable: false)) → \(MarkdownText.code(new, inTable: false)): **\(diff.verdict)**\n\n"
        text += "\(diff.requestClassCount) request classes, "
        text += diff.changeCount == 0 ? "none decides differently.\n" : "\(diff.changeCount) decide differently.\n"
        for group in groups {
            let changes = diff.changes(group.kind)
            if changes.isEmpty { continue }
            text += "\n#### \(group.title) (\(diff.count(group.kind)))\n\n"
            text += MarkdownText.table(["request", "old", "new"], changes.map(ChangeText.markdownRow))
            if let more = omittedSentence(diff, group.kind) { text += "\n… \(more).\n" }
        }
        if !diff.controlGaps.isEmpty {
            text += "\n#### Decided by one policy only (\(diff.controlGaps.count))\n\n"
            for gap in diff.controlGaps { text += "- \(gapSentence(gap))\n" }
        }
        return text + "\nverdict: \(diff.verdict)\n"
    }

    /// `and 12 more request classes beyond the first 100 listed`, or `nil` when the group lists them all.
    static func omittedSentence(_ diff: PolicyDiff, _ kind: DecisionChange.Kind) -> String? {
        let omitted = diff.omittedCount(kind)
        guard omitted > 0 else { return nil }
        return "and \(omitted) more request class\(omitted == 1 ? "" : "es") beyond the first \(PolicyDiff.sampleLimit) listed"
    }

    /// `copy: the old policy does not set pasteboardPolicy, so its copy requests are errors; the new one decides them`.
    static func gapSentence(_ gap: ControlGap) -> String {
        let (lacking, deciding) = gap.missingInOld ? ("old", "new") : ("new", "old")
        return "\(gap.channel): the \(lacking) policy does not set \(gap.missingKey), so its \(gap.channel) requests are errors; the \(deciding) one decides them"
    }

    /// The changes as a JSON object, naming the two policy files.
    public static func json(_ diff: PolicyDiff, old: String, new: String) -> JSONObject {
        var members: [JSONObject.Member] = [
            .init("old", .string(old)),
            .init("new", .string(new)),
            .init("verdict", .string(diff.verdict.rawValue)),
            .init("requestClasses", .number(JSONNumber(diff.requestClassCount))),
        ]
        for group in groups {
            members.append(.init(group.key, .array(JSONArray(diff.changes(group.kind).map { .object(ChangeText.json($0)) }))))
        }
        let omitted = groups.filter { diff.omittedCount($0.kind) > 0 }
        if !omitted.isEmpty {
            members.append(.init("omitted", .object(JSONObject(members: omitted.map { .init($0.key, .number(JSONNumber(diff.omittedCount($0.kind)))) }))))
        }
        if !diff.controlGaps.isEmpty {
            members.append(.init("decidedByOnePolicy", .array(JSONArray(diff.controlGaps.map { gap in
                .object(JSONObject(members: [.init("channel", .string(gap.channel.rawValue)), .init("missingKey", .string(gap.missingKey)),
                                             .init("missingIn", .string(gap.missingInOld ? "old" : "new"))]))
            }))))
        }
        return JSONObject(members: members)
    }
}

/// `diff --requests`'s output: what a replayed log would see change.
public struct ReplayReport: Sendable {
    package let summary: ReplaySummary
    /// The first invalid lines of the log (up to ``invalidSampleLimit``), with their errors.
    let invalid: [(line: Int, message: String)]
    /// How many lines were invalid, listed or not.
    let invalidCount: Int
    /// How many lines the log held.
    let lineCount: Int
    package let old: String
    package let new: String
    package let requests: String

    /// How many invalid lines the report lists: the first 100 (the rest are counted).
    public static let invalidSampleLimit = 100

    /// The report of `summary`, replayed from a log of `lineCount` lines, `invalidCount` of them invalid (`invalid` the first).
    public init(summary: ReplaySummary, invalid: [(line: Int, message: String)], invalidCount: Int, lineCount: Int, old: String, new: String, requests: String) {
        (self.summary, self.invalid, self.invalidCount, self.lineCount) = (summary, invalid, invalidCount, lineCount)
        (self.old, self.new, self.requests) = (old, new, requests)
    }

    /// The report as text.
    public var text: String {
        var text = "replay of \(requests) under \(old) → \(new): \(lineCount) lines, \(summary.requestCount) requests"
        text += invalidCount == 0 ? "\n" : ", \(invalidCount) invalid lines\n"
        for (line, message) in invalid { text += "  line \(line): error  \(message)\n" }
        if omittedInvalid > 0 { text += "  … and \(omittedInvalid) more invalid lines (the first \(Self.invalidSampleLimit) are listed)\n" }
        if summary.undecidableCount > 0 {
            text += "\(summary.undecidableCount) requests not compared: a policy does not set their channel's control\n"
        }
        text += "\(summary.changedCount) of \(summary.requestCount) requests would decide differently"
        text += summary.changedCount == 0 ? "\n" : ": \(DiffReport.groups.filter { $0.kind != .deliveredElsewhere || summary.count($0.kind) > 0 }.map { "\(summary.count($0.kind)) \($0.kind)" }.joined(separator: ", "))\n"
        for group in DiffReport.groups {
            let changes = summary.changes.filter { $0.change.kind == group.kind }
            if changes.isEmpty { continue }
            text += "\n\(group.title) (\(summary.count(group.kind)) requests):\n"
            for counted in changes { text += ChangeText.block(counted.change, indent: "  ", lead: "\(counted.count)×  ") }
            if let more = omittedSentence(group.kind) { text += "  … \(more)\n" }
        }
        return text + "\nverdict on this log: \(summary.verdict)\n"
    }

    /// The report as GitHub-flavoured Markdown.
    public var markdown: String {
        var text = "**replay** of \(MarkdownText.code(requests, inTable: false)) under \(MarkdownText.code(old, inTable: false)) → \(MarkdownText.code(new, inTable: false)): **\(summary.verdict)**\n\n"
        text += "\(lineCount) lines, \(summary.requestCount) requests"
        text += invalidCount == 0 ? "; " : ", \(invalidCount) invalid lines; "
        text += "\(summary.changedCount) of \(summary.requestCount) requests would decide differently.\n"
        if invalidCount > 0 {
            text += "\n#### Invalid lines (\(invalidCount))\n\n"
            text += MarkdownText.table(["line", "error"], invalid.map { ["\($0.line)", MarkdownText.cell($0.message)] })
            if omittedInvalid > 0 { text += "\n… and \(omittedInvalid) more invalid lines (the first \(Self.invalidSampleLimit) are listed).\n" }
        }
        for group in DiffReport.groups {
            let changes = summary.changes.filter { $0.change.kind == group.kind }
            if changes.isEmpty { continue }
            text += "\n#### \(group.title) (\(summary.count(group.kind)) requests)\n\n"
            text += MarkdownText.table(["count", "request", "old", "new"], changes.map { ["\($0.count)"] + ChangeText.markdownRow($0.change) })
            if let more = omittedSentence(group.kind) { text += "\n… \(more).\n" }
        }
        return text + "\nverdict on this log: \(summary.verdict)\n"
    }

    /// The report as a JSON object.
    public var json: JSONObject {
        let number = { (value: Int) in JSONValue.number(JSONNumber(value)) }
        var members: [JSONObject.Member] = [
            .init("old", .string(old)),
            .init("new", .string(new)),
            .init("requests", .string(requests)),
            .init("replayed", number(summary.requestCount)),
            .init("invalid", .array(JSONArray(invalid.map {
                .object(JSONObject(["line": number($0.line), "error": .string($0.message)]))
            }))),
            .init("invalidLines", number(invalidCount)),
            .init("changedRequests", number(summary.changedCount)),
        ]
        if summary.undecidableCount > 0 { members.append(.init("undecidable", number(summary.undecidableCount))) }
        for group in DiffReport.groups { members.append(.init(group.key, number(summary.count(group.kind)))) }
        members.append(.init("verdict", .string(summary.verdict.rawValue)))
        members.append(.init("changes", .array(JSONArray(summary.changes.map { counted in
            let change = ChangeText.json(counted.change)
            return .object(JSONObject(members: [.init("count", number(counted.count)), .init("kind", .string(counted.change.kind.rawValue))]
                                      + change.members))
        }))))
        let omitted = DiffReport.groups.filter { summary.omittedCount($0.kind) > 0 }
        if !omitted.isEmpty {
            members.append(.init("omitted", .object(JSONObject(members: omitted.map { .init($0.key, number(summary.omittedCount($0.kind))) }))))
        }
        return JSONObject(members: members)
    }

    /// How many invalid lines are counted but not listed.
    var omittedInvalid: Int { invalidCount - invalid.count }

    /// `and 12 more requests in changes beyond the first 100 listed`, or `nil` when the group's sample holds them all.
    func omittedSentence(_ kind: DecisionChange.Kind) -> String? {
        let omitted = summary.omittedCount(kind)
        guard omitted > 0 else { return nil }
        return "and \(omitted) more request\(omitted == 1 ? "" : "s") in changes beyond the first \(ReplaySummary.sampleLimit) listed"
    }
}

/// One change, as text and as JSON.
enum ChangeText {
    /// The request on one line (after `lead`), then the old and the new decision, indented under it.
    static func block(_ change: DecisionChange, indent: String, lead: String = "") -> String {
        let showUI = change.old.openInUI != change.new.openInUI
        let under = indent + String(repeating: " ", count: lead.count + 2)
        return "\(indent)\(lead)\(DecisionText.describe(change.request))\n"
            + "\(under)old: \(short(change.old, showUI: showUI))\n"
            + "\(under)new: \(short(change.new, showUI: showUI))\n"
    }

    /// `allow to com.example.docs  [document.listed-target]`, `deny, callback …, Open In UI disabled  [mailto.blocked]`.
    /// (The dummy file name is left to `--format json`: it is the same for a request under both policies.)
    static func short(_ decision: Decision, showUI: Bool) -> String {
        var parts = [decision.target.map { "\(decision.outcome) to \($0)" } ?? decision.outcome.rawValue]
        if let audience = decision.audience { parts.append("readable by \(audience)") }
        for callback in decision.callbacks { parts.append("callback \(callback)") }
        if showUI { parts.append("Open In UI \(decision.openInUI)") }
        return parts.joined(separator: ", ") + "  [\(decision.rule)]"
    }

    /// The request, the old and the new decision as Markdown table cells.
    static func markdownRow(_ change: DecisionChange) -> [String] {
        let showUI = change.old.openInUI != change.new.openInUI
        return [MarkdownText.code(DecisionText.describe(change.request)),
                MarkdownText.cell(short(change.old, showUI: showUI)), MarkdownText.cell(short(change.new, showUI: showUI))]
    }

    package static func json(_ change: DecisionChange) -> JSONObject {
        var request: [JSONObject.Member] = [.init("channel", .string(change.request.channel.rawValue))]
        if let target = change.request.target { request.append(.init("target", .string(target.rawValue))) }
        if let url = change.request.url { request.append(.init("url", .string(url.rawValue))) }
        if let source = change.request.source { request.append(.init("source", .string(source.rawValue))) }
        if let document = change.request.document { request.append(.init("document", .string(document))) }
        return JSONObject(members: [
            .init("request", .object(JSONObject(members: request))),
            .init("direction", .string(change.direction.rawValue)),
            .init("old", .object(DecisionRecord.json(change.old))),
            .init("new", .object(DecisionRecord.json(change.new))),
        ])
    }
}
