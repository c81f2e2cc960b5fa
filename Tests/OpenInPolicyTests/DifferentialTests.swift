import Testing
import OpenInPolicy
import OpenInTestSupport

/// The engine against the reference model on random (policy, context, request)
/// triples: `OPENIN_DIFF_SEED` and `OPENIN_DIFF_COUNT` change the run.
@Suite("Differential: engine vs reference model")
struct DifferentialTests {
    /// How many mismatches are printed before the test gives up reporting.
    static let reportLimit = 5

    @Test("the engine decides every valid random triple as the reference model does")
    func engineAgreesWithModel() async {
        let clock = ContinuousClock()
        let start = clock.now
        let cases = RandomCases.shared
        let shards = cases.settings.shards
        // The triples are split among the cores; each shard keeps its own tally.
        let results = await withTaskGroup(of: ShardTally.self) { group in
            for shard in 0..<shards {
                group.addTask { Self.compare(cases, shard: shard, of: shards) }
            }
            var results: [ShardTally] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.shard < $1.shard }
        }
        let elapsed = clock.now - start
        let compared = results.reduce(0) { $0 + $1.compared }
        let mismatches = results.reduce(0) { $0 + $1.mismatches }
        for report in results.flatMap(\.reports).prefix(Self.reportLimit) {
            print(report)
            Issue.record(Comment(rawValue: report))
        }
        print("differential: seed \(cases.settings.seedText), \(compared) triples over \(cases.validPolicies.count) policies"
              + " and \(cases.validRequests.count) requests, \(shards) shards, \(mismatches) mismatches, \(elapsed)")
        #expect(mismatches == 0, "\(mismatches) of \(compared) triples disagree (seed \(cases.settings.seedText))")
        #expect(compared == cases.settings.count)
        // The random inputs reach every rule of the engine.
        let ruleHits = results.reduce(into: [String: Int]()) { total, tally in total.merge(tally.ruleHits, uniquingKeysWith: +) }
        for rule in RuleInfo.all {
            #expect(ruleHits[rule.id.rawValue, default: 0] > 0, "no random triple reached rule \(rule.id)")
        }
    }

    /// What one shard of the differential run found.
    struct ShardTally: Sendable {
        var shard: Int
        var compared = 0
        var mismatches = 0
        var reports: [String] = []
        var ruleHits: [String: Int] = [:]
    }

    static func compare(_ cases: RandomCases, shard: Int, of shards: Int) -> ShardTally {
        var tally = ShardTally(shard: shard)
        cases.forEachPair(shard: shard, of: shards) { policy, request in
            tally.compared += 1
            let expected = ReferenceModel.decide(policy.setup, request.share)
            let decision: Decision?
            let actual: ReferenceModel.Answer
            do throws(InputError) {
                let decided = try policy.evaluator.decideOrThrow(request.request)
                decision = decided
                actual = EngineAnswer.of(decided)
            } catch {
                decision = nil
                actual = EngineAnswer.of(error)
            }
            tally.ruleHits[actual.rule, default: 0] += 1
            let dummyAgrees = (decision?.dummyFileName != nil) == (expected.outcome == "substitute-dummy-file")
            guard expected != actual || !dummyAgrees else { return }
            tally.mismatches += 1
            if tally.reports.count < reportLimit {
                tally.reports.append(MismatchReport.render(
                    id: "diff-\(cases.settings.seedText)-p\(policy.index)-r\(request.index)",
                    policy: policy.input, request: request.input, model: expected, engine: actual,
                    note: dummyAgrees ? nil : "dummy file name: \(decision?.dummyFileName ?? "none")"))
            }
        }
        return tally
    }

    @Test("the engine and the model agree on which random inputs are invalid, and why")
    func validityAgrees() {
        let cases = RandomCases.shared
        var invalidRequests = 0
        var invalidPolicies = 0
        for item in cases.requests {
            switch (item.model, item.engine) {
            case (.valid, .success):
                #expect(!item.deliberatelyInvalid, "generator broke \(item.input) on purpose, yet both accept it")
            case (.invalid(let reasons), .failure(let error)):
                invalidRequests += 1
                #expect(reasons.contains(EngineAnswer.kind(of: error)), "\(item.input): engine says \(error), model says \(reasons)")
            case (.valid, .failure(let error)):
                Issue.record("engine rejects \(item.input) (\(error)); model accepts it")
            case (.invalid(let reasons), .success):
                Issue.record("engine accepts \(item.input); model rejects it (\(reasons))")
            }
        }
        for item in cases.policies {
            switch (item.model, item.engine) {
            case (.valid, .success):
                #expect(!item.deliberatelyInvalid, "generator broke \(item.input) on purpose, yet both accept it")
            case (.invalid(let reasons), .failure(let error)):
                invalidPolicies += 1
                #expect(reasons.contains(EngineAnswer.kind(of: error)), "\(item.input): engine says \(error), model says \(reasons)")
            case (.valid, .failure(let error)):
                Issue.record("engine rejects \(item.input) (\(error)); model accepts it")
            case (.invalid(let reasons), .success):
                Issue.record("engine accepts \(item.input); model rejects it (\(reasons))")
            }
        }
        print("validity: \(invalidRequests) of \(cases.requests.count) requests and \(invalidPolicies) of \(cases.policies.count) policies invalid in both")
        #expect(invalidRequests > 100)
        #expect(invalidPolicies > 50)
    }

    @Test("the model's rows, as a mismatch prints them, pass when run as a decision table")
    func reportedRowsRunAsTables() throws {
        let cases = RandomCases.shared
        var rows: [String] = []
        var position = 0
        cases.forEachPair(including: { $0.index % 4 == 0 }) { policy, request in
            position += 1
            guard position % 400 == 0 else { return }
            let answer = ReferenceModel.decide(policy.setup, request.share)
            if answer.missingKey != nil, position % 1200 != 0 { return }
            // The table format splits a callbacks cell at ';', so a URL argument holding one cannot be written.
            if answer.callbackArgument?.contains(";") == true { return }
            let report = MismatchReport.render(id: "row-\(position)", policy: policy.input, request: request.input,
                                               model: answer, engine: answer, note: nil)
            rows.append(report.split(separator: "\n").map(String.init)[3])
        }
        let table = ([MismatchReport.row(MismatchReport.columns), MismatchReport.row(MismatchReport.columns.map { _ in "---" })] + rows)
            .joined(separator: "\n")
        let parsed = try DecisionTables.parse(table, file: "differential.md")
        #expect(parsed.count == rows.count)
        #expect(rows.count >= Soak.least(300))
        for result in parsed.map(DecisionTables.run) where !result.passed {
            Issue.record(Comment(rawValue: result.failureMessage ?? "\(result.tableCase) failed"))
        }
    }

    @Test("a mismatch prints as a decision table row, model and engine")
    func mismatchReportFormat() {
        var policy = ReferenceModel.PolicyInput(policy: "whitelist", whitelist: [ReferenceModel.mailActivity])
        policy.enforcing = false
        policy.config = [.init(key: "MI_AC_DISABLE_SCHEME_BLOCKING", value: "true")]
        policy.handlers = [.init(scheme: "x-docs", app: "com.acme.docs")]
        policy.dragAndDrop = "none"
        let request = ReferenceModel.RequestInput(channel: "open-url", url: "x-docs:a|b")
        let model = ReferenceModel.Answer(outcome: "deny", to: nil, callbackSelector: ReferenceModel.openURLBlocked,
                                          callbackArgument: "x-docs:a|b", ui: "enabled", rule: "open-url.unlisted-handler")
        var engine = model
        engine.outcome = "allow"
        engine.to = "com.acme.docs"
        engine.callbackSelector = nil
        engine.callbackArgument = nil
        let lines = MismatchReport.render(id: "case-1", policy: policy, request: request, model: model, engine: engine, note: nil)
            .split(separator: "\n").map(String.init)
        #expect(lines.contains("| id | policy | whitelist | context | channel | target | url | source | outcome | to | audience | callbacks | ui | rule |"))
        #expect(lines.contains(
            "| case-1 | whitelist | com.apple.UIKit.activity.Mail | not-enforcing; config:MI_AC_DISABLE_SCHEME_BLOCKING=true; handler:x-docs=com.acme.docs; dnd=none | open-url | - | x-docs:a\\|b | - | deny | - | - | openURLAttemptedWhenUnauthorizedForURL(x-docs:a\\|b) | enabled | open-url.unlisted-handler |"))
        #expect(lines.contains(
            "| case-1-engine | whitelist | com.apple.UIKit.activity.Mail | not-enforcing; config:MI_AC_DISABLE_SCHEME_BLOCKING=true; handler:x-docs=com.acme.docs; dnd=none | open-url | - | x-docs:a\\|b | - | allow | com.acme.docs | - | - | enabled | open-url.unlisted-handler |"))
        #expect(lines.contains { $0.contains("differ: outcome, to, callbacks") })
    }
}

