import AppConnectRuntime
import OpenInPolicy
import Testing

/// AppConnect for iOS SDK Developer Guide, AppConnect ready API details: gating of the instance properties, the ready callback, and `isReady`.
@Suite struct ReadyTests {
    static let gated = AppConnectProperty.allCases.filter(\.isGated)

    /// The guide's nine, and the three the SDK header adds (`openFromPolicy`,
    /// `openFromWhitelist`, `excludedAppleActivityTypes`), gated like the others.
    @Test func theGuidesNineAndTheHeadersThreeAreGated() {
        #expect(Set(Self.gated.map(\.rawValue)) == [
            "managedPolicy", "authState", "authMessage", "pasteboardPolicy", "openInPolicy",
            "openInWhitelist", "printPolicy", "secureFileIOPolicy", "config",
            "openFromPolicy", "openFromWhitelist", "excludedAppleActivityTypes",
        ])
    }

    @Test(arguments: ReadyTests.gated)
    func aGatedPropertyThrowsAfterStartUntilReady(_ property: AppConnectProperty) throws {
        let device = SimulatedDevice()
        let appConnect = AppConnect(delegate: MinimalApp(), device: device)
        try appConnect.start(launchOptions: [:])
        #expect(!appConnect.isReady)
        #expect(property.read(from: appConnect) == .failure(ACPropertyAccessException(property: property.rawValue, reason: .notReady)))
        device.checkIn()
        #expect(appConnect.isReady)
        #expect((try? property.read(from: appConnect).get()) != nil)
    }

    @Test func theExceptionIsNamedAsTheSDKNamesIt() throws {
        let appConnect = AppConnect(delegate: MinimalApp(), device: SimulatedDevice())
        #expect(throws: ACPropertyAccessException(property: "openInPolicy", reason: .notReady)) { try appConnect.openInPolicy }
        #expect(ACPropertyAccessException.name == "ACPropertyAccessException")
        #expect("\(ACPropertyAccessException(property: "config", reason: .notReady))".hasPrefix("ACPropertyAccessException: config"))
    }

    @Test func secureServicesAvailabilityIsReadableAtAnyTime() throws {
        let device = SimulatedDevice(server: ServerState(secureServicesAvailability: .unavailable))
        let appConnect = AppConnect(delegate: MinimalApp(), device: device)
        #expect(appConnect.secureServicesAvailability == .unavailable)
        try appConnect.start(launchOptions: nil)
        #expect(appConnect.secureServicesAvailability == .unavailable)
        device.push(.secureServicesAvailability(.available))
        #expect(appConnect.secureServicesAvailability == .available)
    }

    @Test func theReadyCallbackComesOnceAfterStart() throws {
        let device = SimulatedDevice()
        let app = MinimalApp()
        let appConnect = AppConnect(delegate: app, device: device)
        #expect(!device.checkIn(), "nothing was started, so nothing waits for a check-in")
        try appConnect.start(launchOptions: nil)
        #expect(app.log.all.isEmpty)
        #expect(device.checkIn())
        #expect(!device.checkIn())
        #expect(app.log.all.filter { $0 == "ready" }.count == 1)
        #expect(app.log.all.first == "ready")
    }

    @Test func readyStaysTrueAfterStopButThePropertiesAreGone() throws {
        let device = SimulatedDevice()
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: device)
        #expect(try appConnect.openInPolicy == .unauthorized)
        try appConnect.stop()
        #expect(appConnect.isReady)
        #expect(throws: ACPropertyAccessException(property: "openInPolicy", reason: .stopped)) { try appConnect.openInPolicy }
    }

    @Test func theValuesAreTheServersOnceReady() throws {
        let server = ServerState(authState: .unauthorized, authMessage: "locked", openInPolicy: .whitelist,
                                 openInWhitelist: Whitelist([Fixture.viewer]), config: ["k": "v"], pasteboardPolicy: .secureCopy,
                                 printPolicy: .authorized, secureFileIOPolicy: .optional)
        let appConnect = try Fixture.readyLibrary(MinimalApp(), on: SimulatedDevice(server: server))
        #expect(try appConnect.authState == .unauthorized)
        #expect(try appConnect.authMessage == "locked")
        #expect(try appConnect.managedPolicy == .managed)
        #expect(try appConnect.openInPolicy == .whitelist)
        #expect(try appConnect.openInWhitelist == Whitelist([Fixture.viewer]))
        #expect(try appConnect.config == ["k": "v"])
        #expect(try appConnect.pasteboardPolicy == .secureCopy)
        #expect(try appConnect.printPolicy == .authorized)
        #expect(try appConnect.secureFileIOPolicy == .optional)
    }

    @Test func startTwiceOrWhileAnotherRunsIsRefused() throws {
        let device = SimulatedDevice()
        let first = AppConnect(delegate: MinimalApp(), device: device)
        try first.start(launchOptions: nil)
        #expect(throws: AppConnectError.alreadyStarted) { try first.start(launchOptions: nil) }
        let second = AppConnect(delegate: MinimalApp(), device: device)
        #expect(throws: AppConnectError.anotherInstanceRunning) { try second.start(launchOptions: nil) }
        device.terminateApp()
        try second.start(launchOptions: nil)
        #expect(device.timeline.contains(.refused("startWithLaunchOptions:", .alreadyStarted)))
    }
}
