import AppConnectRuntime
import OpenInPolicy
import Testing

/// AppConnect for iOS SDK Developer Guide: App-specific configuration API details, and share requests decided by the evaluator through the runtime.
@Suite struct ConfigAndShareTests {
    @Test func theConfigIsAnEmptyDictionaryWhenNoneIsSet() throws {
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: SimulatedDevice())
        #expect(try appConnect.config == [:])
    }

    @Test func openInEnforcementOffIsReadFromTheLiveConfig() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        let request = try Fixture.documentShare(to: Fixture.other)
        #expect(appConnect.share(request).outcome == .substituteDummyFile)
        device.push(.config([AppConfig.disableOpenInEnforcementKey: "Yes"]))
        #expect(appConnect.share(request).outcome == .allow)
        #expect(appConnect.share(request).rule.rawValue == "enforcement-disabled.allow")
        device.push(.config([:]))
        #expect(appConnect.share(request).outcome == .substituteDummyFile)
    }

    @Test func schemeBlockingOffIsReadFromTheLiveConfig() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        let mailto = try ShareRequest(channel: .openURL, url: ShareURL("mailto:a@example.com"))
        #expect(appConnect.share(mailto).outcome == .deny)
        device.push(.config([AppConfig.disableSchemeBlockingKey: "true"]))
        #expect(appConnect.share(mailto).rule.rawValue == "mailto.scheme-blocking-disabled")
    }

    @Test func theInfoPlistOverrideComesFromTheApp() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let appConnect = AppConnect(delegate: MinimalApp(), device: device, infoPlist: InfoPlistOverrides(disableSchemeBlocking: true))
        try appConnect.start(launchOptions: nil)
        device.checkIn()
        #expect(appConnect.share(try ShareRequest(channel: .openURL, url: ShareURL("mailto:a@example.com"))).outcome == .allow)
    }

    @Test func aBlockedAttemptReachesAnImplementingDelegate() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        let decision = appConnect.share(try Fixture.documentShare(to: Fixture.other))
        #expect(decision.callbacks == [.openInAttemptedWhenBlocked(.whitelist)])
        #expect(app.log.all.last == "openInBlocked whitelist")
        #expect(device.timeline.suffix(2) == [
            .share(try Fixture.documentShare(to: Fixture.other), decision),
            .callback(.openInAttemptedWhenBlocked(.whitelist), implemented: true),
        ])
    }

    @Test func aBlockedAttemptIsNotCalledOnADelegateWithoutTheMethod() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = MinimalApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        let before = device.acknowledgments
        let decision = appConnect.share(try ShareRequest(channel: .openURL, url: ShareURL("mailto:a@example.com")))
        #expect(decision.outcome == .deny)
        #expect(device.timeline.last == .callback(.openURLAttemptedWhenUnauthorized(try ShareURL("mailto:a@example.com")), implemented: false))
        #expect(device.acknowledgments == before, "a blocked attempt is not a change: nothing to acknowledge")
        #expect(app.log.all.last != "openURLBlocked mailto:a@example.com")
    }

    @Test func theDecisionUsesTheDevicesFacts() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let appConnect = try Fixture.readyLibrary(FullApp(), on: device)
        let mailto = try ShareRequest(channel: .openURL, url: ShareURL("mailto:a@example.com"))
        #expect(appConnect.share(mailto).outcome == .deny)
        try device.update(.emailPlusInstalled(true))
        #expect(appConnect.share(mailto).outcome == .redirect)
        #expect(appConnect.share(mailto).target == .emailPlus)
    }

    @Test func nothingIsEnforcedBeforeStartOrAfterStopAndAllIsBlockedBeforeReady() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let appConnect = AppConnect(delegate: FullApp(), device: device)
        let request = try Fixture.documentShare(to: Fixture.other)
        #expect(appConnect.share(request).rule.rawValue == "not-enforcing.allow")
        try appConnect.start(launchOptions: nil)
        #expect(!appConnect.isEnforcing)
        // Started in AppConnect Mode but not ready: no policy is known yet, so the runtime decides as UNAUTHORIZED.
        let early = appConnect.share(request)
        #expect(early.outcome == .substituteDummyFile)
        #expect(early.callbacks == [.openInAttemptedWhenBlocked(.unauthorized)])
        let listed = try Fixture.documentShare(to: Fixture.viewer)
        #expect(appConnect.share(listed).outcome == .substituteDummyFile)
        device.checkIn()
        #expect(appConnect.isEnforcing)
        #expect(appConnect.share(request).outcome == .substituteDummyFile)
        try appConnect.stop()
        #expect(!appConnect.isEnforcing)
        #expect(appConnect.share(request).rule.rawValue == "not-enforcing.allow")
    }

    @Test func theDragAndDropPolicyComesFromTheServer() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        let drag = try ShareRequest(channel: .dragAndDrop, target: Fixture.viewer)
        #expect(appConnect.share(drag).outcome == .allow)
        device.push(.dragAndDropPolicy(.appConnect))  // the viewer is not an AppConnect app
        #expect(appConnect.share(drag).outcome == .deny)
        #expect(app.log.all.last == "dragBlocked")
    }

    @Test(arguments: [(ACPasteboardPolicy.unauthorized, CopyOutcome.blocked), (.authorized, .allowed), (.secureCopy, .secureCopy)])
    func copyFollowsThePasteboardPolicy(_ policy: ACPasteboardPolicy, _ outcome: CopyOutcome) throws {
        let device = SimulatedDevice(server: ServerState(pasteboardPolicy: policy))
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        #expect(appConnect.copyToPasteboard() == outcome)
        #expect((app.log.all.last == "copyBlocked unauthorized") == (outcome == .blocked))
    }

    /// AppConnectInterface.h: under SECURECOPY, "When secure services are not available, writing to the general pasteboard will fail".
    @Test func secureCopyFailsWithoutSecureServices() throws {
        let device = SimulatedDevice(server: ServerState(pasteboardPolicy: .secureCopy))
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        #expect(appConnect.copyToPasteboard() == .secureCopy)
        device.push(.secureServicesAvailability(.unavailable))
        let before = app.log.all.count
        #expect(appConnect.copyToPasteboard() == .failed)
        #expect(app.log.all.count == before, "a failed secure copy calls no callback")
        device.push(.pasteboardPolicy(.authorized))
        #expect(appConnect.copyToPasteboard() == .allowed, "only SECURECOPY needs secure services")
    }
}
