import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@Suite("PolicyDiff")
struct DiffTests {
    static func ids(_ texts: String...) throws -> [BundleID] { try texts.map { try BundleID($0) } }

    static func whitelist(_ texts: String...) throws -> Policy {
        Policy(status: .whitelist, whitelist: Whitelist(try texts.map { try BundleID($0) }))
    }

    /// A change written as `kind channel target-or-url old-outcome→new-outcome`, for exact comparison.
    static func line(_ change: DecisionChange) -> String {
        let subject = change.request.target?.rawValue ?? change.request.url?.rawValue ?? "-"
        return "\(change.kind) \(change.request.channel) \(subject) \(change.old.outcome)→\(change.new.outcome)"
    }

    @Test func requestClassesCoverEveryNamedIDAndScheme() throws {
        var device = DeviceFacts()
        try device.setHandler(try BundleID("com.example.notes"), for: "notes")
        let policy = Policy(status: .whitelist, whitelist: Whitelist(try Self.ids("com.example.docs")), device: device,
                            app: try AppFacts(urlSchemes: ["MyApp"]))
        let classes = PolicyDiff.requestClasses(old: policy, new: Policy(status: .unauthorized))
        let described = classes.map { "\($0.channel) \($0.target?.rawValue ?? "-") \($0.url?.rawValue ?? "-")" }
        let targets = ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.docs", "com.example.notes",
                       "com.mobileiron.ios.emailplus", "com.example.unlisted-app"]
        var expected: [String] = []
        for channel in ["document-interaction", "quick-look", "app-extension"] {
            expected += targets.map { "\(channel) \($0) -" }
        }
        expected += ["activity-view - -", "activity-view com.example.unlisted-app -"]
        expected += ["mailto:someone@example.com", "http://example.com/", "https://example.com/", "myapp://share", "notes://share",
                     "x-unhandled://share"].map { "open-url - \($0)" }
        expected += ["mail-link - mailto:someone@example.com", "mail-compose - -"]
        expected += targets.map { "drag-and-drop \($0) -" }
        // Paste reads no target (with and without a source); a keyboard is the system one or a custom one.
        expected += ["paste - -", "paste - -", "keyboard - -", "keyboard com.apple.keyboard -", "keyboard com.example.unlisted-app -"]
        #expect(described == expected)
    }

    @Test("the classes are walked without building them all, each once, and counted without walking them")
    func classesAreEachWalkedOnce() throws {
        var device = DeviceFacts()
        try device.setHandler(try BundleID("com.example.notes"), for: "notes")
        device.appConnectApps = [try BundleID("com.example.sheets")]
        var policy = Policy(status: .whitelist, whitelist: Whitelist(try Self.ids("com.example.docs")), device: device,
                            app: try AppFacts(urlSchemes: ["MyApp"]))
        policy.openFrom = OpenFromPolicy(status: .authorized)
        policy.pasteboard = .unauthorized
        policy.print = .authorized
        let classes = RequestClasses.make(old: policy, new: policy)
        let walked = Array(classes)
        #expect(Set(walked).count == walked.count, "a request class is walked twice")
        #expect(classes.count == walked.count)
        #expect(Set(walked.map(\.channel)) == Set(Channel.allCases))
        #expect(PolicyDiff(old: policy, new: policy).requestClassCount == walked.count)
    }

    @Test("the changes listed are the first 100 of each group in byte order, though the classes are walked unsorted")
    func sampleIsTheSortedWalksFirstChanges() throws {
        // Scrambled IDs in both policies, many schemes and handlers: several groups fill their 100 in one family and across families.
        var generator = SplitMix64(seed: 32)
        func scrambled(_ prefix: String, _ count: Int) throws -> [BundleID] {
            try (0..<count).map { _ in try BundleID("\(prefix).x\(generator.next() % 100_000).y\(generator.next() % 7)") }
        }
        var oldDevice = DeviceFacts(), newDevice = DeviceFacts()
        for index in 0..<150 {
            try oldDevice.setHandler(try BundleID("com.handler.h\(generator.next() % 1_000)"), for: "s\(generator.next() % 10_000)x\(index)")
            try newDevice.setHandler(try BundleID("com.handler.h\(generator.next() % 1_000)"), for: "s\(generator.next() % 10_000)y\(index)")
        }
        oldDevice.appConnectApps = Set(try scrambled("com.appconnect", 120))
        var old = Policy(status: .whitelist, whitelist: Whitelist(try scrambled("com.listed", 700) + scrambled("com.both", 300)), device: oldDevice,
                         dragAndDrop: .appConnect)
        var new = Policy(status: .whitelist, whitelist: Whitelist(try scrambled("com.other", 500) + Array(old.whitelist.members.suffix(300))),
                         device: newDevice, dragAndDrop: .all)
        old.openFrom = OpenFromPolicy(status: .whitelist, whitelist: Whitelist(try scrambled("com.source", 250)))
        new.openFrom = OpenFromPolicy(status: .authorized)
        let diff = PolicyDiff(old: old, new: new)
        // The reference: the classes in byte order (as requestClasses(old:new:) lists them), the first 100 of each group kept.
        let before = Evaluator(policy: old), after = Evaluator(policy: new)
        var expected: [DecisionChange] = [], counts: [DecisionChange.Kind: Int] = [:]
        for request in PolicyDiff.requestClasses(old: old, new: new) {
            guard let change = DecisionChange(request: request, old: before.decide(request), new: after.decide(request)) else { continue }
            counts[change.kind, default: 0] += 1
            if counts[change.kind, default: 0] <= PolicyDiff.sampleLimit { expected.append(change) }
        }
        #expect(counts.values.contains { $0 > 2 * PolicyDiff.sampleLimit }, "no group is cut: the test would test nothing")
        #expect(diff.changes.map(Self.line) == expected.map(Self.line))
        #expect(diff.changes == expected)
        for kind in DecisionChange.Kind.allCases { #expect(diff.count(kind) == counts[kind, default: 0]) }
    }

    @Test("an app named only as an AppConnect app gets a class: drag and drop under 'appconnect' reads it")
    func appConnectAppsHaveClasses() throws {
        var device = DeviceFacts()
        device.appConnectApps = [try BundleID("com.example.docs")]
        let old = Policy(status: .whitelist, device: device, dragAndDrop: .appConnect)
        let new = Policy(status: .whitelist, device: DeviceFacts(), dragAndDrop: .appConnect)
        let diff = PolicyDiff(old: old, new: new)
        #expect(diff.verdict == .lessPermissive)
        #expect(diff.changes.map(Self.line) == ["newly blocked drag-and-drop com.example.docs allow→deny"])
    }

    @Test func freshIDAndSchemeAvoidWhatThePoliciesName() throws {
        var device = DeviceFacts()
        try device.setHandler(try BundleID("com.example.unlisted-app-2"), for: "x-unhandled")
        let policy = Policy(status: .whitelist, whitelist: Whitelist(try Self.ids("com.example.unlisted-app")), device: device)
        let classes = PolicyDiff.requestClasses(old: policy, new: policy)
        #expect(classes.contains { $0.target?.rawValue == "com.example.unlisted-app-3" })
        #expect(classes.contains { $0.url?.rawValue == "x-unhandled-2://share" })
    }

    @Test("equivalent: AUTHORIZED and enforcement disabled by config deliver the same way")
    func equivalentVerdict() throws {
        let disabled = Policy(status: .whitelist, config: AppConfig([AppConfig.disableOpenInEnforcementKey: "Yes"]))
        let diff = PolicyDiff(old: Policy(status: .authorized), new: disabled)
        #expect(diff.verdict == .equivalent)
        #expect(diff.changes.isEmpty)
        // 4 target channels × 4 targets (the Mail pair, Email+, a fresh ID), 2 activity view, 4 URLs, 2 mail views,
        // 2 paste and 3 keyboard classes.
        #expect(diff.requestClassCount == 29)
    }

    @Test("equivalent: a whitelist under UNAUTHORIZED is ignored")
    func ignoredWhitelistIsEquivalent() throws {
        let old = Policy(status: .unauthorized)
        let new = Policy(status: .unauthorized, whitelist: Whitelist(try Self.ids("com.example.docs", "com.apple.mobilemail")))
        #expect(PolicyDiff(old: old, new: new).verdict == .equivalent)
    }

    @Test("more permissive: adding the Mail pair allows Mail on every channel")
    func morePermissiveVerdict() throws {
        let old = try Self.whitelist("com.example.docs")
        let new = try Self.whitelist("com.example.docs", "com.apple.UIKit.activity.Mail", "com.apple.mobilemail")
        let diff = PolicyDiff(old: old, new: new)
        #expect(diff.verdict == .morePermissive)
        #expect(diff.changes.map(Self.line) == [
            "newly allowed document-interaction com.apple.UIKit.activity.Mail substitute-dummy-file→allow",
            "newly allowed document-interaction com.apple.mobilemail substitute-dummy-file→allow",
            "newly allowed quick-look com.apple.UIKit.activity.Mail substitute-dummy-file→allow",
            "newly allowed quick-look com.apple.mobilemail substitute-dummy-file→allow",
            "newly allowed app-extension com.apple.UIKit.activity.Mail substitute-dummy-file→allow",
            "newly allowed app-extension com.apple.mobilemail substitute-dummy-file→allow",
            "newly allowed open-url mailto:someone@example.com deny→allow",
            "newly allowed mail-link mailto:someone@example.com deny→allow",
            "newly allowed mail-compose - deny→allow",
            "newly allowed drag-and-drop com.apple.UIKit.activity.Mail deny→allow",
            "newly allowed drag-and-drop com.apple.mobilemail deny→allow",
        ])
        #expect(diff.changes(.newlyAllowed).count == 11)
        #expect(diff.changes(.newlyBlocked).isEmpty && diff.changes(.changed).isEmpty)
    }

    @Test("less permissive: removing one Mail ID blocks Mail everywhere")
    func lessPermissiveVerdict() throws {
        let old = try Self.whitelist("com.example.docs", "com.apple.UIKit.activity.Mail", "com.apple.mobilemail")
        let new = try Self.whitelist("com.example.docs", "com.apple.mobilemail")
        let diff = PolicyDiff(old: old, new: new)
        #expect(diff.verdict == .lessPermissive)
        #expect(diff.changes.count == 11)
        #expect(diff.changes.allSatisfy { $0.kind == .newlyBlocked && $0.direction == .lessPermissive })
        #expect(diff.changes.map(Self.line).contains("newly blocked mail-compose - allow→deny"))
    }

    @Test("incomparable: swapping a listed app blocks one and allows another")
    func incomparableVerdict() throws {
        let diff = PolicyDiff(old: try Self.whitelist("com.example.docs"), new: try Self.whitelist("com.example.notes"))
        #expect(diff.verdict == .incomparable)
        #expect(diff.changes.map(Self.line) == [
            "newly blocked document-interaction com.example.docs allow→substitute-dummy-file",
            "newly allowed document-interaction com.example.notes substitute-dummy-file→allow",
            "newly blocked quick-look com.example.docs allow→substitute-dummy-file",
            "newly allowed quick-look com.example.notes substitute-dummy-file→allow",
            "newly blocked app-extension com.example.docs allow→substitute-dummy-file",
            "newly allowed app-extension com.example.notes substitute-dummy-file→allow",
            "newly blocked drag-and-drop com.example.docs allow→deny",
            "newly allowed drag-and-drop com.example.notes deny→allow",
        ])
    }

    @Test("incomparable: the same outcome delivered to another app has no direction")
    func anotherReceiverIsIncomparable() throws {
        var before = DeviceFacts(), after = DeviceFacts()
        try before.setHandler(try BundleID("com.example.docs"), for: "docs")
        try after.setHandler(try BundleID("com.example.notes"), for: "docs")
        let diff = PolicyDiff(old: Policy(status: .authorized, device: before), new: Policy(status: .authorized, device: after))
        #expect(diff.verdict == .incomparable)
        #expect(diff.changes.map(Self.line) == ["changed open-url docs://share allow→allow"])
        #expect(diff.changes.first?.direction == .neither)
        #expect(diff.changes.first?.old.target?.rawValue == "com.example.docs")
        #expect(diff.changes.first?.new.target?.rawValue == "com.example.notes")
    }

    @Test("UNAUTHORIZED to an empty WHITELIST only enables the Open In UI: more permissive, all changed")
    func uiOnlyChangeIsMorePermissive() throws {
        let diff = PolicyDiff(old: Policy(status: .unauthorized), new: Policy(status: .whitelist))
        #expect(diff.verdict == .morePermissive)
        #expect(!diff.changes.isEmpty)
        #expect(diff.changes.allSatisfy { $0.kind == .changed && $0.old.openInUI == .disabled && $0.new.openInUI == .enabled })
        // Every class changes: the UI state is part of every decision.
        #expect(diff.changeCount == diff.requestClassCount)
    }

    @Test("the redirect to Email+ is less than allow and more than deny")
    func redirectSitsBetweenAllowAndDeny() throws {
        var emailPlus = DeviceFacts()
        emailPlus.emailPlusInstalled = true
        let mailto = try ShareRequest(channel: "open-url", url: "mailto:a@example.com")
        let allowed = Evaluator(policy: Policy(status: .authorized)).decide(mailto)
        let redirected = Evaluator(policy: Policy(status: .unauthorized, device: emailPlus)).decide(mailto)
        let denied = Evaluator(policy: Policy(status: .unauthorized)).decide(mailto)
        // Allowed to native Mail, then redirected to Email+: still delivered, to another app, not blocked.
        #expect(DecisionChange(request: mailto, old: allowed, new: redirected)?.kind == .deliveredElsewhere)
        #expect(DecisionChange(request: mailto, old: redirected, new: allowed)?.kind == .deliveredElsewhere)
        #expect(DecisionChange(request: mailto, old: allowed, new: redirected)?.direction == .lessPermissive)
        #expect(DecisionChange(request: mailto, old: redirected, new: denied)?.kind == .newlyBlocked)
        #expect(DecisionChange(request: mailto, old: denied, new: redirected)?.kind == .newlyAllowed)
        #expect(DecisionChange(request: mailto, old: denied, new: denied) == nil)
    }

    @Test func ruleIDsAreNotCompared() throws {
        let request = try ShareRequest(channel: "quick-look", target: "com.example.docs")
        let byStatus = Evaluator(policy: Policy(status: .authorized)).decide(request)
        let byList = Evaluator(policy: try Self.whitelist("com.example.docs")).decide(request)
        #expect(byStatus.rule != byList.rule)
        #expect(!byStatus.decidesDifferently(from: byList))
    }

    @Test(arguments: [
        ([DecisionChange.Direction](), DiffVerdict.equivalent),
        ([.morePermissive, .morePermissive], .morePermissive),
        ([.lessPermissive], .lessPermissive),
        ([.morePermissive, .lessPermissive], .incomparable),
        ([.morePermissive, .neither], .incomparable),
        ([.neither], .incomparable),
    ])
    func verdictFromDirections(_ directions: [DecisionChange.Direction], _ verdict: DiffVerdict) {
        #expect(DiffVerdict(directions) == verdict)
    }

    @Test func replayCountsTheRequestsThatChange() throws {
        let old = try Self.whitelist("com.example.docs")
        let new = try Self.whitelist("com.example.notes")
        let requests = try [
            ShareRequest(channel: "document-interaction", target: "com.example.docs", document: "a.pdf"),
            ShareRequest(channel: "document-interaction", target: "com.example.docs", document: "b.pdf"),
            ShareRequest(channel: "quick-look", target: "com.example.notes"),
            ShareRequest(channel: "quick-look", target: "com.example.viewer"),
            ShareRequest(channel: "open-url", url: "https://example.com"),
        ]
        let summary = PolicyDiff.replay(old: old, new: new, requests: requests)
        #expect(summary.requestCount == 5)
        #expect(summary.changedCount == 3)
        #expect(summary.count(.newlyBlocked) == 2)
        #expect(summary.count(.newlyAllowed) == 1)
        #expect(summary.count(.changed) == 0)
        #expect(summary.changes.map(\.count) == [2, 1])
        #expect(summary.changes.first?.change.request.document == "a.pdf")
        #expect(summary.verdict == .incomparable)
        #expect(PolicyDiff.replay(old: old, new: new, requests: requests.suffix(2)).verdict == .equivalent)
    }
}

