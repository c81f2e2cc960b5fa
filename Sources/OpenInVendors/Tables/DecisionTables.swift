#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Reads and runs decision tables: Markdown pipe tables whose header has `id` and `outcome` columns.
///
/// The format is described in `Rules/README.md`. Parsing checks the table's
/// form (columns, cell counts, settings, expected values) and throws
/// ``TableError`` naming the file and line; an invalid request or policy in a
/// row is not a format error: the row then fails unless it expects `error`.
///
/// ```swift
/// let cases = try DecisionTables.load(paths: ["Rules"])
/// let failures = cases.map(DecisionTables.run).filter { !$0.passed }
/// ```
public enum DecisionTables {
    /// Input columns a row may have.
    static let inputColumns: Set<String> = ["id", "policy", "whitelist", "context", "channel", "target", "url", "source", "document", "location"]
    /// Expected columns a row may have.
    static let expectedColumns: Set<String> = ["outcome", "to", "audience", "callbacks", "ui", "rule", "dummy"]
    /// Columns every decision table must have.
    static let requiredColumns = ["id", "policy", "channel", "outcome"]

    /// Parses the decision tables of one Markdown text.
    /// - Parameters:
    ///   - text: the Markdown.
    ///   - file: the name failures and errors point at.
    /// - Returns: the rows of every decision table, in file order.
    /// - Throws: ``TableError`` for a malformed table.
    public static func parse(_ text: String, file: String) throws(TableError) -> [TableCase] {
        var cases: [TableCase] = []
        var seenIDs: [String: Int] = [:]
        let document = try MarkdownTables.document(text, file: file)
        var sources: [String: TableSource] = [:]
        var usedSources: Set<Int> = []
        var fleets: [String: Result<FleetAnalysis, FormatError>] = [:]
        var lines: [Substring]? = nil
        for table in document.tables {
            // A table under a `Fleet:` line is a fleet table (FleetTables).
            if lines == nil { lines = MarkdownTables.lines(of: text) }
            if let fleetLine = FleetTables.fleetLine(above: table.headerLine, lines: lines!) {
                cases += try FleetTables.cases(table, fleetLine: fleetLine, file: file, fleets: &fleets, seenIDs: &seenIDs)
                continue
            }
            let header = table.header.map { $0.lowercased() }
            // A table with mode and merged columns is a conflict table (MergeTables).
            if MergeTables.isMergeTable(header) {
                cases += try MergeTables.cases(table, file: file, seenIDs: &seenIDs)
                continue
            }
            guard header.contains("id"), header.contains("outcome") else {
                try rejectLookalike(header, line: table.headerLine, file: file, named: table.source != nil)
                continue
            }
            var base: PolicyInputs? = nil
            if let line = table.source {
                switch try TableSource.load(line, tableFile: file, cache: &sources) {
                case .policy(let inputs): base = inputs
                }
                usedSources.insert(line.line)
            }
            for (column, name) in header.enumerated() where !inputColumns.contains(name) && !expectedColumns.contains(name) {
                let known = (inputColumns.union(expectedColumns)).sorted()
                throw TableError(file: file, line: table.headerLine,
                                 message: "unknown column '\(table.header[column])': columns are \(known.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: known))")
            }
            if table.rows.isEmpty {
                throw TableError(file: file, line: table.headerLine, message: "this decision table has no rows: add a row under the delimiter line, or remove the table")
            }
            for required in requiredColumns where !header.contains(required) && !(required == "policy" && base != nil) {
                throw TableError(file: file, line: table.headerLine, message: required == "policy"
                    ? "a decision table needs a 'policy' column, or a line 'Policy: [title](path/to/policy.json)' above it in its section"
                    : "a decision table needs a '\(required)' column")
            }
            if Set(header).count != header.count {
                throw TableError(file: file, line: table.headerLine, message: "a column appears twice in the header")
            }
            for row in table.rows {
                guard row.cells.count == header.count else {
                    throw TableError(file: file, line: row.line,
                                     message: "this row has \(row.cells.count) cells but the header has \(header.count); write '\\|' for a '|' inside a cell")
                }
                let cells = Dictionary(uniqueKeysWithValues: zip(header, row.cells))
                let id = cells["id"] ?? ""
                if id.isEmpty { throw TableError(file: file, line: row.line, message: "the id cell is empty: give every row a name") }
                if let first = seenIDs[id] {
                    throw TableError(file: file, line: row.line, message: "duplicate id '\(id)' (first used on line \(first)); ids must be unique in a file")
                }
                seenIDs[id] = row.line
                let place = Place(file: file, line: row.line)
                let inputs: RowInputs.Built
                if cells["policy"] == "intune", let location = try IntuneRowInputs.buildLocation(cells, at: place) {
                    switch location {
                    case .success(let (context, request)): inputs = .intuneLocation(context, request)
                    case .failure(let error): inputs = .invalid(error)
                    }
                } else if cells["policy"] == "intune" {
                    switch try IntuneRowInputs.build(cells, at: place) {
                    case .success(let (context, request)): inputs = .intune(context, request)
                    case .failure(let error): inputs = .invalid(error)
                    }
                } else {
                    inputs = RowInputs.Built(try RowInputs.build(cells, base: base, at: place))
                }
                let expected = try expectation(cells, at: place)
                cases.append(TableCase(file: file, line: row.line, id: id, cells: cells, expected: expected, inputs: inputs))
            }
        }
        // A policy named for no decision table would be a check that checks nothing.
        if let unused = document.sources.first(where: { !usedSources.contains($0.line) }) {
            throw TableError(file: file, line: unused.line, message: "this '\(unused.keyword)' line names what the decision tables below it run against, but no decision table follows it in its section: move it above one, or remove it")
        }
        return cases
    }

