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
        if let entries = Folder.subpaths(of: path) {
            guard entries.contains(where: { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }) else {
                throw .invalidInput("'\(DecisionText.escaped(path))' is a folder with no JSON file in it: give a fleet file, or a folder of Intune app protection policies exported as *.json")
            }
            return VendorInput(path: path, bytes: nil)
        }
        return VendorInput(path: path, bytes: try ByteSource.readFile(path: path, what: what))
    }

    /// Whether the input holds Intune policies (Graph JSON: an object with `@odata.type` or `value`, an
    /// array, or a folder) rather than an AppConnect fleet file.
    var isIntune: Bool { bytes.map(VendorDetection.holdsIntunePolicies) ?? true }

    /// Whether the input is an AppConnect fleet file: a JSON object with `global`.
    var isFleetFile: Bool { bytes.map(VendorDetection.isFleetFile) ?? false }
}

/// Reading either vendor's policies for the `fleet` verbs and `translate`, and what the verbs print for Intune.
enum VendorFiles {
    /// Intune policies from a file or folder read once, with the devices file's facts.
    static func intune(_ input: VendorInput, devices devicesPath: String?, options: IntuneLoadOptions = IntuneLoadOptions(), console: Console) throws(CLIError) -> IntuneFleet {
        let policies: [IntunePolicy]
        let facts: IntuneExportFacts
        do throws(FormatError) {
            let export = if let bytes = input.bytes { try IntuneGraphJSON.export(bytes, file: input.path) } else { try IntuneGraphJSON.read(path: input.path) }
            for note in export.messages { console.stderr.write("note: \(DecisionText.escaped(note))\n") }
            policies = export.policies
            facts = export.facts
        } catch {
            throw .invalidInput(error.description)
        }
        var devices: (bytes: [UInt8], file: String)? = nil
        if let devicesPath { devices = (try ByteSource.readFile(path: devicesPath, what: "Intune devices file"), devicesPath) }
        let fleet: IntuneFleet
        do throws(IntuneFleet.LoadError) { fleet = try IntuneFleet.load(policies: policies, file: input.path, devices: devices, assumeAssigned: options.assumeAssigned, conflicts: options.conflicts, facts: facts) } catch { throw .invalidInput(error.message) }
        // Who the policies reach: said once per run (not per decision).
        for note in fleet.scopeNotes { console.stderr.write("note: \(DecisionText.escaped(note))\n") }
        return fleet
    }

    /// A fleet of either vendor, from an input read once, loaded once for the fleet verbs; Intune's policies need `--devices`.
    static func analysis(_ input: VendorInput, devices: String?, options: IntuneLoadOptions = IntuneLoadOptions(), console: Console) throws(CLIError) -> FleetAnalysis {
        if input.isIntune {
            guard let devices else {
                throw .usage(UsageError("\(input.path) holds Intune app protection policies: give the devices they are asked about with '--devices FILE' ({\"apps\": [...], \"devices\": {...}})", verb: "fleet"))
            }
            return FleetAnalysis(try intune(input, devices: devices, options: options, console: console), devicesFile: devices)
        }
        return FleetAnalysis(try FleetCommand.fleet(input))
    }
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
