import OpenInPolicy
import OpenInReports

/// `diff`: the impact of replacing one policy with another.
struct DiffCommand: Command, Equatable {
    /// The policy being replaced.
    var oldPath: String
    /// The policy replacing it.
    var newPath: String
    /// `--requests FILE`: replay a JSON Lines log instead of the request classes (`-` for standard input).
    var requestsPath: String?
    /// `--format`.
    var format: Format = .text
    /// `--fail-on`: which verdicts exit 2.
    var failOn: FailOn = .anyChange
    /// `--build-setting NAME=VALUE`, in order: values for the build-setting references in either policy's `infoPlist`.
    var buildSettings: [PolicyOptions.Pair] = []

    /// What `diff --format` writes.
    enum Format: String, OptionChoice {
        case text, json, markdown
    }

    /// `--fail-on`: the verdicts that make `diff` exit 2, so CI can fail on a loosening alone.
    enum FailOn: String, OptionChoice {
        case lessPermissive = "less-permissive"
        case morePermissive = "more-permissive"
        case anyChange = "any-change"
        case never

        static var kind: String { "--fail-on value" }

        /// Whether `verdict` fails. `incomparable` fails both directions: some change goes to another app or both ways.
        func fails(_ verdict: DiffVerdict) -> Bool {
            switch self {
            case .anyChange: verdict != .equivalent
            case .never: false
            case .lessPermissive: verdict == .lessPermissive || verdict == .incomparable
            case .morePermissive: verdict == .morePermissive || verdict == .incomparable
            }
        }
    }

    static let specs: [OptionSpec] = [
        OptionSpec("--requests", value: "FILE", help: "Replay a JSON Lines request log (- for standard input) and count\nwhat would change, instead of comparing every request class."),
        OptionSpec("--format", value: "FORMAT", help: "text (default), json or markdown."),
        OptionSpec("--fail-on", value: "WHEN", help: "Which verdicts exit 2: any-change (default), less-permissive,\nmore-permissive (each with incomparable), or never."),
        OptionSpec("--build-setting", value: "NAME=VALUE", repeatable: true, help: "Resolve $(NAME) and ${NAME} in the URL schemes of either policy's infoPlist,\nas eval does. Repeatable."),
    ]

    static let usage = "openin-check diff [--requests FILE] [--format text|json|markdown] [--fail-on WHEN] [--build-setting NAME=VALUE]... OLD NEW"

    static let verb = Verb(
        name: "diff",
        abstract: "Show the impact of replacing one policy with another, and a verdict.",
        usage: usage,
        specs: specs,
        help: """
            Show the impact of replacing one policy with another before it reaches a
            device: the requests whose decision changes, grouped, and a one-line verdict.

            Usage: \(usage)

            Arguments:
              OLD, NEW  Policy files: JSON policy files or AppConnect.plists.

            Options:
            \(OptionScanner.helpSection(for: specs))

            Both policies are decided on every request class that can tell them apart:
            every channel with each bundle ID either policy names, both Mail IDs, Email+
            and a fresh unlisted app; open-url with mailto, http, https, each own or
            handled scheme of either policy and an unhandled one; open-from with each of
            those IDs as source and an unknown source; copy with no paste target and
            each ID; print. Every other request decides like one of these, so
            'equivalent' holds for all requests. A channel beyond Open In (open-from,
            copy, print) that only one policy can decide (the other does not set its
            control, so its requests are errors) is listed apart and makes the
            verdict incomparable; where neither can, it is left out.

            Two decisions differ when the outcome, the receiving app, the callback, who
            can read a copy, the Open In UI or the dummy file name differs; the deciding
            rule is shown, not
            compared. Outcomes are ordered by what is delivered:
              allow > redirect > substitute-dummy-file > deny
            newly blocked  the outcome moves down (e.g. allow → deny, allow → redirect)
            newly allowed  the outcome moves up
            changed        same outcome; another receiving app, callback or Open In UI
            Verdict:
              equivalent       no request decides differently
              more permissive  every change is newly allowed, or only enables the Open In UI
              less permissive  every change is newly blocked, or only disables the Open In UI
              incomparable     changes go both ways, or a request goes to another app

            Output (each group lists its first 100 changes, and says how many more it
            counts; the verdict and the counts cover every request):
              text  the groups, each change with its old and new decision, then
                    'verdict: …' as the last line.
              json  {"old", "new", "verdict", "requestClasses", "newlyBlocked": [change],
                    "newlyAllowed": [change], "deliveredElsewhere": [change] (delivered before and
                    after, to another app: allow <-> redirect), "changed": [change],
                    "omitted"?: {group: count},
                    "decidedByOnePolicy"?: [{"channel", "missingKey", "missingIn"}]}; a change is
                    {"request", "direction", "old": decision, "new": decision}, decisions
                    as 'eval' writes them. With --requests: {"old", "new", "requests",
                    "replayed", "invalid": [{"line", "error"}] (the first 100), "invalidLines",
                    "changedRequests", "newlyBlocked", "newlyAllowed", "deliveredElsewhere", "changed" (counts),
                    "verdict", "changes": [change with "count" and "kind"] (the first 100
                    distinct requests of each group), "undecidable"?, "omitted"?: {group:
                    requests counted but in no listed change}}.
              markdown  the verdict, then a table per group, for a pull-request comment;
                    'verdict: …' as the last line.

            Exit status (--fail-on picks which verdicts exit 2; with --requests, the
            verdict on the log):
              0   the verdict does not fail: equivalent, or one --fail-on lets pass
              1   invalid input: a policy file, or a line of the request log
              2   any-change (default): not equivalent
                  less-permissive: less permissive or incomparable
                  more-permissive: more permissive or incomparable
                  never: no verdict exits 2
              64  usage error

            Examples:
              openin-check diff Examples/diff/old.json Examples/diff/new.json
              openin-check diff --requests Examples/requests.jsonl Examples/diff/old.json Examples/diff/new.json

            """,
        parse: { arguments throws(UsageError) in try DiffCommand.parse(arguments) })

