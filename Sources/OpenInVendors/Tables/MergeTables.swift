import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// Conflict tables: how several Intune app protection policies over one app merge
/// (`IntuneConflicts`, `Rules/intune/conflicts.md`). A table whose header has `id`, `mode` and
/// `merged` columns; between them one column per policy, its header the policy's name (`A`, `B`, …),
/// its cell the policy's settings in the Intune row syntax (`send=none; print-blocked`, `-` for the
/// defaults); `merged` gives every setting of the merged policy that is not the default (checked
/// exactly), and an optional `decided by` names, per setting, the policy whose value won
/// (`send=B; clipboard-exception=(recommended value)`).
enum MergeTables {
    /// The settings a `decided by` cell names, and the Graph properties each stands for.
    package static let settings: [(name: String, keys: [String])] = [
        ("send", ["allowedOutboundDataTransferDestinations", "filterOpenInToOnlyManagedApps", "disableProtectionOfManagedOutboundOpenInData"]),
        ("receive", ["allowedInboundDataTransferSources", "protectInboundDataFromUnknownSources"]),
        ("clipboard", ["allowedOutboundClipboardSharingLevel"]),
        ("clipboard-exception", ["allowedOutboundClipboardSharingExceptionLength"]),
        ("print-blocked", ["printBlocked"]),
        ("keyboards-blocked", ["thirdPartyKeyboardsBlocked"]),
        ("save-as-blocked", ["saveAsBlocked"]),
        ("storage", ["allowedDataStorageLocations"]),
        ("ingestion-blocked", ["blockDataIngestionIntoOrganizationDocuments"]),
        ("ingestion", ["allowedDataIngestionLocations"]),
        ("exempt", ["exemptedAppProtocols"]),
        ("exempted-link", ["exemptedUniversalLinks"]),
        ("managed-link", ["managedUniversalLinks"]),
        ("browser", ["managedBrowserToOpenLinksRequired", "managedBrowser", "customBrowserProtocol"]),
        ("dialer", ["dialerRestrictionLevel", "customDialerAppProtocol"]),
        ("messaging", ["protectedMessagingRedirectAppType", "messagingRedirectAppUrlScheme"]),
    ]

    /// Whether a table's (lowercased) header makes it a conflict table.
    static func isMergeTable(_ header: [String]) -> Bool { header.contains("mode") && header.contains("merged") }

    /// A row's policies, mode and what it expects.
    final class Row: Sendable, Hashable {
        let policies: [IntunePolicy]
        let mode: ConflictMode
        let merged: String
        let decidedBy: [(setting: String, policy: String)]

        init(policies: [IntunePolicy], mode: ConflictMode, merged: String, decidedBy: [(setting: String, policy: String)]) {
            self.policies = policies
            self.mode = mode
            self.merged = merged
            self.decidedBy = decidedBy
        }

        package static func == (lhs: Row, rhs: Row) -> Bool { lhs === rhs }
        package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// The rows of one conflict table.
    /// - Throws: ``TableError`` for a malformed table or row (a policy breaking Graph's constraints included:
    ///   a conflict row has no `error` outcome to expect).
    static func cases(_ table: MarkdownTables.Table, file: String, seenIDs: inout [String: Int]) throws(TableError) -> [TableCase] {
        let header = table.header.map { $0.lowercased() }
        guard let modeColumn = header.firstIndex(of: "mode"), let mergedColumn = header.firstIndex(of: "merged"), let idColumn = header.firstIndex(of: "id"),
              idColumn < modeColumn, modeColumn < mergedColumn else {
            throw TableError(file: file, line: table.headerLine, message: "a conflict table's columns are id, mode, one column per policy, merged and optionally decided by, in that order")
        }
        let policyColumns = Array((modeColumn + 1)..<mergedColumn)
        guard policyColumns.count >= 2 else {
            throw TableError(file: file, line: table.headerLine, message: "a conflict table needs at least two policy columns between mode and merged")
        }
        for column in header.indices where column > mergedColumn && header[column] != "decided by" {
            throw TableError(file: file, line: table.headerLine, message: "unknown column '\(table.header[column])' after merged: only 'decided by' may follow it")
        }
        if Set(header).count != header.count { throw TableError(file: file, line: table.headerLine, message: "a column appears twice in the header") }
        if table.rows.isEmpty { throw TableError(file: file, line: table.headerLine, message: "this conflict table has no rows: add a row under the delimiter line, or remove the table") }
        let decidedColumn = header.firstIndex(of: "decided by")
        let labels = policyColumns.map { table.header[$0] }
        var cases: [TableCase] = []
        for row in table.rows {
            let place = Place(file: file, line: row.line)
            guard row.cells.count == header.count else {
                throw place.error("this row has \(row.cells.count) cells but the header has \(header.count); write '\\|' for a '|' inside a cell")
            }
            let id = row.cells[idColumn]
            if id.isEmpty { throw place.error("the id cell is empty: give every row a name") }
            if let first = seenIDs[id] { throw place.error("duplicate id '\(id)' (first used on line \(first)); ids must be unique in a file") }
            seenIDs[id] = row.line
            let modes = ConflictMode.allCases.map(\.rawValue)
            guard let mode = ConflictMode(rawValue: row.cells[modeColumn]) else {
                throw place.error("mode '\(row.cells[modeColumn])': use \(modes.joined(separator: " or ")).\(Suggestion.phrase(for: row.cells[modeColumn], among: modes))")
            }
            var policies: [IntunePolicy] = []
            for (label, column) in zip(labels, policyColumns) {
                let cell = row.cells[column]
                if cell.isEmpty { continue }  // a third policy only some rows have
                policies.append(try policy(cell, named: label, at: place))
            }
            if policies.count < 2 { throw place.error("a conflict row merges at least two policies: fill at least two policy cells") }
            let expected = describe(try policy(row.cells[mergedColumn], named: "merged", at: place))
            var decided: [(String, String)] = []
            if let decidedColumn, !row.cells[decidedColumn].isEmpty, row.cells[decidedColumn] != "-" {
                for item in row.cells[decidedColumn].split(separator: ";") {
                    let pair = item.trimmingSpaces
                    guard let equals = pair.firstIndex(of: "=") else { throw place.error("decided by '\(pair)': write SETTING=POLICY") }
                    let setting = String(pair[..<equals].trimmingSpaces), who = String(pair[pair.index(after: equals)...].trimmingSpaces)
                    let names = settings.map(\.name)
                    guard names.contains(setting) else {
                        throw place.error("decided by: unknown setting '\(setting)': settings are \(names.joined(separator: ", ")).\(Suggestion.phrase(for: setting, among: names))")
                    }
                    decided.append((setting, who))
                }
            }
            let cells = Dictionary(header.enumerated().map { ($0.element, row.cells[$0.offset]) }, uniquingKeysWith: { first, _ in first })
            let expectation = Expectation(outcome: nil, to: nil, audience: nil, callbacks: nil, openInUI: nil, rule: nil, dummy: nil)
            cases.append(TableCase(file: file, line: row.line, id: id, cells: cells, expected: expectation,
                                   inputs: .merge(Row(policies: policies, mode: mode, merged: expected, decidedBy: decided))))
        }
        return cases
    }

