import OpenInCore
import OpenInFleet
import OpenInKit

/// `fleet fixes`' changes of who a policy reaches (`Rules/intune/README.md`, "Changing who a policy
/// reaches"): exclude a group from a policy's assignments, or narrow an included group with a filter,
/// each a JSON Patch of the policy's `assignments` in its export file (or of the `value` of its assignments
/// file, as IntuneBackupAndRestore keeps them), verified as every fix is.
///
/// A change that would leave an app no policy reaches on a profile where one reached it is not proposed:
/// the app would be unprotected there, its shares allowed, which is not a path closed.
extension IntuneFixSubject {
    /// The assignment changes of every policy whose export holds its assignments (beside it, or in its own file): for each group of the
    /// profiles in scope where the policy reaches an installed app, its exclusion; for each included group
    /// without a filter, each filter of the fleet as include and as exclude. Only those that change whom the
    /// policy reaches and leave every app reached where it was.
    func assignmentCandidates() -> [FixCandidate] {
        var result: [FixCandidate] = []
        for (index, policy) in fleet.policies.enumerated() {
            guard let assignments = policy.assignments, !assignments.isEmpty else { continue }
            // The assignments beside the policy in its export, or in a file of their own (IntuneBackupAndRestore's `value`).
            let (document, pointer): (Int, JSONPointer)
            if let own = assignmentsDocument[index] {
                (document, pointer) = (own, JSONPointer(["value"]))
            } else {
                (document, pointer) = (locations[index].document, locations[index].pointer.appending("assignments"))
            }
            guard case .array(let written) = JSONPatch.value(at: pointer, in: documents[document].value) ?? .null, written.count == assignments.count else { continue }
            let owner = "policy \(JSONWriter.quoted(policy.displayName))"
            var proposed: [(candidate: FixCandidate, changed: IntunePolicy)] = []

            // Where the policy reaches an installed app (a narrower assignment changes nothing elsewhere), and whether
            // another policy reaches the app there too (else the app would be left unprotected).
            result += widenings(of: index, document: document, pointer: pointer, written: written)
            // No app it reaches is reached by another policy too: every narrowing would leave an app unprotected.
            guard let reached = reached(by: index), reached.contains(where: \.shared) else { continue }
            let inScope = Set(states.map { ExactKey($0.device.name) })

            // Exclude a group of a profile in scope where the policy reaches an installed app.
            var groups: [String] = []
            var seen: Set<ExactKey> = []
            for pair in reached where inScope.contains(ExactKey(pair.device.name)) {
                for group in pair.device.groups ?? [] where seen.insert(ExactKey(group)).inserted { groups.append(group) }
            }
            for group in groups {
                // Not a group the policy already excludes, in either spelling.
                let spelled = IntuneFleet.GroupMembership([group], names: fleet.groupNames)
                if assignments.contains(where: { $0.kind == .exclude && spelled.holds($0) }) { continue }
                let (exclusion, value) = target(.exclude, group: group, in: policy)
                var changed = policy
                changed.assignments = assignments + [exclusion]
                let shown = fleet.group(of: exclusion)
                proposed.append((FixCandidate(change: "Exclude the group \(Self.describe(shown)) from \(owner): add an exclusionGroupAssignmentTarget to its assignments.",
                                              document: document, patch: [.add(pointer.appending("-"), value)]), changed))
            }

            // Narrow an included group that has no filter with a filter of the fleet.
            for (position, assignment) in assignments.enumerated() where assignment.kind == .include && assignment.filter == nil {
                guard case .object(let entry) = written[position], case .object(let target)? = entry["target"] else { continue }
                for filter in fleet.filters.all {
                    for type in [IntuneFilterType.include, .exclude] {
                        let at = pointer.appending(position).appending("target")
                        func set(_ key: String, _ value: String) -> JSONPatchOperation {
                            target[key] == nil ? .add(at.appending(key), .string(value)) : .replace(at.appending(key), .string(value))
                        }
                        let reference = filter.id ?? filter.displayName
                        var changed = policy
                        changed.assignments?[position] = IntuneAssignment(kind: .include, groupID: assignment.groupID, groupName: assignment.groupName, filter: reference, filterType: type)
                        let narrowing = type == .include ? "only where its rule holds" : "only where its rule does not hold"
                        proposed.append((FixCandidate(change: "Narrow the assignment of the group \(Self.describe(fleet.group(of: assignment))) in \(owner) with the \(type.rawValue) filter \(JSONWriter.quoted(filter.displayName)) (\(narrowing)).",
                                                      document: document,
                                                      patch: [set("deviceAndAppManagementAssignmentFilterId", reference), set("deviceAndAppManagementAssignmentFilterType", type.rawValue)]),
                                         changed))
                    }
                }
            }
            for (candidate, changed) in proposed where keepsEveryAppReached(changed, reached) { result.append(candidate) }
        }
        return result
    }

