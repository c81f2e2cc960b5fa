import Foundation
import OpenInPolicy
import Testing

@Suite struct PolicyJSONTests {
    @Test func readsEveryKey() throws {
        let inputs = try PolicyJSON.read(Array("""
            {
              "description": "everything",
              "openInPolicy": "ACOPENINPOLICY_WHITELIST",
              "openInWhitelist": ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.viewer"],
              "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "true", "other": "x"},
              "infoPlist": {"CFBundleIdentifier": "com.example.app", "MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}},
              "device": {"emailPlusInstalled": true, "emailPlusBundleIDs": ["com.example.emailplus"],
                         "schemeHandlers": {"Box": "net.box.BoxNet"}, "appConnectApps": ["com.example.docs"]},
              "app": {"urlSchemes": ["myapp"]},
              "dragAndDropPolicy": "appconnect",
              "enforcing": false
            }
            """.utf8))
        #expect(inputs.setting == .status(.whitelist))
        #expect(inputs.stated.whitelist.count == 3)
        #expect(inputs.stated.whitelist.containsMailPair)
        #expect(inputs.stated.config.values == ["MI_AC_DISABLE_SCHEME_BLOCKING": "true", "other": "x"])
        #expect(inputs.stated.infoPlist.disableSchemeBlocking)
        #expect(inputs.stated.device.emailPlusInstalled)
        #expect(inputs.stated.device.emailPlusTarget.rawValue == "com.example.emailplus")
        #expect(inputs.stated.device.handler(forScheme: "box")?.rawValue == "net.box.BoxNet")
        #expect(inputs.stated.device.appConnectApps.map(\.rawValue) == ["com.example.docs"])
        #expect(inputs.stated.app.urlSchemes == ["myapp"])
        #expect(inputs.stated.dragAndDrop == .appConnect)
        #expect(!inputs.stated.enforcing)
        #expect(inputs.policy.schemeBlockingDisabled)
    }

    @Test(arguments: [("\"unauthorized\"", OpenInStatus.unauthorized), ("1", .authorized), ("2", .whitelist), ("\"Whitelist\"", .whitelist)])
    func policyValues(text: String, status: OpenInStatus) throws {
        let inputs = try PolicyJSON.read(Array("{\"openInPolicy\": \(text)}".utf8))
        #expect(inputs.setting == .status(status))
        #expect(inputs.stated.enforcing)
    }

