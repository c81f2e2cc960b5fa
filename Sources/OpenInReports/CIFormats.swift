import OpenInPolicy

/// GitHub Actions workflow commands: `::error file=…,line=…::message` annotations.
enum GitHubAnnotation {
    /// The annotation kinds a workflow command can raise.
    package enum Kind: String {
        case error, warning, notice
    }

    /// One annotation line, its properties and message escaped as the workflow-command format requires.
    package static func line(_ kind: Kind, file: String, line: Int?, column: Int? = nil, title: String, message: String) -> String {
        var properties = ["file=" + escapeProperty(file)]
        if let line { properties.append("line=\(line)") }
        if line != nil, let column { properties.append("col=\(column)") }
        properties.append("title=" + escapeProperty(title))
        return "::\(kind.rawValue) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }

    /// `%`, CR and LF percent-encoded, as in a command's message.
    static func escapeData(_ text: String) -> String {
        text.escapingScalars { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            default: nil
            }
        }
    }

    /// A property value: the message's escapes, and `:` and `,` too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingColonsAndCommas
    }
}

private extension String {
    var replacingColonsAndCommas: String {
        escapingCharacters { character in
            switch character {
            case ":": "%3A"
            case ",": "%2C"
            default: nil
            }
        }
    }
}

/// XML 1.0 text and attribute values, for JUnit reports.
enum XMLText {
    /// `text` escaped for element content (`attribute: false`) or a double-quoted attribute value.
    ///
    /// Characters XML 1.0 cannot hold at all (most C0 controls, unpaired surrogates cannot occur in
    /// a Swift string) become U+FFFD, so the document stays well-formed whatever a table holds.
    static func escape(_ text: String, attribute: Bool) -> String {
        text.escapingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"" where attribute: "&quot;"
            case "\n" where attribute: "&#10;"
            case "\r": "&#13;"
            case "\t" where attribute: "&#9;"
            case "\t", "\n": nil
            default: scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
            }
        }
    }
}

