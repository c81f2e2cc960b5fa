import OpenInCore
import OpenInFleet
import OpenInKit

/// OI001 `mail-pair-half` and OI010 `email-plus-without-mail`: the native Mail pair.
///
/// "To put the iOS native email app in the whitelist, the whitelist must
/// contain both of these bundle IDs: com.apple.UIKit.activity.Mail and
/// com.apple.mobilemail" (SDK guide, Open In policy API details). Half the pair allows neither;
/// Email+ listed without the pair leaves mail links and the compose sheet blocked.
enum MailPairCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let whitelist = document.whitelist else { return [] }
        let first = { (id: BundleID) in whitelist.entries.first { $0.value == id.rawValue } }
        let activity = first(.mailActivity), mobileMail = first(.mobileMail)
        var findings: [LintFinding] = []
        let key = whitelist.location.keyPath
        switch (activity, mobileMail) {
        case (let present?, nil), (nil, let present?):
            let (has, lacks) = activity == nil ? (BundleID.mobileMail, BundleID.mailActivity) : (.mailActivity, .mobileMail)
            findings.append(LintFinding(
                .mailPairHalf, at: present.location,
                "the whitelist lists \(has) but not \(lacks): native Mail counts as listed only when both are, so it stays blocked",
                fix: "add \(lacks) to \(key), or remove \(has)"))
        default:
            break
        }
        if activity == nil || mobileMail == nil {
            let emailPlusIDs = Set(document.emailPlusBundleIDs + [BundleID.emailPlus.rawValue])
            if let emailPlus = whitelist.entries.first(where: { emailPlusIDs.contains($0.value) }) {
                findings.append(LintFinding(
                    .emailPlusWithoutMail, at: emailPlus.location,
                    "Email+ (\(emailPlus.value)) is listed but native Mail is not: documents can go to Email+, but mailto: links in web views and the mail compose sheet stay blocked, and openURL: with mailto: opens Email+ only when it is installed",
                    fix: "nothing to do if Email+ is meant to be the only mail app; to allow native Mail as well, list both \(BundleID.mailActivity) and \(BundleID.mobileMail)"))
            }
        }
        return findings
    }
}