    @Test func allAppConnectAppsListsTheDevicesApps() throws {
        let inputs = try PolicyJSON.read(Array(#"{"openInPolicy": "appconnect", "device": {"appConnectApps": ["com.example.a"]}}"#.utf8))
        #expect(inputs.setting == .allAppConnectApps)
        #expect(inputs.policy.status == .whitelist)
        #expect(inputs.policy.whitelist.ids.map(\.rawValue) == ["com.example.a"])
    }

    /// Invalid policies, each with its message and where it points.
    static let invalid: [(json: String, message: String, line: Int?, column: Int?)] = [
        ("[]", "a policy file must hold a JSON object, not an array", nil, nil),
        ("{}", "openInPolicy is missing: add \"openInPolicy\": \"unauthorized\", \"authorized\", \"whitelist\" or \"appconnect\"", 1, 1),
        (#"{"openInPolicy": "whitelist", "openInWhiteList": []}"#,
         "openInWhiteList: unknown key. Did you mean 'openInWhitelist'? Known keys: description, openInPolicy, openInWhitelist, config, infoPlist, device, app, dragAndDropPolicy, enforcing, openFromPolicy, openFromWhitelist, pasteboardPolicy, printPolicy, webDLP, excludedAppleActivityTypes, $schema", 1, 31),
        (#"{"openInPolicy": "sometimes"}"#,
         "openInPolicy: unknown Open In policy 'sometimes': use unauthorized, authorized, whitelist, appconnect, an SDK constant name (ACOPENINPOLICY_WHITELIST or ACOpenInPolicyWhitelist), or 0, 1, 2", 1, 18),
        (#"{"openInPolicy": 2.0}"#, "openInPolicy: the number 2.0 is not a policy: write 0, 1 or 2 as an integer, or a name such as \"whitelist\"", 1, 18),
        (#"{"openInPolicy": 3}"#,
         "openInPolicy: unknown Open In policy '3': use unauthorized, authorized, whitelist, appconnect, an SDK constant name (ACOPENINPOLICY_WHITELIST or ACOpenInPolicyWhitelist), or 0, 1, 2", 1, 18),
        (#"{"openInPolicy": true}"#, "openInPolicy: must be a name such as \"whitelist\" or a number 0, 1, 2, not true", 1, 18),
        ("{\"openInPolicy\": \"whitelist\",\n \"openInWhitelist\": [\"com.a\",\n   \"com b\"]}",
         "openInWhitelist[1]: malformed bundle ID 'com b': it contains a space", 3, 4),
        (#"{"openInPolicy": "whitelist", "openInWhitelist": "com.a;com.b"}"#,
         "openInWhitelist: must be an array (bundle IDs), not the string \"com.a;com.b\"", 1, 50),
        (#"{"openInPolicy": "appconnect", "openInWhitelist": []}"#,
         "openInWhitelist: cannot be combined with openInPolicy \"appconnect\": \"All AppConnect apps\" lists the device's AppConnect apps; list them in device.appConnectApps", 1, 51),
        (#"{"openInPolicy": "whitelist", "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": true}}"#,
         "config.MI_AC_DISABLE_SCHEME_BLOCKING: must be a string (the server sends app-specific configuration as strings), not true: write \"true\" in quotes", 1, 75),
        (#"{"openInPolicy": "whitelist", "infoPlist": {"MI_APP_CONNECT": {"MI_AC_DISABLE_SCHEME_BLOCKING": "YES"}}}"#,
         "infoPlist.MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: must be true or false (a Boolean in the Info.plist), not the string \"YES\": write true", 1, 97),
        (#"{"openInPolicy": "whitelist", "infoPlist": {"MI_APP_CONNECT": true}}"#,
         "infoPlist.MI_APP_CONNECT: must be an object (the MI_APP_CONNECT dictionary), not true", 1, 63),
        (#"{"openInPolicy": "whitelist", "device": {"emailPlusInstalled": "yes"}}"#,
         "device.emailPlusInstalled: must be true or false, not the string \"yes\"", 1, 64),
        (#"{"openInPolicy": "whitelist", "device": {"emailPlusInstaled": true}}"#,
         "device.emailPlusInstaled: unknown key. Did you mean 'emailPlusInstalled'? Known keys: emailPlusInstalled, emailPlusBundleIDs, schemeHandlers, appConnectApps, secureServicesAvailable, webAtWorkInstalled, webAtWorkBundleIDs", 1, 42),
        (#"{"openInPolicy": "whitelist", "webDLP": true}"#,
         "webDLP: must be the string \"allowed\" or \"not-allowed\" (the AppConnect global policy's Web DLP setting), not true", 1, 41),
        (#"{"openInPolicy": "whitelist", "webDLP": "no"}"#, "webDLP: unknown Web DLP setting 'no': use allowed or not-allowed", 1, 41),
        (#"{"openInPolicy": "whitelist", "webDLP": "not_allowed"}"#,
         "webDLP: unknown Web DLP setting 'not_allowed': use allowed or not-allowed. Did you mean 'not-allowed'?", 1, 41),
        (#"{"openInPolicy": "whitelist", "webDlp": "allowed"}"#,
         "webDlp: unknown key. Did you mean 'webDLP'? Known keys: description, openInPolicy, openInWhitelist, config, infoPlist, device, app, dragAndDropPolicy, enforcing, openFromPolicy, openFromWhitelist, pasteboardPolicy, printPolicy, webDLP, excludedAppleActivityTypes, $schema", 1, 31),
        (#"{"openInPolicy": "whitelist", "excludedAppleActivityTypes": ["com.apple.UIKit.activity.*"]}"#,
         "excludedAppleActivityTypes[0]: malformed bundle ID 'com.apple.UIKit.activity.*': it contains '*' (allowed: letters, digits, '-', '_', '.')", 1, 62),
        (#"{"openInPolicy": "whitelist", "excludedAppleActivityTypes": "com.apple.UIKit.activity.AirDrop"}"#,
         "excludedAppleActivityTypes: must be an array (Apple activity types, such as com.apple.UIKit.activity.AirDrop), not the string \"com.apple.UIKit.activity.AirDrop\"", 1, 61),
        (#"{"openInPolicy": "whitelist", "device": {"webAtWorkBundleIDs": []}}"#,
         "device.webAtWorkBundleIDs: is empty: list at least one bundle ID, or leave the key out for com.mobileiron.ios.webatwork", 1, 64),
        (#"{"openInPolicy": "whitelist", "app": {"allowsCustomKeyboards": "no"}}"#,
         "app.allowsCustomKeyboards: must be true or false, not the string \"no\"", 1, 64),
        (#"{"openInPolicy": "whitelist", "config": {"MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS": false}}"#,
         "config.MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS: must be a string (the server sends app-specific configuration as strings), not false: write \"false\" in quotes", 1, 78),
        (#"{"openInPolicy": "whitelist", "device": {"emailPlusBundleIDs": []}}"#,
         "device.emailPlusBundleIDs: is empty: list at least one bundle ID, or leave the key out for com.mobileiron.ios.emailplus", 1, 64),
        (#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"1box": "net.box"}}}"#,
         "device.schemeHandlers.1box: malformed URL scheme '1box': a scheme is a letter followed by letters, digits, '+', '-' or '.'", 1, 61),
        (#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"box": "net box"}}}"#,
         "device.schemeHandlers.box: malformed bundle ID 'net box': it contains a space", 1, 68),
        (#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"box": "a.b", "BOX": "c.d"}}}"#,
         "device.schemeHandlers.BOX: the scheme is given twice (also as \"box\"; schemes ignore case): give it once", 1, 75),
        (#"{"openInPolicy": "whitelist", "app": {"urlSchemes": ["my app"]}}"#,
         "app.urlSchemes[0]: malformed URL scheme 'my app': a scheme is a letter followed by letters, digits, '+', '-' or '.'", 1, 54),
        (#"{"openInPolicy": "whitelist", "dragAndDropPolicy": "some"}"#,
         "dragAndDropPolicy: unknown drag-and-drop policy 'some': use all, appconnect or none", 1, 52),
        (#"{"openInPolicy": "whitelist", "enforcing": "false"}"#, "enforcing: must be true or false, not the string \"false\"", 1, 44),
        (#"{"openInPolicy": "whitelist", "openInPolicy": "authorized"}"#,
         "not valid JSON: duplicate key \"openInPolicy\" (first at line 1, column 2): give each key once", 1, 31),
        ("{\"openInPolicy\": \"whitelist\",}", "not valid JSON: trailing comma: remove the ',' before '}'", 1, 30),
    ]

    @Test(arguments: 0..<invalid.count)
    func rejectsInvalidPolicies(case index: Int) {
        let example = Self.invalid[index]
        let position = example.line.map { JSONPosition(line: $0, column: example.column ?? 1) }
        #expect(throws: FormatError(example.message, at: position), "\(example.json)") {
            try PolicyJSON.read(Array(example.json.utf8))
        }
    }

    @Test func errorsNameTheFileLineAndColumn() {
        let error = FormatError("enforcing: must be true or false", at: JSONPosition(line: 3, column: 16)).inFile("p.json")
        #expect(error.description == "p.json:3:16: enforcing: must be true or false")
        #expect(FormatError("x", line: 4).inFile("a.plist").description == "a.plist:4: x")
        #expect(FormatError("x").inFile("a.plist").description == "a.plist: x")
    }
}

/// Property lists are made here with Foundation, in both formats.
enum Plist {
    static func bytes(_ object: Any, binary: Bool) throws -> [UInt8] {
        Array(try PropertyListSerialization.data(fromPropertyList: object, format: binary ? .binary : .xml, options: 0))
    }
}

@Suite struct InfoPlistTests {
    @Test(arguments: [false, true])
    func readsTheOverride(binary: Bool) throws {
        let set = try Plist.bytes(["CFBundleIdentifier": "com.example.app", "MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": true]], binary: binary)
        #expect(try InfoPlist.read(set).overrides == InfoPlistOverrides(disableSchemeBlocking: true))
        let unset = try Plist.bytes(["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": false]], binary: binary)
        #expect(try InfoPlist.read(unset).overrides == InfoPlistOverrides(disableSchemeBlocking: false))
        let absent = try Plist.bytes(["CFBundleIdentifier": "com.example.app"], binary: binary)
        #expect(try InfoPlist.read(absent).overrides == InfoPlistOverrides())
    }

    @Test(arguments: [false, true])
    func failsClosedOnOtherTypes(binary: Bool) throws {
        #expect(throws: FormatError("MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: must be a Boolean, not a <string> (\"YES\"): write <true/> (in Xcode: type Boolean, value YES)")) {
            try InfoPlist.read(try Plist.bytes(["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": "YES"]], binary: binary))
        }
        #expect(throws: FormatError("MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: must be a Boolean, not an <integer> (1): write <true/> (in Xcode: type Boolean, value YES)")) {
            try InfoPlist.read(try Plist.bytes(["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": 1]], binary: binary))
        }
        #expect(throws: FormatError("MI_APP_CONNECT: must be a <dict>, not an <array>")) {
            try InfoPlist.read(try Plist.bytes(["MI_APP_CONNECT": ["x"]], binary: binary))
        }
        #expect(throws: FormatError("an Info.plist must hold a <dict> at the top level")) {
            try InfoPlist.read(try Plist.bytes(["x"], binary: binary))
        }
    }

    @Test func reportsTheLineOfAMalformedPlist() throws {
        let text = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n</dict>\n</plist>\n"
        do {
            _ = try InfoPlist.read(Array(text.utf8))
            Issue.record("a malformed plist was read")
        } catch {
            #expect(error.message.hasPrefix("not a valid property list (XML or binary): "))
            #expect(error.line != nil)
        }
    }
}

