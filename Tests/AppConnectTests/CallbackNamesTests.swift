import AppConnectRuntime
import AppConnectTesting
import Testing

/// The harness names callbacks by selector; the runtime delivers them by selector: the two lists must agree,
/// or `appDoesNotImplement(_:)` would fail to match a delivered callback.
extension AppConnectDoubleTests {
    @Suite struct CallbackNames {
        @Test func everyRuntimeCallbackHasAHarnessName() {
            let harness = Set(AppConnectHarness.Callback.allCases.map(\.rawValue))
            let runtime = Set(DelegateCallback.Kind.allCases.map(\.selector))
            #expect(runtime.subtracting(harness).isEmpty)
            // Only the two Open From callbacks may be the SDK's alone (a runtime without Open From does not send them).
            #expect(harness.subtracting(runtime).isSubset(of: [
                "appConnect:openFromPolicyChangedTo:whitelist:",
                "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:",
            ]))
            let required = Set(AppConnectHarness.Callback.allCases.filter(\.isRequired).map(\.rawValue))
            #expect(required == Set(DelegateCallback.Kind.allCases.filter(\.isRequired).map(\.selector)))
        }
    }
}