/// A SARIF 2.1.0 log (OASIS) for code scanning: one run, every check a rule, every finding a result
/// (`lint --format sarif`, `fleet lint --format sarif`); `fleet paths` and `fleet diff` stream theirs through the same
/// beginning and end (``start(driver:)``, ``end(empty:)``).
package enum SARIFLog {
    /// The schema the log names in `$schema`.
    static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// A check, as a `reportingDescriptor`.
    package struct Rule {
        /// The stable code.
        package var id: String
        /// The check's name.
        package var name: String
        /// Its one line (`shortDescription`).
        package var summary: String
        /// `error`, `warning` or `note` (`defaultConfiguration.level`).
        package var level: String

        /// A value of these parts.
        package init(id: String, name: String, summary: String, level: String) {
            self.id = id
            self.name = name
            self.summary = summary
            self.level = level
        }
    }

    /// A finding, as a `result`.
    package struct Result {
        var ruleID: String
        /// The rule's index in the run's rules, when it is one of them.
        var ruleIndex: Int?
        package var level: String
        /// What is wrong, as the input shows it (escaped as SARIF message text when written).
        package var message: String
        /// How to fix it, written on the message's second line after `fix: ` (escaped as the message is).
        package var fix: String
        package var file: String
        package var line: Int?
        /// The 1-based column in characters (Unicode scalars), when known.
        package var column: Int?
        /// The key path in the file (a `logicalLocation`); none when empty.
        package var keyPath: String

        /// A value of these parts.
        package init(ruleID: String, ruleIndex: Int? = nil, level: String, message: String, fix: String, file: String, line: Int? = nil, column: Int? = nil, keyPath: String) {
            self.ruleID = ruleID
            self.ruleIndex = ruleIndex
            self.level = level
            self.message = message
            self.fix = fix
            self.file = file
            self.line = line
            self.column = column
            self.keyPath = keyPath
        }
    }

    /// The SARIF version the log declares.
    static let version = "2.1.0"

    /// The tool: its name, version, where to read about it, and `rules` (its `reportingDescriptor`s).
    static func driver(rules: [JSONValue]) -> JSONObject {
        JSONObject(members: [
            .init("name", .string(ReportTool.name)), .init("version", .string(ReportTool.version)),
            .init("informationUri", .string("https://github.com/openin-check/openin-check")), .init("rules", .array(JSONArray(rules))),
        ])
    }

    /// The log up to the results array's opening bracket, laid out as the pretty JSON writer lays out the whole log:
    /// one run, its tool `driver`, columns counted in Unicode code points.
    package static func start(driver: JSONObject) -> [UInt8] {
        var bytes: [UInt8] = Array("{\n  \"$schema\": \(JSONWriter.quoted(schema)),\n  \"version\": \"\(version)\",\n  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": ".utf8)
        JSONWriter.append(.object(driver), to: &bytes, pretty: true, level: 4)
        bytes += Array("\n      },\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [".utf8)
        return bytes
    }

    /// One result of the log (after a comma when it is not the first), at its place in the layout.
    package static func append(_ result: JSONObject, first: Bool, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.newline(&bytes, pretty: true, level: 4)
        JSONWriter.append(.object(result), to: &bytes, pretty: true, level: 4)
    }

    /// The end of the log, after the last result (`empty`: none was written).
    package static func end(empty: Bool) -> [UInt8] { Array(((empty ? "]" : "\n      ]") + "\n    }\n  ]\n}\n").utf8) }

    /// The whole log of `rules` and `results`, written to `sink`.
    package static func write(rules: [Rule], results: [Result], to sink: any ReportSink) {
        let rules = rules.map { rule in
            JSONValue.object(JSONObject(members: [
                .init("id", .string(rule.id)),
                .init("name", .string(rule.name)),
                .init("shortDescription", .object(JSONObject(["text": .string(SARIFText.message(rule.summary))]))),
                .init("defaultConfiguration", .object(JSONObject(["level": .string(rule.level)]))),
            ]))
        }
        var bytes = start(driver: driver(rules: rules))
        for (index, item) in results.enumerated() { append(result(item), first: index == 0, to: &bytes) }
        bytes += end(empty: results.isEmpty)
        sink.write(bytes)
    }

    package static func result(_ result: Result) -> JSONObject {
        var physical: [JSONObject.Member] = [.init("artifactLocation", .object(JSONObject(["uri": .string(uri(result.file))])))]
        if let line = result.line {
            var region: [JSONObject.Member] = [.init("startLine", .number(JSONNumber(line)))]
            if let column = result.column { region.append(.init("startColumn", .number(JSONNumber(column)))) }
            physical.append(.init("region", .object(JSONObject(members: region))))
        }
        var place: [JSONObject.Member] = [.init("physicalLocation", .object(JSONObject(members: physical)))]
        if !result.keyPath.isEmpty {
            place.append(.init("logicalLocations", .array(JSONArray([
                .object(JSONObject(["fullyQualifiedName": .string(SARIFText.plain(result.keyPath)), "kind": .string("member")])),
            ]))))
        }
        var members: [JSONObject.Member] = [.init("ruleId", .string(result.ruleID))]
        if let ruleIndex = result.ruleIndex { members.append(.init("ruleIndex", .number(JSONNumber(ruleIndex)))) }
        members += [
            .init("level", .string(result.level)),
            .init("message", .object(JSONObject(["text": .string(SARIFText.message(result.message) + "\nfix: " + SARIFText.message(result.fix))]))),
            .init("locations", .array(JSONArray([.object(JSONObject(members: place))]))),
        ]
        return JSONObject(members: members)
    }

    /// A file path as a URI reference: every byte outside RFC 3986's unreserved characters and `/` percent-encoded
    /// (`:` too, so a relative path is never read as a scheme).
    static func uri(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}