@Suite struct AppConnectPlistTests {
    @Test(arguments: [false, true])
    func readsPolicyWhitelistConfigAndApps(binary: Bool) throws {
        let bytes = try Plist.bytes([
            "policy": ["openin": "whitelist", "openinwhitelist": "com.apple.UIKit.activity.Mail; com.apple.mobilemail;;com.example.viewer;",
                       "authorization": "allow"],
            "config": ["MI_AC_DISABLE_SCHEME_BLOCKING": "true"],
            "appconnectapps": ["com.example.docs"],
        ] as [String: Any], binary: binary)
        let inputs = try AppConnectPlist.read(bytes)
        #expect(inputs.setting == .status(.whitelist))
        #expect(inputs.stated.whitelist.ids.map(\.rawValue).sorted() == ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.viewer"])
        #expect(inputs.stated.config.values == ["MI_AC_DISABLE_SCHEME_BLOCKING": "true"])
        #expect(inputs.stated.device.appConnectApps.map(\.rawValue) == ["com.example.docs"])
    }

    @Test(arguments: [("allow", PolicySetting.status(.authorized)), ("disable", .status(.unauthorized)), ("Whitelist", .status(.whitelist)), ("appconnect", .allAppConnectApps)])
    func openInValues(value: String, setting: PolicySetting) throws {
        #expect(try AppConnectPlist.read(try Plist.bytes(["policy": ["openin": value]], binary: false)).setting == setting)
    }