// MARK: The random cases, read by both the model and the engine

/// A random policy as the model and the engine read it.
struct PolicyCase: Sendable {
    let input: ReferenceModel.PolicyInput
    let deliberatelyInvalid: Bool
    let model: ReferenceModel.Checked<ReferenceModel.Setup>
    let engine: Result<Policy, InputError>
}

/// A random request as the model and the engine read it.
struct RequestCase: Sendable {
    let input: ReferenceModel.RequestInput
    let deliberatelyInvalid: Bool
    let model: ReferenceModel.Checked<ReferenceModel.Share>
    let engine: Result<ShareRequest, InputError>
}

/// A policy both sides accept.
struct ValidPolicy: Sendable {
    let index: Int
    let input: ReferenceModel.PolicyInput
    let setup: ReferenceModel.Setup
    let evaluator: Evaluator
}

/// A request both sides accept.
struct ValidRequest: Sendable {
    let index: Int
    let input: ReferenceModel.RequestInput
    let share: ReferenceModel.Share
    let request: ShareRequest
}

/// The random inputs of a run: a pool of requests built once, and enough
/// policies that each, paired with `requestsPerPolicy` requests drawn from
/// the pool, gives the run's count of triples.
struct RandomCases: Sendable {
    static let requestPoolSize = 8192
    static let requestsPerPolicy = 400

