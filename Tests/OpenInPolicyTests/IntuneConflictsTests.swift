import Foundation
import Testing
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors

/// Several app protection policies over one app: merged setting by setting (`Rules/intune/conflicts.md`
/// states the order and runs its rows in RulesTablesTests; these check the merge as a function).
@Suite("Intune conflicts")
struct IntuneConflictsTests {
    static func policy(_ name: String, _ change: (inout IntunePolicy) -> Void = { _ in }) -> IntunePolicy {
        var policy = IntunePolicy(displayName: name)
        policy.apps = [try! BundleID("com.microsoft.office.outlook"), try! BundleID("com.microsoft.office.word")]
        change(&policy)
        return policy
    }

    /// Every "Send org data" choice Graph allows, as (send, filter, OS sharing).
    static let sendChoices: [(IntuneTransferLevel, Bool, Bool)] = [(.allApps, false, false), (.managedApps, false, true), (.managedApps, false, false),
                                                                   (.managedApps, true, false), (.none, false, false)]

    @Test("the unmanaged/MDM pair: most restrictive takes each setting from the stricter policy and names it")
    func pair() throws {
        let unmanaged = Self.policy("Unmanaged - Printing Disabled") {
            $0.send = .managedApps
            $0.printBlocked = true
            $0.clipboard = .managedAppsWithPasteIn
        }
        let mdm = Self.policy("Managed - Printing Enabled") {
            $0.send = .managedApps
            $0.disableProtectionOfManagedOutboundOpenInData = true
            $0.clipboard = .blocked
        }
        let (merged, decidedBy) = IntuneConflicts.merge([unmanaged, mdm], mode: .mostRestrictive)
        #expect(merged.displayName == "Unmanaged - Printing Disabled + Managed - Printing Enabled")
        #expect(merged.send == .managedApps && !merged.disableProtectionOfManagedOutboundOpenInData && merged.printBlocked && merged.clipboard == .blocked)
        #expect(decidedBy["allowedOutboundDataTransferDestinations"] == "Unmanaged - Printing Disabled")
        #expect(decidedBy["disableProtectionOfManagedOutboundOpenInData"] == "Unmanaged - Printing Disabled")
        #expect(decidedBy["printBlocked"] == "Unmanaged - Printing Disabled")
        #expect(decidedBy["allowedOutboundClipboardSharingLevel"] == "Managed - Printing Enabled")
        #expect(Set(decidedBy.keys) == Set(IntuneConflicts.keys))
        let (worst, worstBy) = IntuneConflicts.merge([unmanaged, mdm], mode: .leastRestrictive)
        #expect(worst.disableProtectionOfManagedOutboundOpenInData && !worst.printBlocked && worst.clipboard == .managedAppsWithPasteIn)
        #expect(worstBy["printBlocked"] == "Managed - Printing Enabled" && worstBy["allowedOutboundClipboardSharingLevel"] == "Unmanaged - Printing Disabled")
    }

    @Test("one policy merges to itself; the merge targets the apps every policy targets; sources follow the decider")
    func identityAndApps() throws {
        var a = Self.policy("A") { $0.send = .none }
        a.sources.keys["allowedOutboundDataTransferDestinations"] = ValueSource(path: "value[0].allowedOutboundDataTransferDestinations", line: 7, text: "none")
        let (alone, aloneBy) = IntuneConflicts.merge([a], mode: .mostRestrictive)
        #expect(alone == a && alone.displayName == "A")
        #expect(aloneBy.values.allSatisfy { $0 == "A" } && aloneBy.count == IntuneConflicts.keys.count)
        let b = Self.policy("B") { $0.apps = [try! BundleID("com.microsoft.Office.Word"), try! BundleID("com.acme.viewer")] }
        let (merged, _) = IntuneConflicts.merge([a, b], mode: .mostRestrictive)
        #expect(merged.apps.map(\.rawValue) == ["com.microsoft.office.word"])
        #expect(merged.sources.keys["allowedOutboundDataTransferDestinations"]?.line == 7)
        let (worst, _) = IntuneConflicts.merge([a, b], mode: .leastRestrictive)
        #expect(worst.send == .allApps && worst.sources.keys["allowedOutboundDataTransferDestinations"] == nil)
        #expect(IntuneConflicts.merge([], mode: .mostRestrictive).decidedBy.isEmpty)
    }