    @Test func appConnectAppsMayBeOneSeparatedString() throws {
        let inputs = try AppConnectPlist.read(try Plist.bytes(["policy": ["openin": "appconnect"], "appconnectapps": "com.a;com.b"], binary: true))
        #expect(inputs.policy.whitelist.ids.map(\.rawValue).sorted() == ["com.a", "com.b"])
    }

    /// Computed: `Any` is not `Sendable`, so these cannot be stored in a static.
    static var invalid: [([String: Any], String)] { [
        (["config": [:] as [String: Any]], "policy: missing: add a <dict> under the key policy with openin = allow, disable, whitelist or appconnect"),
        (["policy": "allow"], "policy: must be a <dict>, not a <string> (\"allow\")"),
        (["policy": ["openinwhitelist": "com.a"]], "policy.openin: missing: add openin = allow, disable, whitelist or appconnect"),
        (["policy": ["openin": "alow"]], "policy.openin: unknown value \"alow\". Did you mean 'allow'? Use allow, disable, whitelist or appconnect"),
        (["policy": ["openin": true]], "policy.openin: must be a <string>, not <true/>"),
        (["policy": ["openin": "whitelist", "openinwhitlist": "com.a"]], "policy.openinwhitlist: unknown key. Did you mean 'openinwhitelist'?"),
        (["policy": ["openin": "whitelist"], "confg": [:] as [String: Any]], "confg: unknown key. Did you mean 'config'?"),
        (["policy": ["openin": "whitelist", "openinwhitelist": ["com.a"]]],
         "policy.openinwhitelist: must be a <string> of bundle IDs separated by ';', not an <array>"),
        (["policy": ["openin": "whitelist", "openinwhitelist": "com.a;com b"]], "policy.openinwhitelist (entry 2): malformed bundle ID 'com b': it contains a space"),
        (["policy": ["openin": "appconnect", "openinwhitelist": "com.a"]],
         "policy.openinwhitelist: cannot be combined with openin = appconnect (\"All AppConnect apps\" lists the device's AppConnect apps): list them under appconnectapps"),
        (["policy": ["openin": "whitelist"], "config": ["MI_AC_DISABLE_SCHEME_BLOCKING": true]],
         "config.MI_AC_DISABLE_SCHEME_BLOCKING: must be a <string> (the server sends app-specific configuration as strings), not <true/>"),
        (["policy": ["openin": "whitelist"], "appconnectapps": [1]], "appconnectapps[0]: must be a <string> bundle ID, not an <integer> (1)"),
        (["policy": ["openin": "whitelist"], "appconnectapps": true],
         "appconnectapps: must be an <array> of <string>s or a <string> of bundle IDs separated by ';', not <true/>"),
        // One rule for every control: a number is not a name, and says so (the file names its one control).
        (["policy": ["openin": "1"]], "policy.openin: \"1\" is a number, and AppConnect.plist names the policy: use allow, disable, whitelist or appconnect"),
        (["policy": ["openin": 2]], "policy.openin: must be a <string>, not an <integer> (2)"),
    ] }

