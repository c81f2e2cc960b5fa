import OpenInCore
import OpenInFleet
import OpenInKit

/// Intune rule 1: an app no app protection policy protects on the device (none targets it, or none that
/// targets it reaches the profile) is unmanaged: Intune restricts nothing.
enum IntuneUnmanagedSenderRule: IntuneRuleUnit {
    package static let allow = RuleInfo(
        "intune.unmanaged.allow",
        summary: "An app that no app protection policy protects on the device (none targets it, or none that targets it reaches the profile) is not managed by Intune: every share is allowed.",
        reason: "No Intune app protection policy protects the sending app here (none targets it, or none that does reaches this profile), so Intune restricts nothing.",
        source: [.learn(.overview, "App protection policies overview")],
        quote: "App protection policies (APP) are rules that ensure an organization's data remains safe or contained in a managed app.")

    package static let rules = [allow]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool { context.policy == nil }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        .intune(.allow, to: IntuneDelivery.receiver(of: request, context), allow,
                audience: request.channel == .copy ? .allApps : nil)
    }
}

/// Intune rule 2: Open-In, Quick Look, share extensions and the share sheet, under "Send org data to other apps".
package enum IntuneShareRule: IntuneRuleUnit {
    package static let allApps = RuleInfo(
        "intune.send.all-apps",
        summary: "Under Send org data to other apps = All apps, Open-In and sharing deliver to any app.",
        reason: "Send org data to other apps is All apps: the receiving app can read and edit the data.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "Allow transfer to any app. The receiving app will have the ability to read and edit the data.")
    static let managedTarget = RuleInfo(
        "intune.send.managed-target",
        summary: "Under Send org data to other apps = Policy managed apps (any variant), Open-In and sharing deliver to a policy-managed app.",
        reason: "The receiving app is policy-managed, and the policy allows transfer to policy-managed apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "Allow transfer only to other policy-managed apps.")
    static let osSharing = RuleInfo(
        "intune.send.os-sharing",
        summary: "Under Policy managed apps with OS sharing, on an MDM-enrolled device with IntuneMAMUPN set, Open-In and sharing deliver unencrypted to an MDM-managed app.",
        reason: "OS sharing is on, the device is MDM-enrolled, the sending app has IntuneMAMUPN, and the receiving app is MDM-managed.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("disableProtectionOfManagedOutboundOpenInData")],
        quote: "Only allow data transfer to other policy managed apps, as well as file transfers to other MDM managed apps on enrolled devices.")
    package static let filtered = RuleInfo(
        "intune.send.filtered",
        summary: "Under Policy managed apps with Open-In/Share filtering, an app that is not policy-managed is not offered in the Open-In and share dialogs: nothing is delivered.",
        reason: "Open-In/Share filtering is on, so the dialogs offer only policy-managed apps and the receiving app is not one.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("filterOpenInToOnlyManagedApps")],
        quote: "Allow transfer only to other policy managed apps, and filter OS Open-in/Share dialogs to only display policy managed apps.")
    static let encryptedToUnmanaged = RuleInfo(
        "intune.send.unmanaged-target-encrypted",
        summary: "Under Policy managed apps (unfiltered), Open-In and sharing to an app that is not policy-managed deliver the file encrypted: the app cannot read it.",
        reason: "The receiving app is not policy-managed: Intune encrypts the data, and only policy-managed apps can read it.",
        source: [.learn(.iosSettings, "Data transfer"), .learn(.overview, "iOS share extension")],
        quote: "Transferred data is encrypted by Intune and unreadable by unmanaged apps.")
    static let noneEncrypted = RuleInfo(
        "intune.send.none-encrypted",
        summary: "Under Send org data to other apps = None, Open-In and sharing deliver the file encrypted and unreadable, to any app.",
        reason: "Send org data to other apps is None: a managed Open-In transfers the data encrypted and unreadable.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundDataTransferDestinations")],
        quote: "If the user performs a managed open-in function and transfers a document, the data will be encrypted and unreadable.")

    package static let rules = [allApps, managedTarget, osSharing, filtered, encryptedToUnmanaged, noneEncrypted]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        switch request.route {
        case .document, .activityView: true
        default: false
        }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy else { preconditionFailure("an unmanaged sender is decided by rule 1") }
        let target = request.target
        switch policy.send {
        case .allApps:
            return .intune(.allow, to: target, allApps)
        case .none:
            return .intune(.deliverEncrypted, to: target, noneEncrypted)
        case .managedApps:
            if let target, context.isManaged(target) { return .intune(.allow, to: target, managedTarget) }
            if policy.disableProtectionOfManagedOutboundOpenInData, context.mdmEnrolled, context.intuneMAMUPN,
               let target, context.isMDMManaged(target) {
                return .intune(.allow, to: target, osSharing)
            }
            if policy.filterOpenInToOnlyManagedApps { return .intune(.deny, to: nil, filtered) }
            return .intune(.deliverEncrypted, to: target, encryptedToUnmanaged)
        }
    }
}