    /// The cases of this process's run, built once for every test that uses them.
    static let shared = RandomCases(settings: .fromEnvironment())

    let settings: RandomRunSettings
    let requests: [RequestCase]
    let policies: [PolicyCase]
    let validRequests: [ValidRequest]
    let validPolicies: [ValidPolicy]

    init(settings: RandomRunSettings) {
        self.settings = settings
        var requests: [RequestCase] = []
        var validRequests: [ValidRequest] = []
        for index in 0..<Self.requestPoolSize {
            var rng = SplitMix64.stream(settings.seed ^ 0x7265_7175_6573_7473, item: index)
            let (input, broken) = RandomInputs.request(&rng)
            let model = ReferenceModel.check(input)
            let engine = Result { () throws(InputError) in try EngineInputs.request(input) }
            requests.append(RequestCase(input: input, deliberatelyInvalid: broken, model: model, engine: engine))
            if case .valid(let share) = model, case .success(let request) = engine {
                validRequests.append(ValidRequest(index: index, input: input, share: share, request: request))
            }
        }
        var policies: [PolicyCase] = []
        var validPolicies: [ValidPolicy] = []
        let wanted = (settings.count + Self.requestsPerPolicy - 1) / Self.requestsPerPolicy
        var index = 0
        while validPolicies.count < wanted {
            var rng = SplitMix64.stream(settings.seed ^ 0x706F_6C69_6369_6573, item: index)
            let (input, broken) = RandomInputs.policy(&rng)
            let model = ReferenceModel.check(input)
            let engine = Result { () throws(InputError) in try EngineInputs.policy(input) }
            policies.append(PolicyCase(input: input, deliberatelyInvalid: broken, model: model, engine: engine))
            if case .valid(let setup) = model, case .success(let policy) = engine {
                validPolicies.append(ValidPolicy(index: index, input: input, setup: setup, evaluator: Evaluator(policy: policy)))
            }
            index += 1
        }
        self.requests = requests
        self.policies = policies
        self.validRequests = validRequests
        self.validPolicies = validPolicies
    }

