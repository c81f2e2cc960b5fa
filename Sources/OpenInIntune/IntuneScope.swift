import OpenInCore
import OpenInFleet
import OpenInKit

/// Who a policy reaches (`Rules/intune/README.md`, "Who a policy reaches"): a policy protects an app on
/// a device profile when it targets the app, some group it includes holds the profile's user, no group
/// it excludes does (exclusion wins), its filter (if any) says so, and it targets the app's management type.
extension IntuneFleet {
    /// A profile's groups with each one's other spelling (its name for an id of ``groupNames``, the ids
    /// of a name), compared by bytes: made once per profile.
    package struct GroupMembership: Sendable {
        let keys: Set<ExactKey>

        package init(_ groups: [String], names: [(id: String, name: String)]) {
            var keys = Set(groups.map(ExactKey.init))
            for (id, name) in names where keys.contains(ExactKey(id)) || keys.contains(ExactKey(name)) {
                keys.insert(ExactKey(id))
                keys.insert(ExactKey(name))
            }
            self.keys = keys
        }

        /// A membership of `keys`, each group already with its other spellings (``IntuneReachIndex/membership(of:)``).
        init(keys: Set<ExactKey>) { self.keys = keys }

        /// Whether the assignment's group is one of the profile's.
        package func holds(_ assignment: IntuneAssignment) -> Bool {
            assignment.groupID.map { keys.contains(ExactKey($0)) } == true || assignment.groupName.map { keys.contains(ExactKey($0)) } == true
        }
    }

    /// Whether `policy` (which targets `app`) protects `app` on `device`, with `membership` the profile's groups:
    /// ``reach(_:_:on:membership:)``'s answer, so that `--explain` says why by the same steps.
    /// - Throws: ``FleetError`` when the policy is assigned to groups and the profile does not say which
    ///   groups its user is in, or when an included group's filter is needed.
    package func reaches(_ policy: IntunePolicy, _ app: BundleID, on device: IntuneDeviceProfile, membership: GroupMembership?) throws(FleetError) -> Bool {
        try reach(policy, app, on: device, membership: membership).reaches
    }

    /// What a managed-app filter reads of `app` on `device`: its management type (as app protection tells
    /// them apart: ``IntuneDeviceProfile/isManagedType(_:)``), its version, and the device's facts.
    package func subject(_ app: BundleID, on device: IntuneDeviceProfile) -> FilterSubject {
        FilterSubject(deviceManagementType: device.isManagedType(app) ? "Managed" : "Unmanaged",
                      appVersion: appVersions[IntuneBundleID.key(app)], deviceManufacturer: device.deviceManufacturer,
                      deviceModel: device.deviceModel, osVersion: device.osVersion, operatingSystemVersion: device.osVersion)
    }

    /// The positions in ``policies`` of the policies that protect `app` on `device`, in order.
    package func reaching(_ app: BundleID, on device: IntuneDeviceProfile, membership: GroupMembership?) throws(FleetError) -> [Int] {
        var found: [Int] = []
        for (index, policy) in policies.enumerated() where policy.targets(app) {
            if try reaches(policy, app, on: device, membership: membership) { found.append(index) }
        }
        return found
    }

    /// The profile's group membership, or `nil` when the devices file gives it no groups.
    package func membership(of device: IntuneDeviceProfile) -> GroupMembership? {
        device.groups.map { GroupMembership($0 + device.groupAliases, names: groupNames) }
    }

    /// Fails closed on assignments nothing can resolve: a group named only by an object id that neither
    /// the devices file's `groups` nor any profile names (unless ``assumeAssigned``), and a profile that
    /// does not say its groups while some policy is assigned to groups.
    func checkAssignments() throws(FleetError) {
        var known = Set(groupNames.map { ExactKey($0.id) })
        for device in devices { for group in (device.groups ?? []) + device.groupAliases { known.insert(ExactKey(group)) } }
        for policy in policies {
            guard let assignments = policy.assignments, !assignments.isEmpty else { continue }
            if devices.isEmpty {
                throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) is assigned to groups, and no device profile says which groups its user belongs to: give a devices file (--devices FILE) whose profiles list their users' groups (\"groups\": [...], display names or object ids)",
                                 file: assignments.first?.file ?? policy.sources.file ?? file, line: assignments.first?.line)
            }
            if let device = devices.first(where: { $0.groups == nil }) {
                throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) is assigned to groups, and the device profile \(JSONWriter.quoted(device.name)) does not say which groups its user belongs to: add \"groups\": [...] (display names or object ids) to devices.\(device.name)",
                                 file: assignments.first?.file ?? policy.sources.file ?? file, line: assignments.first?.line)
            }
            guard !assumeAssigned else { continue }
            for assignment in assignments where assignment.groupName == nil {
                guard let id = assignment.groupID, !known.contains(ExactKey(id)) else { continue }
                throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) \(assignment.kind == .include ? "includes" : "excludes") the group \(id), which no profile names and the devices file's groups do not: add \"groups\": {\"\(id)\": \"<display name>\"} to the devices file (or name the group in the profiles that belong to it), or run with --assume-assigned",
                                 file: assignment.file ?? policy.sources.file ?? file, line: assignment.line)
            }
        }
    }

    /// What every run says once about who the policies reach (to standard error): that assignments were not
    /// exported (every profile in scope), and each policy assigned to no one.
    package var scopeNotes: [String] {
        var notes: [String] = []
        let unexported = policies.filter { $0.assignments == nil }
        if !unexported.isEmpty {
            let which = unexported.count == policies.count ? "the policies' assignments were not exported" : "\(Printable.list(unexported.map { JSONWriter.quoted($0.displayName) })) have no assignments in the export"
            notes.append("\(which): every device profile is taken to be in scope (export with $expand=assignments to analyse who each policy reaches)")
        }
        for policy in policies where policy.assignments?.isEmpty == true {
            notes.append(assumeAssigned
                ? "policy \(JSONWriter.quoted(policy.displayName)) is not assigned: analysed as if assigned to every profile (--assume-assigned)"
                : "policy \(JSONWriter.quoted(policy.displayName)) is not assigned: it protects no app (--assume-assigned analyses it as if assigned to every profile)")
        }
        return notes
    }
}