    /// Each profile and installed app the policy at `index` reaches, with whether another policy reaches the app
    /// there too; `nil` when who is in scope cannot be worked out.
    func reached(by index: Int) -> [(device: IntuneDeviceProfile, membership: IntuneFleet.GroupMembership?, app: BundleID, shared: Bool)]? {
        var pairs: [(device: IntuneDeviceProfile, membership: IntuneFleet.GroupMembership?, app: BundleID, shared: Bool)] = []
        for device in fleet.devices {
            let membership = fleet.membership(of: device)
            for app in device.installed where fleet.policies[index].targets(app) {
                guard let reaching = try? fleet.reaching(app, on: device, membership: membership) else { return nil }
                if reaching.contains(index) { pairs.append((device, membership, app, reaching.count > 1)) }
            }
        }
        return pairs
    }

    /// Whether `changed` (a narrower copy of a policy that reaches `reached`) no longer reaches some of them, and
    /// every one it no longer reaches is reached by another policy: whom it reaches changes, and no app is left unprotected.
    func keepsEveryAppReached(_ changed: IntunePolicy, _ reached: [(device: IntuneDeviceProfile, membership: IntuneFleet.GroupMembership?, app: BundleID, shared: Bool)]) -> Bool {
        var differs = false
        for pair in reached {
            guard let still = try? fleet.reaches(changed, pair.app, on: pair.device, membership: pair.membership) else { return false }
            if !still {
                if !pair.shared { return false }
                differs = true
            }
        }
        return differs
    }

    /// The assignment of `group` (as a profile names it) of `kind`, and its JSON, written as the policy's other
    /// assignments name their groups: by object id (Graph), or by display name (IntuneCD).
    func target(_ kind: IntuneAssignment.Kind, group: String, in policy: IntunePolicy) -> (IntuneAssignment, JSONValue) {
        let byID = policy.assignments?.contains { $0.groupID != nil } ?? true
        let known = fleet.groupNames.first { ExactText.same($0.id, group) || ExactText.same($0.name, group) }
        let assignment = byID ? IntuneAssignment(kind: kind, groupID: known?.id ?? group) : IntuneAssignment(kind: kind, groupName: known?.name ?? group)
        var target: [JSONObject.Member] = [.init("@odata.type", .string(kind == .include ? IntuneAssignmentsJSON.groupTarget : IntuneAssignmentsJSON.exclusionTarget))]
        if let id = assignment.groupID { target.append(.init("groupId", .string(id))) }
        if let name = assignment.groupName { target.append(.init("groupName", .string(name))) }
        return (assignment, .object(JSONObject(members: [.init("target", .object(JSONObject(members: target)))])))
    }