    /// Calls `body` with the (policy, request) pairs of one shard, in a
    /// reproducible order; the shards of a run together make `settings.count` pairs.
    /// `including` skips whole policies (and their requests) a caller has no use for.
    func forEachPair(shard: Int = 0, of shards: Int = 1, including: (ValidPolicy) -> Bool = { _ in true },
                     _ body: (ValidPolicy, ValidRequest) -> Void) {
        for position in stride(from: shard, to: validPolicies.count, by: shards) {
            let policy = validPolicies[position]
            if !including(policy) { continue }
            var rng = SplitMix64.stream(settings.seed ^ 0x7061_6972_7321, item: policy.index)
            for _ in 0..<min(Self.requestsPerPolicy, settings.count - position * Self.requestsPerPolicy) {
                body(policy, validRequests[rng.below(validRequests.count)])
            }
        }
    }
}

/// Builds the engine's values from the generator's strings, through the public API only.
enum EngineInputs {
    static func policy(_ input: ReferenceModel.PolicyInput) throws(InputError) -> Policy {
        let setting = try PolicySetting(parsing: input.policy)
        let whitelist = try Whitelist(parsing: input.whitelist)
        var config: [String: String] = [:]
        for entry in input.config { config[entry.key] = entry.value }
        var emailPlusIDs: [BundleID] = []
        for id in input.emailPlusIDs { emailPlusIDs.append(try BundleID(id)) }
        var appConnectApps: Set<BundleID> = []
        for id in input.appConnectApps { appConnectApps.insert(try BundleID(id)) }
        var device = try DeviceFacts(emailPlusInstalled: input.emailPlusInstalled, emailPlusBundleIDs: emailPlusIDs,
                                     appConnectApps: appConnectApps)
        for handler in input.handlers { try device.setHandler(try BundleID(handler.app), for: handler.scheme) }
        let dragAndDrop = try input.dragAndDrop.map { text throws(InputError) in try DragAndDropPolicy(parsing: text) }
        device.secureServicesAvailable = input.secureServicesAvailable
        device.webAtWorkInstalled = input.webAtWorkInstalled
        var webAtWorkIDs: [BundleID] = []
        for id in input.webAtWorkIDs { webAtWorkIDs.append(try BundleID(id)) }
        if !webAtWorkIDs.isEmpty { device.webAtWorkBundleIDs = webAtWorkIDs }
        var app = try AppFacts(urlSchemes: input.appSchemes)
        app.allowsCustomKeyboards = input.appAllowsCustomKeyboards
        let stated = Policy(status: .unauthorized, whitelist: whitelist, config: AppConfig(config),
                            infoPlist: InfoPlistOverrides(disableSchemeBlocking: input.plistOverride),
                            device: device, app: app, dragAndDrop: dragAndDrop, enforcing: input.enforcing)
        var policy = PolicyInputs(setting: setting, stated: stated).policy
        if let text = input.openFromPolicy {
            let openFromList = try Whitelist(parsing: input.openFromWhitelist ?? [])
            policy.openFrom = OpenFromPolicy(try OpenFromPolicy.Setting(parsing: text), whitelist: openFromList)
        } else {
            _ = try Whitelist(parsing: input.openFromWhitelist ?? [])
        }
        policy.pasteboard = try input.pasteboardPolicy.map { text throws(InputError) in try PasteboardPolicy(parsing: text) }
        policy.print = try input.printPolicy.map { text throws(InputError) in try PrintPolicy(parsing: text) }
        policy.webDLP = try input.webDLP.map { text throws(InputError) in try WebDLPPolicy(parsing: text) }
        for activity in input.excludedActivities { policy.excludedActivityTypes.append(try BundleID(activity)) }
        return policy
    }

