import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Baselines of accepted leak paths: reading (fail closed, file:line and key path), dates, and judging paths
/// (new, accepted, expired, resolved) with "today" given.
@Suite struct FleetBaselineTests {
    static let hr = try! BundleID("com.acme.hr")
    static let outlook = try! BundleID("com.microsoft.Office.Outlook")
    static let dropbox = try! BundleID("com.getdropbox.Dropbox")

    static func read(_ text: String) throws(FormatError) -> FleetBaseline { try FleetBaseline.read(Array(text.utf8), file: "baseline.json") }

    static func entry(device: String = "employee-iphone", from: String = "com.acme.hr", to: String = "com.microsoft.Office.Outlook",
                      reason: String = "SEC-142", expires: String = "2027-03-31") -> String {
        "{\"device\": \"\(device)\", \"from\": \"\(from)\", \"to\": \"\(to)\", \"reason\": \"\(reason)\", \"expires\": \"\(expires)\"}"
    }

    @Test func readsEntriesWithTheirLines() throws {
        let baseline = try Self.read("{\"accepted\": [\n  \(Self.entry()),\n  \(Self.entry(device: "*", to: "any other app", reason: "all devices"))\n]}")
        #expect(baseline.entries.count == 2)
        #expect(baseline.entries[0].device == "employee-iphone" && baseline.entries[0].to == .app(Self.outlook) && baseline.entries[0].line == 2)
        #expect(baseline.entries[1].device == nil && baseline.entries[1].deviceName == "*" && baseline.entries[1].to == .anyOtherApp)
        #expect(baseline.entries[0].expires == BaselineDate(year: 2027, month: 3, day: 31))
        #expect(try Self.read("{\"accepted\": []}").entries.isEmpty)
    }

