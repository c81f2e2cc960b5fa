import OpenInKit

/// The files of an Intune export folder by kind, as the backup tools lay them out:
///
/// - IntuneCD: `ROOT/App Protection/NAME_TYPE.json` (every `managedAppPolicies` object, of every
///   platform), `ROOT/Filters/`, and Markdown documentation (`App Protection/App Protection.md`);
///   `--output=yaml` writes `.yaml` files instead.
/// - IntuneManagement: `ROOT[/ORG]/AppProtection/NAME[_ID].json`, `MigrationTable.json` (group ids and
///   names), `Groups/`, `AssignmentFilters/`.
/// - IntuneBackupAndRestore: `ROOT/App Protection Policies/NAME.json`, their assignments in
///   `App Protection Policies/Assignments/ID - NAME.json`, `ROOT/Assignment Filters/`.
/// - Any other folder: every file in it, Graph JSON.
///
/// A folder that holds one of the tools' app protection folders (at any depth) is a backup's root:
/// only that folder's policies are read (the rest of a backup is other Intune settings). The kinds
/// are told from the path alone; ``IntuneGraphJSON/read(path:)`` then tells some files apart by
/// their content (another platform's policy, a filter or a group with its `@odata.type`). Hidden
/// files and folders (`.git`) are not listed.
package struct IntuneExportFiles: Sendable {
    /// The tool whose layout the folder has.
    enum Layout: String, Sendable, Hashable {
        case intuneCD = "IntuneCD"
        case intuneManagement = "IntuneManagement"
        case intuneBackupAndRestore = "IntuneBackupAndRestore"
        /// No tool's folder names: a folder of Graph JSON.
        case graphJSON = "Graph JSON"
    }

    /// What a file of the folder is.
    package enum Kind: Sendable, Hashable {
        /// A JSON file read as app protection policies.
        case policy
        /// IntuneBackupAndRestore's assignments of one policy (`Assignments/ID - NAME.json`).
        case assignments
        /// Assignment filters (`Filters/`, `AssignmentFilters/`, `Assignment Filters/`, or an object
        /// whose `@odata.type` is a filter's).
        case filter
        /// Entra groups (IntuneManagement's `Groups/`, or an object whose `@odata.type` is a group's).
        case group
        /// IntuneManagement's `MigrationTable.json`: the ids and names of the objects an export refers to.
        case migrationTable
        /// A file that is not JSON (IntuneCD's Markdown documentation), skipped with a note.
        case notJSON
        /// A YAML file (IntuneCD `--output=yaml`): refused with the fix.
        case yaml
        /// A file of a backup's root outside its app protection folder: another Intune setting, not read.
        case otherSetting
    }

    /// The folder, as the user gave it.
    package let root: String
    /// The layout recognised.
    let layout: Layout
    /// The app protection folder, relative to ``root``, when the folder is a backup's root.
    let policyFolder: String?
    /// Every file (hidden ones aside), in name order, with its full path and kind.
    var files: [(path: String, kind: Kind)]

    /// The full paths of the files of `kind`, in name order.
    package func paths(_ kind: Kind) -> [String] { files.filter { $0.kind == kind }.map(\.path) }

    /// The folder names of each tool's app protection policies.
    static let policyFolders: [(name: String, layout: Layout)] = [
        ("App Protection", .intuneCD), ("AppProtection", .intuneManagement), ("App Protection Policies", .intuneBackupAndRestore),
    ]
    /// The folder names of assignment filters (IntuneCD, IntuneManagement, IntuneBackupAndRestore).
    static let filterFolders = ["Filters", "AssignmentFilters", "Assignment Filters"]

    /// Lists the folder at `path`; `nil` when it is not a folder that can be read.
    /// - Throws: `FormatError` when the folder holds the app protection folders of several backups
    ///   (two tenants, or two organisations): reading them as one would mix their policies.
    package static func list(_ path: String) throws(FormatError) -> IntuneExportFiles? {
        guard let entries = Folder.entries(of: path) else { return nil }
        let visible = entries.filter { entry in !entry.path.split(separator: "/").contains { $0.hasPrefix(".") } }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        let folders = visible.filter { entry in
            entry.isDirectory && policyFolders.contains { ExactText.same($0.name, lastComponent(entry.path)) }
        }.map(\.path).sorted()
        // A policy folder inside another one is not a second backup.
        let outermost = folders.filter { folder in !folders.contains { folder.hasPrefix($0 + "/") } }
        if outermost.count > 1 {
            throw FormatError(
                "the folder holds the app protection policies of \(outermost.count) backups (\(outermost.map { "'\(Printable.text($0))'" }.joined(separator: ", "))): give the one to read, or its backup's root",
                file: path)
        }
        let policyFolder = outermost.first
        // The layout is the policy folder's tool, or that of the folder given when it is a policy folder itself.
        let folderName = policyFolder.map(lastComponent) ?? lastComponent(path)
        let layout = policyFolders.first { ExactText.same($0.name, folderName) }?.layout ?? .graphJSON
        var files: [(path: String, kind: Kind)] = []
        for entry in visible.filter({ !$0.isDirectory }).sorted(by: { $0.path < $1.path }) {
            var kind = kindByPath(entry.path)
            if kind == .policy || kind == .notJSON || kind == .yaml, let policyFolder, !entry.path.hasPrefix(policyFolder + "/") { kind = .otherSetting }
            files.append((prefix + entry.path, kind))
        }
        return IntuneExportFiles(root: path, layout: layout, policyFolder: policyFolder, files: files)
    }

    /// A file's kind told from its path relative to the folder.
    static func kindByPath(_ relative: String) -> Kind {
        let parts = relative.split(separator: "/").map(String.init)
        let name = parts.last ?? relative
        let folders = parts.dropLast()
        if ExactText.sameIgnoringASCIICase(name, "MigrationTable.json") { return .migrationTable }
        let isJSON = hasExtension(name, "json")
        if isJSON, folders.contains(where: { ExactText.same($0, "Assignments") }) { return .assignments }
        if isJSON, folders.contains(where: { ExactText.isOne($0, of: filterFolders) }) { return .filter }
        if isJSON, folders.contains(where: { ExactText.same($0, "Groups") }) { return .group }
        if isJSON { return .policy }
        if hasExtension(name, "yaml") || hasExtension(name, "yml") { return .yaml }
        return .notJSON
    }

    /// Whether `name` ends in `.EXTENSION`, ignoring ASCII case (`.JSON` as Windows tools may write it).
    static func hasExtension(_ name: String, _ fileExtension: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return ExactText.sameIgnoringASCIICase(String(name[name.index(after: dot)...]), fileExtension)
    }

    static func lastComponent(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
