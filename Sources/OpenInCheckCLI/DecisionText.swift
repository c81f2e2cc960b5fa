import OpenInPolicy

/// The readable text format: a block per decision at a terminal, a line per request in a stream.
enum DecisionText {
    /// A decision as a block of labelled lines, the outcome first.
    static func block(_ decision: Decision, request: ShareRequest, explanation: Explanation?) -> String {
        var rows: [(String, String)] = [("request", describe(request))]
        if let target = decision.target, decision.outcome != .deny { rows.append(("to", target.rawValue)) }
        if let audience = decision.audience { rows.append(("readable by", audience == .allApps ? "all apps" : "AppConnect apps only")) }
        for callback in decision.callbacks { rows.append(("callback", describe(callback))) }
        if let dummy = decision.dummyFileName { rows.append(("dummy file", dummy)) }
        rows.append(("Open In UI", decision.openInUI.rawValue))
        rows.append(("rule", decision.rule.rawValue))
        rows.append(("reason", decision.reason))
        var text = headline(decision) + "\n" + table(rows)
        if let explanation {
            let rule = explanation.rule
            var why: [(String, String)] = [
                ("rule", "\(rule.id) (step \(rule.step) of \(RuleInfo.stepCount))"),
                ("summary", rule.summary),
                ("source", rule.source),
                ("quote", "\"\(rule.quote)\""),
            ]
            for (index, sentence) in explanation.inputs.enumerated() {
                why.append((index == 0 ? "inputs" : "", "- " + sentence))
            }
            text += "\nWhy\n" + table(why)
        }
        return text
    }

    /// A decision on one line of a stream: `line 3: deny  open-url foo://x  [RULE-ID]`.
    static func line(_ number: Int, _ decision: Decision, request: ShareRequest, id: JSONValue?, explanation: Explanation?) -> String {
        var text = "line \(number)\(idSuffix(id)): \(decision.outcome)  \(describe(request))"
        if let target = decision.target, decision.outcome != .deny, target != request.target { text += " → \(target)" }
        text += "  [\(decision.rule)]\n"
        if let explanation {
            for sentence in explanation.inputs { text += "    - \(sentence)\n" }
        }
        return text
    }

    /// An invalid line of a stream.
    static func errorLine(_ number: Int, id: JSONValue?, message: String) -> String {
        "line \(number)\(idSuffix(id)): error  \(message)\n"
    }

    /// The first line: the outcome, then what it means for this request.
    static func headline(_ decision: Decision) -> String {
        switch decision.outcome {
        case .allow:
            decision.target.map { "allow: delivered to \($0)" } ?? "allow: delivered"
        case .redirect:
            "redirect: delivered to \(decision.target?.rawValue ?? "another app") instead"
        case .substituteDummyFile:
            "substitute-dummy-file: \(decision.target?.rawValue ?? "the target") receives a dummy file it cannot open"
        case .deny:
            "deny: nothing is delivered"
        }
    }

    /// A request in a few words: its channel, then its target or URL, then its document.
    static func describe(_ request: ShareRequest) -> String {
        var parts = [request.channel.rawValue]
        if let target = request.target { parts.append(target.rawValue) }
        if let source = request.source { parts.append("from " + source.rawValue) }
        if let url = request.url { parts.append(url.rawValue) }
        if let document = request.document { parts.append("(\(document))") }
        return parts.joined(separator: " ")
    }

    /// A callback with its argument: `appConnect:openURLAttemptedWhenUnauthorizedForURL: with mailto:a@example.com`.
    static func describe(_ callback: Callback) -> String {
        switch callback {
        case .openInAttemptedWhenBlocked(let status): "\(callback.selector) with \(status.sdkName)"
        case .openURLAttemptedWhenUnauthorized(let url): "\(callback.selector) with \(url.rawValue)"
        case .dragAndDropToNonAppConnectApp: callback.selector
        case .openFromAttemptedWhenBlocked(let status, let source): "\(callback.selector) with \(status.sdkName), \(source?.rawValue ?? "nil (unknown source)")"
        case .copyAttemptedWhenUnauthorized(let policy): "\(callback.selector) with \(policy.sdkName)"
        }
    }

    private static func idSuffix(_ id: JSONValue?) -> String {
        id.map { " (id \(JSONWriter.compact($0)))" } ?? ""
    }

    /// Rows as `  label   value`, the values aligned.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            "  " + label + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }.joined()
    }
}
