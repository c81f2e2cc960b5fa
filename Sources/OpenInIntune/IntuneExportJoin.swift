import OpenInCore
import OpenInFleet
import OpenInKit

/// What an export folder holds beside its policies that says who they reach (`Rules/intune/README.md`,
/// "Who a policy reaches"): the groups map of IntuneManagement's `MigrationTable.json` and the filter
/// objects the backup tools save (IntuneCD `Filters/`, IntuneManagement `AssignmentFilters/`,
/// `Assignment Filters/`). ``IntuneFleet/join(_:devicesFile:)`` merges them with the devices file's.
package struct IntuneExportFacts: Sendable {
    /// One group of a migration table: its object id and display name, where it was read.
    package struct Group: Sendable {
        package var id: String
        package var name: String
        package var file: String
        package var line: Int?
    }

    /// The groups by object id, from every migration table of the folder.
    var groups: [Group] = []
    /// The filters read from the folder's filter files, in file order.
    var filters: [AssignmentFilter] = []

    package init() {}
}

extension IntuneGraphJSON {
    /// Reads IntuneManagement's `MigrationTable.json`, `{"TenantId", "Organization", "Objects": [{"Id",
    /// "DisplayName", "Type"}]}` (Micke-K/IntuneManagement, `Extensions/MSGraph.psm1`,
    /// `Add-GraphMigrationObjectToFile`): its objects of type `Group` are the groups map; users are not groups.
    /// - Throws: `FormatError` in `file` for another shape, or one id or one name given twice with different partners.
    static func migrationTable(_ bytes: [UInt8], file: String) throws(FormatError) -> [IntuneExportFacts.Group] {
        let (value, start) = try document(bytes, file: file)
        do throws(FormatError) {
            let root = JSONCursor(value, position: start)
            let fields = try root.members(allowed: ["TenantId", "Organization", "Objects"], what: "IntuneManagement's migration table {\"TenantId\", \"Organization\", \"Objects\": [...]}")
            for key in ["TenantId", "Organization"] { if let field = fields[key], !isNull(field) { _ = try field.string() } }
            guard let objects = fields["Objects"] else {
                throw root.error("has no Objects: IntuneManagement's migration table lists the objects the export refers to, {\"Objects\": [{\"Id\", \"DisplayName\", \"Type\": \"Group\"}]}")
            }
            var groups: [IntuneExportFacts.Group] = []
            var byID: [ExactKey: String] = [:], byName: [ExactKey: String] = [:]
            for element in try objects.elements(what: "the objects the export refers to {\"Id\", \"DisplayName\", \"Type\"}") {
                let object = try element.members(allowed: ["Id", "DisplayName", "Type"], what: "a migration table object {\"Id\", \"DisplayName\", \"Type\"}")
                guard let idField = object["Id"], let typeField = object["Type"] else {
                    throw element.error("needs Id and Type: IntuneManagement writes {\"Id\", \"DisplayName\", \"Type\"} for each object")
                }
                let id = try idField.string(), type = try typeField.string()
                // Users (and anything else) are not groups: assignments of app protection name groups only.
                guard ExactText.same(type, "Group") else { continue }
                guard let nameField = object["DisplayName"], !isNull(nameField) else { throw element.error("has no DisplayName: give the group's display name") }
                let name = try nameField.string()
                if id.isEmpty { throw idField.error("is empty: give the group's object id") }
                if name.isEmpty { throw nameField.error("is empty: give the group's display name") }
                if let other = byID[ExactKey(id)] {
                    guard ExactText.same(other, name) else {
                        throw nameField.error("the group \(id) is named twice here, \(JSONWriter.quoted(other)) and \(JSONWriter.quoted(name)): keep its one display name")
                    }
                    continue
                }
                if let other = byName[ExactKey(name)] {
                    throw nameField.error("\(JSONWriter.quoted(name)) is the name of two groups here (\(other) and \(id)): a name must say which group it is; rename one in this file")
                }
                byID[ExactKey(id)] = name
                byName[ExactKey(name)] = id
                groups.append(IntuneExportFacts.Group(id: id, name: name, file: file, line: element.position?.line))
            }
            return groups
        } catch {
            throw error.inFile(file)
        }
    }

