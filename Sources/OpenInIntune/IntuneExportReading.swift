import OpenInCore
import OpenInFleet
import OpenInKit

/// Reading exports as admins keep them: a file in the encoding its tool wrote, a Graph list response
/// mixing platforms, a folder of files, or a backup's root (``IntuneExportFiles``).
extension IntuneGraphJSON {
    /// The fix named for a file in an encoding the reader does not read.
    static let encodingFix = "save it as UTF-8 (in Windows PowerShell 5.1, Out-File -Encoding utf8; PowerShell 7 writes UTF-8 by default)"

    /// The fix named for a YAML file.
    static let yamlFix = "run IntuneCD with --output=json (its default), or convert the file to JSON"

    /// The `@odata.type`s of objects an export folder or a `managedAppPolicies` list holds beside iOS app
    /// protection policies, skipped (never read as policies), with what each is.
    static func skippedKind(_ type: String) -> (kind: IntuneExportFiles.Kind, what: String)? {
        if otherPlatformTypes.contains(where: { ExactText.same($0, type) }) { return (.policy, "it holds \(type), not an iOS app protection policy") }
        if ExactText.same(type, "#microsoft.graph.deviceAndAppManagementAssignmentFilter") { return (.filter, "it holds an assignment filter (\(type)), not an app protection policy") }
        if ExactText.same(type, "#microsoft.graph.group") { return (.group, "it holds an Entra group (\(type)), not an app protection policy") }
        return nil
    }

    /// The `@odata.type` of a document or list entry that is skipped rather than read as a policy
    /// (another platform's policy, an app configuration, a filter, a group), `nil` for any other value.
    static func skippedType(of value: JSONValue) -> String? {
        guard case .object(let object) = value, case .string(let type)? = object["@odata.type"], skippedKind(type) != nil else { return nil }
        return type
    }

    /// Something read and left aside: a file, or an entry of a list, that is not an iOS app protection policy.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// The file (for files grouped by folder, the folder, ending in `/`).
        public var file: String
        /// The entry of a list or array (`value[2]`, `[0]`), with its display name when it has one; `nil` for a whole file.
        public var entry: String?
        /// Its `@odata.type`; empty when it has none.
        public var type: String
        /// Why it was skipped: what it is.
        public var reason: String

