import OpenInPolicy
import OpenInReports

/// `fleet`: end-to-end questions about an organisation's AppConnect fleet (a fleet file).
struct FleetCommand: Command {
    /// What `fleet` was asked.
    enum Subverb: Sendable {
        /// `eval`: one request from flags, or a JSON Lines stream.
        case eval(EvalRequests, format: OutputFormat, explain: Bool)
        /// `matrix`.
        case matrix(format: MatrixFormat)
        /// `paths --from A [--to B | --to outside] [--max-hops N]`.
        case paths(from: String, to: String?, maxHops: Int?, format: PathsFormat)
        /// `lint`.
        case lint(reporter: AnyReporter<FleetLintReport>)
        /// `diff OLD NEW`.
        case diff(old: String, new: String, format: PathsFormat, rows: Bool)
        /// `fixes [--from ID|all] [--to ID|outside]`.
        case fixes(from: String?, to: String?, format: FleetFixesOutput.Format)
        /// `report [--title TEXT]`.
        case report(title: String?)
    }

    /// Where `fleet eval`'s requests come from.
    enum EvalRequests: Sendable {
        case flags(from: String, channel: String, target: String?, url: String?, document: String?, location: String?)
        case stream(String)
    }

    typealias MatrixFormat = FleetOutput.FleetMatrixFormat
    typealias PathsFormat = FleetPathsFormat

    /// `--fleet FILE` (for diff, the old file).
    var fleetPath: String
    /// `--device NAME`: one profile; every profile when `nil`.
    var device: String?
    var subverb: Subverb
    /// `--devices FILE`: the Intune devices file, when a side is Intune app protection policies.
    var devicesPath: String? = nil
    /// `--baseline FILE` (paths, diff, fixes, report): the accepted paths; the gate fails only on new or expired ones.
    var baselinePath: String? = nil
    /// `--max-results N` (paths, diff): how much of a report format GitHub takes.
    var limits = ReportLimits()
    /// `--write-baseline FILE --reason TEXT --expires DAY` (paths): write today's paths as accepted entries.
    var writeBaseline: BaselineWriteRun? = nil

    static let subverbs = ["eval", "matrix", "paths", "lint", "diff", "fixes", "report"]

