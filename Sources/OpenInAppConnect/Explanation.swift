import OpenInCore
import OpenInFleet
import OpenInKit

/// `--explain`: the deciding rule, and the inputs that mattered, in words.
///
/// The sentences come from the rule unit that decided (see ``Decision/explanation(for:under:)``);
/// this type holds no rule knowledge of its own.
public struct Explanation: Sendable, Equatable {
    /// The rule that decided.
    public let rule: RuleInfo
    /// The inputs that mattered, one sentence each, without a final period.
    ///
    /// A sentence names a setting by its key, in parentheses: `(policy key device.emailPlusInstalled)`
    /// for the policy file's, `(request key source)` for a request's; a front end adds its own
    /// spelling of the setting (the CLI adds its flag).
    public let inputs: [String]

    /// Explains `decision`, made for `request` under `policyInputs`.
    public init(_ decision: Decision, request: ShareRequest, policyInputs: PolicyInputs) {
        rule = decision.rule.info
        let facts = ExplanationFacts(inputs: policyInputs, request: request, decision: decision)
        // An Intune decision's rule has no AppConnect unit: its reason is the whole explanation.
        inputs = decision.rule.book !== RuleCatalog.book ? [rule.reason] : RuleCatalog.unit(of: decision.rule).explain(decision, facts)
    }

    /// The explanation as the `explanation` member of a JSON record.
    package var json: JSONValue {
        .object(JSONObject([
            "step": .number(JSONNumber(rule.step)),
            "summary": .string(rule.summary),
            "source": .string(rule.source),
            "quote": .string(rule.quote),
            "inputs": .array(JSONArray(inputs.map(JSONValue.string))),
        ]))
    }
}

extension Decision {
    /// Why this decision was made: the deciding rule and the inputs that mattered, in words.
    ///
    /// - Parameters:
    ///   - request: the request this decision was made for.
    ///   - inputs: the policy inputs it was made under (they say, for example,
    ///     whether the whitelist is "All AppConnect apps").
    public func explanation(for request: ShareRequest, under inputs: PolicyInputs) -> Explanation {
        Explanation(self, request: request, policyInputs: inputs)
    }
}

