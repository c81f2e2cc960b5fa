import OpenInCore
import OpenInFleet
import OpenInKit

/// The impact of replacing one policy with another, before it reaches a device.
///
/// `PolicyDiff` evaluates both policies on every request class that can tell
/// them apart (see ``requestClasses(old:new:)``), counts the classes whose
/// decision changes in each group, and keeps the first ``sampleLimit`` of each
/// group. Because every request behaves like its class's representative, an
/// equivalent verdict (``DiffVerdict/equivalent``) means that no request at all
/// decides differently, and every reported change is a real request that does.
/// The verdict and the counts cover every class; the classes are walked one at
/// a time, so memory does not grow with the number of changes.
///
/// ```swift
/// let diff = PolicyDiff(old: current, new: proposed)
/// if diff.verdict != .equivalent {
///     for change in diff.changes(.newlyBlocked) { print(change.request.channel, change.old.outcome, "→", change.new.outcome) }
/// }
/// ```
public struct PolicyDiff: Sendable {
    /// How many changes each group keeps in ``changes``: the first 100 (the counts cover them all).
    public static let sampleLimit = 100

    /// The policy being replaced.
    public let old: Policy
    /// The policy replacing it.
    public let new: Policy
    /// How many request classes were compared.
    public let requestClassCount: Int
    /// The classes whose decision changes, in the order of ``requestClasses(old:new:)``:
    /// the first ``sampleLimit`` of each group (``count(_:)`` counts them all).
    public let changes: [DecisionChange]
    /// The channels beyond Open In that one policy can decide and the other cannot,
    /// because it does not set their control: there, requests go from error to decision
    /// or back, so the verdict is ``DiffVerdict/incomparable``.
    public let controlGaps: [ControlGap]
    /// Whether the new policy is equivalent, more or less permissive, or incomparable (over every class).
    public let verdict: DiffVerdict
    /// How many classes change, by group.
    private let counts: [DecisionChange.Kind: Int]

    /// Compares `old` and `new` on every request class.
    /// - Complexity: O(*n*) decisions, where *n* is the number of bundle IDs and
    ///   URL schemes the two policies name; memory O(*n*) for the IDs, not for the classes or the changes.
    public init(old: Policy, new: Policy) {
        self.old = old
        self.new = new
        let classes = Self.comparedClasses(old: old, new: new)
        let space = classes.space
        requestClassCount = classes.count
        let before = Evaluator(policy: old), after = Evaluator(policy: new)
        let kinds = DecisionChange.Kind.allCases
        var sample: [DecisionChange] = []
        var counts = [Int](repeating: 0, count: kinds.count), listed = [Int](repeating: 0, count: kinds.count)
        // Which directions occur, by case (a set of the enum hashed its name for every change).
        let directionCases = DecisionChange.Direction.allCases
        var seen = [Bool](repeating: false, count: directionCases.count)
        // The space's targets and schemes are in the order first met, not sorted (a sort of a million
        // IDs grew faster than the input): each family keeps, for each group, the changes that come
        // first in byte order, never more than twice what the group still lists, cut back as it goes.
        for family in classes.families {
            var kept = [[(index: Int, change: DecisionChange)]](repeating: [], count: kinds.count)
            func cut(_ group: Int) {
                let room = Self.sampleLimit - listed[group]
                kept[group].sort { space.precedes($0.index, $1.index, in: family) }
                if kept[group].count > room { kept[group].removeLast(kept[group].count - room) }
            }
            for index in 0..<family.count(in: space) {
                let request = family.request(index, in: space)
                guard let change = DecisionChange(request: request, old: before.decide(request), new: after.decide(request)) else { continue }
                let group = kinds.firstIndex(of: change.kind) ?? 0
                counts[group] += 1
                seen[directionCases.firstIndex(of: change.direction) ?? 0] = true
                let room = Self.sampleLimit - listed[group]
                guard room > 0 else { continue }
                kept[group].append((index, change))
                if kept[group].count >= 2 * room { cut(group) }
            }
            var fromFamily: [(index: Int, change: DecisionChange)] = []
            for group in kinds.indices where !kept[group].isEmpty {
                cut(group)
                listed[group] += kept[group].count
                fromFamily += kept[group]
            }
            sample += fromFamily.sorted { space.precedes($0.index, $1.index, in: family) }.map(\.change)
        }
        changes = sample
        var byKind: [DecisionChange.Kind: Int] = [:]
        for (group, kind) in kinds.enumerated() where counts[group] > 0 { byKind[kind] = counts[group] }
        self.counts = byKind
        controlGaps = ControlGap.between(old: old, new: new)
        verdict = controlGaps.isEmpty ? DiffVerdict(directionCases.indices.filter { seen[$0] }.map { directionCases[$0] }) : .incomparable
    }

