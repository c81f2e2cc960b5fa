import OpenInCore
import OpenInFleet
import OpenInKit

/// Why an app protection policy that targets an app reaches it on a device profile, or why it does not:
/// the steps of `Rules/intune/README.md`, "Who a policy reaches", as they were read. ``IntuneFleet/reaches(_:_:on:membership:)``
/// is this value's ``reaches``: one resolver, so an explanation cannot disagree with a decision.
package struct IntuneReach: Sendable {
    /// A group as an assignment names it, with its other spelling when the devices file's `groups` gives it.
    package struct Group: Sendable, Equatable {
        /// The display name, when known.
        package let name: String?
        /// The object id, when known.
        package let id: String?
    }

    /// A managed-app filter as evaluated on the app: its rule, whether it holds, and the values it read.
    package struct FilterCheck: Sendable {
        /// The filter's display name.
        package let name: String
        /// The filter's id, when known.
        package let id: String?
        /// Whether the assignment includes the apps where the rule holds, or excludes them.
        package let type: IntuneFilterType
        /// The rule as written.
        package let rule: String
        /// Whether the rule holds for the app on the profile.
        package let holds: Bool
        /// The facts the rule was evaluated on, and the properties it reads.
        let subject: FilterSubject, properties: [FilterProperty]

        /// Each property the rule reads (`app.deviceManagementType`, …) with the value it read (made when
        /// an explanation asks: a decision only needs ``holds``).
        package var read: [(property: String, value: String)] { properties.map { ($0.spelled, subject[$0] ?? "") } }

        /// Whether the filter lets the group's assignment reach the app (an include filter where the rule holds,
        /// an exclude filter where it does not).
        package var admits: Bool { holds == (type == .include) }
    }

    /// Who is in scope, as the first step that decided it.
    package enum Scope: Sendable {
        /// The export has no `assignments` (no `$expand=assignments`): every profile is in scope.
        case unexported
        /// `"assignments": []`: the policy reaches no one, or every profile under `--assume-assigned`.
        case unassigned(assumed: Bool)
        /// A group the policy excludes holds the user (the assignment that excludes it): exclusion wins.
        case excluded(by: IntuneAssignment)
        /// A group the policy includes holds the user (the assignment that includes it), and its filter
        /// (if any) admits the app.
        case included(by: IntuneAssignment, filter: FilterCheck?)
        /// No group the policy includes both holds the user and admits the app: each included group that
        /// holds the user with its filter that did not admit it (empty: no included group holds the user).
        case notIncluded(filtered: [(assignment: IntuneAssignment, filter: FilterCheck)])
    }

    /// The policy's `displayName`.
    package let policy: String
    /// The app group the policy targets the app through (Graph's `appGroupType`), when its apps come
    /// from one rather than the export's `apps`.
    package let appGroup: String?
    /// Whether the app is **managed** on the profile (MDM-enrolled and given `IntuneMAMUPN`), else unmanaged.
    package let managed: Bool
    /// Whether the device is MDM-enrolled.
    package let mdmEnrolled: Bool
    /// Whether the app receives the `IntuneMAMUPN` app configuration.
    package let receivesUPN: Bool
    /// The management levels the policy targets (`targetedAppManagementLevels`).
    package let levels: IntuneManagementLevels
    /// Who is in scope; `nil` when the policy does not target the app's management type (the first step
    /// that failed: groups are then not looked at).
    package let scope: Scope?
    /// The policy's assignments (`nil`: not exported), for an explanation that lists the groups it includes.
    package let assignments: [IntuneAssignment]?

    /// Whether the policy's levels take the app's management type.
    package var levelMatches: Bool { levels.targets(managed: managed) }

    /// Whether the policy reaches (protects) the app on the profile.
    package var reaches: Bool {
        guard levelMatches, let scope else { return false }
        switch scope {
        case .unexported: return true
        case .unassigned(let assumed): return assumed
        case .excluded, .notIncluded: return false
        case .included: return true
        }
    }

    /// The app's management type as filters and messages name it: `Managed` or `Unmanaged`.
    package var managementType: String { managed ? "Managed" : "Unmanaged" }
}

