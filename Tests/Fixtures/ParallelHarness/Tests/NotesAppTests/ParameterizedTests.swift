import Testing

/// Cases of one parameterized test run in parallel too: each has its own harness.
@Suite struct ParameterizedTests {
    @Test(arguments: 1...12) func everyCase(number: Int) async throws { try await exercise("case-\(number)") }
}
