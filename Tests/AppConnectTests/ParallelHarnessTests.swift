import AppConnect
import AppConnectTesting
import Foundation
import Testing

/// A delegate that keeps the whitelists the library announced.
final class WhitelistRecorder: NSObject, AppConnectDelegate, @unchecked Sendable {
    var whitelists: [Set<String>] = []
    func appConnectIsReady(_ appConnect: AppConnect) {}
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        appConnect.authStateApplied(.applied, message: nil)
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: ACOpenInPolicy, whitelist newWhitelist: Set<String>) {
        whitelists.append(newWhitelist)
        appConnect.openInPolicyApplied(.applied, message: nil)
    }
}

extension AppConnectDoubleTests {
    /// Tests that use the double run in parallel: 40 cases at once, each with its own whitelist, pausing
    /// between steps; the app's calls (`AppConnect.initWith`, `sharedInstance()`) reach each case's harness.
    @Suite struct ParallelHarnesses {
        @Test(arguments: 1...40) func eachTestReachesItsOwnHarness(number: Int) async throws {
            let viewer = "com.example.viewer\(number)"
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: [viewer])], callbacks: .declaredByTheApp)
            #expect(AppConnect.sharedInstance() == nil, "a new harness starts with no library, whatever other tests did")
            let app = WhitelistRecorder()
            try await Task.sleep(nanoseconds: UInt64(number % 5) * 1_000_000)
            AppConnect.initWith(app)
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            await Task.yield()
            #expect(harness.checkIn())
            try await Task.sleep(nanoseconds: UInt64(number % 3) * 1_000_000)
            #expect(AppConnect.sharedInstance()?.openInWhitelist == [viewer])
            #expect(app.whitelists == [[viewer]])
            // A task the test starts belongs to the test too.
            let seen = await Task { AppConnect.sharedInstance()?.openInWhitelist }.value
            #expect(seen == [viewer])
            #expect(harness.problems.isEmpty)
        }

        @Test func runNamesTheHarnessForCodeOutsideTheTestsTask() async throws {
            let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.detached"])], callbacks: .declaredByTheApp)
            harness.launch(WhitelistRecorder())
            // A detached task does not carry the running test; run(_:) tells the double whose code it is.
            nonisolated(unsafe) let unsafeHarness = harness
            let seen = await Task.detached { unsafeHarness.run { AppConnect.sharedInstance()?.openInWhitelist } }.value
            #expect(seen == ["com.example.detached"])
            #expect(harness.problems.isEmpty)
        }
    }
}
