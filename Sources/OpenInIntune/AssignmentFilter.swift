import OpenInCore
import OpenInFleet
import OpenInKit

/// An Intune assignment filter for managed apps: a rule over the app's and device's properties that
/// narrows an app protection policy's assignment (Microsoft Learn, "Use filters when assigning your
/// apps, policies, and profiles": an include filter reaches the devices where the rule holds, an
/// exclude filter those where it does not).
///
/// The rule is parsed once, when the filter is made, in the managed-app language of Microsoft Learn's
/// "App and device properties, operators, and rule editing when creating assignment filters"
/// (``FilterRuleParser``); anything outside it is refused with the file, line and the character in
/// the rule.
struct AssignmentFilter: Sendable {
    /// Graph's `@odata.type` of a filter object.
    static let odataType = "#microsoft.graph.deviceAndAppManagementAssignmentFilter"
    /// The one `platform` whose filters apply to iOS app protection policies.
    static let platform = "iOSMobileApplicationManagement"

    /// The filter's `id` (IntuneCD's backups drop it: references then use the display name).
    package let id: String?
    /// The filter's `displayName`.
    package let displayName: String
    /// The rule as written.
    package let rule: String
    /// Where the filter was read, when known.
    package let file: String?
    package let line: Int?
    /// The parsed rule; `nil` for a filter app protection cannot use (``unusable``), whose rule is not read.
    let expression: FilterExpression?
    /// The properties the rule reads, each once, in order of first use.
    let properties: [FilterProperty]
    /// Why an app protection policy cannot use the filter (a filter for managed devices, or for another
    /// platform, read from an export folder beside the managed-app ones); `nil` for a managed-app filter for iOS.
    let unusable: String?

    /// Parses `rule` once.
    /// - Throws: ``FleetError`` at `file:line` naming the filter, the character in the rule, what is wrong and the fix.
    package init(id: String?, displayName: String, rule: String, file: String?, line: Int?) throws(FleetError) {
        do throws(FilterRuleParser.Failure) {
            try self.init(parsing: rule, id: id, displayName: displayName, file: file, line: line)
        } catch {
            throw FleetError("assignment filter \(JSONWriter.quoted(displayName)): rule, character \(error.character): \(error.message)", file: file, line: line)
        }
    }

    private init(parsing rule: String, id: String?, displayName: String, file: String?, line: Int?) throws(FilterRuleParser.Failure) {
        self.id = id
        self.displayName = displayName
        self.rule = rule
        self.file = file
        self.line = line
        let expression = try FilterRuleParser.parse(rule)
        self.expression = expression
        var found: [FilterProperty] = []
        Self.collect(expression, into: &found)
        properties = found
        unusable = nil
    }

    /// A filter an app protection policy cannot use, kept so that a reference to it is refused naming `why`.
    private init(unusable why: String, id: String?, displayName: String, rule: String, file: String?, line: Int?) {
        self.id = id
        self.displayName = displayName
        self.rule = rule
        self.file = file
        self.line = line
        expression = nil
        properties = []
        unusable = why
    }

    /// Where the filter was read, as a message names it: ` (FILE:LINE)`, or empty.
    package var place: String {
        switch (file, line) {
        case (let file?, let line?): " (\(Printable.text(file)):\(line))"
        case (let file?, nil): " (\(Printable.text(file)))"
        default: ""
        }
    }

    /// Recursion as deep as the rule's parentheses: at most ``FilterRuleParser/maximumDepth``.
    private static func collect(_ expression: FilterExpression, into found: inout [FilterProperty]) {
        switch expression {
        case .clause(let clause): if !found.contains(clause.property) { found.append(clause.property) }
        case .all(let parts), .any(let parts): for part in parts { collect(part, into: &found) }
        }
    }

    /// Whether the rule holds for `subject`, the app on `device`.
    ///
    /// Every property the rule reads must be given, even one a short-circuit would skip: the answer
    /// never depends on a value nobody stated.
    /// - Throws: ``FleetError`` naming the filter, the property and the device when the subject does not give
    ///   a property the rule reads, or gives a value the rule cannot compare.
    func matches(_ subject: FilterSubject, device: String) throws(FleetError) -> Bool {
        guard let expression, unusable == nil else {
            throw FleetError("assignment filter \(JSONWriter.quoted(displayName)) cannot narrow an app protection policy: \(unusable ?? "its rule was not read")", file: file, line: line)
        }
        for property in properties where subject[property] == nil {
            throw FleetError("assignment filter \(JSONWriter.quoted(displayName)) reads \(property.spelled), and device \(JSONWriter.quoted(device)) does not give its \(property.rawValue): give it in the devices file (a filter is never evaluated on a guess)", file: file, line: line)
        }
        return try evaluate(expression, subject, device: device)
    }

