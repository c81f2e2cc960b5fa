import OpenInPolicy
import OpenInReports

/// `fleet paths --from A [--to B | --to outside] [--max-hops N]`: where A's documents can end up on each device.
struct FleetPathsCommand: FleetSubverb {
    static let name = "paths"
    static let summary = "Where the from app's documents can end up on each device, hop by hop."
    static let usage = [
        "--fleet FILE [--device NAME] --from ID|all [--to ID | --to outside] [--max-hops N]\n[--baseline FILE] [--format \(formatBar)] [--max-results N] [--max-bytes N]\n[--show accepted]"
    ]
    static let details = """
        Where the from app's documents can end up on each device: first the zone
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
        new and expired ones, the accepted counted, a Mermaid graph per device of
        at most 50 edges; at most --max-bytes, default 65,536), sarif (SARIF \(FleetPathsFormat.sarifVersion): a result per path, its code flow a step per
        hop at the line of the setting that lets it through, a fingerprint of
        device, source, destination and chain; at most --max-results results,
        default 25,000, and 9,500,000 bytes, the rest counted), dot (Graphviz, a
        cluster per device).
        """
    static let options: [FleetOption] = [.fleet, .device, .from, .to, .maxHops, .format, .devices, .assumeAssigned, .conflicts, .baseline, .maxResults, .maxBytes, .maxEdges, .show, .writeBaseline, .reason, .expires]
    static func formats(_ reporters: ReporterRegistry) -> [String] { FleetPathsFormat.allCases.map(\.rawValue) }

    /// `--from`, `--to`, `--max-hops`, `--format`; `--baseline FILE`, the accepted paths (the gate fails only on new or expired
    /// ones); `--max-results`, `--max-bytes`, `--show`: how much of a report format GitHub takes; `--write-baseline … --reason … --expires …`.
    let input: FleetInput, from: String, to: String?, maxHops: Int?, format: FleetPathsFormat, baselinePath: String?, limits: ReportLimits
    let writeBaseline: BaselineWriteRun?

    init(_ options: ParsedOptions, reporters: ReporterRegistry) throws(UsageError) {
        input = try Self.input(options)
        guard let from = options.value("--from") else { throw UsageError("missing '--from BUNDLE_ID': give the app whose documents to follow", verb: "fleet") }
        (self.from, to) = (from, options.value("--to"))
        maxHops = try options.value("--max-hops").map { (text) throws(UsageError) in
            guard let hops = Int(text), hops >= 1 else { throw UsageError("'--max-hops' must be a whole number of hops, at least 1, not '\(text)'", verb: "fleet") }
            return hops
        }
        format = try FleetPathsFormat.parse(options, default: .text, verb: "fleet")
        baselinePath = options.value("--baseline")
        limits = try FleetCommand.limits(options, format: format)
        writeBaseline = try BaselineWriteRun.parse(options)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let analysis = try input.load(console).analysis
        let names = input.names(analysis)
        var writer = try PathsWriter.checked(from: from, to: to, names: names, format: format, console: console)
        if let writeBaseline {
            return try writeBaseline.run(writer, devices: try input.devices(analysis, console), maxHops: maxHops, analysis: analysis, names: names, console: console)
        }
        writer.baseline = try BaselineRun.load(baselinePath, devices: analysis.deviceNames, apps: names.known, onlyTo: writer.targetNode, console: console)
        writer.limits = limits
        let devices = try input.devices(analysis, console)
        return try FleetOutput.paths(devices, maxHops: maxHops, writer: writer) { console.keepUntilExit($0) }
    }
}
