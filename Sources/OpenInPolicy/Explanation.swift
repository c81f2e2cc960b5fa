/// `--explain`: the deciding rule, and the inputs that mattered, in words.
package struct Explanation: Sendable, Equatable {
    /// The rule that decided.
    package let rule: RuleInfo
    /// The inputs that mattered, one sentence each, without a final period.
    package let inputs: [String]

    /// Explains `decision`, made for `request` under `policyInputs`.
    package init(_ decision: Decision, request: ShareRequest, policyInputs: PolicyInputs) {
        rule = decision.rule.info
        inputs = Facts(inputs: policyInputs, request: request, decision: decision).sentences
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

/// The sentences about one decision's inputs.
private struct Facts {
    let inputs: PolicyInputs
    let policy: Policy
    let request: ShareRequest
    let decision: Decision

    init(inputs: PolicyInputs, request: ShareRequest, decision: Decision) {
        self.inputs = inputs
        policy = inputs.policy
        self.request = request
        self.decision = decision
    }

    var sentences: [String] {
        let target = request.target
        switch decision.rule.rawValue {
        case "not-enforcing.allow":
            return ["AppConnect is not enforcing policy (enforcing is false), so the app is not restricted"]
        case "drag-and-drop.policy-all":
            return ["the server's drag-and-drop policy is 'all'"]
        case "drag-and-drop.policy-none":
            return ["the server's drag-and-drop policy is 'none'"]
        case "drag-and-drop.policy-appconnect-app", "drag-and-drop.policy-non-appconnect-app":
            return ["the server's drag-and-drop policy is 'appconnect'"] + (target.map { [appConnectMembership($0)] } ?? [])
        case "enforcement-disabled.allow":
            let value = policy.config[AppConfig.disableOpenInEnforcementKey] ?? ""
            return ["the app config sets \(AppConfig.disableOpenInEnforcementKey) to '\(value)'"]
        case "authorized.allow":
            return [status]
        case "activity-view.blocks-all":
            var sentences = [status, "the share sheet (UIActivityViewController) does not tell the library which app the user picks"]
            if let target { sentences.append("so the picked app \(target) does not matter, listed or not") }
            return sentences
        case "mailto.mail-allowed", "mail-view.mail-allowed":
            return [status, mailPair]
        case "mailto.scheme-blocking-disabled":
            return [status, mailPair] + schemeBlockingOverrides.filter(\.isSet).map(\.sentence)
        case "mailto.email-plus-redirect", "mailto.blocked":
            return [status, mailPair] + schemeBlockingOverrides.map(\.sentence) + [emailPlus]
        case "mail-view.blocked":
            var sentences = [status, mailPair]
            if policy.schemeBlockingDisabled {
                sentences.append("MI_AC_DISABLE_SCHEME_BLOCKING is set, but it covers only the app's own openURL: call, not \(request.channel)")
            }
            return sentences
        case "open-url.own-scheme":
            return ["'\(scheme)' is one of the app's own URL schemes: opening it is not Open In"]
        case "open-url.web-scheme":
            return ["'\(scheme)' is a web scheme: opening a web address is not Open In"]
        case "open-url.listed-handler", "open-url.unlisted-handler":
            guard let handler = policy.device.handler(forScheme: scheme) else { return [] }
            return [status, "the device's handler for scheme '\(scheme)' is \(handler)", listing(handler)]
        case "open-url.unknown-handler":
            return [status, "no handler is known for scheme '\(scheme)' (give one with --scheme-handler \(scheme)=BUNDLE_ID or device.schemeHandlers)",
                    "an unknown handler is never taken as listed"]
        case "document.listed-target", "document.unlisted-target":
            var sentences = [status] + (target.map { [listing($0)] } ?? [])
            if let dummy = decision.dummyFileName { sentences.append("the target receives the dummy file \(dummy) instead") }
            return sentences
        case "drag-and-drop.listed-target", "drag-and-drop.unlisted-target":
            return ["no drag-and-drop policy is given, so drag and drop follows the Open In listing", status] + (target.map { [listing($0)] } ?? [])
        case "open-from.unauthorized", "open-from.authorized":
            return [openFromStatus, "the Open In policy, MI_AC_DISABLE_OPEN_IN_ENFORCEMENT and the whitelist do not concern Open From"]
        case "open-from.listed-source", "open-from.unlisted-source":
            guard let source = request.source else { return [openFromStatus] }
            return [openFromStatus, openFromListing(source)]
        case "open-from.unknown-source":
            return [openFromStatus, "the request names no source app (--source or \"source\"), and an unknown app is never taken as listed"]
        case "copy.unauthorized", "copy.authorized":
            return [pasteboardStatus]
        case "copy.secure-services-unavailable":
            return [pasteboardStatus, "the device's secure services are unavailable (device.secureServicesAvailable is false), so writing to the pasteboard fails"]
        case "copy.secure-appconnect-apps", "copy.secure-non-appconnect-app":
            var sentences = [pasteboardStatus, "the device's secure services are available"]
            if let target { sentences.append(appConnectMembership(target)) }
            return sentences
        case "print.unauthorized", "print.authorized":
            var sentences = [printStatus]
            if decision.outcome == .deny { sentences.append("the SDK has no callback for a blocked print: the app should hide its print command") }
            return sentences
        default:
            return [status]
        }
    }

    var scheme: String { request.url?.scheme ?? "" }

    var openFromStatus: String {
        guard let openFrom = policy.openFrom else { return "the policy does not set openFromPolicy" }
        switch openFrom.setting {
        case .allAppConnectApps:
            return "the Open From policy is \"All AppConnect apps\": WHITELIST of the device's \(count(policy.device.appConnectApps.count, "AppConnect app"))"
        case .status(let status):
            return "the Open From policy is \(status) (\(status.sdkName))"
        }
    }

    /// Whether `source` is in the Open From whitelist, and why.
    func openFromListing(_ source: BundleID) -> String {
        let list = policy.openFrom?.setting == .allAppConnectApps ? "the device's AppConnect apps" : "the Open From whitelist"
        let ids = policy.openFromWhitelist ?? .empty
        if ids.contains(source) { return "\(list) holds \(source)" }
        return "\(list) does not hold \(source) (it holds \(summary(of: ids.ids)); there is no Mail pair for Open From)"
    }

    var pasteboardStatus: String {
        guard let pasteboard = policy.pasteboard else { return "the policy does not set pasteboardPolicy" }
        return "the pasteboard policy is \(pasteboard) (\(pasteboard.sdkName))"
    }

    var printStatus: String {
        guard let print = policy.print else { return "the policy does not set printPolicy" }
        return "the print policy is \(print) (\(print.sdkName))"
    }

    var status: String {
        switch inputs.setting {
        case .allAppConnectApps:
            "the Open In policy is \"All AppConnect apps\": WHITELIST of the device's \(count(policy.device.appConnectApps.count, "AppConnect app"))"
        case .status(let status):
            "the Open In policy is \(status) (\(status.sdkName))"
        }
    }

    /// Whether `id` counts as listed, and why.
    func listing(_ id: BundleID) -> String {
        switch policy.status {
        case .authorized: return "under AUTHORIZED every app is listed"
        case .unauthorized: return "under UNAUTHORIZED no app is listed"
        case .whitelist: break
        }
        if id.isNativeMail { return mailPair }
        let list = inputs.setting == .allAppConnectApps ? "the device's AppConnect apps" : "the whitelist"
        if policy.whitelist.contains(id) { return "\(list) holds \(id)" }
        return "\(list) does not hold \(id) (it holds \(summary(of: policy.whitelist.ids)))"
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

    var emailPlus: String {
        policy.device.emailPlusInstalled
            ? "Email+ (\(policy.device.emailPlusTarget)) is installed"
            : "Email+ is not installed (--email-plus-installed or device.emailPlusInstalled)"
    }

    func appConnectMembership(_ id: BundleID) -> String {
        let apps = policy.device.appConnectApps
        return apps.contains(id)
            ? "\(id) is one of the device's AppConnect apps"
            : "\(id) is not one of the device's AppConnect apps (they are \(summary(of: apps)))"
    }

    /// A set of IDs in a few words: "nothing", or up to four IDs and how many more.
    func summary(of ids: Set<BundleID>) -> String {
        if ids.isEmpty { return "none" }
        let sorted = ids.sorted()
        let shown = sorted.prefix(4).map(\.rawValue).joined(separator: ", ")
        return sorted.count > 4 ? "\(shown) and \(sorted.count - 4) more" : shown
    }

    func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}
