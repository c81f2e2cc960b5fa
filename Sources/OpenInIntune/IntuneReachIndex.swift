import OpenInCore
import OpenInFleet
import OpenInKit

/// Who each policy may reach, indexed once per fleet, so that a profile visits only the policies that
/// target an app and name one of its groups, never every policy (`Rules/intune/README.md`, "Who a policy reaches").
///
/// Built in O(policies' apps + assignments); a profile's candidates cost O(the assignments of the policies
/// that name its groups). Only a candidate can reach the profile: a policy assigned to groups reaches no one
/// outside them, whatever its filter and level say, so ``IntuneFleet/reaches(_:_:on:membership:)`` decides
/// the candidates alone and the answers are those of a walk of every policy.
package struct IntuneReachIndex: Sendable {
    /// The policies that target each app, in fleet order, by `IntuneBundleID.key`.
    let targeting: [ExactKey: [Int]]
    /// Per policy, the apps it targets, by `IntuneBundleID.key`.
    let appKeys: [Set<ExactKey>]
    /// The policies with an assignment (included or excluded) naming each group by id or name, in fleet order.
    let naming: [ExactKey: [Int]]
    /// The policies whose groups reach every profile: their assignments were not exported, or they are
    /// assigned to no one and `--assume-assigned` takes them as assigned to everyone.
    let open: [Int]
    /// ``open`` as a flag per policy.
    let isOpen: [Bool]
    /// Per policy, the groups (ids and names) its included and its excluded assignments name.
    let includes: [[ExactKey]], excludes: [[ExactKey]]
    /// Per policy, whether an included assignment has a filter (its reach then depends on the app and profile's facts).
    package let filtered: [Bool]
    /// Each group's other spellings in the fleet's ``IntuneFleet/groupNames``: an id's name, a name's ids.
    let aliases: [ExactKey: [ExactKey]]

    /// Indexes `fleet`'s policies.
    package init(_ fleet: IntuneFleet) {
        var targeting: [ExactKey: [Int]] = [:], naming: [ExactKey: [Int]] = [:]
        var open: [Int] = [], isOpen = [Bool](repeating: false, count: fleet.policies.count)
        var includes = [[ExactKey]](repeating: [], count: fleet.policies.count), excludes = includes
        var filtered = isOpen
        var appKeys: [Set<ExactKey>] = []
        for index in fleet.policies.indices {
            var keys: Set<ExactKey> = []
            for app in fleet.policies[index].apps {
                let key = IntuneBundleID.key(app)
                keys.insert(key)
                if targeting[key]?.last != index { targeting[key, default: []].append(index) }
            }
            appKeys.append(keys)
            guard let assignments = fleet.policies[index].assignments, !(assignments.isEmpty && fleet.assumeAssigned) else {
                open.append(index)
                isOpen[index] = true
                continue
            }
            for assignment in assignments {
                if assignment.kind == .include, assignment.filter != nil { filtered[index] = true }
                for group in [assignment.groupID, assignment.groupName] {
                    guard let group else { continue }
                    if naming[ExactKey(group)]?.last != index { naming[ExactKey(group), default: []].append(index) }
                    if assignment.kind == .include { includes[index].append(ExactKey(group)) } else { excludes[index].append(ExactKey(group)) }
                }
            }
        }
        self.includes = includes
        self.excludes = excludes
        self.filtered = filtered
        var aliases: [ExactKey: [ExactKey]] = [:]
        for (id, name) in fleet.groupNames {
            aliases[ExactKey(id), default: []].append(ExactKey(name))
            aliases[ExactKey(name), default: []].append(ExactKey(id))
        }
        self.aliases = aliases
        self.targeting = targeting
        self.appKeys = appKeys
        self.naming = naming
        self.open = open
        self.isOpen = isOpen
    }

    /// The policies that target `app`, in fleet order.
    package func targeting(_ app: BundleID) -> [Int] { targeting[IntuneBundleID.key(app)] ?? [] }

    /// The policies that target the app of `key` (`IntuneBundleID.key`), in fleet order.
    package func targeting(key: ExactKey) -> [Int] { targeting[key] ?? [] }

    /// The profile's group membership, or `nil` when the devices file gives it no groups: the groups it
    /// names with every other spelling the groups map gives them, in O(its groups) (``IntuneFleet/membership(of:)``
    /// walks the whole map).
    package func membership(of device: IntuneDeviceProfile) -> IntuneFleet.GroupMembership? {
        guard let groups = device.groups else { return nil }
        var keys: Set<ExactKey> = []
        var pending = (groups + device.groupAliases).map(ExactKey.init)
        while let key = pending.popLast() {
            guard keys.insert(key).inserted else { continue }
            pending.append(contentsOf: aliases[key] ?? [])
        }
        return IntuneFleet.GroupMembership(keys: keys)
    }

    /// The policies a profile with `membership` may be reached by.
    package struct Candidates: Sendable {
        /// Every policy is a candidate: the profile does not say its groups (deciding then says why it cannot).
        let everyone: Bool
        /// The open policies, flagged per policy.
        let isOpen: [Bool]
        /// The policies assigned to groups that include one of the profile's groups and exclude none of them, ascending.
        let grouped: [Int]
        /// Every candidate, in fleet order.
        let ordered: [Int]

        /// Whether the policy at `index` may reach the profile.
        package func contains(_ index: Int) -> Bool {
            if everyone || isOpen[index] { return true }
            // A binary search of a profile's few grouped candidates: no set made per profile.
            var low = 0, high = grouped.count
            while low < high {
                let middle = (low + high) / 2
                if grouped[middle] < index { low = middle + 1 } else { high = middle }
            }
            return low < grouped.count && grouped[low] == index
        }
    }

    /// The candidates for a profile with `membership` (``IntuneFleet/membership(of:)``), in `fleet`.
    package func candidates(in fleet: IntuneFleet, membership: IntuneFleet.GroupMembership?) -> Candidates {
        guard let membership else {
            return Candidates(everyone: true, isOpen: isOpen, grouped: [], ordered: Array(fleet.policies.indices))
        }
        var touched: [Int] = []
        for group in membership.keys { if let naming = naming[group] { touched.append(contentsOf: naming) } }
        touched.sort()
        // As `IntuneFleet.reaches` reads the groups: an excluded group the profile carries wins over every included one.
        var grouped: [Int] = []
        for (position, index) in touched.enumerated() where position == 0 || touched[position - 1] != index {
            if !excludes[index].contains(where: membership.keys.contains) && includes[index].contains(where: membership.keys.contains) { grouped.append(index) }
        }
        guard !open.isEmpty else { return Candidates(everyone: false, isOpen: isOpen, grouped: grouped, ordered: grouped) }
        var ordered: [Int] = []
        ordered.reserveCapacity(open.count + grouped.count)
        var (i, j) = (0, 0)
        while i < open.count || j < grouped.count {
            if j == grouped.count || (i < open.count && open[i] < grouped[j]) { ordered.append(open[i]); i += 1 } else { ordered.append(grouped[j]); j += 1 }
        }
        return Candidates(everyone: false, isOpen: isOpen, grouped: grouped, ordered: ordered)
    }
}

