import OpenInPolicy

/// What `lint` found in policy files, AppConnect.plists and Info.plists: the value its reporters write.
public struct PolicyLintReport: Sendable {
    /// The files linted, in the order given.
    public var files: [String]
    /// The findings, in order.
    public var findings: [LintFinding]

    /// A report of `findings` in `files`.
    public init(files: [String], findings: [LintFinding]) {
        (self.files, self.findings) = (files, findings)
    }

    /// How many findings are errors, warnings and info.
    public var counts: (errors: Int, warnings: Int, info: Int) {
        let count = { (severity: LintSeverity) in findings.count(where: { $0.severity == severity }) }
        return (count(.error), count(.warning), count(.info))
    }

    /// `lint: 1 error, 0 warnings, 2 info in 3 files`, or `lint: no findings in 1 file`, and a new line.
    package var summary: String {
        let counts = counts
        let scope = files.count == 1 ? "1 file" : "\(files.count) files"
        let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
        return findings.isEmpty ? "lint: no findings in \(scope)\n"
            : "lint: \(plural(counts.errors, "error")), \(plural(counts.warnings, "warning")), \(counts.info) info in \(scope)\n"
    }
}

extension ReporterRegistry {
    /// Registers `lint`'s formats: text, json, sarif, markdown, github.
    mutating func registerPolicyLint() {
        register(PolicyLintText())
        register(PolicyLintJSON())
        register(PolicyLintSARIF())
        register(PolicyLintMarkdown())
        register(PolicyLintGitHub())
    }
}

/// `lint --format text`: `policy.json:4:5: error OI001 mail-pair-half: openInWhitelist[1]: message`, then the fix, indented; then the summary.
public struct PolicyLintText: Reporter {
    /// `text`.
    public let name = "text"
    /// The reporter.
    public init() {}

    /// Writes the findings and the summary.
    public func write(_ report: PolicyLintReport, to sink: any ReportSink) {
        for finding in report.findings { sink.write(Self.text(finding)) }
        sink.write(report.findings.isEmpty ? report.summary : "\n" + report.summary)
    }

    /// One finding's two lines. Key paths and messages echo the file, so they are escaped: a finding is always two lines.
    package static func text(_ finding: LintFinding) -> String {
        let path = finding.location.keyPath.isEmpty ? "" : "\(finding.location.keyPath): "
        return DecisionText.escaped("\(finding.location): \(finding.severity) \(finding.check.code) \(finding.check.name): \(path)\(finding.message)", backslash: false) + "\n"
            + "    fix: \(DecisionText.escaped(finding.fix, backslash: false))\n"
    }
}

/// `lint --format json`: `{"files", "findings": [...], "summary": {"errors", "warnings", "info"}}`.
public struct PolicyLintJSON: Reporter {
    /// `json`.
    public let name = "json"
    /// The reporter.
    public init() {}

    /// Writes the record.
    public func write(_ report: PolicyLintReport, to sink: any ReportSink) {
        let counts = report.counts
        sink.write(JSONWriter.pretty(.object(JSONObject([
            "files": .array(JSONArray(report.files.map { .string($0) })),
            "findings": .array(JSONArray(report.findings.map { .object(Self.record($0)) })),
            "summary": .object(JSONObject(["errors": .number(JSONNumber(counts.errors)), "warnings": .number(JSONNumber(counts.warnings)),
                                           "info": .number(JSONNumber(counts.info))])),
        ]))) + "\n")
    }

    /// One finding's JSON object.
    package static func record(_ finding: LintFinding) -> JSONObject {
        var members: [JSONObject.Member] = [
            .init("code", .string(finding.check.code)),
            .init("name", .string(finding.check.name)),
            .init("severity", .string(finding.severity.rawValue)),
            .init("file", .string(finding.location.file)),
        ]
        if let line = finding.location.line { members.append(.init("line", .number(JSONNumber(line)))) }
        if let column = finding.location.column { members.append(.init("column", .number(JSONNumber(column)))) }
        members += [
            .init("keyPath", .string(finding.location.keyPath)),
            .init("message", .string(finding.message)),
            .init("fix", .string(finding.fix)),
        ]
        return JSONObject(members: members)
    }
}

/// `lint --format sarif`: every check a rule, every finding a result, in ``SARIFLog``'s shape.
public struct PolicyLintSARIF: Reporter {
    /// `sarif`.
    public let name = "sarif"
    /// The SARIF version the log declares.
    public static let version = SARIFLog.version
    /// The reporter.
    public init() {}

    /// Writes the log.
    public func write(_ report: PolicyLintReport, to sink: any ReportSink) {
        let checks = LintCheck.all
        SARIFLog.write(
            rules: checks.map { SARIFLog.Rule(id: $0.code, name: $0.name, summary: $0.summary, level: Self.level($0.severity)) },
            results: report.findings.map { finding in
                SARIFLog.Result(ruleID: finding.check.code, ruleIndex: checks.firstIndex(of: finding.check), level: Self.level(finding.severity),
                                message: finding.message, fix: finding.fix, file: finding.location.file,
                                line: finding.location.line, column: finding.location.column, keyPath: finding.location.keyPath)
            }, to: sink)
    }

    /// SARIF's level for a severity: `info` is `note`.
    package static func level(_ severity: LintSeverity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}

/// `lint --format markdown`: one table row per finding, then the summary.
public struct PolicyLintMarkdown: Reporter {
    /// `markdown`.
    public let name = "markdown"
    /// The reporter.
    public init() {}

    /// Writes the table and the summary.
    public func write(_ report: PolicyLintReport, to sink: any ReportSink) {
        sink.write(report.findings.isEmpty ? report.summary : Self.table(report.findings) + "\n" + report.summary)
    }

    /// The findings' table.
    package static func table(_ findings: [LintFinding]) -> String {
        MarkdownText.table(["severity", "check", "where", "key path", "finding", "fix"], findings.map { finding in
            [finding.severity == .error ? "**error**" : finding.severity.rawValue,
             "\(finding.check.code) \(MarkdownText.code(finding.check.name))",
             MarkdownText.code(finding.location.description),
             finding.location.keyPath.isEmpty ? "" : MarkdownText.code(finding.location.keyPath),
             MarkdownText.cell(finding.message), MarkdownText.cell(finding.fix)]
        })
    }
}

/// `lint --format github`: a GitHub Actions annotation per finding, the fix on a second line; then the summary.
public struct PolicyLintGitHub: Reporter {
    /// `github`.
    public let name = "github"
    /// The reporter.
    public init() {}

    /// Writes the annotations and the summary.
    public func write(_ report: PolicyLintReport, to sink: any ReportSink) {
        for finding in report.findings { sink.write(Self.annotation(finding)) }
        sink.write(report.summary)
    }

    /// `::error file=policy.json,line=4,col=5,title=OI001 mail-pair-half::openInWhitelist[1]: message` and the fix on a second line.
    static func annotation(_ finding: LintFinding) -> String {
        let kind: GitHubAnnotation.Kind = switch finding.severity {
        case .error: .error
        case .warning: .warning
        case .info: .notice
        }
        let path = finding.location.keyPath.isEmpty ? "" : "\(finding.location.keyPath): "
        return GitHubAnnotation.line(kind, file: finding.location.file, line: finding.location.line, column: finding.location.column,
                                     title: "\(finding.check.code) \(finding.check.name)", message: "\(path)\(finding.message)\nfix: \(finding.fix)")
    }
}
