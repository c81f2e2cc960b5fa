#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy
import OpenInReports

/// One input of the fleet verbs and `translate`, read once: a folder (of Intune exports), or a file's
/// bytes. A pipe (`<(cat fleet.json)`, `/dev/stdin`) can be read only once, so the bytes that tell
/// the vendor apart are the bytes parsed.
struct VendorInput {
    let path: String
    /// The file's bytes; `nil` for a folder.
    let bytes: [UInt8]?

    /// Reads `path`: a folder is listed when read as Intune exports, a file is read whole now.
    /// - Throws: ``CLIError/invalidInput(_:)`` when the file cannot be read, or the folder holds no JSON file.
    static func read(_ path: String, what: String = "fleet file") throws(CLIError) -> VendorInput {
        if let entries = DecisionTables.subpaths(of: path) {
            guard entries.contains(where: { $0.hasSuffix(".json") }) else {
                throw .invalidInput("'\(DecisionText.escaped(path))' is a folder with no JSON file in it: give a fleet file, or a folder of Intune app protection policies exported as *.json")
            }
            return VendorInput(path: path, bytes: nil)
        }
        return VendorInput(path: path, bytes: try ByteSource.readFile(path: path, what: what))
    }

    /// Whether the input holds Intune policies (Graph JSON: an object with `@odata.type` or `value`, an
    /// array, or a folder) rather than an AppConnect fleet file.
    var isIntune: Bool {
        guard var bytes else { return true }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return IntuneFleet.holdsPolicies(bytes)
    }

    /// Whether the input is an AppConnect fleet file: a JSON object with `global`.
    var isFleetFile: Bool {
        guard var bytes else { return false }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if case .object(let object)? = try? JSONReader().read(bytes) { return object["global"] != nil }
        return false
    }
}

/// Reading either vendor's policies for the `fleet` verbs and `translate`, and what the verbs print for Intune.
enum VendorFiles {
    /// Intune policies from a file or folder read once, with the devices file's facts.
    static func intune(_ input: VendorInput, devices devicesPath: String?, console: Console) throws(CLIError) -> IntuneFleet {
        let policies: [IntunePolicy]
        do throws(FormatError) {
            if let bytes = input.bytes {
                policies = try IntuneGraphJSON.read(bytes, file: input.path)
            } else {
                let export = try IntuneGraphJSON.read(path: input.path)
                for (file, type) in export.skipped {
                    console.stderr.write("note: \(DecisionText.escaped(file)) skipped: it holds \(DecisionText.escaped(type)), not an iOS app protection policy\n")
                }
                policies = export.policies
            }
        } catch {
            throw .invalidInput(error.description)
        }
        var devices: (bytes: [UInt8], file: String)? = nil
        if let devicesPath { devices = (try ByteSource.readFile(path: devicesPath, what: "Intune devices file"), devicesPath) }
        do throws(IntuneFleet.LoadError) {
            return try IntuneFleet.load(policies: policies, file: input.path, devices: devices)
        } catch {
            switch error {
            case .devices(let error): throw .invalidInput(error.description)
            case .policies(let error): throw .invalidInput(error.description)
            }
        }
    }

    /// A fleet of either vendor, from an input read once, loaded once for the fleet verbs; Intune's policies need `--devices`.
    static func analysis(_ input: VendorInput, devices: String?, console: Console) throws(CLIError) -> FleetAnalysis {
        if input.isIntune {
            guard let devices else {
                throw .usage(UsageError("\(input.path) holds Intune app protection policies: give the devices they are asked about with '--devices FILE' ({\"apps\": [...], \"devices\": {...}})", verb: "fleet"))
            }
            return FleetAnalysis(try intune(input, devices: devices, console: console), devicesFile: devices)
        }
        return FleetAnalysis(try FleetCommand.fleet(input))
    }
}

/// `fleet eval` and `fleet diff` on Intune policies.
enum IntuneFleetOutput {
    static func side(_ app: BundleID, _ decision: Decision) -> JSONValue {
        var members: [JSONObject.Member] = [.init("app", .string(app.rawValue)), .init("rule", .string(decision.rule.rawValue)),
                                            .init("outcome", .string(decision.outcome.rawValue))]
        if let audience = decision.audience { members.append(.init("audience", .string(audience.rawValue))) }
        members += [.init("callbacks", .array(JSONArray([]))), .init("reason", .string(decision.reason))]
        return .object(JSONObject(members: members))
    }

