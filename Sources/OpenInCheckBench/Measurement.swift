/// Timing for `bench`: rounds of work, summarised as median and range.
enum Stopwatch {
    /// How long `body` takes, in seconds, by the monotonic clock.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return (clock.now - start).seconds
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}

/// Several measurements of one quantity: the median says what to expect, min and max how much it moved.
struct Summary: Sendable, Equatable {
    /// The middle value (the mean of the two middle values for an even count).
    let median: Double
    /// The smallest value.
    let min: Double
    /// The largest value.
    let max: Double
    /// How many values.
    let count: Int

    /// Summarises `values` (at least one).
    init(_ values: [Double]) {
        precondition(!values.isEmpty, "a summary needs at least one value")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
        count = sorted.count
    }
}
