/// The JSON records of the CLI contract: one per request line.
///
/// A decision: `{"id"?, "outcome", "target"?, "callbacks": [{"selector", "policy" | "url"}],
/// "openInUI", "rule", "reason", "dummyFileName"?}`, keys in that order;
/// `target` and `dummyFileName` appear only when there is one. An invalid
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
        members.append(.init("callbacks", .array(JSONArray(decision.callbacks.map { .object(json($0)) }))))
        members.append(.init("openInUI", .string(decision.openInUI.rawValue)))
        members.append(.init("rule", .string(decision.rule.rawValue)))
        members.append(.init("reason", .string(decision.reason)))
        if let dummy = decision.dummyFileName { members.append(.init("dummyFileName", .string(dummy))) }
        return JSONObject(members: members)
    }

    /// A callback: its selector, and its argument as `policy` (the SDK constant name) or `url`.
    package static func json(_ callback: Callback) -> JSONObject {
        switch callback {
        case .openInAttemptedWhenBlocked(let status):
            JSONObject(["selector": .string(callback.selector), "policy": .string(status.sdkName)])
        case .openURLAttemptedWhenUnauthorized(let url):
            JSONObject(["selector": .string(callback.selector), "url": .string(url.rawValue)])
        case .dragAndDropToNonAppConnectApp:
            JSONObject(["selector": .string(callback.selector)])
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
