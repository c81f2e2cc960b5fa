#if canImport(AllocationCounting)
import AllocationCounting
#endif

/// Counts Swift heap allocations around a piece of work (see `AllocationCounting.h`).
///
/// What it counts: every `swift_allocObject` — class instances and the storage
/// of arrays, strings, sets, dictionaries, closure contexts and boxes, which is
/// every heap allocation Swift code makes short of `UnsafeMutablePointer.allocate`
/// (the evaluator never calls it). It does not see `malloc` calls made by C code.
/// Only while no other thread runs Swift code (see `AllocationCounting.h`): `bench` is single-threaded.
enum AllocationCounter {
    /// How many allocations `body` made, or `nil` when the hook does not work in this build
    /// (a self-check that allocates one array must count at least one).
    static func count(_ body: () throws -> Void) rethrows -> Int? {
        #if canImport(AllocationCounting)
        guard works else {
            try body()
            return nil
        }
        openin_allocation_counting_start()
        try body()
        return Int(openin_allocation_counting_stop())
        #else
        // Built without the package's C target (the fuzz builds compile Sources/ with swiftc alone).
        try body()
        return nil
        #endif
    }

    #if canImport(AllocationCounting)
    /// Whether counting sees an allocation that certainly happens: one array that escapes to a global.
    static let works: Bool = {
        openin_allocation_counting_start()
        escaped = [Int](repeating: 1, count: 16)
        return openin_allocation_counting_stop() >= 1
    }()
    #endif

    nonisolated(unsafe) private static var escaped: [Int] = []
}
