import AppConnectRuntime
import OpenInPolicy
import Testing

/// AppConnect for iOS SDK Developer Guide: AppConnect-related notifications, "Notification acknowledgments".
@Suite struct AcknowledgmentTests {
    @Test func theServerSeesTheAppsAcknowledgmentsInOrder() throws {
        let device = SimulatedDevice()
        _ = try Fixture.readyLibrary(FullApp(acknowledging: .error), on: device)
        #expect(device.acknowledgments == [
            Acknowledgment(.authState, .error, message: "auth"),
            Acknowledgment(.config, .error, message: "config"),
            Acknowledgment(.openInPolicy, .error, message: "openIn"),
            Acknowledgment(.openFromPolicy, .error, message: "openFrom"),
            Acknowledgment(.pasteboardPolicy, .error, message: "pasteboard"),
            Acknowledgment(.printPolicy, .error, message: "print"),
            Acknowledgment(.secureFileIOPolicy, .error, message: "secureFileIO"),
        ])
        #expect(device.awaitedAcknowledgments.isEmpty)
    }

    @Test func aChangeCallbackTheAppDoesNotImplementIsAcknowledgedUnsupported() throws {
        let device = SimulatedDevice()
        _ = try Fixture.readyLibrary(MinimalApp(), on: device)
        let automatic = device.acknowledgments.filter(\.automatic)
        #expect(automatic.map(\.kind) == [.config, .openInPolicy, .openFromPolicy, .pasteboardPolicy, .printPolicy, .secureFileIOPolicy])
        #expect(automatic.allSatisfy { $0.state == .unsupported })
        #expect(automatic.first?.message == "The app does not implement appConnect:configChangedTo:")
        #expect(device.acknowledgments.first == Acknowledgment(.authState, .applied, message: "auth applied"))
    }

    @Test func theTimelineShowsWhatWasNotImplemented() throws {
        let device = SimulatedDevice()
        _ = try Fixture.readyLibrary(MinimalApp(), on: device)
        let notImplemented = Fixture.callbacks(device).filter { !$0.1 }.map(\.0.kind)
        #expect(notImplemented == [.managedPolicyChanged, .configChanged, .openInPolicyChanged, .openFromPolicyChanged, .pasteboardPolicyChanged,
                                   .printPolicyChanged, .secureServicesAvailabilityChanged, .secureFileIOPolicyChanged,
                                   .logLevelChanged])
        // Callbacks without an acknowledgment method get no automatic acknowledgment.
        #expect(!device.acknowledgments.contains { $0.kind.callback == .logLevelChanged })
    }

    @Test func authStateAppliedRejectsUnsupported() throws {
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(FullApp(), on: device)
        let before = device.acknowledgments
        #expect(throws: AppConnectError.authStateUnsupported) { try appConnect.authStateApplied(.unsupported, message: "no") }
        #expect(device.acknowledgments == before)
        #expect(device.timeline.last == .refused("authStateApplied:message:", .authStateUnsupported))
        try appConnect.authStateApplied(.error, message: "could not lock the UI")
        #expect(device.acknowledgments.last == Acknowledgment(.authState, .error, message: "could not lock the UI"))
    }

    @Test func anImplementedCallbackWithoutItsAcknowledgmentIsAwaited() throws {
        final class ForgetfulApp: AppConnectDelegate {
            func appConnectIsReady(_ appConnect: AppConnect) {}
            func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {}
            func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {}
        }
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(ForgetfulApp(), on: device)
        #expect(device.awaitedAcknowledgments == [.authState, .config])
        appConnect.configApplied(.applied, message: "late")
        #expect(device.awaitedAcknowledgments == [.authState])
    }

    @Test func anAcknowledgmentToAStoppedLibraryIsRefused() throws {
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        try appConnect.stop()
        let before = device.acknowledgments
        appConnect.configApplied(.applied, message: "too late")
        #expect(device.acknowledgments == before)
        #expect(device.timeline.last == .refused("configApplied:message:", .stopped("configApplied:message:")))
    }

    @Test func kindsParseFromNamesAndSelectors() {
        #expect(AcknowledgmentKind(parsing: "config") == .config)
        #expect(AcknowledgmentKind(parsing: "openInPolicyApplied:message:") == .openInPolicy)
        #expect(AcknowledgmentKind(parsing: "secureFileIOPolicyApplied") == .secureFileIOPolicy)
        #expect(AcknowledgmentKind(parsing: "print") == nil)
        #expect(ACPolicyState(parsing: "ACPOLICY_UNSUPPORTED") == .unsupported)
        #expect(ACPolicyState(parsing: "applied") == .applied)
        #expect(ACPolicyState(parsing: "2") == .error)
        #expect(ACPolicyState(parsing: "3") == nil)
    }
}
