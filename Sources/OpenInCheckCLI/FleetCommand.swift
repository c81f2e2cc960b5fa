import OpenInPolicy
import OpenInReports

/// One subverb of `fleet`, a type of its own: its word, its part of the help, the options it takes and how its
/// arguments become a command. ``FleetCommand/subverbs`` lists them; the help, the usage errors and the
/// completion scripts are made from these declarations.
protocol FleetSubverb: Command {
    /// The word after `fleet`, e.g. `paths`.
    static var name: String { get }
    /// One line: what it does, for completion scripts.
    static var summary: String { get }
    /// Its usage lines, after `openin-check fleet NAME `; a line break continues a line.
    static var usage: [String] { get }
    /// What it does and writes: its entry under Subverbs, and its own help's description.
    static var details: String { get }
    /// The options it takes; any other fleet option is a usage error.
    static var options: [FleetOption] { get }
    /// The values of its `--format`, as help and completions list them (none without `--format`).
    static func formats(_ reporters: ReporterRegistry) -> [String]
    /// The command, from its arguments scanned with every fleet option, those it does not take already refused.
    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError)
}

extension FleetSubverb {
    static func formats(_ reporters: ReporterRegistry) -> [String] { [] }
    /// `text|json|jsonl`: the formats as a usage line gives them.
    static var formatBar: String { formats(.standard).joined(separator: "|") }
    /// Its options as its own help and completions give them: `--format` with its own formats alone.
    static var ownOptions: [OptionSpec] {
        options.map { $0 == .format ? OptionSpec("--format", value: "FORMAT", words: formats(.standard), help: FleetCommand.formatHelp([self])) : $0.spec }
    }
}

/// `fleet`: end-to-end questions about an organisation's fleet, one type per subverb (``subverbs``),
/// chosen by its word; every help text and completion of `fleet` is made from their declarations.
enum FleetCommand {
    /// Every subverb, in the order the help lists them. A new subverb is one type and one line here.
    static let subverbs: [any FleetSubverb.Type] = [
        FleetEvalCommand.self, FleetPathsCommand.self, FleetMatrixCommand.self, FleetLintCommand.self, FleetDiffCommand.self, FleetFixesCommand.self,
        FleetReportCommand.self,
    ]
    static var names: [String] { subverbs.map { $0.name } }

    typealias PathsFormat = FleetPathsFormat

    /// The subverbs that take `option`, as its help names them: `paths, diff, fixes, report`.
    static func takers(_ option: FleetOption) -> String {
        subverbs.filter { $0.options.contains(option) }.map { $0.name }.joined(separator: ", ")
    }

    /// `--format`'s help: each group of the subverbs `shown` that write the same formats, a line each.
    static func formatHelp(_ shown: [any FleetSubverb.Type] = subverbs) -> String {
        var groups: [(names: [String], formats: [String])] = []
        for subverb in shown where !subverb.formats(.standard).isEmpty {
            let formats = subverb.formats(.standard)
            if let index = groups.firstIndex(where: { $0.formats == formats }) { groups[index].names.append(subverb.name) } else { groups.append(([subverb.name], formats)) }
        }
        return groups.map { "\($0.names.joined(separator: ", ")): \($0.formats.listed)" }.joined(separator: ";\n") + "."
    }

    static let verb: Verb = {
        var verb = Verb(
            name: "fleet", abstract: "Decide across an organisation's AppConnect apps: end to end, paths, matrix, lint, diff, fixes, report.",
            usage: "openin-check fleet \(names.joined(separator: "|")) --fleet FILE [--device NAME] [options]", specs: FleetOption.all, help: help,
            parse: { arguments throws(UsageError) in try FleetCommand.parse(arguments) },
            parseWithReporters: { arguments, reporters throws(UsageError) in try FleetCommand.parse(arguments, reporters: reporters) })
        verb.subverbHelp = { word in subverbs.first { ExactText.same($0.name, word) }.map(help(of:)) }
        return verb
    }()

    /// The usage lines of `subverb`, each continued line indented under its start.
    static func usage(of subverb: any FleetSubverb.Type) -> String {
        subverb.usage.map { "  openin-check fleet \(subverb.name) " + $0.split(separator: "\n").joined(separator: "\n      ") }.joined(separator: "\n")
    }

