import OpenInPolicy
import OpenInReports

/// `eval`: decide one request given by flags, or a JSON Lines stream of requests.
struct EvalCommand: Command, Equatable {
    /// One request from `--channel`, `--target`, `--url`, `--document`.
    struct FlagRequest: Sendable, Equatable {
        var channel: String
        var target: String?
        var url: String?
        var source: String? = nil
        var document: String?
    }

    /// Where the requests come from.
    enum Requests: Sendable, Equatable {
        /// One request from flags.
        case flags(FlagRequest)
        /// A JSON Lines stream: a file's path, or `-` for standard input.
        case stream(String)
    }

    var policy: PolicyOptions
    var requests: Requests
    var format: OutputFormat
    var explain: Bool
    /// `--max-line-length`: the longest request line of a stream, in bytes.
    var maxLineLength: Int = RequestStream.defaultMaxLineLength
    /// Whether ``RequestStream`` may take its fast path for plain lines (tests turn it off to compare both paths).
    var fastPath = true
    /// How many threads the stream may use (`nil`: one per processor; tests compare 1 with several).
    var threads: Int? = nil
    /// `--summary`: counts by outcome and rule on standard error after a stream.
    var summary = false
    /// `--devices`, `--device`, `--from`, `--location`, …: for policies decided per device profile (Intune's Graph JSON).
    var fleet = FleetOptions()
    /// The options of one app's policy given (refused when the policies are decided per device profile).
    var appConnectOptions: [String] {
        var given: [String] = []
        func add(_ name: String, _ present: Bool) { if present { given.append(name) } }
        add("--info-plist", policy.infoPlistPath != nil)
        add("--build-setting", !policy.buildSettings.isEmpty)
        add("--config", !policy.config.isEmpty)
        add("--email-plus-installed", policy.emailPlusInstalled)
        add("--secure-services", policy.secureServicesAvailable != nil)
        add("--scheme-handler", !policy.schemeHandlers.isEmpty)
        add("--app-scheme", !policy.appSchemes.isEmpty)
        add("--appconnect-app", !policy.appConnectApps.isEmpty)
        add("--web-dlp", policy.webDLP != nil)
        add("--web-at-work", policy.webAtWorkInstalled)
        add("--excluded-activity", !policy.excludedActivities.isEmpty)
        if case .flags(let flags) = requests { add("--source", flags.source != nil) }
        add("--max-line-length", maxLineLength != RequestStream.defaultMaxLineLength)
        add("--summary", summary)
        return given
    }

    /// The options of `eval` on policies decided per device profile (Intune app protection policies).
    struct FleetOptions: Sendable, Equatable {
        var devicesPath: String? = nil
        var device: String? = nil
        var from: String? = nil
        var location: String? = nil
        /// `--assume-assigned` given.
        var assumeAssigned = false
        /// `--conflicts MODE`.
        var conflicts: String? = nil

        /// The names of the options given.
        var given: [String] {
            [("--devices", devicesPath), ("--device", device), ("--from", from), ("--location", location), ("--assume-assigned", assumeAssigned ? "" : nil),
             ("--conflicts", conflicts)].compactMap { $0.1 == nil ? nil : $0.0 }
        }
    }

    static let intuneSpecs: [OptionSpec] = [
        OptionSpec("--from", value: "BUNDLE_ID", help: "Intune policy: the app whose request it is (a policy targets it, or it is\nunmanaged). Required with --channel."),
        OptionSpec("--devices", value: "FILE", help: "Intune policy: the devices file (installed apps, SDK versions, appGroups);\nwithout it, no other app is known to be policy-managed."),
        OptionSpec("--device", value: "NAME", help: "Intune policy: one device profile of --devices (default: every profile)."),
        OptionSpec("--location", value: "LOCATION", words: DataLocation.allCases.map(\.rawValue), help: "Intune policy: the location of save-as or open-into-org-document."),
        OptionSpec("--assume-assigned", help: "Intune policy: analyse a policy assigned to no one (\"assignments\": []) as if it\nreached every profile (a template, a baseline before rollout)."),
        OptionSpec("--conflicts", value: "MODE", words: FleetLoader.Options.conflictModes, help: "Intune policy: how policies that reach one app on one profile combine, per\nsetting: most-restrictive (Microsoft's rule, the default) or least-restrictive."),
    ]

