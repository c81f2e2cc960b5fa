import Testing
import OpenInPolicy

/// Properties every engine decision must have, checked on the differential
/// test's random inputs (same seed, same count). Each property also counts the
/// cases it applied to, so a generator that stops reaching it fails too.
@Suite("Invariants on random inputs")
struct InvariantTests {
    /// Fewer applicable cases than this means the generator no longer exercises the property.
    static let minimumCases = 100

    /// Whether the policy restricts Open In at all: enforcing, and not switched off by the server's config.
    static func restricts(_ setup: ReferenceModel.Setup) -> Bool {
        setup.enforcing && !setup.enforcementDisabled
    }

    @Test("enforcing AUTHORIZED always allows on the Open In channels (unless a drag-and-drop policy decides a drag, the Web DLP setting a web address, or the activity is excluded)")
    func authorizedAllows() {
        var cases = 0
        var failures = 0
        RandomCases.shared.forEachPair(including: { Self.restricts($0.setup) && $0.setup.status == "AUTHORIZED" }) { policy, request in
            let setup = policy.setup
            guard Self.restricts(setup), setup.status == "AUTHORIZED",
                  !["open-from", "copy", "print", "paste", "keyboard"].contains(request.share.channel),
                  !(request.share.channel == "drag-and-drop" && setup.dragAndDrop != nil),
                  !(request.share.channel == "open-url" && setup.webDLP != nil && ["http", "https"].contains(request.share.scheme ?? "")),
                  !(request.share.channel == "activity-view" && request.share.target.map { ReferenceModel.has(setup.excludedActivities, $0) } == true)
            else { return }
            cases += 1
            let decision = policy.evaluator.decide(request.request)
            if decision.outcome != .allow {
                failures += 1
                if failures <= 3 { Issue.record("AUTHORIZED gave \(decision.outcome) (\(decision.rule)) for \(request.input) under \(policy.input)") }
            }
        }
        #expect(failures == 0)
        #expect(cases >= Self.minimumCases)
    }

    @Test("the activity view is always denied under enforcing UNAUTHORIZED and WHITELIST")
    func activityViewDenied() {
        var cases = 0
        var failures = 0
        RandomCases.shared.forEachPair(including: { Self.restricts($0.setup) && $0.setup.status != "AUTHORIZED" }) { policy, request in
            guard Self.restricts(policy.setup), policy.setup.status != "AUTHORIZED",
                  request.share.channel == "activity-view" else { return }
            cases += 1
            let decision = policy.evaluator.decide(request.request)
            if decision.outcome != .deny || decision.target != nil {
                failures += 1
                if failures <= 3 { Issue.record("activity view gave \(decision.outcome) to \(decision.target?.rawValue ?? "-") under \(policy.input)") }
            }
        }
        #expect(failures == 0)
        #expect(cases >= Self.minimumCases)
    }

    @Test("under WHITELIST native Mail is allowed exactly when both Mail IDs are listed")
    func mailNeedsThePair() {
        var allowed = 0
        var blocked = 0
        var failures = 0
        RandomCases.shared.forEachPair(including: { Self.restricts($0.setup) && $0.setup.status == "WHITELIST" }) { policy, request in
            let setup = policy.setup
            let channel = request.share.channel
            // A link goes to the device's mail app: only when that is native Mail does the pair decide it.
            guard Self.restricts(setup), setup.status == "WHITELIST",
                  channel == "mail-compose" || (channel == "mail-link" && ReferenceModel.mailApp(setup) == ReferenceModel.mobileMail) else { return }
            let pairListed = setup.whitelist.contains(ReferenceModel.mailActivity) && setup.whitelist.contains(ReferenceModel.mobileMail)
            let decision = policy.evaluator.decide(request.request)
            let mailOpened = decision.outcome == .allow && decision.target?.rawValue == ReferenceModel.mobileMail
            if pairListed { allowed += 1 } else { blocked += 1 }
            if mailOpened != pairListed {
                failures += 1
                if failures <= 3 { Issue.record("\(channel) gave \(decision.outcome) with whitelist \(setup.whitelist)") }
            }
        }
        #expect(failures == 0)
        #expect(allowed >= Self.minimumCases)
        #expect(blocked >= Self.minimumCases)
    }

