import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// Open From, copy and print: reading their controls, failing closed without them,
/// and leaving the Open In channels exactly as they were.
@Suite("Controls beyond Open In")
struct DataControlsTests {
    static func read(_ json: String) throws -> PolicyInputs { try PolicyJSON.read(Array(json.utf8)) }

    @Test("each control reads its short name, both constant spellings and its number", arguments: [
        ("\"whitelist\"", OpenFromStatus.whitelist), ("\"ACOpenFromPolicyWhitelist\"", .whitelist), ("\"ACOPENFROMPOLICY_WHITELIST\"", .whitelist),
        ("2", .whitelist), ("\"Authorized\"", .authorized), ("1", .authorized), ("\"acopenfrompolicyunauthorized\"", .unauthorized), ("0", .unauthorized),
    ])
    func openFromValues(_ written: String, _ status: OpenFromStatus) throws {
        let inputs = try Self.read(#"{"openInPolicy": 0, "openFromPolicy": \#(written)}"#)
        #expect(inputs.policy.openFrom?.status == status)
    }

    @Test func pasteboardAndPrintValues() throws {
        for (written, value) in [("\"securecopy\"", PasteboardPolicy.secureCopy), ("\"ACPasteboardPolicySecureCopy\"", .secureCopy),
                                 ("\"ACPASTEBOARDPOLICY_SECURECOPY\"", .secureCopy), ("2", .secureCopy), ("1", .authorized), ("\"unauthorized\"", .unauthorized)] {
            #expect(try Self.read(#"{"openInPolicy": 0, "pasteboardPolicy": \#(written)}"#).stated.pasteboard == value)
        }
        for (written, value) in [("\"ACPrintPolicyAuthorized\"", PrintPolicy.authorized), ("\"acprintpolicy_unauthorized\"", .unauthorized), ("0", .unauthorized)] {
            #expect(try Self.read(#"{"openInPolicy": 0, "printPolicy": \#(written)}"#).stated.print == value)
        }
    }

    @Test func allAppConnectAppsForOpenFromListsTheDevicesApps() throws {
        let policy = try Self.read(#"{"openInPolicy": 0, "openFromPolicy": "appconnect", "device": {"appConnectApps": ["com.example.a"]}}"#).policy
        #expect(policy.openFrom?.status == .whitelist)
        #expect(policy.openFromWhitelist?.ids.map(\.rawValue) == ["com.example.a"])
    }

    /// Invalid values, each with its message and where it points.
    static let invalid: [(json: String, message: String, column: Int)] = [
        (#"{"openInPolicy": 0, "pasteboardPolicy": "secure"}"#,
         "pasteboardPolicy: unknown pasteboard policy 'secure': use unauthorized, authorized, securecopy, an ACPasteboardPolicy constant name, or 0, 1, 2. Did you mean 'securecopy'?", 41),
        (#"{"openInPolicy": 0, "printPolicy": 2}"#,
         "printPolicy: 2 is out of range: the values are 0 to 1, or a name: \"unauthorized\", \"authorized\"", 36),
        (#"{"openInPolicy": 0, "pasteboardPolicy": -1}"#,
         "pasteboardPolicy: -1 is out of range: the values are 0 to 2, or a name: \"unauthorized\", \"authorized\", \"securecopy\"", 41),
        (#"{"openInPolicy": 0, "openFromPolicy": 3}"#,
         "openFromPolicy: 3 is out of range: the values are 0 to 2, or a name: \"unauthorized\", \"authorized\", \"whitelist\", \"appconnect\"", 39),
        (#"{"openInPolicy": 0, "openFromPolicy": 1.5}"#,
         "openFromPolicy: the number 1.5 is not a policy value: write an integer from 0 to 2, or a name: \"unauthorized\", \"authorized\", \"whitelist\", \"appconnect\"", 39),
        (#"{"openInPolicy": 0, "openFromPolicy": "whitelst"}"#,
         "openFromPolicy: unknown Open From policy 'whitelst': use unauthorized, authorized, whitelist, appconnect, an ACOpenFromPolicy constant name, or 0, 1, 2. Did you mean 'whitelist'?", 39),
        (#"{"openInPolicy": 0, "printPolicy": "securecopy"}"#,
         "printPolicy: unknown print policy 'securecopy': use unauthorized, authorized, an ACPrintPolicy constant name, or 0, 1", 36),
        (#"{"openInPolicy": 0, "printPolicy": true}"#,
         "printPolicy: must be a name (\"unauthorized\", \"authorized\") or a number from 0 to 1, not true", 36),
        (#"{"openInPolicy": 0, "openFromPolicy": "appconnect", "openFromWhitelist": ["a.b"]}"#,
         "openFromWhitelist: cannot be combined with openFromPolicy \"appconnect\": \"All AppConnect apps\" lists the device's AppConnect apps; list them in device.appConnectApps", 74),
        (#"{"openInPolicy": 0, "openFromPolicy": 2, "openFromWhitelist": ["a.b", "a b"]}"#,
         "openFromWhitelist[1]: malformed bundle ID 'a b': it contains a space", 71),
        (#"{"openInPolicy": 0, "device": {"secureServicesAvailable": "yes"}}"#,
         "device.secureServicesAvailable: must be true or false, not the string \"yes\"", 59),
    ]

    @Test(arguments: 0..<invalid.count)
    func invalidValuesAreErrorsWithKeyPathAndPlace(case index: Int) {
        let example = Self.invalid[index]
        #expect(throws: FormatError(example.message, at: JSONPosition(line: 1, column: example.column)), "\(example.json)") {
            try PolicyJSON.read(Array(example.json.utf8))
        }
    }

    @Test("a request on a channel whose control is not set is an error naming the key, never a decision")
    func unsetControlIsAnError() throws {
        let policy = Policy(status: .authorized)
        let evaluator = Evaluator(policy: policy)
        let cases: [(ShareRequest, String)] = [
            (try ShareRequest(channel: .openFrom, source: BundleID("com.example.a")), "openFromPolicy"),
            (try ShareRequest(channel: .copy), "pasteboardPolicy"),
            (try ShareRequest(channel: .print), "printPolicy"),
        ]
        for (request, key) in cases {
            #expect(throws: InputError.policyKeyNotSet(key, request.channel)) { try evaluator.decideOrThrow(request) }
            // Deciding without the check never allows: the library fails closed.
            #expect(evaluator.decide(request).outcome == .deny)
        }
        var secure = policy
        secure.pasteboard = .secureCopy
        #expect(throws: InputError.policyKeyNotSet("device.secureServicesAvailable", .copy)) {
            try Evaluator(policy: secure).decideOrThrow(try ShareRequest(channel: .copy))
        }
        #expect(Evaluator(policy: secure).decide(try ShareRequest(channel: .copy)).outcome == .deny)
        #expect(throws: InputError.policyKeyNotSet("printPolicy", .print)) {
            try evaluator.decideOrThrow(channel: "print")
        }
        #expect("\(InputError.policyKeyNotSet("printPolicy", .print))".contains("printPolicy"))
    }

    @Test("the new controls change nothing on the Open In channels")
    func openInChannelsIgnoreTheNewControls() throws {
        let plain = try Self.read(#"""
            {"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer", "com.apple.mobilemail"],
             "device": {"emailPlusInstalled": true, "appConnectApps": ["com.example.docs"], "schemeHandlers": {"box": "com.example.viewer"}}}
            """#).policy
        var full = plain
        full.openFrom = OpenFromPolicy(status: .authorized)
        full.pasteboard = .unauthorized
        full.print = .authorized
        full.device.secureServicesAvailable = false
        let before = Evaluator(policy: plain), after = Evaluator(policy: full)
        let classes = PolicyDiff.requestClasses(old: plain, new: plain)
        #expect(classes.count > 20)
        for request in classes {
            #expect(before.decide(request) == after.decide(request), "\(request)")
        }
        #expect(PolicyDiff(old: plain, new: full).controlGaps.map(\.channel) == [.openFrom, .copy, .print])
        #expect(PolicyDiff(old: plain, new: full).verdict == .incomparable)
    }

    @Test("source belongs to open-from alone, and is validated")
    func sourceFieldChecks() throws {
        #expect(throws: InputError.unexpectedField("source", .documentInteraction)) {
            try ShareRequest(channel: "document-interaction", target: "com.example.a", source: "com.example.b")
        }
        #expect(throws: InputError.unexpectedField("target", .openFrom)) {
            try ShareRequest(channel: "open-from", target: "com.example.a")
        }
        #expect(throws: InputError.unexpectedField("url", .copy)) { try ShareRequest(channel: "copy", url: "https://example.com") }
        #expect(throws: InputError.unexpectedField("target", .print)) { try ShareRequest(channel: "print", target: "com.example.a") }
        #expect(throws: (any Error).self) { try ShareRequest(channel: "open-from", source: "com..a") }
        #expect(try ShareRequest(channel: "open-from").source == nil)
    }

    @Test("records: the audience of a copy, the Open From callback with and without its source")
    func records() throws {
        var policy = Policy(status: .whitelist)
        policy.openFrom = OpenFromPolicy(status: .whitelist, whitelist: try Whitelist(parsing: ["com.example.a"]))
        policy.pasteboard = .authorized
        let evaluator = Evaluator(policy: policy)
        let copy = JSONWriter.compact(.object(DecisionRecord.json(try evaluator.decideOrThrow(channel: "copy"))))
        #expect(copy.hasPrefix(#"{"outcome":"allow","audience":"all-apps","callbacks":[]"#))
        let unknown = JSONWriter.compact(.object(DecisionRecord.json(try evaluator.decideOrThrow(channel: "open-from"))))
        #expect(unknown.contains(#""callbacks":[{"selector":"appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:","policy":"ACOpenFromPolicyWhitelist"}]"#))
        let named = JSONWriter.compact(.object(DecisionRecord.json(try evaluator.decideOrThrow(channel: "open-from", source: "com.example.b"))))
        #expect(named.contains(#""policy":"ACOpenFromPolicyWhitelist","sourceApplication":"com.example.b"}]"#))
        policy.pasteboard = .unauthorized
        let denied = JSONWriter.compact(.object(DecisionRecord.json(try Evaluator(policy: policy).decideOrThrow(channel: "copy"))))
        #expect(denied.contains(#"[{"selector":"appConnect:copyAttemptedWhenUnauthorized:","policy":"ACPasteboardPolicyUnauthorized"}]"#))
    }

    @Test("a request line takes source; the fast path's writer renders the new callbacks as the general writer does")
    func requestLineAndWriter() throws {
        let line = try RequestLine.read(Array(#"{"id": 1, "channel": "open-from", "source": "com.example.b"}"#.utf8))
        #expect(line.request.source?.rawValue == "com.example.b")
        var policy = Policy(status: .unauthorized)
        policy.openFrom = OpenFromPolicy(status: .unauthorized)
        policy.pasteboard = .secureCopy
        policy.device.secureServicesAvailable = true
        let evaluator = Evaluator(policy: policy)
        let writer = DecisionRecordWriter()
        for request in [line.request, try ShareRequest(channel: .openFrom), try ShareRequest(channel: .copy)] {
            let decision = evaluator.decide(request)
            var sink = RecordSink(capacity: 16)
            defer { sink.deallocate() }
            writer.write(decision, id: nil, document: nil, to: &sink)
            let written = String(decoding: sink.bytes, as: UTF8.self)
            #expect(written == JSONWriter.compact(.object(DecisionRecord.json(decision))) + "\n")
        }
    }
}