    static let requestSpecs: [OptionSpec] = [
        OptionSpec("--channel", value: "CHANNEL", words: (Channel.allCases.map(\.rawValue) + LocationChannel.allCases.map(\.rawValue)), help: "One request's channel: \(Channel.allCases.map(\.rawValue).joined(separator: ", ")).\nGive either this or a stream."),
        OptionSpec("--target", value: "BUNDLE_ID", help: "The receiving app (document-interaction, quick-look, app-extension,\ndrag-and-drop; optional for activity-view; for copy, the app pasted into;\nfor keyboard, the keyboard extension)."),
        OptionSpec("--url", value: "URL", help: "The URL opened (open-url) or tapped (mail-link)."),
        OptionSpec("--source", value: "BUNDLE_ID", help: "The app that sends a document to this app (open-from), or the app a\npasted copy came from (paste); leave it out when unknown."),
        OptionSpec("--document", value: "NAME", help: "The shared file's name, from which a dummy file's name is made."),
        OptionSpec("--format", value: "FORMAT", help: "text, json or jsonl. Default: text for one request, jsonl for a stream."),
        OptionSpec("--explain", help: "Add the deciding rule's summary, source and quote, and the inputs that mattered."),
        OptionSpec("--summary", help: "After a stream, write counts by outcome and by rule to standard error\n(standard output is unchanged)."),
        OptionSpec("--max-line-length", value: "BYTES", help: "The longest request line read (default 1048576, 1 MiB); a longer line\ngets an error record. At most 1073741824."),
    ]

    static let specs = PolicyOptions.specs + requestSpecs + intuneSpecs

    static let usage = "openin-check eval --policy FILE [options] (--channel CHANNEL [--target ID] [--url URL] | REQUESTS.jsonl | -)"
    static let intuneUsage = "openin-check eval --policy INTUNE.json [--devices FILE [--device NAME]] [--assume-assigned] [--conflicts MODE] (--from ID --channel CHANNEL [--target ID] [--url URL] [--location LOCATION] | REQUESTS.jsonl | -)"

    static let verb = Verb(
        name: "eval",
        abstract: "Decide share requests under a policy: one from flags, or a JSON Lines stream.",
        usage: usage,
        specs: specs,
        help: """
            Decide share requests under a policy: one from flags, or a JSON Lines stream.

            Usage: \(usage)
                   \(intuneUsage)

            Arguments:
              REQUESTS.jsonl  A JSON Lines file: one request per line,
                              {"id"?, "channel", "target"?, "url"?, "source"?, "document"?}.
              -               Read the JSON Lines stream from standard input.

            Options:
            \(OptionScanner.helpSection(for: specs))

            Output:
              text   one request: the outcome first, then the request, target, callback,
                     Open In UI, rule and reason; a stream: one line per request.
              jsonl  one JSON record per input line, in input order:
                     {"id"?, "outcome", "target"?, "audience"?,
                      "callbacks": [{"selector", "policy" | "url", "sourceApplication"?}],
                      "openInUI", "rule", "reason", "dummyFileName"?}
                     audience (copy only): who can read the copy, all-apps or appconnect-apps.
                     A request on open-from, copy or print under a policy that does not
                     set openFromPolicy, pasteboardPolicy or printPolicy is invalid.
                     An invalid line gives {"line", "id"?, "error"} and the stream goes on;
                     a blank line is invalid too, so records and lines always match.
              json   the same records, indented: one object for one request, an array for a stream.
              --explain adds "explanation": {"step", "summary", "source", "quote", "inputs"}.

            Intune: when --policy holds Microsoft Intune app protection policies (Graph JSON,
            iosManagedAppProtection), eval decides one app's requests under them, without a
            fleet: --from names the app, the channels are fleet eval's (\(FleetChannel.names)),
            a stream's lines are fleet eval's ({"from", "channel", "target"?, "url"?,
            "location"?}), and the records and exit statuses are fleet eval's, one per device
            profile of --devices (or --device). Without --devices the device is "-": only
            --from is installed, no other app is policy-managed, nothing is enrolled, and a
            policy targeting allApps or allMicrosoftApps cannot be resolved. The AppConnect
            options (--info-plist, --config, --source, …) are refused.

            Exit status:
              0   every decision is allow
              1   invalid input: the policy, a plist, a flag's value or some request line;
                  or standard output cannot be written (a full disk)
              2   every input is valid and some decision is not allow
              64  usage error
              130 interrupted by SIGINT, 143 by SIGTERM, between two records
              141 standard output was closed before every record was written (… | head -1)

            Examples:
              openin-check eval --policy Examples/policies/whitelist-mail-pair.json \\
                  --channel open-url --url mailto:someone@example.com --explain
              openin-check eval --policy Examples/policies/whitelist-mail-pair.json Examples/requests.jsonl
              cat Examples/requests.jsonl | openin-check eval --policy Examples/AppConnect.plist --format json -

            """,
        parse: { arguments throws(UsageError) in try EvalCommand.parse(arguments) })

