import OpenInCore
import OpenInFleet
import OpenInKit

/// Intune rule 9: pasting into the app, under the receiving app's "Restrict cut, copy, and paste
/// between other apps" (`Rules/intune/paste-and-keyboards.md`).
enum IntunePasteRule: IntuneRuleUnit {
    static let ownApp = RuleInfo(
        "intune.paste.own-app",
        summary: "Pasting what was copied in the app itself is allowed at every clipboard level: it is not a paste between apps (our choice).",
        reason: "The copy comes from the app itself; Restrict cut, copy, and paste concerns other apps only.",
        source: [.choice("Rules/intune/paste-and-keyboards.md", "Our choices"), .learn(.iosSettings, "Data transfer")],
        quote: "A paste from the app's own bundle ID is within the app, not between apps.")
    package static let allApps = RuleInfo(
        "intune.paste.all-apps",
        summary: "Under Restrict cut, copy, and paste = Any app, pasting into the app from any app, known or not, is allowed.",
        reason: "Cut, copy and paste is allowed between all apps, so a copy from any app can be pasted in.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing is allowed between all apps, managed or not.")
    static let pasteIn = RuleInfo(
        "intune.paste.paste-in",
        summary: "Under Policy managed with paste in, pasting into the app from any app, known or not, is allowed.",
        reason: "The level is Policy managed with paste in: data from any app may be pasted into this app.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Allow data from any app to be pasted into this app.")
    static let managedSource = RuleInfo(
        "intune.paste.managed-source",
        summary: "Under Restrict cut, copy, and paste = Policy managed apps, pasting into the app from a policy-managed app is allowed.",
        reason: "Cut, copy and paste is restricted to policy-managed apps, and the copy comes from one.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing is allowed between all managed apps.")
    static let unmanagedSource = RuleInfo(
        "intune.paste.unmanaged-source",
        summary: "Under Restrict cut, copy, and paste = Policy managed apps, pasting into the app from an app that is not policy-managed, or from an unknown app, is refused.",
        reason: "Cut, copy and paste is restricted to policy-managed apps, and the copy comes from an app that is not one (or from an unknown app: fail closed).",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing is allowed between all managed apps.")
    package static let blocked = RuleInfo(
        "intune.paste.blocked",
        summary: "Under Restrict cut, copy, and paste = Blocked, pasting into the app from any other app, policy-managed or not, known or not, is refused.",
        reason: "Cut, copy and paste between this app and any other app is blocked.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing between apps is disabled.")

    package static let rules = [ownApp, allApps, pasteIn, managedSource, unmanagedSource, blocked]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .paste = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        // Rule 1 decides an app no policy targets; a policy-less context reaching here is treated as
        // blocked (fail closed) rather than trapped.
        let level = context.policy?.clipboard ?? .blocked
        if let source = request.source, let app = context.app, IntuneBundleID.same(source, app) {
            return .intune(.allow, to: nil, ownApp)
        }
        switch level {
        case .allApps: return .intune(.allow, to: nil, allApps)
        case .managedAppsWithPasteIn: return .intune(.allow, to: nil, pasteIn)
        case .managedApps:
            if let source = request.source, context.isManaged(source) { return .intune(.allow, to: nil, managedSource) }
            return .intune(.deny, to: nil, unmanagedSource)
        case .blocked: return .intune(.deny, to: nil, blocked)
        }
    }
}

/// Intune rule 10: typing with a keyboard, under "Third party keyboards" (`thirdPartyKeyboardsBlocked`).
enum IntuneKeyboardRule: IntuneRuleUnit {
    package static let system = RuleInfo(
        "intune.keyboard.system",
        summary: "The system keyboard (com.apple.keyboard, or no keyboard named) is always allowed: Third party keyboards does not concern it.",
        reason: "The keyboard is the system keyboard, which Third party keyboards never blocks.",
        source: [.choice("Rules/intune/paste-and-keyboards.md", "Our choices"), .learn(.iosSettings, "Functionality")],
        quote: "The system keyboard is not a third-party keyboard: it is always allowed.")
    package static let blocked = RuleInfo(
        "intune.keyboard.third-party-blocked",
        summary: "Under Third party keyboards = Block, a third-party keyboard is refused in the app.",
        reason: "The policy blocks third-party keyboards (thirdPartyKeyboardsBlocked is true).",
        source: [.learn(.iosSettings, "Functionality"), .graph("thirdPartyKeyboardsBlocked")],
        quote: "Defines if third party keyboards are allowed while accessing a managed app.")
    package static let allowed = RuleInfo(
        "intune.keyboard.third-party-allowed",
        summary: "Under Third party keyboards = Allow (the default), a third-party keyboard is allowed in the app.",
        reason: "The policy allows third-party keyboards (thirdPartyKeyboardsBlocked is false).",
        source: [.learn(.iosSettings, "Functionality"), .graph("thirdPartyKeyboardsBlocked")],
        quote: "Defines if third party keyboards are allowed while accessing a managed app.")

    package static let rules = [system, blocked, allowed]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .keyboard = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let keyboard = request.target, keyboard != .systemKeyboard else { return .intune(.allow, to: request.target, system) }
        // A policy-less context reaching here (rule 1 decides those) is treated as blocked: fail closed.
        if context.policy?.thirdPartyKeyboardsBlocked ?? true { return .intune(.deny, to: nil, blocked) }
        return .intune(.allow, to: keyboard, allowed)
    }
}