    @Test("under WHITELIST a URL whose handler is unknown is never allowed")
    func unknownHandlerNeverAllowed() {
        var cases = 0
        var failures = 0
        RandomCases.shared.forEachPair(including: { Self.restricts($0.setup) && $0.setup.status == "WHITELIST" }) { policy, request in
            let setup = policy.setup
            guard Self.restricts(setup), setup.status == "WHITELIST", request.share.channel == "open-url",
                  let scheme = request.share.scheme, scheme != "mailto", scheme != "http", scheme != "https",
                  !setup.appSchemes.contains(scheme), !setup.handlers.contains(where: { $0.scheme == scheme }) else { return }
            cases += 1
            let decision = policy.evaluator.decide(request.request)
            if decision.outcome == .allow {
                failures += 1
                if failures <= 3 { Issue.record("\(request.input.url ?? "") with no handler was allowed under \(policy.input)") }
            }
        }
        #expect(failures == 0)
        #expect(cases >= Self.minimumCases)
    }

    @Test("invalid input is an error, never a decision")
    func invalidInputThrows() {
        let cases = RandomCases.shared
        let evaluators = cases.validPolicies.prefix(16).map(\.evaluator)
        var requests = 0
        for (position, item) in cases.requests.enumerated() where item.deliberatelyInvalid {
            requests += 1
            let evaluator = evaluators[position % evaluators.count]
            let input = item.input
            do {
                let decision = try evaluator.decideOrThrow(channel: input.channel, target: input.target, url: input.url,
                                                    source: input.source, document: input.document)
                Issue.record("invalid request \(input) was decided: \(decision.outcome) (\(decision.rule))")
            } catch {
                // An InputError (the only error decide throws): the engine failed closed.
            }
        }
        var policies = 0
        for item in cases.policies where item.deliberatelyInvalid {
            policies += 1
            if case .success = item.engine { Issue.record("invalid policy \(item.input) was accepted") }
        }
        #expect(requests >= Self.minimumCases)
        #expect(policies >= Self.minimumCases / 2)
    }

    @Test("a substituted dummy file ends in .acblocked and reveals neither the document's name nor its extension")
    func dummyFileNameHidesTheDocument() {
        struct Seen: Hashable {
            let request: Int
            let status: String
        }
        var cases = 0
        var named = 0
        var failures = 0
        // Making a dummy name is slow in a debug build: each request is checked
        // once per policy status, at its first substitution.
        var seen: Set<Seen> = []
        RandomCases.shared.forEachPair(including: { Self.restricts($0.setup) && $0.setup.status != "AUTHORIZED" }) { policy, request in
            // Only the document channels substitute (the differential test checks the others have no dummy name).
            guard ReferenceModel.documentChannels.contains(request.share.channel) else { return }
            let decision = policy.evaluator.decide(request.request)
            guard decision.outcome == .substituteDummyFile,
                  seen.insert(Seen(request: request.index, status: policy.setup.status)).inserted else { return }
            cases += 1
            guard let dummy = decision.dummyFileName else {
                failures += 1
                return
            }
            var problems: [String] = []
            if policy.evaluator.decide(request.request).dummyFileName != dummy { problems.append("not deterministic") }
            if !dummy.hasSuffix(".acblocked") || dummy.count <= ".acblocked".count { problems.append("extension") }
            let parts = request.input.document.map(Self.revealingParts) ?? []
            let lowered = dummy.lowercased()
            let revealed = parts.filter { lowered.contains($0) }
            if !revealed.isEmpty { problems.append("reveals \(revealed)") }
            if !parts.isEmpty { named += 1 }
            if !problems.isEmpty {
                failures += 1
                if failures <= 3 { Issue.record("dummy name \(dummy) for \(request.input.document ?? "-"): \(problems)") }
            }
        }
        #expect(failures == 0)
        #expect(cases >= Self.minimumCases)
        #expect(named >= Self.minimumCases)
    }

    /// The lowercased parts of a file name a dummy name must not show: the
    /// whole name, its stem and its extension (the dummy's own `acblocked` excepted).
    static func revealingParts(of document: String) -> [String] {
        let name = document.lowercased()
        var parts: [String] = []
        if name.count >= 2 { parts.append(name) }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let stem = String(name[..<dot])
            let ext = String(name[name.index(after: dot)...])
            if stem.count >= 3 { parts.append(stem) }
            if ext.count >= 2 && ext != "acblocked" { parts.append(ext) }
        }
        return parts
    }

    @Test("revealingParts finds the name, stem and extension to look for")
    func revealingPartsOfNames() {
        #expect(Self.revealingParts(of: "Q3 Report.PDF") == ["q3 report.pdf", "q3 report", "pdf"])
        #expect(Self.revealingParts(of: "strange.acblocked") == ["strange.acblocked", "strange"])
        #expect(Self.revealingParts(of: "no-extension") == ["no-extension"])
        #expect(Self.revealingParts(of: ".hidden") == [".hidden"])
    }
}