    static let specs: [OptionSpec] = [
        OptionSpec("--fleet", value: "FILE", help: "The fleet file (JSON: global, containerPolicies, appConfigurations, apps, devices).\nRequired, except for diff, which takes OLD NEW."),
        OptionSpec("--device", value: "NAME", help: "One device profile of the fleet; without it, every profile, each answer naming its device."),
        OptionSpec("--from", value: "BUNDLE_ID", help: "eval, paths, fixes: the sending app (for paste, the app the copy was made in), an app\nof the fleet (its apps, or installed on a device; anything else is an error);\npaths, fixes: all for every fleet app installed on the device, one after the\nother (fixes: the default)."),
        OptionSpec("--channel", value: "CHANNEL", help: "eval: one request's channel: \(FleetChannel.names)."),
        OptionSpec("--target", value: "BUNDLE_ID", help: "eval: the receiving app (for paste, the app pasted into); an ID the fleet does\nnot know is any other app, unless one or two edits from one of its apps (an error)."),
        OptionSpec("--url", value: "URL", help: "eval: the URL opened (open-url) or tapped (mail-link)."),
        OptionSpec("--document", value: "NAME", help: "eval: the shared file's name, from which a dummy file's name is made."),
        OptionSpec("--location", value: "LOCATION", help: "eval, Intune only: where save-as saves (\(IntuneLocationChannel.saveAs.locations.map(\.rawValue).joined(separator: ", ")))\nor open-into-org-document opens from (\(IntuneLocationChannel.openIntoOrgDocument.locations.map(\.rawValue).joined(separator: ", ")))."),
        OptionSpec("--explain", help: "eval: add how each side's app is authorized and which policy and label\neach control came from."),
        OptionSpec("--to", value: "BUNDLE_ID|outside", help: "paths, fixes: only the paths to this app, or to any app outside the device's\nauthorized AppConnect apps (native Mail and any other app included); an ID the\nfleet does not know is any other app, unless one or two edits from one of its\napps or from outside (an error: Did you mean)."),
        OptionSpec("--max-hops", value: "N", help: "paths: the longest chain followed (default: no limit)."),
        OptionSpec("--format", value: "FORMAT", help: "lint: \(ReporterRegistry.standard.choices(for: FleetLintReport.self)); eval: text, json or jsonl;\nmatrix, fixes: text, json or markdown; paths, diff: text, json, markdown, sarif\nor dot."),
        OptionSpec("--devices", value: "FILE", help: "eval, matrix, paths, lint, diff, fixes, report: the Intune devices file, when --fleet (or OLD or NEW) is Intune app\nprotection policies (Graph JSON): {\"apps\": [...], \"devices\": {...}}."),
        OptionSpec("--baseline", value: "FILE", help: "paths, diff, fixes, report: the accepted paths ({\"accepted\": [{\"device\", \"from\", \"to\", \"reason\",\n\"expires\"}]}): each path to outside is new, accepted or expired, and only\nnew or expired ones exit 2 (for diff, among the paths it opens)."),
        OptionSpec("--max-results", value: "N", help: "paths, diff with --format sarif: the most results the log keeps, the most severe\nfirst (default: \(ReportLimits.defaultMaxResults), GitHub code scanning's limit); the log also stays\nunder \(ReportLimits.defaultMaxSARIFBytes) bytes. What is left out is counted in the run's properties."),
        OptionSpec("--max-bytes", value: "N", help: "paths, diff with --format markdown: the most bytes written (default: \(ReportLimits.defaultMaxMarkdownBytes), what a\npull-request comment takes; at least \(ReportLimits.leastMarkdownBytes)); a cut ends with what was left out."),
        OptionSpec("--max-edges", value: "N", help: "paths with --format dot: beyond N edges in a device's cluster (default: \(ReportLimits.defaultMaxDOTEdges);\nat least \(ReportLimits.leastDOTEdges)), draw it grouped as the Markdown graph is, within N edges."),
        OptionSpec("--show", value: "accepted", help: "paths, diff with --format markdown and --baseline: list the accepted paths too\n(by default they are counted: the new and expired ones are listed)."),
        OptionSpec("--write-baseline", value: "FILE", help: "paths: write the paths the gate counts as accepted entries into FILE (with\n--reason and --expires), merged with FILE when it exists: kept entries keep\ntheirs, resolved ones are dropped and listed on standard error."),
        OptionSpec("--reason", value: "TEXT", help: "paths --write-baseline: why the new entries are accepted (a review, a ticket)."),
        OptionSpec("--expires", value: "YYYY-MM-DD", help: "paths --write-baseline: the last day (UTC) the new entries hold."),
        OptionSpec("--title", value: "TEXT", help: "report: the page's title (default: the fleet file's name)."),
        OptionSpec("--rows", help: "diff with Intune on a side: print each group of changed flows as decision\ntable rows (the new side's decisions) to keep as tests."),
    ]

    static let usage = "openin-check fleet eval|matrix|paths|lint|diff|fixes|report --fleet FILE [--device NAME] [options]"

    /// The options each subverb takes.
    static let allowedOptions: [String: [String]] = [
        "eval": ["--fleet", "--device", "--from", "--channel", "--target", "--url", "--document", "--location", "--explain", "--format", "--devices"],
        "matrix": ["--fleet", "--device", "--format", "--devices"],
        "paths": ["--fleet", "--device", "--from", "--to", "--max-hops", "--format", "--devices", "--baseline", "--max-results", "--max-bytes", "--show",
                  "--max-edges", "--write-baseline", "--reason", "--expires"],
        "lint": ["--fleet", "--format", "--devices"],
        "diff": ["--device", "--format", "--devices", "--rows", "--baseline", "--max-results", "--max-bytes", "--show"],
        "fixes": ["--fleet", "--device", "--from", "--to", "--format", "--devices", "--baseline"],
        "report": ["--fleet", "--devices", "--baseline", "--title"],
    ]

    static let verb: Verb = {
        var verb = baseVerb
        verb.subverbHelp = { word in subverbHelp(word) }
        return verb
    }()