    /// `fleet SUBVERB --help`: its usage lines, its entry under Subverbs, its options and the exit statuses.
    static func help(of subverb: any FleetSubverb.Type) -> String {
        """
        openin-check fleet \(subverb.name): one subverb of fleet (see 'openin-check fleet --help' for the fleet file and the others).

        Usage:
        \(usage(of: subverb))

          \(subverb.details.split(separator: "\n").joined(separator: "\n  "))

        Options:
        \(OptionScanner.helpSection(for: subverb.ownOptions))

        \(exitStatus)

        """
    }

    static let exitStatus = """
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
        """

    /// `fleet --help`: what a fleet is, every subverb's usage and entry, the options and the exit statuses.
    static var help: String {
        """
        Decide across an organisation's AppConnect apps, from a fleet file: the global
        policy, the container policies and app configurations (applied by label), the
        organisation's apps and named device profiles. Each app's policy on a device is
        worked out from it: the container policy over the global policy, control by
        control; an AppConnect app is authorized by a container policy that applies to
        the device, or by the global policy's authorizeAppsWithoutContainerPolicy, and
        otherwise decided as a retired app. The device's "AppConnect apps" are its
        installed, authorized AppConnect apps.

        Usage:
        \(subverbs.map(usage(of:)).joined(separator: "\n"))

        Subverbs:
        \(subverbs.map { "  " + $0.name + String(repeating: " ", count: max(0, 8 - $0.name.count)) + $0.details.split(separator: "\n").joined(separator: "\n" + String(repeating: " ", count: 10)) }.joined(separator: "\n"))

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
        \(OptionScanner.helpSection(for: FleetOption.all))

        \(exitStatus)

        Examples:
          openin-check fleet paths --fleet Examples/fleet/acme.json --device employee-iphone --from com.acme.hr --to outside
          openin-check fleet paths --fleet Examples/fleet/acme.json --from all --baseline Examples/fleet/acme-baseline.json --format sarif
          openin-check fleet eval --fleet Examples/fleet/acme.json --from com.acme.hr \\
              --channel document-interaction --target com.mobileiron.ios.emailplus --explain

        """
    }

    /// Chooses the subverb by its word and makes its command; an option it does not take is a usage error.
    static func parse(_ arguments: [String], reporters: ReporterRegistry = .standard) throws(UsageError) -> any Command {
        guard let first = arguments.first else { throw UsageError("missing subverb: give one of \(names.joined(separator: ", "))", verb: "fleet") }
        guard let subverb = subverbs.first(where: { $0.name == first }) else {
            throw UsageError("unknown subverb '\(first)': give one of \(names.joined(separator: ", ")).\(Suggestion.phrase(for: first, among: names))", verb: "fleet")
        }
        let options = try OptionScanner.scan(Array(arguments.dropFirst()), specs: FleetOption.all, verb: "fleet")
        for name in options.values.map(\.name) + options.flags where !subverb.options.contains(where: { $0.name == name }) {
            throw UsageError("'\(name)' is not an option of fleet \(first)", verb: "fleet")
        }
        return try subverb.init(options, reporters: reporters)
    }

    /// `--max-results N` (SARIF), `--max-bytes N` and `--show accepted` (Markdown), `--max-edges N` (DOT): ``ReportLimits/read(_:_:format:)``.
    static func limits(_ options: ParsedOptions, format: PathsFormat) throws(UsageError) -> ReportLimits {
        var limits = ReportLimits()
        for option in ReportLimits.options {
            if let text = options.value(option), let problem = limits.read(option, text, format: format.rawValue) { throw UsageError(problem, verb: "fleet") }
        }
        return limits
    }
}

/// What every fleet subverb reads: the fleet file (`--fleet`; diff's OLD), `--device NAME` (every profile when `nil`)
/// and `--devices FILE` (the Intune devices file, when the fleet is Intune app protection policies).
struct FleetInput: Sendable {
    let path: String, device: String?, devicesPath: String?
    var intune = FleetLoader.Options()