    /// Loads every decision table in `paths`: files, or directories searched recursively for `*.md`.
    ///
    /// Fails closed, so a run cannot pass having checked nothing: a file named in
    /// `paths` must hold a decision table, and a directory must hold one in some
    /// Markdown file under it.
    /// - Returns: the rows, files in path order and each directory's files sorted by name.
    /// - Throws: ``TableError`` for an unreadable path, a malformed table, a named file
    ///   with no decision table, or a directory with none under it.
    public static func load(paths: [String]) throws(TableError) -> [TableCase] {
        var cases: [TableCase] = []
        for path in paths {
            let (files, isDirectory) = try markdownFiles(at: path)
            var found = 0
            for file in files {
                let text = try CappedFile.readText(path: file, what: "decision table", unreadable: { "cannot read the file: \($0)" },
                                                   notUTF8: "cannot read the file as UTF-8 text")
                let parsed = try parse(text, file: file)
                found += parsed.count
                cases += parsed
            }
            guard found == 0 else { continue }
            if !isDirectory {
                throw TableError(file: path, line: 0, message: "holds no decision table (\(tableShape)): name a file that has one")
            }
            if files.isEmpty {
                throw TableError(file: path, line: 0, message: "no decision table found: this folder and its subfolders hold no Markdown (*.md) file")
            }
            let searched = files.count == 1 ? "the 1 Markdown file" : "the \(files.count) Markdown files"
            throw TableError(file: path, line: 0, message: "no decision table found in \(searched) of this folder and its subfolders (\(tableShape))")
        }
        return cases
    }

    /// What a decision table is, for messages.
    static let tableShape = "a pipe table whose header has 'id', 'policy', 'channel' and 'outcome' columns"

    /// Throws for a table that has two or more of a decision table's required columns but not `id` and
    /// `outcome` together: it was meant as a decision table, and skipping it would check nothing.
    static func rejectLookalike(_ header: [String], line: Int, file: String, named: Bool = false) throws(TableError) {
        let present = requiredColumns.filter(header.contains)
        guard present.count >= 2 || (named && present.count >= 1) else { return }
        let missing = requiredColumns.filter { !header.contains($0) && ($0 == "id" || $0 == "outcome") }
        let columns = present.map { "'\($0)'" }.joined(separator: ", ")
        // A column that is a typo of a missing one: name it, so the fix is a rename.
        let typos = missing.compactMap { name in header.first { !requiredColumns.contains($0) && Suggestion.closest(to: $0, among: [name]) != nil }.map { (name, $0) } }
        let didYouMean = typos.map { " Did you mean '\($0.0)' for the column '\($0.1)'?" }.joined()
        throw TableError(file: file, line: line, message: "this table has \(columns) columns like a decision table but no \(missing.map { "'\($0)'" }.joined(separator: " or ")) column, so none of its rows would run.\(didYouMean) \(typos.isEmpty ? "Add" : "Rename or add") \(missing.count == 1 ? "it" : "them"), or rename the other columns if it is not a decision table")
    }

