import AppConnect
import AppConnectTesting
import NotesApp
import Testing

/// The app's code on the main actor, as a UIKit app's: the calls reach the test's own harness.
@MainActor @Suite struct MainActorTests {
    @Test func onTheMainActor() async throws { try await exercise("main-1") }

    @Test func aTaskTheTestStarts() async throws {
        let harness = try AppConnectHarness([.openInPolicy(.authorized, whitelist: [])], callbacks: .declaredByTheApp)
        let app = NotesDelegate()
        app.launch()
        harness.checkIn()
        // A Task the test starts inherits the test: the app's code in it reaches this harness.
        let canShare = await Task { @MainActor in
            try? await pause()
            return ShareButton.canShare(to: "com.example.anything")
        }.value
        #expect(canShare)
        #expect(harness.problems.isEmpty)
    }
}
