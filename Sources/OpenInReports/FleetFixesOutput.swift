import OpenInPolicy

/// `fleet fixes`: verified changes ranked by the paths they close, and the plan.
public enum FleetFixesOutput {
    static func patchText(_ patch: [JSONPatchOperation]) -> String { JSONWriter.compact(JSONPatch.json(patch)) }

    package static func place(_ fix: FleetFix) -> String {
        DecisionText.escaped(fix.file) + (fix.line.map { ":\($0)" } ?? "")
    }

    /// The collateral's lines: a count, then one flow a line (at most `limit`), each indented by `indent`;
    /// `what` says what the change does to them.
    package static func flows(_ flows: [InsideFlow], indent: String, limit: Int = 10, what: String = "blocked") -> String {
        guard !flows.isEmpty else { return "none\n" }
        var text = "\(flows.count) flow\(flows.count == 1 ? "" : "s") inside the zone of trust \(what):\n"
        for flow in flows.prefix(limit) {
            text += "\(indent)\(DecisionText.escaped(flow.device)): \(DecisionText.escaped(flow.from)) → \(DecisionText.escaped(flow.to)) (\(flow.channel))\n"
        }
        if flows.count > limit { text += "\(indent)\(flows.count - limit) more not listed\n" }
        return text
    }

    /// The report as text: the paths to close, each fix with what it closes and blocks, then the plan.
    public static func text(_ report: FleetFixReport) -> String {
        var out = ""
        let count = report.paths.count
        guard count > 0 else { return "no path to close\n" }
        out += "\(count) path\(count == 1 ? "" : "s") to close; \(report.candidates) candidate change\(report.candidates == 1 ? "" : "s") verified, \(report.fixes.count) close\(report.fixes.count == 1 ? "s" : "") some\n\n"
        out += "Fixes, best first (most paths closed, least collateral, fewest apps touched):\n"
        for (number, fix) in report.fixes.enumerated() {
            out += "\(number + 1). \(DecisionText.escaped(fix.change))\n"
            out += "   closes \(fix.closes.count) of \(count), \(fix.remaining.count) remaining; \(place(fix))\n"
            out += "   collateral: \(flows(fix.collateral, indent: "     "))"
            if !fix.newlyAllowed.isEmpty { out += "   also newly allows: \(flows(fix.newlyAllowed, indent: "     ", what: "blocked before"))" }
            out += "   patch: \(DecisionText.escaped(patchText(fix.patch)))\n"
        }
        if report.fixes.isEmpty { out += "  none: no change of one setting closes a path\n" }
        out += notBuiltText(report.unbuilt)
        out += "\n" + planText(report.plan, count: count, paths: report.paths)
        return out
    }

    /// The candidate changes that could not be made or verified, each with why; nothing when there is none.
    static func notBuiltText(_ unbuilt: [UnbuiltFix]) -> String {
        guard !unbuilt.isEmpty else { return "" }
        var out = "\nNot built: \(unbuilt.count) candidate change\(unbuilt.count == 1 ? "" : "s") could not be made or verified:\n"
        for fix in unbuilt { out += "  - \(DecisionText.escaped(fix.change))\n    why: \(DecisionText.escaped(fix.why))\n" }
        return out
    }

    /// "N change(s) close(s)", the verb agreeing with the count.
    static func changesClose(_ changes: Int) -> String { "\(changes) change\(changes == 1 ? " closes" : "s close")" }

    /// What the plan closes of `count` paths, and what it leaves: the paths it opens counted among those left.
    static func planSummary(_ plan: FleetFixPlan, count: Int, paths: [LeakPath]) -> String {
        if plan.remaining.isEmpty { return "\(changesClose(plan.changes.count)) all \(count) path\(count == 1 ? "" : "s")" }
        let given = Set(paths)
        let opened = plan.remaining.count(where: { !given.contains($0) })
        return "\(changesClose(plan.changes.count)) \(plan.closes.count) of \(count) path\(count == 1 ? "" : "s"); \(plan.remaining.count) left"
            + (opened > 0 ? " (\(opened) of them opened by the plan)" : "")
    }

