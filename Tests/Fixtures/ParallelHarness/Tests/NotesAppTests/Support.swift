import AppConnect
import AppConnectTesting
import NotesApp
import Testing

/// One test's whole story, with pauses between the steps so that tests running at the same time
/// interleave: a harness whose server lists `viewer`, the app's launch, a policy change, shares.
/// Any mix-up between tests (the app reaching another test's double) fails an expectation.
func exercise(_ name: String) async throws {
    let viewer = "com.example.viewer.\(name)"
    let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: [viewer])], callbacks: .declaredByTheApp)
    let app = NotesDelegate()
    try await pause()
    app.launch()                       // the app's own AppConnect.initWith + start
    harness.checkIn()
    try await pause()
    #expect(ShareButton.canShare(to: viewer))
    #expect(!ShareButton.canShare(to: "com.example.other"))
    let second = "com.example.second.\(name)"
    try harness.push(.openInPolicy(.whitelist, whitelist: [viewer, second]))
    try await pause()
    #expect(ShareButton.canShare(to: second))
    #expect(app.whitelists == [[viewer], [viewer, second]])
    let blocked = try harness.share(channel: "document-interaction", target: "com.example.other")
    try await pause()
    #expect(!blocked.isAllowed)
    #expect(app.blockedShares == 1)
    #expect(AppConnect.sharedInstance()?.openInWhitelist == [viewer, second])
    #expect(harness.problems.isEmpty)
}

/// A short random pause: another test's steps can run in between.
func pause() async throws {
    try await Task.sleep(nanoseconds: UInt64.random(in: 1...5) * 1_000_000)
}
