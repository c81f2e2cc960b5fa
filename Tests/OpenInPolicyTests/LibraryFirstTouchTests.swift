import Foundation
import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

/// The library at first touch: what a newcomer writes compiles, reads and fails as they expect.
@Suite struct LibraryFirstTouchTests {
    static let examples = RulesFolder.path.replacingOccurrences(of: "/Rules", with: "/Examples")

    @Test func aWhitelistFromStringsTakesOneTry() throws {
        let policy = try Policy(status: .whitelist, whitelist: ["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.viewer"])
        #expect(policy.mailAllowed)
        #expect(policy.whitelist == (try Whitelist(["com.apple.UIKit.activity.Mail", "com.apple.mobilemail", "com.example.viewer"])))
        #expect(Evaluator(policy: policy).decide(try ShareRequest(channel: "quick-look", target: "com.example.viewer")).outcome == .allow)
    }

    @Test func aStringThatIsNotABundleIDIsAnErrorNeverADroppedEntry() {
        #expect(throws: InputError.self) { try Policy(status: .whitelist, whitelist: ["com.example.viewer", "not a bundle id"]) }
        #expect(throws: InputError.self) { try Whitelist(["com.example.viewer", ""]) }
    }

    @Test func oneInitializerSetsEveryControl() throws {
        let policy = try Policy(status: .whitelist, whitelist: ["com.example.viewer"], dragAndDrop: DragAndDropPolicy.none,
                                openFrom: OpenFromPolicy(status: .whitelist, whitelist: try Whitelist(["com.example.scanner"])),
                                pasteboard: .unauthorized, print: .authorized, webDLP: .notAllowed,
                                excludedActivityTypes: [try BundleID("com.apple.UIKit.activity.AirDrop")])
        let evaluator = Evaluator(policy: policy)
        #expect(try evaluator.decideOrThrow(channel: "open-url", url: "https://example.com/").rule.rawValue == "web-dlp.blocked")
        #expect(try evaluator.decideOrThrow(channel: "activity-view", target: "com.apple.UIKit.activity.AirDrop").rule.rawValue
                == "activity-view.excluded-activity")
        #expect(try evaluator.decideOrThrow(channel: "open-from", source: "com.example.scanner").rule.rawValue == "open-from.listed-source")
        #expect(try evaluator.decideOrThrow(channel: "copy").rule.rawValue == "copy.unauthorized")
        #expect(try evaluator.decideOrThrow(channel: "print").rule.rawValue == "print.authorized")
        #expect(try evaluator.decideOrThrow(channel: "drag-and-drop", target: "com.example.viewer").rule.rawValue == "drag-and-drop.policy-none")
    }

    @Test func aPolicyIsReadFromAPath() throws {
        let policy = try Policy(contentsOfFile: Self.examples + "/policies/all-five-controls.json")
        #expect(policy.status == .whitelist)
        #expect(policy.pasteboard == .secureCopy)
        #expect(policy.print == .unauthorized)
        let plist = try Policy(contentsOfFile: Self.examples + "/AppConnect.plist")
        #expect(plist == (try PolicyFile.read(path: Self.examples + "/AppConnect.plist")).policy)
    }

    @Test func aPolicyThatCannotBeReadNamesItsFile() {
        #expect(throws: FormatError(file: "/nonexistent/p.json", line: 0, message: "cannot read the policy file: no such file or directory")) {
            try Policy(contentsOfFile: "/nonexistent/p.json")
        }
        #expect(throws: FormatError(file: Self.examples, line: 0, message: "cannot read the policy file: it is a directory; give a file")) {
            try Policy(contentsOfFile: Self.examples)
        }
    }

    @Test func decideNeverThrowsAndDecideOrThrowSaysWhenItCannot() throws {
        let evaluator = Evaluator(policy: Policy(status: .authorized))
        let print = try ShareRequest(channel: "print")
        #expect(evaluator.decide(print).outcome == .deny)
        #expect(throws: InputError.policyKeyNotSet("printPolicy", .print)) { try evaluator.decideOrThrow(print) }
        #expect(throws: InputError.self) { try evaluator.decideOrThrow(channel: "no-such-channel") }
    }

    @Test func explanationsNameKeysNotFlags() throws {
        let inputs = PolicyInputs(Policy(status: .unauthorized))
        for request in [try ShareRequest(channel: "open-url", url: "mailto:a@example.com"),
                        try ShareRequest(channel: "open-url", url: "acme://x")] {
            let decision = Evaluator(policy: inputs.policy).decide(request)
            let sentences = decision.explanation(for: request, under: inputs).inputs
            #expect(!sentences.contains { $0.contains("--") }, "\(sentences)")
            #expect(sentences.contains { $0.contains("(policy key device.") }, "\(sentences)")
        }
    }
}