    static func parse(_ arguments: [String]) throws(UsageError) -> DiffCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "diff")
        guard options.positionals.count == 2 else {
            let problem = options.positionals.count < 2
                ? "give two policy files, OLD and NEW (got \(options.positionals.count))"
                : "give two policy files, OLD and NEW: unexpected argument '\(options.positionals[2])'"
            throw UsageError(problem, verb: "diff")
        }
        if options.positionals.contains("-") {
            throw UsageError("OLD and NEW are policy files, not standard input; '--requests -' reads a log from standard input", verb: "diff")
        }
        let settings = try options.all("--build-setting").map { text throws(UsageError) in
            try PolicyOptions.pair(text, option: "--build-setting NAME=VALUE", valueMayBeEmpty: true, verb: "diff")
        }
        return DiffCommand(oldPath: options.positionals[0], newPath: options.positionals[1],
                           requestsPath: options.value("--requests"),
                           format: try Format.parse(options, default: .text, verb: "diff"),
                           failOn: try FailOn.parse(options, option: "--fail-on", default: .anyChange, verb: "diff"),
                           buildSettings: settings)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let settings = try PolicyOptions.buildSettings(buildSettings)
        let old = try Self.policy(oldPath, buildSettings: settings), new = try Self.policy(newPath, buildSettings: settings)
        guard let requestsPath else {
            let diff = PolicyDiff(old: old, new: new)
            switch format {
            case .text: console.stdout.write(DiffReport.text(diff, old: oldPath, new: newPath))
            case .json: console.stdout.write(JSONWriter.pretty(.object(DiffReport.json(diff, old: oldPath, new: newPath))) + "\n")
            case .markdown: console.stdout.write(DiffReport.markdown(diff, old: oldPath, new: newPath))
            }
            return failOn.fails(diff.verdict) ? .notAllowed : .success
        }
        let source = requestsPath == "-" ? console.stdin : try ByteSource.open(path: requestsPath, what: "request log")
        defer { source.close() }
        let log = RequestLog(source, console: console)
        // The log is read as it is replayed: only counts and a bounded sample of the changes and of the invalid lines are kept.
        let summary = PolicyDiff.replay(old: old, new: new, requests: AnySequence { AnyIterator { log.next() } })
        try log.finish()
        if summary.requestCount == 0, let first = log.invalid.first {
            // No request was compared: a verdict would claim something the log never showed.
            let name = requestsPath == "-" ? "on standard input" : "'\(requestsPath)'"
            throw .invalidInput("the request log \(name) holds no valid request (\(log.invalidCount) invalid line\(log.invalidCount == 1 ? "" : "s"); line \(first.line): \(first.message)): nothing was compared, so there is no verdict; fix the lines and run again")
        }
        let replay = ReplayReport(summary: summary, log: log, old: oldPath, new: newPath, requests: requestsPath == "-" ? "standard input" : requestsPath)
        switch format {
        case .text: console.stdout.write(replay.text)
        case .json: console.stdout.write(JSONWriter.pretty(.object(replay.json)) + "\n")
        case .markdown: console.stdout.write(replay.markdown)
        }
        if log.invalidCount > 0 { return .invalidInput }
        return failOn.fails(summary.verdict) ? .notAllowed : .success
    }

    private static func policy(_ path: String, buildSettings: BuildSettings) throws(CLIError) -> Policy {
        var bytes = try ByteSource.readFile(path: path, what: "policy file")
        do throws(FormatError) {
            return try PolicyFile.read(owning: &bytes, file: path, buildSettings: buildSettings).policy
        } catch {
            throw .invalidInput(error.description)
        }
    }
}

