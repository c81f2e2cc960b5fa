@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// `--explain` says what matters for each rule (RuleUnitTests checks that every rule has sentences at all).
@Suite struct ExplanationTests {
    static func inputs(_ json: String) throws -> PolicyInputs {
        try PolicyJSON.read(Array(json.utf8))
    }

    /// A policy and a request that reach each rule, with one sentence the explanation must hold.
    static let cases: [(rule: String, policy: String, channel: String, target: String?, url: String?, sentence: String)] = [
        ("not-enforcing.allow", #"{"openInPolicy": 0, "enforcing": false}"#, "mail-compose", nil, nil, "AppConnect is not enforcing policy"),
        ("drag-and-drop.policy-all", #"{"openInPolicy": 0, "dragAndDropPolicy": "all"}"#, "drag-and-drop", "a.b", nil, "drag-and-drop policy is 'all'"),
        ("drag-and-drop.policy-none", #"{"openInPolicy": 1, "dragAndDropPolicy": "none"}"#, "drag-and-drop", "a.b", nil, "drag-and-drop policy is 'none'"),
        ("drag-and-drop.policy-appconnect-app", #"{"openInPolicy": 0, "dragAndDropPolicy": "appconnect", "device": {"appConnectApps": ["a.b"]}}"#,
         "drag-and-drop", "a.b", nil, "a.b is one of the device's AppConnect apps"),
        ("drag-and-drop.policy-non-appconnect-app", #"{"openInPolicy": 0, "dragAndDropPolicy": "appconnect"}"#,
         "drag-and-drop", "a.b", nil, "a.b is not one of the device's AppConnect apps (they are none)"),
        ("enforcement-disabled.allow", #"{"openInPolicy": 0, "config": {"MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": "Yes"}}"#,
         "activity-view", nil, nil, "the app config sets MI_AC_DISABLE_OPEN_IN_ENFORCEMENT to 'Yes'"),
        ("authorized.allow", #"{"openInPolicy": 1}"#, "activity-view", nil, nil, "the Open In policy is AUTHORIZED (ACOPENINPOLICY_AUTHORIZED)"),
        ("activity-view.blocks-all", #"{"openInPolicy": 2, "openInWhitelist": ["a.b"]}"#, "activity-view", "a.b", nil,
         "so the picked app a.b does not matter, listed or not"),
        ("mailto.mail-allowed", #"{"openInPolicy": 2, "openInWhitelist": ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail"]}"#,
         "open-url", nil, "mailto:a@b.c", "the whitelist holds both com.apple.UIKit.activity.Mail and com.apple.mobilemail, so native Mail is allowed"),
        ("mailto.scheme-blocking-disabled", #"{"openInPolicy": 0, "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true"}}"#,
         "open-url", nil, "mailto:a@b.c", "the app config sets MI_AC_DISABLE_SCHEME_BLOCKING to true"),
        ("mailto.email-plus-redirect", #"{"openInPolicy": 2, "device": {"emailPlusInstalled": true}, "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "YES"}}"#,
         "open-url", nil, "mailto:a@b.c", "the app config sets MI_AC_DISABLE_SCHEME_BLOCKING to 'YES', which is not 'true', so it does not count"),
        ("mailto.blocked", #"{"openInPolicy": 2, "openInWhitelist": ["com.apple.UIKit.activity.Mail"]}"#, "open-url", nil, "mailto:a@b.c",
         "the whitelist holds com.apple.UIKit.activity.Mail but not com.apple.mobilemail: both are needed for native Mail"),
        ("open-url.own-scheme", #"{"openInPolicy": 0, "app": {"urlSchemes": ["mine"]}}"#, "open-url", nil, "mine://x",
         "'mine' is one of the app's own URL schemes"),
        ("open-url.web-scheme", #"{"openInPolicy": 0}"#, "open-url", nil, "https://example.com", "'https' is a web scheme"),
        ("open-url.listed-handler", #"{"openInPolicy": 2, "openInWhitelist": ["a.b"], "device": {"schemeHandlers": {"foo": "a.b"}}}"#,
         "open-url", nil, "foo://x", "the whitelist holds a.b"),
        ("open-url.unlisted-handler", #"{"openInPolicy": 2, "device": {"schemeHandlers": {"foo": "a.b"}}}"#,
         "open-url", nil, "foo://x", "the device's handler for scheme 'foo' is a.b"),
        ("open-url.unknown-handler", #"{"openInPolicy": 2}"#, "open-url", nil, "foo://x", "no handler is known for scheme 'foo'"),
        ("mail-view.mail-allowed", #"{"openInPolicy": 2, "openInWhitelist": ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail"]}"#,
         "mail-compose", nil, nil, "so native Mail is allowed"),
        ("mail-view.blocked", #"{"openInPolicy": 0, "infoPlist": {"MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}}}"#,
         "mail-link", nil, nil, "MI_AC_DISABLE_SCHEME_BLOCKING is set, but it covers only the app's own openURL: call, not mail-link"),
        ("document.listed-target", #"{"openInPolicy": "appconnect", "device": {"appConnectApps": ["a.b"]}}"#, "quick-look", "a.b", nil,
         "the device's AppConnect apps holds a.b"),
        ("document.unlisted-target", #"{"openInPolicy": 0}"#, "app-extension", "a.b", nil, "under UNAUTHORIZED no app is listed"),
        ("drag-and-drop.listed-target", #"{"openInPolicy": 2, "openInWhitelist": ["a.b"]}"#, "drag-and-drop", "a.b", nil,
         "no drag-and-drop policy is given, so drag and drop follows the Open In listing"),
        ("drag-and-drop.unlisted-target", #"{"openInPolicy": 2, "openInWhitelist": ["a.b"]}"#, "drag-and-drop", "c.d", nil,
         "the whitelist does not hold c.d (it holds a.b)"),
        // open-from: the target column names the source.
        ("open-from.unauthorized", #"{"openInPolicy": 1, "openFromPolicy": 0}"#, "open-from", "a.b", nil,
         "the Open From policy is UNAUTHORIZED (ACOpenFromPolicyUnauthorized)"),
        ("open-from.authorized", #"{"openInPolicy": 0, "openFromPolicy": "authorized"}"#, "open-from", nil, nil,
         "the Open In policy, MI_AC_DISABLE_OPEN_IN_ENFORCEMENT and the whitelist do not concern Open From"),
        ("open-from.listed-source", #"{"openInPolicy": 0, "openFromPolicy": "appconnect", "device": {"appConnectApps": ["a.b"]}}"#,
         "open-from", "a.b", nil, "the device's AppConnect apps holds a.b"),
        ("open-from.unlisted-source", #"{"openInPolicy": 2, "openInWhitelist": ["c.d"], "openFromPolicy": 2, "openFromWhitelist": ["a.b"]}"#,
         "open-from", "c.d", nil, "the Open From whitelist does not hold c.d (it holds a.b; there is no Mail pair for Open From)"),
        ("open-from.unknown-source", #"{"openInPolicy": 2, "openFromPolicy": "whitelist", "openFromWhitelist": ["a.b"]}"#,
         "open-from", nil, nil, "the request names no source app"),
        ("copy.unauthorized", #"{"openInPolicy": 1, "pasteboardPolicy": "unauthorized"}"#, "copy", nil, nil,
         "the pasteboard policy is UNAUTHORIZED (ACPasteboardPolicyUnauthorized)"),
        ("copy.authorized", #"{"openInPolicy": 0, "pasteboardPolicy": 1}"#, "copy", "a.b", nil,
         "the pasteboard policy is AUTHORIZED (ACPasteboardPolicyAuthorized)"),
        ("copy.secure-services-unavailable", #"{"openInPolicy": 2, "pasteboardPolicy": "securecopy", "device": {"secureServicesAvailable": false}}"#,
         "copy", nil, nil, "the device's secure services are unavailable"),
        ("copy.secure-appconnect-apps", #"{"openInPolicy": 2, "pasteboardPolicy": 2, "device": {"secureServicesAvailable": true, "appConnectApps": ["a.b"]}}"#,
         "copy", "a.b", nil, "a.b is one of the device's AppConnect apps"),
        ("copy.secure-non-appconnect-app", #"{"openInPolicy": 2, "pasteboardPolicy": 2, "device": {"secureServicesAvailable": true}}"#,
         "copy", "a.b", nil, "a.b is not one of the device's AppConnect apps (they are none)"),
        ("print.unauthorized", #"{"openInPolicy": 1, "printPolicy": "unauthorized"}"#, "print", nil, nil,
         "the SDK has no callback for a blocked print"),
        ("print.authorized", #"{"openInPolicy": 0, "printPolicy": "ACPrintPolicyAuthorized"}"#, "print", nil, nil,
         "the print policy is AUTHORIZED (ACPrintPolicyAuthorized)"),
    ]

    @Test(arguments: 0..<cases.count)
    func explainsTheInputsThatMattered(case index: Int) throws {
        let example = Self.cases[index]
        let inputs = try Self.inputs(example.policy)
        let openFrom = example.channel == "open-from"
        let request = try ShareRequest(channel: example.channel, target: openFrom ? nil : example.target, url: example.url,
                                       source: openFrom ? example.target : nil)
        let decision = Evaluator(policy: inputs.policy).decide(request)
        #expect(decision.rule.rawValue == example.rule)
        let explanation = Explanation(decision, request: request, policyInputs: inputs)
        #expect(explanation.rule.id == decision.rule)
        #expect(explanation.inputs.contains { $0.contains(example.sentence) }, "\(explanation.inputs)")
    }
}

/// The README's `eval` and `matrix` examples are real output: each block that
/// starts with `$ openin-check eval` or `$ openin-check matrix` is run, and the
/// lines it shows must be the lines the tool prints (standard output, then
/// standard error), from the first, where `…` stands for lines left out.
@Suite struct ReadmeDecisionExamplesTests {
    static func examples() throws -> [(command: [String], shown: [String], line: Int)] {
        let readme = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [(command: [String], shown: [String], line: Int)] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix("$ openin-check eval ") || lines[index].hasPrefix("$ openin-check matrix ") else { continue }
            let start = index
            var command = String(lines[index].dropFirst(2))
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
            }
            var shown: [String] = []
            while index + 1 < lines.count, lines[index + 1] != "```" {
                index += 1
                shown.append(lines[index])
            }
            examples.append((command.split(separator: " ").dropFirst().map(String.init), shown, start + 1))
        }
        return examples
    }

    /// Whether `shown` is what the README shows of `output`: line by line from the start, where a
    /// line `…` skips any number of lines; output after the last shown line is not compared.
    static func shows(_ shown: [String], _ output: [String]) -> Bool {
        var index = 0
        var skipping = false
        for line in shown {
            if line == "…" { skipping = true; continue }
            if skipping {
                guard let found = output[index...].firstIndex(of: line) else { return false }
                index = found
                skipping = false
            } else if index >= output.count || output[index] != line {
                return false
            }
            index += 1
        }
        return true
    }

    @Test func elisionMatchesOnlyWhatItSkips() {
        #expect(Self.shows(["a", "…", "d"], ["a", "b", "c", "d", "e"]))
        #expect(!Self.shows(["a", "…", "x"], ["a", "b", "c", "d"]))
        #expect(!Self.shows(["a", "c"], ["a", "b", "c"]))
    }

    @Test func examplesMatchRealOutput() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 2)
        for example in examples {
            let run = try BuiltBinary.run(example.command)
            let output = (run.stdout + run.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Self.shows(example.shown, output), "README.md:\(example.line): \(example.command.joined(separator: " "))\n\(output.joined(separator: "\n"))")
        }
    }
}

/// Help texts and `rules --explain` name no document a user cannot open.
@Suite struct HelpCitationTests {
    static let unopenable = ["DESIGN", "open-in-policy.txt", "ready.txt", "notifications.txt", "app-config.txt", "dual-mode.txt", "shared/", "-section.md"]

    @Test func helpAndRulesCiteOnlyWhatUsersHave() {
        var texts = [("openin-check --help", CLI.help)] + CLI.verbs.map { ("\($0.name) --help", $0.help) }
        let console = Console.memory()
        _ = CLI.run(arguments: ["rules", "--explain"], console: console)
        texts.append(("rules --explain", console.stdout.text))
        #expect(texts.count > 5)
        for (name, text) in texts {
            let found = Self.unopenable.filter { text.contains($0) }
            #expect(found.isEmpty, "\(name) names \(found)")
        }
    }
}

/// The README's embedding example of `Decision.explanation(for:under:)`, through the public API only.
@Suite struct PublicExplanationTests {
    @Test func explanationFromTheEmbeddingExample() throws {
        let policy = Policy(
            status: .whitelist,
            whitelist: try Whitelist(parsing: ["com.apple.mobilemail", "com.example.viewer"]),
            device: try DeviceFacts(emailPlusInstalled: true))
        let decision = try Evaluator(policy: policy).decideOrThrow(channel: "open-url", url: "mailto:cfo@example.com")
        let inputs = PolicyInputs(policy)
        let request = try ShareRequest(channel: "open-url", url: "mailto:cfo@example.com")
        let explanation = decision.explanation(for: request, under: inputs)
        #expect(explanation.rule.id == decision.rule)
        #expect(explanation.rule.id.rawValue == "mailto.email-plus-redirect")
        #expect(explanation.inputs.contains("Email+ (com.mobileiron.ios.emailplus) is installed"))
    }
}
