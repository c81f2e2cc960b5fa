import OpenInCore
import OpenInFleet
import OpenInKit

/// OI023 `whitelist-empty`: WHITELIST with nothing listed.
///
/// Under WHITELIST only listed apps receive documents, and native Mail only when
/// both of its IDs are listed (SDK guide, Open In policy API details): with no
/// whitelist, or an empty one, every Open In channel is blocked, mail included.
/// That is UNAUTHORIZED in effect, except that the Open In UI stays enabled.
enum WhitelistEmptyCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let setting = document.setting, setting.value == .status(.whitelist) else { return [] }
        let list = document.whitelist
        guard list?.entries.isEmpty ?? true else { return [] }
        let key = document.kind == .appConnectPlist ? "openinwhitelist" : "openInWhitelist"
        return [LintFinding(
            .whitelistEmpty, at: list?.location ?? setting.location,
            "the Open In policy is WHITELIST but \(list == nil ? "no \(key) is given" : "\(key) is empty"): every app is blocked, native Mail included",
            fix: "list the apps that may receive documents in \(key) (both com.apple.UIKit.activity.Mail and com.apple.mobilemail for native Mail), or set \(setting.location.keyPath) to unauthorized if none may")]
    }
}
