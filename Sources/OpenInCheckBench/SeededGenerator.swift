/// A deterministic pseudo-random generator (SplitMix64).
///
/// `bench` builds its corpus from a seed with this, not with the system's
/// generator, so the same seed gives the same requests on every machine and
/// with every Swift version: figures from two runs describe the same input.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (the high half of a 64×64-bit product: no division, a negligible bias).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(truncatingIfNeeded: UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    /// True `percent` times in a hundred.
    mutating func chance(percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty array.
    mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }
}