/// What a rule unit's `explain` reads: the decision, its request and policy, and
/// the sentences several rules share (the policy's status, whether an app is
/// listed, the Mail pair, the scheme-blocking override, Email+).
package struct ExplanationFacts {
    let inputs: PolicyInputs
    package let policy: Policy
    package let request: ShareRequest
    package let decision: Decision

    package init(inputs: PolicyInputs, request: ShareRequest, decision: Decision) {
        self.inputs = inputs
        policy = inputs.policy
        self.request = request
        self.decision = decision
    }

    /// The request's target, if any.
    package var target: BundleID? { request.target }

    /// The request URL's scheme, or "" when there is no URL.
    package var scheme: String { request.url?.scheme ?? "" }

    /// The Open In policy in words.
    var status: String {
        switch inputs.setting {
        case .allAppConnectApps:
            "the Open In policy is \"All AppConnect apps\": WHITELIST of the device's \(count(policy.device.appConnectApps.count, "AppConnect app"))"
        case .status(let status):
            "the Open In policy is \(status) (\(status.sdkName))"
        }
    }

    /// Whether `id` counts as listed, and why.
    package func listing(_ id: BundleID) -> String {
        switch policy.status {
        case .authorized: return "under AUTHORIZED every app is listed"
        case .unauthorized: return "under UNAUTHORIZED no app is listed"
        case .whitelist: break
        }
        if id.isNativeMail { return mailPair }
        let list = inputs.setting == .allAppConnectApps ? "the device's AppConnect apps" : "the whitelist"
        if policy.whitelist.contains(id) { return "\(list) holds \(id)" }
        return "\(list) does not hold \(id) (it holds \(summary(policy.whitelist.firstIDs, count: policy.whitelist.count)))"
    }

    /// What the whitelist says about the native Mail pair.
    var mailPair: String {
        switch policy.status {
        case .authorized: return "under AUTHORIZED native Mail is allowed"
        case .unauthorized: return "under UNAUTHORIZED native Mail is not allowed"
        case .whitelist: break
        }
        let list = policy.whitelist
        let has = [BundleID.mailActivity, .mobileMail].filter(list.contains)
        let missing = [BundleID.mailActivity, .mobileMail].filter { !list.contains($0) }
        switch has.count {
        case 2: return "the whitelist holds both \(BundleID.mailActivity) and \(BundleID.mobileMail), so native Mail is allowed"
        case 1: return "the whitelist holds \(has[0]) but not \(missing[0]): both are needed for native Mail"
        default: return "the whitelist holds neither \(BundleID.mailActivity) nor \(BundleID.mobileMail): both are needed for native Mail"
        }
    }

    /// Where a `mailto:` request on `channel` goes, and whether that app is allowed: one or two sentences.
    func mailApp(for channel: Channel) -> [String] {
        guard channel != .mailCompose else { return ["the mail compose sheet is always native Mail", mailPair] }
        switch policy.device.handler(forScheme: "mailto") {
        case let handler? where !handler.isNativeMail:
            return ["mailto: goes to the device's mail app \(handler) (its mailto handler)", listing(handler)]
        case let handler?:
            return ["mailto: goes to native Mail (the device's mailto handler is \(handler))", mailPair]
        case nil:
            return ["mailto: goes to native Mail: the device names no other mail app (policy key device.schemeHandlers.mailto)", mailPair]
        }
    }

    /// The two places `MI_AC_DISABLE_SCHEME_BLOCKING` can be set, and what each says.
    var schemeBlockingOverrides: [(isSet: Bool, sentence: String)] {
        let key = AppConfig.disableSchemeBlockingKey
        let plist = policy.infoPlist.disableSchemeBlocking
            ? (true, "\(key) is set to YES in the Info.plist (MI_APP_CONNECT)")
            : (false, "\(key) is not set in the Info.plist")
        let config: (Bool, String)
        switch policy.config[key] {
        case "true": config = (true, "the app config sets \(key) to true")
        case let value?: config = (false, "the app config sets \(key) to '\(value)', which is not 'true', so it does not count")
        case nil: config = (false, "\(key) is not set in the app config")
        }
        return [plist, config]
    }

    /// For a web address opened under a policy without the Web DLP setting: a sentence saying so; else none.
    var webDLPNotGiven: [String] {
        guard policy.webDLP == nil, request.channel == .openURL, request.url?.isWeb == true else { return [] }
        return ["the Web DLP setting was not given (webDLP, --web-dlp), so the AppConnect global policy's rule for web links does not apply"]
    }

    /// Whether Email+ is installed, in words.
    var emailPlus: String {
        policy.device.emailPlusInstalled
            ? "Email+ (\(policy.device.emailPlusTarget)) is installed"
            : "Email+ is not installed (policy key device.emailPlusInstalled)"
    }

    /// Whether `id` is one of the device's AppConnect apps, in words.
    func appConnectMembership(_ id: BundleID) -> String {
        let apps = policy.device.appConnectApps
        return apps.contains(id)
            ? "\(id) is one of the device's AppConnect apps"
            : "\(id) is not one of the device's AppConnect apps (they are \(summary(Whitelist.smallest(Whitelist.summaryLength, of: apps), count: apps.count)))"
    }

    /// A set of IDs in a few words: "none", or its first IDs in byte order and how many more
    /// (`first` is chosen once per whitelist: nothing here sorts the set).
    package func summary(_ first: [BundleID], count: Int) -> String {
        if count == 0 { return "none" }
        let shown = first.map(\.rawValue).joined(separator: ", ")
        return count > first.count ? "\(shown) and \(count - first.count) more" : shown
    }

    /// `number` `noun`s, singular for one.
    package func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}
