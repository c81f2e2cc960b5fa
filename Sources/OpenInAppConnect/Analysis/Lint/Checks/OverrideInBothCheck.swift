import OpenInCore
import OpenInFleet
import OpenInKit

/// OI009 `override-in-both`: the scheme-blocking override on in both places.
///
/// The app's Info.plist and the server's app-specific config can each
/// disable scheme blocking (SDK guide, Open In policy API details); either one is enough. Set in
/// both, an administrator who removes the config key to restore blocking
/// changes nothing. Files linted together describe one app: an Info.plist
/// applies to every policy file and `AppConnect.plist` beside it, and a
/// policy file's own `infoPlist` applies to itself.
enum OverrideInBothCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard document.kind != .infoPlist,
              let config = document.config.first(where: {
                  ExactText.same($0.key.value, AppConfig.disableSchemeBlockingKey) && OverrideValues.configDisablesSchemeBlocking($0.value.value)
              })
        else { return [] }
        let plists = [document] + documents.filter { $0.kind == .infoPlist }
        guard let plist = plists.lazy.flatMap(\.appConnectSections).filter({ ExactText.same($0.key.value, InfoPlistKeys.section) }).flatMap(\.entries)
            .first(where: { ExactText.same($0.key.value, InfoPlistKeys.disableSchemeBlocking) && OverrideValues.plistDisablesSchemeBlocking($0.value.value) })
        else { return [] }
        let place = plist.value.location.file == document.file
            ? plist.value.location.keyPath
            : "\(plist.value.location) \(plist.value.location.keyPath)"
        return [LintFinding(
            .overrideInBoth, at: config.key.location,
            "\(AppConfig.disableSchemeBlockingKey) is on both here and in the Info.plist (\(place)): removing either one alone leaves scheme blocking disabled",
            fix: "keep the override in one place: the server config if administrators should control it, the Info.plist if the app always needs it")]
    }
}