    /// Where a side's policy came from, and its rule's source: what `--explain` adds.
    static func explanation(_ app: BundleID, _ decision: Decision, fleet: IntuneFleet) -> (policy: String, rule: RuleInfo) {
        let policy = fleet.policy(for: app).map { "app protection policy \(JSONWriter.quoted($0.displayName))" } ?? "no app protection policy targets it"
        return (policy, decision.rule.info)
    }

    static func explanationJSON(_ app: BundleID, _ decision: Decision, fleet: IntuneFleet) -> JSONValue {
        let (policy, rule) = explanation(app, decision, fleet: fleet)
        return .object(JSONObject(members: [.init("policy", .string(policy)), .init("step", .number(JSONNumber(rule.step))), .init("summary", .string(rule.summary)),
                                            .init("source", .string(rule.source)), .init("quote", .string(rule.quote))]))
    }

    static func record(_ decision: FleetDecision, id: JSONValue?, explain: Bool = false, fleet: IntuneFleet? = nil) -> JSONObject {
        var members: [JSONObject.Member] = []
        if let id { members.append(.init("id", id)) }
        members += [.init("device", .string(decision.device)), .init("from", .string(decision.request.from.rawValue)),
                    .init("channel", .string(decision.request.channel.rawValue))]
        if let target = decision.request.target { members.append(.init("target", .string(target.rawValue))) }
        if let url = decision.request.url { members.append(.init("url", .string(url.rawValue))) }
        if let location = decision.request.location { members.append(.init("location", .string(location.rawValue))) }
        members.append(.init("outcome", .string(decision.outcome.rawValue)))
        if let to = decision.receiverApp, decision.outcome != .deny { members.append(.init("to", .string(to.rawValue))) }
        members.append(.init("sender", side(decision.request.from, decision.sender)))
        members.append(.init("receiver", decision.receiver.map { side(decision.receiverApp!, $0) } ?? .null))
        if explain, let fleet {
            var sides: [JSONObject.Member] = [.init("sender", explanationJSON(decision.request.from, decision.sender, fleet: fleet))]
            if let receiver = decision.receiver, let app = decision.receiverApp { sides.append(.init("receiver", explanationJSON(app, receiver, fleet: fleet))) }
            members.append(.init("explanation", .object(JSONObject(members: sides))))
        }
        return JSONObject(members: members)
    }

    static func block(_ decision: FleetDecision, explain: Bool = false, fleet: IntuneFleet? = nil, notes: [String] = []) -> String {
        let to = decision.request.url?.rawValue ?? decision.request.target?.rawValue ?? decision.request.location?.rawValue ?? ""
        var text = "Device \(DecisionText.escaped(decision.device)): \(decision.request.channel) \(DecisionText.escaped(decision.request.from.rawValue))\(to.isEmpty ? "" : " → " + DecisionText.escaped(to))\n"
        for note in notes { text += "  note      \(DecisionText.escaped(note))\n" }
        text += "  outcome   \(decision.outcome)\(decision.receiverApp.map { decision.outcome == .deny ? "" : " (to \(DecisionText.escaped($0.rawValue)))" } ?? "")\n"
        let audience = decision.request.channel == .copy ? decision.sender.audience.map { " (audience \($0.rawValue))" } ?? "" : ""
        text += "  sender    \(decision.sender.outcome)\(audience)  [\(decision.sender.rule)]  \(DecisionText.escaped(decision.sender.reason))\n"
        if let receiver = decision.receiver {
            text += "  receiver  \(receiver.outcome)  [\(receiver.rule)]  \(DecisionText.escaped(receiver.reason))\n"
        } else if decision.request.channel == .keyboard {
            text += "  receiver  -  (a keyboard extension is not an app receiving data: the sender alone decides)\n"
        } else if let location = decision.request.locationRequest {
            text += "  receiver  -  (\(location.channel == .saveAs ? "a save to a location" : "data opened from a location"): the app's own policy alone decides)\n"
        } else if decision.request.channel == .copy || decision.request.channel == .print {
            text += "  receiver  -  (\(decision.request.channel == .copy ? "a copy's audience is who may paste it" : "a print goes to no app"): the sender alone decides)\n"
        } else {
            text += "  receiver  -  (no policy-managed receiver decides)\n"
        }
        if explain, let fleet {
            var sides = [(decision.request.from, decision.sender)]
            if let receiver = decision.receiver, let app = decision.receiverApp { sides.append((app, receiver)) }
            for (app, side) in sides {
                let (policy, rule) = explanation(app, side, fleet: fleet)
                text += "  \(DecisionText.escaped(app.rawValue)): \(policy)\n    rule \(rule.id) (Intune step \(rule.step)): \(rule.summary)\n    source: \(rule.source)\n    \"\(rule.quote)\"\n"
            }
        }
        return text
    }

