import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Loading a fleet of either vendor: the one place that tells an AppConnect fleet file from Intune app
/// protection policies and loads either into a ``FleetAnalysis``, for the command line's fleet verbs,
/// `eval`, `translate` and the decision tables alike.
///
/// A file is read once (``File/read(_:what:)``): a pipe gives its bytes to one reader only, so the bytes
/// that tell the vendor apart are the bytes parsed. Intune's policies are loaded with their devices file
/// (read after the policies, so a malformed policy is reported before a missing devices file), each app
/// group resolved, the export folder's groups and filters joined, and no app targeted twice.
public enum FleetLoader {
    /// A fleet input read once: a file's bytes, or a folder (of Intune exports), listed.
    public struct File: Sendable {
        /// The path given.
        public let path: String
        /// The file's bytes; `nil` for a folder.
        public let bytes: [UInt8]?

        /// An input read already: `bytes` `nil` for a folder.
        public init(path: String, bytes: [UInt8]?) {
            self.path = path
            self.bytes = bytes
        }

        /// Reads `path`: a folder is listed (it must hold a JSON or YAML file), a file is read whole now (at most
        /// 16 MiB; a FIFO no writer opens is an error, never a wait).
        /// - Throws: ``Failure/unreadable(_:)`` when the file cannot be read, ``Failure/emptyFolder(_:)`` for a folder with no JSON file.
        public static func read(_ path: String, what: String = "fleet file") throws(Failure) -> File {
            if let entries = Folder.subpaths(of: path) {
                guard entries.contains(where: { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }) else { throw .emptyFolder(path) }
                return File(path: path, bytes: nil)
            }
            do throws(CappedFile.Failure) { return File(path: path, bytes: try CappedFile.read(path: path, what: what)) } catch { throw .unreadable(error.message) }
        }

        /// Whether `path` is a folder (which only Intune exports are).
        public static func isFolder(_ path: String) -> Bool { Folder.subpaths(of: path) != nil }

        /// The vendor whose policies the input holds: Intune for Graph JSON (an object with `@odata.type` or
        /// `value`, an array, YAML naming a Graph type) and for a folder; AppConnect otherwise (its reader's error
        /// names the line of what is not a fleet file).
        public var vendor: FleetVendor { bytes.map(VendorDetection.holdsIntunePolicies) ?? true ? .intune : .appConnect }

        /// Whether the input holds Intune app protection policies: a file as ``vendor`` tells it, a folder when
        /// it reads as Intune exports holding an iOS app protection policy.
        public var holdsIntunePolicies: Bool {
            guard let bytes else { return (try? IntuneGraphJSON.read(path: path)) != nil }
            return VendorDetection.holdsIntunePolicies(bytes)
        }

        /// Whether the input is an AppConnect fleet file: a JSON object with `global`.
        public var isAppConnectFleetFile: Bool { bytes.map(VendorDetection.isFleetFile) ?? false }
    }

    /// The devices Intune's policies are asked about (an AppConnect fleet file names its own devices, and ignores these).
    public enum Devices {
        /// The Intune devices file at this path, read after the policies (``Failure/unreadable(_:)`` when it cannot be).
        case file(String)
        /// The Intune devices file at this path, read by `read` (a caller's own reader, naming where the path came
        /// from in its errors: ``Failure/devices(_:)``).
        case read(String, () throws(FormatError) -> [UInt8])
        /// No devices file, and the fleet verbs need one: Intune policies are ``Failure/needsDevices(_:)``.
        case missing
        /// No devices file, and none wanted: Intune policies alone, with no device profile (a translation reads them so).
        case none
        /// No devices file: one device profile, named `-`, that installs these apps alone (a request about one app).
        case installing([BundleID])

        /// The devices file at `path`, or ``missing``.
        public static func file(_ path: String?) -> Devices { path.map { .file($0) } ?? .missing }

        /// The devices file's path, if one is read.
        var path: String? {
            switch self {
            case .file(let path), .read(let path, _): path
            case .missing, .none, .installing: nil
            }
        }
    }

    /// How Intune policies are loaded: `--assume-assigned` and `--conflicts` (an AppConnect fleet reads neither).
    public struct Options: Sendable {
        var intune = IntuneLoadOptions()

        /// The defaults: a policy assigned to no one reaches no one, and conflicting settings combine most-restrictively.
        public init() {}

