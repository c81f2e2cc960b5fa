internal import AppConnect

#if canImport(Testing)
    import Testing
#endif

/// The running test, as the test framework tells it: what the double uses to find the harness of the
/// test that runs a piece of app code (`DoubleWorld.Registry`).
enum RunningTest {
    /// Tells the double how to ask for the running test (once; later calls do nothing).
    static func install() { _ = installed }

    private static let installed: Bool = {
        #if canImport(Testing)
            DoubleWorld.Registry.testKey = { key() }
        #endif
        return true
    }()

    #if canImport(Testing)
        /// The running test, and for a parameterized test the running case: its cases run in parallel.
        /// Swift Testing gives a case no public identity; its reflection names its arguments (their IDs)
        /// and is the same in the tasks the case starts. Were it ever to stop telling cases apart, cases
        /// would still be told apart by the task that made each harness (`DoubleWorld.Registry`).
        @Sendable private static func key() -> AnyHashable? {
            guard let test = Test.current else { return nil }
            guard let testCase = Test.Case.current, testCase.isParameterized else { return AnyHashable(test.id) }
            return AnyHashable([AnyHashable(test.id), AnyHashable(String(reflecting: testCase))])
        }
    #endif

    /// The running test's name, for messages.
    static var name: String {
        #if canImport(Testing)
            if let test = Test.current { return test.name }
        #endif
        return "the running test"
    }
}