        /// `FILE skipped: REASON`, or `FILE ENTRY skipped: REASON`.
        public var description: String { "\(file)\(entry.map { " \($0)" } ?? "") skipped: \(reason)" }
    }

    /// What reading a path found: the policies, what was skipped, and notes on how the path was read.
    public struct Export: Sendable {
        /// The iOS policies, files in name order.
        public var policies: [IntunePolicy]
        /// The files (or entries of a list) skipped because they hold something other than an iOS app protection policy.
        public var skipped: [Skipped]
        /// Notes on how the path was read (a backup's root: which folder holds its policies).
        public var notes: [String] = []
        /// The folder's files by kind (policies, assignments, filters, groups, migration table), when a folder was read.
        var files: IntuneExportFiles? = nil
        /// The groups map and filters the folder holds beside its policies (``IntuneFleet/join(_:devicesFile:)``).
        package var facts = IntuneExportFacts()

        /// Every note a run prints once: ``notes``, then each skipped item.
        public var messages: [String] { notes + skipped.map(\.description) }
    }

    /// `bytes` as UTF-8 text without a byte order mark: UTF-8 with or without one, or UTF-16LE/BE with
    /// one (Windows PowerShell 5.1's `Out-File` default), line breaks as they are.
    /// - Throws: `FormatError` in `file` for UTF-16 without a byte order mark, UTF-32, an odd number of
    ///   UTF-16 bytes or an unpaired surrogate, naming the fix.
    package static func text<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> [UInt8] where Bytes.Element == UInt8 {
        do throws(TextEncoding.Problem) {
            return try TextEncoding.decode(Array(bytes), fix: encodingFix).utf8
        } catch {
            throw FormatError(error, file: file)
        }
    }

    /// A file's text parsed, and where its value starts (so an error about the whole object names its line).
    static func document(_ bytes: [UInt8], file: String) throws(FormatError) -> (value: JSONValue, start: JSONPosition) {
        let data = try text(bytes, file: file)
        let value: JSONValue
        do throws(JSONError) {
            value = try JSONReader().read(data)
        } catch {
            if IntuneExportFiles.hasExtension(IntuneExportFiles.lastComponent(file), "yaml") || IntuneExportFiles.hasExtension(IntuneExportFiles.lastComponent(file), "yml")
                || looksLikeYAML(data) {
                throw FormatError("the file is YAML (as IntuneCD writes with --output=yaml), not JSON, and is not read: \(yamlFix)", line: 1, file: file)
            }
            throw FormatError("not valid JSON: \(error.message)", at: error.position, file: file)
        }
        var line = 1, column = 1
        for byte in data {
            if byte == 0x0A { line += 1; column = 1 } else if byte == 0x20 || byte == 0x09 || byte == 0x0D { column += 1 } else { break }
        }
        return (value, JSONPosition(line: line, column: column))
    }

    /// Whether text that is not JSON reads as YAML in block style: its first line that is not blank or a
    /// comment is `---`, a list item (`- `), or a mapping key (`key: value`, `'@odata.type': …`).
    package static func looksLikeYAML(_ data: [UInt8]) -> Bool {
        // Line by line from the start, without splitting the whole text: the first significant line decides.
        var start = 0
        while start < data.count {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.count
            let raw = data[start..<end]
            start = end + 1
            let line = raw.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }.reversed()
            guard let first = line.first else { continue }
            if first == UInt8(ascii: "#") { continue }
            if line.elementsEqual("---".utf8) || line.starts(with: "- ".utf8) { return true }
            let startsLikeKey = first == UInt8(ascii: "'") || first == UInt8(ascii: "@") || first == UInt8(ascii: "_") || first == UInt8(ascii: "\"")
                || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
            guard startsLikeKey, let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
            let after = line.index(after: colon)
            return after == line.endIndex || line[after] == 0x20
        }
        return false
    }

    /// Reads a file's bytes: one policy, an array, or a Graph list response (UTF-8, or UTF-16 with a
    /// byte order mark, CRLF or LF). A list or array may mix types, as `managedAppPolicies` returns
    /// them: its iOS app protection policies are read, and its other platforms' policies, app
    /// configurations, filters and groups are skipped and listed.
    /// - Throws: `FormatError` located in `file`, with the line, column and property path of the first
    ///   problem; a YAML file, or a list holding no iOS policy but other types, is an error naming the fix.
    public static func export<Bytes: Collection>(_ bytes: Bytes, file: String) throws(FormatError) -> Export where Bytes.Element == UInt8 {
        let (value, start) = try document(Array(bytes), file: file)
        return try export(value, at: start, file: file)
    }

    /// Reads a parsed file's policies, and the entries of a list it skips.
    static func export(_ value: JSONValue, at start: JSONPosition, file: String) throws(FormatError) -> Export {
        do throws(FormatError) {
            let read = try entries(value, at: start)
            var policies = read.policies
            for index in policies.indices { policies[index].sources.file = file }
            let skipped = read.skipped.map { Skipped(file: file, entry: $0.entry, type: $0.type, reason: $0.reason) }
            if policies.isEmpty, !skipped.isEmpty {
                throw FormatError("no iOS app protection policy: the list's \(skipped.count) entr\(skipped.count == 1 ? "y holds" : "ies hold") other types (\(Printable.list(Array(Set(skipped.map(\.type))).sorted()))), and none is an \(odataType)",
                                  at: start)
            }
            return Export(policies: policies, skipped: skipped)
        } catch {
            throw error.inFile(file)
        }
    }

    /// Reads policies from a parsed document whose value starts at `start`: one policy, an array, or a
    /// Graph list response. An entry of an array or a list whose `@odata.type` is another platform's
    /// policy, an app configuration, a filter or a group is skipped (``skippedType(of:)``); anything else
    /// that is not an iOS app protection policy is an error.
    package static func entries(_ value: JSONValue, at start: JSONPosition = JSONPosition(line: 1, column: 1)) throws(FormatError)
        -> (policies: [IntunePolicy], skipped: [(entry: String, type: String, reason: String)]) {
        let root = JSONCursor(value, position: start)
        var policies: [IntunePolicy] = []
        var skipped: [(entry: String, type: String, reason: String)] = []
        func readEntry(_ element: JSONCursor) throws(FormatError) {
            if let type = skippedType(of: element.value), let kind = skippedKind(type) {
                var name = ""
                if case .object(let object) = element.value, case .string(let displayName)? = object["displayName"] { name = " (\(displayName))" }
                skipped.append((element.path + name, type, kind.what))
            } else {
                policies.append(try readPolicy(element))
            }
        }
        switch value {
        case .array:
            for element in try root.elements(what: "iosManagedAppProtection objects") { try readEntry(element) }
        case .object(let object):
            guard object["value"] != nil, object["@odata.type"] == nil else { return ([try readPolicy(root)], []) }
            for member in object.members where !ExactText.same(member.key, "value") && !member.key.hasPrefix("@odata.") {
                throw FormatError("\(member.key): unknown key beside value in a Graph list response (it holds value and @odata annotations)", at: member.keyPosition)
            }
            let list = JSONCursor(object["value"]!, path: "value", position: object.member("value")?.valuePosition)
            let elements = try list.elements(what: "the list's iosManagedAppProtection objects")
            try checkWhole(object, count: elements.count, listed: "value", path: "",
                           fix: "fetch every page (follow each @odata.nextLink until a page has none, or use Microsoft Graph PowerShell's -All) and save all the policies as one JSON array, or each page's policies as files in one folder")
            for element in elements { try readEntry(element) }
        default:
            throw root.error("an Intune export holds an iosManagedAppProtection object, an array of them, or a Graph list response {\"value\": [...]}, not \(root.found)")
        }
        return (policies, skipped)
    }

    /// Reads a file, or a folder as the backup tools write them (IntuneCD, IntuneManagement, IntuneBackupAndRestore): every JSON file
    /// of the folder, or of a backup root's app protection folder. Files holding another platform's
    /// policy, an app configuration, a filter or a group, the assignments, filters and groups folders,
    /// a migration table and files that are not JSON are skipped and listed.
    /// - Throws: `FormatError` for an unreadable path or file, a malformed policy, a YAML file (with
    ///   the fix), a folder holding several backups, or a folder with no iOS policy.
    public static func read(path: String) throws(FormatError) -> Export {
        guard let folder = try IntuneExportFiles.list(path) else {
            let bytes: [UInt8]
            do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: path, what: "Intune export") } catch { throw FormatError(error.message) }
            return try export(bytes, file: path)
        }
        if let yaml = folder.paths(.yaml).first {
            let more = folder.paths(.yaml).count - 1
            throw FormatError("the file is YAML (as IntuneCD writes with --output=yaml), not JSON, and is not read\(more > 0 ? " (nor the folder's \(more) other YAML file\(more == 1 ? "" : "s"))" : ""): \(yamlFix)",
                              line: 1, file: yaml)
        }
        var export = Export(policies: [], skipped: [], files: folder)
        var files = folder
        if let policyFolder = folder.policyFolder {
            let others = folder.paths(.otherSetting).count
            let prefix = path.hasSuffix("/") ? path : path + "/"
            export.notes.append("'\(path)' is an \(folder.layout.rawValue) backup: its app protection policies are read from '\(prefix + policyFolder)'"
                + (others > 0 ? "; its \(others) other file\(others == 1 ? "" : "s") hold\(others == 1 ? "s" : "") other Intune settings, not read" : ""))
        }
        var grouped: [(folder: String, kind: IntuneExportFiles.Kind, count: Int)] = []
        func group(_ file: String, _ kind: IntuneExportFiles.Kind) {
            let parent = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/"
            if let last = grouped.indices.last, grouped[last].folder == parent, grouped[last].kind == kind { grouped[last].count += 1 } else { grouped.append((parent, kind, 1)) }
        }
        var jsonCount = 0
        // The ids of the policies skipped as other platforms', whose IntuneBackupAndRestore assignments files are left aside too.
        var skippedIDs: Set<ExactKey> = []
        for (index, entry) in folder.files.enumerated() {
            let file = entry.path
            switch entry.kind {
            case .policy:
                jsonCount += 1
                // A FIFO among the files would wait for a writer: an export folder holds files only.
                if CappedFile.isPipe(path: file) {
                    throw FormatError("cannot read Intune export '\(Printable.text(file))': it is a named pipe (FIFO), not an exported file; remove it from the folder", file: path)
                }
                let bytes: [UInt8]
                do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "Intune export") } catch { throw FormatError(error.message) }
                let (value, start) = try document(bytes, file: file)
                if let type = skippedType(of: value), let kind = skippedKind(type) {
                    files.files[index].kind = kind.kind
                    export.skipped.append(Skipped(file: file, type: type, reason: kind.what))
                    if case .object(let object) = value, case .string(let id)? = object["id"] { skippedIDs.insert(ExactKey(id)) }
                    if kind.kind == .filter { export.facts.filters += try AssignmentFilters.read(JSONCursor(value, position: start), file: file, tenant: true) }
                    continue
                }
                let read = try self.export(value, at: start, file: file)
                export.policies += read.policies
                export.skipped += read.skipped
                var listed: [JSONValue] = []
                if case .array(let entries) = value { listed = Array(entries) } else if case .object(let object) = value, case .array(let entries)? = object["value"] { listed = Array(entries) }
                for entry in listed { if case .object(let object) = entry, case .string(let id)? = object["id"], skippedType(of: entry) != nil { skippedIDs.insert(ExactKey(id)) } }
            case .notJSON:
                let markdown = IntuneExportFiles.hasExtension(IntuneExportFiles.lastComponent(file), "md")
                export.skipped.append(Skipped(file: file, type: "", reason: markdown ? "not JSON (Markdown, as IntuneCD's documentation)" : "not a JSON file"))
            case .filter:
                let bytes: [UInt8]
                do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "Intune assignment filter") } catch { throw FormatError(error.message) }
                let (value, start) = try document(bytes, file: file)
                export.facts.filters += try AssignmentFilters.read(JSONCursor(value, position: start), file: file, tenant: true)
                group(file, entry.kind)
            case .assignments, .group:
                group(file, entry.kind)
            case .migrationTable:
                let bytes: [UInt8]
                do throws(CappedFile.Failure) { bytes = try CappedFile.read(path: file, what: "IntuneManagement migration table") } catch { throw FormatError(error.message) }
                let groups = try migrationTable(bytes, file: file)
                export.facts.groups += groups
                export.notes.append("\(file): IntuneManagement's migration table, read as the groups map (\(groups.count) group\(groups.count == 1 ? "" : "s") by object id)")
            case .yaml, .otherSetting:
                continue
            }
        }
        for (parent, kind, count) in grouped {
            let files = "\(count) file\(count == 1 ? "" : "s")"
            switch kind {
            case .assignments: continue  // said once the files are joined
            case .filter: export.notes.append("\(parent): \(files) of assignment filters, read as the filters assignments name")
            default: export.skipped.append(Skipped(file: parent, type: "", reason: "\(files) of Entra groups, not app protection policies"))
            }
        }
        // IntuneManagement's own policy folder given: its migration table is in the export's root, the folder's
        // parent (IntuneManagement's import looks there too: "Migration table must be located in the root of the import path").
        if folder.layout == .intuneManagement, folder.policyFolder == nil, folder.paths(.migrationTable).isEmpty {
            var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            while parts.last == "" && parts.count > 1 { parts.removeLast() }
            parts.removeLast()
            let table = (parts.isEmpty ? "." : parts.joined(separator: "/")) + "/MigrationTable.json"
            if let bytes = try? CappedFile.read(path: table, what: "IntuneManagement migration table") {
                let groups = try migrationTable(bytes, file: table)
                export.facts.groups += groups
                export.notes.append("\(table): IntuneManagement's migration table, read as the groups map (\(groups.count) group\(groups.count == 1 ? "" : "s") by object id)")
            }
        }
        let assignmentFiles = folder.paths(.assignments)
        if !assignmentFiles.isEmpty {
            let (joined, others) = try joinAssignments(assignmentFiles, into: &export.policies, skippedIDs: skippedIDs)
            let parents = Set(assignmentFiles.map { $0.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" })
            let parent = parents.count == 1 ? parents.first! : "the folder"
            export.notes.append("\(parent): \(assignmentFiles.count) file\(assignmentFiles.count == 1 ? "" : "s") of policy assignments (IntuneBackupAndRestore): \(joined) joined to \(joined == 1 ? "its policy" : "their policies") by id"
                + (others > 0 ? ", \(others) for policies skipped above, not read" : ""))
        }
        export.files = files
        if export.policies.isEmpty {
            throw FormatError("no iOS app protection policy found: the folder holds \(jsonCount) JSON file\(jsonCount == 1 ? "" : "s") and none is an \(odataType)", file: path)
        }
        return export
    }
}