    @Test(arguments: 0..<15)
    func rejectsInvalidFiles(case index: Int) throws {
        #expect(Self.invalid.count == 15)
        let (plist, message) = Self.invalid[index]
        for binary in [false, true] {
            let bytes = try Plist.bytes(plist, binary: binary)
            #expect(throws: FormatError(message), "binary: \(binary)") { try AppConnectPlist.read(bytes) }
        }
    }
}

@Suite struct PolicyFileTests {
    @Test func tellsTheKindByContent() throws {
        #expect(try PolicyFile.kind(of: Array("\u{FEFF}  {\"openInPolicy\": 1}".utf8)) == .json)
        #expect(try PolicyFile.kind(of: try Plist.bytes(["policy": ["openin": "allow"]], binary: false)) == .appConnectPlist)
        #expect(try PolicyFile.kind(of: try Plist.bytes(["policy": ["openin": "allow"]], binary: true)) == .appConnectPlist)
        #expect(throws: FormatError("the policy file is empty: write a JSON policy ({\"openInPolicy\": …}) or an AppConnect.plist", file: "p")) {
            try PolicyFile.read(Array(" \n".utf8), file: "p")
        }
        #expect(throws: FormatError("not a policy file: a policy is a JSON object (starting with '{') or an AppConnect.plist (XML or binary property list)", line: 1, file: "p")) {
            try PolicyFile.read(Array("openInPolicy: 1".utf8), file: "p")
        }
    }

    @Test func readsEitherKindAndLocatesErrorsInTheFile() throws {
        #expect(try PolicyFile.read(Array(#"{"openInPolicy": 0}"#.utf8), file: "p.json").setting == .status(.unauthorized))
        #expect(try PolicyFile.read(try Plist.bytes(["policy": ["openin": "allow"]], binary: true), file: "a.plist").setting == .status(.authorized))
        #expect(throws: FormatError("enforcing: must be true or false, not null", at: JSONPosition(line: 1, column: 34), file: "p.json")) {
            try PolicyFile.read(Array(#"{"openInPolicy": 0, "enforcing": null}"#.utf8), file: "p.json")
        }
    }
}