    private func evaluate(_ expression: FilterExpression, _ subject: FilterSubject, device: String) throws(FleetError) -> Bool {
        switch expression {
        case .clause(let clause): return try holds(clause, subject[clause.property] ?? "", device: device)
        case .all(let parts):
            for part in parts where !(try evaluate(part, subject, device: device)) { return false }
            return true
        case .any(let parts):
            for part in parts where try evaluate(part, subject, device: device) { return true }
            return false
        }
    }

    private func holds(_ clause: FilterClause, _ given: String, device: String) throws(FleetError) -> Bool {
        func problem(_ text: String) -> FleetError {
            FleetError("assignment filter \(JSONWriter.quoted(displayName)) on device \(JSONWriter.quoted(device)): \(text)", file: file, line: line)
        }
        if clause.property == .deviceManagementType, !["managed", "unmanaged"].contains(ExactText.asciiLowercased(given)) {
            throw problem("its app's deviceManagementType is \(JSONWriter.quoted(given)), not Managed or Unmanaged")
        }
        if case .null = clause.value {
            // Null: the device reports no value (an empty string).
            return given.isEmpty == (clause.op == .eq)
        }
        if clause.property == .operatingSystemVersion, let wanted = clause.version {
            guard let have = IntuneSDKVersion(given) else {
                throw problem("its operatingSystemVersion \(JSONWriter.quoted(given)) is not a version (one to four numbers separated by dots)")
            }
            let equal = !(have < wanted) && !(wanted < have)
            switch clause.op {
            case .eq: return equal
            case .ne: return !equal
            case .gt: return wanted < have
            case .ge: return !(have < wanted)
            case .lt: return have < wanted
            case .le: return !(wanted < have)
            default: return false  // the parser admits no other operator for a version
            }
        }
        let value = Array(ExactText.asciiLowercased(given).utf8)
        func lowered(_ text: String) -> [UInt8] { Array(ExactText.asciiLowercased(text).utf8) }
        switch (clause.op, clause.value) {
        case (.eq, .text(let text)): return value == lowered(text)
        case (.ne, .text(let text)): return value != lowered(text)
        case (.startsWith, .text(let text)): return value.starts(with: lowered(text))
        case (.contains, .text(let text)): return ExactText.contains(bytes: value, lowered(text))
        case (.notContains, .text(let text)): return !ExactText.contains(bytes: value, lowered(text))
        case (.in, .list(let items)): return items.contains { lowered($0) == value }
        case (.notIn, .list(let items)): return !items.contains { lowered($0) == value }
        default: return false  // the parser admits no other pairing
        }
    }
}

/// What a filter reads of one app on one device: each property as the device reports it, `nil` when
/// the devices file does not give it.
package struct FilterSubject: Sendable {
    /// `Managed` or `Unmanaged`: the app's management type (MDM-enrolled and given `IntuneMAMUPN`, or not).
    package var deviceManagementType: String?
    package var appVersion: String?
    package var deviceManufacturer: String?
    package var deviceModel: String?
    package var osVersion: String?
    package var operatingSystemVersion: String?

    package init(deviceManagementType: String? = nil, appVersion: String? = nil, deviceManufacturer: String? = nil, deviceModel: String? = nil,
                 osVersion: String? = nil, operatingSystemVersion: String? = nil) {
        self.deviceManagementType = deviceManagementType
        self.appVersion = appVersion
        self.deviceManufacturer = deviceManufacturer
        self.deviceModel = deviceModel
        self.osVersion = osVersion
        self.operatingSystemVersion = operatingSystemVersion
    }

    /// The value of `property`, when given.
    package subscript(property: FilterProperty) -> String? {
        switch property {
        case .deviceManagementType: deviceManagementType
        case .appVersion: appVersion
        case .deviceManufacturer: deviceManufacturer
        case .deviceModel: deviceModel
        case .osVersion: osVersion
        case .operatingSystemVersion: operatingSystemVersion
        }
    }
}

extension AssignmentFilter {
    /// Properties of a Graph filter object the reader checks for type and ignores.
    static let ignored = ["description", "createdDateTime", "lastModifiedDateTime", "roleScopeTags", "roleScopeTagIds", "payloads"]

