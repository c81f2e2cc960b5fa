import OpenInCore
import OpenInFleet
import OpenInKit

/// The JSON records of the CLI contract: one per request line.
///
/// A decision: `{"id"?, "outcome", "target"?, "audience"?, "callbacks": [{"selector", "policy" | "url",
/// "sourceApplication"?}], "openInUI", "rule", "reason", "dummyFileName"?}`, keys in that order;
/// `target`, `audience` (who can read an allowed copy: `all-apps` or `appconnect-apps`) and
/// `dummyFileName` appear only when there is one. An invalid
/// line: `{"line", "id"?, "error"}`.
public enum DecisionRecord {
    /// The record of a decision as one line of compact JSON (without a line break), as `eval` writes it.
    public static func jsonLine(_ decision: Decision) -> String {
        JSONWriter.compact(.object(json(decision)))
    }

    /// The record of a decision.
    /// - Parameters:
    ///   - decision: the decision.
    ///   - id: the request's `id`, echoed when given.
    package static func json(_ decision: Decision, id: JSONValue? = nil) -> JSONObject {
        var members: [JSONObject.Member] = []
        if let id { members.append(.init("id", id)) }
        members.append(.init("outcome", .string(decision.outcome.rawValue)))
        if let target = decision.target { members.append(.init("target", .string(target.rawValue))) }
        if let audience = decision.audience { members.append(.init("audience", .string(audience.rawValue))) }
        members.append(.init("callbacks", .array(JSONArray(decision.callbacks.map { .object(json($0)) }))))
        members.append(.init("openInUI", .string(decision.openInUI.rawValue)))
        members.append(.init("rule", .string(decision.rule.rawValue)))
        members.append(.init("reason", .string(decision.reason)))
        if let dummy = decision.dummyFileName { members.append(.init("dummyFileName", .string(dummy))) }
        return JSONObject(members: members)
    }

    /// A callback: its selector, and its arguments as `policy` (the SDK constant name), `url`,
    /// or `policy` and `sourceApplication` (left out when the sending app is unknown).
    package static func json(_ callback: Callback) -> JSONObject {
        switch callback {
        case .openInAttemptedWhenBlocked(let status):
            JSONObject(["selector": .string(callback.selector), "policy": .string(status.sdkName)])
        case .openURLAttemptedWhenUnauthorized(let url):
            JSONObject(["selector": .string(callback.selector), "url": .string(url.rawValue)])
        case .dragAndDropToNonAppConnectApp:
            JSONObject(["selector": .string(callback.selector)])
        case .openFromAttemptedWhenBlocked(let status, let source):
            JSONObject(members: [.init("selector", .string(callback.selector)), .init("policy", .string(status.sdkName))]
                       + (source.map { [.init("sourceApplication", .string($0.rawValue))] } ?? []))
        case .copyAttemptedWhenUnauthorized(let policy):
            JSONObject(["selector": .string(callback.selector), "policy": .string(policy.sdkName)])
        }
    }

    /// The record of an invalid line.
    /// - Parameters:
    ///   - line: the line's number, from 1.
    ///   - id: the line's `id`, when it could be read.
    ///   - message: what is wrong.
    package static func error(line: Int, id: JSONValue? = nil, message: String) -> JSONObject {
        var members: [JSONObject.Member] = [.init("line", .number(JSONNumber(line)))]
        if let id { members.append(.init("id", id)) }
        members.append(.init("error", .string(message)))
        return JSONObject(members: members)
    }
}
