import OpenInCore
import OpenInFleet
import OpenInKit

/// OI016 `open-from-whitelist-ignored`, OI017 `open-from-whitelist-empty` and
/// OI018 `secure-services-not-given`: the controls beyond Open In, half configured.
///
/// Only WHITELIST reads the Open From whitelist (`ACTypes.h`, `ACOpenFromPolicyWhitelist`:
/// "only use Open from to receive documents from applications in the whitelist");
/// "All AppConnect apps" reads the device's AppConnect apps instead. Under SECURECOPY a
/// copy depends on the device's secure services (`AppConnectInterface.h`,
/// `-appConnect:secureServicesAvailabilityChangedTo:`), which the engine never guesses.
enum DataControlChecks: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let list = document.openFromWhitelist
        switch (document.openFromSetting?.value, list) {
        case (.status(.whitelist)?, let list):
            if list?.entries.isEmpty ?? true, let setting = document.openFromSetting {
                let place = list?.location ?? setting.location
                findings.append(LintFinding(
                    .openFromWhitelistEmpty, at: place,
                    "the Open From policy is WHITELIST but \(list == nil ? "no openFromWhitelist is given" : "openFromWhitelist is empty"): no app can send documents to this app",
                    fix: "list the apps that may send documents in openFromWhitelist, or set \(setting.location.keyPath) to unauthorized if none may"))
            }
        case (let setting?, let list?) where !list.entries.isEmpty:
            let why = setting == .allAppConnectApps
                ? "the Open From policy is \"All AppConnect apps\", which lists the device's AppConnect apps instead"
                : "the Open From policy is \(setting.statusName), and only WHITELIST reads an Open From whitelist"
            findings.append(LintFinding(
                .openFromWhitelistIgnored, at: list.location, "the Open From whitelist is ignored: \(why)",
                fix: "set openFromPolicy to whitelist if the list should apply, or remove \(list.location.keyPath)"))
        case (nil, let list?) where !list.entries.isEmpty:
            findings.append(LintFinding(
                .openFromWhitelistIgnored, at: list.location,
                "the Open From whitelist is ignored: openFromPolicy is not set, so open-from requests are errors",
                fix: "add \"openFromPolicy\": \"whitelist\" if the list should apply, or remove \(list.location.keyPath)"))
        default:
            break
        }
        if let pasteboard = document.pasteboard, pasteboard.value == .secureCopy, !document.givesSecureServices {
            findings.append(LintFinding(
                .secureServicesNotGiven, at: pasteboard.location,
                "the pasteboard policy is SECURECOPY but device.secureServicesAvailable is not given: whether a copy succeeds depends on it, so copy requests are errors",
                fix: "add \"device\": {\"secureServicesAvailable\": true} (or false, to see copies fail while secure services are unavailable)"))
        }
        return findings
    }
}

private extension OpenFromPolicy.Setting {
    /// `UNAUTHORIZED`, `AUTHORIZED`, `WHITELIST` or "All AppConnect apps".
    var statusName: String {
        switch self {
        case .status(let status): status.description
        case .allAppConnectApps: "\"All AppConnect apps\""
        }
    }
}
