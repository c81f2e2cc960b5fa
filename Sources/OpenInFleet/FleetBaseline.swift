import OpenInCore
import OpenInKit

/// A baseline of accepted leak paths: the paths to outside a security review has accepted, each
/// with its reason and an expiry, so a CI gate fails only on paths that are new or whose acceptance
/// has expired (`fleet paths --baseline FILE`, `fleet diff --baseline FILE`).
///
/// ```json
/// {"accepted": [{"device": "employee-iphone", "from": "com.acme.hr", "to": "com.microsoft.Office.Outlook",
///                "reason": "approved in SEC-142", "expires": "2027-03-31"}]}
/// ```
///
/// A top-level `description` (a string) is allowed. `device` is a device profile's name or `*` (every device); `to` a bundle ID or `any other app`,
/// or a list of them (one entry for each, sharing the reason and expiry: what `fleet paths --write-baseline` writes);
/// `expires` a UTC date, `YYYY-MM-DD`, the last day the acceptance holds. Fails closed: an unknown
/// key (with "Did you mean"), a missing or empty `reason`, a malformed or impossible date, or the
/// same (device, from, to) accepted twice is an error with the file, line and key path. Names are
/// compared byte for byte.
public struct FleetBaseline: Sendable {
    /// One accepted path.
    public struct Entry: Sendable, Hashable {
        /// The device profile, or `nil` for `*` (every device).
        public let device: String?
        /// The app the documents start in.
        public let from: BundleID
        /// The app outside they reach (or "any other app").
        public let to: FleetNode
        /// Why the path is accepted.
        public let reason: String
        /// The last day (UTC) the acceptance holds.
        public let expires: BaselineDate
        /// The entry's line in the baseline file, when read from one.
        public let line: Int?

        /// Creates an entry; `device` `nil` accepts the path on every device.
        public init(device: String?, from: BundleID, to: FleetNode, reason: String, expires: BaselineDate, line: Int? = nil) {
            (self.device, self.from, self.to, self.reason, self.expires, self.line) = (device, from, to, reason, expires, line)
        }

        /// How output names the entry's device: its name, or `*`.
        public var deviceName: String { device ?? FleetBaseline.everyDevice }
    }

    /// The accepted paths, in file order (an entry whose `to` is a list gives one for each destination).
    public let entries: [Entry]
    /// The file's path as the user gave it, when read from one.
    public let file: String?
    /// The file's top-level `description`, when it has one.
    public let descriptionText: String?
    /// The positions in ``entries`` of those naming a device or app the fleet does not know
    /// (`checkNames(devices:apps:)`): they can never match, and are never called resolved.
    private(set) var unmatchable: Set<Int> = []
    /// Whether a judge remembers the paths no entry accepts (for writing a baseline).
    public var recordsNewPaths = false

    /// The `device` that accepts a path on every device.
    public static let everyDevice = "*"

    package static let topLevelKeys = ["description", "accepted", "$schema"]
    static let entryKeys = ["device", "from", "to", "reason", "expires"]

