import OpenInCore
import OpenInFleet
import OpenInKit

/// The Intune policies behind one end-to-end decision: the sender's and the receiver's (`nil`: no
/// policy targets the app), and the file the policies were read from.
struct IntuneSides: FleetDecisionSides {
    /// Each side's policy, held once per device index (two references: a decision copies no policy).
    let senderSide: IntunePolicySide
    let receiverSide: IntunePolicySide?

    package var sender: IntunePolicy? { senderSide.policy }
    package var receiver: IntunePolicy? { receiverSide?.policy }
    /// The policies' file or folder, for an app no policy targets.
    package var file: String? { senderSide.file }

    package func settings(of decision: FleetDecision) -> [FleetSetting] { IntuneSettings.settings(decision, self) }
}

/// One Intune policy (`nil`: none targets the app) and the file the policies were read from, held once per device.
final class IntunePolicySide: Sendable {
    package let policy: IntunePolicy?
    package let file: String?

    package init(policy: IntunePolicy?, file: String?) {
        self.policy = policy
        self.file = file
    }
}

/// The settings behind an Intune end-to-end decision (``FleetDecision/settings``): for each side,
/// the policy property its rule reads (the Graph property the rule cites), with the value the
/// export gives, or Graph's default when the export leaves the property out.
enum IntuneSettings {
    package static func settings(_ decision: FleetDecision, _ sides: IntuneSides) -> [FleetSetting] {
        let fallback = decision.request.channel == .paste ? "allowedOutboundClipboardSharingLevel" : "allowedOutboundDataTransferDestinations"
        var settings = [setting(.sender, app: decision.request.from, sides.sender, rule: decision.sender.rule, fallback: fallback, file: sides.file)]
        if let receiver = decision.receiver, let app = decision.receiverApp {
            let fallback = decision.request.channel == .paste ? "allowedOutboundClipboardSharingLevel" : "allowedInboundDataTransferSources"
            settings.append(setting(.receiver, app: app, sides.receiver, rule: receiver.rule, fallback: fallback, file: sides.file))
        }
        return settings
    }

    /// The property `rule` reads, from its Graph citation, else `fallback`.
    package static func property(of rule: RuleID, fallback: String) -> String {
        for citation in rule.info.citations {
            if case .graph(_, let property) = citation.kind { return property }
        }
        return fallback
    }

    package static func setting(_ side: FleetSetting.Side, app: BundleID, _ policy: IntunePolicy?, rule: RuleID, fallback: String, file: String?) -> FleetSetting {
        guard let policy else {
            // No policy reaches it on this profile: none targets it, or those that do are not assigned to its user (or its level).
            return FleetSetting(side: side, app: app, policy: "none (no app protection policy reaches it on this profile)", via: "Intune targeting and assignments (not reached)",
                                key: "apps", value: "(not reached)", file: file, line: nil)
        }
        let property = self.property(of: rule, fallback: fallback)
        let sources = policy.sources
        let place = sources.file ?? file
        if let source = sources.keys[property] {
            return FleetSetting(side: side, app: app, policy: policy.displayName, via: "Intune targeting", key: source.path, value: source.text, file: place, line: source.line)
        }
        return FleetSetting(side: side, app: app, policy: policy.displayName, via: "Intune targeting (\(property) not set: Graph's default applies)",
                            key: sources.path.isEmpty ? property : "\(sources.path).\(property)", value: defaultValue(of: property, in: policy), file: place, line: sources.line)
    }

    /// The value that applies for `property` (the default, when the export leaves it out).
    static func defaultValue(of property: String, in policy: IntunePolicy) -> String {
        switch property {
        case "allowedOutboundDataTransferDestinations": policy.send.rawValue
        case "allowedInboundDataTransferSources": policy.receive.rawValue
        case "allowedOutboundClipboardSharingLevel": policy.clipboard.rawValue
        case "allowedOutboundClipboardSharingExceptionLength": String(policy.clipboardExceptionLength)
        case "filterOpenInToOnlyManagedApps": policy.filterOpenInToOnlyManagedApps ? "true" : "false"
        case "disableProtectionOfManagedOutboundOpenInData": policy.disableProtectionOfManagedOutboundOpenInData ? "true" : "false"
        case "protectInboundDataFromUnknownSources": policy.protectInboundDataFromUnknownSources ? "true" : "false"
        case "printBlocked": policy.printBlocked ? "true" : "false"
        case "thirdPartyKeyboardsBlocked": policy.thirdPartyKeyboardsBlocked ? "true" : "false"
        case "managedBrowserToOpenLinksRequired": policy.managedBrowserRequired ? "true" : "false"
        case "dialerRestrictionLevel": policy.dialer.rawValue
        case "protectedMessagingRedirectAppType": policy.messaging.rawValue
        default: "(not set)"
        }
    }
}