    /// `fleet diff OLD NEW` with Intune on one side or both.
    static func diff(old: VendorFleet, new: VendorFleet, device: String?, format: FleetCommand.PathsFormat, rows: Bool, console: Console) throws(CLIError) -> ExitStatus {
        let changes: [FlowChange]
        do throws(FleetError) { changes = try CrossVendorDiff.compare(old: old, new: new, device: device) } catch { throw .invalidInput(error.description) }
        let groups = FlowChange.Group.allCases.map { group in (group, changes.filter { $0.group == group }) }
        if rows {
            var text = ""
            for (group, members) in groups where !members.isEmpty {
                text += "## \(group.rawValue.prefix(1).uppercased() + group.rawValue.dropFirst()) (\(old.vendor) → \(new.vendor))\n\n"
                text += "| " + FlowChange.tableColumns.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: FlowChange.tableColumns.count) + "\n"
                for (index, change) in members.enumerated() {
                    let id = "\(group.rawValue.replacingSpaces)-\(index + 1)"
                    for row in change.tableRows(id: id) {
                        text += "| " + row.map { $0.replacingPipes }.joined(separator: " | ") + " |\n"
                    }
                }
                text += "\n"
            }
            console.stdout.write(text)
        } else {
            switch format {
            case .json:
                let records: [JSONValue] = changes.map { change in
                    var members: [JSONObject.Member] = [.init("device", .string(change.device)), .init("group", .string(change.group.rawValue)),
                                                        .init("from", .string(change.request.from.rawValue)), .init("channel", .string(change.request.channel.rawValue))]
                    if let target = change.request.target { members.append(.init("target", .string(target.rawValue))) }
                    if let url = change.request.url { members.append(.init("url", .string(url.rawValue))) }
                    members += [.init("old", .object(JSONObject(members: [.init("outcome", .string(change.old.outcome.rawValue)), .init("rules", .string(change.old.rules))]))),
                                .init("new", .object(JSONObject(members: [.init("outcome", .string(change.new.outcome.rawValue)), .init("rules", .string(change.new.rules))])))]
                    return .object(JSONObject(members: members))
                }
                console.stdout.write(JSONWriter.pretty(.array(JSONArray(records))) + "\n")
            case .text, .markdown, .sarif, .dot:  // the report formats go through LeakDiff
                var text = "\(old.vendor) → \(new.vendor): end-to-end flows that decide differently\n"
                for (group, members) in groups {
                    text += "\n\(group.rawValue) (\(members.count))\(group == .newlyAllowed ? ": the receiving app can now read it, a leak" : group == .newlyBlocked ? ": the receiving app can no longer read it, breaks a user" : ": the receiving app reads as much as before"):\n"
                    for change in members {
                        text += "  \(DecisionText.escaped(change.device))  \(DecisionText.escaped(change.subject))  \(change.old.outcome) → \(change.new.outcome)  [\(change.new.rules)]\n"
                    }
                }
                text += "\n" + groups.map { "\($0.1.count) \($0.0.rawValue)" }.joined(separator: ", ") + "\n"
                console.stdout.write(text)
            }
        }
        return changes.contains { $0.group == .newlyAllowed } ? .notAllowed : .success
    }
}

extension String {
    /// Spaces as dashes, for row ids.
    fileprivate var replacingSpaces: String { split(separator: " ").joined(separator: "-") }
    /// `|` escaped for a Markdown table cell.
    fileprivate var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}

/// `translate`: AppConnect fleet → Intune policies, or Intune policies → AppConnect fleet.
struct TranslateCommand: Command {
    enum Target: String, OptionChoice {
        case intune, appconnect
        static var kind: String { "--to value" }
    }

    let target: Target
    let input: String
    let devices: String?
    let devicesOut: String?

    static let specs: [OptionSpec] = [
        OptionSpec("--to", value: "intune|appconnect", help: "What to translate to: intune (from an AppConnect fleet file) or appconnect\n(from Intune Graph JSON)."),
        OptionSpec("--devices", value: "FILE", help: "--to appconnect: the Intune devices file, whose profiles become the fleet's devices."),
        OptionSpec("--devices-out", value: "FILE", help: "--to intune: also write the Intune devices file of the fleet's device profiles."),
    ]