    /// Runs one row: decides its request under its policy and compares every expected column.
    public static func run(_ tableCase: TableCase) -> TableResult {
        let expected = tableCase.expected
        switch tableCase.inputs {
        case .fleet(let row):
            return FleetTables.run(tableCase, row)
        case .merge(let row):
            return MergeTables.run(tableCase, row)
        case .invalid(let error):
            if expected.outcome == nil { return TableResult(tableCase: tableCase, mismatches: []) }
            return TableResult(tableCase: tableCase, mismatches: ["outcome: expected \(expected.outcome!), got error: \(error)\(contextHint(for: error))"])
        case .valid(let policy, let request):
            return compare(tableCase, Evaluator(policy: policy).decide(request))
        case .intune(let context, let request):
            return compare(tableCase, IntuneEvaluator(context: context).decide(request))
        case .intuneLocation(let context, let request):
            return compare(tableCase, IntuneEvaluator(context: context).decide(request))
        }
    }

    /// Compares a row's expected columns with `decision`.
    package static func compare(_ tableCase: TableCase, _ decision: Decision) -> TableResult {
        let expected = tableCase.expected
        do {
            guard let outcome = expected.outcome else {
                return TableResult(tableCase: tableCase, mismatches: ["outcome: expected error, got \(decision.outcome) (rule \(decision.rule))"])
            }
            var mismatches: [String] = []
            func compare(_ column: String, _ want: String, _ got: String) {
                if want != got { mismatches.append("\(column): expected \(want), got \(got)") }
            }
            compare("outcome", outcome.rawValue, decision.outcome.rawValue)
            if let to = expected.to { compare("to", to?.rawValue ?? "-", decision.target?.rawValue ?? "-") }
            if let audience = expected.audience { compare("audience", audience?.rawValue ?? "-", decision.audience?.rawValue ?? "-") }
            if let callbacks = expected.callbacks {
                compare("callbacks", callbacks.isEmpty ? "-" : callbacks.joined(separator: "; "),
                        decision.callbacks.isEmpty ? "-" : decision.callbacks.map(\.description).joined(separator: "; "))
            }
            if let ui = expected.openInUI { compare("ui", ui.rawValue, decision.openInUI.rawValue) }
            if let rule = expected.rule { compare("rule", rule.rawValue, decision.rule.rawValue) }
            if let dummy = expected.dummy { compare("dummy", dummy ?? "-", decision.dummyFileName ?? "-") }
            return TableResult(tableCase: tableCase, mismatches: mismatches)
        }
    }

    /// `, or add open-from=… to the row's context` for an error a context setting fixes, else nothing:
    /// the library's message names only the policy file's key.
    static func contextHint(for error: InputError) -> String {
        guard case .policyKeyNotSet(let key, _) = error else { return "" }
        let setting: String
        switch key {
        case "openFromPolicy": setting = "open-from=…"
        case "pasteboardPolicy": setting = "pasteboard=…"
        case "printPolicy": setting = "print=…"
        case "device.secureServicesAvailable": setting = "secure-services=available or secure-services=unavailable"
        default: return ""
        }
        return ", or add \(setting) to the row's context"
    }

    /// The `*.md` files at `path`: the file itself, or a directory's files, recursively, sorted.
    static func markdownFiles(at path: String) throws(TableError) -> (files: [String], isDirectory: Bool) {
        /// Whether `path` is a directory, following symbolic links; nil when it does not exist.
        func isDirectory(_ path: String) -> Bool? {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            return (status.st_mode & S_IFMT) == S_IFDIR
        }
        guard let directory = isDirectory(path) else {
            throw TableError(file: path, line: 0, message: "no such file or directory")
        }
        guard directory else { return ([path], false) }
        guard let subpaths = Folder.subpaths(of: path) else {
            throw TableError(file: path, line: 0, message: "cannot read the directory")
        }
        var files: [String] = []
        for relative in subpaths where relative.hasSuffix(".md") {
            let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
            if isDirectory(full) == false { files.append(full) }
        }
        return (files.sorted(), true)
    }