    /// A policy from a cell in the Intune row syntax.
    static func policy(_ cell: String, named name: String, at place: Place) throws(TableError) -> IntunePolicy {
        switch try IntuneRowInputs.context(["context": cell.isEmpty ? "-" : cell], at: place) {
        case .failure(let error): throw place.error("policy \(name): \(error)")
        case .success(let context):
            guard var policy = context.policy else { throw place.error("policy \(name): not-targeted names no policy") }
            policy.displayName = name
            return policy
        }
    }

    /// Merges the row's policies and compares the result and its deciders with the row.
    package static func run(_ tableCase: TableCase, _ row: Row) -> TableResult {
        let (policy, decidedBy) = IntuneConflicts.merge(row.policies, mode: row.mode)
        var mismatches: [String] = []
        let got = describe(policy)
        if got != row.merged { mismatches.append("merged: expected \(row.merged), got \(got)") }
        for (setting, want) in row.decidedBy {
            let keys = settings.first { $0.name == setting }?.keys ?? []
            let names = keys.map { decidedBy[$0] ?? "(none)" }
            if let wrong = names.first(where: { $0 != want }) { mismatches.append("decided by \(setting): expected \(want), got \(wrong)") }
        }
        return TableResult(tableCase: tableCase, mismatches: mismatches)
    }

    /// Every data-transfer setting of `policy` that is not the default, in the row syntax, in one fixed order (`-`: all defaults).
    package static func describe(_ policy: IntunePolicy) -> String {
        var parts: [String] = []
        if policy.send != .allApps { parts.append("send=\(policy.send)") }
        if policy.filterOpenInToOnlyManagedApps { parts.append("filter-open-in") }
        if policy.disableProtectionOfManagedOutboundOpenInData { parts.append("os-sharing") }
        if policy.receive != .allApps { parts.append("receive=\(policy.receive)") }
        if policy.protectInboundDataFromUnknownSources { parts.append("incoming-org-data") }
        if policy.clipboard != .allApps { parts.append("clipboard=\(policy.clipboard)") }
        if policy.clipboardExceptionLength != 0 { parts.append("clipboard-exception=\(policy.clipboardExceptionLength)") }
        if policy.printBlocked { parts.append("print-blocked") }
        if policy.thirdPartyKeyboardsBlocked { parts.append("keyboards-blocked") }
        if !policy.exemptedSchemes.isEmpty { parts.append("exempt=\(policy.exemptedSchemes.joined(separator: ","))") }
        for link in policy.exemptedUniversalLinks { parts.append("exempted-link=\(link)") }
        for link in policy.managedUniversalLinks { parts.append("managed-link=\(link)") }
        if policy.managedBrowserRequired {
            parts.append(!policy.customBrowserProtocol.isEmpty ? "browser=custom:\(policy.customBrowserProtocol)"
                         : policy.managedBrowser == .microsoftEdge ? "browser=edge" : "browser=required")
        }
        switch policy.dialer {
        case .allApps: break
        case .customApp: parts.append("dialer=customApp:\(policy.customDialerAppProtocol)")
        default: parts.append("dialer=\(policy.dialer)")
        }
        switch policy.messaging {
        case .anyApp: break
        case .specificApps: parts.append("messaging=specificApps:\(policy.messagingRedirectAppUrlScheme)")
        default: parts.append("messaging=\(policy.messaging)")
        }
        if policy.saveAsBlocked { parts.append("save-as-blocked") }
        if !policy.allowedDataStorageLocations.isEmpty { parts.append("storage=\(policy.allowedDataStorageLocations.map(\.rawValue).joined(separator: ","))") }
        if policy.blockDataIngestion { parts.append("ingestion-blocked") }
        if !policy.allowedDataIngestionLocations.isEmpty { parts.append("ingestion=\(policy.allowedDataIngestionLocations.map(\.rawValue).joined(separator: ","))") }
        return parts.isEmpty ? "-" : parts.joined(separator: "; ")
    }
}