    static let verb = Verb(
        name: "translate",
        abstract: "Translate an AppConnect fleet to Intune app protection policies, or back, listing what changes.",
        usage: "openin-check translate --to intune FLEET | --to appconnect INTUNE.json [--devices FILE]",
        specs: specs,
        help: """
            Translate policies between vendors. --to intune reads an AppConnect fleet file and
            writes Microsoft Graph (beta) iosManagedAppProtection JSON on standard output, an
            array with each policy's apps, in the shape Graph exports and backup tools restore
            (posting to Graph directly, set the apps with the targetApps action): one policy per
            container policy, and one for the apps the global policy authorizes. --to appconnect
            reads Intune Graph JSON (an object, an array, a list response or a folder of exports)
            and writes a fleet file: a container policy per targeted app, every device carrying
            the label intune.

            Every setting the other vendor cannot express is reported on standard error, with
            what the translation chose instead and which requests decide differently: never a
            silent approximation. Then every flow the translation opens, on each device: a
            request the receiving app can now read (or that now goes to another app), with
            both decisions. One note per sender, channel and change names the first five
            receivers or URLs and how many more; every opened flow is counted in one. To see
            every flow that changes, one by one, run fleet diff on the two.

            Usage:
              openin-check translate --to intune FLEET [--devices-out FILE]
              openin-check translate --to appconnect INTUNE.json [--devices FILE]

            Options:
            \(OptionScanner.helpSection(for: specs))

            Exit status:
              0   translated exactly: the report is empty
              1   invalid input
              2   translated, and the report lists what could not be expressed or flows it opens
              64  usage error

            Examples:
              openin-check translate --to intune Examples/fleet/acme.json --devices-out acme-devices.json > acme-intune.json
              openin-check fleet diff Examples/fleet/acme.json acme-intune.json --devices acme-devices.json

            """,
        parse: { arguments throws(UsageError) in try TranslateCommand.parse(arguments) })

    static func parse(_ arguments: [String]) throws(UsageError) -> TranslateCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "translate")
        guard options.value("--to") != nil else { throw UsageError("missing '--to intune|appconnect'", verb: "translate") }
        let target = try Target.parse(options, option: "--to", default: .intune, verb: "translate")
        guard options.positionals.count == 1 else {
            throw UsageError("translate takes one input file (got \(options.positionals.count))", verb: "translate")
        }
        if target == .intune, options.value("--devices") != nil { throw UsageError("'--devices' is for --to appconnect; --to intune takes the devices from the fleet file", verb: "translate") }
        if target == .appconnect, options.value("--devices-out") != nil { throw UsageError("'--devices-out' is for --to intune", verb: "translate") }
        return TranslateCommand(target: target, input: options.positionals[0], devices: options.value("--devices"), devicesOut: options.value("--devices-out"))
    }

    /// Writes `text` to the file at `path` (created or truncated); false when it cannot.
    static func write(_ text: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return false }
            written += count
        }
        return true
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let notes: [TranslationNote]
        switch target {
        case .intune:
            let read = try VendorInput.read(input)
            if read.isIntune { throw .invalidInput("\(input) holds Intune policies already: translate --to appconnect reads them") }
            let fleet = try FleetCommand.fleet(read)
            do throws(FleetError) { try fleet.checkDecidable() } catch { throw .invalidInput(error.description) }
            let translated = PolicyTranslation.toIntune(fleet)
            console.stdout.write(PolicyTranslation.graphJSON(translated.policies))
            if let devicesOut {
                guard Self.write(PolicyTranslation.devicesJSON(translated.fleet), to: devicesOut) else {
                    throw .invalidInput("cannot write the devices file '\(devicesOut)'")
                }
            }
            notes = translated.notes
        case .appconnect:
            let read = try VendorInput.read(input)
            if read.isFleetFile {
                throw .invalidInput("\(input) is an AppConnect fleet file (it has global): translate --to intune reads it; --to appconnect reads Intune Graph JSON")
            }
            let intune = try VendorFiles.intune(read, devices: devices, console: console)
            let translated = PolicyTranslation.toAppConnect(intune)
            console.stdout.write(PolicyTranslation.fleetJSON(translated.fleet))
            notes = translated.notes
        }
        if !notes.isEmpty {
            console.stderr.write("Not expressible in \(target == .intune ? "Intune" : "AppConnect") (\(notes.count)):\n")
            for note in notes { console.stderr.write("- " + note.description.split(separator: "\n").map { DecisionText.escaped(String($0)) }.joined(separator: "\n  ") + "\n") }
        }
        return notes.isEmpty ? .success : .notAllowed
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Musl)
private let systemWrite = Musl.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