    /// Reads a baseline file's text.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path to name in errors.
    /// - Throws: `FormatError` located in `file`, with the key path, line and column of the first problem.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> FleetBaseline where Bytes.Element == UInt8 {
        try FormatError.readJSON(bytes, file: file) { value throws(FormatError) in
            let (entries, description) = try entries(value)
            return try FleetBaseline(entries: entries, file: file, description: description)
        }
    }

    /// A baseline of `entries`, none of which may accept the same (device, from, to) as another.
    /// - Throws: `FormatError` naming the second entry of a repeated (device, from, to).
    public init(entries: [Entry], file: String? = nil, description: String? = nil) throws(FormatError) {
        var seen: [EntryKey: Entry] = [:]
        for entry in entries {
            if let first = seen.updateValue(entry, forKey: EntryKey(entry)) {
                throw FormatError("the path \(entry.deviceName): \(entry.from) → \(entry.to) is accepted twice (also on line \(first.line ?? 0)): keep one entry",
                                  line: entry.line, file: file)
            }
        }
        self.entries = entries
        self.file = file
        descriptionText = description
    }

    package static func entries(_ value: JSONValue) throws(FormatError) -> ([Entry], String?) {
        let root = JSONCursor(value, position: JSONPosition(line: 1, column: 1))
        guard case .object = value else {
            throw root.error("a baseline file must hold a JSON object, {\"accepted\": [...]}, not \(root.found)")
        }
        let fields = try root.members(allowed: topLevelKeys, what: "the baseline")
        let description = try fields["description"].map { (field) throws(FormatError) in try field.string() }
        guard let accepted = fields["accepted"] else {
            throw FormatError("accepted is missing: give {\"accepted\": [{\"device\", \"from\", \"to\", \"reason\", \"expires\"}]} (an empty list accepts nothing)",
                              at: JSONPosition(line: 1, column: 1))
        }
        var result: [Entry] = []
        var seen: [EntryKey: Int] = [:]
        for element in try accepted.elements(what: "the accepted paths") {
            for entry in try readEntry(element) {
                if let first = seen.updateValue(element.position?.line ?? 0, forKey: EntryKey(entry)) {
                    throw element.error("the path \(entry.deviceName): \(entry.from) → \(entry.to) is accepted twice (also on line \(first)): keep one entry")
                }
                result.append(entry)
            }
        }
        return (result, description)
    }

    /// One element of `accepted`: one entry, or one for each destination of a `to` list.
    static func readEntry(_ cursor: JSONCursor) throws(FormatError) -> [Entry] {
        let fields = try cursor.members(allowed: entryKeys, what: "an accepted path: device, from, to, reason, expires")
        func required(_ key: String, _ hint: String) throws(FormatError) -> JSONCursor {
            guard let field = fields[key] else { throw cursor.error("\(key) is missing: \(hint)") }
            return field
        }
        let deviceField = try required("device", "give the device profile's name, or \"*\" for every device")
        let device = try deviceField.string()
        if device.isEmpty { throw deviceField.error("is empty: give the device profile's name, or \"*\" for every device") }
        let fromField = try required("from", "give the bundle ID of the app the documents start in")
        let toField = try required("to", "give the bundle ID of the app outside they reach, or \"\(FleetNode.anyOtherAppName)\"")
        let reasonField = try required("reason", "say why the path is accepted (a review, a ticket)")
        let reason = try reasonField.string()
        if reason.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            throw reasonField.error("is empty: say why the path is accepted (a review, a ticket)")
        }
        let expiresField = try required("expires", "give the last day the acceptance holds, YYYY-MM-DD (UTC)")
        let text = try expiresField.string()
        guard let expires = BaselineDate(text) else {
            throw expiresField.error("\(JSONWriter.quoted(text)) is not a date: give a day of the calendar as YYYY-MM-DD (UTC), such as 2027-03-31")
        }
        let destinations: [JSONCursor]
        if case .array = toField.value {
            destinations = try toField.elements(what: "the apps outside the documents reach")
            if destinations.isEmpty { throw toField.error("is an empty list: give at least one bundle ID (or \"\(FleetNode.anyOtherAppName)\")") }
        } else {
            destinations = [toField]
        }
        let from = try bundleID(fromField)
        return try destinations.map { (field) throws(FormatError) in
            let toText = try field.string()
            let to: FleetNode = ExactText.same(toText, FleetNode.anyOtherAppName) ? .anyOtherApp : .app(try bundleID(field))
            return Entry(device: ExactText.same(device, everyDevice) ? nil : device, from: from, to: to,
                         reason: reason, expires: expires, line: cursor.position?.line)
        }
    }

    package static func bundleID(_ cursor: JSONCursor) throws(FormatError) -> BundleID {
        let text = try cursor.string()
        do throws(InputError) {
            return try BundleID(text)
        } catch {
            throw cursor.error(error.description)
        }
    }

    /// The device names the entries give that are not in `devices` (`*` aside), each with its entry:
    /// such an entry can never match, which a caller should say.
    public func unknownDevices(among devices: [String]) -> [Entry] {
        let known = Set(devices.map(ExactKey.init))
        return entries.filter { entry in entry.device.map { !known.contains(ExactKey($0)) } ?? false }
    }

    /// A name in an entry that the fleet does not know: the entry can never match.
    public struct UnknownName: Sendable {
        /// The entry.
        public let entry: Entry
        /// `device`, `from` or `to`.
        public let field: String
        /// The name as the entry gives it.
        public let name: String
        /// " Did you mean 'x'?" (a device or app one or two edits away), or empty.
        public let suggestion: String

        /// `accepted[]: to com.acme.vewer is not an app of the fleet, so the entry can never match. Did you mean 'com.acme.viewer'?`
        public var message: String {
            let what = field == "device" ? "a device of the fleet" : "an app of the fleet"
            return "accepted[]: \(field) \(name) is not \(what), so the entry can never match (and is never called resolved).\(suggestion)"
        }
    }

    /// Checks every entry's `device`, `from` and `to` against the fleet's device profiles (`devices`)
    /// and apps (`apps`, byte for byte as a path names them; native Mail and "any other app" are
    /// known as a destination): each unknown name is returned with "Did you mean", and its entry is
    /// never called resolved by a judge made afterwards.
    /// With `apps` `nil`, only devices are checked.
    public mutating func checkNames(devices: [String], apps: [BundleID]?) -> [UnknownName] {
        let knownDevices = Set(devices.map(ExactKey.init))
        let knownApps = Set((apps ?? []).map { ExactKey($0.rawValue) })
        let appNames = (apps ?? []).map(\.rawValue)
        var unknown: [UnknownName] = []
        var unmatchable: Set<Int> = []
        for (position, entry) in entries.enumerated() {
            func flag(_ field: String, _ name: String, among candidates: [String]) {
                unknown.append(UnknownName(entry: entry, field: field, name: name, suggestion: Suggestion.phrase(for: name, among: candidates)))
                unmatchable.insert(position)
            }
            if let device = entry.device, !knownDevices.contains(ExactKey(device)) { flag("device", device, among: devices) }
            guard apps != nil else { continue }
            if !knownApps.contains(ExactKey(entry.from.rawValue)) { flag("from", entry.from.rawValue, among: appNames) }
            if case .app(let id) = entry.to, !id.isNativeMail, !knownApps.contains(ExactKey(id.rawValue)) {
                flag("to", id.rawValue, among: appNames + ["com.apple.mobilemail", FleetNode.anyOtherAppName])
            }
        }
        self.unmatchable = unmatchable
        return unknown
    }

    /// A judge for paths found on `today` (a UTC date).
    public func judge(today: BaselineDate) -> Judge { Judge(self, today: today) }

    /// What a leak path is, against a baseline.
    public enum State: String, Sendable, Hashable {
        /// No entry accepts it: the gate fails.
        case new
        /// An entry accepts it, and its expiry is today or later.
        case accepted
        /// An entry accepted it until a day before today: the gate fails.
        case expired
    }

    /// Judges paths one by one against the baseline, remembering which entries matched.
    ///
    /// An entry for the path's device wins over a `*` entry for the same (from, to).
    /// - Complexity: O(entries) to make, O(1) per path (hash lookups), O(entries) for ``resolved``.
    public struct Judge: Sendable {
        private let baseline: FleetBaseline
        private let today: BaselineDate
        private let index: [EntryKey: Int]
        private var matched: [Bool]
        /// The paths judged new, in order, when the baseline ``recordsNewPaths``.
        package private(set) var newPaths: [(device: String, from: BundleID, to: FleetNode)] = []

        package init(_ baseline: FleetBaseline, today: BaselineDate) {
            self.baseline = baseline
            self.today = today
            var index: [EntryKey: Int] = [:]
            for (position, entry) in baseline.entries.enumerated() { index[EntryKey(entry)] = position }
            self.index = index
            matched = Array(repeating: false, count: baseline.entries.count)
        }

        /// The state of the path from `from` to `to` on `device`, with the entry that decided it (none for a new path).
        public mutating func judge(device: String, from: BundleID, to: FleetNode) -> (state: State, entry: Entry?) {
            guard let position = index[EntryKey(device: device, from: from, to: to)] ?? index[EntryKey(device: nil, from: from, to: to)] else {
                if baseline.recordsNewPaths { newPaths.append((device, from, to)) }
                return (.new, nil)
            }
            matched[position] = true
            let entry = baseline.entries[position]
            return (entry.expires >= today ? .accepted : .expired, entry)
        }

        /// The entries no judged path matched, in file order: paths that no longer exist, which the file can drop.
        /// An entry naming a device or app the fleet does not know (`checkNames(devices:apps:)`) is never resolved:
        /// the path it meant may well exist.
        public var resolved: [Entry] {
            baseline.entries.indices.filter { !matched[$0] && !baseline.unmatchable.contains($0) }.map { baseline.entries[$0] }
        }

        /// Whether the entry at `position` in the baseline matched a judged path.
        package func matched(_ position: Int) -> Bool { matched[position] }
    }

    /// (device or `*`, from, to), compared byte for byte.
    struct EntryKey: Hashable, Sendable {
        package let device: ExactKey?
        package let from: BundleID
        package let to: FleetNode

        package init(device: String?, from: BundleID, to: FleetNode) {
            self.device = device.map(ExactKey.init)
            self.from = from
            self.to = to
        }

        package init(_ entry: Entry) { self.init(device: entry.device, from: entry.from, to: entry.to) }
    }
}

/// A day of the Gregorian calendar (UTC), as a baseline's `expires` gives it: `YYYY-MM-DD`.
public struct BaselineDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to its last day.
    public let day: Int

    /// The date `text` writes as `YYYY-MM-DD` (four, two and two ASCII digits), or `nil` when it is
    /// malformed or no such day exists (2027-02-29, 2027-13-01).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The date, or `nil` when no such day exists.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The UTC day `secondsSince1970` seconds after 1970-01-01T00:00:00Z falls on.
    public init(secondsSince1970: Int) {
        // Days to a civil date (the proleptic Gregorian calendar), by 400-year eras.
        let days = secondsSince1970 >= 0 ? secondsSince1970 / 86_400 : (secondsSince1970 - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        (year, self.month, self.day) = (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(month) + "-" + two(day)
    }

    /// Whether `lhs` is an earlier day than `rhs`.
    public static func < (lhs: BaselineDate, rhs: BaselineDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
