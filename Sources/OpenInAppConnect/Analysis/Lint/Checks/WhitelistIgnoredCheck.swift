import OpenInCore
import OpenInFleet
import OpenInKit

/// OI004 `whitelist-ignored`: a whitelist the policy never reads.
///
/// Only WHITELIST reads the whitelist; "All AppConnect apps" arrives as
/// WHITELIST of the device's AppConnect apps (SDK guide, Open In policy API details), not of
/// the list written here.
enum WhitelistIgnoredCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let whitelist = document.whitelist, !whitelist.entries.isEmpty, let setting = document.setting else { return [] }
        let why: String
        switch setting.value {
        case .status(.whitelist): return []
        case .status(let status): why = "the Open In policy is \(status), and only WHITELIST reads a whitelist"
        case .allAppConnectApps: why = "the Open In policy is \"All AppConnect apps\", which lists the device's AppConnect apps instead"
        }
        return [LintFinding(
            .whitelistIgnored, at: whitelist.location, "the whitelist is ignored: \(why)",
            fix: "set \(setting.location.keyPath) to whitelist if the list should apply, or remove \(whitelist.location.keyPath)")]
    }
}
