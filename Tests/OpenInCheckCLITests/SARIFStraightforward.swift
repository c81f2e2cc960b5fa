import OpenInKit
import OpenInPolicy
@testable import OpenInReports

// The oracle of the streamed SARIF writer, kept with the tests that compare with it.
extension SARIFReport {
    /// The whole log made as one JSON value and written by the pretty JSON writer: the straightforward
    /// writer ``Stream`` writes the same bytes as (a test compares them on random fleets of both vendors).
    static func straightforward(_ devices: [DeviceReport], subject: ReportSubject) -> String {
        let driver = driver()
        let results = devices.flatMap { $0.paths.map { JSONValue.object(result($0, opened: subject.isDiff)) } }
        let run = JSONObject(members: [.init("tool", .object(JSONObject(["driver": .object(driver)]))), .init("columnKind", .string("unicodeCodePoints")),
                                       .init("results", .array(JSONArray(results)))])
        return JSONWriter.pretty(.object(JSONObject(members: [.init("$schema", .string(SARIFLog.schema)), .init("version", .string(SARIFLog.version)),
                                                              .init("runs", .array(JSONArray([.object(run)])))]))) + "\n"
    }
}
