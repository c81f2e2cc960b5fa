import OpenInPolicy
import OpenInReports

extension FleetOutput {
    static func fail(_ error: FleetError) -> CLIError { .invalidInput(error.description) }

    /// `fleet matrix` on devices of either vendor: every row made once before anything is printed (an
    /// error leaves no half-printed matrix), then each grid's rows made again as they are printed, so no
    /// matrix is ever held whole: memory O(apps) for a row plus the device's tables, not O(apps²).
    static func matrix(_ devices: [AnalyzedDevice], format: FleetCommand.MatrixFormat, console: Console) throws(CLIError) -> ExitStatus {
        let matrices = devices.map { $0.matrixRows() }
        do throws(FleetError) {
            for matrix in matrices { try matrix.check() }
            try print(matrices, format: format, to: console.stdout)
        } catch {
            throw fail(error)
        }
        return .success
    }

    // MARK: paths

    /// The `--from` value that asks for every app: each fleet app installed on the device, in file order.
    static let everyApp = ReportSubject.everyApp

    /// `fleet paths` on a fleet of either vendor: one block (text) or record (JSON) per device and starting app,
    /// each written as soon as it is made, so the output of `--from all` is never held whole (memory: the
    /// device's graph, every app's search result, and one app's paths at a time).
    static func paths(_ devices: [AnalyzedDevice], maxHops: Int?, writer: PathsWriter, finished: (PathsWriter) -> Void = { _ in }) throws(CLIError) -> ExitStatus {
        var writer = writer
        /// Each search of `device` (the one app's, or every starting app's over one graph), given to `body` in turn.
        func searches(_ device: AnalyzedDevice, _ body: (FleetReach) throws(FleetError) -> Void) throws(CLIError) {
            do throws(FleetError) {
                if let app = writer.app { try body(try device.reach(from: app, maxHops: maxHops)) } else { try device.forEachReach(maxHops: maxHops, body) }
            } catch {
                throw fail(error)
            }
        }
        if writer.format == .markdown {
            // Markdown leads with every device's counts: a first pass searches without deciding a hop.
            for device in devices { try searches(device) { (reach) throws(FleetError) in writer.count(device, app: reach.from, reach) } }
            writer.writeHeader()
        }
        for device in devices {
            try searches(device) { (reach) throws(FleetError) in
                // Text and JSON from each search's tree, each hop written once; the report formats decide only the hops they show.
                if writer.format.report != nil { try writer.emitReport(device, app: reach.from, reach) } else { try writer.emit(device, app: reach.from, reach: reach) }
            }
        }
        let fails = writer.finish()
        finished(writer)
        return fails ? .notAllowed : .success
    }
}
