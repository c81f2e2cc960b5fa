import OpenInPolicy
import OpenInReports

/// `fleet fixes`: the vendor's fix subject, the fixes and the plan, written in the format asked for.
extension FleetFixesOutput {
    enum Format: String, OptionChoice { case text, json, markdown }

    /// The vendor's fix subject for the fleet file (or Intune export) read once as `input` and loaded as `analysis`.
    static func subject(_ input: VendorInput, analysis: FleetAnalysis, scope: FixScope) throws(CLIError) -> any FixSubject {
        do throws(FixError) { return try analysis.fixSubject(bytes: input.bytes, path: input.path, scope: scope) } catch { throw .invalidInput(error.message) }
    }

    /// The fixes and the plan; with a baseline, only the paths it does not accept (new or expired) are paths to close.
    /// With `budget`, at most that many candidates are verified (``FixBudget``).
    static func report(_ subject: any FixSubject, baseline: BaselineRun?, budget: Int? = nil) throws(CLIError) -> FleetFixReport {
        var counted: FleetFixes.Counted? = nil
        if let baseline {
            var judge = baseline.baseline.judge(today: BaselineRun.today())
            counted = { path in
                guard let from = try? BundleID(path.from) else { return true }
                return judge.judge(device: path.device, from: from, to: path.toNode).state != .accepted
            }
        }
        do throws(FixError) { return try FleetFixes.run(subject, counting: counted, budget: budget) } catch { throw .invalidInput(error.message) }
    }

    static func run(_ input: VendorInput, analysis: FleetAnalysis, devices: String?, scope: FixScope, baseline: BaselineRun?, format: Format,
                    console: Console) throws(CLIError) -> ExitStatus {
        let report = try report(try subject(input, analysis: analysis, scope: scope), baseline: baseline)
        switch format {
        case .json: console.stdout.write(JSONWriter.pretty(report.json) + "\n")
        case .text: console.stdout.write(text(report))
        case .markdown: console.stdout.write(markdown(report))
        }
        return report.paths.isEmpty ? .success : .notAllowed
    }
}
