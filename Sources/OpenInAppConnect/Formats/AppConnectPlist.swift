import OpenInCore
import OpenInFleet
import OpenInKit

/// The AppConnect SDK's local test file, `AppConnect.plist` (XML or binary).
///
/// ```xml
/// <dict>
///   <key>policy</key>
///   <dict>
///     <key>openin</key>          <string>whitelist</string>
///     <key>openinwhitelist</key> <string>com.apple.UIKit.activity.Mail;com.apple.mobilemail</string>
///   </dict>
///   <key>config</key>
///   <dict><key>MI_AC_DISABLE_SCHEME_BLOCKING</key><string>true</string></dict>
///   <key>appconnectapps</key>
///   <array><string>com.example.docs</string></array>
/// </dict>
/// ```
///
/// - `policy` → `openin` (required): `allow` (AUTHORIZED), `disable`
///   (UNAUTHORIZED), `whitelist`, or `appconnect` ("All AppConnect apps"); case-insensitive.
/// - `policy` → `openinwhitelist`: bundle IDs separated by `;` (spaces around
///   them and empty entries are ignored). Not allowed with `appconnect`. The
///   list is split at the byte `;` only: a look-alike such as U+037E GREEK
///   QUESTION MARK stays inside its entry, which is then not a valid ID.
/// - `config`: the app-specific configuration, `<string>` values only.
/// - `appconnectapps` (our key; the SDK's file does not describe the device):
///   the device's AppConnect apps, an `<array>` of `<string>`s or one
///   `;`-separated `<string>`. They make up the whitelist under `appconnect`.
///
/// Keys are matched byte for byte, as the SDK's `NSDictionary` does.
/// The SDK's file may carry other policies, so other keys are ignored — except
/// a key within two edits of a known one, which is taken for a typo and is an
/// error ("Did you mean …?"): a misspelt `openinwhitelist` must not silently
/// vanish.
public enum AppConnectPlist {
    package static let topLevelKeys = ["policy", "config", "appconnectapps"]
    static let policyKeys = ["openin", "openinwhitelist"]

    /// Reads an `AppConnect.plist` file's bytes.
    /// - Throws: `FormatError` naming the key path of the first problem.
    public static func read<Bytes: Collection>(_ bytes: Bytes) throws(FormatError) -> PolicyInputs where Bytes.Element == UInt8 {
        guard case .dictionary(let root) = try PropertyList.read(bytes) else {
            throw FormatError("an AppConnect.plist must hold a <dict> at the top level")
        }
        try rejectTypos(in: root, known: topLevelKeys, path: "")
        guard let policyValue = root["policy"] else {
            throw FormatError("policy: missing: add a <dict> under the key policy with openin = allow, disable, whitelist or appconnect")
        }
        guard case .dictionary(let policy) = policyValue else {
            throw FormatError("policy: must be a <dict>, not \(policyValue.found)")
        }
        try rejectTypos(in: policy, known: policyKeys, path: "policy.")
        guard let openInValue = policy["openin"] else {
            throw FormatError("policy.openin: missing: add openin = allow, disable, whitelist or appconnect")
        }
        guard case .string(let openIn) = openInValue else {
            throw FormatError("policy.openin: must be a <string>, not \(openInValue.found)")
        }
        if let problem = ExactText.asciiProblem(in: openIn) {
            throw FormatError("policy.openin: \(Printable.quoted(openIn)): \(problem). Use allow, disable, whitelist or appconnect")
        }
        let setting: PolicySetting
        switch ExactText.asciiLowercased(openIn) {
        case "allow": setting = .status(.authorized)
        case "disable": setting = .status(.unauthorized)
        case "whitelist": setting = .status(.whitelist)
        case "appconnect": setting = .allAppConnectApps
        default:
            if !openIn.isEmpty, openIn.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                // The SDK's file names the policy; a number (the server's or a JSON policy file's spelling) is not one of its values.
                throw FormatError("policy.openin: \(Printable.quoted(openIn)) is a number, and AppConnect.plist names the policy: use allow, disable, whitelist or appconnect")
            }
            let suggestion = Suggestion.phrase(for: openIn, among: ["allow", "disable", "whitelist", "appconnect"])
            throw FormatError("policy.openin: unknown value \(Printable.quoted(openIn)).\(suggestion) Use allow, disable, whitelist or appconnect")
        }
        var inputs = PolicyInputs(setting: setting)
        if let list = policy["openinwhitelist"] {
            if setting == .allAppConnectApps {
                throw FormatError("policy.openinwhitelist: cannot be combined with openin = appconnect (\"All AppConnect apps\" lists the device's AppConnect apps): list them under appconnectapps")
            }
            guard case .string(let text) = list else {
                throw FormatError("policy.openinwhitelist: must be a <string> of bundle IDs separated by ';', not \(list.found)")
            }
            inputs.stated.whitelist = Whitelist(try bundleIDs(separated: text, path: "policy.openinwhitelist"))
        }
        if let configValue = root["config"] {
            guard case .dictionary(let config) = configValue else {
                throw FormatError("config: must be a <dict> of <string> values, not \(configValue.found)")
            }
            var values: [String: String] = [:]
            for key in config.keys.sorted() {
                guard case .string(let value) = config[key]! else {
                    throw FormatError("config.\(key): must be a <string> (the server sends app-specific configuration as strings), not \(config[key]!.found)")
                }
                values[key] = value
            }
            inputs.stated.config = AppConfig(values)
        }
        if let apps = root["appconnectapps"] {
            switch apps {
            case .string(let text):
                inputs.stated.device.appConnectApps = Set(try bundleIDs(separated: text, path: "appconnectapps"))
            case .array(let elements):
                var ids: [BundleID] = []
                for (index, element) in elements.enumerated() {
                    guard case .string(let text) = element else {
                        throw FormatError("appconnectapps[\(index)]: must be a <string> bundle ID, not \(element.found)")
                    }
                    ids.append(try bundleID(text, path: "appconnectapps[\(index)]"))
                }
                inputs.stated.device.appConnectApps = Set(ids)
            default:
                throw FormatError("appconnectapps: must be an <array> of <string>s or a <string> of bundle IDs separated by ';', not \(apps.found)")
            }
        }
        return inputs
    }

    private static func rejectTypos(in dictionary: PropertyListDictionary, known: [String], path: String) throws(FormatError) {
        for key in dictionary.keys where !ExactText.isOne(key, of: known) {
            if let suggestion = Suggestion.closest(to: key, among: known),
               Suggestion.editDistance(Array(key.lowercased()), Array(suggestion)) <= 2 {
                throw FormatError("\(path)\(key): unknown key. Did you mean '\(suggestion)'?")
            }
        }
    }

    private static func bundleIDs(separated text: String, path: String) throws(FormatError) -> [BundleID] {
        var ids: [BundleID] = []
        for (index, entry) in ExactText.split(text, at: ";").enumerated() {
            let trimmed = String(entry.trimmingSpaces)
            if trimmed.isEmpty { continue }
            ids.append(try bundleID(trimmed, path: "\(path) (entry \(index + 1))"))
        }
        return ids
    }

    private static func bundleID(_ text: String, path: String) throws(FormatError) -> BundleID {
        do throws(InputError) {
            return try BundleID(text)
        } catch {
            throw FormatError("\(path): \(error.description)")
        }
    }
}