    /// The changes that make the policy at `index` reach an app it targets at its management level and that no policy
    /// reaches on a profile in scope: remove the exclusion that leaves the user out, include a group of the profile,
    /// or remove the filter that does not admit the app. Only those whose changed policy can be worked out on every
    /// profile (a filter reading what a profile does not give is not proposed).
    func widenings(of index: Int, document: Int, pointer: JSONPointer, written: JSONArray) -> [FixCandidate] {
        let policy = fleet.policies[index]
        guard let assignments = policy.assignments else { return [] }
        let owner = "policy \(JSONWriter.quoted(policy.displayName))"
        var proposed: [(candidate: FixCandidate, changed: IntunePolicy)] = []
        var seen: Set<String> = []
        for state in states {
            let device = state.device
            let membership = fleet.membership(of: device)
            for app in device.installed where policy.targets(app) {
                guard let reaching = try? fleet.reaching(app, on: device, membership: membership), reaching.isEmpty,
                      let reach = try? fleet.reach(policy, app, on: device, membership: membership) else { continue }
                switch reach.scope {
                case .excluded(let exclusion)?:
                    guard let position = assignments.firstIndex(of: exclusion), seen.insert("exclusion \(position)").inserted else { continue }
                    var changed = policy
                    changed.assignments?.remove(at: position)
                    proposed.append((FixCandidate(change: "Remove the exclusion of the group \(Self.describe(fleet.group(of: exclusion))) from \(owner).", document: document,
                                                  patch: [.remove(pointer.appending(position))]), changed))
                case .notIncluded(let filtered)? where filtered.isEmpty:
                    for group in device.groups ?? [] where seen.insert("include \(group)").inserted {
                        let (inclusion, value) = target(.include, group: group, in: policy)
                        var changed = policy
                        changed.assignments = assignments + [inclusion]
                        proposed.append((FixCandidate(change: "Include the group \(Self.describe(fleet.group(of: inclusion))) in \(owner): add a groupAssignmentTarget to its assignments.",
                                                      document: document, patch: [.add(pointer.appending("-"), value)]), changed))
                    }
                case .notIncluded(let filtered)?:
                    for (assignment, check) in filtered {
                        guard let position = assignments.firstIndex(of: assignment), seen.insert("filter \(position)").inserted,
                              case .object(let entry) = written[position], case .object(let target)? = entry["target"] else { continue }
                        let at = pointer.appending(position).appending("target")
                        var patch: [JSONPatchOperation] = []
                        for (key, value) in [("deviceAndAppManagementAssignmentFilterId", JSONValue.null), ("deviceAndAppManagementAssignmentFilterType", .string("none"))] {
                            patch.append(target[key] == nil ? .add(at.appending(key), value) : .replace(at.appending(key), value))
                        }
                        var changed = policy
                        changed.assignments?[position] = IntuneAssignment(kind: .include, groupID: assignment.groupID, groupName: assignment.groupName)
                        proposed.append((FixCandidate(change: "Remove the \(check.type.rawValue) filter \(JSONWriter.quoted(check.name)) from the assignment of the group \(Self.describe(fleet.group(of: assignment))) in \(owner).",
                                                      document: document, patch: patch), changed))
                    }
                default: continue
                }
            }
        }
        return proposed.filter { workedOut($0.changed) }.map(\.candidate)
    }

    /// Whether who `changed` reaches can be worked out on every profile, for every installed app it targets.
    func workedOut(_ changed: IntunePolicy) -> Bool {
        for device in fleet.devices {
            let membership = fleet.membership(of: device)
            for app in device.installed where changed.targets(app) {
                if (try? fleet.reaches(changed, app, on: device, membership: membership)) == nil { return false }
            }
        }
        return true
    }

    static func describe(_ group: IntuneReach.Group) -> String {
        switch (group.name, group.id) {
        case (let name?, let id?): "\(JSONWriter.quoted(name)) (\(id))"
        case (let name?, nil): JSONWriter.quoted(name)
        case (nil, let id?): id
        case (nil, nil): "(no group)"
        }
    }
}
