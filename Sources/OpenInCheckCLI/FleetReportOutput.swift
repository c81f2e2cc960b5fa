import OpenInPolicy

enum FleetReportOutput {
    static func run(_ path: String, devices: String?, title: String?, console: Console) throws(CLIError) -> ExitStatus {
        throw .invalidInput("not yet")
    }
}
