import OpenInCore
import OpenInKit

/// Which vendor's policies a fleet holds, as a name for printing (`AppConnect`, `Intune`).
///
/// A name, not a closed list: the fleet analysis never branches on it; what differs between vendors
/// is asked of the vendor's adapter (`FleetVendorFleet`, `FleetVendorDevice`).
public struct FleetVendor: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The vendor's name.
    public let rawValue: String

    /// A vendor named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Ivanti AppConnect: an AppConnect fleet file.
    public static let appConnect = FleetVendor(rawValue: "AppConnect")
    /// Microsoft Intune: app protection policies with a devices file.
    public static let intune = FleetVendor(rawValue: "Intune")

    public var description: String { rawValue }
}

/// A fleet of one vendor as the fleet analysis reads it (``FleetAnalysis``): its device profiles, its
/// lint, and the files it came from. Each vendor has one adapter; the analysis names none of them.
package protocol FleetVendorFleet: Sendable {
    /// The vendor's name.
    var vendor: FleetVendor { get }
    /// The file (or folder) the policies were read from, when known.
    var file: String? { get }
    /// The file of the devices the policies are asked about, when the vendor keeps them apart and it is known.
    var devicesFile: String? { get }
    /// The device profiles' names, in file order.
    var deviceNames: [String] { get }
    /// The device profile named exactly `name`, resolved.
    /// - Throws: ``FleetError`` for an unknown name (with "Did you mean"), or a device the fleet cannot resolve.
    func device(named name: String) throws(FleetError) -> any FleetVendorDevice
    /// The error for a fleet with no device profile, naming where to add one.
    var noDeviceProfile: FleetError { get }
    /// The fleet's lint findings and every check that could make them.
    func lint() -> (findings: [FleetFinding], checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)])
    /// The `openin-check fleet eval` arguments that name the fleet's files (`--fleet FILE`, and `--devices FILE` where the vendor needs it).
    var fileArguments: [String] { get }
    /// What `fleet fixes` changes and verifies: the fleet's file, `bytes` as read from `path` (`nil`: `path` is a folder), within `scope`.
    /// - Throws: ``FixError`` for a file that is not JSON, or a fleet the fixes cannot work on.
    func fixSubject(bytes: [UInt8]?, path: String, scope: FixScope) throws(FixError) -> any FixSubject
}

/// One device of a fleet as the fleet analysis reads it (``AnalyzedDevice``): its nodes, its zone of
/// trust, end-to-end decisions with the settings behind them, the graph its searches run on, and its
/// matrix. Each vendor has one adapter; the decisions of a search or a matrix row are made inside
/// it, on concrete types, so no decision goes through this protocol in a hot loop.
package protocol FleetVendorDevice: Sendable {
    /// The device profile's name.
    var name: String { get }
    /// The nodes documents can reach: the installed apps (as the profile lists them), native Mail
    /// (when the profile does not list it), and "any other app".
    var nodes: [FleetNode] { get }
    /// The apps inside the zone of trust, in the profile's order.
    var zone: [BundleID] { get }
    /// What the zone of trust is on this device and what outside means, as one sentence.
    var zoneDescription: String { get }
    /// Whether `node` is outside the zone of trust (native Mail and "any other app" always are).
    func isOutside(_ node: FleetNode) -> Bool
    /// Whether `app` is installed on the device.
    func isInstalled(_ app: BundleID) -> Bool
    /// The apps a search for every app starts from, in order.
    var startingApps: [BundleID] { get }
    /// Decides `request` end to end on this device, with the settings behind it (``FleetDecision/settings``).
    func decide(_ request: FleetRequest) throws(FleetError) -> FleetDecision
    /// Which nodes `app`'s documents reach, and how far (an app not installed reaches nothing).
    func reach(from app: BundleID, maxHops: Int?) throws(FleetError) -> FleetReach
    /// Every starting app's search over one graph of the device, one at a time, in ``startingApps`` order.
    func forEachReach(maxHops: Int?, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError)
    /// The graph to decide `reach`'s hops on: the one it was searched on when that is this device's, else a new one.
    func graph(for reach: FleetReach) -> any FleetEdges
    /// A finder of `reach`'s hops one at a time from parts made once, when the vendor has one for it; `nil` otherwise.
    func hopFinder(for reach: FleetReach) -> (any FleetHopSource)?
    /// The device's matrix, made one sender's row at a time.
    func matrixRows() -> FleetMatrixRows
    /// The installed apps, as the profile lists them.
    var installed: [BundleID] { get }
    /// How `app` decides `channel` alone (print, copy: no receiver takes part), in the vendor's words, and how
    /// far it lets content go: 0 nowhere (or the control is not set), 1 to the zone of trust only, 2 to every app.
    func control(_ channel: Channel, of app: BundleID) -> (text: String, reach: Int)
}

extension FleetVendorFleet {
    /// A vendor without fixes says so.
    package func fixSubject(bytes: [UInt8]?, path: String, scope: FixScope) throws(FixError) -> any FixSubject {
        throw FixError("fleet fixes does not work on \(vendor) fleets yet")
    }
}

extension FleetVendorDevice {
    package func hopFinder(for reach: FleetReach) -> (any FleetHopSource)? { nil }
}

/// What a vendor's end-to-end decision was made under (``FleetDecision``): the settings behind it are worked out from it when asked.
package protocol FleetDecisionSides: Sendable {
    /// The settings behind `decision` (``FleetDecision/settings``), sender's first.
    func settings(of decision: FleetDecision) -> [FleetSetting]
}

/// A vendor's maker of a device's matrix rows (``FleetMatrixRows``), one sender's row at a time.
package protocol FleetMatrixRowMaker {
    /// Whether making a row can throw.
    var canThrow: Bool { get }
    /// `senders[s]`'s row, every grid's cells or only `only`'s; `nil` when the sender is not installed.
    func row(sender s: Int, only: FleetChannel?) throws(FleetError) -> FleetMatrixRow?
}
