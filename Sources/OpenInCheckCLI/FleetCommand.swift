import OpenInPolicy

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
        case lint(format: FleetLintFormat)
        /// `diff OLD NEW`.
        case diff(old: String, new: String, format: PathsFormat, rows: Bool)
        /// `fixes [--from ID|all] [--to ID|outside]`.
        case fixes(from: String?, to: String?, format: FleetFixesOutput.Format)
        /// `report [--title TEXT]`.
        case report(title: String?)
    }

    /// Where `fleet eval`'s requests come from.
    enum EvalRequests: Sendable {
        case flags(from: String, channel: String, target: String?, url: String?, document: String?)
        case stream(String)
    }

    enum MatrixFormat: String, OptionChoice { case text, json, markdown }
    enum PathsFormat: String, OptionChoice { case text, json }
    enum FleetLintFormat: String, OptionChoice { case text, json, markdown, github, sarif }

    /// `--fleet FILE` (for diff, the old file).
    var fleetPath: String
    /// `--device NAME`: one profile; every profile when `nil`.
    var device: String?
    var subverb: Subverb
    /// `--devices FILE`: the Intune devices file, when a side is Intune app protection policies.
    var devicesPath: String? = nil

    static let subverbs = ["eval", "matrix", "paths", "lint", "diff", "fixes", "report"]

    static let specs: [OptionSpec] = [
        OptionSpec("--fleet", value: "FILE", help: "The fleet file (JSON: global, containerPolicies, appConfigurations, apps, devices).\nRequired, except for diff, which takes OLD NEW."),
        OptionSpec("--device", value: "NAME", help: "One device profile of the fleet; without it, every profile, each answer naming its device."),
        OptionSpec("--from", value: "BUNDLE_ID", help: "eval, paths, fixes: the sending app (for paste, the app the copy was made in);\npaths, fixes: all for every fleet app installed on the device (fixes: the default)."),
        OptionSpec("--channel", value: "CHANNEL", help: "eval: one request's channel: \(FleetChannel.names)."),
        OptionSpec("--target", value: "BUNDLE_ID", help: "eval: the receiving app (for paste, the app pasted into)."),
        OptionSpec("--url", value: "URL", help: "eval: the URL opened (open-url) or tapped (mail-link)."),
        OptionSpec("--document", value: "NAME", help: "eval: the shared file's name, from which a dummy file's name is made."),
        OptionSpec("--explain", help: "eval: add how each side's app is authorized and which policy and label\neach control came from."),
        OptionSpec("--to", value: "BUNDLE_ID|outside", help: "paths, fixes: only the paths to this app, or to any app outside the device's\nauthorized AppConnect apps (native Mail and any other app included)."),
        OptionSpec("--max-hops", value: "N", help: "paths: the longest chain followed (default: no limit)."),
        OptionSpec("--format", value: "FORMAT", help: "lint: text, json, markdown, github or sarif; eval: text, json or jsonl;\nmatrix, fixes: text, json or markdown; paths, diff: text or json."),
        OptionSpec("--devices", value: "FILE", help: "eval, matrix, paths, lint, diff: the Intune devices file, when --fleet (or OLD or NEW) is Intune app\nprotection policies (Graph JSON): {\"apps\": [...], \"devices\": {...}}."),
        OptionSpec("--title", value: "TEXT", help: "report: the page's title (default: the fleet file's name)."),
        OptionSpec("--rows", help: "diff with Intune on a side: print each group of changed flows as decision\ntable rows (the new side's decisions) to keep as tests."),
    ]

    static let usage = "openin-check fleet eval|matrix|paths|lint|diff|fixes|report --fleet FILE [--device NAME] [options]"

    static let verb = Verb(
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
              openin-check fleet eval --fleet FILE [--device NAME] --from ID --channel CHANNEL [--target ID] [--url URL] [--explain]
              openin-check fleet eval --fleet FILE [--device NAME] (REQUESTS.jsonl | -)
              openin-check fleet paths --fleet FILE [--device NAME] --from ID|all [--to ID | --to outside] [--max-hops N]
              openin-check fleet matrix --fleet FILE [--device NAME] [--format text|json|markdown]
              openin-check fleet lint --fleet FILE [--format text|json|markdown|github|sarif]
              openin-check fleet diff OLD NEW [--device NAME] [--format text|json]
              openin-check fleet fixes --fleet FILE [--device NAME] [--from ID|all] [--to ID|outside] [--format text|json|markdown]
              openin-check fleet report --fleet FILE [--title TEXT] > report.html
              openin-check fleet eval --fleet INTUNE.json --devices FILE …
              openin-check fleet diff OLD NEW --devices FILE [--rows]   (Intune on either side)

            Subverbs:
              eval    Decide requests end to end: the sender's part (its rule, outcome and
                      callbacks, in the sender) and the receiver's part (its Open From rule and
                      callbacks, in the receiver, when the receiver is an authorized AppConnect
                      app and the channel hands it a document; null otherwise). The outcome is
                      allowed only if both allow. paste is a copy made in the from app, pasted
                      into the target: the from app's pasteboard policy decides it.
                      Request line: {"id"?, "from", "channel", "target"?, "url"?, "document"?}.
                      Record: {"id"?, "device", "from", "channel", "target"?, "url"?, "outcome",
                      "to"?, "sender": {"app", "rule", "outcome", "audience"?, "callbacks",
                      "reason", "dummyFileName"?}, "receiver": {…} | null, "explanation"?};
                      an invalid line gives {"line", "id"?, "device"?, "error"}.
              paths   Where the from app's documents can end up on each device: first the zone
                      of trust (who is inside, what outside means) and the counts (apps reached,
                      outside, paths to the --to set); then every app reachable, each with its
                      shortest chain and the apps that deliver to it directly ("delivered by",
                      at most 10 named); per hop the channel, the rules that let the document go
                      and the settings behind them (side, app, key = value, policy, how it
                      reaches the app, file:line). JSON adds "zone", "summary", "deliveredBy",
                      and per hop "settings" and "reproduce" (the fleet eval command that
                      decides it alone). A web address (http, https) carries no document
                      and is not followed, nor is keyboard (typing moves no document). --from all:
                      the same for every fleet app installed on the device, in file order, one
                      block (or JSON record) each, streamed.
              matrix  Senders (the fleet's apps) × receivers (the fleet's apps and any other app),
                      one grid per channel that names its receiver, each cell the end-to-end outcome;
                      then each sender's keyboard line: a third-party keyboard, the system keyboard.
              lint    Fleet-level mistakes, each with a code and a fix. --format sarif: SARIF 2.1.0
                      for code scanning, every check a rule, every finding a result with the
                      fleet file, its line and the finding's key path.
              diff    End-to-end flows (keyboards included) and leak paths that open or close
                      between two fleet files, per device. With Intune app protection policies (Graph JSON, with
                      --devices) on either side: every flow (sender × receiver × channel, per
                      device) that decides differently, grouped as newly allowed (a leak), newly
                      blocked and changed form (dummy file ↔ encrypted); --rows prints them as
                      decision table rows.
              fixes   What to change: every change of one setting in the fleet file (or Intune
                      export) that can close a path from an app inside the zone of trust to the
                      --to set, each applied to a copy and the paths found again. A fix gives the
                      change in one sentence, an RFC 6902 JSON Patch against the file as given,
                      the file and line, closes and remaining (paths: one device, from, to), and
                      collateral: the flows between apps inside the zone that it also blocks.
                      Ranked: most closed, least collateral, fewest apps touched. Then the plan:
                      changes chosen greedily, each verified with the earlier ones applied, with
                      one patch per file; or the paths left and why.
              report  One self-contained HTML page on stdout for an auditor to open offline: per
                      device the zone of trust, counts, the leak graph (inline SVG), the paths with
                      their hops; the fixes and plan; the channel matrix; lint findings; the data
                      as JSON in <script type="application/json" id="openin-check-data">. Nothing
                      is loaded from anywhere; every name from the input is escaped; long lists
                      are capped with what was left out.

            Intune: where --fleet (or OLD, NEW) holds iosManagedAppProtection JSON, eval and
            diff decide under Intune's rules (openin-check rules --intune), with the devices
            file's facts: installed apps, mdmEnrolled, intuneMAMUPN, scheme handlers, each
            app's intuneSDKVersion; matrix shows the targeted apps as senders (encr = deliver-encrypted);
            lint runs the Intune checks IN001-IN005; paths follows readable deliveries
            (an encrypted one carries nothing), "outside" being the apps no policy manages,
            --from all starting from each policy-managed app installed on the device.

            Channels: \(FleetChannel.names).

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status:
              0   eval: every decision is allow; paths: no path reaches the --to set (or, without
                  --to, outside); matrix: printed; lint: no error or warning; diff: nothing opened;
                  fixes: no path to close; report: written
              1   invalid input: the fleet file, a flag's value or some request line
              2   eval: some decision is not allow; paths: a path reaches the --to set (without
                  --to, outside); lint: a finding at warning level or above; diff: a flow or leak path opened;
                  fixes: some path to close
              64  usage error

            Examples:
              openin-check fleet paths --fleet Examples/fleet/acme.json --device employee-iphone --from com.acme.hr --to outside
              openin-check fleet eval --fleet Examples/fleet/acme.json --from com.acme.hr \\
                  --channel document-interaction --target com.mobileiron.ios.emailplus --explain

            """,
        parse: { arguments throws(UsageError) in try FleetCommand.parse(arguments) })

    static func parse(_ arguments: [String]) throws(UsageError) -> FleetCommand {
        guard let first = arguments.first else {
            throw UsageError("missing subverb: give one of \(subverbs.joined(separator: ", "))", verb: "fleet")
        }
        guard subverbs.contains(first) else {
            throw UsageError("unknown subverb '\(first)': give one of \(subverbs.joined(separator: ", ")).\(Suggestion.phrase(for: first, among: subverbs))", verb: "fleet")
        }
        let options = try OptionScanner.scan(Array(arguments.dropFirst()), specs: specs, verb: "fleet")
        let allowed: [String: [String]] = [
            "eval": ["--fleet", "--device", "--from", "--channel", "--target", "--url", "--document", "--explain", "--format", "--devices"],
            "matrix": ["--fleet", "--device", "--format", "--devices"],
            "paths": ["--fleet", "--device", "--from", "--to", "--max-hops", "--format", "--devices"],
            "lint": ["--fleet", "--format", "--devices"],
            "diff": ["--device", "--format", "--devices", "--rows"],
            "fixes": ["--fleet", "--device", "--from", "--to", "--format", "--devices"],
            "report": ["--fleet", "--devices", "--title"],
        ]
        for name in options.values.map(\.name) + options.flags where !allowed[first]!.contains(name) {
            throw UsageError("'\(name)' is not an option of fleet \(first)", verb: "fleet")
        }
        let device = options.value("--device")
        if first == "diff" {
            guard options.positionals.count == 2 else {
                throw UsageError("fleet diff takes two fleet files, OLD NEW (got \(options.positionals.count))", verb: "fleet")
            }
            return FleetCommand(fleetPath: options.positionals[0], device: device,
                                subverb: .diff(old: options.positionals[0], new: options.positionals[1],
                                               format: try PathsFormat.parse(options, default: .text, verb: "fleet"), rows: options.has("--rows")),
                                devicesPath: options.value("--devices"))
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
                requests = .flags(from: from, channel: channel, target: options.value("--target"), url: options.value("--url"), document: options.value("--document"))
            case (nil, 1):
                if let flag = ["--from", "--target", "--url", "--document"].first(where: { options.value($0) != nil }) {
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
            return FleetCommand(fleetPath: fleetPath, device: device,
                                subverb: .paths(from: from, to: options.value("--to"), maxHops: maxHops, format: try PathsFormat.parse(options, default: .text, verb: "fleet")),
                                devicesPath: options.value("--devices"))
        case "fixes":
            try noPositionals(options, "fixes")
            let from = options.value("--from")
            return FleetCommand(fleetPath: fleetPath, device: device,
                                subverb: .fixes(from: from == "all" ? nil : from, to: options.value("--to"),
                                                format: try FleetFixesOutput.Format.parse(options, default: .text, verb: "fleet")),
                                devicesPath: options.value("--devices"))
        case "report":
            try noPositionals(options, "report")
            return FleetCommand(fleetPath: fleetPath, device: nil, subverb: .report(title: options.value("--title")), devicesPath: options.value("--devices"))
        default:
            try noPositionals(options, "lint")
            return FleetCommand(fleetPath: fleetPath, device: nil, subverb: .lint(format: try FleetLintFormat.parse(options, default: .text, verb: "fleet")),
                                devicesPath: options.value("--devices"))
        }
    }

    static func noPositionals(_ options: ParsedOptions, _ subverb: String) throws(UsageError) {
        if let extra = options.positionals.first {
            throw UsageError("unexpected argument '\(extra)': fleet \(subverb) takes only options", verb: "fleet")
        }
    }

    /// Reads and parses a fleet file.
    static func load(_ path: String) throws(CLIError) -> Fleet {
        let bytes = try ByteSource.readFile(path: path, what: "fleet file")
        do throws(FormatError) {
            return try FleetJSON.read(bytes, file: path)
        } catch {
            throw .invalidInput(error.description)
        }
    }

    /// The devices asked about, resolved.
    static func devices(_ fleet: Fleet, named name: String?) throws(CLIError) -> [FleetDevice] {
        do throws(FleetError) {
            if let name { return [try fleet.device(named: name)] }
            if fleet.devices.isEmpty { throw FleetError("the fleet has no device profile: add one under devices", file: fleet.file) }
            return try fleet.resolvedDevices()
        } catch {
            throw .invalidInput(error.description)
        }
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        if case .diff(let old, let new, let format, let rows) = subverb {
            let oldIsIntune = try VendorFiles.isIntune(old), newIsIntune = try VendorFiles.isIntune(new)
            if oldIsIntune || newIsIntune || rows {
                return try IntuneFleetOutput.diff(old: try VendorFiles.load(old, devices: devicesPath, console: console),
                                                  new: try VendorFiles.load(new, devices: devicesPath, console: console),
                                                  device: device, format: format, rows: rows, console: console)
            }
            return try FleetOutput.diff(old: try Self.load(old), new: try Self.load(new), device: device, format: format, console: console)
        }
        if case .fixes(let from, let to, let format) = subverb {
            // The fixes re-read the file as written (their patches are against it), so they load it themselves.
            return try FleetFixesOutput.run(fleetPath, devices: devicesPath, scope: FixScope(device: device, from: from, to: to), format: format, console: console)
        }
        // One fleet, of either vendor, loaded once; every subverb below runs on it.
        let analysis = try VendorFiles.analysis(fleetPath, devices: devicesPath, console: console)
        func devices() throws(CLIError) -> [AnalyzedDevice] {
            do throws(FleetError) { return try analysis.devices(named: device) } catch { throw FleetOutput.fail(error) }
        }
        switch subverb {
        case .eval(let requests, let format, let explain):
            return try FleetEval.run(requests, devices: try devices(), format: format, explain: explain, console: console)
        case .matrix(let format):
            var matrices: [FleetMatrix] = []
            for device in try devices() {
                do throws(FleetError) { matrices.append(try device.matrix()) } catch { throw FleetOutput.fail(error) }
            }
            return FleetOutput.print(matrices, format: format, console: console)
        case .paths(let from, let to, let maxHops, let format):
            return try FleetOutput.paths(try devices(), from: from, to: to, maxHops: maxHops, format: format, console: console)
        case .lint(let format):
            let lint = analysis.lint()
            return FleetOutput.lint(lint.findings, checks: lint.checks, file: analysis.file ?? "fleet", format: format, console: console)
        case .report(let title):
            return try FleetReportOutput.run(analysis, path: fleetPath, devices: devicesPath, title: title, console: console)
        case .diff, .fixes:
            preconditionFailure("diff and fixes are handled above")
        }
    }
}