    @Test("every pair of Send and Receive choices: the merge is one of them, the strictest (or loosest), and keeps Graph's constraints")
    func sendAndReceiveOrders() throws {
        let receives: [(IntuneTransferLevel, Bool)] = [(.allApps, false), (.allApps, true), (.managedApps, false), (.none, false)]
        for (i, x) in Self.sendChoices.enumerated() {
            for (j, y) in Self.sendChoices.enumerated() {
                let a = Self.policy("A") { $0.send = x.0; $0.filterOpenInToOnlyManagedApps = x.1; $0.disableProtectionOfManagedOutboundOpenInData = x.2
                    $0.receive = receives[i % 4].0; $0.protectInboundDataFromUnknownSources = receives[i % 4].1 }
                let b = Self.policy("B") { $0.send = y.0; $0.filterOpenInToOnlyManagedApps = y.1; $0.disableProtectionOfManagedOutboundOpenInData = y.2
                    $0.receive = receives[j % 4].0; $0.protectInboundDataFromUnknownSources = receives[j % 4].1 }
                try a.validate()
                try b.validate()
                let most = IntuneConflicts.merge([a, b], mode: .mostRestrictive).policy
                let least = IntuneConflicts.merge([a, b], mode: .leastRestrictive).policy
                try most.validate()
                try least.validate()
                // The sendChoices list is in order, least restrictive first.
                #expect(IntuneConflicts.sendRank(most) == max(i, j) && IntuneConflicts.sendRank(least) == min(i, j), "\(x) \(y)")
                #expect(IntuneConflicts.receiveRank(most) == max(i % 4, j % 4) && IntuneConflicts.receiveRank(least) == min(i % 4, j % 4))
            }
        }
    }

    @Test("the clipboard length: equal stands; differing takes the recommended 0, named as such when no policy gives it")
    func clipboardLength() {
        let a = Self.policy("A") { $0.clipboard = .blocked; $0.clipboardExceptionLength = 10 }
        let b = Self.policy("B") { $0.clipboard = .blocked; $0.clipboardExceptionLength = 20 }
        let (most, by) = IntuneConflicts.merge([a, b], mode: .mostRestrictive)
        #expect(most.clipboardExceptionLength == 0 && by["allowedOutboundClipboardSharingExceptionLength"] == "(recommended value)")
        let (least, leastBy) = IntuneConflicts.merge([a, b], mode: .leastRestrictive)
        #expect(least.clipboardExceptionLength == 20 && leastBy["allowedOutboundClipboardSharingExceptionLength"] == "B")
        #expect(IntuneConflicts.merge([a, a], mode: .mostRestrictive).policy.clipboardExceptionLength == 10)
    }

    @Test("exemptions keep their names; two different custom dialers become None (most) or Any dialer app (least)")
    func listsAndCustomApps() {
        let a = Self.policy("A") {
            $0.exemptions = [IntuneExemption(name: "Default", schemes: ["tel", "skype"]), IntuneExemption(name: "Maps", schemes: ["maps"])]
            $0.dialer = .customApp
            $0.customDialerAppProtocol = "skype"
        }
        let b = Self.policy("B") {
            $0.exemptions = [IntuneExemption(name: "Mine", schemes: ["maps", "skype"])]
            $0.dialer = .customApp
            $0.customDialerAppProtocol = "msteams"
        }
        let (most, by) = IntuneConflicts.merge([a, b], mode: .mostRestrictive)
        // B's schemes are exactly those both exempt: B decides, its exemption kept as written.
        #expect(most.exemptions == [IntuneExemption(name: "Mine", schemes: ["maps", "skype"])])
        #expect(by["exemptedAppProtocols"] == "B")
        let c = Self.policy("C") { $0.exemptions = [IntuneExemption(name: "Other", schemes: ["skype", "zoomus"])] }
        let (combined, combinedBy) = IntuneConflicts.merge([a, c], mode: .mostRestrictive)
        #expect(combined.exemptions == [IntuneExemption(name: "Default", schemes: ["skype"])] && combinedBy["exemptedAppProtocols"] == "A + C")
        #expect(most.dialer == .blocked && most.customDialerAppProtocol.isEmpty && by["customDialerAppProtocol"] == "A + B")
        let (least, _) = IntuneConflicts.merge([a, b], mode: .leastRestrictive)
        #expect(least.exemptedSchemes == ["tel", "skype", "maps"] && least.dialer == .allApps)
    }

