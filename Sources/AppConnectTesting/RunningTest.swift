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
            DoubleWorld.Registry.testKey = { Test.current.map { AnyHashable($0.id) } }
        #endif
        return true
    }()

    /// The running test's name, for messages.
    static var name: String {
        #if canImport(Testing)
            if let test = Test.current { return test.name }
        #endif
        return "the running test"
    }
}
