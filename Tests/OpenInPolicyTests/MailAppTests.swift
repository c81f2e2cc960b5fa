import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The device's mail app (its `mailto` handler) outside the decision tables: lint and the matrix.
@Suite("The device's mail app")
struct MailAppTests {
    static func codes(_ json: String) -> [String] {
        PolicyLint.lint([PolicyDocument(policyJSON: Array(json.utf8), file: "p.json")]).map(\.check.code)
    }

    @Test("OI015 mail-app-unlisted: a third-party mail app the whitelist does not list")
    func lintFlagsAnUnlistedMailApp() {
        let unlisted = #"{"openInPolicy": "whitelist", "openInWhitelist": ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail"], "device": {"schemeHandlers": {"mailto": "com.microsoft.Office.Outlook"}}}"#
        #expect(Self.codes(unlisted) == ["OI015"])
        let findings = PolicyLint.lint([PolicyDocument(policyJSON: Array(unlisted.utf8), file: "p.json")])
        #expect(findings.first?.location.keyPath == "device.schemeHandlers.mailto")
        #expect(findings.first?.severity == .warning)
        // The scheme is case-insensitive.
        // (No whitelist at all: OI023 too.)
        #expect(Self.codes(#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"MAILTO": "com.example.mail"}}}"#) == ["OI023", "OI015"])
        // Bundle IDs are compared exactly: another case is another app.
        #expect(Self.codes(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.microsoft.office.outlook"], "device": {"schemeHandlers": {"mailto": "com.microsoft.Office.Outlook"}}}"#) == ["OI015"])
    }

    @Test("no OI015 when the mail app is listed, is native Mail, or the policy is not WHITELIST")
    func lintIsQuietOtherwise() {
        #expect(Self.codes(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.microsoft.Office.Outlook"], "device": {"schemeHandlers": {"mailto": "com.microsoft.Office.Outlook"}}}"#).isEmpty)
        #expect(Self.codes(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.apple.mobilemail", "com.apple.UIKit.activity.Mail"], "device": {"schemeHandlers": {"mailto": "com.apple.mobilemail"}}}"#).isEmpty)
        #expect(Self.codes(#"{"openInPolicy": "authorized", "device": {"schemeHandlers": {"mailto": "com.example.mail"}}}"#).isEmpty)
        #expect(Self.codes(#"{"openInPolicy": "whitelist", "openInWhitelist": ["com.example.viewer"], "device": {"schemeHandlers": {"x-docs": "com.example.mail"}}}"#).isEmpty)
    }

    @Test("an invalid mail app is an input error naming the key, never a decision")
    func invalidMailAppIsAnError() {
        #expect(throws: FormatError.self) {
            try PolicyJSON.read(Array(#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"mailto": "not an id"}}}"#.utf8))
        }
        let codes = Self.codes(#"{"openInPolicy": "whitelist", "device": {"schemeHandlers": {"mailto": "not an id"}}}"#)
        #expect(codes == ["OI023", "OI000"], "no whitelist is OI023; the mail app is the reader's error")
    }

    @Test("the matrix names the mail app: its column, and the legend")
    func matrixShowsTheMailApp() throws {
        var inputs = PolicyInputs(Policy(status: .whitelist, whitelist: Whitelist([try BundleID("com.microsoft.Office.Outlook")])))
        try inputs.stated.device.setHandler(try BundleID("com.microsoft.Office.Outlook"), for: "mailto")
        let text = PolicyMatrix(inputs: inputs, name: "p.json").render()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Opening a URL or Mail") && $0.contains("(mailto:)") })
        #expect(lines.contains { $0.contains("mail app") && $0.contains("(mailto:)") == false && $0.contains("own") })
        // openURL: and links reach Outlook; the compose sheet is native Mail, which is not listed.
        #expect(lines.contains { $0.hasPrefix("open-url ") && $0.split(separator: " ").dropFirst().first == "allow" })
        #expect(lines.contains { $0.hasPrefix("mail-link ") && $0.split(separator: " ").dropFirst().first == "allow" })
        #expect(lines.contains { $0.hasPrefix("mail-compose ") && $0.split(separator: " ").dropFirst().first == "deny*" })
        #expect(text.contains("mail app" + String(repeating: " ", count: 16) + "mailto: → com.microsoft.Office.Outlook"))
        // Without a handler the column is native Mail's, as before.
        let plain = PolicyMatrix(inputs: PolicyInputs(setting: .status(.whitelist)), name: "p.json").render()
        #expect(plain.contains("native Mail") && !plain.contains("mail app "))
    }
}
