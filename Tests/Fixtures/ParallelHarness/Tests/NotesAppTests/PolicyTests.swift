import Testing

@Suite(.serialized) struct PolicyTests {
    @Test func whitelistOne() async throws { try await exercise("policy-1") }
    @Test func whitelistTwo() async throws { try await exercise("policy-2") }
    @Test func whitelistThree() async throws { try await exercise("policy-3") }
    @Test func whitelistFour() async throws { try await exercise("policy-4") }
}

@Suite struct PolicyTestsInParallel {
    @Test func one() async throws { try await exercise("parallel-1") }
    @Test func two() async throws { try await exercise("parallel-2") }
    @Test func three() async throws { try await exercise("parallel-3") }
}