    /// The policy id an IntuneBackupAndRestore assignments file names: its name's part before the first
    /// `" - "` (`ID - NAME.json`), as its restore takes it (`($file.BaseName -split " - ")[0]`).
    static func assignmentsPolicyID(_ file: String) -> String? {
        var name = IntuneExportFiles.lastComponent(file)
        if IntuneExportFiles.hasExtension(name, "json") { name = String(name.dropLast(5)) }
        let bytes = Array(name.utf8), separator = Array(" - ".utf8)
        guard bytes.count > separator.count,
              let start = (1...(bytes.count - separator.count)).first(where: { bytes[$0..<($0 + separator.count)].elementsEqual(separator) }) else { return nil }
        return String(decoding: bytes[..<start], as: UTF8.self)
    }

    /// Reads an IntuneBackupAndRestore assignments file: the `…/assignments` response it saves,
    /// `{"@odata.context": …, "value": [targetedManagedAppPolicyAssignment, …]}`, or the list itself.
    /// Each assignment carries `file` and its line there.
    /// - Throws: `FormatError` in `file` at the offending value.
    static func assignmentsFile(_ bytes: [UInt8], file: String) throws(FormatError) -> [IntuneAssignment] {
        let (value, start) = try document(bytes, file: file)
        return try assignmentsFile(value, at: start, file: file)
    }

    /// The assignments of an assignments file already parsed (`value`, starting at `start`), as ``assignmentsFile(_:file:)`` reads them.
    static func assignmentsFile(_ value: JSONValue, at start: JSONPosition, file: String) throws(FormatError) -> [IntuneAssignment] {
        do throws(FormatError) {
            let root = JSONCursor(value, position: start)
            var list = root
            if case .object(let object) = value {
                for member in object.members where !ExactText.same(member.key, "value") && !member.key.hasPrefix("@odata.") {
                    throw FormatError("\(member.key): unknown key in an assignments file (IntuneBackupAndRestore saves the Graph response, {\"@odata.context\", \"value\": [...]})", at: member.keyPosition)
                }
                guard let member = object.member("value") else {
                    throw root.error("has no value: an assignments file holds the Graph response {\"value\": [assignments]}, as IntuneBackupAndRestore saves it")
                }
                try checkWhole(object, count: { if case .array(let array) = member.value { array.count } else { 0 } }(), listed: "value", path: "",
                               fix: "back the assignments up again (IntuneBackupAndRestore's Invoke-IntuneBackupAppProtectionPolicyAssignment)")
                list = JSONCursor(member.value, path: "value", position: member.valuePosition)
            }
            var assignments = try IntuneAssignmentsJSON.read(list)
            for index in assignments.indices { assignments[index].file = file }
            return assignments
        } catch {
            throw error.inFile(file)
        }
    }

    /// Joins each assignments file of `files` to the policy its name names by id (IntuneBackupAndRestore):
    /// the policy's assignments are the file's. A file for a policy skipped as another platform's (in
    /// `skippedIDs`) is left aside.
    /// - Returns: how many files were joined, and how many named skipped policies.
    /// - Throws: `FormatError` in the file for one whose id names no policy, a second file for one policy,
    ///   or a policy that has assignments inline too.
    static func joinAssignments(_ files: [String], into policies: inout [IntunePolicy], skippedIDs: Set<ExactKey>) throws(FormatError) -> (joined: Int, others: Int) {
        var joinedFrom: [Int: String] = [:]
        var others = 0
        // Each policy's position by id (the first, were two to share one): a lookup per file, not a scan.
        var byID: [ExactKey: Int] = [:]
        for (index, policy) in policies.enumerated() { if let id = policy.id, byID[ExactKey(id)] == nil { byID[ExactKey(id)] = index } }
        for file in files {
            guard let id = assignmentsPolicyID(file) else {
                throw FormatError("the assignments file's name does not start with its policy's id: IntuneBackupAndRestore names it 'ID - NAME.json' (its restore reads the id there); rename it so, or remove it", file: file)
            }
            guard let index = byID[ExactKey(id)] else {
                if skippedIDs.contains(ExactKey(id)) { others += 1; continue }
                let ids = policies.compactMap(\.id)
                throw FormatError("the assignments file names the policy id \(JSONWriter.quoted(id)) (its name's part before ' - '), which no policy of the export has.\(Suggestion.phrase(for: id, among: ids)) Restore the policy's file beside the others, or remove this file",
                                  file: file)
            }
            if let other = joinedFrom[index] {
                throw FormatError("a second assignments file for the policy \(JSONWriter.quoted(policies[index].displayName)) (\(id)): '\(Printable.text(other))' holds them already; keep one", file: file)
            }
            let bytes: [UInt8]
            do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "Intune assignments") } catch { throw FormatError(error.message) }
            let assignments = try assignmentsFile(bytes, file: file)
            if policies[index].assignments != nil {
                throw FormatError("the policy \(JSONWriter.quoted(policies[index].displayName)) (\(id)) has assignments inline in \(policies[index].sources.file.map { "'\(Printable.text($0))'" } ?? "its file") too: which to read would be a guess; keep them in one place", file: file)
            }
            policies[index].assignments = assignments
            joinedFrom[index] = file
        }
        return (joinedFrom.count, others)
    }
}

