import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The soundness of `PolicyDiff`, checked against random requests.
///
/// For random policy pairs: when the diff says `equivalent`, random requests
/// never decide differently; when it names a change, that request really
/// decides differently; every random request that decides differently goes
/// the way the verdict says (never less permissive under "more permissive",
/// never more under "less permissive"); and it has a representative among the
/// reported changes — a change on the same channel whose two decisions have
/// the same outcomes, rules, callbacks (by selector) and Open In UI — so no
/// kind of change is missed even where the verdict would hide it.
///
/// Deterministic: a seeded generator. Environment variables:
/// `OPENIN_SOUNDNESS_SEED` (default 20240607), `OPENIN_SOUNDNESS_REQUESTS`
/// (random requests replayed against pairs found equivalent, default
/// 1,000,000, split over the shards).
@Suite("PolicyDiff soundness")
struct DiffSoundnessTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["OPENIN_SOUNDNESS_SEED"].flatMap { UInt64($0) } ?? 20_240_607
    static let equivalentRequests = environment["OPENIN_SOUNDNESS_REQUESTS"].flatMap { Int($0) } ?? 1_000_000
    static let shards = 4
    /// Requests per pair: many for equivalent pairs (the claim to refute), fewer for the others.
    static let requestsPerEquivalentPair = 5_000
    static let requestsPerOtherPair = 500
    /// Pairs per shard at least, however small the request budget, so every verdict is reached.
    static let minimumPairs = 150

    @Test("random policy pairs: verdicts hold for random requests", arguments: 0..<shards)
    func randomPairs(shard: Int) throws {
        var random = SplitMix64(seed: Self.seed &+ UInt64(shard) &* 0x9E37_79B9_7F4A_7C15)
        let universe = try Universe()
        let budget = Self.equivalentRequests / Self.shards
        var replayed = 0
        var verdicts: [DiffVerdict: Int] = [:]
        var pairIndex = 0
        while replayed < budget || pairIndex < Self.minimumPairs {
            let old = try universe.policy(&random)
            let new = try random.chance(0.25) ? universe.policy(&random) : universe.mutate(old, &random)
            let diff = PolicyDiff(old: old, new: new)
            verdicts[diff.verdict, default: 0] += 1
            func context() -> String { "seed \(Self.seed) shard \(shard) pair \(pairIndex)\nold: \(old)\nnew: \(new)" }

            for change in diff.changes {
                let before = Evaluator(policy: old).decide(change.request)
                let after = Evaluator(policy: new).decide(change.request)
                #expect(observablyDiffer(before, after), "reported change does not decide differently: \(change.request)\n\(context())")
            }

            let count = diff.verdict == .equivalent
                ? max(0, min(Self.requestsPerEquivalentPair, budget - replayed))
                : Self.requestsPerOtherPair
            if let counterexample = firstCounterexample(diff, count: count, universe, &random) {
                Issue.record("\(counterexample)\n\(context())")
                return
            }
            if diff.verdict == .equivalent { replayed += count }
            pairIndex += 1
        }
        // Every verdict must be reached, or the generator has become too narrow to test anything.
        for verdict in DiffVerdict.allCases {
            #expect(verdicts[verdict, default: 0] > 0, "no random pair was \(verdict) (seed \(Self.seed), shard \(shard)): \(verdicts)")
        }
    }

    /// The first random request that contradicts the diff, described.
    private func firstCounterexample(_ diff: PolicyDiff, count: Int, _ universe: Universe, _ random: inout SplitMix64) -> String? {
        let before = Evaluator(policy: diff.old), after = Evaluator(policy: diff.new)
        let reported = Set(diff.changes.map { Signature($0.request, $0.old, $0.new) })
        let verdict = diff.verdict
        let gaps = Set(diff.controlGaps.map(\.channel))
        for _ in 0..<count {
            let request = universe.request(&random)
            // A request one policy cannot decide is an error there, not a decision: the diff must name the gap.
            let oldMissing = diff.old.missingKey(for: request.channel), newMissing = diff.new.missingKey(for: request.channel)
            if oldMissing != nil || newMissing != nil {
                if (oldMissing == nil) != (newMissing == nil), !gaps.contains(request.channel) || verdict != .incomparable {
                    return "\(request.channel) is decided by one policy only, but the diff names no gap for it (verdict \(verdict))"
                }
                continue
            }
            let old = before.decide(request), new = after.decide(request)
            guard observablyDiffer(old, new) else { continue }
            let direction = DecisionChange.Direction(old: old, new: new)
            let consistent = switch verdict {
            case .equivalent: false
            case .morePermissive: direction == .morePermissive
            case .lessPermissive: direction == .lessPermissive
            case .incomparable: true
            }
            if !consistent {
                return "diff says \(diff.verdict), but \(request) goes \(direction): \(old) → \(new)"
            }
            if !reported.contains(Signature(request, old, new)) {
                return "\(request) decides differently (\(old) → \(new)), but no reported change is like it: \(diff.changes)"
            }
        }
        return nil
    }
}