    /// `fleet SUBVERB --help`: the subverb's part of the fleet help (its usage lines, its entry under
    /// Subverbs, its options), taken from that one text so the two never disagree.
    static func subverbHelp(_ word: String) -> String? {
        guard let subverb = subverbs.first(where: { ExactText.same($0, word) }), let allowed = allowedOptions[subverb] else { return nil }
        let full = baseVerb.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let usage = full.prefix { $0 != "Subverbs:" }.filter { $0.hasPrefix("  openin-check fleet \(subverb) ") }
        var entry: [String] = []
        if let start = full.firstIndex(where: { $0.hasPrefix("  \(subverb) ") && $0.count > 10 && $0.dropFirst(2).hasPrefix(subverb.padding(8)) }) {
            entry.append("  " + full[start].dropFirst(2 + 8))
            for line in full[(start + 1)...] {
                guard line.hasPrefix(String(repeating: " ", count: 10)) else { break }
                entry.append("  " + line.dropFirst(10))
            }
        }
        var text = "openin-check fleet \(subverb): one subverb of fleet (see 'openin-check fleet --help' for the fleet file and the others).\n\n"
        text += "Usage:\n" + usage.joined(separator: "\n") + "\n\n"
        text += entry.joined(separator: "\n") + "\n\n"
        text += "Options:\n" + OptionScanner.helpSection(for: specs.filter { allowed.contains($0.name) }) + "\n"
        if let exit = full.firstIndex(of: "Exit status:") {
            text += "\n" + full[exit...].prefix { !$0.isEmpty }.joined(separator: "\n") + "\n"
        }
        return text
    }