/// A request log read for replay, line by line through ``RequestStream``: the valid requests are
/// handed on as they are read; the invalid lines are counted, and the first ``invalidSampleLimit`` kept for the report.
final class RequestLog {
    /// How many invalid lines the report lists: the first 100 (the rest are counted).
    static let invalidSampleLimit = 100
    /// The first ``invalidSampleLimit`` invalid lines, with their errors.
    private(set) var invalid: [(line: Int, message: String)] = []
    /// How many lines were invalid, listed or not.
    private(set) var invalidCount = 0
    private var lines: LineReader
    private let stream: RequestStream
    private let console: Console
    private let sourceName: String
    /// The read error that ended the log early, reported by ``finish()``.
    private var failure: CLIError?

    init(_ source: ByteSource, console: Console) {
        lines = LineReader(source, what: "request log")
        // The stream only reads the log's lines here (PolicyDiff decides them under both policies), so its policy is never used.
        stream = RequestStream(policy: PolicyInputs(setting: .status(.authorized)))
        self.console = console
        sourceName = source.name
    }

    var lineCount: Int { stream.lineCount }

    /// The next valid request, skipping (and keeping) invalid lines; `nil` at the end or on a read error.
    func next() -> ShareRequest? {
        guard failure == nil else { return nil }
        do throws(CLIError) {
            while let line = try lines.next(beforeWaiting: { console.stdout.flush() }) {
                do throws(RequestLine.Failure) {
                    return try stream.request(for: line.streamLine).request
                } catch {
                    invalidCount += 1
                    if invalid.count < Self.invalidSampleLimit { invalid.append((stream.lineCount, error.message)) }
                }
            }
        } catch {
            failure = error
        }
        return nil
    }

    /// Throws the read error that ended the log, or says the log was empty.
    func finish() throws(CLIError) {
        if let failure { throw failure }
        if lineCount == 0 {
            throw .invalidInput("the request log \(sourceName == "standard input" ? "on standard input" : "'\(sourceName)'") is empty: write one JSON request per line")
        }
    }
}

/// `diff`'s output over the request classes.
enum DiffReport {
    static let groups: [(kind: DecisionChange.Kind, title: String, key: String)] = [
        (.newlyBlocked, "Newly blocked", "newlyBlocked"),
        (.newlyAllowed, "Newly allowed", "newlyAllowed"),
        (.deliveredElsewhere, "Delivered elsewhere", "deliveredElsewhere"),
        (.changed, "Changed outcome or callback", "changed"),
    ]

    static func text(_ diff: PolicyDiff, old: String, new: String) -> String {
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

    static func markdown(_ diff: PolicyDiff, old: String, new: String) -> String {
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

    static func json(_ diff: PolicyDiff, old: String, new: String) -> JSONObject {
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
struct ReplayReport {
    let summary: ReplaySummary
    let log: RequestLog
    let old: String
    let new: String
    let requests: String

    var text: String {
        var text = "replay of \(requests) under \(old) → \(new): \(log.lineCount) lines, \(summary.requestCount) requests"
        text += log.invalidCount == 0 ? "\n" : ", \(log.invalidCount) invalid lines\n"
        for (line, message) in log.invalid { text += "  line \(line): error  \(message)\n" }
        if omittedInvalid > 0 { text += "  … and \(omittedInvalid) more invalid lines (the first \(RequestLog.invalidSampleLimit) are listed)\n" }
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

    var markdown: String {
        var text = "**replay** of \(MarkdownText.code(requests, inTable: false)) under \(MarkdownText.code(old, inTable: false)) → \(MarkdownText.code(new, inTable: false)): **\(summary.verdict)**\n\n"
        text += "\(log.lineCount) lines, \(summary.requestCount) requests"
        text += log.invalidCount == 0 ? "; " : ", \(log.invalidCount) invalid lines; "
        text += "\(summary.changedCount) of \(summary.requestCount) requests would decide differently.\n"
        if log.invalidCount > 0 {
            text += "\n#### Invalid lines (\(log.invalidCount))\n\n"
            text += MarkdownText.table(["line", "error"], log.invalid.map { ["\($0.line)", MarkdownText.cell($0.message)] })
            if omittedInvalid > 0 { text += "\n… and \(omittedInvalid) more invalid lines (the first \(RequestLog.invalidSampleLimit) are listed).\n" }
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

    var json: JSONObject {
        let number = { (value: Int) in JSONValue.number(JSONNumber(value)) }
        var members: [JSONObject.Member] = [
            .init("old", .string(old)),
            .init("new", .string(new)),
            .init("requests", .string(requests)),
            .init("replayed", number(summary.requestCount)),
            .init("invalid", .array(JSONArray(log.invalid.map {
                .object(JSONObject(["line": number($0.line), "error": .string($0.message)]))
            }))),
            .init("invalidLines", number(log.invalidCount)),
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
    var omittedInvalid: Int { log.invalidCount - log.invalid.count }

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

    static func json(_ change: DecisionChange) -> JSONObject {
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