extension IntuneFleet {
    /// Why `policy` (which targets `app`) reaches `app` on `device` or not, with `membership` the profile's
    /// groups: the one resolver behind ``reaches(_:_:on:membership:)``.
    /// - Throws: ``FleetError`` when the policy is assigned to groups and the profile does not say which
    ///   groups its user is in, or when an included group's filter is unknown or reads what the profile does not give.
    package func reach(_ policy: IntunePolicy, _ app: BundleID, on device: IntuneDeviceProfile, membership: GroupMembership?) throws(FleetError) -> IntuneReach {
        // As ``IntuneDeviceProfile/isManagedType(_:)`` decides it.
        let receivesUPN = device.receivesUPN(app)
        let managed = device.mdmEnrolled && receivesUPN
        func reason(_ scope: IntuneReach.Scope?) -> IntuneReach {
            IntuneReach(policy: policy.displayName, appGroup: policy.appsFromGroup == nil ? nil : policy.appGroupType, managed: managed, mdmEnrolled: device.mdmEnrolled,
                        receivesUPN: receivesUPN, levels: policy.managementLevels, scope: scope, assignments: policy.assignments)
        }
        guard policy.managementLevels.targets(managed: managed) else { return reason(nil) }
        guard let assignments = policy.assignments else { return reason(.unexported) }
        if assignments.isEmpty { return reason(.unassigned(assumed: assumeAssigned)) }
        guard let membership else {
            throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) is assigned to groups, and the device profile \(JSONWriter.quoted(device.name)) does not say which groups its user belongs to: add \"groups\": [...] (display names or object ids) to devices.\(device.name)",
                             file: assignments.first?.file ?? policy.sources.file ?? file, line: assignments.first?.line)
        }
        if let excluding = assignments.first(where: { $0.kind == .exclude && membership.holds($0) }) { return reason(.excluded(by: excluding)) }
        var filtered: [(assignment: IntuneAssignment, filter: IntuneReach.FilterCheck)] = []
        for assignment in assignments where assignment.kind == .include && membership.holds(assignment) {
            guard let reference = assignment.filter else { return reason(.included(by: assignment, filter: nil)) }
            guard let filter = filters.filter(named: reference) else {
                let known = filters.all.map(\.displayName)
                throw FleetError("policy \(JSONWriter.quoted(policy.displayName)) includes the group \(assignment.groupDescription) through the filter \(JSONWriter.quoted(reference)), which the devices file's assignmentFilters do not define: add it ({\"id\", \"displayName\", \"rule\"}, as GET /beta/deviceManagement/assignmentFilters gives it).\(Suggestion.phrase(for: reference, among: known))",
                                 file: assignment.file ?? policy.sources.file ?? file, line: assignment.line)
            }
            let subject = subject(app, on: device)
            let holds = try filter.matches(subject, device: device.name)
            let check = IntuneReach.FilterCheck(name: filter.displayName, id: filter.id, type: assignment.filterType, rule: filter.rule, holds: holds,
                                                subject: subject, properties: filter.properties)
            if check.admits { return reason(.included(by: assignment, filter: check)) }
            filtered.append((assignment, check))
        }
        return reason(.notIncluded(filtered: filtered))
    }

    /// Why each policy that targets `app` reaches it on `device` or not, in the order of ``policies``, each
    /// with its position there.
    /// - Throws: ``FleetError`` as ``reach(_:_:on:membership:)``.
    package func reachReasons(_ app: BundleID, on device: IntuneDeviceProfile) throws(FleetError) -> [(index: Int, reach: IntuneReach)] {
        let membership = membership(of: device)
        var reasons: [(index: Int, reach: IntuneReach)] = []
        for (index, policy) in policies.enumerated() where policy.targets(app) {
            reasons.append((index, try reach(policy, app, on: device, membership: membership)))
        }
        return reasons
    }

    /// The group `assignment` names, with its other spelling from ``groupNames`` (for messages: a walk of the map).
    package func group(of assignment: IntuneAssignment) -> IntuneReach.Group {
        var name = assignment.groupName, id = assignment.groupID
        if name == nil, let id { name = groupNames.first { ExactText.same($0.id, id) }?.name }
        if id == nil, let name { id = groupNames.first { ExactText.same($0.name, name) }?.id }
        return IntuneReach.Group(name: name, id: id)
    }
}

/// What `--explain` says about one side of an Intune decision: why each policy that targets the app
/// reaches it on the profile or not, and, when several reach, which policy's value decided each setting
/// the side's rule read (``IntuneConflicts/merge(_:mode:)``).
package struct IntuneReachExplanation: Sendable {
    /// The app.
    package let app: BundleID
    /// Each policy that targets the app, in the export's order, with why it reaches or not; empty when none targets it.
    package let reasons: [IntuneReach]
    /// Why who is in scope could not be worked out on the profile, when it could not (the reasons are then empty).
    package let error: String?
    /// How the policies that reach combine (`--conflicts`), when more than one does.
    package let mode: ConflictMode?
    /// For each Graph property the side's rule reads, the policy whose value decided it (``IntuneConflicts/merge(_:mode:)``),
    /// when more than one policy reaches.
    package let decidedBy: [(setting: String, policy: String)]

    /// The policies that reach the app.
    package var reaching: [String] { reasons.filter(\.reaches).map(\.policy) }
}

extension IntuneFleet {
    /// Why the app of one side of a decision has the policy it has on `device`: ``reachReasons(_:on:)``, and,
    /// when several policies reach, the decider of each Graph property `rule` cites (its rule's sources).
    /// `fallback` is the property read when the rule cites none (the side's channel setting).
    package func explainReach(_ app: BundleID, on device: IntuneDeviceProfile, rule: RuleID, fallback: String) -> IntuneReachExplanation {
        let reasons: [(index: Int, reach: IntuneReach)]
        do throws(FleetError) { reasons = try reachReasons(app, on: device) } catch {
            return IntuneReachExplanation(app: app, reasons: [], error: error.description, mode: nil, decidedBy: [])
        }
        let reaching = reasons.filter(\.reach.reaches).map { policies[$0.index] }
        guard reaching.count > 1 else { return IntuneReachExplanation(app: app, reasons: reasons.map(\.reach), error: nil, mode: nil, decidedBy: []) }
        let decided = IntuneConflicts.merge(reaching, mode: conflictMode).decidedBy
        var keys: [String] = []
        for citation in rule.info.citations {
            if case .graph(_, let property) = citation.kind, !keys.contains(property), decided[property] != nil { keys.append(property) }
        }
        // A rule that cites no Graph property reads the setting of its side's channel.
        if keys.isEmpty { keys = [fallback] }
        return IntuneReachExplanation(app: app, reasons: reasons.map(\.reach), error: nil, mode: conflictMode,
                                      decidedBy: keys.map { ($0, decided[$0] ?? "") })
    }
}
