import OpenInPolicy

/// `lint`: an administrator's mistakes in policy files, AppConnect.plists and Info.plists.
struct LintCommand: Command, Equatable {
    /// The files, in the order given.
    var files: [String]
    /// `--strict`: warnings count as errors.
    var strict: Bool
    /// `--format`: text or json.
    var json: Bool
    /// `--build-setting NAME=VALUE`, in order: values for Info.plist references.
    var buildSettings: [PolicyOptions.Pair] = []

    static let specs: [OptionSpec] = [
        OptionSpec("--strict", help: "Report warnings as errors (exit 1 instead of 2)."),
        OptionSpec("--format", value: "FORMAT", help: "text (default) or json."),
        OptionSpec("--build-setting", value: "NAME=VALUE", repeatable: true, help: "Resolve $(NAME) and ${NAME} in an Info.plist's URL schemes, as eval does. Repeatable."),
    ]

    static let usage = "openin-check lint [--strict] [--format text|json] [--build-setting NAME=VALUE]... FILE..."

    static let verb = Verb(
        name: "lint",
        abstract: "Find an administrator's mistakes in policy files, AppConnect.plists and Info.plists.",
        usage: usage,
        help: """
            Find an administrator's mistakes in policy files, AppConnect.plists and
            Info.plists before they reach a device: each finding has a stable code, a
            severity, where it is (file:line:column and key path; a plist has key paths
            only), what is wrong and how to fix it.

            Usage: \(usage)

            Arguments:
              FILE  A JSON policy file, an AppConnect.plist or an Info.plist (XML or binary).
                    A property list is an AppConnect.plist when it is named AppConnect.plist
                    or has a top-level 'policy' or 'appconnectapps' key; otherwise an Info.plist.
                    Files named together describe one app: an Info.plist applies to every
                    policy file beside it (OI009).

            Options:
            \(OptionScanner.helpSection(for: specs))

            Checks:
            \(checkList)

            What the override keys accept (another string is read as off; another type is
            rejected by the file's reader):
              MI_AC_DISABLE_SCHEME_BLOCKING      server config: exactly the string "true"
              MI_AC_DISABLE_OPEN_IN_ENFORCEMENT  server config: "yes" or "true", any letter case
              MI_APP_CONNECT → MI_AC_DISABLE_SCHEME_BLOCKING
                                                 Info.plist: the Boolean YES (<true/>)

            Output:
              text  one finding per entry: 'FILE:LINE:COLUMN: SEVERITY CODE NAME: KEY PATH: message',
                    then '    fix: …'; then a summary line.
              json  {"files", "findings": [{"code", "name", "severity", "file", "line"?,
                    "column"?, "keyPath", "message", "fix"}], "summary": {"errors",
                    "warnings", "info"}}

            Exit status:
              0   no errors or warnings (info findings allowed)
              1   some finding is an error (with --strict: or a warning), or a file cannot be opened
              2   the worst finding is a warning
              64  usage error

            Examples:
              openin-check lint Examples/lint/mistakes.json
              openin-check lint --strict Examples/lint/AppConnect.plist Examples/lint/Info.plist

            """,
        parse: { arguments throws(UsageError) in try LintCommand.parse(arguments) })

    /// The checks for the help: `  OI001  error   mail-pair-half  summary`.
    private static var checkList: String {
        let nameWidth = LintCheck.all.map(\.name.count).max() ?? 0
        return LintCheck.all.map { check in
            let severity = check.severity.rawValue + String(repeating: " ", count: 8 - check.severity.rawValue.count)
            let name = check.name + String(repeating: " ", count: nameWidth - check.name.count)
            return "  \(check.code)  \(severity)\(name)  \(check.summary)"
        }.joined(separator: "\n")
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> LintCommand {
        let options = try OptionScanner.scan(arguments, specs: specs, verb: "lint")
        guard !options.positionals.isEmpty else {
            throw UsageError("no file given: name one or more policy files, AppConnect.plists or Info.plists", verb: "lint")
        }
        if let dash = options.positionals.first(where: { $0 == "-" }) {
            throw UsageError("'\(dash)': lint reads files, not standard input (it names each finding's file)", verb: "lint")
        }
        var json = false
        if let format = options.value("--format") {
            switch format {
            case "text": json = false
            case "json": json = true
            default:
                throw UsageError("unknown format '\(format)': use text or json.\(Suggestion.phrase(for: format, among: ["text", "json"]))", verb: "lint")
            }
        }
        let settings = try options.all("--build-setting").map { text throws(UsageError) in
            try PolicyOptions.pair(text, option: "--build-setting NAME=VALUE", valueMayBeEmpty: true, verb: "lint")
        }
        return LintCommand(files: options.positionals, strict: options.has("--strict"), json: json, buildSettings: settings)
    }

    func run(_ console: Console) throws(CLIError) -> ExitStatus {
        let settings = try PolicyOptions.buildSettings(buildSettings)
        var documents: [PolicyDocument] = []
        for file in files {
            documents.append(PolicyDocument(contentsOf: try ByteSource.readFile(path: file, what: "file to lint"), file: file, buildSettings: settings))
        }
        var findings = PolicyLint.lint(documents)
        if strict { findings = findings.map(\.strict) }
        let count = { (severity: LintSeverity) in findings.count(where: { $0.severity == severity }) }
        let errors = count(.error), warnings = count(.warning), info = count(.info)
        if json {
            console.stdout.write(JSONWriter.pretty(.object(JSONObject([
                "files": .array(JSONArray(files.map { .string($0) })),
                "findings": .array(JSONArray(findings.map { .object(Self.record($0)) })),
                "summary": .object(JSONObject(["errors": .number(JSONNumber(errors)), "warnings": .number(JSONNumber(warnings)),
                                               "info": .number(JSONNumber(info))])),
            ]))) + "\n")
        } else {
            for finding in findings { console.stdout.write(Self.text(finding)) }
            let scope = files.count == 1 ? "1 file" : "\(files.count) files"
            if findings.isEmpty {
                console.stdout.write("lint: no findings in \(scope)\n")
            } else {
                let plural = { (n: Int, word: String) in "\(n) \(word)\(n == 1 ? "" : "s")" }
                console.stdout.write("\nlint: \(plural(errors, "error")), \(plural(warnings, "warning")), \(info) info in \(scope)\n")
            }
        }
        // The contract's statuses, read for lint: 1 (`invalidInput`) for errors, 2 (`notAllowed`) for warnings only.
        if errors > 0 { return .invalidInput }
        return warnings > 0 ? .notAllowed : .success
    }

    /// `policy.json:4:5: error OI001 mail-pair-half: openInWhitelist[1]: message`, then the fix, indented.
    static func text(_ finding: LintFinding) -> String {
        let path = finding.location.keyPath.isEmpty ? "" : "\(finding.location.keyPath): "
        return "\(finding.location): \(finding.severity) \(finding.check.code) \(finding.check.name): \(path)\(finding.message)\n"
            + "    fix: \(finding.fix)\n"
    }

    static func record(_ finding: LintFinding) -> JSONObject {
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
