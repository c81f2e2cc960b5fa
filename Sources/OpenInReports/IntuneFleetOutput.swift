import OpenInPolicy

/// `fleet eval` and `fleet diff` on Intune policies.
enum IntuneFleetOutput {
    package static func side(_ app: BundleID, _ decision: Decision) -> JSONValue {
        var members: [JSONObject.Member] = [.init("app", .string(app.rawValue)), .init("rule", .string(decision.rule.rawValue)),
                                            .init("outcome", .string(decision.outcome.rawValue))]
        if let audience = decision.audience { members.append(.init("audience", .string(audience.rawValue))) }
        members += [.init("callbacks", .array(JSONArray([]))), .init("reason", .string(decision.reason))]
        return .object(JSONObject(members: members))
    }

    /// Where a side's policy came from, and its rule's source: what `--explain` adds. On a profile of the fleet
    /// (`device`), the policy that reaches the app there (several: their names, merged); else the first that targets it.
    package static func explanation(_ app: BundleID, _ decision: Decision, fleet: IntuneFleet, device: String? = nil) -> (policy: String, rule: RuleInfo) {
        let first = fleet.policy(for: app).map { "app protection policy \(JSONWriter.quoted($0.displayName))" } ?? "no app protection policy targets it"
        guard first != "no app protection policy targets it", let profile = device.flatMap({ try? fleet.device(named: $0) }),
              let reasons = try? fleet.reachReasons(app, on: profile) else { return (first, decision.rule.info) }
        let reaching = reasons.filter(\.reach.reaches).map { JSONWriter.quoted($0.reach.policy) }
        let policy = switch reaching.count {
        case 0: "no app protection policy reaches it on this profile"
        case 1: "app protection policy \(reaching[0])"
        default: "app protection policies \(reaching.joined(separator: " + ")) (merged, \(fleet.conflictMode.rawValue))"
        }
        return (policy, decision.rule.info)
    }

    /// A side's `explanation`: `{"policy", "step", "summary", "source", "quote", "reach"?}`, `reach` saying which policies
    /// reach the app on the profile and why (``IntuneReachOutput/json(_:fleet:)``).
    static func explanationJSON(_ app: BundleID, _ side: Decision, receiver: Bool = false, decision: FleetDecision? = nil, fleet: IntuneFleet) -> JSONValue {
        let (policy, rule) = explanation(app, side, fleet: fleet, device: decision?.device)
        var members: [JSONObject.Member] = [.init("policy", .string(policy)), .init("step", .number(JSONNumber(rule.step))), .init("summary", .string(rule.summary)),
                                            .init("source", .string(rule.source)), .init("quote", .string(rule.quote))]
        if let decision, let reach = IntuneReachOutput.explanation(app, side, receiver: receiver, decision: decision, fleet: fleet) {
            members.append(.init("reach", IntuneReachOutput.json(reach, fleet: fleet)))
        }
        return .object(JSONObject(members: members))
    }

    package static func record(_ decision: FleetDecision, id: JSONValue?, explain: Bool = false, fleet: IntuneFleet? = nil) -> JSONObject {
        var members: [JSONObject.Member] = []
        if let id { members.append(.init("id", id)) }
        members += [.init("device", .string(decision.device)), .init("from", .string(decision.request.from.rawValue)),
                    .init("channel", .string(decision.request.channel.rawValue))]
        if let target = decision.request.target { members.append(.init("target", .string(target.rawValue))) }
        if let url = decision.request.url { members.append(.init("url", .string(url.rawValue))) }
        if let location = decision.request.location { members.append(.init("location", .string(location.rawValue))) }
        members.append(.init("outcome", .string(decision.outcome.rawValue)))
        if let to = decision.receiverApp, decision.outcome != .deny { members.append(.init("to", .string(to.rawValue))) }
        members.append(.init("sender", side(decision.request.from, decision.sender)))
        members.append(.init("receiver", decision.receiver.map { side(decision.receiverApp!, $0) } ?? .null))
        if explain, let fleet {
            var sides: [JSONObject.Member] = [.init("sender", explanationJSON(decision.request.from, decision.sender, decision: decision, fleet: fleet))]
            if let receiver = decision.receiver, let app = decision.receiverApp {
                sides.append(.init("receiver", explanationJSON(app, receiver, receiver: true, decision: decision, fleet: fleet)))
            }
            members.append(.init("explanation", .object(JSONObject(members: sides))))
        }
        return JSONObject(members: members)
    }

