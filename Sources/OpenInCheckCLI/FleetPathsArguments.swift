#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInPolicy
import OpenInReports

extension PathsWriter {
    /// Reads `--from` and `--to`, checked against the apps the fleet knows (`names`).
    static func checked(from: String, to: String?, names: FleetAppNames, format: FleetCommand.PathsFormat, console: Console) throws(CLIError) -> PathsWriter {
        do throws(FleetError) { return try PathsWriter(from: from, to: to, names: names, format: format, sink: console.stdout) } catch { throw .invalidInput(error.description) }
    }
}


extension BaselineRun {
    /// Reads the baseline file; warns on stderr about each entry naming a device (of `devices`) or an app
    /// (of `apps`) the fleet does not know, with "Did you mean": such an entry never matches and is never resolved.
    static func load(_ path: String?, devices: [String], apps: [BundleID]? = nil, onlyTo: FleetNode?, console: Console) throws(CLIError) -> BaselineRun? {
        guard let path else { return nil }
        return BaselineRun(try read(path, devices: devices, apps: apps, console: console), today: today(), onlyTo: onlyTo)
    }

    /// Reads and checks the baseline file (``load(_:devices:apps:onlyTo:console:)``).
    static func read(_ path: String, devices: [String], apps: [BundleID]?, console: Console) throws(CLIError) -> FleetBaseline {
        let bytes = try ByteSource.readFile(path: path, what: "baseline file")
        var baseline: FleetBaseline
        do throws(FormatError) { baseline = try FleetBaseline.read(bytes, file: path) } catch { throw .invalidInput(error.description) }
        for unknown in baseline.checkNames(devices: devices, apps: apps) {
            console.stderr.write("warning: \(DecisionText.escaped(path)):\(unknown.entry.line ?? 0): \(DecisionText.escaped(unknown.message))\n")
        }
        return baseline
    }

    /// Today, UTC, from the system clock.
    static func today() -> BaselineDate { BaselineDate(secondsSince1970: Int(time(nil))) }
}
