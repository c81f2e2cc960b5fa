import AppConnect
import AppConnectTesting
import Foundation
import SDKSampleApp
import Testing

/// The guide's dual-mode flow, transliterated into the sample's `Policies`, through the harness.
extension AppConnectDoubleTests {
    @Suite struct DualModeSample {
        static func harness(_ changes: [AppConnectHarness.Change], ivantiClient: AppConnectHarness.IvantiClient) throws -> AppConnectHarness {
            let harness = try AppConnectHarness(changes, ivantiClient: ivantiClient)
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter {
                !$0.isRequired && $0 != .managedPolicyChanged
            })
            return harness
        }

        @Test func roundTripThroughAppConnectMode() throws {
            let harness = try Self.harness([.openInPolicy(.unauthorized, whitelist: [])], ivantiClient: .notInstalled)
            let store = MemoryStore()
            // 1. First launch without the Ivanti client: AppConnect Not Available, no library.
            var app = Policies(launchOptions: [:], store: store)
            #expect(app.state == .acNotAvailable && store.dualModeState == .acNotAvailable)
            #expect(AppConnect.sharedInstance() == nil)
            // 2. The client is installed; next launch starts the library, MANAGED → AppConnect Mode, Encrypted.
            harness.installIvantiClient()
            harness.quitApp()
            app = Policies(launchOptions: [:], store: store)
            #expect(AppConnect.sharedInstance() != nil)
            harness.checkIn()
            #expect(app.state == .acMode && store.dualModeState == .acMode)
            #expect(app.encrypted && store.encrypted)
            #expect(!(try harness.share(channel: "document-interaction", target: "com.example.dropbox", document: "notes.txt")).isAllowed)
            // 3. The user asks for Non-AppConnect Mode: retire, stop.
            app.switchToNonACMode()
            #expect(app.state == .nonACMode && !store.encrypted && app.retiredData)
            #expect(AppConnect.sharedInstance() == nil)
            #expect(try harness.share(channel: "document-interaction", target: "com.example.dropbox", document: "notes.txt").isAllowed)
            // 4. The next launch does not start the library.
            harness.quitApp()
            app = Policies(launchOptions: [:], store: store)
            #expect(AppConnect.sharedInstance() == nil)
            // 5. The user asks for AppConnect Mode: pending, restart with nil options, MANAGED → AppConnect Mode.
            app.attemptSwitchToACMode()
            #expect(store.dualModeState == .pendingACMode)
            harness.checkIn()
            #expect(app.state == .acMode && app.encrypted)
            #expect(app.notices == ["Now in AppConnect Mode"])
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func unmanagedRetiresAndStopsInsideTheCallback() throws {
            let harness = try Self.harness([.managedPolicy(.unmanaged)], ivantiClient: .installed)
            let store = MemoryStore()
            store.dualModeState = .nonACMode
            let app = Policies(launchOptions: nil, store: store)
            #expect(AppConnect.sharedInstance() == nil)
            app.attemptSwitchToACMode()
            harness.checkIn()
            #expect(app.state == .nonACMode && store.dualModeState == .nonACMode)
            #expect(app.appConnect == nil && AppConnect.sharedInstance() == nil)
            #expect(app.notices == ["AppConnect Mode is not available"])
            #expect(harness.timeline.contains("retire"))
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }

    @Suite struct Replays {
        static func scenario(_ name: String) throws -> String {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/scenarios/\(name)")
            return try String(contentsOf: url, encoding: .utf8)
        }

        @Test func simulateScenarioAgainstTheNotesApp() throws {
            let harness = try AppConnectHarness()
            harness.appDoesNotImplement(SampleApp.skipped)
            var app: NotesAppDelegate?
            let replay = try harness.replay(try Self.scenario("first-launch-whitelisted-app.scenario"),
                                            name: "first-launch-whitelisted-app.scenario") { options in
                let delegate = NotesAppDelegate()
                delegate.application(didFinishLaunchingWithOptions: [:])
                _ = options
                app = delegate
            }
            #expect(replay.skipped.count == 1, "the `app implements` profile")
            #expect(app?.openInTargets?.contains("com.example.viewer") == true)
            #expect(harness.misuses.map(\.call) == ["openInPolicy"], "the scenario reads a property before ready")
            #expect(replay.timeline.contains("openInAttemptedWhenACOpenInPolicyBlocked"))
            #expect(app?.alerts.count == 1)
        }

        @Test func dualModeScenarioAgainstPolicies() throws {
            let harness = try DualModeSample.harness([], ivantiClient: .installed)
            let store = MemoryStore()
            var app: Policies?
            let replay = try harness.replay(try Self.scenario("dual-mode-round-trip.scenario")) { options in
                app = Policies(launchOptions: options, store: store)
            }
            #expect(replay.skipped.filter { $0.contains("switch-mode") }.count == 2)
            #expect(app?.state == .acMode, "launch 2 reached AppConnect Mode; the switch-mode lines are the app's own UI")
        }

        @Test func malformedScenarioFailsWithItsLine() throws {
            let harness = try AppConnectHarness()
            #expect(throws: AppConnectHarness.HarnessError.self) {
                _ = try harness.replay("launch\nfrobnicate now\n") { _ in }
            }
        }
    }
}
