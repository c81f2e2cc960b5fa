import OpenInCore
import OpenInFleet
import OpenInKit

/// One assignment of an app protection policy: a group of users it includes or excludes, and the
/// managed-app filter that narrows an included group (Graph's `targetedManagedAppPolicyAssignment`,
/// `Rules/intune/README.md`, "Who a policy reaches").
public struct IntuneAssignment: Sendable, Hashable {
    /// Whether the group is included (`#microsoft.graph.groupAssignmentTarget`) or excluded
    /// (`#microsoft.graph.exclusionGroupAssignmentTarget`).
    public enum Kind: String, Sendable, Hashable {
        /// The group's users receive the policy.
        case include
        /// The group's users never receive the policy, whatever includes them.
        case exclude
    }

    /// Included or excluded.
    public var kind: Kind
    /// The Entra group's object id (`groupId`), when the export gives it.
    public var groupID: String?
    /// The group's display name (`groupName`, as IntuneCD writes it), when the export gives it.
    public var groupName: String?
    /// The filter's id or display name (`deviceAndAppManagementAssignmentFilterId`: IntuneCD writes the
    /// name there), when the assignment has a filter.
    public var filter: String?
    /// Whether the filter includes the devices where its rule holds, or excludes them.
    public var filterType: IntuneFilterType
    /// The line of the assignment's target in its file.
    package var line: Int?
    /// The file the assignment was read from when it is not its policy's (IntuneBackupAndRestore's
    /// `Assignments/ID - NAME.json`); `nil` for an assignment inline in its policy.
    package var file: String?

    /// Creates an assignment.
    public init(kind: Kind, groupID: String? = nil, groupName: String? = nil, filter: String? = nil, filterType: IntuneFilterType = .none) {
        self.kind = kind
        self.groupID = groupID
        self.groupName = groupName
        self.filter = filter
        self.filterType = filter == nil ? .none : filterType
    }

    /// Assignments are equal when they say the same (where their files hold them aside).
    public static func == (lhs: IntuneAssignment, rhs: IntuneAssignment) -> Bool {
        lhs.kind == rhs.kind && lhs.groupID == rhs.groupID && lhs.groupName == rhs.groupName && lhs.filter == rhs.filter && lhs.filterType == rhs.filterType
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(groupID)
        hasher.combine(groupName)
        hasher.combine(filter)
    }

    /// The group as a message names it: its name, its id, or both.
    public var groupDescription: String {
        switch (groupName, groupID) {
        case (let name?, let id?): "\(JSONWriter.quoted(name)) (\(id))"
        case (let name?, nil): JSONWriter.quoted(name)
        case (nil, let id?): id
        case (nil, nil): "(no group)"
        }
    }
}

/// How an assignment's filter narrows its group (Graph's `deviceAndAppManagementAssignmentFilterType`).
public enum IntuneFilterType: String, Sendable, Hashable, CaseIterable {
    /// No filter.
    case none
    /// The policy reaches the group's apps where the filter's rule holds.
    case include
    /// The policy reaches the group's apps where the filter's rule does not hold.
    case exclude
}

/// The management types a policy targets (Graph's `targetedAppManagementLevels`, the flags enum
/// `appManagementLevel`): an app is **managed** on an MDM-enrolled device when it receives the
/// `IntuneMAMUPN` app configuration, **unmanaged** otherwise.
public struct IntuneManagementLevels: Sendable, Hashable {
    /// Whether the policy reaches apps that are not managed (Graph's `unmanaged`).
    public var unmanaged: Bool
    /// Whether the policy reaches MDM-managed apps (Graph's `mdm`).
    public var mdm: Bool

    /// Every management type: Graph's `unspecified` (the portal's "Target to apps on all device types: Yes").
    public static let all = IntuneManagementLevels(unmanaged: true, mdm: true)

    /// Creates a set of levels.
    public init(unmanaged: Bool, mdm: Bool) {
        self.unmanaged = unmanaged
        self.mdm = mdm
    }

    /// Whether an app of this management type is targeted.
    public func targets(managed: Bool) -> Bool { managed ? mdm : unmanaged }