    static func block(_ decision: FleetDecision, explain: Bool = false, fleet: IntuneFleet? = nil, notes: [String] = []) -> String {
        let to = decision.request.url?.rawValue ?? decision.request.target?.rawValue ?? decision.request.location?.rawValue ?? ""
        var text = "Device \(DecisionText.escaped(decision.device)): \(decision.request.channel) \(DecisionText.escaped(decision.request.from.rawValue))\(to.isEmpty ? "" : " → " + DecisionText.escaped(to))\n"
        for note in notes { text += "  note      \(DecisionText.escaped(note))\n" }
        text += "  outcome   \(decision.outcome)\(decision.receiverApp.map { decision.outcome == .deny ? "" : " (to \(DecisionText.escaped($0.rawValue)))" } ?? "")\n"
        let audience = decision.request.channel == .copy ? decision.sender.audience.map { " (audience \($0.rawValue))" } ?? "" : ""
        text += "  sender    \(decision.sender.outcome)\(audience)  [\(decision.sender.rule)]  \(DecisionText.escaped(decision.sender.reason))\n"
        if let receiver = decision.receiver {
            text += "  receiver  \(receiver.outcome)  [\(receiver.rule)]  \(DecisionText.escaped(receiver.reason))\n"
        } else if decision.request.channel == .keyboard {
            text += "  receiver  -  (a keyboard extension is not an app receiving data: the sender alone decides)\n"
        } else if let location = decision.request.locationRequest {
            text += "  receiver  -  (\(location.channel == .saveAs ? "a save to a location" : "data opened from a location"): the app's own policy alone decides)\n"
        } else if decision.request.channel == .copy || decision.request.channel == .print {
            text += "  receiver  -  (\(decision.request.channel == .copy ? "a copy's audience is who may paste it" : "a print goes to no app"): the sender alone decides)\n"
        } else {
            text += "  receiver  -  (no policy-managed receiver decides)\n"
        }
        if explain, let fleet {
            var sides = [(decision.request.from, decision.sender, false)]
            if let receiver = decision.receiver, let app = decision.receiverApp { sides.append((app, receiver, true)) }
            for (app, side, isReceiver) in sides {
                let (policy, rule) = explanation(app, side, fleet: fleet, device: decision.device)
                text += "  \(DecisionText.escaped(app.rawValue)): \(policy)\n    rule \(rule.id) (Intune step \(rule.step)): \(rule.summary)\n    source: \(rule.source)\n    \"\(rule.quote)\"\n"
                if let reach = IntuneReachOutput.explanation(app, side, receiver: isReceiver, decision: decision, fleet: fleet) {
                    text += IntuneReachOutput.text(reach, device: decision.device, fleet: fleet).map { "    \($0)\n" }.joined()
                }
            }
        }
        return text
    }