    /// Reads a row's expected columns.
    static func expectation(_ cells: [String: String], at place: Place) throws(TableError) -> Expectation {
        func required(_ column: String) throws(TableError) -> String? {
            guard let value = cells[column] else { return nil }
            if value.isEmpty { throw place.error("the '\(column)' cell is empty: write '-' for none") }
            return value
        }
        let outcomeText = try required("outcome") ?? ""
        let outcome: Outcome?
        if outcomeText == "error" {
            outcome = nil
            for column in ["to", "audience", "callbacks", "ui", "rule", "dummy"] {
                if let value = cells[column], value != "-" {
                    throw place.error("a row expecting 'error' has no decision: write '-' in the '\(column)' cell")
                }
            }
            return Expectation(outcome: nil, to: nil, audience: nil, callbacks: nil, openInUI: nil, rule: nil, dummy: nil)
        } else if let parsed = Outcome(parsing: outcomeText) {
            outcome = parsed
        } else {
            throw place.error("unknown outcome '\(outcomeText)': use allow, redirect, substitute-dummy-file, deny, deliver-encrypted, or error.\(Suggestion.phrase(for: outcomeText, among: Outcome.allCases.map(\.rawValue) + ["error"]))")
        }
        var to: BundleID?? = nil
        if let text = try required("to") {
            if text == "-" {
                to = .some(nil)
            } else {
                do { to = .some(try BundleID(text)) } catch { throw place.error("in 'to': \(error)") }
            }
        }
        var audience: CopyAudience?? = nil
        if let text = try required("audience") {
            if text == "-" {
                audience = .some(nil)
            } else {
                guard let parsed = CopyAudience(rawValue: text) else {
                    throw place.error("unknown audience '\(text)': use all-apps, appconnect-apps, managed-apps, or - for none")
                }
                audience = .some(parsed)
            }
        }
        var callbacks: [String]? = nil
        if let text = try required("callbacks") {
            let known = ["openInAttemptedWhenACOpenInPolicyBlocked", "openURLAttemptedWhenUnauthorizedForURL", "appConnectAttemptedDragAndDropToNonAppConnectApp",
                         "openFromAttemptedWhenACOpenFromPolicyBlocked", "copyAttemptedWhenUnauthorized"]
            callbacks = text == "-" ? [] : splitCallbacks(text, names: known)
            for callback in callbacks ?? [] {
                let name = callback.prefix { $0 != "(" }
                if !known.contains(String(name)) {
                    throw place.error("unknown callback '\(callback)': use one of \(known.joined(separator: ", ")), with its argument in parentheses.\(Suggestion.phrase(for: String(name), among: known))")
                }
            }
        }
        var ui: OpenInUI? = nil
        if let text = try required("ui") {
            guard let parsed = OpenInUI(rawValue: text) else { throw place.error("unknown Open In UI state '\(text)': use enabled or disabled") }
            ui = parsed
        }
        var rule: RuleID? = nil
        if let text = try required("rule") {
            guard let parsed = RuleID(parsing: text) else {
                throw place.error("unknown rule '\(text)': `openin-check rules` lists every rule id.\(Suggestion.phrase(for: text, among: RuleInfo.all.map(\.id.rawValue)))")
            }
            rule = parsed
        }
        var dummy: String?? = nil
        if let text = try required("dummy") { dummy = text == "-" ? .some(nil) : .some(text) }
        return Expectation(outcome: outcome, to: to, audience: audience, callbacks: callbacks, openInUI: ui, rule: rule, dummy: dummy)
    }
}

extension DecisionTables {
    /// Splits a `callbacks` cell at the `;` that start a new callback name, so a URL argument may hold `;`.
    static func splitCallbacks(_ text: String, names: [String]) -> [String] {
        var parts: [String] = []
        var current = Substring()
        var rest = Substring(text)
        while let semicolon = rest.firstIndex(of: ";") {
            let after = rest[rest.index(after: semicolon)...].trimmingSpaces
            current += rest[..<semicolon]
            if names.contains(where: { after.hasPrefix($0) }) {
                parts.append(String(current.trimmingSpaces))
                current = Substring()
            } else {
                current += ";"
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        current += rest
        parts.append(String(current.trimmingSpaces))
        return parts
    }
}

/// A row's place, for errors.
struct Place {
    package let file: String
    package let line: Int

    package func error(_ message: String) -> TableError { TableError(file: file, line: line, message: message) }
}