        /// The options from their command-line values: `assumeAssigned`, analyse a policy assigned to no one as if it
        /// reached every profile; `conflicts`, how policies that reach one app on one profile combine (``conflictModes``).
        /// - Throws: ``FleetError`` for an unknown conflict mode, with "Did you mean".
        public init(assumeAssigned: Bool, conflicts: String?) throws(FleetError) {
            intune = try IntuneLoadOptions(assumeAssigned: assumeAssigned, conflicts: conflicts)
        }

        /// The names of the conflict modes, the default first: `most-restrictive`, `least-restrictive`.
        public static var conflictModes: [String] { ConflictMode.allCases.map(\.rawValue) }
    }

    /// Why a fleet could not be loaded.
    public enum Failure: Error, CustomStringConvertible {
        /// A file that cannot be read, and why.
        case unreadable(String)
        /// A folder with no JSON (or YAML) file in it.
        case emptyFolder(String)
        /// The fleet file or the Intune policies do not read.
        case file(FormatError)
        /// The Intune devices file does not read.
        case devices(FormatError)
        /// The Intune policies cannot be resolved: an app group nothing resolves, or an app two policies target.
        case policies(FleetError)
        /// Intune policies at this path, and no devices file (``Devices/missing``).
        case needsDevices(String)
        /// A file of the wrong vendor for what reads it (a translation given the vendor it translates to), and what reads it.
        case wrongVendor(String)

        /// What went wrong, in a sentence.
        public var description: String {
            switch self {
            case .unreadable(let message), .wrongVendor(let message): message
            case .emptyFolder(let path):
                "'\(Printable.text(path))' is a folder with no JSON file in it: give a fleet file, or a folder of Intune app protection policies exported as *.json"
            case .file(let error), .devices(let error): error.description
            case .policies(let error): error.description
            case .needsDevices(let path): "\(path) holds Intune app protection policies: give the devices they are asked about"
            }
        }
    }

    /// Loads `file` as the vendor it holds: an AppConnect fleet file, or Intune policies with `devices`.
    ///
    /// `note` is given each note as it arises: how an export folder was read and what it skipped (before the
    /// devices file is read), then who the policies reach (once the fleet is loaded); a caller prints them once per run.
    /// - Throws: ``Failure``.
    public static func load(_ file: File, devices: Devices, options: Options = Options(), note: (String) -> Void = { _ in }) throws(Failure) -> FleetAnalysis {
        guard file.vendor == .intune else {
            do throws(FormatError) { return FleetAnalysis(try FleetJSON.read(file.bytes ?? [], file: file.path)) } catch { throw .file(error) }
        }
        if case .missing = devices { throw .needsDevices(file.path) }
        return FleetAnalysis(try intune(file, devices: devices, options: options, note: note), devicesFile: devices.path)
    }

    /// Loads `file` as Intune app protection policies, with `devices` (``Devices/missing`` reads as ``Devices/none``).
    /// - Throws: ``Failure``.
    public static func intune(_ file: File, devices: Devices, options: Options = Options(), note: (String) -> Void = { _ in }) throws(Failure) -> IntuneFleet {
        let export: IntuneGraphJSON.Export
        do throws(FormatError) {
            export = if let bytes = file.bytes { try IntuneGraphJSON.export(bytes, file: file.path) } else { try IntuneGraphJSON.read(path: file.path) }
        } catch {
            throw .file(error)
        }
        for message in export.messages { note(message) }
        var read: (bytes: [UInt8], file: String)? = nil
        switch devices {
        case .file(let path):
            do throws(CappedFile.Failure) { read = (try CappedFile.read(path: path, what: "Intune devices file"), path) } catch { throw .unreadable(error.message) }
        case .read(let path, let reader):
            do throws(FormatError) { read = (try reader(), path) } catch { throw .devices(error) }
        case .missing, .none, .installing: break
        }
        var fleet: IntuneFleet
        do throws(IntuneFleet.LoadError) {
            fleet = try IntuneFleet.load(policies: export.policies, file: file.path, devices: read, assumeAssigned: options.intune.assumeAssigned,
                                         conflicts: options.intune.conflicts, facts: export.facts)
        } catch {
            switch error {
            case .devices(let error): throw .devices(error)
            case .policies(let error): throw .policies(error)
            }
        }
        // Who the policies reach: said once per run (not per decision).
        for message in fleet.scopeNotes { note(message) }
        if case .installing(let apps) = devices { fleet.devices = [IntuneDeviceProfile(name: "-", installed: apps)] }
        return fleet
    }
}