extension IntuneFleet {
    /// Merges what an export folder holds (``IntuneExportFacts``) with the devices file's groups map and
    /// filters, then fails closed on what would decide on a guess: a filter app protection cannot use that an
    /// assignment names, and a group an assignment spells differently, only by Unicode normalization or
    /// letter case, from what the profiles or the groups map carry (``checkGroupSpelling()``, from ``checkConflicts()``).
    /// - Throws: ``FleetError`` naming both places for one group id with two names or one name with two
    ///   ids, or one filter given twice with different rules; at the assignment for the others.
    mutating func join(_ facts: IntuneExportFacts, devicesFile: String?) throws(FleetError) {
        let devicesPlace = devicesFile.map { "the devices file '\(Printable.text($0))'" } ?? "the devices file"
        var sources = groupNames.map { (id: $0.id, name: $0.name, place: devicesPlace) }
        // Each entry's position by id and by name: a lookup per group of the table, not a scan of the map.
        var byID: [ExactKey: Int] = [:], byName: [ExactKey: Int] = [:]
        for (index, source) in sources.enumerated() {
            if byID[ExactKey(source.id)] == nil { byID[ExactKey(source.id)] = index }
            if byName[ExactKey(source.name)] == nil { byName[ExactKey(source.name)] = index }
        }
        for group in facts.groups {
            let place = "'\(Printable.text(group.file))'\(group.line.map { " (line \($0))" } ?? "")"
            if let other = byID[ExactKey(group.id)].map({ sources[$0] }) {
                guard ExactText.same(other.name, group.name) else {
                    throw FleetError("the group \(group.id) has two names: \(JSONWriter.quoted(other.name)) in \(other.place) and \(JSONWriter.quoted(group.name)) in \(place): give it one display name, as Entra ID does",
                                     file: group.file, line: group.line)
                }
                continue
            }
            if let other = byName[ExactKey(group.name)].map({ sources[$0] }) {
                throw FleetError("\(JSONWriter.quoted(group.name)) is the name of two groups: \(other.id) in \(other.place) and \(group.id) in \(place): a name must say which group it is; correct the id in one of them",
                                 file: group.file, line: group.line)
            }
            byID[ExactKey(group.id)] = sources.count
            byName[ExactKey(group.name)] = sources.count
            sources.append((group.id, group.name, place))
            groupNames.append((group.id, group.name))
        }
        if !facts.groups.isEmpty {
            // Each profile's groups' other spellings, with the merged map (looked up per group, not a scan of the map per profile).
            var other: [ExactKey: [String]] = [:]
            for (id, name) in groupNames {
                other[ExactKey(id), default: []].append(name)
                other[ExactKey(name), default: []].append(id)
            }
            for index in devices.indices {
                guard let groups = devices[index].groups else { continue }
                var aliases: [String] = []
                for group in groups { aliases += other[ExactKey(group)] ?? [] }
                devices[index].groupAliases = aliases
            }
        }
        if !facts.filters.isEmpty { filters = try AssignmentFilters(Self.merged(filters.all + facts.filters)) }
        try checkFilterUse()
        self.devicesFile = devicesFile
    }

    /// The filters, each once: the same filter read twice (by id, or by display name when one has no id,
    /// as IntuneCD drops it) with the same rule is one.
    /// - Throws: ``FleetError`` naming both places when the two give different rules.
    static func merged(_ filters: [AssignmentFilter]) throws(FleetError) -> [AssignmentFilter] {
        var kept: [AssignmentFilter] = []
        for filter in filters {
            let same = kept.first { other in
                if let id = filter.id, let otherID = other.id { return ExactText.same(id, otherID) }
                return ExactText.same(filter.displayName, other.displayName)
            }
            guard let same else { kept.append(filter); continue }
            guard ExactText.same(same.rule, filter.rule), (same.unusable == nil) == (filter.unusable == nil) else {
                let what = filter.id.map { "the id \(JSONWriter.quoted($0))" } ?? "the name \(JSONWriter.quoted(filter.displayName))"
                throw FleetError("the assignment filter \(what) is given twice with different rules: \(JSONWriter.quoted(same.rule))\(same.place) and \(JSONWriter.quoted(filter.rule))\(filter.place): keep the tenant's one (GET /beta/deviceManagement/assignmentFilters/{id})",
                                 file: filter.file, line: filter.line)
            }
        }
        return kept
    }

