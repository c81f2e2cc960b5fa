/// Mistakes in Intune app protection policies that Microsoft Learn warns about, found with the devices'
/// facts: the checks of `openin-check fleet lint` on Intune policies.
public enum IntuneLint {
    /// Every check: code, name, one line, and the severity of its findings.
    public static let checks: [(code: String, name: String, summary: String, severity: FleetFinding.Severity)] = [
        ("IN001", "compose-needs-sdk", "mailto is exempted, but a targeted app's Intune SDK is older than 14.5.0 or unknown: the mail compose sheet stays blocked in it.", .warning),
        ("IN002", "legacy-tel-exemption", "tel or telprompt is exempted: phone numbers go to any dialer whatever Transfer telecommunication data to says.", .warning),
        ("IN003", "sms-exemption-overrides-messaging", "sms is exempted while Transfer messaging data to restricts messaging: the exemption wins.", .warning),
        ("IN004", "browser-setting-ignored", "A managed or custom browser is named but managedBrowserToOpenLinksRequired is false: web links open in any browser.", .warning),
        ("IN005", "mail-never-managed", "Send org data is not All apps: native Mail, built into iOS, has no Intune SDK, so it never receives readable org data by Open-In or share.", .info),
    ]

    /// The findings, policy by policy, in check order.
    public static func findings(_ fleet: IntuneFleet) -> [FleetFinding] {
        var findings: [FleetFinding] = []
        func add(_ code: String, device: String? = nil, _ message: String, fix: String) {
            let check = checks.first { $0.code == code }!
            findings.append(FleetFinding(code: code, name: check.name, severity: check.severity, line: nil, device: device, message: message, fix: fix))
        }
        // Looked up per targeted app: made once (a scan of the apps and of each device per app is quadratic).
        var sdk: [ExactKey: IntuneSDKVersion?] = [:]
        for app in fleet.apps where sdk[IntuneBundleID.key(app.bundleID)] == nil { sdk[IntuneBundleID.key(app.bundleID)] = app.intuneSDKVersion }
        let installedOn = fleet.devices.map { Set($0.installed.map(IntuneBundleID.key)) }
        let installedAnywhere = installedOn.reduce(into: Set<ExactKey>()) { $0.formUnion($1) }
        for policy in fleet.policies {
            let name = "policy \(JSONWriter.quoted(policy.displayName))"
            if policy.send != .allApps, policy.exempts(scheme: "mailto") {
                let old = policy.apps.filter { app in ((sdk[IntuneBundleID.key(app)] ?? nil).map { $0 < IntuneSDKVersion.composeExemptions } ?? true) }
                    .filter { installedAnywhere.contains(IntuneBundleID.key($0)) }
                if !old.isEmpty {
                    add("IN001", "\(name) exempts mailto, but \(old.map(\.rawValue).joined(separator: ", ")) \(old.count == 1 ? "has" : "have") an Intune SDK older than 14.5.0 or not given in the devices file: the mail compose sheet (MFMailComposeViewController) stays blocked there",
                        fix: "update the app to Intune SDK 14.5.0 or later (and give intuneSDKVersion in the devices file), or expect mail-compose to be denied")
                }
            }
            let legacy = policy.exemptedSchemes.filter { $0 == "tel" || $0 == "telprompt" }
            if !legacy.isEmpty {
                add("IN002", "\(name) exempts \(legacy.joined(separator: " and ")) (the exemption list of policies made before June 15, 2020): phone numbers go to any dialer, whatever dialerRestrictionLevel (\(policy.dialer)) says",
                    fix: "remove \(legacy.joined(separator: " and ")) from exemptedAppProtocols and set Transfer telecommunication data to (dialerRestrictionLevel)")
            }
            if policy.exempts(scheme: "sms"), policy.messaging != .anyApp {
                add("IN003", "\(name) exempts sms while protectedMessagingRedirectAppType is \(policy.messaging): the exemption sends sms: URLs to any messaging app",
                    fix: "remove sms from exemptedAppProtocols, as Learn asks with Transfer messaging data to")
            }
            if !policy.managedBrowserRequired, policy.managedBrowser != .notConfigured || !policy.customBrowserProtocol.isEmpty {
                let named = policy.customBrowserProtocol.isEmpty ? "managedBrowser is \(policy.managedBrowser)" : "customBrowserProtocol is \(policy.customBrowserProtocol)"
                add("IN004", "\(name): \(named) but managedBrowserToOpenLinksRequired is false, so web links open in any browser",
                    fix: "set managedBrowserToOpenLinksRequired to true (Graph: when this property is configured, ManagedBrowserToOpenLinksRequired should be true), or clear the browser")
            }
            if policy.send != .allApps {
                // Native Mail is built into every iPhone and iPad: a device with a targeted app has it.
                for (device, installed) in zip(fleet.devices, installedOn) {
                    guard policy.apps.contains(where: { installed.contains(IntuneBundleID.key($0)) }) else { continue }
                    add("IN005", device: device.name, "\(name) sends org data to policy-managed apps only (\(policy.send)): native Mail has no Intune SDK, so sharing to Mail delivers an encrypted file or is filtered out, and mailto: needs an exemption",
                        fix: "use a managed mail app (Outlook) for org data, or exempt mailto for links")
                }
            }
        }
        return findings
    }
}
