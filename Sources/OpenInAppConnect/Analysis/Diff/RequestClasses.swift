import OpenInCore
import OpenInFleet
import OpenInKit

/// The finite set of requests that can tell two policies apart.
///
/// The evaluator never looks at a request's strings as such; it asks a few
/// questions about them, and two requests that get the same answers under both
/// policies get the same decisions (up to the request's own target, URL and
/// document, which both policies echo alike). So one representative of every
/// combination of answers is enough:
///
/// - **Targets** are read only through exact membership: in either whitelist,
///   in either device's AppConnect apps, and whether the ID is one of the Mail
///   pair. Every ID in any of those sets, both Mail IDs, Email+'s IDs and the
///   scheme handlers of both policies each get a class, and one fresh ID in
///   none of them stands for every other app (a case variant such as
///   `com.apple.MobileMail` is just another unlisted ID).
/// - **URLs** are read only through their lowercased scheme: is it `mailto`,
///   one of the app's own schemes, `http`/`https`, and which app handles it.
///   `mailto`, both web schemes, every own or handled scheme of either policy,
///   and one fresh scheme that neither policy knows each get a class.
/// - **Channels**: every channel. The activity view decides without looking
///   at its target, and `mail-link`/`mail-compose` without looking at the
///   URL; they get a class each (the activity view with and without a target).
/// - **Documents** only feed the dummy file name, which is a function of the
///   request alone, so both policies make the same one.
///
/// Everything else a decision reads (status, config, Info.plist override,
/// Email+ installed, drag-and-drop policy, enforcing) belongs to the policy
/// and is the same for every request.
package enum RequestClasses {
    /// The URL a class of `open-url` uses for `scheme`.
    static func sampleURL(scheme: String) -> ShareURL {
        let text = switch scheme {
        case "mailto": "mailto:someone@example.com"
        case "http", "https": "\(scheme)://example.com/"
        default: "\(scheme)://share"
        }
        do { return try ShareURL(text) } catch { preconditionFailure("built-in sample URL \(text) is invalid: \(error)") }
    }

    /// Every request class for `old` and `new`, by channel, then target or scheme, with the fresh ID
    /// and the fresh scheme last; within a family the targets and schemes are in the order first met,
    /// or, when `sorted`, in byte order (``RequestSpace/precedes(_:_:in:)`` is that order either way).
    ///
    /// The classes come from the rule units (``RuleCatalog/units``), each for the channels it owns,
    /// as families walked one request at a time: they are never all built at once. ``PolicyDiff`` walks
    /// them unsorted and keeps the first changes in byte order as it goes: sorting a million IDs was
    /// the part of `diff` that grew faster than its input.
    static func make(old: Policy, new: Policy, sorted: Bool = false) -> RequestClassSequence {
        let excluded = Set(old.excludedActivityTypes + new.excludedActivityTypes).sorted()
        var space = RequestSpace(targets: targets(old, new), schemes: schemes(old, new), excludedActivities: excluded)
        if sorted { space = space.sorted() }
        var seen: Set<RequestClassFamily> = []
        let families = RuleCatalog.units.flatMap { $0.requestClasses(space) }.filter { seen.insert($0).inserted }
        let order = Dictionary(uniqueKeysWithValues: Channel.allCases.enumerated().map { ($1, $0) })
        // A stable sort: within a channel, the units' order.
        let sorted = families.enumerated().sorted { lhs, rhs in
            let (left, right) = (order[lhs.element.channel] ?? 0, order[rhs.element.channel] ?? 0)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        return RequestClassSequence(space: space, families: sorted)
    }

    /// Every ID either policy names, the Mail pair and Email+, each once in the order first met, then
    /// one fresh unlisted ID.
    /// - Complexity: O(*n*) for the *n* IDs named: a table of their stored hashes, no `Set` and no sort.
    package static func targets(_ old: Policy, _ new: Policy) -> [BundleID] {
        var known = BundleIDDeduplicator()
        for id in [BundleID.mailActivity, .mobileMail, .emailPlus] { known.add(id) }
        for policy in [old, new] {
            for id in policy.whitelist.members { known.add(id) }
            for id in policy.device.appConnectApps { known.add(id) }
            for id in policy.device.emailPlusBundleIDs { known.add(id) }
            for id in policy.device.schemeHandlers.values { known.add(id) }
            for id in policy.openFrom?.whitelist.members ?? [] { known.add(id) }
        }
        return known.ids + [freshID { (try? BundleID($0)).map(known.contains) ?? false }]
    }

    /// `mailto`, `http`, `https`, every own or handled scheme of either policy (in no set order), then one fresh scheme.
    package static func schemes(_ old: Policy, _ new: Policy) -> [String] {
        var known: Set<String> = ["http", "https"]
        for policy in [old, new] {
            known.formUnion(policy.app.urlSchemes)
            known.formUnion(policy.device.schemeHandlers.keys)
        }
        known.remove("mailto")
        return ["mailto"] + Array(known) + [freshName(avoiding: known.contains, base: "x-unhandled")]
    }

    /// `base`, or `base-2`, `base-3`… : the first that is not in `taken`.
    private static func freshName(avoiding taken: (String) -> Bool, base: String) -> String {
        var candidate = base
        var suffix = 2
        while taken(candidate) {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// An ID no policy names: it stands for every other app.
    private static func freshID(avoiding taken: (String) -> Bool) -> BundleID {
        let text = freshName(avoiding: taken, base: "com.example.unlisted-app")
        do { return try BundleID(text) } catch { preconditionFailure("fresh bundle ID \(text) is invalid: \(error)") }
    }

}

/// Bundle IDs each kept once, in the order first added: an open-addressing table of the IDs'
/// stored hashes (no `Hasher`, no sort), for the million IDs two large policies can name.
struct BundleIDDeduplicator {
    /// The IDs, each once, in the order first added.
    private(set) var ids: [BundleID] = []
    /// Each slot's position in ``ids`` plus one; 0 when free.
    private var slots = [Int32](repeating: 0, count: 16)
    /// Each slot's hash (read before the ID is).
    private var hashes = [UInt64](repeating: 0, count: 16)

    /// Adds `id` unless it is already in.
    package mutating func add(_ id: BundleID) {
        if ids.count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: id.storedHash) & mask
        while slots[slot] != 0 {
            if hashes[slot] == id.storedHash, ids[Int(slots[slot]) - 1] == id { return }
            slot = (slot + 1) & mask
        }
        ids.append(id)
        slots[slot] = Int32(ids.count)
        hashes[slot] = id.storedHash
    }

    /// Whether `id` was added.
    package func contains(_ id: BundleID) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: id.storedHash) & mask
        while slots[slot] != 0 {
            if hashes[slot] == id.storedHash, ids[Int(slots[slot]) - 1] == id { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let capacity = slots.count * 2, mask = capacity - 1
        var slots = [Int32](repeating: 0, count: capacity), hashes = [UInt64](repeating: 0, count: capacity)
        for (position, id) in ids.enumerated() {
            var slot = Int(truncatingIfNeeded: id.storedHash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position + 1)
            hashes[slot] = id.storedHash
        }
        self.slots = slots
        self.hashes = hashes
    }
}

/// The representatives a rule unit builds its request classes from.
package struct RequestSpace {
    /// Every target that can matter, then one fresh ID that stands for every other app.
    package var targets: [BundleID]
    /// `mailto`, then every scheme that can matter, then one fresh scheme.
    package var schemes: [String]
    /// The share-sheet activities either policy excludes, sorted.
    var excludedActivities: [BundleID] = []

    /// The fresh ID: an app neither policy names.
    var freshTarget: BundleID { targets[targets.count - 1] }

    /// The same space with its targets and schemes in byte order (`mailto` first, the fresh ones last).
    package func sorted() -> RequestSpace {
        var space = self
        space.targets = targets.dropLast().sorted() + [freshTarget]
        space.schemes = ["mailto"] + schemes.dropFirst().dropLast().sorted() + [schemes[schemes.count - 1]]
        return space
    }

    /// Whether the `left`-th request of `family` comes before its `right`-th in the order of the
    /// sorted space: targets and schemes in byte order, the fresh ones last.
    func precedes(_ left: Int, _ right: Int, in family: RequestClassFamily) -> Bool {
        switch family {
        case .one, .eachExcludedActivity: return left < right
        case .eachTarget, .eachSource:
            let fresh = targets.count - 1
            return right == fresh ? left != fresh : left != fresh && targets[left] < targets[right]
        case .eachSchemeButMailto:
            // The family's requests are `schemes[1...]`; the last is the fresh scheme.
            let fresh = schemes.count - 2
            return right == fresh ? left != fresh : left != fresh && schemes[left + 1] < schemes[right + 1]
        }
    }

    /// A request class; the built-in values are valid, so it cannot fail.
    package func request(_ channel: Channel, target: BundleID? = nil, url: ShareURL? = nil, source: BundleID? = nil) -> ShareRequest {
        do {
            return try ShareRequest(channel: channel, target: target, url: url, source: source)
        } catch {
            preconditionFailure("request class for \(channel) is invalid: \(error)")
        }
    }
}

/// Request classes a rule unit owns, described rather than listed, so that `diff`
/// walks them one at a time: a policy of a million IDs makes millions of classes.
package enum RequestClassFamily: Hashable {
    /// One request.
    case one(ShareRequest)
    /// The channel with each target of the space as its target.
    case eachTarget(Channel)
    /// The channel with each target of the space as its source.
    case eachSource(Channel)
    /// `open-url` with each scheme of the space but `mailto`.
    case eachSchemeButMailto
    /// `activity-view` with each activity either policy excludes as its target.
    case eachExcludedActivity

    package var channel: Channel {
        switch self {
        case .one(let request): request.channel
        case .eachTarget(let channel), .eachSource(let channel): channel
        case .eachSchemeButMailto: .openURL
        case .eachExcludedActivity: .activityView
        }
    }

    /// How many requests the family stands for in `space`.
    package func count(in space: RequestSpace) -> Int {
        switch self {
        case .one: 1
        case .eachTarget, .eachSource: space.targets.count
        case .eachSchemeButMailto: space.schemes.count - 1
        case .eachExcludedActivity: space.excludedActivities.count
        }
    }

    /// The `index`-th request of the family in `space`.
    package func request(_ index: Int, in space: RequestSpace) -> ShareRequest {
        switch self {
        case .one(let request): request
        case .eachTarget(let channel): space.request(channel, target: space.targets[index])
        case .eachSource(let channel): space.request(channel, source: space.targets[index])
        // `schemes` starts with `mailto`.
        case .eachSchemeButMailto: space.request(.openURL, url: RequestClasses.sampleURL(scheme: space.schemes[index + 1]))
        case .eachExcludedActivity: space.request(.activityView, target: space.excludedActivities[index])
        }
    }
}

/// The request classes of two policies, built one at a time as they are walked.
struct RequestClassSequence: Sequence {
    package let space: RequestSpace
    let families: [RequestClassFamily]

    /// How many classes there are, without building them.
    package var count: Int { families.reduce(0) { $0 + $1.count(in: space) } }

    package func makeIterator() -> Iterator { Iterator(sequence: self) }

    struct Iterator: IteratorProtocol {
        let sequence: RequestClassSequence
        var family = 0
        package var index = 0

        package mutating func next() -> ShareRequest? {
            while family < sequence.families.count {
                let current = sequence.families[family]
                if index < current.count(in: sequence.space) {
                    defer { index += 1 }
                    return current.request(index, in: sequence.space)
                }
                family += 1
                index = 0
            }
            return nil
        }
    }
}