extension IntuneFleet {
    /// The positions in ``policies`` of the policies that protect `app` on `device`, in order: the answer
    /// of `reaching(_:on:membership:)`, visiting only the policies that target `app` among `candidates`.
    package func reaching(_ app: BundleID, on device: IntuneDeviceProfile, membership: GroupMembership?,
                          index: IntuneReachIndex, candidates: IntuneReachIndex.Candidates, key: ExactKey? = nil) throws(FleetError) -> [Int] {
        let key = key ?? IntuneBundleID.key(app)
        guard let targeting = index.targeting[key] else { return [] }
        // The shorter of the two lists, both in fleet order: the policies that target the app, or the profile's candidates.
        let visited = !candidates.everyone && candidates.ordered.count < targeting.count
            ? candidates.ordered.filter { index.appKeys[$0].contains(key) } : targeting.filter(candidates.contains)
        var found: [Int] = []
        for position in visited {
            // A candidate's groups let it reach the profile; without a filter only its management level is left to read.
            if candidates.everyone {
                if try reaches(policies[position], app, on: device, membership: membership) { found.append(position) }
            } else if !policies[position].managementLevels.targets(managed: device.isManagedType(app)) {
                continue
            } else if !index.filtered[position] {
                found.append(position)
            } else if try admits(policies[position], app, on: device, membership: membership) {
                found.append(position)
            }
        }
        return found
    }

    /// Whether an included group of `policy` (a candidate: its groups include the profile, none excludes it,
    /// its level takes the app) admits `app` on `device` through its filter: the last step of
    /// ``reach(_:_:on:membership:)``, without the explanation. Where a filter cannot be read, the resolver
    /// itself says why (the same error).
    func admits(_ policy: IntunePolicy, _ app: BundleID, on device: IntuneDeviceProfile, membership: GroupMembership?) throws(FleetError) -> Bool {
        guard let membership, let assignments = policy.assignments else { return try reaches(policy, app, on: device, membership: membership) }
        var subject: FilterSubject? = nil
        for assignment in assignments where assignment.kind == .include && membership.holds(assignment) {
            guard let reference = assignment.filter else { return true }
            if subject == nil { subject = self.subject(app, on: device) }
            guard let filter = filters.filter(named: reference), let subject, let holds = try? filter.matches(subject, device: device.name) else {
                return try reaches(policy, app, on: device, membership: membership)
            }
            if holds == (assignment.filterType == .include) { return true }
        }
        return false
    }
}
