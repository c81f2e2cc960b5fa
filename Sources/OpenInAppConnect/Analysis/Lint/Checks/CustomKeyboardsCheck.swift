import OpenInCore
import OpenInFleet
import OpenInKit

/// OI019 `custom-keyboards-value` and OI020 `custom-keyboards-key-misspelled`: the
/// app-specific configuration key that lets custom keyboards in.
///
/// The key is matched byte for byte, and only the string `true` allows custom
/// keyboards; any other string refuses them (fail closed), and a value that is
/// not a string is rejected by the policy file's reader. Ivanti's MobileIron
/// Core AppConnect Guide ("Custom keyboard control") gives the values `true` and
/// `false` only; Rules/keyboards-and-paste.md states how the engine reads the rest.
enum CustomKeyboardsCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let key = AppConfig.allowCustomKeyboardsKey
        for entry in document.config {
            if KeySpelling.isMisspelling(entry.key.value, of: key) {
                findings.append(LintFinding(
                    .customKeyboardsKeyMisspelled, at: entry.key.location,
                    "the key \(JSONWriter.quoted(entry.key.value)) is not \(key)\(KeySpelling.difference(entry.key.value)): keys are matched byte for byte, so the library never reads it and the app decides about custom keyboards",
                    fix: "rename the key to \(key)"))
                continue
            }
            guard ExactText.same(entry.key.value, key) else { continue }
            switch entry.value.value {
            case .string(let text) where ExactText.same(text, "true") || ExactText.same(text, "false"):
                break
            case .string:
                findings.append(LintFinding(
                    .customKeyboardsValue, at: entry.value.location,
                    "\(key) is \(entry.value.value), which is neither \"true\" nor \"false\": values are compared byte for byte, so custom keyboards are refused",
                    fix: "write \"true\" to allow custom keyboards or \"false\" to refuse them (lowercase, in quotes)"))
            default:
                findings.append(LintFinding(
                    .customKeyboardsValue, at: entry.value.location,
                    "\(key) is \(entry.value.value), not a string: app-specific configuration values are strings, and openin-check rejects the file until it is one",
                    fix: "write \"true\" or \"false\" in quotes"))
            }
        }
        return findings
    }
}
