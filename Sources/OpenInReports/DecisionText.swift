import OpenInPolicy

/// The readable text format: a block per decision at a terminal, a line per request in a stream.
///
/// Every string echoed from the input (a document name, a URL, an error
/// message quoting a line, an explanation quoting a config value) goes
/// through ``escaped(_:)``, so a request is always exactly one line and no
/// input can forge a record or move the terminal's cursor.
public enum DecisionText {
    /// A decision as a block of labelled lines, the outcome first.
    public static func block(_ decision: Decision, request: ShareRequest, explanation: Explanation?, inputs wording: (String) -> String) -> String {
        var rows: [(String, String)] = [("request", describe(request))]
        if let target = decision.target, decision.outcome != .deny { rows.append(("to", escaped(target.rawValue))) }
        if let audience = decision.audience { rows.append(("readable by", audience == .allApps ? "all apps" : "AppConnect apps only")) }
        for callback in decision.callbacks { rows.append(("callback", describe(callback))) }
        if let dummy = decision.dummyFileName { rows.append(("dummy file", escaped(dummy))) }
        rows.append(("Open In UI", decision.openInUI.rawValue))
        rows.append(("rule", decision.rule.rawValue))
        rows.append(("reason", escaped(decision.reason)))
        var text = headline(decision) + "\n" + table(rows)
        if let explanation {
            let rule = explanation.rule
            var why: [(String, String)] = [
                ("rule", "\(rule.id) (step \(rule.step) of \(RuleInfo.stepCount))"),
                ("summary", escaped(rule.summary)),
                ("source", escaped(rule.source)),
                ("quote", "\"\(escaped(rule.quote))\""),
            ]
            for (index, sentence) in explanation.inputs.enumerated() {
                why.append((index == 0 ? "inputs" : "", "- " + escaped(wording(sentence))))
            }
            text += "\nWhy\n" + table(why)
        }
        return text
    }

    /// A decision on one line of a stream: `line 3: deny  open-url foo://x  [RULE-ID]`.
    public static func line(_ number: Int, _ decision: Decision, request: ShareRequest, id: JSONValue?, explanation: Explanation?,
                             inputs wording: (String) -> String) -> String {
        var text = "line \(number)\(idSuffix(id)): \(decision.outcome)  \(describe(request))"
        if let target = decision.target, decision.outcome != .deny, target != request.target { text += " → \(escaped(target.rawValue))" }
        text += "  [\(decision.rule)]\n"
        if let explanation {
            for sentence in explanation.inputs { text += "    - \(escaped(wording(sentence)))\n" }
        }
        return text
    }

    /// An invalid line of a stream.
    public static func errorLine(_ number: Int, id: JSONValue?, message: String) -> String {
        "line \(number)\(idSuffix(id)): error  \(escaped(message))\n"
    }

    /// The first line: the outcome, then what it means for this request.
    static func headline(_ decision: Decision) -> String {
        switch decision.outcome {
        case .allow:
            decision.target.map { "allow: delivered to \(escaped($0.rawValue))" } ?? "allow: delivered"
        case .redirect:
            "redirect: delivered to \(escaped(decision.target?.rawValue ?? "another app")) instead"
        case .substituteDummyFile:
            "substitute-dummy-file: \(escaped(decision.target?.rawValue ?? "the target")) receives a dummy file it cannot open"
        case .deny:
            "deny: nothing is delivered"
        case .deliverEncrypted:
            "deliver-encrypted: \(escaped(decision.target?.rawValue ?? "the target")) receives the content encrypted by Intune: only policy-managed apps can read it"
        }
    }

    /// A request in a few words, escaped: its channel, then its target or URL, then its document.
    package static func describe(_ request: ShareRequest) -> String {
        // Appended piece by piece: the generic `joined(separator:)` is not specialized for this
        // module, and its first call cost a tenth of a one-request run.
        var text = request.channel.rawValue
        if let target = request.target { text += " " + escaped(target.rawValue) }
        if let source = request.source { text += " from " + escaped(source.rawValue) }
        if let url = request.url { text += " " + escaped(url.rawValue) }
        if let document = request.document { text += " (" + escaped(document) + ")" }
        return text
    }

    /// A callback with its argument: `appConnect:openURLAttemptedWhenUnauthorizedForURL: with mailto:a@example.com`.
    package static func describe(_ callback: Callback) -> String {
        switch callback {
        case .openInAttemptedWhenBlocked(let status): "\(callback.selector) with \(status.sdkName)"
        case .openURLAttemptedWhenUnauthorized(let url): "\(callback.selector) with \(escaped(url.rawValue))"
        case .dragAndDropToNonAppConnectApp: callback.selector
        case .openFromAttemptedWhenBlocked(let status, let source): "\(callback.selector) with \(status.sdkName), \(escaped(source?.rawValue ?? "nil (unknown source)"))"
        case .copyAttemptedWhenUnauthorized(let policy): "\(callback.selector) with \(policy.sdkName)"
        }
    }

    private static func idSuffix(_ id: JSONValue?) -> String {
        id.map { " (id \(escaped(JSONWriter.compact($0))))" } ?? ""
    }

    /// `text` safe to print on one line: the backslash, C0 and C1 controls, DEL, the line and
    /// paragraph separators, the bidirectional controls (which reorder what a reader sees) and the invisible
    /// characters that hide text (zero-width space, word joiner, byte-order mark, tags and the like)
    /// written as escapes — `\\`, `\n`, `\r`, `\t`, otherwise `\u{1B}` — and everything else as is.
    /// - Parameter backslash: whether a backslash is escaped too (so every escape is unambiguous); lint's
    ///   messages quote values as JSON strings already, and keep their backslashes as they are.
    public static func escaped(_ text: String, backslash: Bool = true) -> String {
        // Printable ASCII (a backslash only when it is kept) is written as is: checked on the bytes first.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F || (byte == 0x5C && backslash) { return false }
            return true
        }
        if plain == true { return text }
        guard text.unicodeScalars.contains(where: { needsEscape($0) && (backslash || $0 != "\\") }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where !backslash: result.unicodeScalars.append(scalar)
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether ``escaped(_:backslash:)`` writes `scalar` as an escape: a control, a separator, a bidirectional or an
    /// invisible character, or the backslash.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x5C, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        // Invisible characters that hide text or change how it is read: the zero-width space, word joiner and invisible
        // operators, the deprecated format controls, the byte-order mark, the interlinear annotation controls, tags.
        case 0x200B, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// Rows as `  label   value`, the values aligned.
    private static func table(_ rows: [(String, String)]) -> String {
        var width = 0
        for (label, _) in rows { width = max(width, label.count) }
        var text = ""
        for (label, value) in rows {
            text += "  " + label + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }
        return text
    }
}
