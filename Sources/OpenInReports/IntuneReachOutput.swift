import OpenInPolicy

/// `--explain`'s words for who an Intune policy reaches (`Rules/intune/README.md`, "Who a policy
/// reaches"): per side, each policy that targets the app, why it reaches the app on the profile or not,
/// and which policy decided each setting the side's rule read when several reach.
enum IntuneReachOutput {
    /// The explanation of `app`'s side of `decision` (`receiver`: the receiving side), or `nil` when the
    /// decision's device is not one of the fleet's profiles.
    package static func explanation(_ app: BundleID, _ side: Decision, receiver: Bool, decision: FleetDecision, fleet: IntuneFleet) -> IntuneReachExplanation? {
        guard let device = try? fleet.device(named: decision.device) else { return nil }
        let fallback = decision.request.channel == .paste ? "allowedOutboundClipboardSharingLevel"
            : receiver ? "allowedInboundDataTransferSources" : "allowedOutboundDataTransferDestinations"
        return fleet.explainReach(app, on: device, rule: side.rule, fallback: fallback)
    }

    /// Why `app` is managed or unmanaged on the profile.
    static func managementType(_ reach: IntuneReach) -> String {
        let why = switch (reach.mdmEnrolled, reach.receivesUPN) {
        case (true, true): "the device is MDM-enrolled and the app receives IntuneMAMUPN"
        case (true, false): "the device is MDM-enrolled, but the app does not receive IntuneMAMUPN"
        case (false, _): "the device is not MDM-enrolled"
        }
        return "\(reach.managementType) (\(why))"
    }

    /// The levels as Graph names them, and what they take.
    static func levels(_ levels: IntuneManagementLevels) -> String {
        switch (levels.unmanaged, levels.mdm) {
        case (true, true): "unspecified (Managed and Unmanaged apps)"
        case (true, false): "unmanaged (Unmanaged apps only)"
        case (false, true): "mdm (Managed apps only)"
        case (false, false): "\(levels.graphValue) (no iOS app)"
        }
    }

    static func group(_ assignment: IntuneAssignment, _ fleet: IntuneFleet) -> String {
        let group = fleet.group(of: assignment)
        return switch (group.name, group.id) {
        case (let name?, let id?): "\(JSONWriter.quoted(name)) (\(id))"
        case (let name?, nil): JSONWriter.quoted(name)
        case (nil, let id?): id
        case (nil, nil): "(no group)"
        }
    }

    static func filter(_ check: IntuneReach.FilterCheck) -> String {
        let read = check.read.map { "\($0.property) = \(JSONWriter.quoted($0.value))" }.joined(separator: ", ")
        return "\(check.type.rawValue) filter \(JSONWriter.quoted(check.name)) \(check.rule): \(check.holds ? "holds" : "does not hold") (\(read)), so it \(check.admits ? "admits" : "does not admit") the app"
    }

    /// The lines saying why one policy reaches the app or not: the first its verdict, then one per step read.
    static func lines(_ reach: IntuneReach, fleet: IntuneFleet) -> [String] {
        var lines = ["\(JSONWriter.quoted(reach.policy)): \(reach.reaches ? "reaches the app" : "does not reach the app")"]
        lines.append("targets the app: " + (reach.appGroup.map { "through its app group \($0)" } ?? "listed in its apps"))
        lines.append("level \(levels(reach.levels)) \(reach.levelMatches ? "takes" : "does not take") \(reach.managementType) apps")
        guard let scope = reach.scope else {
            lines.append("its groups are not looked at: the management level already leaves the app out")
            return lines
        }
        switch scope {
        case .unexported:
            lines.append("assignments not exported: every profile is in scope")
        case .unassigned(let assumed):
            lines.append(assumed ? "not assigned: analysed as if assigned to every profile (--assume-assigned)" : "not assigned (\"assignments\": []): it protects no app")
        case .excluded(let assignment):
            lines.append("excluded by group \(group(assignment, fleet)), which holds the user: exclusion wins")
        case .included(let assignment, let check):
            lines.append("included by group \(group(assignment, fleet)); no group it excludes holds the user")
            lines.append(check.map(filter) ?? "no filter")
        case .notIncluded(let filtered):
            if filtered.isEmpty {
                let includes = (reach.assignments ?? []).filter { $0.kind == .include }.map { group($0, fleet) }
                lines.append("no group it includes holds the user (it includes \(includes.isEmpty ? "no group" : includes.joined(separator: ", ")))")
            }
            for (assignment, check) in filtered { lines.append("included by group \(group(assignment, fleet)), but its " + filter(check)) }
        }
        return lines
    }

