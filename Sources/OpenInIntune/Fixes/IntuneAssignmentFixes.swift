import OpenInCore
import OpenInFleet
import OpenInKit

/// `fleet fixes`' changes of who a policy reaches (`Rules/intune/README.md`, "Changing who a policy
/// reaches"): exclude a group from a policy's assignments, or narrow an included group with a filter,
/// each a JSON Patch of the policy's `assignments` in its export file, verified as every fix is.
///
/// A change that would leave an app no policy reaches on a profile where one reached it is not proposed:
/// the app would be unprotected there, its shares allowed, which is not a path closed.
extension IntuneFixSubject {
    /// The assignment changes of every policy whose export file holds its assignments: for each group of the
    /// profiles in scope where the policy reaches an installed app, its exclusion; for each included group
    /// without a filter, each filter of the fleet as include and as exclude. Only those that change whom the
    /// policy reaches and leave every app reached where it was.
    package func assignmentCandidates() -> [FixCandidate] {
        var result: [FixCandidate] = []
        let devices = states.map(\.device)
        for (index, policy) in fleet.policies.enumerated() {
            guard let assignments = policy.assignments, !assignments.isEmpty else { continue }
            let (document, base) = locations[index]
            // The export holds the assignments beside the policy (not in a separate file, as IntuneBackupAndRestore keeps them).
            guard case .object(let object) = JSONPatch.value(at: base, in: documents[document].value) ?? .null,
                  case .array(let written)? = object["assignments"], written.count == assignments.count else { continue }
            let owner = "policy \(JSONWriter.quoted(policy.displayName))"
            let pointer = base.appending("assignments")
            var proposed: [(candidate: FixCandidate, changed: IntunePolicy)] = []

            // Exclude a group of a profile where the policy reaches an installed app.
            var groups: [String] = []
            var seen: Set<ExactKey> = []
            for device in devices {
                let membership = fleet.membership(of: device)
                guard device.installed.contains(where: { app in policy.targets(app) && (try? fleet.reaches(policy, app, on: device, membership: membership)) == true }) else { continue }
                for group in device.groups ?? [] where seen.insert(ExactKey(group)).inserted { groups.append(group) }
            }
            let byID = assignments.contains { $0.groupID != nil }
            for group in groups {
                // Not a group the policy already excludes, in either spelling.
                let spelled = IntuneFleet.GroupMembership([group], names: fleet.groupNames)
                if assignments.contains(where: { $0.kind == .exclude && spelled.holds($0) }) { continue }
                // Written as the policy's other assignments name their groups: by object id (Graph) or by display name (IntuneCD).
                let known = fleet.groupNames.first { ExactText.same($0.id, group) || ExactText.same($0.name, group) }
                let exclusion = byID ? IntuneAssignment(kind: .exclude, groupID: known?.id ?? group) : IntuneAssignment(kind: .exclude, groupName: known?.name ?? group)
                var target: [JSONObject.Member] = [.init("@odata.type", .string(IntuneAssignmentsJSON.exclusionTarget))]
                if let id = exclusion.groupID { target.append(.init("groupId", .string(id))) }
                if let name = exclusion.groupName { target.append(.init("groupName", .string(name))) }
                let value = JSONValue.object(JSONObject(members: [.init("target", .object(JSONObject(members: target)))]))
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
            for (candidate, changed) in proposed where keepsEveryAppReached(replacing: index, with: changed) { result.append(candidate) }
        }
        return result
    }

    /// Whether the fleet with the policy at `index` replaced by `changed` reaches some app differently on some
    /// profile, and still reaches (by some policy) every installed app one reached before, on every profile.
    func keepsEveryAppReached(replacing index: Int, with changed: IntunePolicy) -> Bool {
        var after = fleet
        after.policies[index] = changed
        var differs = false
        for device in fleet.devices {
            let membership = fleet.membership(of: device)
            for app in device.installed where fleet.policies[index].targets(app) {
                guard let old = try? fleet.reaching(app, on: device, membership: membership),
                      let new = try? after.reaching(app, on: device, membership: membership) else { return false }
                if !old.isEmpty && new.isEmpty { return false }
                if old != new { differs = true }
            }
        }
        return differs
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
