import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The differential test's random policies written as files — a JSON policy
/// file, an `AppConnect.plist` (XML and binary) with an Info.plist — read by
/// the format readers, then decided against the reference model: the readers
/// must keep every byte the model compares (look-alike keys, entries and names included).
@Suite("Differential: policy files vs reference model")
struct PolicyFileDifferentialTests {
    static let policiesChecked = 300
    static let requestsPerPolicy = 40

    @Test("policies read from JSON policy files and AppConnect.plists decide as the model does")
    func filesAgreeWithModel() throws {
        let cases = RandomCases.shared
        var compared = 0
        var mismatches: [String] = []
        for policy in cases.validPolicies.prefix(Self.policiesChecked) {
            var rng = SplitMix64.stream(cases.settings.seed ^ 0x6669_6C65_73, item: policy.index)
            let json = try PolicyFile.read(Array(Self.jsonPolicy(policy.input).utf8), file: "random.json").policy
            let info = Self.infoPlist(policy.input, &rng)
            var readers = [("policy file", Evaluator(policy: json))]
            for binary in [false, true] {
                var inputs = try PolicyFile.read(try Self.appConnectPlist(policy.input, binary: binary, &rng), file: "AppConnect.plist")
                try Self.addFacts(policy.input, to: &inputs)
                inputs.stated.infoPlist = try InfoPlist.read(Array(info.utf8)).overrides
                readers.append((binary ? "binary AppConnect.plist" : "AppConnect.plist", Evaluator(policy: inputs.policy)))
            }
            for _ in 0..<Self.requestsPerPolicy {
                let request = cases.validRequests[rng.below(cases.validRequests.count)]
                let expected = ReferenceModel.decide(policy.setup, request.share)
                for (reader, evaluator) in readers {
                    compared += 1
                    let actual: ReferenceModel.Answer
                    do throws(InputError) {
                        actual = EngineAnswer.of(try evaluator.decideOrThrow(request.request))
                    } catch {
                        actual = EngineAnswer.of(error)
                    }
                    if actual != expected, mismatches.count < 5 {
                        mismatches.append("\(reader) of policy \(policy.index) (\(policy.input)), request \(request.input): model \(expected), engine \(actual)")
                    }
                }
            }
        }
        for mismatch in mismatches { Issue.record(Comment(rawValue: mismatch)) }
        #expect(compared == Self.policiesChecked * Self.requestsPerPolicy * 3)
    }

