import OpenInPolicy

/// `diff`: the impact of replacing one policy with another.
struct DiffCommand: Command, Equatable {
    /// The policy being replaced.
    var oldPath: String
    /// The policy replacing it.
    var newPath: String
    /// `--requests FILE`: replay a JSON Lines log instead of the request classes (`-` for standard input).
    var requestsPath: String?
    /// `--format`: text or json.
    var json: Bool

    static let specs: [OptionSpec] = [
        OptionSpec("--requests", value: "FILE", help: "Replay a JSON Lines request log (- for standard input) and count\nwhat would change, instead of comparing every request class."),
        OptionSpec("--format", value: "FORMAT", help: "text (default) or json."),
    ]

    static let usage = "openin-check diff [--requests FILE] [--format text|json] OLD NEW"

    static let verb = Verb(
        name: "diff",
        abstract: "Show the impact of replacing one policy with another, and a verdict.",
        usage: usage,
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
            handled scheme of either policy and an unhandled one. Every other request
            decides like one of these, so 'equivalent' holds for all requests.

            Two decisions differ when the outcome, the receiving app, the callback, the
            Open In UI or the dummy file name differs; the deciding rule is shown, not
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

            Output:
              text  the groups, each change with its old and new decision, then
                    'verdict: …' as the last line.
              json  {"old", "new", "verdict", "requestClasses", "newlyBlocked": [change],
                    "newlyAllowed": [change], "changed": [change]}; a change is
                    {"request", "direction", "old": decision, "new": decision}, decisions
                    as 'eval' writes them. With --requests: {"old", "new", "requests",
                    "replayed", "invalid": [{"line", "error"}], "changedRequests",
                    "newlyBlocked", "newlyAllowed", "changed" (counts), "verdict",
                    "changes": [change with "count" and "kind"]}.

            Exit status:
              0   equivalent (with --requests: no request of the log would change)
              1   invalid input: a policy file, or a line of the request log
              2   not equivalent
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
        var json = false
        if let format = options.value("--format") {
            switch format {
            case "text": json = false
            case "json": json = true
            default:
                throw UsageError("unknown format '\(format)': use text or json.\(Suggestion.phrase(for: format, among: ["text", "json"]))", verb: "diff")
            }
        }
        return DiffCommand(oldPath: options.positionals[0], newPath: options.positionals[1],
                           requestsPath: options.value("--requests"), json: json)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let old = try Self.policy(oldPath), new = try Self.policy(newPath)
        guard let requestsPath else {
            let diff = PolicyDiff(old: old, new: new)
            console.stdout.write(json ? JSONWriter.pretty(.object(DiffReport.json(diff, old: oldPath, new: newPath))) + "\n"
                                      : DiffReport.text(diff, old: oldPath, new: newPath))
            return diff.verdict == .equivalent ? .success : .notAllowed
        }
        let source = requestsPath == "-" ? console.stdin : try ByteSource.open(path: requestsPath, what: "request log")
        defer { source.close() }
        let log = RequestLog(source, console: console)
        // The log is read as it is replayed: only the changes (one per distinct request) and the invalid lines are kept.
        let summary = PolicyDiff.replay(old: old, new: new, requests: AnySequence { AnyIterator { log.next() } })
        try log.finish()
        let replay = ReplayReport(summary: summary, log: log, old: oldPath, new: newPath, requests: requestsPath == "-" ? "standard input" : requestsPath)
        console.stdout.write(json ? JSONWriter.pretty(.object(replay.json)) + "\n" : replay.text)
        if !log.invalid.isEmpty { return .invalidInput }
        return summary.changes.isEmpty ? .success : .notAllowed
    }

    private static func policy(_ path: String) throws(CLIError) -> Policy {
        let bytes = try ByteSource.readFile(path: path, what: "policy file")
        do throws(FormatError) {
            return try PolicyFile.read(bytes, file: path).policy
        } catch {
            throw .invalidInput(error.description)
        }
    }
}

/// A request log read for replay, line by line through ``RequestStream``: the valid requests are
/// handed on as they are read; the invalid lines are kept for the report.
final class RequestLog {
    private(set) var invalid: [(line: Int, message: String)] = []
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
                    invalid.append((stream.lineCount, error.message))
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
        (.changed, "Changed outcome or callback", "changed"),
    ]

    static func text(_ diff: PolicyDiff, old: String, new: String) -> String {
        var text = "diff \(old) → \(new): \(diff.requestClasses.count) request classes, "
        text += diff.changes.isEmpty ? "none decides differently\n" : "\(diff.changes.count) decide differently\n"
        for group in groups {
            let changes = diff.changes(group.kind)
            if changes.isEmpty { continue }
            text += "\n\(group.title) (\(changes.count)):\n"
            for change in changes { text += ChangeText.block(change, indent: "  ") }
        }
        return text + "\nverdict: \(diff.verdict)\n"
    }

    static func json(_ diff: PolicyDiff, old: String, new: String) -> JSONObject {
        var members: [JSONObject.Member] = [
            .init("old", .string(old)),
            .init("new", .string(new)),
            .init("verdict", .string(diff.verdict.rawValue)),
            .init("requestClasses", .number(JSONNumber(diff.requestClasses.count))),
        ]
        for group in groups {
            members.append(.init(group.key, .array(JSONArray(diff.changes(group.kind).map { .object(ChangeText.json($0)) }))))
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
        text += log.invalid.isEmpty ? "\n" : ", \(log.invalid.count) invalid lines\n"
        for (line, message) in log.invalid { text += "  line \(line): error  \(message)\n" }
        text += "\(summary.changedCount) of \(summary.requestCount) requests would decide differently"
        text += summary.changedCount == 0 ? "\n" : ": \(DiffReport.groups.map { "\(summary.count($0.kind)) \($0.kind)" }.joined(separator: ", "))\n"
        for group in DiffReport.groups {
            let changes = summary.changes.filter { $0.change.kind == group.kind }
            if changes.isEmpty { continue }
            text += "\n\(group.title) (\(summary.count(group.kind)) requests):\n"
            for counted in changes { text += ChangeText.block(counted.change, indent: "  ", lead: "\(counted.count)×  ") }
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
            .init("changedRequests", number(summary.changedCount)),
        ]
        for group in DiffReport.groups { members.append(.init(group.key, number(summary.count(group.kind)))) }
        members.append(.init("verdict", .string(summary.verdict.rawValue)))
        members.append(.init("changes", .array(JSONArray(summary.changes.map { counted in
            let change = ChangeText.json(counted.change)
            return .object(JSONObject(members: [.init("count", number(counted.count)), .init("kind", .string(counted.change.kind.rawValue))]
                                      + change.members))
        }))))
        return JSONObject(members: members)
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
        for callback in decision.callbacks { parts.append("callback \(callback)") }
        if showUI { parts.append("Open In UI \(decision.openInUI)") }
        return parts.joined(separator: ", ") + "  [\(decision.rule)]"
    }

    static func json(_ change: DecisionChange) -> JSONObject {
        var request: [JSONObject.Member] = [.init("channel", .string(change.request.channel.rawValue))]
        if let target = change.request.target { request.append(.init("target", .string(target.rawValue))) }
        if let url = change.request.url { request.append(.init("url", .string(url.rawValue))) }
        if let document = change.request.document { request.append(.init("document", .string(document))) }
        return JSONObject(members: [
            .init("request", .object(JSONObject(members: request))),
            .init("direction", .string(change.direction.rawValue)),
            .init("old", .object(DecisionRecord.json(change.old))),
            .init("new", .object(DecisionRecord.json(change.new))),
        ])
    }
}
