/// The last `capacity` timeline events, with a count of every event ever recorded.
///
/// A long simulation (a test driving millions of shares) keeps a fixed amount
/// of memory: once full, each new event replaces the oldest.
struct EventRing: Sendable {
    /// How many events are kept, at most.
    let capacity: Int
    private var storage: [TimelineEvent] = []
    /// Where the oldest kept event is in `storage`, once it is full.
    private var head = 0
    /// How many events were ever recorded (kept or dropped).
    private(set) var recordedCount = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a timeline keeps at least one event")
        self.capacity = capacity
    }

    /// How many events were dropped to stay within ``capacity``.
    var droppedCount: Int { recordedCount - storage.count }

    /// Whether nothing is kept.
    var isEmpty: Bool { storage.isEmpty }

    mutating func append(_ event: TimelineEvent) {
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[head] = event
            head = (head + 1) % capacity
        }
        recordedCount += 1
    }

    /// The event recorded `number`-th (0-based, counting every event ever recorded), or `nil` once dropped.
    subscript(number: Int) -> TimelineEvent? {
        get {
            guard let position = position(of: number) else { return nil }
            return storage[position]
        }
        set {
            guard let position = position(of: number), let newValue else { return }
            storage[position] = newValue
        }
    }

    /// The kept events recorded at or after the `number`-th, oldest first.
    func events(since number: Int) -> [TimelineEvent] {
        let first = max(number, droppedCount)
        return (first..<recordedCount).compactMap { self[$0] }
    }

    /// Every kept event, oldest first.
    var events: [TimelineEvent] { Array(storage[head...] + storage[..<head]) }

    private func position(of number: Int) -> Int? {
        guard number >= droppedCount, number < recordedCount else { return nil }
        return (head + (number - droppedCount)) % capacity
    }
}
