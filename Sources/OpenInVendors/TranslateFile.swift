import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

extension PolicyTranslation {
    /// A vendor a file can be translated to, with what its direction reads besides the file and what it writes.
    public struct Direction: Sendable, Hashable {
        /// The direction's name, as `translate --to` takes it: `intune`, `appconnect`.
        public let name: String
        /// The vendor translated to.
        public let vendor: FleetVendor
        /// Whether the direction reads a devices file beside the policies (Intune's profiles become the fleet's devices).
        public let readsDevices: Bool
        /// Whether the direction can write a devices file beside the policies (the fleet's device profiles, as Intune's devices file).
        public let writesDevices: Bool

        /// To Intune: an AppConnect fleet file becomes Graph JSON, and its device profiles an Intune devices file.
        public static let intune = Direction(name: "intune", vendor: .intune, readsDevices: false, writesDevices: true)
        /// To AppConnect: Intune app protection policies (Graph JSON, or an export folder) become an AppConnect fleet file.
        public static let appConnect = Direction(name: "appconnect", vendor: .appConnect, readsDevices: true, writesDevices: false)

        /// Every direction, in the order help lists them.
        public static let all: [Direction] = [.intune, .appConnect]

        /// The direction called `name`, or `nil`.
        public init?(named name: String) {
            guard let direction = Self.all.first(where: { $0.name.utf8.elementsEqual(name.utf8) }) else { return nil }
            self = direction
        }

        private init(name: String, vendor: FleetVendor, readsDevices: Bool, writesDevices: Bool) {
            self.name = name
            self.vendor = vendor
            self.readsDevices = readsDevices
            self.writesDevices = writesDevices
        }
    }

    /// A file translated to another vendor: what `translate` prints, the devices file it can write, and what did not carry over.
    public struct Translated: Sendable {
        /// The translated policies: Graph JSON to Intune, an AppConnect fleet file to AppConnect.
        public let text: String
        /// The Intune devices file of the fleet's device profiles when the direction writes one (``Direction/writesDevices``); `nil` otherwise.
        public let devices: String?
        /// What the vendor translated to cannot express, and the flows the translation opens; empty when exact.
        public let notes: [TranslationNote]
    }

    /// Translates the policies `file` holds to `direction`'s vendor.
    ///
    /// To Intune, `file` is an AppConnect fleet file whose every policy decides; to AppConnect, Intune app protection
    /// policies with the devices file at `devices` (none: no device profiles). `note` is given each note of the load
    /// (``FleetLoader/intune(_:devices:options:note:)``).
    /// - Throws: ``FleetLoader/Failure``: ``FleetLoader/Failure/wrongVendor(_:)`` when `file` already holds the vendor translated to.
    public static func translate(_ file: FleetLoader.File, to direction: Direction, devices: String?, note: (String) -> Void = { _ in }) throws(FleetLoader.Failure) -> Translated {
        if direction == .intune {
            if file.vendor == direction.vendor {
                throw .wrongVendor("\(file.path) holds \(direction.vendor) policies already: translate --to \(Direction.appConnect.name) reads them")
            }
            let fleet: Fleet
            do throws(FormatError) { fleet = try FleetJSON.read(file.bytes ?? [], file: file.path) } catch { throw .file(error) }
            do throws(FleetError) { try fleet.checkDecidable() } catch { throw .policies(error) }
            let translated = toIntune(fleet)
            return Translated(text: graphJSON(translated.policies), devices: devicesJSON(translated.fleet), notes: translated.notes)
        }
        if file.isAppConnectFleetFile {
            throw .wrongVendor(
                "\(file.path) is an AppConnect fleet file (it has global): translate --to \(Direction.intune.name) reads it; --to \(Direction.appConnect.name) reads Intune Graph JSON")
        }
        let intune = try FleetLoader.intune(file, devices: devices.map { .file($0) } ?? .none, note: note)
        let translated = toAppConnect(intune)
        return Translated(text: fleetJSON(translated.fleet), devices: nil, notes: translated.notes)
    }
}
