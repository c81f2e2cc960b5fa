import OpenInCore
import OpenInFleet
import OpenInKit

/// OI021 `excluded-activity-case` and OI022 `web-links-blocked`.
///
/// `excludedAppleActivityTypes` holds "the string constants used by Apple"
/// (`AppConnectInterface.h`, `excludedAppleActivityTypes`), compared byte for
/// byte with the activity the user picks: an entry that differs from one of
/// Apple's only in letter case excludes nothing. The Web DLP setting 'not
/// allowed' without Web@Work denies every web link (Rules/web-links.md), which
/// is worth knowing before the policy ships.
enum WebAndActivityChecks: DocumentCheck {
    /// Apple's activity types (`UIActivityType` raw values) an administrator is likely to exclude.
    static let appleActivityTypes = [
        "PostToFacebook", "PostToTwitter", "PostToWeibo", "Message", "Mail", "Print", "CopyToPasteboard",
        "AssignToContact", "SaveToCameraRoll", "AddToReadingList", "PostToFlickr", "PostToVimeo", "TencentWeibo",
        "AirDrop", "OpenInIBooks", "MarkupAsPDF",
    ].map { "com.apple.UIKit.activity." + $0 }

    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        for entry in document.excludedActivityTypes?.entries ?? [] {
            let text = entry.value
            if appleActivityTypes.contains(where: { ExactText.same($0, text) }) { continue }
            let folded = ExactText.asciiLowercased(text)
            if let apple = appleActivityTypes.first(where: { ExactText.same(ExactText.asciiLowercased($0), folded) }) {
                findings.append(LintFinding(
                    .excludedActivityCase, at: entry.location,
                    "\(JSONWriter.quoted(text)) differs only in letter case from Apple's \(apple): activity types are compared byte for byte, so this entry excludes nothing",
                    fix: "write \(apple)"))
            }
        }
        if let webDLP = document.webDLP, webDLP.value == .notAllowed, !document.webAtWorkInstalled {
            findings.append(LintFinding(
                .webLinksBlocked, at: webDLP.location,
                "the Web DLP setting is 'not allowed' and device.webAtWorkInstalled is not true: every http or https link the app opens is denied (the page does not display)",
                fix: "add \"device\": {\"webAtWorkInstalled\": true} if Web@Work is on the device, or set webDLP to \"allowed\" to let unsecured browsers open links"))
        }
        return findings
    }
}
