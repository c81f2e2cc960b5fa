import OpenInPolicy

/// What `fleet paths` and `fleet diff` write: text and JSON (every path, hop by hop), or a report of the
/// paths to outside (Markdown, SARIF, DOT).
public enum FleetPathsFormat: String, CaseIterable, Sendable {
    /// Every path, hop by hop, as text.
    case text
    /// Every path, hop by hop, as JSON.
    case json
    /// The paths to outside: tables and a Mermaid graph per device, within a byte budget.
    case markdown
    /// The paths to outside as a SARIF log, for code scanning.
    case sarif
    /// The paths to outside as a Graphviz DOT graph.
    case dot

    /// The report format, for markdown, sarif and dot.
    package var report: LeakReportFormat? { LeakReportFormat(rawValue: rawValue) }
}

/// What the paths' text says of the apps a fleet knows: where an app is installed, and which IDs are the same app.
package protocol FleetAppLookup {
    /// The fleet file the apps are of.
    var file: String { get }
    /// The devices `id` is installed on.
    func devices(installing id: BundleID) -> [String]
    /// Where `id` is installed, in words, for a path from or to an app not installed on a device.
    func whereInstalled(_ id: BundleID) -> String
    /// Whether `a` and `b` name the same app of the fleet.
    func same(_ a: BundleID, _ b: BundleID) -> Bool
}

/// The program the reports name as their tool (SARIF's driver).
enum ReportTool {
    /// The program's name.
    package static let name = "openin-check"
    /// Its version.
    static let version = "0.1.0"
}
