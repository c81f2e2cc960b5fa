import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The statement of what the rules read of a target (``TargetFact``, each unit's ``RuleUnit/targetReads``)
/// against the rules themselves: on random policies, two targets with the same declared facts get the
/// same decision from the evaluator on every channel, and from each unit alone (whether it covers the
/// request, and what it decides), but for the target's own ID where a decision names its receiver.
@Suite struct TargetFactsTests {
    static let pool = ["com.a.one", "com.a.two", "com.b.three", "com.b.four", "com.apple.mobilemail", "com.apple.UIKit.activity.Mail",
                       "com.apple.UIKit.activity.AirDrop", "com.apple.keyboard", "com.mobileiron.ios.emailplus", "com.other.app"].map { try! BundleID($0) }

    static func randomPolicy(_ random: inout SplitMix64) -> Policy {
        func some(_ upTo: Int) -> [BundleID] { (0..<random.below(upTo + 1)).map { _ in random.pick(pool) } }
        var policy = Policy(status: random.pick([.authorized, .unauthorized, .whitelist]), whitelist: Whitelist(some(5)))
        var device = DeviceFacts()
        device.appConnectApps = Set(some(4))
        device.secureServicesAvailable = random.percent(70)
        device.emailPlusInstalled = random.percent(30)
        // Each scheme's handler: the open-url requests below name their handler through the URL.
        for (index, handler) in pool.enumerated() where random.percent(60) { try! device.setHandler(handler, for: "s\(index)") }
        policy.device = device
        policy.app = try! AppFacts(urlSchemes: random.percent(30) ? ["s\(random.below(pool.count))"] : [])
        if random.percent(30) { policy.dragAndDrop = random.pick([DragAndDropPolicy.all, .none, .appConnect]) }
        policy.openFrom = OpenFromPolicy(status: .whitelist, whitelist: Whitelist(some(3)))
        policy.pasteboard = random.pick([.authorized, .unauthorized, .secureCopy])
        policy.print = .authorized
        if random.percent(60) { policy.excludedActivityTypes = some(7) }
        if random.percent(15) { policy.config = AppConfig([AppConfig.disableOpenInEnforcementKey: "yes"]) }
        if random.percent(20) { policy.config = AppConfig([AppConfig.allowCustomKeyboardsKey: random.pick(["true", "false"])]) }
        if random.percent(10) { policy.enforcing = false }
        return policy
    }

    /// The request on `channel` to target `index` of the pool: for `open-url`, a URL of the scheme it handles (`nil` when it handles none).
    static func request(_ channel: Channel, _ index: Int, _ policy: Policy) -> ShareRequest? {
        if channel == .openURL {
            // The sender's own scheme is decided without its handler (a fact of the URL, not of the handler): left out.
            guard policy.device.handler(forScheme: "s\(index)") == pool[index], !policy.app.urlSchemes.contains("s\(index)") else { return nil }
            return try? ShareRequest(channel: .openURL, url: try ShareURL("s\(index)://x"))
        }
        return try? ShareRequest(channel: channel, target: pool[index])
    }

    /// The channels whose requests name a target (`open-url`: its scheme's handler).
    static let channels: [Channel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop, .copy, .keyboard, .openURL]

    /// What a decision says, the request's own target (or handler) written as `*`: two targets of one kind must say the same.
    static func shape(_ decision: Decision, _ request: ShareRequest, target: BundleID) -> String {
        let to = decision.target.map { $0 == target ? "*" : $0.rawValue } ?? "-"
        var callbacks = decision.callbacks.map { "\($0)" }.joined(separator: ";").replacingOccurrences(of: target.rawValue, with: "*")
        if let url = request.url { callbacks = callbacks.replacingOccurrences(of: url.description, with: "*") }
        return "\(decision.outcome) \(decision.rule) to \(to) audience \(decision.audience.map { "\($0)" } ?? "-") ui \(decision.openInUI) [\(callbacks)]"
    }

    /// Decides random requests to pairs of targets, and compares the two where the declared facts (`facts` on the
    /// channel) are the same. Returns how many pairs were compared.
    static func pairs(_ facts: (Channel) -> TargetFacts, seed: UInt64, _ compare: (ShareRequest, ShareRequest, PreparedPolicy, BundleID, BundleID) -> Void) -> Int {
        var random = SplitMix64(seed: seed)
        var compared = 0
        for _ in 0..<1_500 {
            let policy = randomPolicy(&random)
            let prepared = PreparedPolicy(policy)
            for channel in channels {
                let reads = facts(channel)
                let a = random.below(pool.count), b = random.below(pool.count)
                guard a != b, let first = request(channel, a, policy), let second = request(channel, b, policy) else { continue }
                guard TargetFacts.of(pool[a], under: prepared, reading: reads) == TargetFacts.of(pool[b], under: prepared, reading: reads) else { continue }
                compare(first, second, prepared, pool[a], pool[b])
                compared += 1
            }
        }
        return compared
    }

    @Test func targetsOfOneKindGetOneDecisionOnEveryChannel() {
        var differing: [String] = []
        let compared = Self.pairs({ TargetFacts.read(on: $0) }, seed: 0x7461_7267) { first, second, prepared, a, b in
            let one = Self.shape(Evaluator.decide(first, prepared), first, target: a), other = Self.shape(Evaluator.decide(second, prepared), second, target: b)
            if one != other { differing.append("\(first) → \(one); \(second) → \(other)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(compared > 3_000)
    }

    /// Each unit alone: where the facts it declares on the channel are the same, it covers both requests or
    /// neither, and decides them alike. A unit that reads more of the target than it declares fails here.
    @Test(arguments: RuleCatalog.units.indices)
    func eachUnitReadsOnlyWhatItDeclares(unit position: Int) {
        let unit = RuleCatalog.units[position]
        var differing: [String] = []
        var covered = 0
        let compared = Self.pairs({ unit.targetReads.facts(on: $0) }, seed: 0x756E_6974 &+ UInt64(position)) { first, second, prepared, a, b in
            let covers = (unit.covers(first, prepared), unit.covers(second, prepared))
            guard covers.0 == covers.1 else {
                differing.append("\(unit) covers \(first) but not \(second), or the other way")
                return
            }
            guard covers.0 else { return }
            covered += 1
            let one = Self.shape(unit.decide(first, prepared), first, target: a), other = Self.shape(unit.decide(second, prepared), second, target: b)
            if one != other { differing.append("\(unit): \(first) → \(one); \(second) → \(other)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(compared > 1_000)
        // A unit that owns a targeted channel decides some of the pairs compared.
        if !unit.targetReads.channels.isEmpty { #expect(covered > 20, "\(unit) covered \(covered) pairs") }
    }

    /// The excluded activities are among the facts the share sheet reads, and a fast path keys by them.
    @Test func theShareSheetReadsTheExcludedActivities() {
        #expect(TargetFacts.read(on: .activityView).has(.excludedActivity))
        #expect(!TargetFacts.read(on: .documentInteraction).has(.excludedActivity))
        #expect(TargetFacts.read(on: .documentInteraction) == .listed)
    }
}