    static func request(_ input: ReferenceModel.RequestInput) throws(InputError) -> ShareRequest {
        try ShareRequest(channel: input.channel, target: input.target, url: input.url, source: input.source, document: input.document)
    }
}

/// The engine's decision in the model's terms.
enum EngineAnswer {
    static func of(_ decision: Decision) -> ReferenceModel.Answer {
        var argument: String?
        switch decision.callback {
        case .openInAttemptedWhenBlocked(let status): argument = status.description
        case .openURLAttemptedWhenUnauthorized(let url): argument = url.rawValue
        case .dragAndDropToNonAppConnectApp, nil: argument = nil
        case .openFromAttemptedWhenBlocked(let status, let source): argument = "\(status), \(source?.rawValue ?? "nil")"
        case .copyAttemptedWhenUnauthorized(let policy): argument = policy.description
        }
        return ReferenceModel.Answer(outcome: decision.outcome.rawValue, to: decision.target?.rawValue,
                                     callbackSelector: decision.callback?.selector, callbackArgument: argument,
                                     ui: decision.openInUI.rawValue, rule: decision.rule.rawValue,
                                     audience: decision.audience?.rawValue)
    }

    /// A request the policy cannot decide, in the model's terms.
    static func of(_ error: InputError) -> ReferenceModel.Answer {
        let key: String
        if case .policyKeyNotSet(let missing, _) = error { key = missing } else { key = "unexpected: \(error)" }
        return ReferenceModel.Answer(outcome: "error", to: nil, callbackSelector: nil, callbackArgument: nil, ui: "-", rule: "-", missingKey: key)
    }

    /// The name of an error's case, as the model names error kinds.
    static func kind(of error: InputError) -> String {
        switch error {
        case .unknownPolicy: "unknownPolicy"
        case .unknownChannel: "unknownChannel"
        case .unknownDragAndDropPolicy: "unknownDragAndDropPolicy"
        case .malformedBundleID: "malformedBundleID"
        case .malformedURL: "malformedURL"
        case .missingTarget: "missingTarget"
        case .missingURL: "missingURL"
        case .unexpectedField: "unexpectedField"
        case .notMailto: "notMailto"
        case .malformedScheme: "malformedScheme"
        case .unknownOpenFromPolicy: "unknownOpenFromPolicy"
        case .unknownPasteboardPolicy: "unknownPasteboardPolicy"
        case .unknownPrintPolicy: "unknownPrintPolicy"
        case .unknownWebDLPPolicy: "unknownWebDLPPolicy"
        case .policyKeyNotSet: "policyKeyNotSet"
        case .intuneConstraint: "intuneConstraint"
        case .intuneLocation: "intuneLocation"
        }
    }
}

/// A disagreement as rows of a `Rules/` decision table (format: Rules/README.md):
/// the model's row, ready to paste, then the engine's.
enum MismatchReport {
    static let columns = ["id", "policy", "whitelist", "context", "channel", "target", "url", "source",
                          "outcome", "to", "audience", "callbacks", "ui", "rule"]

