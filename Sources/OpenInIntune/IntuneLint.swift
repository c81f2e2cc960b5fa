import OpenInCore
import OpenInFleet
import OpenInKit

/// Mistakes in Intune app protection policies that Microsoft Learn warns about, found with the devices'
/// facts: the checks of `openin-check fleet lint` on Intune policies.
public enum IntuneLint {
    /// Every check: code, name, one line, and the severity of its findings.
    public static let checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)] = [
        ("IN001", "compose-needs-sdk", "mailto is exempted, but a targeted app's Intune SDK is older than 14.5.0 or unknown: the mail compose sheet stays blocked in it.", .warning),
        ("IN002", "legacy-tel-exemption", "tel or telprompt is exempted: phone numbers go to any dialer whatever Transfer telecommunication data to says.", .warning),
        ("IN003", "sms-exemption-overrides-messaging", "sms is exempted while Transfer messaging data to restricts messaging: the exemption wins.", .warning),
        ("IN004", "browser-setting-ignored", "A managed or custom browser is named but managedBrowserToOpenLinksRequired is false, a pair Microsoft documents as inconsistent: web links open in any browser.", .warning),
        ("IN005", "mail-never-managed", "Send org data is not All apps: native Mail, built into iOS, has no Intune SDK, so it never receives readable org data by Open-In or share.", .info),
        ("IN006", "custom-protocol-unhandled", "A custom dialer, messaging or browser protocol that no app in any device profile handles (or a template's placeholder): those links go to no app.", .warning),
        ("IN007", "save-as-nowhere", "Save copies of org data is blocked and no storage location is allowed: org data cannot be saved anywhere, OneDrive included.", .warning),
        ("IN008", "ingestion-list-ignored", "allowedDataIngestionLocations is given while Open data into Org documents is not blocked: the list does nothing.", .info),
        ("IN009", "app-group-built-in", "Core Microsoft apps resolved from the built-in list: give appGroups in the devices file to use the tenant's own list.", .info),
        ("IN010", "not-assigned", "The policy is assigned to no group (\"assignments\": []): it protects no app.", .warning),
        ("IN011", "marked-unassigned", "The export says isAssigned: false and holds no assignments: the policy is analysed as if it reached every profile.", .info),
        ("IN012", "exclusion-only", "The policy only excludes groups: it reaches no one.", .warning),
        ("IN013", "group-not-carried", "An assignment's group is carried by no device profile: the devices file may misspell it, or miss the users it targets.", .warning),
        ("IN014", "os-sharing-without-upn", "On an MDM-enrolled profile, a policy with OS sharing meets an app that does not receive IntuneMAMUPN: the app counts as unmanaged there.", .warning),
        ("IN015", "overlap", "Two or more policies reach one app on one profile: each setting takes the most restrictive value (Microsoft Learn), or the least with --conflicts least-restrictive.", .warning),
        ("IN016", "filter-excludes-every-profile", "An assignment's filter leaves out every profile its group reaches (an include filter whose rule holds on none, an exclude filter whose rule holds on all): the assignment reaches no one.", .warning),
    ]

    /// Whether `text` is a template's placeholder rather than a value (`replace_with_dialer_app_url_scheme`,
    /// as Microsoft's level-3 framework template ships it).
    static func isPlaceholder(_ text: String) -> Bool {
        ExactText.asciiLowercased(text).hasPrefix("replace_with") || ExactText.asciiLowercased(text).hasPrefix("<")
    }

    /// The findings, policy by policy, in check order.
    public static func findings(_ fleet: IntuneFleet) -> [FleetFinding] {
        var findings: [FleetFinding] = []
        // Each finding is placed at the policy property it is about (else the policy's first line), in the
        // file the policy was read from.
        var policy: IntunePolicy? = nil
        // An assignment read from its own file (IntuneBackupAndRestore's Assignments/) is placed there.
        func add(_ code: String, at property: String, device: String? = nil, assignment: IntuneAssignment? = nil, _ message: String, fix: String) {
            let check = checks.first { $0.code == code }!
            let sources = policy?.sources
            let value = sources?.keys[property]
            let own = assignment?.file != nil
            var finding = FleetFinding(code: code, name: check.name, severity: check.severity, line: own ? assignment?.line : value?.line ?? sources?.line, device: device,
                                       keyPath: value?.path ?? sources.map { $0.path.isEmpty ? property : "\($0.path).\(property)" } ?? property,
                                       message: message, fix: fix)
            finding.file = own ? assignment?.file : sources?.file
            findings.append(finding)
        }
        // Looked up per targeted app: made once (a scan of the apps and of each device per app is quadratic).
        var sdk: [ExactKey: IntuneSDKVersion?] = [:]
        for app in fleet.apps where sdk[IntuneBundleID.key(app.bundleID)] == nil { sdk[IntuneBundleID.key(app.bundleID)] = app.intuneSDKVersion }
        let installedAnywhere = Set(fleet.devices.flatMap { $0.installed.map(IntuneBundleID.key) })
        // The groups the profiles carry, by either spelling, for IN013.
        let carriedGroups = fleet.devices.flatMap { ($0.groups ?? []) + $0.groupAliases }
        let carriedKeys = Set(carriedGroups.map(ExactKey.init))
        func carried(_ assignment: IntuneAssignment) -> Bool {
            [assignment.groupID, assignment.groupName].contains { $0.map { carriedKeys.contains(ExactKey($0)) } == true }
        }
        // Per policy, in file order, the profiles whose groups it includes where it targets an installed app (IN014:
        // whether its level then takes the app is the finding), and those where it protects one (IN005); visited
        // from each profile's installed apps and candidates (a walk of every profile per policy is profiles × policies).
        let reach = IntuneReachIndex(fleet)
        var installedFor = [[Int]](repeating: [], count: fleet.policies.count), protectsFor = installedFor
        // IN015: policies that reach one app at once on a profile, once per app and set of policies, naming the profiles.
        // Per profile, only the policies whose groups include it (IntuneReachIndex), each overlap found once by its app and policies.
        var overlaps: [(app: BundleID, policies: [Int], devices: [String], last: Int)] = []
        var overlapAt: [OverlapKey: Int] = [:]
        // Each profile's candidates and its apps' reaching policies, independent of the other profiles: worked out in
        // parts across the cores, a batch of profiles at a time (memory: one batch's answers); then taken in profile
        // order, as one loop takes them.
        let batch = 512
        for start in stride(from: 0, to: fleet.devices.count, by: batch) {
            let end = min(start + batch, fleet.devices.count)
            let worked = Parallel.fill(end - start, minimum: 32) { (offset) throws(Never) -> (candidates: IntuneReachIndex.Candidates, reaching: [Int: [Int]?]) in
                let device = fleet.devices[start + offset]
                let membership = reach.membership(of: device)
                let candidates = reach.candidates(in: fleet, membership: membership)
                // Each app's policies on the profile, worked out once however many candidates target it.
                var reachingOf: [Int: [Int]?] = [:]
                func reaching(_ app: BundleID, _ number: Int) {
                    guard reachingOf[number] == nil else { return }
                    reachingOf[number] = .some(try? fleet.reaching(app, on: device, membership: membership, index: reach, candidates: candidates, number: number))
                }
                for app in device.installed {
                    guard let number = reach.appNumber(key: IntuneBundleID.key(app)) else { continue }
                    reaching(app, number)
                }
                for position in candidates.ordered {
                    for (app, number) in zip(fleet.policies[position].apps, reach.appNumbersOf[position]) where reach.targeting(app: number).count > 1 {
                        reaching(app, number)
                    }
                }
                return (candidates, reachingOf)
            }.values
            for devicePosition in start..<end {
                let device = fleet.devices[devicePosition]
                let (candidates, reachingOf) = worked[devicePosition - start]
                func reaching(_ number: Int) -> [Int]? { reachingOf[number] ?? nil }
                for app in device.installed {
                    guard let number = reach.appNumber(key: IntuneBundleID.key(app)) else { continue }
                    for target in reach.targeting(app: number) where candidates.contains(target) && installedFor[target].last != devicePosition {
                        installedFor[target].append(devicePosition)
                    }
                    for target in reaching(number) ?? [] where protectsFor[target].last != devicePosition { protectsFor[target].append(devicePosition) }
                }
                for position in candidates.ordered {
                    for (app, number) in zip(fleet.policies[position].apps, reach.appNumbersOf[position]) {
                        guard reach.targeting(app: number).count > 1, let reaching = reaching(number), reaching.count > 1,
                            fleet.policies[reaching[0]].displayName == fleet.policies[position].displayName
                        else { continue }
                        let key = OverlapKey(app: number, policies: reaching)
                        if let index = overlapAt[key] {
                            if overlaps[index].last != devicePosition { overlaps[index].devices.append(device.name) }
                            overlaps[index].last = devicePosition
                        } else {
                            overlapAt[key] = overlaps.count
                            overlaps.append((app, reaching, [device.name], devicePosition))
                        }
                    }
                }
            }
        }
        // The profiles that carry each group (by either spelling), for IN016: an assignment visits its group's profiles, not every profile.
        var carriers: [Int: [Int]] = [:]
        for (index, device) in fleet.devices.enumerated() {
            for group in reach.membership(of: device).groups ?? [] { carriers[group, default: []].append(index) }
        }
        // IN016's question for each policy's include assignments with a usable filter, in order: the profiles its group
        // reaches where it targets an installed app, and whether the filter lets the policy reach one of them. Each
        // policy alone, in parts across the cores.
        let filterReach = Parallel.fill(fleet.policies.count, minimum: 16) { (position) throws(Never) -> [(profiles: [String], reaches: Bool)] in
            let policy = fleet.policies[position]
            var outcomes: [(profiles: [String], reaches: Bool)] = []
            for assignment in policy.assignments ?? [] where assignment.kind == .include {
                guard let reference = assignment.filter, let filter = fleet.filters.filter(named: reference), filter.unusable == nil else { continue }
                var profiles: [String] = []
                var reaches = false
                let holding = Set([assignment.groupID, assignment.groupName].compactMap { $0 }.compactMap(reach.group).flatMap { carriers[$0] ?? [] }).sorted()
                for index in holding {
                    let apps = policy.apps.filter { IntuneBundleID.contains(fleet.devices[index].installed, $0) && policy.managementLevels.targets(managed: fleet.devices[index].isManagedType($0)) }
                    guard !apps.isEmpty else { continue }
                    profiles.append(fleet.devices[index].name)
                    for app in apps {
                        // A rule that cannot be evaluated there (a fact not given) is no finding: the load reports it where it matters.
                        guard let holds = try? filter.matches(fleet.subject(app, on: fleet.devices[index]), device: fleet.devices[index].name) else {
                            reaches = true
                            break
                        }
                        if holds == (assignment.filterType == .include) {
                            reaches = true
                            break
                        }
                    }
                    if reaches { break }
                }
                outcomes.append((profiles, reaches))
            }
            return outcomes
        }.values
        for (position, each) in fleet.policies.enumerated() {
            policy = each
            let policy = each
            let name = "policy \(JSONWriter.quoted(policy.displayName))"
            if policy.send != .allApps, policy.exempts(scheme: "mailto") {
                let old = policy.apps.filter { app in ((sdk[IntuneBundleID.key(app)] ?? nil).map { $0 < IntuneSDKVersion.composeExemptions } ?? true) }
                    .filter { installedAnywhere.contains(IntuneBundleID.key($0)) }
                if !old.isEmpty {
                    add("IN001", at: "exemptedAppProtocols", "\(name) exempts mailto, but \(old.map(\.rawValue).joined(separator: ", ")) \(old.count == 1 ? "has" : "have") an Intune SDK older than 14.5.0 or not given in the devices file: the mail compose sheet (MFMailComposeViewController) stays blocked there",
                        fix: "update the app to Intune SDK 14.5.0 or later (and give intuneSDKVersion in the devices file), or expect mail-compose to be denied")
                }
            }
            let legacy = policy.exemptedSchemes.filter { $0 == "tel" || $0 == "telprompt" }
            if !legacy.isEmpty {
                add("IN002", at: "exemptedAppProtocols", "\(name) exempts \(legacy.joined(separator: " and ")) (the exemption list of policies made before June 15, 2020): phone numbers go to any dialer, whatever dialerRestrictionLevel (\(policy.dialer)) says",
                    fix: "remove \(legacy.joined(separator: " and ")) from exemptedAppProtocols and set Transfer telecommunication data to (dialerRestrictionLevel)")
            }
            if policy.exempts(scheme: "sms"), policy.messaging != .anyApp {
                add("IN003", at: "exemptedAppProtocols", "\(name) exempts sms while protectedMessagingRedirectAppType is \(policy.messaging): the exemption sends sms: URLs to any messaging app",
                    fix: "remove sms from exemptedAppProtocols, as Learn asks with Transfer messaging data to")
            }
            if !policy.managedBrowserRequired, policy.managedBrowser != .notConfigured || !policy.customBrowserProtocol.isEmpty {
                let named = policy.customBrowserProtocol.isEmpty ? "managedBrowser is \(policy.managedBrowser)" : "customBrowserProtocol is \(policy.customBrowserProtocol)"
                add("IN004", at: "managedBrowserToOpenLinksRequired", "\(name): \(named) but managedBrowserToOpenLinksRequired is false, a pair Microsoft documents as inconsistent (Graph, managedBrowser: \"When this property is configured, ManagedBrowserToOpenLinksRequired should be true\"); openin-check decides as Intune's switch says: managedBrowserToOpenLinksRequired is false, so web links open in any browser (rule intune.url.any-browser)",
                    fix: "set managedBrowserToOpenLinksRequired to true to send web links to the browser, or clear the browser")
            }
            // IN006: a custom protocol no device profile's app handles.
            var protocols: [(setting: String, text: String, schemes: [String], goes: String)] = []
            if policy.dialer == .customApp {
                let goes = policy.exempts(scheme: "tel")
                    ? "phone numbers (tel:) would go to no app; today tel is exempted, so they go to any dialer instead (IN002)" : "phone numbers (tel:) go to no app"
                protocols.append(("customDialerAppProtocol (Transfer telecommunication data to: A specific dialer app)", policy.customDialerAppProtocol, [policy.customDialerAppProtocol], goes))
            }
            if policy.messaging == .specificApps {
                protocols.append(("messagingRedirectAppUrlScheme (Transfer messaging data to: A specific messaging app)", policy.messagingRedirectAppUrlScheme, [policy.messagingRedirectAppUrlScheme], "messages (sms:) go to no app"))
            }
            if policy.managedBrowserRequired, !policy.customBrowserProtocol.isEmpty {
                let base = policy.customBrowserProtocol
                protocols.append(("customBrowserProtocol (Unmanaged Browser Protocol)", base, [base, base + "s"], "web links go to no browser"))
            }
            for entry in protocols {
                if isPlaceholder(entry.text) {
                    add("IN006", at: String(entry.setting.prefix { $0 != " " }), "\(name): \(entry.setting) is \(JSONWriter.quoted(entry.text)), the framework template's placeholder, not a URL scheme: imported as is, \(entry.goes)",
                        fix: "replace it with the URL scheme of the app to use, or choose another level (Any dialer app: dialerRestrictionLevel allApps)")
                    continue
                }
                var context = IntuneContext(policy: nil)
                for device in fleet.devices { for (scheme, app) in device.schemeHandlers { try? context.setHandler(app, for: scheme) } }
                guard !entry.schemes.contains(where: { IntuneURLRule.customHandler($0, context) != nil }) else { continue }
                add("IN006", at: String(entry.setting.prefix { $0 != " " }), "\(name): \(entry.setting) is \(JSONWriter.quoted(entry.text)), and no app in any device profile handles that scheme: \(entry.goes)",
                    fix: "check the scheme, or give the app that handles it in the devices file's schemeHandlers")
            }
            // IN007: Save As blocked with nowhere to save (under All apps the setting is Allow whatever it says).
            if policy.saveAsBlocked, policy.send == .managedApps, policy.allowedDataStorageLocations.isEmpty {
                add("IN007", at: "saveAsBlocked", "\(name): saveAsBlocked is true and allowedDataStorageLocations is empty: Save As is refused everywhere, OneDrive for Business and SharePoint included",
                    fix: "allow the storage services users should save to (allowedDataStorageLocations: oneDriveForBusiness, sharePoint, …), or say so to users")
            }
            // IN008: an ingestion list that does nothing.
            if !policy.allowedDataIngestionLocations.isEmpty, !policy.blockDataIngestion || policy.receive != .managedApps {
                let why = policy.blockDataIngestion ? "allowedInboundDataTransferSources is \(policy.receive), so Open data into Org documents is \(policy.receive == .none ? "Block with no service" : "Allow")"
                    : "blockDataIngestionIntoOrganizationDocuments is false, so opening from any location is allowed"
                add("IN008", at: "allowedDataIngestionLocations", "\(name): allowedDataIngestionLocations lists \(policy.allowedDataIngestionLocations.map(\.rawValue).joined(separator: ", ")), but \(why): the list does nothing",
                    fix: "set blockDataIngestionIntoOrganizationDocuments to true (with Receive data from other apps: Policy managed apps) to restrict opening to these services, or remove the list")
            }
            // IN009: Core Microsoft apps from the built-in list.
            if policy.appsFromGroup == .builtInList {
                add("IN009", at: "appGroupType", "\(name): Core Microsoft apps resolved from the built-in list of \(IntuneAppGroups.coreMicrosoftAppsDate) (\(policy.apps.count) apps, Microsoft Learn's Data protection framework page); give appGroups in the devices file to use your tenant's",
                    fix: "add \"appGroups\": {\"allCoreMicrosoftApps\": [BUNDLE_ID, ...]} to the devices file (your tenant's list: GET /beta/deviceAppManagement/iosManagedAppProtections/{id}?$expand=apps)")
            }
            if let assignments = policy.assignments {
                if assignments.isEmpty {
                    add("IN010", at: "assignments", "\(name) is assigned to no group: it protects no app\(fleet.assumeAssigned ? " (analysed as if assigned to every profile: --assume-assigned)" : "")",
                        fix: "assign it to the Entra groups of the users it is for, or remove it")
                } else if !assignments.contains(where: { $0.kind == .include }) {
                    add("IN012", at: "assignments", "\(name) only excludes groups (\(assignments.map(\.groupDescription).joined(separator: ", "))): it reaches no one",
                        fix: "include the groups of the users it is for; an excluded group only takes users out of an included one")
                }
                for assignment in assignments where !carried(assignment) {
                    let spelled = [assignment.groupName, assignment.groupID].compactMap { $0 }.first ?? ""
                    add("IN013", at: "assignments", assignment: assignment, "\(name) \(assignment.kind == .include ? "includes" : "excludes") the group \(assignment.groupDescription), which no device profile carries.\(Suggestion.phrase(for: spelled, among: carriedGroups))",
                        fix: "add the group to the groups of the profiles whose users are in it (or correct its spelling in the devices file)")
                }
                // IN016: a filter that leaves out every profile the assignment's group reaches (worked out above, in the same order).
                var outcomes = filterReach[position].makeIterator()
                for assignment in assignments where assignment.kind == .include {
                    guard let reference = assignment.filter, let filter = fleet.filters.filter(named: reference), filter.unusable == nil else { continue }
                    let (profiles, reaches) = outcomes.next()!
                    guard !reaches, !profiles.isEmpty else { continue }
                    let how = assignment.filterType == .include
                        ? "the include filter \(JSONWriter.quoted(filter.displayName)), whose rule \(JSONWriter.quoted(filter.rule)) holds on none of the profiles the group reaches"
                        : "the exclude filter \(JSONWriter.quoted(filter.displayName)), whose rule \(JSONWriter.quoted(filter.rule)) holds on every profile the group reaches"
                    add("IN016", at: "assignments", assignment: assignment, "\(name) includes the group \(assignment.groupDescription) through \(how) (\(Printable.list(profiles.map(JSONWriter.quoted)))): the assignment reaches no one",
                        fix: "check the rule against the profiles' facts in the devices file (deviceManufacturer, deviceModel, osVersion, the apps' appVersion and management type), or remove the filter from the assignment")
                }
            } else if policy.isAssigned == false {
                add("IN011", at: "isAssigned", "\(name) says isAssigned: false and its export holds no assignments: it is analysed as if it reached every profile",
                    fix: "export it with its assignments ($expand=assignments) to analyse who it reaches, or assign it before relying on it")
            }
            if policy.disableProtectionOfManagedOutboundOpenInData {
                for on in installedFor[position] where fleet.devices[on].mdmEnrolled {
                    let device = fleet.devices[on]
                    let apps = policy.apps.filter { app in IntuneBundleID.contains(device.installed, app) && !device.receivesUPN(app) }
                    guard !apps.isEmpty else { continue }
                    add("IN014", at: "disableProtectionOfManagedOutboundOpenInData", device: device.name, "\(name) sends org data with OS sharing, and on the MDM-enrolled profile \(JSONWriter.quoted(device.name)) \(apps.map(\.rawValue).joined(separator: ", ")) \(apps.count == 1 ? "does" : "do") not receive IntuneMAMUPN: Intune counts \(apps.count == 1 ? "it" : "them") as unmanaged, so OS sharing does not apply and a policy for unmanaged apps governs \(apps.count == 1 ? "it" : "them")",
                        fix: "deliver the IntuneMAMUPN app configuration to \(apps.count == 1 ? "the app" : "those apps") from the MDM (and say so in the devices file's intuneMAMUPN)")
                }
            }
            if policy.send != .allApps {
                // Native Mail is built into every iPhone and iPad: a device with a targeted app has it.
                // Once per policy, naming the profiles (once per profile, a tenant of 10,000 profiles gets as many copies).
                if !protectsFor[position].isEmpty {
                    let count = protectsFor[position].count
                    let named = protectsFor[position].prefix(5).map { JSONWriter.quoted(fleet.devices[$0].name) }
                    let profiles = count == 1 ? "the profile \(named[0])"
                        : "\(count) profiles (\(named.joined(separator: ", "))\(count > 5 ? " and \(count - 5) more" : ""))"
                    add("IN005", at: "allowedOutboundDataTransferDestinations", "\(name) sends org data to policy-managed apps only (\(policy.send)), on \(profiles) where it protects an installed app: native Mail has no Intune SDK, so sharing to Mail delivers an encrypted file or is filtered out, and mailto: needs an exemption",
                        fix: "use a managed mail app (Outlook) for org data, or exempt mailto for links")
                }
            }
        }
        for overlap in overlaps {
            policy = fleet.policies[overlap.policies[1]]
            let names = overlap.policies.map { JSONWriter.quoted(fleet.policies[$0].displayName) }
            add("IN015", at: "assignments", "\(names.joined(separator: " and ")) both reach \(overlap.app) on \(Printable.list(overlap.devices.map(JSONWriter.quoted))): each setting takes the \(fleet.conflictMode == .mostRestrictive ? "most" : "least") restrictive value of the two (Rules/intune/conflicts.md)",
                fix: "target the app from one policy per profile (exclude a group, or set targetedAppManagementLevels), or accept the combination")
        }
        return findings
    }

    /// An overlap's identity: the app (as Intune compares bundle IDs) and the policies that reach it.
    struct OverlapKey: Hashable {
        /// The app's number in the fleet's ``IntuneReachIndex``.
        let app: Int
        let policies: [Int]
    }
}
