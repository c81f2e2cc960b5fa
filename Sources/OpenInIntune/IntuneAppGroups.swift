import OpenInCore
import OpenInFleet
import OpenInKit

/// Where the apps of a policy that targets an app group came from.
public enum IntuneAppGroupSource: String, Sendable, Hashable, CustomStringConvertible {
    /// Not resolved yet: the export names the group and lists no apps.
    case unresolved
    /// The devices file's `appGroups` (the tenant's own list).
    case devicesFile
    /// The built-in list of Core Microsoft apps (``IntuneAppGroups/coreMicrosoftApps``).
    case builtInList
    /// `allApps`: every app of the devices file with an Intune SDK version.
    case appsWithIntuneSDK

    public var description: String {
        switch self {
        case .unresolved: "not resolved"
        case .devicesFile: "the devices file's appGroups"
        case .builtInList: "the built-in list of Core Microsoft apps (\(IntuneAppGroups.coreMicrosoftAppsDate))"
        case .appsWithIntuneSDK: "every app of the devices file with an intuneSDKVersion"
        }
    }
}

/// Resolves Graph's `appGroupType` to apps (`Rules/intune/README.md`, "App groups"): a policy that
/// targets a group and whose export lists no apps takes the group's apps from the devices file's
/// `appGroups` first (the tenant is the authority); otherwise Core Microsoft apps come from a built-in
/// list, `allApps` is every app of the devices file with an Intune SDK version, and All Microsoft apps
/// cannot be resolved (an error naming the fix).
public enum IntuneAppGroups {
    /// The group names Graph's `targetedManagedAppGroupType` has.
    public static let names = ["selectedPublicApps", "allCoreMicrosoftApps", "allMicrosoftApps", "allApps"]
    /// The groups the devices file's `appGroups` may list.
    public static let listable = ["allCoreMicrosoftApps", "allMicrosoftApps"]

    /// When the built-in list was taken: the date of Microsoft Learn's "Data protection framework using
    /// app protection policies" (section "Apps to include in the App Protection Policies") it follows.
    public static let coreMicrosoftAppsDate = "2023-06-12"

    /// Core Microsoft apps, as Microsoft Learn's "Data protection framework using app protection
    /// policies" names them (Edge, Excel, Office, OneDrive, OneNote, Outlook, PowerPoint, SharePoint,
    /// Teams, To Do, Word), by the iOS bundle IDs Graph exports list them under.
    public static let coreMicrosoftApps: [BundleID] = [
        "com.microsoft.msedge", "com.microsoft.office.excel", "com.microsoft.officemobile", "com.microsoft.skydrive",
        "com.microsoft.onenote", "com.microsoft.office.outlook", "com.microsoft.office.powerpoint", "com.microsoft.sharepoint",
        "com.microsoft.skype.teams", "com.microsoft.to-do", "com.microsoft.office.word",
    ].map { BundleID(known: $0) }

    /// Resolves `policy`'s apps when it targets a group its export does not list.
    /// - Parameters:
    ///   - policy: the policy; its ``IntunePolicy/apps`` are set when it names a group its export does not list.
    ///   - groups: the devices file's `appGroups`, by group name.
    ///   - apps: the devices file's apps; `nil` when there is no devices file.
    ///   - file: the policies' file, for the error.
    /// - Throws: ``FleetError`` for All Microsoft apps (or All apps) with nothing to resolve it from.
    public static func resolve(_ policy: inout IntunePolicy, groups: [(name: String, apps: [BundleID])], apps: [IntuneApp]?, file: String? = nil) throws(FleetError) {
        guard policy.appsFromGroup == .unresolved, let group = policy.appGroupType else { return }
        if let listed = groups.first(where: { ExactText.same($0.name, group) }) {
            policy.apps = listed.apps
            policy.appsFromGroup = .devicesFile
            return
        }
        let name = JSONWriter.quoted(policy.displayName)
        // Where the export names the group: its own file (an export folder's), else the policies' file.
        let file = policy.sources.file ?? file, line = policy.sources.file == nil ? nil : policy.sources.keys["appGroupType"]?.line
        switch group {
        case "allCoreMicrosoftApps":
            policy.apps = coreMicrosoftApps
            policy.appsFromGroup = .builtInList
        case "allApps":
            guard let apps else {
                throw FleetError("policy \(name) targets allApps (every app with the Intune SDK), and there is no devices file to say which apps have it: give --devices FILE, with intuneSDKVersion for each app that has the Intune SDK", file: file, line: line)
            }
            policy.apps = apps.filter { $0.intuneSDKVersion != nil }.map(\.bundleID)
            policy.appsFromGroup = .appsWithIntuneSDK
        default:
            throw FleetError("policy \(name) targets \(group), and its export lists no apps: Microsoft keeps that group's members up to date and publishes no fixed list, so name them in the devices file: \"appGroups\": {\"\(group)\": [\"BUNDLE_ID\", ...]} (your tenant's list: GET /beta/deviceAppManagement/iosManagedAppProtections/{id}?$expand=apps)", file: file, line: line)
        }
    }
}
