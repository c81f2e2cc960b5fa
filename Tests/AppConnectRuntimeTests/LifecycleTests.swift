import AppConnectRuntime
import OpenInPolicy
import Testing

/// The library calls of the AppConnect for iOS SDK Developer Guide: Dual-mode API details: shouldStartAppConnect, stop, retire, and the log level.
@Suite struct LifecycleTests {
    @Test func theLogLevelIsStatusOnceStoppedAndLoggingStillWorks() throws {
        let device = SimulatedDevice(server: ServerState(logLevel: .debug))
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        #expect(appConnect.logLevel == .debug)
        appConnect.log(.verbose, "before stop")
        try appConnect.stop()
        #expect(appConnect.logLevel == .status)
        appConnect.log(.verbose, "filtered")
        appConnect.log(.warning, "logged")
        #expect(device.timeline.filter { if case .log = $0 { true } else { false } } == [
            .log(.verbose, "before stop", logged: true),
            .log(.verbose, "filtered", logged: false),
            .log(.warning, "logged", logged: true),
        ])
    }

    @Test func theLogLevelsHaveTheSDKHeadersOrder() {
        #expect(ACLogLevel.allCases.map(\.sdkName) == [
            "ACLOGLEVEL_ERROR", "ACLOGLEVEL_WARNING", "ACLOGLEVEL_STATUS",
            "ACLOGLEVEL_INFO", "ACLOGLEVEL_VERBOSE", "ACLOGLEVEL_DEBUG",
        ])
        #expect(ACLogLevel.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }

    @Test func theSDKRawValuesAreKept() {
        #expect(ACPolicyState.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(ACManagedPolicy.allCases.map(\.sdkName) == ["ACMANAGEDPOLICY_UNKNOWN", "ACMANAGEDPOLICY_UNMANAGED", "ACMANAGEDPOLICY_MANAGED"])
        #expect(ACAuthState.allCases.map(\.sdkName) == ["ACAUTHSTATE_UNAUTHORIZED", "ACAUTHSTATE_AUTHORIZED", "ACAUTHSTATE_RETIRED"])
        #expect(ACManagedPolicy(parsing: "2") == .managed)
        #expect(ACAuthState(parsing: "Retired") == .retired)
    }

    @Test func retireForgetsTheAppAndMakesTheManagedPolicyUnknown() throws {
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(FullApp(), on: device)
        try appConnect.retire()
        #expect(try appConnect.managedPolicy == .unknown)
        try appConnect.stop()
        // The library forgot what it delivered: the next start is like a first launch.
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        #expect(app.log.all == NotificationTests.everyChangeOnFirstLaunch.map {
            $0.hasPrefix("openIn ") ? "openIn unauthorized []" : $0
        })
    }

    /// AppConnectInterface.h, `-retire`: authState RETIRED with a message, and
    /// every other policy at its default; ours fail closed.
    @Test func retireResetsEveryPolicyToItsFailClosedDefault() throws {
        let other = try BundleID("com.example.other")
        let device = SimulatedDevice(server: ServerState(
            openInPolicy: .authorized, openFromPolicy: .whitelist, openFromWhitelist: Whitelist([other]),
            excludedAppleActivityTypes: ["com.apple.UIKit.activity.Print"],
            config: ["VPN_PASSWORD": "secret"], pasteboardPolicy: .authorized, printPolicy: .authorized,
            secureFileIOPolicy: .optional, logLevel: .debug, dragAndDropPolicy: .all))
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        let share = try ShareRequest(channel: "document-interaction", target: "com.example.other", document: "q3.pdf")
        #expect(appConnect.share(share).outcome == .allow)
        let callbacksBefore = app.log.all.count
        try appConnect.retire()
        #expect(try appConnect.authState == .retired)
        #expect(try appConnect.authMessage == ServerState.retiredMessage)
        #expect(try appConnect.managedPolicy == .unknown)
        #expect(try appConnect.config == [:])
        #expect(try appConnect.openInPolicy == .unauthorized)
        #expect(try appConnect.openInWhitelist == .empty)
        #expect(try appConnect.openFromPolicy == .unauthorized)
        #expect(try appConnect.openFromWhitelist == .empty)
        #expect(try appConnect.excludedAppleActivityTypes == [])
        #expect(try appConnect.pasteboardPolicy == .unauthorized)
        #expect(try appConnect.printPolicy == .unauthorized)
        #expect(try appConnect.secureFileIOPolicy == .required)
        #expect(appConnect.logLevel == .debug, "the log level is not a policy")
        #expect(appConnect.currentPolicy.dragAndDrop == nil)
        #expect(app.log.all.count == callbacksBefore, "retire calls no change callback")
        // Shares are decided under the defaults.
        #expect(appConnect.share(share).outcome == .substituteDummyFile)
        #expect(appConnect.copyToPasteboard() == .blocked)
        // The retired library takes nothing more from the server.
        device.push(.config(["VPN_PASSWORD": "again"]), .openInPolicy(.authorized, whitelist: .empty))
        #expect(try appConnect.config == [:])
        #expect(appConnect.share(share).outcome == .substituteDummyFile)
    }

    @Test func stopAndRetireNeedAStartedLibrary() throws {
        let appConnect = AppConnect(delegate: MinimalApp(), device: SimulatedDevice())
        #expect(throws: AppConnectError.notStarted("retire")) { try appConnect.retire() }
        #expect(throws: AppConnectError.notStarted("stop")) { try appConnect.stop() }
        try appConnect.start(launchOptions: nil)
        try appConnect.stop()
        #expect(throws: AppConnectError.stopped("stop")) { try appConnect.stop() }
    }

    @Test(arguments: [
        (IvantiClient.installed, false, true),
        (.installed, true, true),
        (.notInstalled, false, false),
        (.notInstalled, true, false),
        (.deleted, false, false),
        (.deleted, true, true),
    ])
    func shouldStartAppConnect(client: IvantiClient, ranManaged: Bool, expected: Bool) throws {
        let device = SimulatedDevice()
        if ranManaged {
            _ = try Fixture.readyLibrary(MinimalApp(), on: device)
            device.terminateApp()
        }
        try device.update(.ivantiClient(client))
        #expect(AppConnect.shouldStartAppConnect(on: device) == expected)
        #expect(device.timeline.last == .call(.shouldStartAppConnect(expected)))
    }

    @Test func aDeletedClientAfterRetireMeansDoNotStart() throws {
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        try appConnect.retire()
        try appConnect.stop()
        try device.update(.ivantiClient(.deleted))
        #expect(!AppConnect.shouldStartAppConnect(on: device))
    }

    @Test func theDeviceKeepsTheRunningInstanceAliveAndFreesItOnceStopped() throws {
        let device = SimulatedDevice()
        weak var released: AppConnect?
        do {
            released = try Fixture.readyLibrary(MinimalApp(), on: device)
        }
        #expect(released != nil, "a running library lives on, as the SDK's shared instance does until stop")
        try released?.stop()
        #expect(released == nil, "a stopped instance the app let go is freed")
        device.push(.printPolicy(.authorized))
        #expect(device.timeline.last == .server(.printPolicy(.authorized)))
    }
}
