import OpenInCore
import OpenInFleet
import OpenInKit

/// An Intune rule unit for a request that names a location, not an app (``LocationRequest``):
/// the location counterpart of ``IntuneRuleUnit``. Its rows are in `Rules/intune/save-as-and-open-into.md`.
protocol IntuneLocationRuleUnit: Sendable {
    /// The ids this unit can decide with, with their descriptions, in order.
    static var rules: [RuleInfo] { get }

    /// The channel this unit decides.
    static var channel: LocationChannel { get }

    /// Decides a request on ``channel`` for an app a policy targets.
    static func decide(_ request: LocationRequest, _ policy: IntunePolicy) -> Decision
}

/// Intune rule 11: "Save copies of org data", with its selected services.
enum IntuneSaveAsRule: IntuneLocationRuleUnit {
    package static let allApps = RuleInfo(
        "intune.save-as.all-apps",
        summary: "Under Send org data to other apps = All apps, Save As is allowed to any location, whatever Save copies of org data says.",
        reason: "Send org data to other apps is All apps, and Save copies of org data is then Allow.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("saveAsBlocked")],
        quote: "This setting will be \"Allow\" when the setting Send org data to other apps is set to All apps.")
    static let sendNone = RuleInfo(
        "intune.save-as.send-none",
        summary: "Under Send org data to other apps = None, Save As is refused to every location, the selected services included.",
        reason: "Send org data to other apps is None, and Save copies of org data is then Block with no allowed service.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("saveAsBlocked")],
        quote: "This setting will be \"Block\" with no allowed service locations when the setting Send org data to other apps is set to None.")
    package static let allowed = RuleInfo(
        "intune.save-as.allowed",
        summary: "Under Save copies of org data = Allow (the default), Save As is allowed to any location.",
        reason: "Save copies of org data is Allow.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("saveAsBlocked")],
        quote: "Choose Allow if you want to allow the use of Save As.")
    static let selectedService = RuleInfo(
        "intune.save-as.selected-service",
        summary: "Under Save copies of org data = Block, Save As is allowed to a location of Allow user to save copies to selected services.",
        reason: "Save copies of org data is Block, and the location is one of the selected services.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedDataStorageLocations")],
        quote: "Users can save to the selected services (OneDrive for Business, SharePoint, Photo Library, and Local Storage).")
    package static let blocked = RuleInfo(
        "intune.save-as.blocked",
        summary: "Under Save copies of org data = Block, Save As to a location that is not a selected service (any other service: other) is refused.",
        reason: "Save copies of org data is Block, and the location is not one of the selected services.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedDataStorageLocations")],
        quote: "All other services are blocked.")

    package static let rules = [allApps, sendNone, allowed, selectedService, blocked]
    package static let channel = LocationChannel.saveAs

    package static func decide(_ request: LocationRequest, _ policy: IntunePolicy) -> Decision {
        switch policy.send {
        case .allApps: return .intune(.allow, to: nil, allApps)
        case .none: return .intune(.deny, to: nil, sendNone)
        case .managedApps:
            if !policy.saveAsBlocked { return .intune(.allow, to: nil, allowed) }
            return policy.allowedDataStorageLocations.contains(request.location)
                ? .intune(.allow, to: nil, selectedService) : .intune(.deny, to: nil, blocked)
        }
    }
}

/// Intune rule 12: "Open data into Org documents", with its selected services.
enum IntuneOpenIntoOrgDocumentRule: IntuneLocationRuleUnit {
    package static let allApps = RuleInfo(
        "intune.open-into.all-apps",
        summary: "Under Receive data from other apps = All apps (or All apps with incoming Org data), opening data into org documents is allowed from any location, whatever Open data into Org documents says.",
        reason: "Receive data from other apps is All apps, and Open data into Org documents is then Allow.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("blockDataIngestionIntoOrganizationDocuments")],
        quote: "This setting will be \"Allow\" when the setting Receive data from other apps is set to All apps or All apps with incoming Org data.")
    static let receiveNone = RuleInfo(
        "intune.open-into.receive-none",
        summary: "Under Receive data from other apps = None, opening data into org documents is refused from every location, the selected services included.",
        reason: "Receive data from other apps is None, and Open data into Org documents is then Block with no allowed service.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("blockDataIngestionIntoOrganizationDocuments")],
        quote: "This setting will be \"Block\" with no allowed service locations when the setting Receive data from other apps is set to None.")
    package static let allowed = RuleInfo(
        "intune.open-into.allowed",
        summary: "Under Open data into Org documents = Allow (the default), opening data into org documents is allowed from any location.",
        reason: "Open data into Org documents is Allow.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("blockDataIngestionIntoOrganizationDocuments")],
        quote: "Select Allow if you want to allow the use of Open.")
    static let selectedService = RuleInfo(
        "intune.open-into.selected-service",
        summary: "Under Open data into Org documents = Block, opening data is allowed from a location of Allow users to open data from selected services.",
        reason: "Open data into Org documents is Block, and the location is one of the selected services.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedDataIngestionLocations")],
        quote: "Select the application storage services that users can open data from.")
    package static let blocked = RuleInfo(
        "intune.open-into.blocked",
        summary: "Under Open data into Org documents = Block, opening data from a location that is not a selected service (any other source: other) is refused.",
        reason: "Open data into Org documents is Block, and the location is not one of the selected services.",
        source: [.learn(.iosSettings, "Data transfer"), .graph("allowedDataIngestionLocations")],
        quote: "All other services are blocked. Selecting no services will prevent users from opening data from external locations.")

    package static let rules = [allApps, receiveNone, allowed, selectedService, blocked]
    package static let channel = LocationChannel.openIntoOrgDocument

    package static func decide(_ request: LocationRequest, _ policy: IntunePolicy) -> Decision {
        switch policy.receive {
        case .allApps: return .intune(.allow, to: nil, allApps)
        case .none: return .intune(.deny, to: nil, receiveNone)
        case .managedApps:
            if !policy.blockDataIngestion { return .intune(.allow, to: nil, allowed) }
            return policy.allowedDataIngestionLocations.contains(request.location)
                ? .intune(.allow, to: nil, selectedService) : .intune(.deny, to: nil, blocked)
        }
    }
}