    /// `fleet diff --rows`: a Markdown table per group of the flows that change between `old` and `new` (vendor names),
    /// then, when any, a list of the device profiles and apps that a different set of policies reaches (no rows: who is
    /// reached is not a decision).
    static func diffRows(_ changes: [FlowChange], old: String, new: String, reach: [ReachChange] = []) -> String {
        var text = ""
        for group in FlowChange.Group.allCases {
            let members = changes.filter { $0.group == group }
            if members.isEmpty { continue }
            text += "## \(group.rawValue.prefix(1).uppercased() + group.rawValue.dropFirst()) (\(old) → \(new))\n\n"
            text += "| " + FlowChange.tableColumns.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: FlowChange.tableColumns.count) + "\n"
            for (index, change) in members.enumerated() {
                let id = "\(group.rawValue.replacingSpaces)-\(index + 1)"
                for row in change.tableRows(id: id) {
                    text += "| " + row.map { $0.replacingPipes }.joined(separator: " | ") + " |\n"
                }
            }
            text += "\n"
        }
        if !reach.isEmpty {
            text += "## Reached by a different set of policies (\(old) → \(new))\n\n"
            for change in reach {
                func names(_ list: [String]) -> String { list.isEmpty ? "no policy" : list.map { MarkdownText.code($0, inTable: false) }.joined(separator: " + ") }
                text += "- \(MarkdownText.text(change.device)), \(MarkdownText.code(change.app.rawValue, inTable: false)): \(names(change.old)) → \(names(change.new))\n"
            }
            text += "\n"
        }
        return text
    }

    /// `fleet diff --format json` across vendors: an array of the flows that change, then one record per device
    /// profile and app that a different set of policies reaches (`"group": "reached differently"`, with `"app"` and
    /// each side's `"policies"`).
    static func diffJSON(_ changes: [FlowChange], reach: [ReachChange] = []) -> String {
        let records: [JSONValue] = changes.map { change in
            var members: [JSONObject.Member] = [.init("device", .string(change.device)), .init("group", .string(change.group.rawValue)),
                                                .init("from", .string(change.request.from.rawValue)), .init("channel", .string(change.request.channel.rawValue))]
            if let target = change.request.target { members.append(.init("target", .string(target.rawValue))) }
            if let url = change.request.url { members.append(.init("url", .string(url.rawValue))) }
            members += [.init("old", .object(JSONObject(members: [.init("outcome", .string(change.old.outcome.rawValue)), .init("rules", .string(change.old.rules))]))),
                        .init("new", .object(JSONObject(members: [.init("outcome", .string(change.new.outcome.rawValue)), .init("rules", .string(change.new.rules))])))]
            return .object(JSONObject(members: members))
        }
        let reached: [JSONValue] = reach.map { change in
            func side(_ policies: [String]) -> JSONValue { .object(JSONObject(members: [.init("policies", .array(JSONArray(policies.map(JSONValue.string))))])) }
            return .object(JSONObject(members: [.init("device", .string(change.device)), .init("group", .string("reached differently")),
                                                .init("app", .string(change.app.rawValue)), .init("old", side(change.old)), .init("new", side(change.new))]))
        }
        return JSONWriter.pretty(.array(JSONArray(records + reached))) + "\n"
    }

    /// `fleet diff` across vendors as text: the flows that change, by group, the device profiles and apps that a
    /// different set of policies reaches (when any), then the counts.
    static func diffText(_ changes: [FlowChange], old: String, new: String, reach: [ReachChange] = []) -> String {
        let groups = FlowChange.Group.allCases.map { group in (group, changes.filter { $0.group == group }) }
        var text = "\(old) → \(new): end-to-end flows that decide differently\n"
        for (group, members) in groups {
            text += "\n\(group.rawValue) (\(members.count))\(group == .newlyAllowed ? ": the receiving app can now read it, a leak" : group == .newlyBlocked ? ": the receiving app can no longer read it, breaks a user" : ": the receiving app reads as much as before"):\n"
            for change in members {
                text += "  \(DecisionText.escaped(change.device))  \(DecisionText.escaped(change.subject))  \(change.old.outcome) → \(change.new.outcome)  [\(change.new.rules)]\n"
            }
        }
        if !reach.isEmpty {
            text += "\nreached by a different set of policies (\(reach.count)): who gets which policy changed (translated names, Rules/intune/README.md):\n"
            for change in reach { text += "  \(DecisionText.escaped(change.description))\n" }
        }
        return text + "\n" + groups.map { "\($0.1.count) \($0.0.rawValue)" }.joined(separator: ", ") + "\n"
    }
}

extension String {
    /// Spaces as dashes, for row ids.
    fileprivate var replacingSpaces: String { split(separator: " ").joined(separator: "-") }
    /// `|` escaped for a Markdown table cell.
    fileprivate var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}

