import OpenInPolicy

/// What happened during a scenario run, each event tied to the scenario line
/// that caused it, with a summary: rendered as text (``text``) or JSON (``json``).
public struct Timeline: Sendable, Hashable {
    /// One event and the scenario line that caused it.
    public struct Entry: Sendable, Hashable {
        /// The 1-based line of the scenario statement that caused the event.
        public let line: Int
        /// What happened.
        public let event: TimelineEvent

        /// Creates an entry.
        public init(line: Int, event: TimelineEvent) {
            self.line = line
            self.event = event
        }
    }

    /// The scenario's name, as given to the runner (usually its path).
    public let scenario: String
    /// The events, in order.
    public let entries: [Entry]
    /// The acknowledgments the library still waited for at the end.
    public let awaitedAcknowledgments: [AcknowledgmentKind]

    /// Creates a timeline.
    public init(scenario: String, entries: [Entry], awaitedAcknowledgments: [AcknowledgmentKind] = []) {
        self.scenario = scenario
        self.entries = entries
        self.awaitedAcknowledgments = awaitedAcknowledgments
    }

    /// The decisions on share requests, in order.
    public var decisions: [Decision] {
        entries.compactMap { entry in
            if case .share(_, let decision) = entry.event { return decision }
            return nil
        }
    }

    /// How many share requests were not allowed (any outcome but `allow`).
    public var sharesNotAllowed: Int { decisions.filter { $0.outcome != .allow }.count }

    /// Whether every share request was allowed (`simulate` exits 0, else 2).
    public var everyShareAllowed: Bool { sharesNotAllowed == 0 }

    /// The closing summary line: `3 shares, 1 not allowed`.
    var summary: String {
        let shares = decisions.count
        return "\(shares) share\(shares == 1 ? "" : "s"), \(sharesNotAllowed) not allowed"
    }
}