    /// The text lines of one side's explanation, each without indentation (the block indents them).
    package static func text(_ explanation: IntuneReachExplanation, device: String, fleet: IntuneFleet) -> [String] {
        if let error = explanation.error { return ["who is in scope cannot be worked out on \(DecisionText.escaped(device)): \(DecisionText.escaped(error))"] }
        guard let first = explanation.reasons.first else { return ["no app protection policy targets \(explanation.app): not managed by Intune"] }
        var text = ["\(explanation.app) on \(DecisionText.escaped(device)) is \(managementType(first))"]
        let reaching = explanation.reaching
        let count: String = switch reaching.count {
        case 0: "no policy that targets it reaches it here: it is not policy-managed (Intune allows its shares as unprotected)"
        case 1: explanation.reasons.count == 1 ? "the one policy that targets it reaches it" : "1 of the \(explanation.reasons.count) policies that target it reaches it"
        default: "\(reaching.count) of the \(explanation.reasons.count) policies that target it reach it: their settings merge, \(explanation.mode?.rawValue ?? "")"
        }
        text.append(count)
        for reach in explanation.reasons {
            let lines = self.lines(reach, fleet: fleet).map { DecisionText.escaped($0) }
            text.append("policy " + lines[0])
            text += lines.dropFirst().map { "  " + $0 }
        }
        for (setting, policy) in explanation.decidedBy { text.append("\(setting) decided by \(DecisionText.escaped(JSONWriter.quoted(policy))) (\(explanation.mode?.rawValue ?? ""))") }
        return text
    }

    /// The same as JSON: `{"managementType", "mdmEnrolled", "intuneMAMUPN", "policies": [...], "conflicts"?, "decidedBy"?, "error"?}`.
    package static func json(_ explanation: IntuneReachExplanation, fleet: IntuneFleet) -> JSONValue {
        var members: [JSONObject.Member] = []
        if let error = explanation.error {
            members.append(.init("error", .string(error)))
            return .object(JSONObject(members: members))
        }
        if let first = explanation.reasons.first {
            members += [.init("managementType", .string(first.managementType)), .init("mdmEnrolled", .bool(first.mdmEnrolled)),
                        .init("intuneMAMUPN", .bool(first.receivesUPN))]
        }
        members.append(.init("policies", .array(JSONArray(explanation.reasons.map { policy($0, fleet: fleet) }))))
        if let mode = explanation.mode {
            members.append(.init("conflicts", .string(mode.rawValue)))
            members.append(.init("decidedBy", .array(JSONArray(explanation.decidedBy.map {
                .object(JSONObject(members: [.init("setting", .string($0.setting)), .init("policy", .string($0.policy))]))
            }))))
        }
        return .object(JSONObject(members: members))
    }

    static func groupJSON(_ assignment: IntuneAssignment, _ fleet: IntuneFleet) -> JSONValue {
        let group = fleet.group(of: assignment)
        var members: [JSONObject.Member] = []
        if let name = group.name { members.append(.init("name", .string(name))) }
        if let id = group.id { members.append(.init("id", .string(id))) }
        return .object(JSONObject(members: members))
    }

    static func filterJSON(_ check: IntuneReach.FilterCheck) -> JSONValue {
        var members: [JSONObject.Member] = [.init("name", .string(check.name))]
        if let id = check.id { members.append(.init("id", .string(id))) }
        members += [.init("type", .string(check.type.rawValue)), .init("rule", .string(check.rule)), .init("holds", .bool(check.holds)),
                    .init("read", .object(JSONObject(members: check.read.map { .init($0.property, .string($0.value)) }))), .init("admits", .bool(check.admits))]
        return .object(JSONObject(members: members))
    }

    /// One policy: `{"policy", "reaches", "appGroup"?, "managementLevels", "levelMatches", "scope"?, "includedBy"?, "excludedBy"?, "filter"?, "filtered"?, "why"}`.
    static func policy(_ reach: IntuneReach, fleet: IntuneFleet) -> JSONValue {
        var members: [JSONObject.Member] = [.init("policy", .string(reach.policy)), .init("reaches", .bool(reach.reaches))]
        if let group = reach.appGroup { members.append(.init("appGroup", .string(group))) }
        members += [.init("managementLevels", .string(reach.levels.graphValue)), .init("levelMatches", .bool(reach.levelMatches))]
        switch reach.scope {
        case nil: break
        case .unexported?: members.append(.init("scope", .string("assignments not exported")))
        case .unassigned(let assumed)?: members.append(.init("scope", .string(assumed ? "not assigned, assumed assigned" : "not assigned")))
        case .excluded(let assignment)?:
            members.append(.init("scope", .string("excluded")))
            members.append(.init("excludedBy", groupJSON(assignment, fleet)))
        case .included(let assignment, let check)?:
            members.append(.init("scope", .string("included")))
            members.append(.init("includedBy", groupJSON(assignment, fleet)))
            if let check { members.append(.init("filter", filterJSON(check))) }
        case .notIncluded(let filtered)?:
            members.append(.init("scope", .string(filtered.isEmpty ? "not in an included group" : "filtered out")))
            if !filtered.isEmpty {
                members.append(.init("filtered", .array(JSONArray(filtered.map {
                    .object(JSONObject(members: [.init("includedBy", groupJSON($0.assignment, fleet)), .init("filter", filterJSON($0.filter))]))
                }))))
            }
        }
        members.append(.init("why", .array(JSONArray(lines(reach, fleet: fleet).dropFirst().map { .string($0) }))))
        return .object(JSONObject(members: members))
    }
}
