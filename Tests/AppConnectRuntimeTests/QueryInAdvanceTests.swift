import AppConnectRuntime
import OpenInPolicy
import Testing

/// The query-in-advance extensions (not in the SDK) answer as a share made now would be decided, and record nothing.
@Suite struct QueryInAdvanceTests {
    @Test func answersFollowTheCurrentPolicyAndRecordNothing() throws {
        let viewer = try BundleID("com.example.viewer")
        let device = SimulatedDevice(server: ServerState(openInPolicy: .whitelist, openInWhitelist: Whitelist([viewer])))
        let app = MinimalApp()
        let appConnect = AppConnect(delegate: app, device: device)
        try appConnect.start(launchOptions: nil)
        #expect(!appConnect.isOpenInAllowed(to: viewer), "started, not ready: fail closed")
        device.checkIn()
        let eventsBefore = device.timeline.count
        #expect(appConnect.isOpenInAllowed(to: viewer))
        #expect(!appConnect.isOpenInAllowed(to: try BundleID("com.example.other")))
        #expect(!appConnect.isURLAllowed(try ShareURL("mailto:a@example.com")))
        #expect(device.timeline.count == eventsBefore, "asking records nothing and calls no delegate method")
        #expect(appConnect.share(try ShareRequest(channel: .documentInteraction, target: viewer)).outcome == .allow)
        device.push(.openInPolicy(.authorized, whitelist: .empty))
        #expect(appConnect.isURLAllowed(try ShareURL("mailto:a@example.com")))
        let scanner = try BundleID("com.example.scanner")
        #expect(appConnect.isOpenFromAllowed(from: scanner) == appConnect.share(try ShareRequest(channel: .openFrom, source: scanner)).isAllowedOutcome,
                "asking in advance answers as the share decides")
        try appConnect.stop()
        #expect(appConnect.isOpenFromAllowed(from: scanner), "a stopped library enforces nothing")
    }
}

extension Decision {
    /// Whether the outcome is `allow`.
    var isAllowedOutcome: Bool { outcome == .allow }
}
