import OpenInCore
import OpenInFleet
import OpenInKit

/// Rule 17: typing with a keyboard: custom keyboards under `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` and the app's own answer.
enum KeyboardRule: RuleUnit {
    static let coreGuide: [Citation] = [.ivanti(.core, "Custom keyboard control")]
    static let wrapperGuide: [Citation] = [.ivanti(.wrapper, "Custom keyboard control")]

    package static let system = RuleInfo(
        "keyboard.system",
        summary: "The system keyboard (com.apple.keyboard, or no keyboard named) is always allowed: it is not a custom keyboard.",
        reason: "The system keyboard is not a custom keyboard, so nothing restricts it.",
        source: [.choice("Rules/keyboards-and-paste.md", "Our choices")] + coreGuide,
        quote: "The system keyboard is not a custom keyboard: it is always allowed, whatever the key or the app says.")
    static let allowedByConfig = RuleInfo(
        "keyboard.custom-allowed-by-config",
        summary: "A custom keyboard is allowed when the app config sets MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS to true; the app's own answer is not asked.",
        reason: "The app config sets MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS to true, so custom keyboards are allowed.",
        source: coreGuide + wrapperGuide,
        quote: "When the key's value is true, the AppConnect app is allowed to use custom keyboards.")
    static let refusedByConfig = RuleInfo(
        "keyboard.custom-refused-by-config",
        summary: "A custom keyboard is denied, without a callback, when the app config sets MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS to anything but true.",
        reason: "The app config sets MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS to a value other than true, so custom keyboards are not allowed.",
        source: coreGuide + [.choice("Rules/keyboards-and-paste.md", "Our choices")],
        quote: "If the value is false, the app is not allowed to use custom keyboards.")
    package static let allowed = RuleInfo(
        "keyboard.custom-allowed",
        summary: "A custom keyboard is allowed when the app config does not set MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS and the app does not refuse it.",
        reason: "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS is not set and the app allows custom keyboards, so the keyboard is allowed.",
        source: coreGuide,
        quote: "If you do not include the key-value pair for the app, the AppConnect app is allowed to use custom keyboards.")
    static let refusedByApp = RuleInfo(
        "keyboard.custom-refused-by-app",
        summary: "A custom keyboard is denied, without a callback, when the app config does not set MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS and the app refuses custom keyboards.",
        reason: "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS is not set, and the app refuses custom keyboards (-shouldAllowExtensionPointIdentifier:).",
        source: wrapperGuide + coreGuide,
        quote: "the AppConnect library gives precedence to the behavior your app specifies in its implementation of the -shouldAllowExtensionPointIdentifier: method on your AppDelegate.")

    package static let rules = [system, allowedByConfig, refusedByConfig, allowed, refusedByApp]

    /// Whether the keyboard is the system one.
    package static let targetReads = TargetReads(.systemKeyboard, on: [.keyboard])

    package static func covers(_ request: ShareRequest, _ policy: PreparedPolicy) -> Bool {
        if case .keyboard = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ policy: PreparedPolicy) -> Decision {
        guard case .keyboard(let keyboard) = request.route else { preconditionFailure("\(request) is not keyboard") }
        return decide(keyboard: keyboard, policy)
    }

    /// Decides typing with `keyboard` (`nil` or `com.apple.keyboard`: the system keyboard).
    package static func decide(keyboard: BundleID?, _ policy: PreparedPolicy) -> Decision {
        let ui = policy.openInUI
        guard let keyboard, keyboard != .systemKeyboard else {
            return Decision(outcome: .allow, target: keyboard, openInUI: ui, rule: system.id)
        }
        switch policy.configAllowsCustomKeyboards {
        case true?: return Decision(outcome: .allow, target: keyboard, openInUI: ui, rule: allowedByConfig.id)
        case false?: return Decision(outcome: .deny, target: nil, openInUI: ui, rule: refusedByConfig.id)
        case nil:
            if policy.appAllowsCustomKeyboards { return Decision(outcome: .allow, target: keyboard, openInUI: ui, rule: allowed.id) }
            return Decision(outcome: .deny, target: nil, openInUI: ui, rule: refusedByApp.id)
        }
    }

    package static func explain(_ decision: Decision, _ facts: ExplanationFacts) -> [String] {
        let key = AppConfig.allowCustomKeyboardsKey
        let keyboard = facts.target.map { "the keyboard is \($0), a custom keyboard extension" } ?? ""
        switch decision.rule {
        case system.id:
            return [facts.target == nil ? "the request names no keyboard: the system keyboard" : "\(BundleID.systemKeyboard) is the system keyboard"]
        case allowedByConfig.id:
            return [keyboard, "the app config sets \(key) to 'true'", "when the key is set, the library does not ask the app"]
        case refusedByConfig.id:
            let value = facts.policy.config[key] ?? ""
            return [keyboard, value == "false" ? "the app config sets \(key) to 'false'"
                    : "the app config sets \(key) to '\(value)', which is not 'true', so custom keyboards are refused (fail closed)"]
        default:
            let answer = facts.policy.app.allowsCustomKeyboards
                ? "the app allows custom keyboards (app.allowsCustomKeyboards is true, the default)"
                : "the app refuses custom keyboards (app.allowsCustomKeyboards is false: its -shouldAllowExtensionPointIdentifier: says no)"
            return [keyboard, "\(key) is not set in the app config, so the app's own answer decides", answer]
        }
    }

    /// A keyboard is read only as the system keyboard or a custom one: no target, the system keyboard,
    /// and the fresh ID, which stands for every custom keyboard.
    package static func requestClasses(_ space: RequestSpace) -> [RequestClassFamily] {
        [.one(space.request(.keyboard)), .one(space.request(.keyboard, target: .systemKeyboard)),
         .one(space.request(.keyboard, target: space.freshTarget))]
    }
}