/// Intune rule 5: drag and drop. Intune documents no setting for it: our choice (`Rules/intune/drag-and-drop.md`).
enum IntuneDragAndDropRule: IntuneRuleUnit {
    package static let allApps = RuleInfo(
        "intune.drag-and-drop.all-apps",
        summary: "Under Send org data to other apps = All apps, drag and drop to any app is allowed (our choice: Intune documents no drag-and-drop setting).",
        reason: "Intune has no drag-and-drop setting; we follow Send org data to other apps, which is All apps.",
        source: [.choice("Rules/intune/drag-and-drop.md", "Our choices")],
        quote: "Drag and drop follows Send org data to other apps, as Open-In does, without the encrypted delivery.")
    static let managedTarget = RuleInfo(
        "intune.drag-and-drop.managed-target",
        summary: "Under Send org data to other apps = Policy managed apps, drag and drop to a policy-managed app is allowed (our choice).",
        reason: "Intune has no drag-and-drop setting; we follow Send org data to other apps, and the receiving app is policy-managed.",
        source: [.choice("Rules/intune/drag-and-drop.md", "Our choices")],
        quote: "Drag and drop follows Send org data to other apps, as Open-In does, without the encrypted delivery.")
    package static let blocked = RuleInfo(
        "intune.drag-and-drop.blocked",
        summary: "Drag and drop to an app that is not policy-managed, or under None, is denied (our choice: nothing we know of encrypts a drop).",
        reason: "Intune has no drag-and-drop setting; we follow Send org data to other apps, which does not allow this app, and deny.",
        source: [.choice("Rules/intune/drag-and-drop.md", "Our choices")],
        quote: "Drag and drop follows Send org data to other apps, as Open-In does, without the encrypted delivery.")

    package static let rules = [allApps, managedTarget, blocked]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .dragAndDrop = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy, let target = request.target else { preconditionFailure("drag and drop names a target") }
        switch policy.send {
        case .allApps: return .intune(.allow, to: target, allApps)
        case .managedApps where context.isManaged(target): return .intune(.allow, to: target, managedTarget)
        case .managedApps, .none: return .intune(.deny, to: nil, blocked)
        }
    }
}

/// Intune rule 6: Open From, under "Receive data from other apps".
enum IntuneReceiveRule: IntuneRuleUnit {
    package static let allApps = RuleInfo(
        "intune.receive.all-apps",
        summary: "Under Receive data from other apps = All apps, a document from any app, known or not, is accepted.",
        reason: "Receive data from other apps is All apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedInboundDataTransferSources")],
        quote: "Sources from which data is allowed to be transferred.")
    static let orgData = RuleInfo(
        "intune.receive.incoming-org-data",
        summary: "Under All apps with incoming Org data, on an MDM-enrolled device with IntuneMAMUPN set, a document from any app is accepted and treated as the organization's data.",
        reason: "Receive data is All apps with incoming Org data on an enrolled device with IntuneMAMUPN: the document is accepted and marked as org data.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("protectInboundDataFromUnknownSources")],
        quote: "Treat all incoming data without a user identity as data from your organization.")
    static let managedSource = RuleInfo(
        "intune.receive.managed-source",
        summary: "Under Receive data from other apps = Policy managed apps, a document from a policy-managed app is accepted.",
        reason: "The sending app is policy-managed, and the policy receives data from policy-managed apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedInboundDataTransferSources")],
        quote: "Sources from which data is allowed to be transferred.")
    static let unmanagedSource = RuleInfo(
        "intune.receive.unmanaged-source",
        summary: "Under Receive data from other apps = Policy managed apps, a document from an app that is not policy-managed, or from an unknown app, is refused.",
        reason: "The policy receives data from policy-managed apps only, and the sending app is not one (or is unknown).",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedInboundDataTransferSources")],
        quote: "Sources from which data is allowed to be transferred.")
    package static let none = RuleInfo(
        "intune.receive.none",
        summary: "Under Receive data from other apps = None, a document from any app, policy-managed ones included, is refused.",
        reason: "Receive data from other apps is None.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedInboundDataTransferSources")],
        quote: "Sources from which data is allowed to be transferred.")

    package static let rules = [allApps, orgData, managedSource, unmanagedSource, none]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .openFrom = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy else { preconditionFailure("an unmanaged app is decided by rule 1") }
        switch policy.receive {
        case .allApps:
            if policy.protectInboundDataFromUnknownSources, context.mdmEnrolled, context.intuneMAMUPN {
                return .intune(.allow, to: nil, orgData)
            }
            return .intune(.allow, to: nil, allApps)
        case .managedApps:
            if let source = request.source, context.isManaged(source) { return .intune(.allow, to: nil, managedSource) }
            return .intune(.deny, to: nil, unmanagedSource)
        case .none:
            return .intune(.deny, to: nil, none)
        }
    }
}

