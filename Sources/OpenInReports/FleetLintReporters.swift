import OpenInPolicy

/// What `fleet lint` found in one fleet file (an AppConnect fleet's, or Intune policies'): the value its reporters write.
public struct FleetLintReport: Sendable {
    /// One check that can make findings: SARIF lists every one as a rule.
    public typealias Check = (code: String, name: String, summary: String, severity: FleetFinding.Severity)

    /// The findings, in order.
    public var findings: [FleetFinding]
    /// Every check that made them.
    public var checks: [Check]
    /// The file a finding that names none is placed in.
    public var file: String

    /// A report of `findings` made by `checks` over `file`.
    public init(findings: [FleetFinding], checks: [Check], file: String) {
        (self.findings, self.checks, self.file) = (findings, checks, file)
    }

    /// How many findings are errors, warnings and info.
    package var counts: (errors: Int, warnings: Int, info: Int) {
        var counts = (errors: 0, warnings: 0, info: 0)
        for finding in findings {
            switch finding.severity {
            case .error: counts.errors += 1
            case .warning: counts.warnings += 1
            case .info: counts.info += 1
            }
        }
        return counts
    }

    /// `1 error, 2 warnings, 0 info`, and a new line.
    var countsLine: String {
        let counts = counts
        return "\(counts.errors) error\(counts.errors == 1 ? "" : "s"), \(counts.warnings) warning\(counts.warnings == 1 ? "" : "s"), \(counts.info) info\n"
    }
}

/// The fleet lint formats, in the order help lists them.
extension ReporterRegistry {
    /// Registers `fleet lint`'s formats: text, json, markdown, github, sarif.
    mutating func registerFleetLint() {
        register(FleetLintText())
        register(FleetLintJSON())
        register(FleetLintMarkdown())
        register(FleetLintGitHub())
        register(FleetLintSARIF())
    }
}

/// `fleet lint --format text`: a finding's place, severity, code, name and message, then its fix, indented; then the counts.
public struct FleetLintText: Reporter {
    /// `text`.
    public let name = "text"
    /// The reporter.
    public init() {}

    /// Writes the findings and the counts.
    public func write(_ report: FleetLintReport, to sink: any ReportSink) {
        // Written 64 KiB at a time: memory stays bounded by a chunk, not the report (tens of thousands of findings on a large fleet).
        var text = ""
        text.reserveCapacity(1 << 16 + 1 << 12)
        let file = DecisionText.escaped(report.file)
        for finding in report.findings {
            text += finding.file.map { DecisionText.escaped($0) } ?? file
            if let line = finding.line { text += ":\(line)" }
            text += ": \(finding.severity.rawValue) \(finding.code) \(finding.name)"
            if let device = finding.device { text += " (device \(DecisionText.escaped(device)))" }
            text += ": \(DecisionText.escaped(finding.message, backslash: false))\n    fix: \(DecisionText.escaped(finding.fix, backslash: false))\n"
            if text.utf8.count >= 1 << 16 {
                sink.write(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        sink.write(text + report.countsLine)
    }
}

/// `fleet lint --format json`: `{"file", "findings": [...], "summary": {"errors", "warnings", "info"}}`.
public struct FleetLintJSON: Reporter {
    /// `json`.
    public let name = "json"
    /// The reporter.
    public init() {}

    /// Writes the record.
    public func write(_ report: FleetLintReport, to sink: any ReportSink) {
        let records: [JSONValue] = report.findings.map { finding in
            var members: [JSONObject.Member] = [.init("code", .string(finding.code)), .init("name", .string(finding.name)),
                                                .init("severity", .string(finding.severity.rawValue)), .init("file", .string(finding.file ?? report.file))]
            if let line = finding.line { members.append(.init("line", .number(JSONNumber(line)))) }
            if let device = finding.device { members.append(.init("device", .string(device))) }
            members += [.init("message", .string(finding.message)), .init("fix", .string(finding.fix))]
            return .object(JSONObject(members: members))
        }
        let counts = report.counts
        let summary = JSONObject(members: [.init("errors", .number(JSONNumber(counts.errors))), .init("warnings", .number(JSONNumber(counts.warnings))),
                                           .init("info", .number(JSONNumber(counts.info)))])
        sink.write(JSONWriter.pretty(.object(JSONObject(members: [.init("file", .string(report.file)), .init("findings", .array(JSONArray(records))),
                                                                  .init("summary", .object(summary))]))) + "\n")
    }
}

/// `fleet lint --format markdown`: a table row per finding, then the counts.
public struct FleetLintMarkdown: Reporter {
    /// `markdown`.
    public let name = "markdown"
    /// The reporter.
    public init() {}

    /// Writes the table and the counts.
    public func write(_ report: FleetLintReport, to sink: any ReportSink) {
        let rows = report.findings.map { finding in
            [finding.severity.rawValue, MarkdownText.code(finding.code) + " " + finding.name,
             MarkdownText.code((finding.file ?? report.file) + (finding.line.map { ":\($0)" } ?? "")) + (finding.device.map { " (device " + MarkdownText.code($0) + ")" } ?? ""),
             MarkdownText.cell(finding.message), MarkdownText.cell(finding.fix)]
        }
        sink.write(MarkdownText.table(["severity", "check", "where", "what", "fix"], rows))
        sink.write("\n" + report.countsLine)
    }
}

/// `fleet lint --format github`: a GitHub Actions annotation per finding, then the counts.
public struct FleetLintGitHub: Reporter {
    /// `github`.
    public let name = "github"
    /// The reporter.
    public init() {}

    /// Writes the annotations and the counts.
    public func write(_ report: FleetLintReport, to sink: any ReportSink) {
        for finding in report.findings {
            let kind: GitHubAnnotation.Kind = switch finding.severity {
            case .error: .error
            case .warning: .warning
            case .info: .notice
            }
            let device = finding.device.map { "device \($0): " } ?? ""
            sink.write(GitHubAnnotation.line(kind, file: finding.file ?? report.file, line: finding.line, title: "\(finding.code) \(finding.name)",
                                             message: "\(device)\(finding.message)\nfix: \(finding.fix)"))
        }
        sink.write(report.countsLine)
    }
}

/// `fleet lint --format sarif`: every check a rule, every finding a result, in ``SARIFLog``'s shape.
public struct FleetLintSARIF: Reporter {
    /// `sarif`.
    public let name = "sarif"
    /// The SARIF version the log declares.
    public static let version = SARIFLog.version
    /// The reporter.
    public init() {}

    /// Writes the log.
    public func write(_ report: FleetLintReport, to sink: any ReportSink) {
        let level = { (severity: FleetFinding.Severity) in
            switch severity {
            case .error: "error"
            case .warning: "warning"
            case .info: "note"
            }
        }
        let checks = report.checks
        let rules = checks.map { SARIFLog.Rule(id: $0.code, name: $0.name, summary: $0.summary, level: level($0.severity)) }
        let results = report.findings.map { finding in
            let device = finding.device.map { "device \($0): " } ?? ""
            return SARIFLog.Result(ruleID: finding.code, ruleIndex: checks.firstIndex { ExactText.same($0.code, finding.code) }, level: level(finding.severity),
                                   message: device + finding.message, fix: finding.fix, file: finding.file ?? report.file, line: finding.line, column: nil,
                                   keyPath: finding.keyPath)
        }
        SARIFLog.write(rules: rules, results: results, to: sink)
    }
}