/// `replay` keeps counts over the whole log and only a bounded sample of the changes.
struct ReplayBoundTests {
    @Test func replayKeepsABoundedSampleAndCountsEveryRequest() throws {
        let old = try DiffTests.whitelist("com.example.docs")
        let new = try DiffTests.whitelist("com.example.notes")
        let limit = ReplaySummary.sampleLimit
        let requests = try (0..<(limit + 50)).map { try ShareRequest(channel: "document-interaction", target: "com.example.docs", document: "d\($0).pdf") }
        let summary = PolicyDiff.replay(old: old, new: new, requests: requests)
        // The document does not make a request distinct: one change, counted limit + 50 times.
        #expect(summary.changes.count == 1)
        #expect(summary.changes.first?.count == limit + 50)
        #expect(summary.omittedCount(.newlyBlocked) == 0)
    }

    @Test func replayStopsListingAfterTheSampleLimit() throws {
        let limit = ReplaySummary.sampleLimit
        let ids = (0..<(limit + 30)).map { "com.example.app\($0)" }
        let old = Policy(status: .whitelist, whitelist: Whitelist(try ids.map { try BundleID($0) }))
        let new = try DiffTests.whitelist("com.example.other")
        var requests = try ids.map { try ShareRequest(channel: .documentInteraction, target: BundleID($0)) }
        // A sampled request again, and an omitted one again: both counted.
        requests.append(try ShareRequest(channel: .documentInteraction, target: BundleID(ids[0])))
        requests.append(try ShareRequest(channel: .documentInteraction, target: BundleID(ids[limit + 1])))
        let summary = PolicyDiff.replay(old: old, new: new, requests: requests)
        #expect(summary.requestCount == limit + 32)
        #expect(summary.count(.newlyBlocked) == limit + 32)
        #expect(summary.changes.count == limit)
        #expect(summary.changes.first?.count == 2)
        #expect(summary.omittedCount(.newlyBlocked) == 31)
        #expect(summary.verdict == .lessPermissive)
    }
}
