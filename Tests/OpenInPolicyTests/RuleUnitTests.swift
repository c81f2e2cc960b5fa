import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// A rule is one unit, and the list of units (`RuleCatalog.units`) is the one
/// order: these tests fail when a step of "Adding a rule" (`OpenInPolicy.docc/Rules.md`) is forgotten.
@Suite("Rule units")
struct RuleUnitTests {
    static let rows: [TableCase] = (try? DecisionTables.load(paths: [RulesFolder.path])) ?? []

    /// A row's policy as the inputs a policy file would give.
    static func inputs(of row: TableCase, _ policy: Policy) throws -> PolicyInputs {
        let setting = try PolicySetting(parsing: row.cells["policy"] ?? "")
        var stated = policy
        if setting == .allAppConnectApps { stated.whitelist = .empty }
        return PolicyInputs(setting: setting, stated: stated)
    }

    @Test("every rule unit under Sources/OpenInAppConnect/Rules/ is in the list, once")
    func everyUnitIsListed() throws {
        let folder = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent().appendingPathComponent("Sources/OpenInAppConnect/Rules")
        var declared: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": RuleUnit {") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(where: { $0 == "enum" || $0 == "struct" }), index + 1 < words.count {
                    declared.append(String(words[index + 1].dropLast()))
                }
            }
        }
        let listed = RuleCatalog.units.map { String(describing: $0) }
        #expect(!declared.isEmpty)
        #expect(Set(declared) == Set(listed), "units declared but not in RuleCatalog.units: \(Set(declared).subtracting(listed).sorted())")
        #expect(Set(listed).count == listed.count, "a unit is listed twice: \(listed)")
    }

    @Test("rule ids are unique, every unit has rules, and a rule's step is its unit's place in the list")
    func stepsFollowTheList() {
        let ids = RuleCatalog.all.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count, "duplicate rule ids: \(ids)")
        for (index, unit) in RuleCatalog.units.enumerated() {
            #expect(!unit.rules.isEmpty, "\(unit) has no rules")
            for rule in unit.rules { #expect(rule.step == index + 1) }
        }
        #expect(RuleInfo.stepCount == RuleCatalog.units.count)
    }

    /// Every valid row's policy, each with every request class it has: the evaluator's switch and the list agree.
    @Test("the evaluator's switch decides as walking the list of units does")
    func switchAgreesWithTheList() throws {
        #expect(!Self.rows.isEmpty)
        var checked = 0
        for row in Self.rows {
            guard case .valid(let policy, let request) = row.inputs else { continue }
            let evaluator = Evaluator(policy: policy)
            for request in [request] + RequestClasses.make(old: policy, new: policy) {
                let fast = evaluator.decide(request)
                let listed = RuleCatalog.decideInListOrder(request, evaluator.prepared)
                guard fast == listed else {
                    Issue.record("\(row.location): \(request) decided by \(fast.rule) in Evaluator.decide, by \(listed?.rule.rawValue ?? "nothing") in RuleCatalog.units")
                    break
                }
                let unit = RuleCatalog.unit(of: fast.rule)
                #expect(unit.rules.contains { $0.id == fast.rule })
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test("every rule explains its decisions: each rule id has a row whose explanation has sentences")
    func everyRuleExplains() throws {
        var explained: Set<String> = []
        for row in Self.rows {
            guard case .valid(let policy, let request) = row.inputs else { continue }
            let inputs = try Self.inputs(of: row, policy)
            let decision = Evaluator(policy: policy).decide(request)
            let explanation = decision.explanation(for: request, under: inputs)
            #expect(explanation.rule.id == decision.rule)
            #expect(explanation.inputs.allSatisfy { !$0.isEmpty && !$0.hasSuffix(".") }, "\(row.location): \(explanation.inputs)")
            if !explanation.inputs.isEmpty { explained.insert(decision.rule.rawValue) }
        }
        let missing = RuleCatalog.all.map(\.id.rawValue).filter { !explained.contains($0) }
        #expect(missing.isEmpty, "rules whose rows get no --explain sentences: \(missing)")
    }

    @Test("the units' request classes cover every channel")
    func requestClassesCoverEveryChannel() {
        let policy = Policy(status: .whitelist)
        let channels = Set(RequestClasses.make(old: policy, new: policy).map(\.channel))
        #expect(channels == Set(Channel.allCases), "channels no unit makes request classes for: \(Set(Channel.allCases).subtracting(channels))")
    }

    @Test("the CLI holds no rule knowledge: no rule id appears in Sources/OpenInCheckCLI outside comments")
    func cliHoldsNoRuleIDs() throws {
        let folder = URL(fileURLWithPath: RulesFolder.path).deletingLastPathComponent().appendingPathComponent("Sources/OpenInCheckCLI")
        let ids = RuleCatalog.all.map(\.id.rawValue)
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { Issue.record("no \(folder.path)"); return }
        var scanned = 0
        for case let file as String in files where file.hasSuffix(".swift") {
            scanned += 1
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for id in ids where code.contains(id) {
                    Issue.record("Sources/OpenInCheckCLI/\(file):\(number + 1) names rule \(id): rule knowledge belongs in its unit under Sources/OpenInAppConnect/Rules/")
                }
            }
        }
        #expect(scanned > 5)
    }
}