    package static func planText(_ plan: FleetFixPlan, count: Int, paths: [LeakPath]) -> String {
        var out = ""
        if plan.changes.isEmpty {
            // Nothing to apply: no step, no patch.
            out += "Plan: none; \(plan.remaining.count) path\(plan.remaining.count == 1 ? "" : "s") left:\n"
        } else {
            out += "Plan: \(planSummary(plan, count: count, paths: paths)):\n"
        }
        for (number, step) in plan.changes.enumerated() {
            out += "  \(number + 1). \(DecisionText.escaped(step.change)) (\(place(step)))\n"
        }
        if !plan.changes.isEmpty {
            out += "  collateral: \(flows(plan.collateral, indent: "    "))"
            if !plan.newlyAllowed.isEmpty { out += "  also newly allows: \(flows(plan.newlyAllowed, indent: "    ", what: "blocked before"))" }
        }
        for file in plan.patches {
            out += "  patch for \(DecisionText.escaped(file.file)): \(DecisionText.escaped(patchText(file.patch)))\n"
        }
        if !plan.remaining.isEmpty {
            for path in plan.remaining.prefix(20) {
                out += "  left: \(DecisionText.escaped(path.device)): \(DecisionText.escaped(path.from)) → \(DecisionText.escaped(path.to))\n"
            }
            if plan.remaining.count > 20 { out += "  \(plan.remaining.count - 20) more left not listed\n" }
            if let why = plan.why { out += "  why: \(why)\n" }
        }
        return out
    }

    /// A name or change in the Markdown: shown as ``MarkdownText/text(_:)`` shows it, so none can break the table
    /// or turn into markup, a link or math.
    package static func cell(_ text: String) -> String { MarkdownText.text(text) }

    /// The report as GitHub-flavoured Markdown, listing at most `limit` fixes.
    public static func markdown(_ report: FleetFixReport, limit: Int = 20) -> String {
        let count = report.paths.count
        guard count > 0 else { return "No path to close.\n" }
        var out = "**\(count) path\(count == 1 ? "" : "s") to close.** \(report.fixes.count) verified fix\(report.fixes.count == 1 ? "" : "es"), best first.\n\n"
        out += "| # | Change | Paths closed | Collateral |\n|---|---|---|---|\n"
        for (number, fix) in report.fixes.prefix(limit).enumerated() {
            var collateral = fix.collateral.isEmpty ? "none" : "\(fix.collateral.count) inside flow\(fix.collateral.count == 1 ? "" : "s")"
            if !fix.newlyAllowed.isEmpty { collateral += "; also newly allows \(fix.newlyAllowed.count)" }
            out += "| \(number + 1) | \(cell(fix.change)) | \(fix.closes.count) of \(count) | \(collateral) |\n"
        }
        if report.fixes.count > limit { out += "\n\(report.fixes.count - limit) more fixes not listed.\n" }
        if !report.unbuilt.isEmpty {
            out += "\n**Not built**: \(report.unbuilt.count) candidate change\(report.unbuilt.count == 1 ? "" : "s") could not be made or verified.\n\n"
            for fix in report.unbuilt.prefix(limit) { out += "- \(cell(fix.change)) Why: \(cell(fix.why))\n" }
            if report.unbuilt.count > limit { out += "- \(report.unbuilt.count - limit) more not listed\n" }
        }
        out += "\n**Plan**: "
        let plan = report.plan
        guard !plan.changes.isEmpty else {
            // Nothing to apply: no step, no patch.
            return out + "none; \(plan.remaining.count) path\(plan.remaining.count == 1 ? "" : "s") left (\(plan.why ?? "")).\n"
        }
        out += plan.remaining.isEmpty ? "\(planSummary(plan, count: count, paths: report.paths)).\n\n"
            : "\(planSummary(plan, count: count, paths: report.paths)) (\(plan.why ?? "")).\n\n"
        for (number, step) in plan.changes.enumerated() { out += "\(number + 1). \(cell(step.change))\n" }
        out += "\nCollateral: \(plan.collateral.isEmpty ? "none" : "")\n"
        for flow in plan.collateral.prefix(limit) {
            out += "- \(cell(flow.device)): \(cell(flow.from)) → \(cell(flow.to)) (\(flow.channel))\n"
        }
        if plan.collateral.count > limit { out += "- \(plan.collateral.count - limit) more not listed\n" }
        if !plan.newlyAllowed.isEmpty {
            out += "\nAlso newly allows (inside the zone of trust, blocked before):\n"
            for flow in plan.newlyAllowed.prefix(limit) {
                out += "- \(cell(flow.device)): \(cell(flow.from)) → \(cell(flow.to)) (\(flow.channel))\n"
            }
            if plan.newlyAllowed.count > limit { out += "- \(plan.newlyAllowed.count - limit) more not listed\n" }
        }
        for file in plan.patches {
            out += "\n<details><summary>JSON Patch for \(HTMLText.text(file.file))</summary>\n\n```json\n\(MarkdownText.jsonBlock(JSONWriter.pretty(JSONPatch.json(file.patch))))\n```\n\n</details>\n"
        }
        return out
    }
}