    /// The fleet file read once, and loaded (either vendor) once; kept until the process exits (``Console/keepUntilExit(_:)``).
    func load(_ console: Console) throws(CLIError) -> (input: FleetLoader.File, analysis: FleetAnalysis) {
        let input = try FleetLoader.File.reading(path)
        let analysis = try input.load(devices: .file(devicesPath), options: intune, console: console)
        console.keepUntilExit(analysis)
        return (input, analysis)
    }

    /// The apps the fleet knows: what --from, --to and a request's from and target are checked against.
    func names(_ analysis: FleetAnalysis) -> FleetAppNames { FleetAppNames(analysis, file: path, devicesFile: devicesPath) }

    /// The device `--device` names, or every device; kept until the process exits.
    func devices(_ analysis: FleetAnalysis, _ console: Console) throws(CLIError) -> [AnalyzedDevice] {
        do throws(FleetError) {
            let devices = try analysis.devices(named: device)
            console.keepUntilExit(devices)
            return devices
        } catch {
            throw FleetOutput.fail(error)
        }
    }
}

extension FleetSubverb {
    /// `--fleet FILE` (required, unless `path` is given), `--device` and `--devices`; with `operands` false, no other argument.
    static func input(_ options: ParsedOptions, path: String? = nil, operands: Bool = false) throws(UsageError) -> FleetInput {
        guard let path = path ?? options.value("--fleet") else { throw UsageError("missing '--fleet FILE': give the fleet file", verb: "fleet") }
        if !operands, let extra = options.positionals.first {
            throw UsageError("unexpected argument '\(extra)': fleet \(name) takes only options", verb: "fleet")
        }
        var input = FleetInput(path: path, device: options.value("--device"), devicesPath: options.value("--devices"))
        do throws(FleetError) {
            input.intune = try FleetLoader.Options(assumeAssigned: options.has("--assume-assigned"), conflicts: options.value("--conflicts"))
        } catch {
            throw UsageError(error.message, verb: "fleet")
        }
        return input
    }
}

extension FleetOutput.FleetMatrixFormat: OptionChoice {}
extension FleetPathsFormat: OptionChoice {}

/// Every option of the fleet subverbs, in the order the help lists them; each subverb takes some
/// (``FleetSubverb/options``), and each option's help names the subverbs that take it.
enum FleetOption: CaseIterable, Sendable {
    case fleet, device, from, channel, target, url, document, location, explain, to, maxHops, format, devices, baseline, maxResults, maxBytes, maxEdges
    case show, writeBaseline, reason, expires, title, rows, assumeAssigned, conflicts

    /// Every option's spec, in order.
    static let all = allCases.map(\.spec)
    /// Its name, e.g. `--max-hops`.
    var name: String { spec.name }
    /// The subverbs that take it, as its help names them.
    private var takers: String { FleetCommand.takers(self) }