/// What a change looks like apart from the request's own target, URL and
/// document, which both decisions echo: two requests of one class share it.
private struct Signature: Hashable {
    let channel: Channel
    let outcomes: [Outcome]
    let rules: [RuleID]
    let callbacks: [String?]
    let audiences: [CopyAudience?]
    let interfaces: [OpenInUI]

    init(_ request: ShareRequest, _ old: Decision, _ new: Decision) {
        channel = request.channel
        outcomes = [old.outcome, new.outcome]
        rules = [old.rule, new.rule]
        callbacks = [old.callback?.name, new.callback?.name]
        audiences = [old.audience, new.audience]
        interfaces = [old.openInUI, new.openInUI]
    }
}

/// Whether two decisions differ in what they show the app and the user, spelled
/// out independently of `Decision.decidesDifferently(from:)` so the test does
/// not trust the code it tests. (The dummy name is built only when both
/// substitute one: building it for every request would dominate the run.)
private func observablyDiffer(_ a: Decision, _ b: Decision) -> Bool {
    if a.outcome != b.outcome || a.target != b.target || a.callback != b.callback || a.audience != b.audience
        || a.openInUI != b.openInUI { return true }
    return a.outcome == .substituteDummyFile && a.dummyFileName != b.dummyFileName
}

/// Draws the soundness test needs on top of the shared `SplitMix64` (SeededRandom.swift).
private extension SplitMix64 {
    /// True with `probability`. (Plain arithmetic: the standard library's generic
    /// `random(in:using:)` is slow unoptimised, and a debug `swift test` draws millions.)
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < probability }

    /// Each of `values` with `probability`, in order.
    mutating func subset<T>(_ values: [T], probability: Double) -> [T] { values.filter { _ in chance(probability) } }
}

/// The small world random policies and requests are drawn from: few enough
/// IDs and schemes that policies overlap often, plus case variants and fresh
/// values that no policy names.
private struct Universe {
    let ids: [BundleID]
    let requestIDs: [BundleID]
    let schemes = ["docs", "notes", "viewer", "http", "https", "mailto", "x-app"]
    let urls: [ShareURL]
    let documents: [String?] = [nil, "report.pdf", "Q3 salaries.xlsx", "notes"]
    let channels = Channel.allCases
    let mailLinkURL: ShareURL