    /// Reads one filter: a Graph `deviceAndAppManagementAssignmentFilter` object as Graph and the backup
    /// tools write it (`@odata.type`, `id`, `displayName`, `description`, `platform`, `rule`,
    /// `assignmentFilterManagementType`; IntuneCD drops `id`), or an entry of the devices file's
    /// `assignmentFilters` (`{"id", "displayName", "rule"}`).
    ///
    /// A filter for another platform or for managed devices is refused: Microsoft Learn, "Supported
    /// workloads when creating filters": "For managed devices, filters aren't supported for app
    /// protection policies."
    /// - Throws: `FormatError` in `file` at the offending value, naming its key path and the fix.
    /// - Parameter tenant: whether the filter comes from a backup of the tenant's filters (an export folder),
    ///   which holds filters for managed devices and other platforms too: such a filter is kept, marked
    ///   ``unusable`` (its rule not read), and refused only when an app protection assignment names it.
    package static func read(_ cursor: JSONCursor, file: String, tenant: Bool = false) throws(FormatError) -> AssignmentFilter {
        do throws(FormatError) {
            return try read(cursor, fileName: file, tenant: tenant)
        } catch {
            throw error.inFile(file)
        }
    }

    private static func read(_ cursor: JSONCursor, fileName: String, tenant: Bool) throws(FormatError) -> AssignmentFilter {
        let known = ["@odata.type", "id", "displayName", "rule", "platform", "assignmentFilterManagementType"] + ignored
        var fields: [String: JSONCursor] = [:]
        for (key, value, position) in try cursor.anyMembers(what: "an assignment filter {\"displayName\", \"rule\", …}") {
            // OData annotations (`@odata.context`, and `NAME@odata.type` as IntuneManagement writes them) are not the filter's.
            if !ExactText.same(key, "@odata.type"), ExactText.contains(key, "@odata.") { continue }
            guard ExactText.isOne(key, of: known) else {
                let nonASCII = ExactText.asciiProblem(in: key).map { " (\($0))" } ?? ""
                throw FormatError("\(value.path): unknown key in an assignment filter\(nonASCII).\(Suggestion.phrase(for: key, among: known)) Known keys: \(known.joined(separator: ", "))",
                                  at: position)
            }
            fields[key] = value
        }
        let graphObject = fields["@odata.type"] != nil
        if let type = fields["@odata.type"] {
            let text = try type.string()
            guard ExactText.same(text, odataType) else {
                throw type.error("unknown @odata.type \(JSONWriter.quoted(text)): an assignment filter is \(odataType).\(Suggestion.phrase(for: text, among: [odataType]))")
            }
        }
        for key in ignored { if let field = fields[key], !isNull(field) { try checkIgnored(field, key) } }
        func text(_ key: String) throws(FormatError) -> String? {
            guard let field = fields[key], !isNull(field) else { return nil }
            return try field.string()
        }
        let id = try text("id")
        guard let name = try text("displayName") else {
            throw cursor.error("has no displayName: an assignment filter is {\"id\", \"displayName\", \"rule\"} (policies name it by id, or, as IntuneCD writes, by display name)")
        }
        let why = "Microsoft Learn, \"Supported workloads when creating filters\": for managed devices, filters aren't supported for app protection policies; an iOS app protection policy takes a filter whose platform is \(platform) and assignmentFilterManagementType apps"
        // In a backup of the tenant's filters, one app protection cannot use is kept aside, not refused.
        func unusable(_ field: JSONCursor, _ message: String, reason: String) throws(FormatError) -> AssignmentFilter {
            guard tenant else { throw field.error(message) }
            var rule = ""
            if case .string(let text)? = fields["rule"]?.value { rule = text }
            return AssignmentFilter(unusable: "\(reason): \(why)", id: id, displayName: name, rule: rule, file: fileName, line: cursor.position?.line)
        }
        if let field = fields["platform"], let value = try text("platform") {
            guard ExactText.same(value, platform) else {
                let kind = value.hasSuffix("MobileApplicationManagement") ? "a filter for another platform's app protection" : "a filter for managed devices"
                return try unusable(field, "is \(JSONWriter.quoted(value)), \(kind): \(why)", reason: "its platform is \(JSONWriter.quoted(value)), \(kind)")
            }
        } else if graphObject {
            return try unusable(cursor, "has no platform: \(why)", reason: "it has no platform")
        }
        if let field = fields["assignmentFilterManagementType"], let value = try text("assignmentFilterManagementType") {
            guard ExactText.same(value, "apps") else {
                return try unusable(field, "is \(JSONWriter.quoted(value)), not apps: \(why)", reason: "its assignmentFilterManagementType is \(JSONWriter.quoted(value)), a filter for managed devices")
            }
        }
        guard let ruleField = fields["rule"], let rule = try text("rule") else {
            throw cursor.error("has no rule: an assignment filter is {\"id\", \"displayName\", \"rule\"}")
        }
        do throws(FilterRuleParser.Failure) {
            return try AssignmentFilter(parsing: rule, id: id, displayName: name, file: fileName, line: cursor.position?.line)
        } catch {
            throw ruleField.error("character \(error.character) of the rule: \(error.message)")
        }
    }

