#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy
import OpenInReports

extension FleetLoader.File {
    /// Reads `path` once (``FleetLoader/File/read(_:what:)``), a failure worded as the command line words it.
    static func reading(_ path: String) throws(CLIError) -> FleetLoader.File {
        do throws(FleetLoader.Failure) { return try read(path) } catch { throw CLIError(error) }
    }

    /// The fleet of either vendor this input holds (``FleetLoader/load(_:devices:options:note:)``), each note on standard error.
    func load(devices: FleetLoader.Devices, options: FleetLoader.Options = FleetLoader.Options(), console: Console) throws(CLIError) -> FleetAnalysis {
        do throws(FleetLoader.Failure) { return try FleetLoader.load(self, devices: devices, options: options, note: console.note) } catch { throw CLIError(error) }
    }
}

extension CLIError {
    /// A fleet that could not be loaded: invalid input, or a usage error naming the flag that gives the devices file.
    init(_ failure: FleetLoader.Failure) {
        switch failure {
        case .needsDevices(let path):
            self = .usage(UsageError("\(path) holds Intune app protection policies: give the devices they are asked about with '--devices FILE' ({\"apps\": [...], \"devices\": {...}})", verb: "fleet"))
        case .emptyFolder(let path):
            self = .invalidInput("'\(DecisionText.escaped(path))' is a folder with no JSON file in it: give a fleet file, or a folder of Intune app protection policies exported as *.json")
        default: self = .invalidInput(failure.description)
        }
    }
}

extension Console {
    /// A note of a fleet's load on standard error, once per run: `note: TEXT`.
    func note(_ text: String) { stderr.write("note: \(DecisionText.escaped(text))\n") }
}

/// `translate`: AppConnect fleet → Intune policies, or Intune policies → AppConnect fleet.
struct TranslateCommand: Command {
    let direction: PolicyTranslation.Direction
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
        let names = PolicyTranslation.Direction.all.map(\.name)
        guard let name = options.value("--to") else { throw UsageError("missing '--to \(names.joined(separator: "|"))'", verb: "translate") }
        guard let direction = PolicyTranslation.Direction(named: name) else { throw .unknown("--to value", name, among: names, verb: "translate") }
        guard options.positionals.count == 1 else {
            throw UsageError("translate takes one input file (got \(options.positionals.count))", verb: "translate")
        }
        if !direction.readsDevices, options.value("--devices") != nil {
            throw UsageError("'--devices' is for --to appconnect; --to \(direction.name) takes the devices from the fleet file", verb: "translate")
        }
        if !direction.writesDevices, options.value("--devices-out") != nil { throw UsageError("'--devices-out' is for --to intune", verb: "translate") }
        return TranslateCommand(direction: direction, input: options.positionals[0], devices: options.value("--devices"), devicesOut: options.value("--devices-out"))
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
        let translated: PolicyTranslation.Translated
        do throws(FleetLoader.Failure) {
            translated = try PolicyTranslation.translate(try FleetLoader.File.read(input), to: direction, devices: devices, note: console.note)
        } catch {
            throw CLIError(error)
        }
        console.stdout.write(translated.text)
        if let devicesOut, let text = translated.devices {
            guard Self.write(text, to: devicesOut) else { throw .invalidInput("cannot write the devices file '\(devicesOut)'") }
        }
        let notes = translated.notes
        if !notes.isEmpty {
            console.stderr.write("Not expressible in \(direction.vendor) (\(notes.count)):\n")
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