    init() throws {
        ids = try ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.mobileiron.ios.emailplus",
                   "com.example.mail2", "com.example.docs", "com.example.notes", "com.example.Notes", "com.example.viewer",
                   "com.example.pdf", "com.example.chat", "com.example.drive", "com.example.sheets"]
            .map { try BundleID($0) }
        let variants = try ["com.apple.MobileMail", "com.Example.docs", "com.example.docs.extension"].map { try BundleID($0) }
        let fresh = try (0..<16).map { try BundleID("com.random.app\($0)") }
        requestIDs = ids + variants + fresh
        var urls: [ShareURL] = []
        for scheme in schemes + ["MAILTO", "Https", "DOCS", "unknown", "y-app", "docs2"] {
            for path in ["://x", ":someone@example.com", "://open?file=a%20b"] { urls.append(try ShareURL(scheme + path)) }
        }
        self.urls = urls
        mailLinkURL = try ShareURL("mailto:a@example.com")
    }

    func policy(_ random: inout SplitMix64) throws -> Policy {
        // A quarter of policies are "closed": the whole mail family listed, and every handler
        // and AppConnect app among the listed apps. Then no named ID is left unlisted, and only
        // the fresh ID stands for the other apps: a class set without it is caught.
        let closed = random.chance(0.25)
        var listed = random.subset(ids, probability: 0.3)
        if closed || random.chance(0.2) { listed += [ids[0], ids[1], ids[2]] }
        var device = DeviceFacts()
        device.emailPlusInstalled = random.chance(0.5)
        if random.chance(0.2) { device.emailPlusBundleIDs = [ids[3]] }
        if closed, device.emailPlusBundleIDs == [ids[3]] { listed.append(ids[3]) }
        let named = closed ? listed : ids
        for scheme in schemes where random.chance(0.2) {
            try device.setHandler(random.pick(named), for: scheme)
        }
        device.appConnectApps = Set(random.subset(named, probability: 0.25))
        var app = AppFacts()
        for scheme in schemes where random.chance(0.15) { try app.addScheme(scheme) }
        var config: [String: String] = [:]
        if random.chance(0.3) { config[AppConfig.disableSchemeBlockingKey] = random.pick(["true", "True", "yes"]) }
        if random.chance(0.15) { config[AppConfig.disableOpenInEnforcementKey] = random.pick(["yes", "TRUE", "no", "1"]) }
        let setting: PolicySetting = random.chance(0.15)
            ? .allAppConnectApps
            : .status(random.pick([OpenInStatus.unauthorized, .authorized, .whitelist, .whitelist]))
        device.secureServicesAvailable = random.pick([true, true, false, nil])
        var policy = PolicyInputs(setting: setting, stated: Policy(
            status: .unauthorized,
            whitelist: Whitelist(listed),
            config: AppConfig(config),
            infoPlist: InfoPlistOverrides(disableSchemeBlocking: random.chance(0.2)),
            device: device, app: app,
            dragAndDrop: random.pick([nil, nil, DragAndDropPolicy.all, .appConnect, DragAndDropPolicy.none]),
            enforcing: random.chance(0.9))).policy
        // Beyond Open In: usually set (a closed policy's Open From list holds only named IDs).
        if random.chance(0.85) { policy.openFrom = openFrom(named: closed ? listed : ids, &random) }
        if random.chance(0.85) { policy.pasteboard = random.pick(PasteboardPolicy.allCases) }
        if random.chance(0.85) { policy.print = random.pick(PrintPolicy.allCases) }
        if random.chance(0.5) { policy.webDLP = random.pick(WebDLPPolicy.allCases) }
        policy.device.webAtWorkInstalled = random.chance(0.5)
        if random.chance(0.4) { policy.excludedActivityTypes = random.subset(named, probability: 0.3) }
        if random.chance(0.4) { policy.config = AppConfig(config.merging([AppConfig.allowCustomKeyboardsKey: random.pick(["true", "false", "TRUE"])]) { $1 }) }
        policy.app.allowsCustomKeyboards = random.chance(0.7)
        return policy
    }

    func openFrom(named: [BundleID], _ random: inout SplitMix64) -> OpenFromPolicy {
        random.chance(0.15)
            ? OpenFromPolicy(.allAppConnectApps)
            : OpenFromPolicy(status: random.pick([OpenFromStatus.unauthorized, .authorized, .whitelist, .whitelist]),
                             whitelist: Whitelist(random.subset(named, probability: 0.3)))
    }

    /// `policy` with one or two fields changed, often to something that makes no difference.
    func mutate(_ policy: Policy, _ random: inout SplitMix64) throws -> Policy {
        var result = policy
        for _ in 0...random.below(2) {
            switch random.below(17) {
            case 13: result.webDLP = random.pick([nil, WebDLPPolicy.allowed, .notAllowed])
            case 14: result.device.webAtWorkInstalled.toggle()
            case 15:
                let id = random.pick(ids)
                if result.excludedActivityTypes.contains(id) { result.excludedActivityTypes.removeAll { $0 == id } } else { result.excludedActivityTypes.append(id) }
            case 16:
                if random.chance(0.5) {
                    result.app.allowsCustomKeyboards.toggle()
                } else {
                    result.config = AppConfig(random.chance(0.3) ? [:] : [AppConfig.allowCustomKeyboardsKey: random.pick(["true", "false", "no"])])
                }
            case 10: result.openFrom = random.chance(0.2) ? nil : openFrom(named: ids, &random)
            case 11: result.pasteboard = random.pick([nil, PasteboardPolicy.unauthorized, .authorized, .secureCopy, .secureCopy])
            case 12:
                if random.chance(0.5) {
                    result.print = random.pick([nil, PrintPolicy.unauthorized, .authorized])
                } else {
                    result.device.secureServicesAvailable = random.pick([true, false, nil])
                }
            case 0: result.status = random.pick(OpenInStatus.allCases)
            case 1:
                var ids = result.whitelist.ids
                let id = random.pick(self.ids)
                if ids.contains(id) { ids.remove(id) } else { ids.insert(id) }
                result.whitelist = Whitelist(ids)
            case 2: result.config = AppConfig(random.chance(0.5) ? [:] : [AppConfig.disableSchemeBlockingKey: random.pick(["true", "TRUE"])])
            case 3: result.infoPlist = InfoPlistOverrides(disableSchemeBlocking: !result.infoPlist.disableSchemeBlocking)
            case 4: result.device.emailPlusInstalled.toggle()
            case 5: try result.device.setHandler(random.pick(ids), for: random.pick(schemes))
            case 6: result.device.appConnectApps.formSymmetricDifference([random.pick(ids)])
            case 7: try result.app.addScheme(random.pick(schemes))
            case 8: result.dragAndDrop = random.pick([nil, DragAndDropPolicy.all, .appConnect, DragAndDropPolicy.none])
            default: result.enforcing.toggle()
            }
        }
        return result
    }

    /// A target: most often an ID the policies may name, otherwise a case variant or a fresh ID.
    func target(_ random: inout SplitMix64) -> BundleID {
        random.chance(0.6) ? random.pick(ids) : random.pick(requestIDs)
    }

    func request(_ random: inout SplitMix64) -> ShareRequest {
        let channel = random.pick(channels)
        let document = random.pick(documents)
        do {
            switch channel {
            case .documentInteraction, .quickLook, .appExtension, .dragAndDrop:
                return try ShareRequest(channel: channel, target: target(&random), document: document)
            case .activityView:
                return try ShareRequest(channel: channel, target: random.chance(0.5) ? target(&random) : nil, document: document)
            case .openURL:
                return try ShareRequest(channel: channel, url: random.pick(urls))
            case .mailLink:
                return try ShareRequest(channel: channel, url: random.chance(0.5) ? mailLinkURL : nil)
            case .mailCompose:
                return try ShareRequest(channel: channel, document: document)
            case .openFrom:
                return try ShareRequest(channel: channel, source: random.chance(0.8) ? target(&random) : nil, document: document)
            case .copy:
                return try ShareRequest(channel: channel, target: random.chance(0.5) ? target(&random) : nil)
            case .print:
                return try ShareRequest(channel: channel, document: document)
            case .paste:
                return try ShareRequest(channel: channel, source: random.chance(0.7) ? target(&random) : nil)
            case .keyboard:
                return try ShareRequest(channel: channel, target: random.chance(0.2) ? nil : random.chance(0.3) ? .systemKeyboard : target(&random))
            }
        } catch {
            preconditionFailure("the test built an invalid request: \(error)")
        }
    }
}