    // MARK: the conflict table format

    static func parse(_ rows: String) throws -> [TableCase] {
        try DecisionTables.parse("""
            # Conflicts

            | id | mode | A | B | merged | decided by |
            |---|---|---|---|---|---|
            \(rows)
            """, file: "c.md")
    }

    @Test("a conflict row runs, and a wrong expectation fails at its line with expected and actual")
    func tableRows() throws {
        let cases = try Self.parse("""
            | ok | most-restrictive | send=none | print-blocked | send=none; print-blocked | send=A; print-blocked=B |
            | wrong | most-restrictive | send=none | print-blocked | send=managedApps; print-blocked | send=B |
            """)
        #expect(cases.count == 2)
        #expect(DecisionTables.run(cases[0]).passed)
        #expect(DecisionTables.run(cases[1]).failureMessage == "c.md:6: wrong: merged: expected send=managedApps; print-blocked, got send=none; print-blocked; decided by send: expected B, got A")
    }

    @Test("a malformed conflict row is refused at its line", arguments: [
        ("| r | most | - | - | - | - |", "c.md:5: mode 'most': use most-restrictive or least-restrictive. Did you mean 'most-restrictive'?"),
        ("| r | most-restrictive | os-sharing | - | - | - |", "c.md:5: policy A: disableProtectionOfManagedOutboundOpenInData is true but allowedOutboundDataTransferDestinations is allApps: Graph allows it to be true only when allowedOutboundDataTransferDestinations is managedApps"),
        ("| r | most-restrictive | - | - | - | sendd=A |", "c.md:5: decided by: unknown setting 'sendd': settings are send, receive, clipboard, clipboard-exception, print-blocked, keyboards-blocked, save-as-blocked, storage, ingestion-blocked, ingestion, exempt, exempted-link, managed-link, browser, dialer, messaging. Did you mean 'send'?"),
        ("| r | most-restrictive | - | | - | - |", "c.md:5: a conflict row merges at least two policies: fill at least two policy cells"),
        ("| r | most-restrictive | - | - | - | send |", "c.md:5: decided by 'send': write SETTING=POLICY"),
    ])
    func tableRefusals(_ row: String, _ expected: String) {
        let result = Result { try Self.parse(row) }
        guard case .failure(let error) = result else { Issue.record("parsed: \(row)"); return }
        #expect("\(error)" == expected)
    }

    @Test("Rules/intune/conflicts.md decides every setting in some row, in both modes")
    func tableCoversEverySetting() throws {
        let cases = try DecisionTables.load(paths: [RulesFolder.path + "/intune/conflicts.md"])
        #expect(cases.count >= 40)
        var decided: Set<String> = []
        var modes: Set<String> = []
        for tableCase in cases {
            modes.insert(tableCase.cells["mode"] ?? "")
            for item in (tableCase.cells["decided by"] ?? "").split(separator: ";") { decided.insert(String(item.split(separator: "=")[0]).trimmingCharacters(in: .whitespaces)) }
            #expect(DecisionTables.run(tableCase).passed, "\(DecisionTables.run(tableCase).failureMessage ?? "")")
        }
        #expect(decided == Set(MergeTables.settings.map(\.name)))
        #expect(modes == ["most-restrictive", "least-restrictive"])
    }
}
