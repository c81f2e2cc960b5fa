import AppConnectRuntime
import OpenInPolicy
import Testing

/// AppConnect for iOS SDK Developer Guide, AppConnect-related notifications and AppConnect ready API details: change callbacks fire only on change; all on the first launch.
@Suite struct NotificationTests {
    static let everyChangeOnFirstLaunch = [
        "ready", "auth authorized", "managed managed", "config []", "openIn whitelist [\"com.example.viewer\"]",
        "openFrom unauthorized []", "pasteboard unauthorized", "print unauthorized", "secureServices available", "secureFileIO required", "logLevel status",
    ]

    @Test func theFirstLaunchCallsEveryChangeCallbackAfterReady() throws {
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: SimulatedDevice(server: Fixture.whitelistedServer))
        #expect(app.log.all == Self.everyChangeOnFirstLaunch)
    }

    @Test func aLaterLaunchWithNothingChangedCallsOnlyReady() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        _ = try Fixture.readyLibrary(FullApp(), on: device)
        device.terminateApp()
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        #expect(app.log.all == ["ready"])
    }

    @Test func aChangeWhileTheAppIsNotRunningArrivesAtTheNextLaunch() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        _ = try Fixture.readyLibrary(FullApp(), on: device)
        device.terminateApp()
        device.push(.printPolicy(.authorized))
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        #expect(app.log.all == ["ready", "print authorized"])
    }

    @Test func aPushOfTheSameValueCallsNothing() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        let before = app.log.all.count
        device.push(.openInPolicy(.whitelist, whitelist: Whitelist([Fixture.viewer])), .config([:]))
        #expect(app.log.all.count == before)
        device.push(.config(["k": "v"]))
        #expect(app.log.all.last == "config [\"k\"]")
        #expect(app.log.all.count == before + 1)
    }

    @Test func policyAndWhitelistChangeInOneCallback() throws {
        let device = SimulatedDevice(server: Fixture.whitelistedServer)
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        device.push(.openInPolicy(.whitelist, whitelist: Whitelist([Fixture.viewer, Fixture.other])))
        #expect(app.log.all.last == "openIn whitelist [\"com.example.other\", \"com.example.viewer\"]")
    }

    @Test func aPushBeforeReadyIsPartOfTheCheckIn() throws {
        let device = SimulatedDevice()
        let app = FullApp()
        let appConnect = AppConnect(delegate: app, device: device)
        try appConnect.start(launchOptions: nil)
        device.push(.openInPolicy(.authorized, whitelist: .empty))
        #expect(app.log.all.isEmpty)
        device.checkIn()
        #expect(app.log.all.contains("openIn authorized []"))
        #expect(app.log.all.filter { $0.hasPrefix("openIn ") }.count == 1)
    }

    @Test func theAppStateCallbacksFollowAppConnectsUI() throws {
        let device = SimulatedDevice()
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        try device.update(.appConnectUIShown)
        try device.update(.appConnectUIDismissed)
        #expect(app.log.all.suffix(2) == ["resign", "active"])
    }

    /// AppConnectInterface.h: applicationDidBecomeActiveFromAppConnect: "only occurs after" the app resigned active for AppConnect.
    @Test func becomingActiveOnlyFollowsResigning() throws {
        let device = SimulatedDevice()
        let app = FullApp()
        _ = try Fixture.readyLibrary(app, on: device)
        let before = app.log.all.count
        try device.update(.appConnectUIDismissed)
        #expect(app.log.all.count == before, "never resigned: nothing is called")
        try device.update(.appConnectUIShown)
        try device.update(.appConnectUIDismissed)
        try device.update(.appConnectUIDismissed)
        #expect(Array(app.log.all.dropFirst(before)) == ["resign", "active"])
    }

    /// "All AppConnect apps" follows the device: installing or removing an AppConnect app changes the whitelist.
    @Test func allAppConnectAppsFollowsTheDevicesApps() throws {
        let device = SimulatedDevice(server: ServerState(openInAllAppConnectApps: true),
                                     facts: try DeviceFacts(appConnectApps: [Fixture.viewer]))
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        #expect(try appConnect.openInPolicy == .whitelist)
        #expect(try appConnect.openInWhitelist == Whitelist([Fixture.viewer]))
        let share = try Fixture.documentShare(to: Fixture.other)
        #expect(appConnect.share(share).outcome == .substituteDummyFile)
        try device.update(.appConnectApps([Fixture.viewer, Fixture.other]))
        #expect(app.log.all.last == "openIn whitelist [\"com.example.other\", \"com.example.viewer\"]")
        #expect(try appConnect.openInWhitelist == Whitelist([Fixture.viewer, Fixture.other]))
        #expect(appConnect.share(share).outcome == .allow)
        #expect(device.server.openInWhitelist == Whitelist([Fixture.viewer, Fixture.other]))
        // An explicit whitelist does not follow the device.
        device.push(.openInPolicy(.whitelist, whitelist: Whitelist([Fixture.viewer])))
        let count = app.log.all.count
        try device.update(.appConnectApps([Fixture.other]))
        #expect(app.log.all.count == count)
        #expect(try appConnect.openInWhitelist == Whitelist([Fixture.viewer]))
    }

    @Test func aStoppedLibraryCallsNobody() throws {
        let device = SimulatedDevice()
        let app = FullApp()
        let appConnect = try Fixture.readyLibrary(app, on: device)
        try appConnect.stop()
        let before = app.log.all
        device.push(.printPolicy(.authorized))
        #expect(app.log.all == before)
    }

    @Test func callbacksQueuedBehindAStopAreDropped() throws {
        // A delegate that stops the library when the config changes: the callbacks after it never arrive.
        final class StoppingApp: AppConnectDelegate {
            let log = CallLog()
            func appConnectIsReady(_ appConnect: AppConnect) { log.append("ready") }
            func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {}
            func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
                log.append("config")
                try? appConnect.stop()
            }
            func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) { log.append("print") }
        }
        let app = StoppingApp()
        let device = SimulatedDevice()
        _ = try Fixture.readyLibrary(app, on: device)
        #expect(app.log.all == ["ready", "config"])
    }

    @Test func everySelectorIsTheSDKs() {
        #expect(DelegateCallback.Kind.allCases.map(\.selector) == [
            "appConnectIsReady:",
            "appConnect:authStateChangedTo:withMessage:",
            "appConnect:managedPolicyChangedTo:",
            "appConnect:configChangedTo:",
            "appConnect:openInPolicyChangedTo:whitelist:",
            "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:",
            "appConnect:openFromPolicyChangedTo:whitelist:",
            "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:",
            "appConnect:openURLAttemptedWhenUnauthorizedForURL:",
            "appConnectAttemptedDragAndDropToNonAppConnectApp:",
            "appConnect:pasteboardPolicyChangedTo:",
            "appConnect:copyAttemptedWhenUnauthorized:",
            "appConnect:printPolicyChangedTo:",
            "appConnect:secureServicesAvailabilityChangedTo:",
            "appConnect:secureFileIOPolicyChangedTo:",
            "appConnect:logLevelChangedTo:",
            "applicationWillResignActiveForAppConnect:",
            "applicationDidBecomeActiveFromAppConnect:",
        ])
        #expect(DelegateCallback.Kind.allCases.filter(\.isRequired) == [.isReady, .authStateChanged])
    }
}