    @Test("a policy the model rejects cannot be read from a policy file")
    func invalidPoliciesAreRejectedByTheReader() {
        var checked = 0
        for item in RandomCases.shared.policies {
            guard case .invalid(let reasons) = item.model else { continue }
            checked += 1
            #expect(throws: FormatError.self, "\(item.input) (\(reasons)) was read") {
                try PolicyFile.read(Array(Self.jsonPolicy(item.input).utf8), file: "random.json")
            }
        }
        #expect(checked > 50)
    }

    @Test("an AppConnect.plist whose whitelist or AppConnect apps the model rejects cannot be read")
    func invalidAppConnectPlistsAreRejected() throws {
        var checked = 0
        for item in RandomCases.shared.policies {
            guard case .invalid = item.model, let setting = try? PolicySetting(parsing: item.input.policy) else { continue }
            // The plist's list is split at the byte ';' and trimmed, so "a.b;c.d" or " a.b" are fine there.
            let badList = setting != .allAppConnectApps && !item.input.whitelist.allSatisfy(Self.isPlistListEntry)
            guard badList || !item.input.appConnectApps.allSatisfy(ReferenceModel.isBundleID) else { continue }
            var rng = SplitMix64(seed: UInt64(checked))
            for binary in [false, true] {
                let bytes = try Self.appConnectPlist(item.input, binary: binary, &rng)
                #expect(throws: FormatError.self, "\(item.input) was read") { try PolicyFile.read(bytes, file: "AppConnect.plist") }
            }
            checked += 1
        }
        #expect(checked > 10)
    }

    // MARK: Writing the random inputs as files

    /// The policy as a JSON policy file; a later handler for a scheme wins, as in the model.
    static func jsonPolicy(_ input: ReferenceModel.PolicyInput) -> String {
        let isNumber = !input.policy.isEmpty && input.policy.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        var members = ["\"openInPolicy\": " + (isNumber ? input.policy : quoted(input.policy))]
        // "appconnect" takes no whitelist: it is written only when it holds a malformed entry, which must still fail.
        if ReferenceModel.lowercase(input.policy) != "appconnect" || !input.whitelist.allSatisfy(ReferenceModel.isBundleID) {
            members.append("\"openInWhitelist\": " + array(input.whitelist))
        }
        members.append("\"config\": {" + input.config.map { quoted($0.key) + ": " + quoted($0.value) }.joined(separator: ", ") + "}")
        members.append("\"infoPlist\": {\"MI_APP_CONNECT\": {\"MI_AC_DISABLE_SCHEME_BLOCKING\": \(input.plistOverride)}}")
        var handlers: [(scheme: String, app: String)] = []
        for handler in input.handlers {
            handlers.removeAll { ReferenceModel.lowercase($0.scheme) == ReferenceModel.lowercase(handler.scheme) }
            handlers.append((handler.scheme, handler.app))
        }
        func name(_ text: String) -> String {
            !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? text : quoted(text)
        }
        if let openFrom = input.openFromPolicy { members.append("\"openFromPolicy\": " + name(openFrom)) }
        if let list = input.openFromWhitelist,
           input.openFromPolicy.map({ ReferenceModel.lowercase($0) != "appconnect" }) ?? true || !list.allSatisfy(ReferenceModel.isBundleID) {
            members.append("\"openFromWhitelist\": " + array(list))
        }
        if let pasteboard = input.pasteboardPolicy { members.append("\"pasteboardPolicy\": " + name(pasteboard)) }
        if let print = input.printPolicy { members.append("\"printPolicy\": " + name(print)) }
        var device = ["\"emailPlusInstalled\": \(input.emailPlusInstalled)",
                      "\"schemeHandlers\": {" + handlers.map { quoted($0.scheme) + ": " + quoted($0.app) }.joined(separator: ", ") + "}",
                      "\"appConnectApps\": " + array(input.appConnectApps)]
        if !input.emailPlusIDs.isEmpty { device.append("\"emailPlusBundleIDs\": " + array(input.emailPlusIDs)) }
        if let available = input.secureServicesAvailable { device.append("\"secureServicesAvailable\": \(available)") }
        device.append("\"webAtWorkInstalled\": \(input.webAtWorkInstalled)")
        if !input.webAtWorkIDs.isEmpty { device.append("\"webAtWorkBundleIDs\": " + array(input.webAtWorkIDs)) }
        members.append("\"device\": {" + device.joined(separator: ", ") + "}")
        members.append("\"app\": {\"urlSchemes\": " + array(input.appSchemes) + ", \"allowsCustomKeyboards\": \(input.appAllowsCustomKeyboards)}")
        if let webDLP = input.webDLP { members.append("\"webDLP\": " + quoted(webDLP)) }
        if !input.excludedActivities.isEmpty { members.append("\"excludedAppleActivityTypes\": " + array(input.excludedActivities)) }
        if let dragAndDrop = input.dragAndDrop { members.append("\"dragAndDropPolicy\": " + quoted(dragAndDrop)) }
        members.append("\"enforcing\": \(input.enforcing)")
        return "{\n  " + members.joined(separator: ",\n  ") + "\n}\n"
    }

    /// The policy, whitelist, config and AppConnect apps as an `AppConnect.plist`.
    static func appConnectPlist(_ input: ReferenceModel.PolicyInput, binary: Bool, _ rng: inout SplitMix64) throws -> [UInt8] {
        let openIn = switch try PolicySetting(parsing: input.policy) {
        case .status(.authorized): "allow"
        case .status(.unauthorized): "disable"
        case .status(.whitelist): "whitelist"
        case .allAppConnectApps: "appconnect"
        }
        var policy: [String: Any] = ["openin": openIn]
        if openIn != "appconnect" { policy["openinwhitelist"] = input.whitelist.joined(separator: rng.pick([";", "; ", " ;"])) }
        var config: [String: Any] = [:]
        for entry in input.config { config[entry.key] = entry.value }
        let root: [String: Any] = ["policy": policy, "config": config, "appconnectapps": input.appConnectApps]
        if binary {
            return Array(try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0))
        }
        let entries = input.config.map { "<key>\(xml($0.key))</key><string>\(xml($0.value))</string>" }.joined()
        let list = (policy["openinwhitelist"] as? String).map { "<key>openinwhitelist</key><string>\(xml($0))</string>" } ?? ""
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>policy</key><dict><key>openin</key><string>\(openIn)</string>\(list)</dict>
            <key>config</key><dict>\(entries)</dict>
            <key>appconnectapps</key><array>\(input.appConnectApps.map { "<string>\(xml($0))</string>" }.joined())</array>
            </dict></plist>

            """.utf8)
    }

    /// An Info.plist with the override when the input sets it; otherwise, now and then, a look-alike key set to YES.
    static func infoPlist(_ input: ReferenceModel.PolicyInput, _ rng: inout SplitMix64) -> String {
        var key: String? = input.plistOverride ? "MI_AC_DISABLE_SCHEME_BLOCKING" : nil
        if key == nil, rng.percent(50) { key = rng.pick(RandomInputs.lookalikeConfigKeys["MI_AC_DISABLE_SCHEME_BLOCKING"]!) }
        let entry = key.map { "<key>\($0)</key><true/>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string>
            <key>MI_APP_CONNECT</key><dict>\(entry)</dict></dict></plist>

            """
    }

    /// What an AppConnect.plist does not say: Email+, Web@Work, scheme handlers, the app's schemes and keyboards, drag and drop, enforcement, Web DLP, excluded activities.
    static func addFacts(_ input: ReferenceModel.PolicyInput, to inputs: inout PolicyInputs) throws {
        let policy = try EngineInputs.policy(input)
        inputs.stated.device.emailPlusInstalled = policy.device.emailPlusInstalled
        inputs.stated.device.emailPlusBundleIDs = policy.device.emailPlusBundleIDs
        for (scheme, handler) in policy.device.schemeHandlers { try inputs.stated.device.setHandler(handler, for: scheme) }
        inputs.stated.app = policy.app
        inputs.stated.dragAndDrop = policy.dragAndDrop
        inputs.stated.enforcing = policy.enforcing
        inputs.stated.device.secureServicesAvailable = policy.device.secureServicesAvailable
        inputs.stated.openFrom = policy.openFrom
        inputs.stated.pasteboard = policy.pasteboard
        inputs.stated.print = policy.print
        inputs.stated.webDLP = policy.webDLP
        inputs.stated.excludedActivityTypes = policy.excludedActivityTypes
        inputs.stated.device.webAtWorkInstalled = policy.device.webAtWorkInstalled
        inputs.stated.device.webAtWorkBundleIDs = policy.device.webAtWorkBundleIDs
    }

    /// Whether `entry`, inside a `;`-separated plist list, reads as valid IDs: split at the byte `;`,
    /// spaces and tabs trimmed, empty pieces skipped (bytes only: U+037E is no separator).
    static func isPlistListEntry(_ entry: String) -> Bool {
        Array(entry.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).allSatisfy { piece in
            let trimmed = piece.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            return trimmed.isEmpty || ReferenceModel.isBundleID(String(decoding: Array(trimmed), as: UTF8.self))
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func array(_ texts: [String]) -> String { "[" + texts.map(quoted).joined(separator: ", ") + "]" }

    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