    /// Refuses an assignment that names a filter app protection cannot use (one for managed devices or
    /// another platform, read from a backup of the tenant's filters).
    func checkFilterUse() throws(FleetError) {
        for policy in policies {
            for assignment in policy.assignments ?? [] {
                guard let reference = assignment.filter, let filter = filters.filter(named: reference), let why = filter.unusable else { continue }
                throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) includes the group \(assignment.groupDescription) through the filter \(JSONWriter.quoted(filter.displayName))\(filter.place), which cannot narrow an app protection policy: \(why); assign a managed-app filter instead, or remove the filter",
                                 file: assignment.file ?? policy.sources.file ?? file, line: assignment.line)
            }
        }
    }

    /// Refuses an assignment's group spelt, only by Unicode normalization or by letter case, differently
    /// from a group a profile or the groups map carries ("Café staff" precomposed and decomposed, "acme
    /// staff" and "Acme staff"): groups match byte for byte, so the policy would silently reach no one
    /// there. The error names the code points that differ.
    /// - Throws: ``FleetError`` at the assignment's file and line.
    func checkGroupSpelling() throws(FleetError) {
        // Every spelling carried, by its folded form (lowercased; Swift's String compares and hashes canonically equivalent text as equal).
        var carried: [String: [(text: String, place: String)]] = [:]
        func carry(_ text: String, _ place: String) {
            let key = text.lowercased()
            if carried[key]?.contains(where: { ExactText.same($0.text, text) }) != true { carried[key, default: []].append((text, place)) }
        }
        let devicesPlace = devicesFile.map { "'\(Printable.text($0))'" } ?? "the devices file"
        for device in devices { for group in device.groups ?? [] { carry(group, "the profile \(JSONWriter.quoted(device.name)) (devices.\(device.name).groups in \(devicesPlace))") } }
        for (id, name) in groupNames {
            carry(id, "the groups map")
            carry(name, "the groups map")
        }
        guard !carried.isEmpty else { return }
        // A group named by id is also named by its display name in the groups map: a profile carrying that name in another case misses it too.
        var mapped: [ExactKey: [String]] = [:]
        for (id, name) in groupNames { mapped[ExactKey(id), default: []].append(name) }
        for policy in policies {
            for assignment in policy.assignments ?? [] {
                let names = assignment.groupID.flatMap { mapped[ExactKey($0)] } ?? []
                for text in [assignment.groupName, assignment.groupID].compactMap({ $0 }) + names {
                    // Any spelling that differs, even beside one that matches: the profile that carries it would silently not be reached.
                    guard let other = carried[text.lowercased()]?.first(where: { !ExactText.same($0.text, text) }) else { continue }
                    let how = Self.difference(text, other.text)
                    throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) \(assignment.kind == .include ? "includes" : "excludes") the group \(JSONWriter.quoted(text)), and \(other.place) carries \(JSONWriter.quoted(other.text)): they differ only by \(how) (\(Self.differingCodePoints(text, other.text))), and groups match byte for byte, so the policy would reach no one there: write the group exactly as Entra ID names it, the same in both files",
                                     file: assignment.file ?? policy.sources.file ?? file, line: assignment.line)
                }
            }
        }
    }

    /// How `a` and `b`, equal once lowercased and normalized, differ: by Unicode normalization (canonically
    /// equivalent), by letter case (the same code points once lowercased), or both.
    static func difference(_ a: String, _ b: String) -> String {
        if a == b { return "Unicode normalization" }
        return Array(a.lowercased().unicodeScalars) == Array(b.lowercased().unicodeScalars) ? "letter case" : "letter case and Unicode normalization"
    }

    /// The code points where `a` and `b` differ, after their common start and end: `U+00E9 vs U+0065 U+0301`.
    static func differingCodePoints(_ a: String, _ b: String) -> String {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var start = 0
        while start < x.count, start < y.count, x[start] == y[start] { start += 1 }
        var end = 0
        while end < x.count - start, end < y.count - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
        func spelled(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            scalars.isEmpty ? "nothing" : scalars.map { scalar in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }.joined(separator: " ")
        }
        return "\(spelled(x[start..<(x.count - end)])) vs \(spelled(y[start..<(y.count - end)]))"
    }
}
