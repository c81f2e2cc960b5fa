import Testing
import OpenInPolicy

@Suite("Evaluator")
struct EvaluatorTests {
    /// The README's embedding example, kept compiling and true.
    @Test func readmeExample() throws {
        let policy = Policy(
            status: .whitelist,
            whitelist: try Whitelist(parsing: ["com.apple.mobilemail", "com.example.viewer"]),
            device: try DeviceFacts(emailPlusInstalled: true))
        let evaluator = Evaluator(policy: policy)
        let decision = try evaluator.decideOrThrow(channel: "open-url", url: "mailto:cfo@example.com")
        #expect(decision.outcome == .redirect)
        #expect(decision.target == .emailPlus)
        #expect(decision.rule.rawValue == "mailto.email-plus-redirect")
        #expect(decision.callbacks.isEmpty)
        #expect(decision.rule.info.quote.contains("Email+ is installed"))
    }

    @Test func firstMatchDecides() throws {
        // Not enforcing wins over everything, even the activity view.
        let off = Policy(status: .unauthorized, enforcing: false)
        #expect(try Evaluator(policy: off).decideOrThrow(channel: "activity-view").rule.rawValue == "not-enforcing.allow")
        // A drag-and-drop policy wins over AUTHORIZED.
        var none = Policy(status: .authorized)
        none.dragAndDrop = DragAndDropPolicy.none
        let drag = try Evaluator(policy: none).decideOrThrow(channel: "drag-and-drop", target: "com.example.notes")
        #expect(drag.outcome == .deny)
        #expect(drag.rule.rawValue == "drag-and-drop.policy-none")
        #expect(drag.callbacks.isEmpty)  // the drag-and-drop callback belongs to the "AppConnect apps only" policy
        // The enforcement switch wins over UNAUTHORIZED's activity-view block.
        let disabled = Policy(status: .unauthorized, config: AppConfig(["MI_AC_DISABLE_OPEN_IN_ENFORCEMENT": "Yes"]))
        let share = try Evaluator(policy: disabled).decideOrThrow(channel: "activity-view", target: "com.example.notes")
        #expect(share.outcome == .allow)
        #expect(share.openInUI == .enabled)
    }

    @Test func callbacksCarryTheirArgument() throws {
        let policy = Policy(status: .whitelist)
        let decision = try Evaluator(policy: policy).decideOrThrow(channel: "open-url", url: "MAILTO:a@example.com")
        #expect(decision.callbacks.map(\.selector) == ["appConnect:openURLAttemptedWhenUnauthorizedForURL:"])
        #expect(decision.callbacks.map(\.description) == ["openURLAttemptedWhenUnauthorizedForURL(MAILTO:a@example.com)"])
    }
}