@Suite struct RequestLineTests {
    @Test func readsARequestWithItsID() throws {
        let line = try RequestLine.read(Array(#"{"id": "r1", "channel": "document-interaction", "target": "com.example.viewer", "document": "a.pdf"}"#.utf8))
        #expect(line.id == .string("r1"))
        #expect(line.request == (try ShareRequest(channel: "document-interaction", target: "com.example.viewer", document: "a.pdf")))
        #expect(try RequestLine.read(Array(#"{"id": 7, "channel": "mail-compose"}"#.utf8)).id == .number(JSONNumber(7)))
        #expect(try RequestLine.read(Array(#"{"channel": "mail-compose"}"#.utf8)).id == nil)
    }

    static let invalid: [(line: String, id: JSONValue?, message: String)] = [
        ("", nil, "blank line: write one JSON request per line"),
        ("   ", nil, "blank line: write one JSON request per line"),
        (#"{"channel": "open-url""#, nil, "column 23: not valid JSON: expected ',' or '}', found the end of the input: the object is not closed"),
        ("[1]", nil, "a request must be a JSON object such as {\"channel\": \"open-url\", \"url\": \"mailto:a@example.com\"}, not an array"),
        (#"{"id": true, "channel": "mail-compose"}"#, nil, "id: must be a string or a number, not true"),
        (#"{"id": "a", "chanel": "mail-compose"}"#, .string("a"),
         "chanel: unknown key. Did you mean 'channel'? Known keys: id, channel, target, url, source, document"),
        (#"{"id": "b"}"#, .string("b"),
         "channel: missing: add \"channel\": one of document-interaction, quick-look, app-extension, activity-view, open-url, mail-link, mail-compose, drag-and-drop, open-from, copy, print, paste, keyboard"),
        (#"{"id": 3, "channel": "quick-look", "target": null}"#, .number(JSONNumber(3)), "target: must be a string, not null (leave the key out for none)"),
        (#"{"channel": "open-url", "url": 5}"#, nil, "url: must be a string, not the number 5"),
        (#"{"channel": "open-ur", "url": "x:y"}"#, nil,
         "unknown channel 'open-ur': use one of document-interaction, quick-look, app-extension, activity-view, open-url, mail-link, mail-compose, drag-and-drop, open-from, copy, print, paste, keyboard. Did you mean 'open-url'?"),
        (#"{"channel": "quick-look"}"#, nil, "channel quick-look needs a target bundle ID"),
        (#"{"channel": "open-url", "url": "no scheme"}"#, nil, "malformed URL 'no scheme': it contains a space"),
        (#"{"channel": "drag-and-drop", "target": "com..x"}"#, nil, "malformed bundle ID 'com..x': it has an empty segment (two dots, or a dot at the start)"),
        (#"{"channel": "mail-link", "url": "https://example.com"}"#, nil, "channel mail-link takes a mailto: URL, not 'https://example.com'"),
    ]

    @Test(arguments: 0..<invalid.count)
    func rejectsInvalidLines(case index: Int) {
        let example = Self.invalid[index]
        #expect(throws: RequestLine.Failure(id: example.id, message: example.message), "\(example.line)") {
            try RequestLine.read(Array(example.line.utf8))
        }
    }
}

@Suite struct DecisionRecordTests {
    let whitelist = Policy(status: .whitelist, whitelist: Whitelist([.mobileMail, try! BundleID("com.example.viewer")]))

    @Test func allowWithTarget() throws {
        let decision = Evaluator(policy: whitelist).decide(try ShareRequest(channel: "document-interaction", target: "com.example.viewer"))
        #expect(JSONWriter.compact(.object(DecisionRecord.json(decision, id: .string("r1")))) ==
            #"{"id":"r1","outcome":"allow","target":"com.example.viewer","callbacks":[],"openInUI":"enabled","rule":"document.listed-target","reason":"The target app is in the whitelist."}"#)
    }

    @Test func dummyFileWithPolicyCallback() throws {
        let decision = Evaluator(policy: whitelist).decide(try ShareRequest(channel: "quick-look", target: "com.other", document: "q.pdf"))
        let record = DecisionRecord.json(decision)
        #expect(record["outcome"] == .string("substitute-dummy-file"))
        #expect(record["callbacks"] == .array(JSONArray([.object(JSONObject([
            "selector": .string("appConnect:openInAttemptedWhenACOpenInPolicyBlocked:"), "policy": .string("ACOPENINPOLICY_WHITELIST")]))])))
        #expect(record["dummyFileName"] == .string(try #require(decision.dummyFileName)))
        #expect(record.members.map(\.key) == ["outcome", "target", "callbacks", "openInUI", "rule", "reason", "dummyFileName"])
    }

    @Test func denyWithURLCallbackHasNoTarget() throws {
        let decision = Evaluator(policy: whitelist).decide(try ShareRequest(channel: "open-url", url: "mailto:a@example.com"))
        let record = DecisionRecord.json(decision)
        #expect(record.members.map(\.key) == ["outcome", "callbacks", "openInUI", "rule", "reason"])
        #expect(record["callbacks"] == .array(JSONArray([.object(JSONObject([
            "selector": .string("appConnect:openURLAttemptedWhenUnauthorizedForURL:"), "url": .string("mailto:a@example.com")]))])))
    }

    @Test func dragAndDropCallbackHasOnlyItsSelector() throws {
        var appConnectOnly = whitelist
        appConnectOnly.dragAndDrop = .appConnect
        let decision = Evaluator(policy: appConnectOnly).decide(try ShareRequest(channel: "drag-and-drop", target: "com.other"))
        #expect(DecisionRecord.json(decision)["callbacks"] == .array(JSONArray([.object(JSONObject([
            "selector": .string("appConnectAttemptedDragAndDropToNonAppConnectApp:")]))])))
    }

    @Test func errorRecord() {
        #expect(JSONWriter.compact(.object(DecisionRecord.error(line: 4, id: .number(JSONNumber(9)), message: "bad \"x\""))) ==
            #"{"line":4,"id":9,"error":"bad \"x\""}"#)
        #expect(JSONWriter.compact(.object(DecisionRecord.error(line: 1, message: "m"))) == #"{"line":1,"error":"m"}"#)
    }
}
