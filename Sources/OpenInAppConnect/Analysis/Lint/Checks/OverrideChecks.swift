import OpenInCore
import OpenInFleet
import OpenInKit

/// OI006 `override-value-ignored`, OI007 `override-key-misspelled` and
/// OI008 `enforcement-disabled`: the keys that override the Open In policy.
///
/// What each key accepts (another string is read as off, failing closed;
/// another type is rejected by the file's reader):
///
/// | key | where | read as on when the value is |
/// |---|---|---|
/// | `MI_AC_DISABLE_SCHEME_BLOCKING` | server config | exactly the string `true` (the guide's value) |
/// | `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT` | server config | the string `yes` or `true`, in any letter case |
/// | `MI_APP_CONNECT` → `MI_AC_DISABLE_SCHEME_BLOCKING` | Info.plist | the boolean YES (`<true/>`) |
///
/// A value that is not on but does not say off (`True`, `YES`, `1`,
/// `" true"`, a boolean where a string is expected, a string where a boolean
/// is) is OI006. A value that says off (`false`, `no`, `0`, `off`, empty) is
/// what it says, and not a finding — except for the Info.plist key, where any
/// value that is not a Boolean (`"NO"` and `0` included) is OI006, because
/// `eval` rejects the file for it. Keys are matched byte for byte: a key spelled
/// or looking like one of these but not its bytes (see `KeySpelling`) is OI007. The enforcement key read as on is
/// OI008, the most serious finding: Open In is then not protected at all.
enum OverrideChecks: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let configKeys = [AppConfig.disableSchemeBlockingKey, AppConfig.disableOpenInEnforcementKey]
        for entry in document.config {
            let key = entry.key.value, value = entry.value.value
            if let known = configKeys.first(where: { KeySpelling.isMisspelling(key, of: $0) }) {
                findings.append(misspelled(entry.key, known))
            } else if ExactText.same(key, AppConfig.disableOpenInEnforcementKey), OverrideValues.configDisablesEnforcement(value) {
                findings.append(LintFinding(
                    .enforcementDisabled, at: entry.value.location,
                    "\(key) is \(value): the library stops enforcing the Open In policy, so documents can be shared with every app whatever the policy and whitelist say",
                    fix: "remove the key unless Open In is meant to be unprotected for this app"))
            } else if ExactText.same(key, AppConfig.disableSchemeBlockingKey), !OverrideValues.configDisablesSchemeBlocking(value),
                      !OverrideValues.saysOff(value) {
                findings.append(ignoredConfigValue(key, entry.value))
            } else if ExactText.same(key, AppConfig.disableOpenInEnforcementKey), !OverrideValues.saysOff(value) {
                findings.append(ignoredConfigValue(key, entry.value))
            }
        }
        for section in document.appConnectSections {
            if !ExactText.same(section.key.value, InfoPlistKeys.section) {
                findings.append(misspelled(section.key, InfoPlistKeys.section))
                continue
            }
            for entry in section.entries {
                let key = entry.key.value, value = entry.value.value
                if KeySpelling.isMisspelling(key, of: InfoPlistKeys.disableSchemeBlocking) {
                    findings.append(misspelled(entry.key, InfoPlistKeys.disableSchemeBlocking))
                } else if ExactText.same(key, InfoPlistKeys.disableSchemeBlocking), !OverrideValues.isBoolean(value) {
                    // Any other type, even one that says off ("NO", 0), is rejected by eval: lint says so too.
                    findings.append(LintFinding(
                        .overrideValueIgnored, at: entry.value.location,
                        "\(key) is \(value), not a Boolean: the Info.plist key takes the boolean YES, and openin-check rejects the file until it is one",
                        fix: "make it the boolean YES (<true/> in XML; true, unquoted, in a policy file's infoPlist), or remove the key"))
                }
            }
        }
        return findings
    }

    /// OI006 for a config value that is not on although it does not say off.
    private static func ignoredConfigValue(_ key: String, _ value: Written<WrittenValue>) -> LintFinding {
        let isString = if case .string = value.value { true } else { false }
        let schemeKey = ExactText.same(key, AppConfig.disableSchemeBlockingKey)
        let takes = schemeKey ? "exactly the string \"true\"" : "the string \"yes\" or \"true\", in any letter case"
        let message = isString
            ? "\(key) is \(value.value), which is read as off: the key takes \(takes)"
            : "\(key) is \(value.value), not a string: app-specific configuration values are strings, and openin-check rejects the file until it is one"
        let fix = schemeKey
            ? "write \"true\" (in quotes) to let openURL: with mailto: open native Mail, or remove the key"
            : "remove the key to keep Open In enforced (write \"yes\", in quotes, only if Open In is meant to be unprotected)"
        return LintFinding(.overrideValueIgnored, at: value.location, message, fix: fix)
    }

    private static func misspelled(_ key: Written<String>, _ known: String) -> LintFinding {
        LintFinding(.overrideKeyMisspelled, at: key.location,
                    "the key \(JSONWriter.quoted(key.value)) is not \(known)\(KeySpelling.difference(key.value)): keys are matched byte for byte, so the library never reads it",
                    fix: "rename the key to \(known)")
    }
}

/// How the library reads the override keys' values (see ``OverrideChecks``).
enum OverrideValues {
    /// Whether the server config's `MI_AC_DISABLE_SCHEME_BLOCKING` value turns blocking off: exactly `"true"`.
    static func configDisablesSchemeBlocking(_ value: WrittenValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return AppConfig([AppConfig.disableSchemeBlockingKey: text]).disablesSchemeBlocking
    }

    /// Whether the server config's `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT` value turns enforcement off: `yes` or `true`, any case.
    static func configDisablesEnforcement(_ value: WrittenValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return AppConfig([AppConfig.disableOpenInEnforcementKey: text]).disablesOpenInEnforcement
    }

    /// Whether the Info.plist's `MI_AC_DISABLE_SCHEME_BLOCKING` value turns blocking off: the boolean YES.
    static func plistDisablesSchemeBlocking(_ value: WrittenValue) -> Bool {
        value == .bool(true)
    }

    /// Whether a value is a Boolean, the only type the Info.plist key takes.
    static func isBoolean(_ value: WrittenValue) -> Bool {
        if case .bool = value { return true }
        return false
    }

    /// Whether a value plainly says off, so reading it as off is what its author meant.
    static func saysOff(_ value: WrittenValue) -> Bool {
        switch value {
        case .bool(let flag): !flag
        case .number(let literal): Double(literal) == 0
        case .string(let text): ["", "false", "no", "0", "off"].contains(text.lowercased().filter { !$0.isWhitespace })
        case .other: false
        }
    }
}