    /// The value as Graph writes it.
    public var graphValue: String {
        switch (unmanaged, mdm) {
        case (true, true): "unspecified"
        case (true, false): "unmanaged"
        case (false, true): "mdm"
        case (false, false): "androidEnterprise"
        }
    }

    /// The names of `appManagementLevel`, in value order (Microsoft Graph beta, appManagementLevel enum type).
    static let names = [
        "unspecified", "unmanaged", "mdm", "androidEnterprise", "androidEnterpriseDedicatedDevicesWithAzureAdSharedMode",
        "androidOpenSourceProjectUserAssociated", "androidOpenSourceProjectUserless", "unknownFutureValue",
    ]
}

/// Reading a policy's `assignments` and `targetedAppManagementLevels`.
enum IntuneAssignmentsJSON {
    static let groupTarget = "#microsoft.graph.groupAssignmentTarget"
    static let exclusionTarget = "#microsoft.graph.exclusionGroupAssignmentTarget"
    /// Targets Graph refuses for app protection: it accepts group and exclusion-group targets only.
    static let refusedTargets = [
        "#microsoft.graph.allLicensedUsersAssignmentTarget", "#microsoft.graph.allDevicesAssignmentTarget",
        "#microsoft.graph.configurationManagerCollectionAssignmentTarget",
    ]

    /// Reads `assignments`: an array of `targetedManagedAppPolicyAssignment` objects (Graph's
    /// `$expand=assignments`, IntuneManagement), or of the same with IntuneCD's target (`groupName`,
    /// `groupType`, `membershipRule`, a filter named in `deviceAndAppManagementAssignmentFilterId`).
    static func read(_ field: JSONCursor) throws(FormatError) -> [IntuneAssignment] {
        var assignments: [IntuneAssignment] = []
        for element in try field.elements(what: "assignments {\"target\": {\"@odata.type\": \"\(groupTarget)\", \"groupId\": ...}}") {
            let members = try element.members(allowed: ["@odata.type", "id", "source", "sourceId", "target", "intent", "settings"], what: "an assignment")
            if let type = members["@odata.type"] {
                let text = try type.string()
                guard ExactText.same(text, "#microsoft.graph.targetedManagedAppPolicyAssignment") else {
                    throw type.error("unknown assignment type \(JSONWriter.quoted(text)): an app protection policy's assignments are #microsoft.graph.targetedManagedAppPolicyAssignment")
                }
            }
            for key in ["id", "sourceId"] { if let value = members[key], !IntuneGraphJSON.isNull(value) { _ = try value.string() } }
            if let source = members["source"] {
                let text = try source.string()
                guard ExactText.isOne(text, of: ["direct", "policySets"]) else {
                    throw source.error("unknown deviceAndAppManagementAssignmentSource \(JSONWriter.quoted(text)): use direct or policySets.\(Suggestion.phrase(for: text, among: ["direct", "policySets"]))")
                }
            }
            for key in ["intent", "settings"] where members[key] != nil {
                throw members[key]!.error("is an app assignment's property, not an app protection policy's: export the policy's assignments (GET …/iosManagedAppProtections/{id}/assignments)")
            }
            guard let target = members["target"] else {
                throw element.error("has no target: an assignment names its group in target ({\"@odata.type\": \"\(groupTarget)\", \"groupId\": ...})")
            }
            assignments.append(try readTarget(target))
        }
        return assignments
    }