    private static let baseVerb = Verb(
        name: "fleet",
        abstract: "Decide across an organisation's AppConnect apps: end to end, paths, matrix, lint, diff, fixes, report.",
        usage: usage,
        specs: specs,
        help: """
            Decide across an organisation's AppConnect apps, from a fleet file: the global
            policy, the container policies and app configurations (applied by label), the
            organisation's apps and named device profiles. Each app's policy on a device is
            worked out from it: the container policy over the global policy, control by
            control; an AppConnect app is authorized by a container policy that applies to
            the device, or by the global policy's authorizeAppsWithoutContainerPolicy, and
            otherwise decided as a retired app. The device's "AppConnect apps" are its
            installed, authorized AppConnect apps.

            Usage:
              openin-check fleet eval --fleet FILE [--device NAME] --from ID --channel CHANNEL [--target ID] [--url URL] [--location LOCATION] [--explain]
              openin-check fleet eval --fleet FILE [--device NAME] (REQUESTS.jsonl | -)
              openin-check fleet paths --fleet FILE [--device NAME] --from ID|all [--to ID | --to outside] [--max-hops N]
                  [--baseline FILE] [--format text|json|markdown|sarif|dot] [--max-results N] [--max-bytes N]
                  [--show accepted] [--max-edges N]
              openin-check fleet matrix --fleet FILE [--device NAME] [--format text|json|markdown]
              openin-check fleet lint --fleet FILE [--format \(ReporterRegistry.standard.names(for: FleetLintReport.self).joined(separator: "|"))]
              openin-check fleet diff OLD NEW [--device NAME] [--baseline FILE] [--format text|json|markdown|sarif|dot]
                  [--max-results N] [--max-bytes N] [--show accepted]
              openin-check fleet fixes --fleet FILE [--device NAME] [--from ID|all] [--to ID|outside] [--baseline FILE]
                  [--format text|json|markdown]
              openin-check fleet report --fleet FILE [--baseline FILE] [--title TEXT] > report.html
              openin-check fleet eval --fleet INTUNE.json --devices FILE …
              openin-check fleet diff OLD NEW --devices FILE [--rows]   (Intune on either side)

            Subverbs:
              eval    Decide requests end to end: the sender's part (its rule, outcome and
                      callbacks, in the sender) and the receiver's part (its Open From rule and
                      callbacks, in the receiver, when the receiver is an authorized AppConnect
                      app and the channel hands it a document; null otherwise). The outcome is
                      allowed only if both allow. paste is a copy made in the from app, pasted
                      into the target: the from app's pasteboard policy decides it. copy and print
                      are the from app's own decision (copy's audience says who may paste it);
                      save-as and open-into-org-document name a --location and are Intune's only
                      (an AppConnect fleet has no such control: an error).
                      Request line: {"id"?, "from", "channel", "target"?, "url"?, "document"?, "location"?}.
                      Record: {"id"?, "device", "from", "channel", "target"?, "url"?, "location"?, "outcome",
                      "to"?, "sender": {"app", "rule", "outcome", "audience"?, "callbacks",
                      "reason", "dummyFileName"?}, "receiver": {…} | null, "explanation"?};
                      an invalid line gives {"line", "id"?, "device"?, "error"}.
              paths   Where the from app's documents can end up on each device: first the zone
                      of trust (who is inside, what outside means) and the counts (apps reached,
                      outside, paths to the --to set); then every app reachable, each with its
                      shortest chain and the apps that deliver to it directly ("delivered by",
                      at most 10 named); per hop the channel, the rules that let the document go
                      and the settings behind them (side, app, key = value, policy, how it
                      reaches the app, file:line). JSON adds "fromOutside" (whether the from
                      app is outside the zone of trust there), "zone", "summary", "deliveredBy",
                      and per hop "settings" and "reproduce" (the fleet eval command that
                      decides it alone). A web address (http, https) carries no document
                      and is not followed, nor is keyboard (typing moves no document). --from all:
                      the same for every fleet app installed on the device, in file order, one
                      block (or JSON record) each, streamed. Report formats, of the paths to
                      outside (or to --to) from apps inside the zone of trust: markdown (a
                      summary, a table per device of the paths to act on, with --baseline the
                      new and expired ones, the accepted counted, a grouped Mermaid graph per device of
                      at most 50 edges; at most --max-bytes, default 65,536), sarif (SARIF \(SARIFLog.version): a result per path, its code flow a step per
                      hop at the line of the setting that lets it through, a fingerprint of
                      device, source, destination and chain; at most --max-results results,
                      default 25,000, and 9,500,000 bytes, the rest counted), dot (Graphviz, a
                      cluster per device; beyond --max-edges, default \(ReportLimits.defaultMaxDOTEdges), grouped as the Markdown graph).
              matrix  Senders (the fleet's apps) × receivers (the fleet's apps, native Mail and any
                      other app), one grid per channel that names its receiver, each cell the
                      end-to-end outcome;
                      then each sender's keyboard line: a third-party keyboard, the system keyboard;
                      then each sender's one-sided decisions: copy (its audience), print, and
                      for Intune save-as and open-into-org-document at each location.
              lint    Fleet-level mistakes, each with a code and a fix. --format sarif: SARIF \(SARIFLog.version)
                      for code scanning, every check a rule, every finding a result with the
                      fleet file, its line and the finding's key path. A receiver whose Open From
                      refuses more than three senders gets one FL003 finding: the first three and
                      the count.
              diff    End-to-end flows (keyboards included), leak paths, and each installed app's
                      print and copy (control) that open or close between two fleet files, per
                      device. With Intune app protection policies (Graph JSON, with
                      --devices) on either side: every flow (sender × receiver × channel, per
                      device) that decides differently, grouped by what the receiving app can
                      read: newly readable (a leak), no longer readable, and changed form (as
                      readable as before: deny ↔ dummy file ↔ encrypted, allow ↔ redirect); --rows
                      prints them as decision table rows. --format markdown|sarif|dot (or --baseline): the leak
                      paths each fleet has per device, either vendor, opened and closed.
              fixes   What to change: every change of one setting in the fleet file (or Intune
                      export) that can close a path from an app inside the zone of trust to the
                      --to set, each applied to a copy and the paths found again. A fix gives the
                      change in one sentence, an RFC 6902 JSON Patch against the file as given,
                      the file and line, closes and remaining (paths: one device, from, to), and
                      collateral: the flows between apps inside the zone that it also blocks,
                      on every channel fleet matrix decides (and those it newly allows). A
                      candidate that cannot be made is listed, with why.
                      Ranked: most closed, least collateral, fewest apps touched. Then the plan:
                      changes chosen greedily, each verified with the earlier ones applied, with
                      one patch per file (none when no change closes a path); the paths left and why.
              report  One self-contained HTML page on stdout for an auditor to open offline: per
                      device the zone of trust, counts, the leak graph (inline SVG), the paths with
                      their hops; the fixes and plan; the channel matrix; lint findings; the data
                      as JSON in <script type="application/json" id="openin-check-data">. Nothing
                      is loaded from anywhere; every name from the input is escaped; long lists
                      are capped with what was left out. The fixes: at most 1,000 candidates
                      verified, those that can close the most paths first; the page says how many
                      it left unverified (fleet fixes verifies every one).

            Baselines (--baseline FILE, paths and diff): the paths a review accepted,
              {"accepted": [{"device": NAME or "*", "from": ID, "to": ID or "any other app",
                             "reason": TEXT, "expires": "YYYY-MM-DD"}]}
            Each path to outside (from an app inside the zone of trust) is new, accepted
            (an entry matches and its expiry, a UTC date, is today or later) or expired;
            text marks it, JSON gives "state", SARIF suppresses accepted results with the
            reason. Entries that match no path are listed as resolved. An entry for a
            device the fleet lacks is a warning on standard error. A baseline mistake
            (no reason, an unknown key, an impossible date, a path accepted twice) is
            invalid input with file:line and key path.

            Intune: where --fleet (or OLD, NEW) holds iosManagedAppProtection JSON, eval and
            diff decide under Intune's rules (openin-check rules --intune), with the devices
            file's facts: installed apps, mdmEnrolled, intuneMAMUPN, scheme handlers, each
            app's intuneSDKVersion, and appGroups (the apps of allCoreMicrosoftApps and
            allMicrosoftApps, for a policy that names the group and lists no apps); matrix shows the targeted apps as senders (encr = deliver-encrypted);
            lint runs the Intune checks IN001-IN009; paths follows readable deliveries
            (an encrypted one carries nothing), "outside" being the apps no policy manages,
            --from all starting from each policy-managed app installed on the device.

            Inputs: every file (--fleet, --devices, OLD, NEW) is read once, so a pipe works:
            --fleet <(cat fleet.json), --fleet /dev/stdin. A FIFO that no writer opens within
            2 seconds is an error, never a wait; so is a folder with no JSON file in it.
            SIGTERM and SIGINT stop every subverb within a second (exit 143, 130).

            Channels: \(FleetChannel.names).

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status:
              0   eval: every decision is allow; paths: no path reaches the --to set (or, without
                  --to, outside); matrix: printed; lint: no error or warning; diff: nothing opened;
                  fixes: no path to close; report: written
              1   invalid input: the fleet file, a flag's value or some request line
              2   eval: some decision is not allow; paths: a path reaches the --to set (without
                  --to, outside); lint: a finding at warning level or above; diff: a flow, leak path
                  or control opened (--format markdown|sarif|dot: a leak path opened); with --baseline, paths and
                  diff exit 2 only when a path to outside (for diff, one it opens) is new or expired;
                  fixes: some path to close (with --baseline: a new or expired one)
              64  usage error

            Examples:
              openin-check fleet paths --fleet Examples/fleet/acme.json --device employee-iphone --from com.acme.hr --to outside
              openin-check fleet paths --fleet Examples/fleet/acme.json --from all --baseline Examples/fleet/acme-baseline.json --format sarif
              openin-check fleet eval --fleet Examples/fleet/acme.json --from com.acme.hr \\
                  --channel document-interaction --target com.mobileiron.ios.emailplus --explain

            """,
        parse: { arguments throws(UsageError) in try FleetCommand.parse(arguments) },
        parseWithReporters: { arguments, reporters throws(UsageError) in try FleetCommand.parse(arguments, reporters: reporters) })

