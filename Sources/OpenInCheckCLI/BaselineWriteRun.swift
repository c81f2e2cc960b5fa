import OpenInPolicy
import OpenInReports

/// `fleet paths … --write-baseline FILE --reason TEXT --expires YYYY-MM-DD`: the run judges each path against
/// FILE (when it exists), prints as it would, then writes FILE (``BaselineWriter``).
struct BaselineWriteRun: Sendable, Equatable {
    /// The baseline file to write (and to merge with, when it exists).
    let file: String
    /// Why the new entries are accepted.
    let reason: String
    /// The last day the new entries hold.
    let expires: BaselineDate

    /// The three options, all or none; a missing, blank or malformed one is a usage error (nothing is written).
    static func parse(_ options: ParsedOptions) throws(UsageError) -> BaselineWriteRun? {
        let file = options.value("--write-baseline"), reason = options.value("--reason"), expires = options.value("--expires")
        guard let file else {
            if let given = [("--reason", reason), ("--expires", expires)].first(where: { $0.1 != nil }) {
                throw UsageError("'\(given.0)' goes with --write-baseline FILE: give the file to write", verb: "fleet")
            }
            return nil
        }
        guard let reason, !reason.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) else {
            throw UsageError("--write-baseline needs '--reason TEXT': say why the paths are accepted (a review, a ticket)", verb: "fleet")
        }
        guard let expires else { throw UsageError("--write-baseline needs '--expires YYYY-MM-DD': the last day (UTC) the acceptance holds", verb: "fleet") }
        guard let day = BaselineDate(expires) else {
            throw UsageError("'--expires' must be a day of the calendar as YYYY-MM-DD (UTC), such as 2027-03-31, not '\(expires)'", verb: "fleet")
        }
        if let baseline = options.value("--baseline"), baseline != file {
            throw UsageError("--write-baseline \(file) merges with that file and judges against it: give no other --baseline (got '\(baseline)')", verb: "fleet")
        }
        return BaselineWriteRun(file: file, reason: reason, expires: day)
    }

    /// Runs `fleet paths` with FILE as the baseline (empty when it does not exist yet), then writes FILE.
    /// - Returns: 0 when written, or 2 when a kept entry has expired (the gate still fails on its paths).
    func run(_ writer: PathsWriter, devices: [AnalyzedDevice], maxHops: Int?, analysis: FleetAnalysis, names: FleetAppNames,
             console: Console) throws(CLIError) -> ExitStatus {
        var existing: FleetBaseline
        if BaselineWriter.exists(file) {
            existing = try BaselineRun.read(file, devices: analysis.deviceNames, apps: names.known, console: console)
        } else {
            do throws(FormatError) { existing = try FleetBaseline(entries: [], file: file) } catch { throw .invalidInput(error.description) }
        }
        existing.recordsNewPaths = true
        var writer = writer
        let today = BaselineRun.today()
        writer.baseline = BaselineRun(existing, today: today, onlyTo: writer.targetNode)
        var judged: BaselineRun?
        _ = try FleetOutput.paths(devices, maxHops: maxHops, writer: writer) { judged = $0.baseline }
        guard let judged else { return .success }
        let merge = BaselineWriter.merge(existing, newPaths: judged.newPaths, resolved: judged.resolved, reason: reason, expires: expires, today: today)
        if let failure = BaselineWriter.write(BaselineWriter.json(merge.entries, description: existing.descriptionText), to: file) {
            throw .invalidInput("cannot write baseline file '\(file)': \(failure)")
        }
        console.stderr.write(BaselineWriteText.summary(file: file, merge: merge))
        return merge.expired.isEmpty ? .success : .notAllowed
    }
}