    /// The listed changes in one group (at most ``sampleLimit``).
    public func changes(_ kind: DecisionChange.Kind) -> [DecisionChange] {
        changes.filter { $0.kind == kind }
    }

    /// How many request classes decide differently.
    public var changeCount: Int { counts.values.reduce(0, +) }

    /// How many request classes fall in `kind`, listed or not.
    public func count(_ kind: DecisionChange.Kind) -> Int { counts[kind] ?? 0 }

    /// How many request classes fall in `kind` but are not in ``changes``.
    public func omittedCount(_ kind: DecisionChange.Kind) -> Int { max(0, count(kind) - Self.sampleLimit) }

    /// The requests that can tell `old` and `new` apart: one per class of
    /// requests that both policies treat alike.
    ///
    /// The classes are every channel crossed with: each bundle ID either
    /// policy names (whitelist, AppConnect apps, Email+ IDs, scheme handlers),
    /// both Mail IDs, Email+ and one fresh unlisted ID for the channels with a
    /// target; `mailto`, `http`, `https`, each own or handled scheme of either
    /// policy and one fresh unhandled scheme for `open-url`; and one class each
    /// for `mail-link`, `mail-compose` and the activity view with and without
    /// a target, which decide without looking further.
    ///
    /// This builds them all (several per ID the policies name); ``init(old:new:)`` walks them one at a time instead.
    public static func requestClasses(old: Policy, new: Policy) -> [ShareRequest] {
        Array(comparedClasses(old: old, new: new, sorted: true))
    }

    /// The classes of the channels both policies can decide (a channel one policy cannot decide, its control
    /// not set, has no classes: see ``controlGaps``); their targets and schemes in byte order only when `sorted`.
    static func comparedClasses(old: Policy, new: Policy, sorted: Bool = false) -> RequestClassSequence {
        let all = RequestClasses.make(old: old, new: new, sorted: sorted)
        return RequestClassSequence(space: all.space, families: all.families.filter {
            old.missingKey(for: $0.channel) == nil && new.missingKey(for: $0.channel) == nil
        })
    }

    /// Decides each of `requests` under both policies and counts what would change.
    ///
    /// Use it to replay a real request log: the result says how many requests
    /// of the log would decide differently, in each group, and shows the first
    /// ``ReplaySummary/sampleLimit`` distinct requests of each group that do.
    /// Memory is bounded: counts and that sample, whatever the log's length.
    /// - Complexity: O(*m*) decisions for *m* requests; O(1) memory in *m*.
    public static func replay<S: Sequence>(old: Policy, new: Policy, requests: S) -> ReplaySummary where S.Element == ShareRequest {
        let before = Evaluator(policy: old), after = Evaluator(policy: new)
        var summary = ReplaySummary()
        // Only the sampled requests are indexed: at most `sampleLimit` per group.
        var index: [ReplaySummary.RequestKey: Int] = [:]
        var sampled: [DecisionChange.Kind: Int] = [:]
        for request in requests {
            summary.requestCount += 1
            if old.missingKey(for: request.channel) != nil || new.missingKey(for: request.channel) != nil {
                summary.undecidableCount += 1
                continue
            }
            guard let change = DecisionChange(request: request, old: before.decide(request), new: after.decide(request)) else { continue }
            let kind = change.kind
            summary.counts[kind, default: 0] += 1
            summary.directions.insert(change.direction)
            let key = ReplaySummary.RequestKey(request)
            if let position = index[key] {
                summary.changes[position].count += 1
            } else if sampled[kind, default: 0] < ReplaySummary.sampleLimit {
                sampled[kind, default: 0] += 1
                index[key] = summary.changes.count
                summary.changes.append(ReplaySummary.CountedChange(change: change, count: 1))
            }
        }
        return summary
    }
}

