import OpenInCore
import OpenInFleet
import OpenInKit

/// OI015 `mail-app-unlisted`: the device's mail app is not in the whitelist.
///
/// `mailto:` goes to the device's mail app, its `mailto` handler (see
/// `Rules/mailto-open-url.md`). When that is an app other than native Mail and
/// the WHITELIST does not list it, `openURL:` with `mailto:` and tapped
/// `mailto:` links are blocked, however the Mail pair is set.
enum MailAppCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let handler = document.mailHandler, let setting = document.setting, setting.value == .status(.whitelist),
              let id = try? BundleID(handler.value), !id.isNativeMail else { return [] }
        let entries = document.whitelist?.entries ?? []
        // Bundle IDs compare as bytes.
        if entries.contains(where: { $0.value.utf8.elementsEqual(handler.value.utf8) }) { return [] }
        return [LintFinding(
            .mailAppUnlisted, at: handler.location,
            "the device's mail app \(handler.value) is not in the whitelist: openURL: with mailto: is denied (or redirected to Email+, or allowed by MI_AC_DISABLE_SCHEME_BLOCKING), and tapped mailto: links are denied; the Mail pair does not help, since mailto: does not go to native Mail",
            fix: "add \(handler.value) to \(document.whitelist?.location.keyPath ?? "openInWhitelist") if it should receive mail, or remove \(handler.location.keyPath) if native Mail is the mail app")]
    }
}
