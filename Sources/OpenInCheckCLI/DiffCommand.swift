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
        let replay = ReplayReport(summary: summary, invalid: log.invalid, invalidCount: log.invalidCount, lineCount: log.lineCount, old: oldPath, new: newPath, requests: requestsPath == "-" ? "standard input" : requestsPath)
        switch format {
        case .text: console.stdout.write(replay.text)
        case .json: console.stdout.write(JSONWriter.pretty(.object(replay.json)) + "\n")
        case .markdown: console.stdout.write(replay.markdown)
        }
        if log.invalidCount > 0 { return .invalidInput }
        return failOn.fails(summary.verdict) ? .notAllowed : .success
    }

    private static func policy(_ path: String, buildSettings: BuildSettings) throws(CLIError) -> Policy {
        if Folder.subpaths(of: path) != nil, let hint = VendorDetection.intuneVerb(for: "diff", path: path, bytes: nil) { throw .invalidInput(hint) }
        var bytes = try ByteSource.readFile(path: path, what: "policy file")
        if let hint = VendorDetection.intuneVerb(for: "diff", path: path, bytes: bytes) { throw .invalidInput(hint) }
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
    static let invalidSampleLimit = ReplayReport.invalidSampleLimit
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