    /// Every mistake is an error naming the file, the line and the key path; never an entry that accepts something.
    @Test(arguments: [
        ("{\"accepted\": [\n\(entry(reason: ""))]}", "baseline.json:2:", "accepted[0].reason: is empty"),
        ("{\"accepted\": [\n\(entry(reason: "  "))]}", "baseline.json:2:", "accepted[0].reason: is empty"),
        ("{\"accepted\": [\n{\"device\": \"d\", \"from\": \"com.a\", \"to\": \"com.b\", \"expires\": \"2027-01-01\"}]}", "baseline.json:2:", "reason is missing"),
        ("{\"accepted\": [\n{\"device\": \"d\", \"from\": \"com.a\", \"to\": \"com.b\", \"reason\": \"r\", \"expire\": \"2027-01-01\"}]}", "baseline.json:2:",
         "accepted[0].expire: unknown key. Did you mean 'expires'?"),
        ("{\"accepted\": [\n\(entry(expires: "2027-02-29"))]}", "baseline.json:2:", "\"2027-02-29\" is not a date"),
        ("{\"accepted\": [\n\(entry(expires: "2027-13-01"))]}", "baseline.json:2:", "is not a date"),
        ("{\"accepted\": [\n\(entry(expires: "31/03/2027"))]}", "baseline.json:2:", "is not a date"),
        ("{\"accepted\": [\n\(entry(expires: "2027-3-31"))]}", "baseline.json:2:", "is not a date"),
        ("{\"accepted\": [\n\(entry(expires: "2027-03-31T00:00:00Z"))]}", "baseline.json:2:", "is not a date"),
        ("{\"accepted\": [\n\(entry()),\n\(entry(reason: "again"))]}", "baseline.json:3:", "is accepted twice (also on line 2)"),
        ("{\"accepted\": [\n\(entry(from: "com acme"))]}", "baseline.json:2:", "accepted[0].from:"),
        ("{\"accepted\": [\n\(entry(device: ""))]}", "baseline.json:2:", "accepted[0].device: is empty"),
        ("{\"accepted\": {}}", "baseline.json:1:", "accepted: must be an array"),
        ("{\"acepted\": []}", "baseline.json:1:", "acepted: unknown key. Did you mean 'accepted'?"),
        ("{}", "baseline.json:1:1", "accepted is missing"),
        ("[]", "baseline.json:1:1", "must hold a JSON object"),
        ("{\"accepted\": [\n{\"device\": \"d\", \"from\": \"com.a\", \"to\": 3, \"reason\": \"r\", \"expires\": \"2027-01-01\"}]}", "baseline.json:2:", "accepted[0].to: must be a string"),
        ("{\"accepted\": [] ", "baseline.json:1:", "not valid JSON"),
    ])
    func mistakesAreErrorsAtTheirLine(_ text: String, _ place: String, _ message: String) {
        #expect(throws: FormatError.self) { try Self.read(text) }
        do {
            _ = try Self.read(text)
        } catch {
            #expect(error.description.hasPrefix(place), "\(error.description)")
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// Names are compared byte for byte: a KELVIN SIGN look-alike of a device is a different device, and
    /// two entries that differ only so are not duplicates.
    @Test func devicesAreComparedByBytes() throws {
        let baseline = try Self.read("{\"accepted\": [\(Self.entry(device: "wor\u{212A}")), \(Self.entry(device: "worK"))]}")
        var judge = baseline.judge(today: BaselineDate(year: 2026, month: 1, day: 1)!)
        #expect(judge.judge(device: "worK", from: Self.hr, to: .app(Self.outlook)).entry?.line == baseline.entries[1].line)
        #expect(judge.judge(device: "work", from: Self.hr, to: .app(Self.outlook)).state == .new)
        #expect(baseline.unknownDevices(among: ["worK"]).map(\.deviceName) == ["wor\u{212A}"])
    }

    @Test func datesAreDaysOfTheCalendar() {
        #expect(BaselineDate("2024-02-29") != nil)
        #expect(BaselineDate("2100-02-29") == nil)
        #expect(BaselineDate("2000-02-29") != nil)
        #expect(BaselineDate("2027-04-31") == nil)
        #expect(BaselineDate("0000-01-01") == nil)
        #expect(BaselineDate("２０２７-01-01") == nil)
        #expect(BaselineDate("2027-01-01")!.description == "2027-01-01")
        #expect(BaselineDate(secondsSince1970: 0) == BaselineDate(year: 1970, month: 1, day: 1))
        #expect(BaselineDate(secondsSince1970: 86_399) == BaselineDate(year: 1970, month: 1, day: 1))
        #expect(BaselineDate(secondsSince1970: 86_400) == BaselineDate(year: 1970, month: 1, day: 2))
        #expect(BaselineDate(secondsSince1970: 951_782_400) == BaselineDate(year: 2000, month: 2, day: 29))
        #expect(BaselineDate(secondsSince1970: 1_795_996_799) == BaselineDate(year: 2026, month: 11, day: 29))
        #expect(BaselineDate(secondsSince1970: -1) == BaselineDate(year: 1969, month: 12, day: 31))
        // Every day for 1,000 years follows the one before.
        var day = BaselineDate(year: 1970, month: 1, day: 1)!
        for days in 1..<365_250 {
            let next = BaselineDate(secondsSince1970: days * 86_400)
            #expect(next > day)
            if !(next > day) { break }
            let sameMonth = next.year == day.year && next.month == day.month && next.day == day.day + 1
            let nextMonth = next.day == 1 && ((next.year == day.year && next.month == day.month + 1) || (next.year == day.year + 1 && next.month == 1 && day.month == 12))
            #expect(sameMonth || (nextMonth && BaselineDate(year: day.year, month: day.month, day: day.day + 1) == nil))
            if !(sameMonth || nextMonth) { break }
            day = next
        }
    }

    /// The expiry is the last day the acceptance holds: accepted on it, expired the day after.
    @Test func expiryIsTheLastAcceptedDay() throws {
        let baseline = try Self.read("{\"accepted\": [\(Self.entry(expires: "2027-03-31"))]}")
        for (today, state) in [("2026-11-26", FleetBaseline.State.accepted), ("2027-03-31", .accepted), ("2027-04-01", .expired), ("2030-01-01", .expired)] {
            var judge = baseline.judge(today: BaselineDate(today)!)
            #expect(judge.judge(device: "employee-iphone", from: Self.hr, to: .app(Self.outlook)).state == state, "\(today)")
            #expect(judge.resolved.isEmpty)
        }
    }

    @Test func aDeviceEntryWinsOverStarAndUnmatchedEntriesAreResolved() throws {
        let baseline = try Self.read("""
            {"accepted": [
              \(Self.entry(device: "*", expires: "2020-01-01")),
              \(Self.entry(device: "employee-iphone", expires: "2030-01-01")),
              \(Self.entry(device: "*", to: "com.getdropbox.Dropbox"))
            ]}
            """)
        var judge = baseline.judge(today: BaselineDate("2026-11-26")!)
        #expect(judge.judge(device: "employee-iphone", from: Self.hr, to: .app(Self.outlook)).state == .accepted)
        #expect(judge.judge(device: "contractor-ipad", from: Self.hr, to: .app(Self.outlook)).state == .expired)
        #expect(judge.judge(device: "contractor-ipad", from: Self.hr, to: .anyOtherApp).state == .new)
        #expect(judge.judge(device: "contractor-ipad", from: Self.dropbox, to: .app(Self.outlook)).state == .new)
        #expect(judge.resolved.map(\.line) == [4])
    }

    /// Many entries on several devices: each path finds its own entry (the time is the benchmark's: `--fleet` times
    /// 100,000 entries against as many paths).
    @Test func matchingIsLinear() throws {
        var entries: [FleetBaseline.Entry] = []
        for index in 0..<100_000 {
            entries.append(FleetBaseline.Entry(device: "d\(index % 10)", from: try BundleID("com.app\(index)"), to: .app(Self.outlook), reason: "r",
                                               expires: BaselineDate(year: 2030, month: 1, day: 1)!, line: index + 2))
        }
        let baseline = try FleetBaseline(entries: entries)
        var judge = baseline.judge(today: BaselineDate(year: 2026, month: 1, day: 1)!)
        var accepted = 0
        for index in 0..<100_000 where judge.judge(device: "d\(index % 10)", from: try BundleID("com.app\(index)"), to: .app(Self.outlook)).state == .accepted {
            accepted += 1
        }
        #expect(accepted == 100_000)
        #expect(judge.resolved.isEmpty)
    }
}