/// What replacing one policy with another does, in one word.
///
/// - ``equivalent``: no request decides differently.
/// - ``morePermissive``: some request is more permissive and none is less
///   permissive or changed without a direction.
/// - ``lessPermissive``: some request is less permissive and none is more
///   permissive or changed without a direction.
/// - ``incomparable``: anything else — some requests gain and others lose, or
///   a request keeps its outcome and UI but goes to another app.
///
/// See ``DecisionChange`` for the order.
public enum DiffVerdict: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No request decides differently.
    case equivalent
    /// Every change goes up the permissiveness order.
    case morePermissive = "more permissive"
    /// Every change goes down the permissiveness order.
    case lessPermissive = "less permissive"
    /// Changes go both ways, or some change has no direction.
    case incomparable

    /// The verdict for a set of changes given by their directions.
    public init<S: Sequence>(_ directions: S) where S.Element == DecisionChange.Direction {
        var seen: Set<DecisionChange.Direction> = []
        for direction in directions { seen.insert(direction) }
        switch seen {
        case []: self = .equivalent
        case [.morePermissive]: self = .morePermissive
        case [.lessPermissive]: self = .lessPermissive
        default: self = .incomparable
        }
    }

    public var description: String { rawValue }
}

/// What a replayed request log would see change: counts over the whole log, and a bounded sample of the changes.
public struct ReplaySummary: Sendable, Hashable {
    /// How many distinct changed requests each group keeps in ``changes``: the first 100.
    /// The counts cover every request; the sample is what the reports show.
    public static let sampleLimit = 100

    /// How many requests were replayed.
    public internal(set) var requestCount = 0
    /// How many replayed requests one policy or both cannot decide (a channel whose
    /// control is not set); they are not compared.
    public internal(set) var undecidableCount = 0
    /// A sample of the distinct requests that decide differently (same channel,
    /// target and URL; the document may vary): the first ``sampleLimit`` of each
    /// group, in order of first appearance, with how many times each occurs.
    /// A request first seen after its group's sample is full is counted in
    /// ``count(_:)`` and ``omittedCount(_:)``, not listed.
    public internal(set) var changes: [CountedChange] = []
    /// How many replayed requests fall in each group.
    package var counts: [DecisionChange.Kind: Int] = [:]
    /// The directions of every change, listed or not.
    var directions: Set<DecisionChange.Direction> = []

    /// How many replayed requests decide differently.
    public var changedCount: Int { counts.values.reduce(0, +) }

    /// How many replayed requests fall in `kind`.
    public func count(_ kind: DecisionChange.Kind) -> Int { counts[kind] ?? 0 }

    /// How many replayed requests fall in `kind` but are not counted by a change in ``changes`` (the sample was full).
    public func omittedCount(_ kind: DecisionChange.Kind) -> Int {
        count(kind) - changes.reduce(0) { $0 + ($1.change.kind == kind ? $1.count : 0) }
    }

    /// The verdict over the log: as ``PolicyDiff/verdict``, but only for the requests replayed (every one, sampled or not).
    public var verdict: DiffVerdict { DiffVerdict(directions) }

    /// A change, with how many replayed requests it stands for.
    public struct CountedChange: Sendable, Hashable {
        /// The first request of its kind in the log, and its two decisions.
        public let change: DecisionChange
        /// How many requests of the log are this request (up to the document).
        public internal(set) var count: Int
    }

    /// A request up to its document.
    struct RequestKey: Hashable {
        package let channel: Channel
        package let target: BundleID?
        package let url: ShareURL?

        package init(_ request: ShareRequest) {
            channel = request.channel
            target = request.target
            url = request.url
        }
    }
}

/// A channel beyond Open In that one policy of a diff can decide and the other cannot.
public struct ControlGap: Sendable, Hashable {
    /// The channel (`open-from`, `copy` or `print`).
    public let channel: Channel
    /// The policy key the undecided side lacks.
    public let missingKey: String
    /// Whether the old policy lacks it (else the new one does).
    public let missingInOld: Bool

    /// The gaps between `old` and `new`, in channel order.
    static func between(old: Policy, new: Policy) -> [ControlGap] {
        Channel.allCases.compactMap { channel in
            switch (old.missingKey(for: channel), new.missingKey(for: channel)) {
            case (let key?, nil): ControlGap(channel: channel, missingKey: key, missingInOld: true)
            case (nil, let key?): ControlGap(channel: channel, missingKey: key, missingInOld: false)
            default: nil
            }
        }
    }
}