    /// Its name, value placeholder, completions and help (`--format`'s values are each subverb's own: ``FleetSubverb/formats(_:)``).
    var spec: OptionSpec {
        switch self {
        case .fleet: OptionSpec("--fleet", value: "FILE", help: "The fleet file (JSON: global, containerPolicies, appConfigurations, apps, devices).\nRequired, except for diff, which takes OLD NEW.")
        case .device: OptionSpec("--device", value: "NAME", help: "One device profile of the fleet; without it, every profile, each answer naming its device.")
        case .from: OptionSpec("--from", value: "BUNDLE_ID", words: ["all"], help: "\(takers): the sending app (for paste, the app the copy was made in), an app\nof the fleet (its apps, or installed on a device; anything else is an error);\npaths, fixes: all for every fleet app installed on the device, one after the\nother (fixes: the default).")
        case .channel: OptionSpec("--channel", value: "CHANNEL", words: FleetChannel.allCases.map(\.rawValue), help: "\(takers): one request's channel: \(FleetChannel.names).")
        case .target: OptionSpec("--target", value: "BUNDLE_ID", help: "\(takers): the receiving app (for paste, the app pasted into); an ID the fleet does\nnot know is any other app, unless one or two edits from one of its apps (an error).")
        case .url: OptionSpec("--url", value: "URL", help: "\(takers): the URL opened (open-url) or tapped (mail-link).")
        case .document: OptionSpec("--document", value: "NAME", help: "\(takers): the shared file's name, from which a dummy file's name is made.")
        case .location: OptionSpec("--location", value: "LOCATION", words: DataLocation.allCases.map(\.rawValue), help: "\(takers), Intune only: where save-as saves (\(LocationChannel.saveAs.locations.map(\.rawValue).joined(separator: ", ")))\nor open-into-org-document opens from (\(LocationChannel.openIntoOrgDocument.locations.map(\.rawValue).joined(separator: ", "))).")
        case .explain: OptionSpec("--explain", help: "\(takers): add how each side's app is authorized and which policy and label\neach control came from.")
        case .to: OptionSpec("--to", value: "BUNDLE_ID|outside", words: ["outside"], help: "\(takers): only the paths to this app, or to any app outside the device's\nauthorized AppConnect apps (native Mail and any other app included); an ID the\nfleet does not know is any other app, unless one or two edits from one of its\napps or from outside (an error: Did you mean).")
        case .maxHops: OptionSpec("--max-hops", value: "N", help: "\(takers): the longest chain followed (default: no limit).")
        case .format: OptionSpec("--format", value: "FORMAT", help: FleetCommand.formatHelp())
        case .devices: OptionSpec("--devices", value: "FILE", help: "\(takers): the Intune devices file, when --fleet (or OLD or NEW) is Intune app\nprotection policies (Graph JSON): {\"apps\": [...], \"devices\": {...}}.")
        case .baseline: OptionSpec("--baseline", value: "FILE", help: "\(takers): the accepted paths ({\"accepted\": [{\"device\", \"from\", \"to\", \"reason\",\n\"expires\"}]}): each path to outside is new, accepted or expired, and only\nnew or expired ones exit 2 (for diff, among the paths it opens).")
        case .maxResults: OptionSpec("--max-results", value: "N", help: "\(takers) with --format sarif: the most results the log keeps, the most severe\nfirst (default: \(ReportLimits.defaultMaxResults), GitHub code scanning's limit); the log also stays\nunder \(ReportLimits.defaultMaxSARIFBytes) bytes. What is left out is counted in the run's properties.")
        case .maxBytes: OptionSpec("--max-bytes", value: "N", help: "\(takers) with --format markdown: the most bytes written (default: \(ReportLimits.defaultMaxMarkdownBytes), what a\npull-request comment takes; at least \(ReportLimits.leastMarkdownBytes)); a cut ends with what was left out.")
        case .maxEdges: OptionSpec("--max-edges", value: "N", help: "\(takers) with --format dot: beyond N edges in a device's cluster (default: \(ReportLimits.defaultMaxDOTEdges);\nat least \(ReportLimits.leastDOTEdges)), draw it grouped as the Markdown graph is, within N edges.")
        case .show: OptionSpec("--show", value: "accepted", words: ["accepted"], help: "\(takers) with --format markdown and --baseline: list the accepted paths too\n(by default they are counted: the new and expired ones are listed).")
        case .writeBaseline: OptionSpec("--write-baseline", value: "FILE", help: "\(takers): write the paths the gate counts as accepted entries into FILE (with\n--reason and --expires), merged with FILE when it exists: kept entries keep\ntheirs, resolved ones are dropped and listed on standard error.")
        case .reason: OptionSpec("--reason", value: "TEXT", help: "\(takers) --write-baseline: why the new entries are accepted (a review, a ticket).")
        case .expires: OptionSpec("--expires", value: "YYYY-MM-DD", help: "\(takers) --write-baseline: the last day (UTC) the new entries hold.")
        case .title: OptionSpec("--title", value: "TEXT", help: "\(takers): the page's title (default: the fleet file's name).")
        case .assumeAssigned: OptionSpec("--assume-assigned", help: "\(takers), Intune: analyse a policy assigned to no one (\"assignments\": []) as if it\nreached every profile (a template, a baseline before rollout).")
        case .conflicts: OptionSpec("--conflicts", value: "MODE", words: FleetLoader.Options.conflictModes, help: "\(takers), Intune: how policies that reach one app on one profile combine, per\nsetting: most-restrictive (Microsoft's rule, the default) or least-restrictive.")
        case .rows: OptionSpec("--rows", help: "\(takers) with Intune on a side: print each group of changed flows as decision\ntable rows (the new side's decisions) to keep as tests.")
        }
    }
}
