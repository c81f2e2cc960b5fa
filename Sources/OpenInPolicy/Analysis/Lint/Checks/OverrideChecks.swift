/// OI006 `override-value-ignored`, OI007 `override-key-misspelled` and
/// OI008 `enforcement-disabled`: the keys that override the Open In policy.
///
/// What each key accepts (anything else is read as off, failing closed):
///
/// | key | where | read as on when the value is |
/// |---|---|---|
/// | `MI_AC_DISABLE_SCHEME_BLOCKING` | server config | exactly the string `true` (the seed's value) |
/// | `MI_AC_DISABLE_OPEN_IN_ENFORCEMENT` | server config | the string `yes` or `true`, in any letter case |
/// | `MI_APP_CONNECT` → `MI_AC_DISABLE_SCHEME_BLOCKING` | Info.plist | the boolean YES (`<true/>`) |
///
/// A value that is read as off but does not say off (`True`, `YES`, `1`,
/// `" true"`, a boolean where a string is expected) is OI006. A value that
/// says off (`false`, `no`, `0`, `off`, empty) is what it says, and not a
/// finding. Keys are matched exactly: a key spelled differently in letter
/// case, spaces or separators is OI007. The enforcement key read as on is
/// OI008, the most serious finding: Open In is then not protected at all.
enum OverrideChecks: DocumentCheck {
    static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let configKeys = [AppConfig.disableSchemeBlockingKey, AppConfig.disableOpenInEnforcementKey]
        for entry in document.config {
            if let known = configKeys.first(where: { KeySpelling.isMisspelling(entry.key.value, of: $0) }) {
                findings.append(misspelled(entry.key, known))
            } else if entry.key.value == AppConfig.disableSchemeBlockingKey, !OverrideValues.configDisablesSchemeBlocking(entry.value.value),
                      !OverrideValues.saysOff(entry.value.value) {
                findings.append(LintFinding(
                    .overrideValueIgnored, at: entry.value.location,
                    "\(entry.key.value) is \(shown(entry.value.value)), which is read as off: the key takes exactly the string \"true\"",
                    fix: "write \"true\" to let openURL: with mailto: open native Mail, or remove the key"))
            } else if entry.key.value == AppConfig.disableOpenInEnforcementKey {
                if OverrideValues.configDisablesEnforcement(entry.value.value) {
                    findings.append(LintFinding(
                        .enforcementDisabled, at: entry.value.location,
                        "\(entry.key.value) is \(shown(entry.value.value)): the library stops enforcing the Open In policy, so documents can be shared with every app whatever the policy and whitelist say",
                        fix: "remove the key unless Open In is meant to be unprotected for this app"))
                } else if !OverrideValues.saysOff(entry.value.value) {
                    findings.append(LintFinding(
                        .overrideValueIgnored, at: entry.value.location,
                        "\(entry.key.value) is \(shown(entry.value.value)), which is read as off: the key takes the string \"yes\" or \"true\", in any letter case",
                        fix: "remove the key to keep Open In enforced (write \"yes\" only if Open In is meant to be unprotected)"))
                }
            }
        }
        for section in document.appConnectSections {
            if section.key.value != InfoPlistKeys.section {
                findings.append(misspelled(section.key, InfoPlistKeys.section))
                continue
            }
            for entry in section.entries {
                if KeySpelling.isMisspelling(entry.key.value, of: InfoPlistKeys.disableSchemeBlocking) {
                    findings.append(misspelled(entry.key, InfoPlistKeys.disableSchemeBlocking))
                } else if entry.key.value == InfoPlistKeys.disableSchemeBlocking, !OverrideValues.plistDisablesSchemeBlocking(entry.value.value),
                          !OverrideValues.saysOff(entry.value.value) {
                    findings.append(LintFinding(
                        .overrideValueIgnored, at: entry.value.location,
                        "\(entry.key.value) is \(shown(entry.value.value)), which is read as off: the Info.plist key takes the boolean YES",
                        fix: "make it the boolean YES (<true/> in XML; true, unquoted, in a policy file's infoPlist), or remove the key"))
                }
            }
        }
        return findings
    }

    private static func misspelled(_ key: Written<String>, _ known: String) -> LintFinding {
        LintFinding(.overrideKeyMisspelled, at: key.location,
                    "the key \(JSONWriter.quoted(key.value)) is not \(known): keys are matched exactly, so the library never reads it",
                    fix: "rename the key to \(known)")
    }

    /// A value as a message names it: `"True"`, or `true (a boolean, not a string)`.
    private static func shown(_ value: WrittenValue) -> String {
        switch value {
        case .string: value.description
        case .bool: "\(value) (a boolean)"
        case .number: "\(value) (a number)"
        case .other: value.description
        }
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