    static func readTarget(_ target: JSONCursor) throws(FormatError) -> IntuneAssignment {
        let fields = try target.members(
            allowed: ["@odata.type", "groupId", "groupName", "groupType", "membershipRule", "collectionId",
                      "deviceAndAppManagementAssignmentFilterId", "deviceAndAppManagementAssignmentFilterType"],
            what: "an assignment target")
        guard let typeField = fields["@odata.type"] else {
            throw target.error("has no @odata.type: a target is \(groupTarget) or \(exclusionTarget)")
        }
        let type = try typeField.string()
        let kind: IntuneAssignment.Kind
        if ExactText.same(type, groupTarget) {
            kind = .include
        } else if ExactText.same(type, exclusionTarget) {
            kind = .exclude
        } else if ExactText.isOne(type, of: refusedTargets) {
            throw typeField.error("\(type) cannot target an app protection policy: Graph accepts only group and exclusion-group targets (\"Unsupported AssignmentTarget\"); assign the policy to an Entra group of users")
        } else {
            throw typeField.error("unknown assignment target \(JSONWriter.quoted(type)): use \(groupTarget) or \(exclusionTarget).\(Suggestion.phrase(for: type, among: [groupTarget, exclusionTarget]))")
        }
        if let collection = fields["collectionId"] {
            throw collection.error("is a Configuration Manager collection's property: an app protection policy targets Entra groups")
        }
        func text(_ key: String) throws(FormatError) -> String? {
            guard let field = fields[key], !IntuneGraphJSON.isNull(field) else { return nil }
            let value = try field.string()
            if value.isEmpty { throw field.error("is empty: give the group's \(key == "groupId" ? "object id" : "display name"), or leave the key out") }
            return value
        }
        let groupID = try text("groupId"), groupName = try text("groupName")
        if groupID == nil && groupName == nil {
            throw target.error("names no group: give groupId (the Entra group's object id) or groupName")
        }
        for key in ["groupType", "membershipRule"] { if let field = fields[key], !IntuneGraphJSON.isNull(field) { _ = try field.string() } }
        var filterType = IntuneFilterType.none
        if let field = fields["deviceAndAppManagementAssignmentFilterType"], !IntuneGraphJSON.isNull(field) {
            let value = try field.string()
            guard let parsed = IntuneFilterType(rawValue: value) else {
                throw field.error("unknown deviceAndAppManagementAssignmentFilterType \(JSONWriter.quoted(value)): use none, include or exclude.\(Suggestion.phrase(for: value, among: IntuneFilterType.allCases.map(\.rawValue)))")
            }
            filterType = parsed
        }
        var filter: String?
        if let field = fields["deviceAndAppManagementAssignmentFilterId"], !IntuneGraphJSON.isNull(field) {
            let value = try field.string()
            if !value.isEmpty && value != "00000000-0000-0000-0000-000000000000" { filter = value }
        }
        switch (filter, filterType) {
        case (nil, .include), (nil, .exclude):
            throw target.error("has deviceAndAppManagementAssignmentFilterType \(filterType.rawValue) but no filter: give deviceAndAppManagementAssignmentFilterId, or set the type to none")
        case (let name?, .none):
            throw target.error("names the filter \(JSONWriter.quoted(name)) with deviceAndAppManagementAssignmentFilterType none: set include or exclude, or remove the filter")
        default: break
        }
        if kind == .exclude, let filter {
            throw target.error("excludes a group through the filter \(JSONWriter.quoted(filter)): openin-check applies filters to included groups only, as the admin center assigns them; remove the filter from the excluded group")
        }
        var assignment = IntuneAssignment(kind: kind, groupID: groupID, groupName: groupName, filter: filter, filterType: filterType)
        assignment.line = target.position?.line
        return assignment
    }

    /// Reads `targetedAppManagementLevels`: one name of `appManagementLevel`, or several comma-separated
    /// (a flags value). Names of Android levels count for nothing on iOS.
    static func levels(_ field: JSONCursor) throws(FormatError) -> IntuneManagementLevels {
        let text = try field.string()
        var levels = IntuneManagementLevels(unmanaged: false, mdm: false)
        var unspecified = false
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part.trimmingSpaces)
            guard ExactText.isOne(name, of: IntuneManagementLevels.names) else {
                throw field.error("unknown appManagementLevel \(JSONWriter.quoted(name)): use \(IntuneManagementLevels.names.joined(separator: ", ")) (several comma-separated).\(Suggestion.phrase(for: name, among: IntuneManagementLevels.names))")
            }
            switch name {
            case "unspecified": unspecified = true
            case "unmanaged": levels.unmanaged = true
            case "mdm": levels.mdm = true
            default: break
            }
        }
        if unspecified {
            guard !levels.unmanaged && !levels.mdm else {
                throw field.error("combines unspecified (every device type) with other levels: give unspecified alone, or the levels alone")
            }
            return .all
        }
        return levels
    }
}