    static func parse(_ arguments: [String], reporters: ReporterRegistry = .standard) throws(UsageError) -> FleetCommand {
        guard let first = arguments.first else {
            throw UsageError("missing subverb: give one of \(subverbs.joined(separator: ", "))", verb: "fleet")
        }
        guard subverbs.contains(first) else {
            throw UsageError("unknown subverb '\(first)': give one of \(subverbs.joined(separator: ", ")).\(Suggestion.phrase(for: first, among: subverbs))", verb: "fleet")
        }
        let options = try OptionScanner.scan(Array(arguments.dropFirst()), specs: specs, verb: "fleet")
        let allowed = allowedOptions
        for name in options.values.map(\.name) + options.flags where !allowed[first]!.contains(name) {
            throw UsageError("'\(name)' is not an option of fleet \(first)", verb: "fleet")
        }
        let device = options.value("--device")
        if first == "diff" {
            guard options.positionals.count == 2 else {
                throw UsageError("fleet diff takes two fleet files, OLD NEW (got \(options.positionals.count))", verb: "fleet")
            }
            let format = try PathsFormat.parse(options, default: .text, verb: "fleet")
            if options.has("--rows"), format != .text {
                throw UsageError("'--rows' prints decision table rows: it does not go with --format \(format.rawValue)", verb: "fleet")
            }
            return FleetCommand(fleetPath: options.positionals[0], device: device,
                                subverb: .diff(old: options.positionals[0], new: options.positionals[1], format: format, rows: options.has("--rows")),
                                devicesPath: options.value("--devices"), baselinePath: options.value("--baseline"), limits: try limits(options, format: format))
        }
        guard let fleetPath = options.value("--fleet") else {
            throw UsageError("missing '--fleet FILE': give the fleet file", verb: "fleet")
        }
        switch first {
        case "eval":
            let requests: EvalRequests
            switch (options.value("--channel"), options.positionals.count) {
            case (let channel?, 0):
                guard let from = options.value("--from") else { throw UsageError("missing '--from BUNDLE_ID': give the sending app", verb: "fleet") }
                requests = .flags(from: from, channel: channel, target: options.value("--target"), url: options.value("--url"), document: options.value("--document"),
                                  location: options.value("--location"))
            case (nil, 1):
                if let flag = ["--from", "--target", "--url", "--document", "--location"].first(where: { options.value($0) != nil }) {
                    throw UsageError("'\(flag)' describes one request given with --channel; a stream's lines name their own", verb: "fleet")
                }
                requests = .stream(options.positionals[0])
            case (nil, 0):
                throw UsageError("no request given: give one with --from and --channel, or a JSON Lines stream (a file, or - for standard input)", verb: "fleet")
            default:
                throw UsageError("give one request with --channel or one stream, not both or more (unexpected argument '\(options.positionals.last!)')", verb: "fleet")
            }
            let isFlags: Bool = if case .flags = requests { true } else { false }
            let format = try OutputFormat.parse(options, default: isFlags ? .text : .jsonl, verb: "fleet")
            return FleetCommand(fleetPath: fleetPath, device: device, subverb: .eval(requests, format: format, explain: options.has("--explain")),
                                devicesPath: options.value("--devices"))
        case "matrix":
            try noPositionals(options, "matrix")
            return FleetCommand(fleetPath: fleetPath, device: device, subverb: .matrix(format: try MatrixFormat.parse(options, default: .text, verb: "fleet")),
                                devicesPath: options.value("--devices"))
        case "paths":
            try noPositionals(options, "paths")
            guard let from = options.value("--from") else { throw UsageError("missing '--from BUNDLE_ID': give the app whose documents to follow", verb: "fleet") }
            var maxHops: Int? = nil
            if let text = options.value("--max-hops") {
                guard let hops = Int(text), hops >= 1 else { throw UsageError("'--max-hops' must be a whole number of hops, at least 1, not '\(text)'", verb: "fleet") }
                maxHops = hops
            }
            let format = try PathsFormat.parse(options, default: .text, verb: "fleet")
            return FleetCommand(fleetPath: fleetPath, device: device, subverb: .paths(from: from, to: options.value("--to"), maxHops: maxHops, format: format),
                                devicesPath: options.value("--devices"), baselinePath: options.value("--baseline"), limits: try limits(options, format: format),
                                writeBaseline: try BaselineWriteRun.parse(options))
        case "fixes":
            try noPositionals(options, "fixes")
            let from = options.value("--from")
            return FleetCommand(fleetPath: fleetPath, device: device,
                                subverb: .fixes(from: from.flatMap { ExactText.same($0, "all") ? nil : $0 }, to: options.value("--to"),
                                                format: try FleetFixesOutput.Format.parse(options, default: .text, verb: "fleet")),
                                devicesPath: options.value("--devices"), baselinePath: options.value("--baseline"))
        case "report":
            try noPositionals(options, "report")
            return FleetCommand(fleetPath: fleetPath, device: nil, subverb: .report(title: options.value("--title")),
                                devicesPath: options.value("--devices"), baselinePath: options.value("--baseline"))
        default:
            try noPositionals(options, "lint")
            return FleetCommand(fleetPath: fleetPath, device: nil, subverb: .lint(reporter: try reporters.choice(options, for: FleetLintReport.self, default: "text", verb: "fleet")),
                                devicesPath: options.value("--devices"))
        }
    }