    /// Turns `eval`'s arguments into a command.
    /// - Throws: ``UsageError``.
    static func parse(_ arguments: [String]) throws(UsageError) -> EvalCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "eval")
        let policy = try PolicyOptions.parse(options, verb: "eval")
        let requestFlags = ["--target", "--url", "--source", "--document"].filter { options.value($0) != nil }
        let requests: Requests
        switch (options.value("--channel"), options.positionals.count) {
        case (let channel?, 0):
            requests = .flags(FlagRequest(channel: channel, target: options.value("--target"), url: options.value("--url"),
                                          source: options.value("--source"), document: options.value("--document")))
        case (nil, 1):
            if let flag = requestFlags.first {
                throw UsageError("'\(flag)' describes one request given with --channel; it cannot be used with a stream", verb: "eval")
            }
            requests = .stream(options.positionals[0])
        case (nil, 0):
            if let flag = requestFlags.first {
                throw UsageError("'\(flag)' needs '--channel CHANNEL'", verb: "eval")
            }
            throw UsageError("no request given: give one with --channel (and --target or --url), or a stream: a JSON Lines file, or - for standard input", verb: "eval")
        case (_?, _):
            throw UsageError("give one request with --channel or a stream file, not both (unexpected argument '\(options.positionals[0])')", verb: "eval")
        case (nil, _):
            throw UsageError("give one stream, not \(options.positionals.count): unexpected argument '\(options.positionals[1])'", verb: "eval")
        }
        let format: OutputFormat
        if let name = options.value("--format") {
            format = try OutputFormat.parse(name, verb: "eval")
        } else if case .flags = requests {
            format = .text
        } else {
            format = .jsonl
        }
        var command = EvalCommand(policy: policy, requests: requests, format: format, explain: options.has("--explain"))
        command.fleet = FleetOptions(devicesPath: options.value("--devices"), device: options.value("--device"), from: options.value("--from"),
                                       location: options.value("--location"), assumeAssigned: options.has("--assume-assigned"), conflicts: options.value("--conflicts"))
        // An unknown --conflicts mode is a usage error before anything is read (runFleet reads it again, from the same text).
        do throws(FleetError) { _ = try FleetLoader.Options(assumeAssigned: false, conflicts: command.fleet.conflicts) } catch {
            throw UsageError(error.message, verb: "eval")
        }
        if let text = options.value("--max-line-length") {
            if case .flags = requests {
                throw UsageError("'--max-line-length' limits the lines of a stream; it cannot be used with --channel", verb: "eval")
            }
            guard let bytes = Int(text), (1...LineReader.largestMaxLineLength).contains(bytes) else {
                throw UsageError("'--max-line-length' must be a number of bytes from 1 to \(LineReader.largestMaxLineLength), not '\(text)'", verb: "eval")
            }
            command.maxLineLength = bytes
        }
        if options.has("--summary") {
            if case .flags = requests {
                throw UsageError("'--summary' counts the decisions of a stream; it cannot be used with --channel", verb: "eval")
            }
            command.summary = true
        }
        return command
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        // The file is read once, whichever it holds (a pipe or `<(…)` can be read only once); a folder is listed.
        // What it holds says whether one app's policy decides, or policies decided per device profile.
        let path = policy.policyPath
        let input = FleetLoader.File(path: path, bytes: FleetLoader.File.isFolder(path) ? nil : try policy.readPolicyFile())
        let evaluation: PolicyEvaluation
        do throws(PolicyEvaluation.Misplaced) { evaluation = try PolicyEvaluation.of(input, fleetOptions: fleet.given) } catch {
            throw .usage(UsageError(error.description, verb: "eval"))
        }
        if evaluation == .fleet { return try runFleet(input, console) }
        let inputs: PolicyInputs
        do throws(CLIError) {
            // A folder is not a policy file: the AppConnect reader's error says so.
            if let bytes = input.bytes { inputs = try policy.load(bytes: bytes) } else { inputs = try policy.load() }
        } catch {
            if evaluation == .appElseFleet { return try runFleet(input, console) }
            throw error
        }
        switch requests {
        case .flags(let flags):
            return try decideOne(flags, inputs: inputs, console: console)
        case .stream(let path):
            let source = path == "-" ? console.stdin : try ByteSource.open(path: path, what: "request stream")
            defer { source.close() }
            return try decideStream(source, inputs: inputs, console: console)
        }
    }

    /// `eval` on policies decided per device profile: the app's decisions as `fleet eval` gives them, on each
    /// profile of the devices file, or on a device that knows only the app without one.
    private func runFleet(_ input: FleetLoader.File, _ console: Console) throws(CLIError) -> ExitStatus {
        if let flag = appConnectOptions.first {
            throw .usage(UsageError(PolicyEvaluation.misplaced(appOption: flag, file: input).description, verb: "eval"))
        }
        if fleet.device != nil, fleet.devicesPath == nil {
            throw .usage(UsageError("'--device' names a profile of '--devices FILE': give the devices file", verb: "eval"))
        }
        let fleetRequests: FleetEvalCommand.Requests
        switch requests {
        case .flags(let flags):
            guard let from = fleet.from else {
                throw .usage(UsageError("missing '--from BUNDLE_ID': an Intune policy decides for the app that shares; name it", verb: "eval"))
            }
            fleetRequests = .flags(from: from, channel: flags.channel, target: flags.target, url: flags.url, document: flags.document, location: fleet.location)
        case .stream(let path):
            if let flag = fleet.given.first(where: { $0 == "--from" || $0 == "--location" }) {
                throw .usage(UsageError("'\(flag)' describes one request given with --channel; a stream's lines name their own", verb: "eval"))
            }
            fleetRequests = .stream(path)
        }
        // No devices file: a device that knows only the app asked about.
        var installed: [BundleID] = []
        if case .flags(let from, _, _, _, _, _) = fleetRequests, let id = try? BundleID(from) { installed = [id] }
        let loadOptions: FleetLoader.Options
        do throws(FleetError) { loadOptions = try FleetLoader.Options(assumeAssigned: fleet.assumeAssigned, conflicts: fleet.conflicts) } catch {
            throw .usage(UsageError(error.message, verb: "eval"))
        }
        let analysis = try input.load(devices: fleet.devicesPath.map { .file($0) } ?? .installing(installed), options: loadOptions, console: console)
        let devices: [AnalyzedDevice]
        do throws(FleetError) {
            devices = try analysis.devices(named: fleet.device)
        } catch {
            throw .invalidInput(error.description)
        }
        let names = FleetAppNames(analysis, file: policy.policyPath, devicesFile: fleet.devicesPath)
        return try FleetEval.run(fleetRequests, devices: devices, names: names, format: format, explain: explain, console: console)
    }

    /// The library's message, plus the flag that sets the missing key when there is one
    /// (`--secure-services available|unavailable`): the library names only the policy file's key.
    static func withFlag(_ error: InputError) -> String {
        guard case .policyKeyNotSet(let key, _) = error, let flag = PolicyOptions.flag(forKey: Substring(key)) else { return error.description }
        return error.description + ", or give \(flag) on the command line"
    }

    private func decideOne(_ flags: FlagRequest, inputs: PolicyInputs, console: Console) throws(CLIError) -> ExitStatus {
        let request: ShareRequest
        do throws(InputError) {
            request = try ShareRequest(channel: flags.channel, target: flags.target, url: flags.url, source: flags.source, document: flags.document)
        } catch {
            throw .invalidInput(Self.flagMessage(for: error, channel: flags.channel, source: flags.source))
        }
        let decision: Decision
        do throws(InputError) {
            decision = try Evaluator(policy: inputs.policy).decideOrThrow(request)
        } catch {
            throw .invalidInput("\(policy.policyPath): \(Self.withFlag(error))")
        }
        let explanation = explain ? Explanation(decision, request: request, policyInputs: inputs) : nil
        switch format {
        case .text:
            console.stdout.write(DecisionText.block(decision, request: request, explanation: explanation, inputs: PolicyOptions.withFlags))
        case .json:
            console.stdout.write(JSONWriter.pretty(.object(record(decision, id: nil, explanation: explanation))) + "\n")
        case .jsonl:
            console.stdout.write(JSONWriter.compact(.object(record(decision, id: nil, explanation: explanation))) + "\n")
        }
        return decision.outcome == .allow ? .success : .notAllowed
    }

    /// A request error from flags, with the flag to fix.
    static func flagMessage(for error: InputError, channel: String, source: String? = nil) -> String {
        switch error {
        case .malformedBundleID(let value, _) where source.map({ $0.utf8.elementsEqual(value.utf8) }) ?? false: "--source: \(error.description)"
        case .unknownChannel:
            "--channel: \(error.description).\(Suggestion.phrase(for: channel, among: Channel.allCases.map(\.rawValue)))"
        case .missingTarget: "\(error.description): give it with --target BUNDLE_ID"
        case .missingURL: "\(error.description): give it with --url URL"
        case .malformedBundleID: "--target: \(error.description)"
        case .malformedURL, .notMailto: "--url: \(error.description)"
        case .unexpectedField(let field, _): "--\(field): \(error.description)"
        default: error.description
        }
    }

    /// Decides a JSON Lines stream through ``RequestStream``: records in `json`/`jsonl`, a line per request in `text`.
    private func decideStream(_ source: ByteSource, inputs: PolicyInputs, console: Console) throws(CLIError) -> ExitStatus {
        let stream = RequestStream(policy: inputs, format: format == .json ? .jsonArray : .jsonLines, explain: explain,
                                   maxLineLength: maxLineLength, fastPath: fastPath, threads: threads)
        // --summary decides each line once more, beside the stream, to count outcomes and rules.
        var counts = summary ? StreamSummary(policy: inputs.policy) : nil
        var lines = LineReader(source, what: "request stream", maxLength: maxLineLength)
        switch format {
        case .json where counts == nil, .jsonl where counts == nil:
            // Blocks of whole lines: the stream splits a large block between threads, records in input order.
            while let block = try lines.nextBlock(beforeWaiting: { console.stdout.flush() }) {
                switch block {
                case .lines(let bytes):
                    // While the other threads finish the block, the next one of a file is read (into another buffer).
                    bytes.withUnsafeBufferPointer { block in
                        stream.withRecords(forLinesIn: block, meanwhile: { lines.readAhead() }) { console.stdout.write(bytes: $0) }
                    }
                case .tooLong:
                    stream.withRecord(for: .tooLong) { console.stdout.write(bytes: $0) }
                }
            }
        case .json, .jsonl:
            // With --summary, line by line, each line also counted.
            while let line = try lines.next(beforeWaiting: { console.stdout.flush() }) {
                counts?.count(line)
                stream.withRecord(for: line.streamLine) { console.stdout.write(bytes: $0) }
            }
        case .text:
            while let line = try lines.next(beforeWaiting: { console.stdout.flush() }) {
                counts?.count(line)
                console.stdout.write(Self.text(stream.entry(for: line.streamLine)))
            }
        }
        stream.finish().withUnsafeBufferPointer { console.stdout.write(bytes: $0) }
        if let counts, stream.lineCount > 0 {
            console.stdout.flush()
            console.stderr.write(counts.text)
        }
        if stream.lineCount == 0 {
            throw .invalidInput("the request stream \(source.name == "standard input" ? "on standard input" : "'\(source.name)'") is empty: write one JSON request per line")
        }
        if stream.invalidCount > 0 { return .invalidInput }
        return stream.notAllowedCount > 0 ? .notAllowed : .success
    }

    /// One stream entry in the text format.
    static func text(_ entry: RequestStream.Entry) -> String {
        guard let decision = entry.decision, let request = entry.request else {
            return DecisionText.errorLine(entry.line, id: entry.id, message: entry.error ?? "")
        }
        return DecisionText.line(entry.line, decision, request: request, id: entry.id, explanation: entry.explanation, inputs: PolicyOptions.withFlags)
    }

    private func record(_ decision: Decision, id: JSONValue?, explanation: Explanation?) -> JSONObject {
        RequestStream.record(decision, id: id, explanation: explanation)
    }
}

/// `--format`: how decisions are written.
/// (Parsed by ``OptionChoice/parse(_:verb:)``, as every verb's `--format` is.)
enum OutputFormat: String, Sendable, Equatable, CaseIterable {
    case text, json, jsonl
}
