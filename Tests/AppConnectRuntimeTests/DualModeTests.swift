import AppConnectRuntime
import Foundation
import OpenInPolicy
import Testing

/// AppConnect for iOS SDK Developer Guide: Dual-mode API details: every numbered step of the three call sequences.
@Suite struct DualModeTests {
    /// A dual-mode app on a device, with its store and what the controller reported.
    struct Harness {
        let device: SimulatedDevice
        let store: InMemoryDualModeStore
        let controller: DualModeController
        let events = EventLog()

        init(stored: DualModeRecord? = nil, server: ServerState = Fixture.whitelistedServer, client: IvantiClient = .installed) {
            device = SimulatedDevice(server: server, ivantiClient: client)
            store = InMemoryDualModeStore(stored)
            let events = self.events
            controller = DualModeController(device: device, store: store, delegate: MinimalApp(), onEvent: { events.append($0) })
        }

        /// The library calls and dual-mode events in the device's timeline, in order.
        var steps: [TimelineEvent] {
            device.timeline.filter {
                switch $0 {
                case .call, .dualMode: true
                default: false
                }
            }
        }

        func unlistedShare() throws -> Decision { controller.share(try Fixture.documentShare(to: Fixture.other)) }
    }

    /// What the controller reported to the app, in order.
    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [DualModeEvent] = []

        func append(_ event: DualModeEvent) {
            lock.lock()
            events.append(event)
            lock.unlock()
        }