    /// `--max-results N` (SARIF), `--max-bytes N` and `--show accepted` (Markdown), `--max-edges N` (DOT): ``ReportLimits/read(_:_:format:)``.
    static func limits(_ options: ParsedOptions, format: PathsFormat) throws(UsageError) -> ReportLimits {
        var limits = ReportLimits()
        for option in ReportLimits.options {
            if let text = options.value(option), let problem = limits.read(option, text, format: format.rawValue) { throw UsageError(problem, verb: "fleet") }
        }
        return limits
    }

    static func noPositionals(_ options: ParsedOptions, _ subverb: String) throws(UsageError) {
        if let extra = options.positionals.first {
            throw UsageError("unexpected argument '\(extra)': fleet \(subverb) takes only options", verb: "fleet")
        }
    }

    /// Parses a fleet file read once (``VendorInput``).
    static func fleet(_ input: VendorInput) throws(CLIError) -> Fleet {
        do throws(FormatError) {
            return try FleetJSON.read(input.bytes ?? [], file: input.path)
        } catch {
            throw .invalidInput(error.description)
        }
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        // Every fleet file (for diff, OLD and NEW) read once, all before any is loaded (a pipe gives its bytes to
        // one reader only); each fleet, of either vendor, loaded once; every subverb below runs on the analyses.
        var inputs = [try VendorInput.read(fleetPath)]
        if case .diff(_, let new, _, _) = subverb { inputs.append(try VendorInput.read(new)) }
        let analyses = try inputs.map { (input) throws(CLIError) in try VendorFiles.analysis(input, devices: devicesPath, console: console) }
        let analysis = analyses[0]
        let input = inputs[0]
        // The apps the fleet knows: what --from, --to and a request's from and target are checked against.
        func names() -> FleetAppNames { FleetAppNames(analysis, file: fleetPath, devicesFile: devicesPath) }
        func devices() throws(CLIError) -> [AnalyzedDevice] {
            do throws(FleetError) { return try analysis.devices(named: device) } catch { throw FleetOutput.fail(error) }
        }
        switch subverb {
        case .eval(let requests, let format, let explain):
            return try FleetEval.run(requests, devices: try devices(), names: names(), format: format, explain: explain, console: console)
        case .matrix(let format):
            return try FleetOutput.matrix(try devices(), format: format, console: console)
        case .paths(let from, let to, let maxHops, let format):
            var writer = try PathsWriter.checked(from: from, to: to, names: names(), format: format, console: console)
            if let writeBaseline {
                return try writeBaseline.run(writer, devices: try devices(), maxHops: maxHops, analysis: analysis, names: names(), console: console)
            }
            writer.baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: names().known, onlyTo: writer.targetNode, console: console)
            writer.limits = limits
            return try FleetOutput.paths(try devices(), maxHops: maxHops, writer: writer)
        case .lint(let reporter):
            let lint = analysis.lint()
            let report = FleetLintReport(findings: lint.findings, checks: lint.checks, file: analysis.file ?? "fleet")
            reporter.write(report, to: console.stdout)
            // As `lint`: findings at warning level or above exit 2; 1 is kept for input that cannot be read.
            return report.findings.contains { $0.severity >= .warning } ? .notAllowed : .success
        case .fixes(let from, let to, let format):
            // --from and --to checked as fleet paths checks them; a --to the fleet does not know is any other app.
            let checked = try PathsWriter.checked(from: from ?? FleetOutput.everyApp, to: to, names: names(), format: .text, console: console)
            let scope = FixScope(device: device, from: from, to: checked.targetNode?.description)
            let baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: names().known, onlyTo: checked.targetNode, console: console)
            return try FleetFixesOutput.run(input, analysis: analysis, devices: devicesPath, scope: scope, baseline: baseline, format: format, console: console)
        case .report(let title):
            let baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: names().known, onlyTo: nil, console: console)
            return try FleetReportOutput.run(analysis, input: input, devices: devicesPath, baseline: baseline, title: title, console: console)
        case .diff(let old, let new, let format, let rows):
            return try FleetDiffOutput.run(old: analysis, new: analyses[1], oldPath: old, newPath: new, device: device, format: format, rows: rows,
                                           baselinePath: baselinePath, limits: limits, console: console)
        }
    }
}

extension FleetOutput.FleetMatrixFormat: OptionChoice {}
extension FleetPathsFormat: OptionChoice {}