/// Intune rule 7: copy, under "Restrict cut, copy and paste between other apps".
enum IntuneCopyRule: IntuneRuleUnit {
    package static let allApps = RuleInfo(
        "intune.copy.all-apps",
        summary: "Under Restrict cut, copy and paste = Any app, copying is allowed and every app can paste the copy.",
        reason: "Cut, copy and paste is allowed between all apps.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing is allowed between all apps, managed or not.")
    static let managedApps = RuleInfo(
        "intune.copy.managed-apps",
        summary: "Under Policy managed apps (with or without paste in), copying is allowed and only policy-managed apps can paste it; a named paste target that is policy-managed gets it.",
        reason: "Cut, copy and paste is restricted to policy-managed apps, and the copy stays among them.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "The level to which the clipboard may be shared between apps on the managed device.")
    static let unmanagedTarget = RuleInfo(
        "intune.copy.unmanaged-target",
        summary: "Under Policy managed apps (with or without paste in), pasting into an app that is not policy-managed is refused, beyond the character limit for any app.",
        reason: "Cut, copy and paste is restricted to policy-managed apps and the paste target is not one; only a copy within the character limit for any app would pass.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingExceptionLength")],
        quote: "Specify the number of characters that may be cut or copied from Org data and accounts to any application.")
    package static let blocked = RuleInfo(
        "intune.copy.blocked",
        summary: "Under Restrict cut, copy and paste = Blocked, copying out of the app is refused, beyond the character limit for any app.",
        reason: "Cut, copy and paste between apps is blocked; only a copy within the character limit for any app would pass.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedOutboundClipboardSharingLevel")],
        quote: "Sharing between apps is disabled.")

    package static let rules = [allApps, managedApps, unmanagedTarget, blocked]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .copy = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        guard let policy = context.policy else { preconditionFailure("an unmanaged app is decided by rule 1") }
        switch policy.clipboard {
        case .allApps:
            return .intune(.allow, to: request.target, allApps, audience: .allApps)
        case .managedApps, .managedAppsWithPasteIn:
            if let target = request.target, !context.isManaged(target) { return .intune(.deny, to: nil, unmanagedTarget) }
            return .intune(.allow, to: request.target, managedApps, audience: .managedApps)
        case .blocked:
            return .intune(.deny, to: nil, blocked)
        }
    }
}

/// Intune rule 8: printing, under "Printing Org data".
enum IntunePrintRule: IntuneRuleUnit {
    package static let blocked = RuleInfo(
        "intune.print.blocked",
        summary: "Under Printing Org data = Block, printing is refused.",
        reason: "The policy blocks printing of org data.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("printBlocked")],
        quote: "Indicates whether printing is allowed from managed apps.")
    package static let allowed = RuleInfo(
        "intune.print.allowed",
        summary: "Under Printing Org data = Allow (the default), printing is allowed.",
        reason: "The policy allows printing of org data.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("printBlocked")],
        quote: "Indicates whether printing is allowed from managed apps.")

    package static let rules = [blocked, allowed]

    package static func covers(_ request: ShareRequest, _ context: IntuneContext) -> Bool {
        if case .print = request.route { true } else { false }
    }

    package static func decide(_ request: ShareRequest, _ context: IntuneContext) -> Decision {
        context.policy?.printBlocked == true ? .intune(.deny, to: nil, blocked) : .intune(.allow, to: nil, allowed)
    }
}
