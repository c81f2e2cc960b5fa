import OpenInCore
import OpenInFleet
import OpenInKit

/// Who each policy may reach, indexed once per fleet, so that a profile visits only the policies that
/// target an app and name one of its groups, never every policy (`Rules/intune/README.md`, "Who a policy reaches").
///
/// Apps and groups are numbered once, as the index is built: a profile's groups and a policy's apps are
/// then small arrays of numbers, compared without hashing a bundle ID or a group's name per question.
/// Built in O(policies' apps + assignments + the groups map); a profile's membership costs O(its groups)
/// and its candidates O(the assignments of the policies that name its groups). Only a candidate can reach
/// the profile: a policy assigned to groups reaches no one outside them, whatever its filter and level say,
/// so ``IntuneFleet/reaches(_:_:on:membership:)`` decides the candidates alone and the answers are those
/// of a walk of every policy.
package struct IntuneReachIndex: Sendable {
    /// Each app some policy targets, by `IntuneBundleID.key`, to its number.
    let appNumbers: [ExactKey: Int]
    /// Per app number, the policies that target it, ascending.
    let targeting: [[Int]]
    /// Per policy, the number of each of its apps, parallel to its `apps` (repeats kept).
    let appNumbersOf: [[Int]]
    /// Per policy, the numbers of its apps, ascending and distinct (for a binary search).
    let appSets: [[Int]]
    /// Each group spelling (an object id or a display name, from assignments and the fleet's
    /// ``IntuneFleet/groupNames``) to its group's number: an id and the name the groups map gives it share one.
    let groupNumbers: [ExactKey: Int]
    /// Per group number, the policies with an assignment (included or excluded) naming it, ascending.
    let naming: [[Int]]
    /// The policies whose groups reach every profile: their assignments were not exported, or they are
    /// assigned to no one and `--assume-assigned` takes them as assigned to everyone.
    let open: [Int]
    /// ``open`` as a flag per policy.
    let isOpen: [Bool]
    /// Per policy, the groups its included and its excluded assignments name.
    let includes: [[Int]], excludes: [[Int]]
    /// An included assignment as a candidate's filter is read: its groups, and its filter found once.
    struct Included: Sendable {
        /// The groups its id and its name are.
        let groups: [Int]
        /// Its filter's position in the fleet's filters; `nil` without a filter, `-1` for a filter the fleet does not define.
        let filter: Int?
        /// Whether the filter includes the profiles where its rule holds (else it excludes them).
        let filterIncludes: Bool
    }
    /// Per policy, its included assignments, in order.
    let included: [[Included]]
    /// Per policy, the management levels it targets.
    let levels: [IntuneManagementLevels]
    /// Per app number, the `appVersion` the devices file gives (what a filter's `app.appVersion` reads).
    let appVersions: [String?]
    /// Per policy, whether an included assignment has a filter (its reach then depends on the app and profile's facts).
    package let filtered: [Bool]

    /// Indexes `fleet`'s policies.
    package init(_ fleet: IntuneFleet) {
        let count = fleet.policies.count
        // Groups: every spelling gets a provisional number; the groups map joins an id with its name (union-find).
        var provisional: [ExactKey: Int] = [:], parent: [Int] = []
        func number(_ spelling: String) -> Int {
            let key = ExactKey(spelling)
            if let known = provisional[key] { return known }
            provisional[key] = parent.count
            parent.append(parent.count)
            return parent.count - 1
        }
        func root(_ group: Int) -> Int {
            var group = group
            while parent[group] != group {
                parent[group] = parent[parent[group]]
                group = parent[group]
            }
            return group
        }
        for (id, name) in fleet.groupNames {
            let (a, b) = (root(number(id)), root(number(name)))
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        var spelled = [[[Int]]](repeating: [], count: count)
        for index in fleet.policies.indices {
            for assignment in fleet.policies[index].assignments ?? [] {
                spelled[index].append([assignment.groupID, assignment.groupName].compactMap { $0 }.map(number))
            }
        }
        // Final numbers: one per group (root), dense.
        var dense = [Int](repeating: -1, count: parent.count), groups = 0
        for group in parent.indices where root(group) == group {
            dense[group] = groups
            groups += 1
        }
        var groupNumbers: [ExactKey: Int] = [:]
        groupNumbers.reserveCapacity(provisional.count)
        for (key, group) in provisional { groupNumbers[key] = dense[root(group)] }
        func final(_ group: Int) -> Int { dense[root(group)] }

        var appNumbers: [ExactKey: Int] = [:], targeting: [[Int]] = []
        var appNumbersOf: [[Int]] = [], appSets: [[Int]] = []
        var naming = [[Int]](repeating: [], count: groups)
        var open: [Int] = [], isOpen = [Bool](repeating: false, count: count)
        var includes = [[Int]](repeating: [], count: count), excludes = includes
        var included = [[Included]](repeating: [], count: count)
        var filtered = isOpen
        // Each filter reference found once (a walk of the fleet's filters per question is filters × questions).
        var filterOf: [ExactKey: Int] = [:]
        func filter(_ reference: String) -> Int {
            if let known = filterOf[ExactKey(reference)] { return known }
            let found = fleet.filters.position(named: reference) ?? -1
            filterOf[ExactKey(reference)] = found
            return found
        }
        for index in fleet.policies.indices {
            var numbers: [Int] = []
            for app in fleet.policies[index].apps {
                let key = IntuneBundleID.key(app)
                let app: Int
                if let known = appNumbers[key] { app = known } else {
                    app = targeting.count
                    appNumbers[key] = app
                    targeting.append([])
                }
                numbers.append(app)
                if targeting[app].last != index { targeting[app].append(index) }
            }
            appNumbersOf.append(numbers)
            appSets.append(Array(Set(numbers)).sorted())
            guard let assignments = fleet.policies[index].assignments, !(assignments.isEmpty && fleet.assumeAssigned) else {
                open.append(index)
                isOpen[index] = true
                continue
            }
            for (assignment, spellings) in zip(assignments, spelled[index]) {
                let groups = spellings.map(final)
                if assignment.kind == .include {
                    if assignment.filter != nil { filtered[index] = true }
                    included[index].append(Included(groups: groups, filter: assignment.filter.map(filter), filterIncludes: assignment.filterType == .include))
                }
                for group in groups {
                    if naming[group].last != index { naming[group].append(index) }
                    if assignment.kind == .include { includes[index].append(group) } else { excludes[index].append(group) }
                }
            }
        }
        self.appNumbers = appNumbers
        self.targeting = targeting
        self.appNumbersOf = appNumbersOf
        self.appSets = appSets
        self.groupNumbers = groupNumbers
        self.naming = naming
        self.open = open
        self.isOpen = isOpen
        self.includes = includes
        self.excludes = excludes
        self.included = included
        levels = fleet.policies.map(\.managementLevels)
        var appVersions = [String?](repeating: nil, count: targeting.count)
        for (key, number) in appNumbers { appVersions[number] = fleet.appVersions[key] }
        self.appVersions = appVersions
        self.filtered = filtered
    }

    /// The number of the app of `key` (`IntuneBundleID.key`), when some policy targets it.
    func appNumber(key: ExactKey) -> Int? { appNumbers[key] }

    /// The policies that target `app`, in fleet order.
    package func targeting(_ app: BundleID) -> [Int] { appNumbers[IntuneBundleID.key(app)].map { targeting[$0] } ?? [] }

    /// The policies that target the app numbered `app` (``appNumber(key:)``), in fleet order.
    package func targeting(app: Int) -> [Int] { targeting[app] }

    /// The number of the group spelled `spelling` (an object id or a display name), when an assignment or the groups map names it.
    package func group(_ spelling: String) -> Int? { groupNumbers[ExactKey(spelling)] }

    /// A profile's groups, as numbers of the index: those the policies' assignments and the groups map name.
    package struct Membership: Sendable {
        /// The group numbers, ascending and distinct; `nil` when the devices file gives the profile no groups.
        let groups: [Int]?

        /// Whether the profile is in `group`.
        func contains(_ group: Int) -> Bool {
            guard let groups else { return false }
            // A profile's groups are few: a walk of them beats a set made per profile.
            for each in groups where each >= group { return each == group }
            return false
        }

        /// Whether the profile is in one of `groups`.
        func holdsAny(_ groups: [Int]) -> Bool { groups.contains(where: contains) }
    }

    /// The profile's group membership: the groups it names (and their other spellings in the groups map,
    /// which share a number), in O(its groups). Groups no assignment names are left out: they reach nothing.
    package func membership(of device: IntuneDeviceProfile) -> Membership {
        guard let groups = device.groups else { return Membership(groups: nil) }
        var numbers: [Int] = []
        for spelling in groups + device.groupAliases { if let group = groupNumbers[ExactKey(spelling)] { numbers.append(group) } }
        numbers.sort()
        var distinct: [Int] = []
        for group in numbers where distinct.last != group { distinct.append(group) }
        return Membership(groups: distinct)
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
        package let ordered: [Int]

        /// Whether the policy at `index` may reach the profile.
        package func contains(_ index: Int) -> Bool {
            if everyone || isOpen[index] { return true }
            return IntuneReachIndex.sortedContains(grouped, index)
        }
    }

    /// Whether the ascending `list` holds `value`: a binary search.
    static func sortedContains(_ list: [Int], _ value: Int) -> Bool {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low] == value
    }

    /// The candidates for a profile with `membership` (``membership(of:)``), in `fleet`.
    package func candidates(in fleet: IntuneFleet, membership: Membership) -> Candidates {
        guard let groups = membership.groups else {
            return Candidates(everyone: true, isOpen: isOpen, grouped: [], ordered: Array(fleet.policies.indices))
        }
        var touched: [Int] = []
        for group in groups { touched.append(contentsOf: naming[group]) }
        touched.sort()
        // As `IntuneFleet.reaches` reads the groups: an excluded group the profile carries wins over every included one.
        var grouped: [Int] = []
        for (position, index) in touched.enumerated() where position == 0 || touched[position - 1] != index {
            if !membership.holdsAny(excludes[index]) && membership.holdsAny(includes[index]) { grouped.append(index) }
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
    /// - Parameter number: the app's number in `index` (``IntuneReachIndex/appNumber(key:)``), when the caller has it.
    package func reaching(_ app: BundleID, on device: IntuneDeviceProfile, membership: IntuneReachIndex.Membership,
                          index: IntuneReachIndex, candidates: IntuneReachIndex.Candidates, number: Int? = nil) throws(FleetError) -> [Int] {
        guard let number = number ?? index.appNumber(key: IntuneBundleID.key(app)) else { return [] }
        let targeting = index.targeting[number]
        // The shorter of the two lists, both in fleet order: the policies that target the app, or the profile's candidates.
        let visited = !candidates.everyone && candidates.ordered.count < targeting.count
            ? candidates.ordered.filter { IntuneReachIndex.sortedContains(index.appSets[$0], number) } : targeting.filter(candidates.contains)
        guard !visited.isEmpty else { return [] }
        var found: [Int] = []
        let managed = device.isManagedType(app)
        var subject: FilterSubject? = nil
        for position in visited {
            // A candidate's groups let it reach the profile; without a filter only its management level is left to read.
            if candidates.everyone {
                if try reaches(policies[position], app, on: device, membership: self.membership(of: device)) { found.append(position) }
            } else if !index.levels[position].targets(managed: managed) {
                continue
            } else if !index.filtered[position] {
                found.append(position)
            } else if try admits(position, app, number: number, managed: managed, on: device, membership: membership, index: index, subject: &subject) {
                found.append(position)
            }
        }
        return found
    }

    /// Whether an included group of the policy at `position` (a candidate: its groups include the profile,
    /// none excludes it, its level takes the app) admits `app` (numbered `number` in `index`, of management
    /// type `managed`) on `device` through its filter: the last step of ``reach(_:_:on:membership:)``, without
    /// the explanation. `subject` is what the filters read, made at the first filter and kept for the app's
    /// other policies. Where a filter cannot be read, the resolver itself says why (the same error).
    func admits(_ position: Int, _ app: BundleID, number: Int, managed: Bool, on device: IntuneDeviceProfile, membership: IntuneReachIndex.Membership,
                index: IntuneReachIndex, subject: inout FilterSubject?) throws(FleetError) -> Bool {
        guard membership.groups != nil else {
            return try reaches(policies[position], app, on: device, membership: self.membership(of: device))
        }
        for assignment in index.included[position] where membership.holdsAny(assignment.groups) {
            guard let filter = assignment.filter else { return true }
            if subject == nil {
                subject = FilterSubject(deviceManagementType: managed ? "Managed" : "Unmanaged", appVersion: index.appVersions[number], deviceManufacturer: device.deviceManufacturer,
                                        deviceModel: device.deviceModel, osVersion: device.osVersion, operatingSystemVersion: device.osVersion)
            }
            guard filter >= 0, let subject, let holds = try? filters.all[filter].matches(subject, device: device.name) else {
                return try reaches(policies[position], app, on: device, membership: self.membership(of: device))
            }
            if holds == assignment.filterIncludes { return true }
        }
        return false
    }
}
