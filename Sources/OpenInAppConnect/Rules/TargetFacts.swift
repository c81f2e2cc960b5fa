import OpenInCore
import OpenInFleet
import OpenInKit

/// One fact about a request's target (or an `open-url`'s handler) that an AppConnect rule may read:
/// the one statement of what the rules read of a target.
///
/// A sender's rules read a target only through these facts, each a question its prepared policy
/// answers; two targets with the same facts get the same decision but for the target's own ID,
/// which an allowed request names as its receiver. Each rule unit declares which facts it reads and
/// on which channels (``RuleUnit/targetReads``), and every fast path that decides a sender's request
/// once per kind of target (the fleet graph's rows, the hop finder, the matrix, fleet lint, the
/// translation's flow keys) keys its targets by the facts declared (``TargetFacts/read(on:)``), so a
/// new fact reaches all of them. `TargetFactsTests` decides random requests to targets with the same
/// declared facts, rule by rule and channel by channel, and fails when two decisions differ.
package enum TargetFact: Int, CaseIterable, Sendable {
    /// Whether the sender's Open In lists the target (``PreparedPolicy/lists(_:)``: its whitelist, with
    /// the Mail pair for native Mail; every target under AUTHORIZED, none under UNAUTHORIZED).
    case listed
    /// Whether the target is one of the device's AppConnect apps (``PreparedPolicy/isAppConnectApp(_:)``).
    case appConnectApp
    /// Whether the sender's server excludes the target from the share sheet
    /// (`excludedAppleActivityTypes`, ``PreparedPolicy/excludes(activity:)``).
    case excludedActivity
    /// Whether the target is the system keyboard (`com.apple.keyboard`).
    case systemKeyboard

    /// Whether the fact holds for `target` under the sender's `policy`.
    package func holds(for target: BundleID, under policy: PreparedPolicy) -> Bool {
        switch self {
        case .listed: policy.lists(target)
        case .appConnectApp: policy.isAppConnectApp(target)
        case .excludedActivity: policy.excludes(activity: target)
        case .systemKeyboard: target == .systemKeyboard
        }
    }

    /// Where a fast path finds the targets the fact holds for under one sender's `policy`, without asking
    /// every target: the same answer for every target, a list of IDs, or the device's (the same for every
    /// sender on one device, asked once per target).
    package func extent(under policy: PreparedPolicy) -> TargetExtent {
        switch self {
        case .listed:
            if let every = policy.listsEveryTarget { return .constant(every) }
            let whitelist = policy.openInWhitelist
            return .members(.whitelist(whitelist), shared: ObjectIdentifier(whitelist.list), nativeMail: whitelist.containsMailPair)
        case .appConnectApp, .systemKeyboard:
            return .device
        case .excludedActivity:
            guard policy.excludesActivities else { return .constant(false) }
            return .members(.ids(policy.policy.excludedActivityTypes), shared: nil, nativeMail: nil)
        }
    }
}

/// How a fast path finds the targets a ``TargetFact`` holds for under one sender's policy.
package enum TargetExtent {
    /// It holds for every target (`true`) or none.
    case constant(Bool)
    /// It holds for the targets `list` names, exactly; for native Mail, `nativeMail` when given (whatever
    /// `list` says of its two IDs). `shared` identifies a list many policies share, for a fast path to read it once
    /// (the list's IDs are made only as it is read).
    case members(TargetList, shared: ObjectIdentifier?, nativeMail: Bool?)
    /// It is the same for every sender on a device: ask ``TargetFact/holds(for:under:)`` once per target.
    case device
}

/// The IDs a ``TargetExtent/members(_:shared:nativeMail:)`` fact holds for: a whitelist (its IDs made as it is
/// read) or a list of IDs.
package enum TargetList: Sequence {
    case whitelist(Whitelist)
    case ids([BundleID])

    package func makeIterator() -> IndexingIterator<[BundleID]> {
        switch self {
        case .whitelist(let whitelist): whitelist.makeIterator()
        case .ids(let ids): ids.makeIterator()
        }
    }
}

/// A set of ``TargetFact``s: the facts a rule reads, or the facts that hold for a target (its kind).
package struct TargetFacts: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package init(_ fact: TargetFact) { rawValue = 1 << UInt8(fact.rawValue) }

    package init(_ facts: [TargetFact]) { rawValue = facts.reduce(0) { $0 | 1 << UInt8($1.rawValue) } }

    package static let listed = TargetFacts(.listed)
    package static let appConnectApp = TargetFacts(.appConnectApp)
    static let excludedActivity = TargetFacts(.excludedActivity)
    package static let systemKeyboard = TargetFacts(.systemKeyboard)

    /// Whether `fact` is in the set.
    package func has(_ fact: TargetFact) -> Bool { rawValue & 1 << UInt8(fact.rawValue) != 0 }

    /// The facts in the set, in ``TargetFact`` order.
    package var facts: [TargetFact] { TargetFact.allCases.filter(has) }

    /// The facts among `reading` that hold for `target` under the sender's `policy`: the target's kind.
    package static func of(_ target: BundleID, under policy: PreparedPolicy, reading: TargetFacts) -> TargetFacts {
        var kind = TargetFacts()
        for fact in reading.facts where fact.holds(for: target, under: policy) { kind.insert(TargetFacts(fact)) }
        return kind
    }

    /// The facts some rule reads of a target on `channel`: what the rule units declare (``RuleUnit/targetReads``).
    package static func read(on channel: Channel) -> TargetFacts { readByChannel[channel] ?? [] }

    /// The facts some rule reads of a target on any of `channels`.
    package static func read(on channels: [Channel]) -> TargetFacts { channels.reduce(TargetFacts()) { $0.union(read(on: $1)) } }

    private static let readByChannel: [Channel: TargetFacts] = {
        var read: [Channel: TargetFacts] = [:]
        for unit in RuleCatalog.units {
            for channel in unit.targetReads.channels { read[channel, default: []].formUnion(unit.targetReads.facts) }
        }
        return read
    }()
}

/// What one rule unit reads of a request's target: which ``TargetFact``s, on which channels (for `open-url`,
/// of the URL's handler). A unit that reads nothing of it (it decides without the target, or passes the
/// target on as the receiver) declares ``none``.
package struct TargetReads: Sendable {
    /// The facts read.
    package let facts: TargetFacts
    /// The channels whose requests the unit reads them of.
    package let channels: [Channel]

    package init(_ facts: TargetFacts, on channels: [Channel]) {
        self.facts = facts
        self.channels = channels
    }

    /// Reads nothing of the target.
    package static let none = TargetReads([], on: [])

    /// The facts read on `channel`.
    package func facts(on channel: Channel) -> TargetFacts { channels.contains(channel) ? facts : [] }
}