    private static func isNull(_ cursor: JSONCursor) -> Bool { if case .null = cursor.value { true } else { false } }

    private static func checkIgnored(_ field: JSONCursor, _ key: String) throws(FormatError) {
        switch key {
        case "roleScopeTags", "roleScopeTagIds": _ = try field.strings(what: "role scope tag ids")
        case "payloads": _ = try field.elements(what: "payloadByFilter objects")
        default: _ = try field.string()
        }
    }
}

/// The assignment filters of a tenant, looked up as assignments name them: by `id` (Graph), or by
/// display name (IntuneCD overwrites `deviceAndAppManagementAssignmentFilterId` with the filter's name).
struct AssignmentFilters: Sendable {
    /// The filters, in the order read.
    package let all: [AssignmentFilter]
    /// No filter.
    package static let none = AssignmentFilters(checked: [])

    private init(checked: [AssignmentFilter]) { all = checked }

    /// Checks that no id and no display name is carried by two filters (a reference by either would be ambiguous).
    /// - Throws: ``FleetError`` at the second filter, naming the first.
    package init(_ filters: [AssignmentFilter]) throws(FleetError) {
        var ids: [ExactKey: AssignmentFilter] = [:]
        var names: [ExactKey: AssignmentFilter] = [:]
        for filter in filters {
            func place(_ other: AssignmentFilter) -> String {
                switch (other.file, other.line) {
                case (let file?, let line?): " (\(Printable.text(file)):\(line))"
                case (let file?, nil): " (\(Printable.text(file)))"
                default: ""
                }
            }
            if let id = filter.id, let first = ids[ExactKey(id)] {
                throw FleetError("assignment filters \(JSONWriter.quoted(first.displayName))\(place(first)) and \(JSONWriter.quoted(filter.displayName)) have the same id \(JSONWriter.quoted(id)): keep one", file: filter.file, line: filter.line)
            }
            if let first = names[ExactKey(filter.displayName)] {
                throw FleetError("two assignment filters are named \(JSONWriter.quoted(filter.displayName)) (the first\(place(first))): a reference by name (as IntuneCD writes them) would be ambiguous; rename one", file: filter.file, line: filter.line)
            }
            if let id = filter.id { ids[ExactKey(id)] = filter }
            names[ExactKey(filter.displayName)] = filter
        }
        all = filters
    }

    /// The filter an assignment's `deviceAndAppManagementAssignmentFilterId` names: its id, else its display
    /// name, compared byte for byte; `nil` when none has it.
    package func filter(named reference: String) -> AssignmentFilter? { position(named: reference).map { all[$0] } }

    /// The position in ``all`` of the filter ``filter(named:)`` finds.
    package func position(named reference: String) -> Int? {
        all.firstIndex { $0.id.map { ExactText.same($0, reference) } ?? false } ?? all.firstIndex { ExactText.same($0.displayName, reference) }
    }

    /// Reads filters from a document: one filter object, an array of them, or a Graph list response
    /// (`{"value": [...]}`, as `GET /beta/deviceManagement/assignmentFilters` returns it).
    /// - Throws: `FormatError` in `file` at the offending value.
    package static func read(_ cursor: JSONCursor, file: String, tenant: Bool = false) throws(FormatError) -> [AssignmentFilter] {
        switch cursor.value {
        case .array:
            var filters: [AssignmentFilter] = []
            for element in try cursor.elements(what: "assignment filters") { filters.append(try AssignmentFilter.read(element, file: file, tenant: tenant)) }
            return filters
        case .object(let object) where object["value"] != nil && object["@odata.type"] == nil:
            guard let member = object.member("value") else { return [] }
            if object.member("@odata.nextLink") != nil {
                throw cursor.error("@odata.nextLink: the list of assignment filters is one page of several: fetch every page (follow each @odata.nextLink) and save them all").inFile(file)
            }
            return try read(JSONCursor(member.value, path: "value", position: member.valuePosition), file: file, tenant: tenant)
        default:
            return [try AssignmentFilter.read(cursor, file: file, tenant: tenant)]
        }
    }
}