    static func render(id: String, policy: ReferenceModel.PolicyInput, request: ReferenceModel.RequestInput,
                       model: ReferenceModel.Answer, engine: ReferenceModel.Answer, note: String?) -> String {
        let inputs = [
            policy.policy,
            // "All AppConnect apps" takes its whitelist from the device (the context's appconnect-apps).
            policy.whitelist.isEmpty || ReferenceModel.lowercase(policy.policy) == "appconnect"
                ? "-" : policy.whitelist.joined(separator: ", "),
            context(policy),
            request.channel,
            request.target ?? "-",
            request.url ?? "-",
            request.source ?? "-",
        ]
        let modelCells = expected(model)
        let engineCells = expected(engine)
        let differing = zip(columns.suffix(6), zip(modelCells, engineCells)).filter { $0.1.0 != $0.1.1 }.map(\.0)
        var lines = [
            "Mismatch (model vs engine); differ: \(differing.isEmpty ? "none of the columns" : differing.joined(separator: ", "))"
                + (request.document.map { "; document: \($0)" } ?? ""),
            row(columns),
            row(columns.map { _ in "---" }),
            row([id] + inputs + modelCells),
            row([id + "-engine"] + inputs + engineCells),
        ]
        if let note { lines.append(note) }
        if model.missingKey != engine.missingKey {
            lines.append("missing key: model \(model.missingKey ?? "none"), engine \(engine.missingKey ?? "none")")
        }
        return lines.joined(separator: "\n")
    }

    static func expected(_ answer: ReferenceModel.Answer) -> [String] {
        [answer.outcome, answer.to ?? "-", answer.audience ?? "-", callback(answer), answer.ui, answer.rule]
    }

    /// `name(argument)`: the selector without `appConnect:` and the trailing colon.
    static func callback(_ answer: ReferenceModel.Answer) -> String {
        guard var name = answer.callbackSelector else { return "-" }
        if name.hasPrefix("appConnect:") { name.removeFirst("appConnect:".count) }
        // A selector of several parts is named by its first: openFromAttemptedWhenACOpenFromPolicyBlocked.
        name = String(name.prefix { $0 != ":" })
        return answer.callbackArgument.map { "\(name)(\($0))" } ?? name
    }

    static func context(_ policy: ReferenceModel.PolicyInput) -> String {
        var settings: [String] = []
        if !policy.enforcing { settings.append("not-enforcing") }
        if policy.emailPlusInstalled { settings.append("email-plus") }
        settings += policy.emailPlusIDs.map { "email-plus-id=\($0)" }
        if policy.plistOverride { settings.append("plist-override") }
        settings += policy.config.map { "config:\($0.key)=\($0.value)" }
        settings += policy.handlers.map { "handler:\($0.scheme)=\($0.app)" }
        settings += policy.appSchemes.map { "app-scheme=\($0)" }
        if let dragAndDrop = policy.dragAndDrop { settings.append("dnd=\(dragAndDrop)") }
        if !policy.appConnectApps.isEmpty { settings.append("appconnect-apps=" + policy.appConnectApps.joined(separator: ",")) }
        if let openFrom = policy.openFromPolicy { settings.append("open-from=\(openFrom)") }
        if let list = policy.openFromWhitelist, !list.isEmpty { settings.append("open-from-whitelist=" + list.joined(separator: ",")) }
        if let pasteboard = policy.pasteboardPolicy { settings.append("pasteboard=\(pasteboard)") }
        if let print = policy.printPolicy { settings.append("print=\(print)") }
        if let available = policy.secureServicesAvailable { settings.append("secure-services=" + (available ? "available" : "unavailable")) }
        if let webDLP = policy.webDLP { settings.append("web-dlp=\(webDLP)") }
        if policy.webAtWorkInstalled { settings.append("web-at-work") }
        settings += policy.webAtWorkIDs.map { "web-at-work-id=\($0)" }
        settings += policy.excludedActivities.map { "excluded-activity=\($0)" }
        if !policy.appAllowsCustomKeyboards { settings.append("app-custom-keyboards=refused") }
        return settings.isEmpty ? "-" : settings.joined(separator: "; ")
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ") + " |"
    }
}
