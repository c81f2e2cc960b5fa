import Testing

/// A suite marked `.serialized`, as app teams write them: its tests run one at a time, while other
/// suites' tests run beside them.
@Suite(.serialized) struct ViewerTests {
    @Test func sharesToTheListedViewer() async throws { try await exercise("viewer-1") }
    @Test func sharesToTheViewerAfterAChange() async throws { try await exercise("viewer-2") }
    @Test func blocksAnUnlistedApp() async throws { try await exercise("viewer-3") }
}