        var all: [DualModeEvent] {
            lock.lock()
            defer { lock.unlock() }
            return events
        }
    }

    // MARK: API call sequence when the app launches

    @Test("Launch 1: the first launch is Undecided and Unencrypted, nothing persisted yet")
    func launchStep1FirstLaunch() throws {
        let harness = Harness()
        try harness.controller.launch()
        #expect(harness.steps.first == .dualMode(.loaded(DualModeRecord(state: .undecided, dataEncryption: .unencrypted), persisted: false)))
        #expect(harness.controller.state == .undecided)
        #expect(harness.controller.dataEncryption == .unencrypted)
        #expect(harness.store.saved == nil)
    }

    @Test("Launch 1: a later launch gets the persisted states")
    func launchStep1PersistedStates() throws {
        let stored = DualModeRecord(state: .appConnectMode, dataEncryption: .encrypted)
        let harness = Harness(stored: stored)
        try harness.controller.launch()
        #expect(harness.steps.first == .dualMode(.loaded(stored, persisted: true)))
        #expect(harness.controller.state == .appConnectMode)
        #expect(harness.controller.dataEncryption == .encrypted)
    }

    @Test("Launch 2: in Non-AppConnect Mode the library is not started, shouldStartAppConnect not even asked")
    func launchStep2NonAppConnectMode() throws {
        let harness = Harness(stored: DualModeRecord(state: .nonAppConnectMode))
        try harness.controller.launch()
        #expect(harness.steps == [.dualMode(.loaded(DualModeRecord(state: .nonAppConnectMode), persisted: true))])
        #expect(harness.controller.appConnect == nil)
    }

    @Test("Launch 2: otherwise the library starts when shouldStartAppConnect says YES")
    func launchStep2Starts() throws {
        let harness = Harness()
        try harness.controller.launch(launchOptions: ["UIApplicationLaunchOptionsURLKey": "notes://"])
        #expect(harness.steps.dropFirst() == [
            .call(.shouldStartAppConnect(true)),
            .call(.start(launchOptions: ["UIApplicationLaunchOptionsURLKey": "notes://"])),
        ])
        #expect(harness.controller.appConnect != nil)
    }

    @Test("Launch 2: Undecided without the Ivanti client becomes AppConnect Not Available, persisted")
    func launchStep2NotAvailable() throws {
        let harness = Harness(client: .notInstalled)
        try harness.controller.launch()
        #expect(harness.steps.dropFirst() == [
            .call(.shouldStartAppConnect(false)),
            .dualMode(.stateChanged(.appConnectNotAvailable)),
        ])
        #expect(harness.store.saved == DualModeRecord(state: .appConnectNotAvailable))
    }

    @Test("Launch 3: not started, the app continues as a regular app in the state it had",
          arguments: [DualModeState.nonAppConnectMode, .appConnectNotAvailable, .pendingAppConnectMode])
    func launchStep3RegularApp(_ state: DualModeState) throws {
        let harness = Harness(stored: DualModeRecord(state: state), client: .notInstalled)
        try harness.controller.launch()
        #expect(harness.controller.appConnect == nil)
        #expect(harness.controller.state == state)
        #expect(!harness.controller.isEnforcing)
        #expect(try harness.unlistedShare().rule.rawValue == "not-enforcing.allow")
    }

    @Test("Launch 4: started in AppConnect Mode, the app waits for ready and then behaves as an AppConnect app",
          arguments: [DataEncryptionState.encrypted, .unencrypted])
    func launchStep4AppConnectMode(_ encryption: DataEncryptionState) throws {
        // Secure file I/O optional: nothing makes the app change its data encryption state.
        var server = Fixture.whitelistedServer
        server.secureFileIOPolicy = .optional
        let harness = Harness(stored: DualModeRecord(state: .appConnectMode, dataEncryption: encryption), server: server)
        try harness.controller.launch()
        let appConnect = try #require(harness.controller.appConnect)
        #expect(throws: ACPropertyAccessException.self) { try appConnect.openInPolicy }
        // Before ready the library holds no policy yet: the runtime fails closed.
        #expect(try harness.unlistedShare().outcome == .substituteDummyFile)
        harness.device.checkIn()
        #expect(harness.controller.isEnforcing)
        #expect(try harness.unlistedShare().outcome == .substituteDummyFile)
        #expect(harness.controller.usesSecureFileIO == (encryption == .encrypted))
        #expect(harness.controller.state == .appConnectMode)
    }

    @Test("Launch 5: waiting in another state, MANAGED changes to AppConnect Mode, persisted",
          arguments: [nil, DualModeState.appConnectNotAvailable, .pendingAppConnectMode])
    func launchStep5Managed(_ state: DualModeState?) throws {
        let harness = Harness(stored: state.map { DualModeRecord(state: $0) })
        try harness.controller.launch()
        #expect(!harness.controller.isEnforcing)
        harness.device.checkIn()
        #expect(harness.controller.state == .appConnectMode)
        #expect(harness.store.saved?.state == .appConnectMode)
        #expect(harness.controller.isEnforcing)
        // Secure services are available and the server requires secure file I/O: the data becomes Encrypted.
        #expect(harness.store.saved?.dataEncryption == .encrypted)
        #expect(harness.controller.usesSecureFileIO)
        #expect(try harness.unlistedShare().outcome == .substituteDummyFile)
    }

    @Test("Launch 5: MANAGED without secure services leaves the data Unencrypted")
    func launchStep5ManagedWithoutSecureServices() throws {
        var server = Fixture.whitelistedServer
        server.secureServicesAvailability = .unavailable
        let harness = Harness(server: server)
        try harness.controller.launch()
        harness.device.checkIn()
        #expect(harness.controller.state == .appConnectMode)
        #expect(harness.controller.dataEncryption == .unencrypted)
        harness.device.push(.secureServicesAvailability(.available))
        #expect(harness.controller.dataEncryption == .encrypted)
    }

    @Test("Launch 5: UNMANAGED changes to Non-AppConnect Mode, persisted, then retire and stop")
    func launchStep5Unmanaged() throws {
        var server = Fixture.whitelistedServer
        server.managedPolicy = .unmanaged
        let harness = Harness(server: server)
        try harness.controller.launch()
        harness.device.checkIn()
        #expect(harness.steps.suffix(3) == [.dualMode(.stateChanged(.nonAppConnectMode)), .call(.retire), .call(.stop)])
        #expect(harness.store.saved == DualModeRecord(state: .nonAppConnectMode))
        #expect(harness.controller.appConnect == nil)
        #expect(try harness.unlistedShare().rule.rawValue == "not-enforcing.allow")
    }

    // MARK: API call sequence when user requests Non-AppConnect Mode

    /// A dual-mode app running in AppConnect Mode with Encrypted data.
    func inAppConnectMode() throws -> Harness {
        let harness = Harness(stored: DualModeRecord(state: .appConnectMode, dataEncryption: .encrypted))
        try harness.controller.launch()
        harness.device.checkIn()
        return harness
    }

    /// The steps a request for Non-AppConnect Mode adds to the timeline of an app in AppConnect Mode.
    func nonAppConnectRequestSteps() throws -> (harness: Harness, steps: [TimelineEvent]) {
        let harness = try inAppConnectMode()
        let before = harness.steps.count
        harness.controller.requestNonAppConnectMode()
        return (harness, Array(harness.steps.dropFirst(before)))
    }

    @Test("Non-AppConnect request 1: the app performs its retire actions first")
    func nonAppConnectRequestStep1() throws {
        let (harness, steps) = try nonAppConnectRequestSteps()
        #expect(steps.prefix(2) == [.dualMode(.switchRequested(.nonAppConnectMode)), .dualMode(.retireActions)])
        #expect(harness.events.all.contains(.retireActions), "the app hears of its retire actions")
    }

    @Test("Non-AppConnect request 2: then the data encryption state becomes Unencrypted, persisted")
    func nonAppConnectRequestStep2() throws {
        let (harness, steps) = try nonAppConnectRequestSteps()
        #expect(steps.dropFirst(2).first == .dualMode(.dataEncryptionChanged(.unencrypted)))
        #expect(harness.store.saved?.dataEncryption == .unencrypted)
    }

    @Test("Non-AppConnect request 3: then the dual-mode state becomes Non-AppConnect Mode, persisted")
    func nonAppConnectRequestStep3() throws {
        let (harness, steps) = try nonAppConnectRequestSteps()
        #expect(steps.dropFirst(3).first == .dualMode(.stateChanged(.nonAppConnectMode)))
        #expect(harness.store.saved == DualModeRecord(state: .nonAppConnectMode, dataEncryption: .unencrypted))
    }

    @Test("Non-AppConnect request 4: then retire, and stop, on the library")
    func nonAppConnectRequestStep4() throws {
        let (harness, steps) = try nonAppConnectRequestSteps()
        #expect(Array(steps.dropFirst(4)) == [.call(.retire), .call(.stop)])
        #expect(harness.controller.appConnect == nil)
    }

    @Test("Non-AppConnect request 5: the app continues as a regular app, and the next launch does not start the library")
    func nonAppConnectRequestStep5() throws {
        let harness = try inAppConnectMode()
        harness.controller.requestNonAppConnectMode()
        #expect(harness.controller.appConnect == nil)
        #expect(try harness.unlistedShare().outcome == .allow)
        harness.device.terminateApp()
        let relaunched = DualModeController(device: harness.device, store: harness.store, delegate: MinimalApp())
        try relaunched.launch()
        #expect(relaunched.appConnect == nil)
        #expect(harness.device.timeline.last == .dualMode(.loaded(DualModeRecord(state: .nonAppConnectMode), persisted: true)))
    }

    // MARK: API call sequence when user requests AppConnect Mode

    /// A dual-mode app that went to Non-AppConnect Mode.
    func inNonAppConnectMode(server: ServerState = Fixture.whitelistedServer) throws -> Harness {
        let harness = Harness(stored: DualModeRecord(state: .nonAppConnectMode), server: server)
        try harness.controller.launch()
        return harness
    }

    @Test("AppConnect request 1: the state becomes Pending AppConnect Mode, persisted")
    func appConnectRequestStep1() throws {
        let harness = try inNonAppConnectMode()
        harness.controller.requestAppConnectMode()
        #expect(harness.steps.suffix(3).prefix(2) == [
            .dualMode(.switchRequested(.appConnectMode)),
            .dualMode(.stateChanged(.pendingAppConnectMode)),
        ])
        #expect(harness.store.saved?.state == .pendingAppConnectMode)
    }

    @Test("AppConnect request 2: then the library restarts, with nil launch options")
    func appConnectRequestStep2() throws {
        let harness = try inNonAppConnectMode()
        harness.controller.requestAppConnectMode()
        #expect(harness.steps.last == .call(.start(launchOptions: nil)))
        #expect(harness.controller.appConnect != nil)
    }

    @Test("AppConnect request 3: the app waits for the managed policy, enforcing nothing meanwhile")
    func appConnectRequestStep3() throws {
        let harness = try inNonAppConnectMode()
        harness.controller.requestAppConnectMode()
        #expect(harness.controller.state == .pendingAppConnectMode)
        #expect(!harness.controller.isEnforcing)
        #expect(try harness.unlistedShare().outcome == .allow)
    }

    @Test("AppConnect request, UNMANAGED: back to Non-AppConnect Mode, retire and stop, and the user hears it failed")
    func appConnectRequestUnmanaged() throws {
        var server = Fixture.whitelistedServer
        server.managedPolicy = .unmanaged
        let harness = try inNonAppConnectMode(server: server)
        harness.controller.requestAppConnectMode()
        harness.device.checkIn()
        #expect(harness.steps.suffix(4) == [
            .dualMode(.stateChanged(.nonAppConnectMode)),
            .call(.retire),
            .call(.stop),
            .dualMode(.switchFinished(.nonAppConnectMode, succeeded: false)),
        ])
        #expect(harness.store.saved?.state == .nonAppConnectMode)
        #expect(harness.controller.appConnect == nil)
    }

    @Test("AppConnect request, MANAGED: AppConnect Mode, Encrypted when secure services allow, and the user hears it worked")
    func appConnectRequestManaged() throws {
        let harness = try inNonAppConnectMode()
        harness.controller.requestAppConnectMode()
        harness.device.checkIn()
        #expect(harness.steps.suffix(3) == [
            .dualMode(.stateChanged(.appConnectMode)),
            .dualMode(.dataEncryptionChanged(.encrypted)),
            .dualMode(.switchFinished(.appConnectMode, succeeded: true)),
        ])
        #expect(harness.store.saved == DualModeRecord(state: .appConnectMode, dataEncryption: .encrypted))
        #expect(harness.controller.isEnforcing)
        #expect(harness.events.all.last == .switchFinished(.appConnectMode, succeeded: true))
    }

    @Test("AppConnect request, MANAGED while the auth state is RETIRED: the app performs its retire actions")
    func appConnectRequestManagedRetired() throws {
        var server = Fixture.whitelistedServer
        server.authState = .retired
        let harness = try inNonAppConnectMode(server: server)
        harness.controller.requestAppConnectMode()
        harness.device.checkIn()
        #expect(harness.steps.suffix(2) == [.dualMode(.retireActions), .dualMode(.switchFinished(.appConnectMode, succeeded: true))])
    }

    @Test("AppConnect request while the library runs is ignored")
    func appConnectRequestWhileRunning() throws {
        let harness = try inAppConnectMode()
        harness.controller.requestAppConnectMode()
        #expect(harness.steps.last == .dualMode(.switchIgnored("the library is running: the app is in AppConnect Mode already")))
        #expect(harness.controller.state == .appConnectMode)
    }

    @Test("Going back and forth: retire makes the restarted library call every callback again")
    func backAndForth() throws {
        let harness = try inAppConnectMode()
        harness.controller.requestNonAppConnectMode()
        harness.controller.requestAppConnectMode()
        harness.device.checkIn()
        let managed = Fixture.callbacks(harness.device).filter { $0.0.kind == .managedPolicyChanged }
        #expect(managed.count == 2, "once at launch, once after the restart")
        #expect(managed.allSatisfy { $0.1 }, "the controller implements appConnect:managedPolicyChangedTo:")
        #expect(harness.controller.state == .appConnectMode)
    }

    @Test("The app's own delegate still gets everything else, and what it lacks is acknowledged UNSUPPORTED")
    func forwarding() throws {
        let harness = try inAppConnectMode()
        let automatic = harness.device.acknowledgments.filter(\.automatic).map(\.kind)
        #expect(automatic == [.config, .openInPolicy, .openFromPolicy, .pasteboardPolicy, .printPolicy, .secureFileIOPolicy])
        #expect(harness.device.acknowledgments.first == Acknowledgment(.authState, .applied, message: "auth applied"))
    }
}

