import Foundation
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

@testable import OpenInCheckCLI
import OpenInReports

/// The DOT, SARIF and Mermaid writers against names from the hostile alphabet (``HostileNames``), each output
/// checked by a parser of its format: DOT rendered by Graphviz (`dot -Tsvg`, every label read back from the SVG as
/// the text it shows), SARIF parsed as JSON and checked against the schema's required members and SARIF's
/// message rules (§3.11.5 placeholders, §3.11.6 embedded links), Mermaid against the flowchart shapes the writer
/// makes (a quoted label holds no `"`, `<`, `>`, backtick, `|`, `[` or `]`, and its entity codes decode to the
/// name shown) and against Mermaid's own flowchart grammar (``MermaidFlowchart``: accepted and drawn as written). Names reach the writers where the formats allow free text: device names, policy, key, value and
/// file names, URLs, baseline reasons, the files a title names; and, as defence in depth, bundle IDs the readers
/// would have refused (made with ``BundleID/init(validBytes:)``).
@Suite struct DOTSARIFMermaidEscapingTests {
    typealias Generator = HostileNames.Generator

    // MARK: reports from hostile names

    /// A bundle ID holding `text`, unchecked.
    static func bundle(_ text: String) -> BundleID {
        var text = text
        return text.withUTF8 { BundleID(validBytes: $0) }
    }

    /// A device's report: one to three paths of one to three hops, every free text hostile, some paths
    /// accepted or expired by a baseline entry with a hostile reason.
    static func device(_ random: inout Generator, name: String? = nil) -> DeviceReport {
        let device = name ?? HostileNames.name(&random)
        var paths: [ReportPath] = []
        for number in 0..<Int.random(in: 1...3, using: &random) {
            // Each path its own search (its own source), its nodes distinct: a search's paths share the hops of a
            // tree, which the streamed SARIF writer relies on.
            let from = bundle("com.acme." + HostileNames.name(&random) + ".p\(number)")
            var hops: [ReportHop] = []
            var current = FleetNode.app(from)
            let count = Int.random(in: 1...3, using: &random)
            for index in 0..<count {
                let next: FleetNode = index == count - 1 && Bool.random(using: &random) ? .anyOtherApp : .app(bundle(HostileNames.name(&random) + ".h\(index)"))
                let setting = FleetSetting(side: .sender, app: bundle(HostileNames.name(&random)), policy: HostileNames.name(&random), via: HostileNames.name(&random),
                                           key: HostileNames.name(&random), value: HostileNames.name(&random), file: HostileNames.name(&random),
                                           line: Int.random(in: 1...999, using: &random))
                let channel = SARIFReport.channels.randomElement(using: &random)!
                hops.append(ReportHop(from: current, to: next, channel: channel, url: Bool.random(using: &random) ? HostileNames.name(&random) : nil, rules: [],
                                      file: HostileNames.name(&random), line: Int.random(in: 1...999, using: &random),
                                      settings: Bool.random(using: &random) ? [setting] : [setting, setting]))
                current = next
            }
            var path = ReportPath(device: device, from: from, to: current, outside: Bool.random(using: &random), hops: hops)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: path.state = .new
            case 1, 2:
                path.state = Bool.random(using: &random) ? .accepted : .expired
                path.entry = FleetBaseline.Entry(device: device, from: from, to: current, reason: HostileNames.name(&random), expires: BaselineDate("2099-12-31")!, line: 3)
            default: break
            }
            paths.append(path)
        }
        return DeviceReport(device: device, zone: nil, paths: paths, closed: [])
    }

    // MARK: SARIF message rules

    /// Scalars that must never be in an output raw: C0 and C1 controls, DEL, line and paragraph separators, bidi controls.
    static func isRawControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// SARIF message text read back as a viewer reads it (§3.11.6's grammar): `{{`, `}}`, `\[`, `\]` and `\\` undone, so
    /// that the text read is the text with its controls as escapes (``DecisionText/escaped(_:backslash:)``, backslashes
    /// kept: the writer's doubled backslashes are SARIF's escape of a backslash); nil when the text
    /// holds a single `{` or `}` (a placeholder), an unescaped `[` or `]` (an embedded link's start), or a raw control
    /// (a line break only where `allowBreaks`).
    static func decoded(_ text: String, allowBreaks: Bool = false) -> String? {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if isRawControl(scalar) && !(allowBreaks && scalar == "\n") { return nil }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "{", "}":
                guard next == scalar else { return nil }
                result.append(scalar)
                index += 2
            case "[", "]":
                return nil
            case "\\" where next == "\\" || next == "[" || next == "]":
                result.append(next!)
                index += 2
            default:
                result.append(scalar)
                index += 1
            }
        }
        return String(result)
    }

    /// Every message string in a SARIF log: the `text` of each `message`, `shortDescription` and `fullDescription`.
    static func messageTexts(_ value: Any) -> [String] {
        var texts: [String] = []
        if let object = value as? [String: Any] {
            for (key, member) in object {
                if ["message", "shortDescription", "fullDescription"].contains(key), let text = (member as? [String: Any])?["text"] as? String { texts.append(text) }
                texts += messageTexts(member)
            }
        } else if let array = value as? [Any] {
            for member in array { texts += messageTexts(member) }
        }
        return texts
    }

    /// `text` with each U+FEFF as U+E000 (which no name holds): Foundation's JSON parser on Linux drops a U+FEFF at
    /// the start of a string or after an escape, so parsed text and what it is compared with both go through this.
    static func withoutBOM(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{FEFF}" ? "\u{E000}" : $0 }))
    }

    /// Checks a SARIF log: its structure (the schema's required members: the whole schema when `OPENIN_SARIF_SCHEMA`
    /// names a copy), and every message string against SARIF's message rules; returns the log.
    static func checkSARIF(_ text: String, allowBreaks: Bool = false) throws -> Any {
        #expect(!text.unicodeScalars.contains { isRawControl($0) && $0 != "\n" })
        let log = try JSONSerialization.jsonObject(with: Data(withoutBOM(text).utf8))
        if let path = ProcessInfo.processInfo.environment["OPENIN_SARIF_SCHEMA"] {
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let problems = JSONSchemaCheck(root: schema).problems(log)
            #expect(problems.isEmpty, "\(problems.prefix(10))")
        }
        for message in messageTexts(log) {
            #expect(decoded(message, allowBreaks: allowBreaks) != nil, "\(message)")
        }
        return log
    }

    // MARK: DOT, read back from Graphviz's SVG

    /// The text of each `<text>` element of an SVG, its XML references decoded (Graphviz writes a run of spaces with
    /// no-break spaces, read back as spaces). Read byte by byte: a label starting with a joiner makes one grapheme
    /// cluster of the `>` before it.
    static func svgTexts(_ svg: String) -> [String] {
        let bytes = Array(svg.utf8)
        func find(_ needle: String, from start: Int) -> Int? { Self.find(Array(needle.utf8), in: bytes, from: start) }
        var texts: [String] = []
        var position = 0
        while let open = find("<text", from: position), let end = find(">", from: open), let close = find("</text>", from: end) {
            let inside = String(decoding: bytes[(end + 1)..<close], as: UTF8.self)
            texts.append(xmlDecoded(inside).replacingOccurrences(of: "\u{A0}", with: " "))
            position = close + 7
        }
        return texts
    }

    /// Where `needle` starts in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return needle.isEmpty ? start : nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Whether `text` holds `part`, compared as bytes (a String comparison would join grapheme clusters across the edges).
    static func holds(_ text: String, _ part: String) -> Bool { find(Array(part.utf8), in: Array(text.utf8)) != nil }

    /// `text` with its XML references decoded, scalar by scalar (a `&` or `;` can start a grapheme cluster with a joiner).
    static func xmlDecoded(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&", let semicolon = scalars[index...].firstIndex(of: ";") else {
                result.append(scalars[index])
                index += 1
                continue
            }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
            let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            let value = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            if let scalar = named[name] ?? value.flatMap(Unicode.Scalar.init) {
                result.append(scalar)
                index = semicolon + 1
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// What a DOT label must show for `text`: the text as shown (elided), its controls as visible escapes.
    static func shownInDOT(_ text: String) -> String { DecisionText.escaped(DOTText.shown(text)) }

    /// Each double-quoted string of a DOT source, quotes included.
    static func quotedStrings(_ dot: String) -> [Substring] {
        var strings: [Substring] = []
        var index = dot.startIndex, start: String.Index? = nil
        var escaped = false
        while index < dot.endIndex {
            let character = dot[index]
            if let open = start {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                    strings.append(dot[open...index])
                    start = nil
                }
            } else if character == "\"" {
                start = index
            }
            index = dot.index(after: index)
        }
        return strings
    }

    /// Renders DOT sources (one process for all) and checks that Graphviz says nothing on stderr, that every label
    /// in `labels` is drawn as one text showing exactly what it should, and that no drawn text holds a raw control.
    static func checkRendered(_ sources: [String], labels: [String]) throws {
        for source in sources {
            for string in quotedStrings(source) { #expect(string.utf8.count <= 16_384) }
        }
        let rendered = try FleetReportEndToEndTests.render(sources.joined())
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "", "\(rendered.stderr.prefix(500))")
        let texts = svgTexts(rendered.svg)
        let drawn = Set(texts.map { Array($0.utf8) })
        for label in labels { #expect(drawn.contains(Array(label.utf8)), "not drawn as itself: \(label.debugDescription)") }
        for text in texts { #expect(!text.unicodeScalars.contains(where: isRawControl), "\(text.debugDescription)") }
        #expect(!rendered.svg.contains("<b>") && !rendered.svg.contains("<script") && !rendered.svg.contains("<img"))
    }

    // MARK: Mermaid

    /// A Mermaid label's inside read back: its entity codes (`#quot;`, `#35;`) decoded; nil when it holds a character
    /// that may not stand in a quoted label (`"`, `<`, `>`, backtick, `|`, `[`, `]`, `&`), a `#` that starts no code,
    /// or a raw control.
    static func mermaidDecoded(_ label: String) -> String? {
        var result = String.UnicodeScalarView()
        let scalars = Array(label.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if isRawControl(scalar) || "\"<>`|[]&;".unicodeScalars.contains(scalar) { return nil }
            if scalar == "#" {
                guard let end = scalars[index...].firstIndex(of: ";") else { return nil }
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                if name == "quot" { result.append("\"") } else if let value = UInt32(name), let decoded = Unicode.Scalar(value) { result.append(decoded) } else { return nil }
                index = end + 1
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    /// Checks a Mermaid diagram line by line against the shapes the writer makes; returns its labels, decoded.
    static func checkMermaid(_ graph: String) -> [String] {
        var labels: [String] = []
        // Matched scalar by scalar, as Mermaid's lexer reads (a grapheme cluster can join `"` and a joiner).
        let node = #/^    n[0-9]+\["([^"]*)"\](:::(outside|source))?$/#.matchingSemantics(.unicodeScalar)
        let edge = #/^    n[0-9]+ -->\|"([^"]*)"\| n[0-9]+$/#.matchingSemantics(.unicodeScalar)
        for line in graph.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || line == "```mermaid" || line == "```" || line == "flowchart LR" || line.hasPrefix("    classDef ") || line.hasSuffix(" more edges not drawn.") { continue }
            let label: Substring
            if let match = line.wholeMatch(of: node) { label = match.1 } else if let match = line.wholeMatch(of: edge) { label = match.1 } else {
                Issue.record("not a line the writer makes: \(line.debugDescription)")
                continue
            }
            #expect(label.utf8.count <= 4_096)
            if let decoded = mermaidDecoded(String(label)) { labels.append(decoded) } else { Issue.record("not a safe quoted label: \(label.debugDescription)") }
        }
        // The same block as mermaid.js reads it (``MermaidFlowchart``, Mermaid's own lexer and grammar): accepted, drawn
        // as written, showing these labels as Mermaid keeps them (white space at either end trimmed).
        let blocks = MermaidFlowchart.blocks(inMarkdown: graph)
        #expect(blocks.count == (labels.isEmpty ? 0 : 1))
        for block in blocks {
            guard let diagram = MermaidFlowchartGrammarTests.drawn(block) else { continue }
            #expect(MermaidFlowchartGrammarTests.shownLabels(diagram).sorted() == labels.map(MermaidFlowchart.Parser.trimmed).sorted(), "\(block)")
        }
        return labels
    }

    // MARK: the property

    @Test func everyDOTSARIFAndMermaidWriterShowsHostileNamesAsThemselves() throws {
        var random = Generator(state: 0x5EED_4242)
        var cases: [(sources: [String], labels: [String])] = []
        for _ in 0..<HostileNames.cases(fast: 30, soak: 1_000) {
            let devices = (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.device(&random) }
            let (from, to, old, new) = (HostileNames.name(&random), HostileNames.name(&random), HostileNames.name(&random), HostileNames.name(&random))

            // SARIF, both writers: the same bytes, valid, every message string by SARIF's rules.
            for subject in [ReportSubject.paths(from: from, to: to), .diff(old: old, new: new)] {
                let straightforward = SARIFReport.straightforward(devices, subject: subject)
                var stream = SARIFReport.Stream()
                var bytes = stream.start()
                for device in devices { for path in device.paths { stream.append(path, opened: subject.isDiff, to: &bytes) } }
                bytes += stream.end()
                let streamed = String(decoding: bytes, as: UTF8.self)
                if streamed != straightforward {
                    let a = Array(streamed.utf8), b = Array(straightforward.utf8)
                    let at = zip(a, b).prefix { $0 == $1 }.count
                    Issue.record("streamed and straightforward differ at \(at): \(String(decoding: a[max(0, at - 200)..<min(a.count, at + 80)], as: UTF8.self).debugDescription) vs \(String(decoding: b[max(0, at - 200)..<min(b.count, at + 80)], as: UTF8.self).debugDescription)")
                }
                let log = try Self.checkSARIF(straightforward)
                let texts = Self.messageTexts(log)
                for device in devices {
                    #expect(texts.contains { Array($0.utf8).starts(with: Self.withoutBOM(SARIFText.message("device " + device.device + ": ")).utf8) })
                    for path in device.paths {
                        for hop in path.hops {
                            for setting in hop.settings {
                                let words = Self.withoutBOM(SARIFText.message("\(setting.key) = \(setting.value) (\(setting.policy), \(setting.via)"))
                                #expect(texts.contains { Self.holds($0, words) }, "\(words.debugDescription) in \(texts.filter { Self.holds($0, SARIFText.message(setting.key)) })")
                            }
                        }
                    }
                }
            }
            // SARIF message text read back is the text as shown, whatever it holds.
            for _ in 0..<4 {
                let name = HostileNames.name(&random, maxPieces: 10)
                #expect(Self.decoded(SARIFText.message(name)) == DecisionText.escaped(name, backslash: false), "\(name.debugDescription)")
            }
            // Lint and fleet lint's log: a rule and a finding whose every text is hostile.
            let lint = ReportBuffer()
            SARIFLog.write(
                rules: [SARIFLog.Rule(id: "XX001", name: "hostile", summary: HostileNames.name(&random), level: "warning")],
                results: [SARIFLog.Result(ruleID: "XX001", ruleIndex: 0, level: "warning", message: HostileNames.name(&random), fix: HostileNames.name(&random),
                                          file: HostileNames.name(&random), line: 3, column: 2, keyPath: HostileNames.name(&random))], to: lint)
            let lintLog = try Self.checkSARIF(lint.text, allowBreaks: true)
            for text in Self.messageTexts(lintLog) { #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 2) }

            // DOT: every label as the text it shows (rendered below, many graphs per process).
            let sources = [DOTReport.report(devices, subject: .paths(from: from, to: to)), DOTReport.report(devices, subject: .diff(old: old, new: new))]
            var labels = [DecisionText.escaped("leak paths from \(from) to \(to)"), DecisionText.escaped("leak paths opened and closed, \(old) → \(new)")]
            for device in devices {
                labels.append(Self.shownInDOT("device " + device.device))
                for path in device.paths {
                    labels.append(Self.shownInDOT(path.from.rawValue))
                    for hop in path.hops { labels.append(Self.shownInDOT(hop.to.description)) }
                }
            }
            cases.append((sources, labels))

            // Mermaid: every line a shape the writer makes, every label decoding to the name as shown. The graph is
            // grouped (LeakGraph): a graph this small draws every source and app between as itself, and a destination
            // by its name when it is the only one of its kind (otherwise its kind's node, with the count).
            for device in devices {
                let drawn = Self.checkMermaid(MarkdownReport.graph(device))
                func shows(_ node: FleetNode) -> Bool {
                    let name = node.description.elidedInTheMiddle(limit: MermaidText.maxCharacters, scalars: MermaidText.maxScalars)
                    return drawn.contains { $0.utf8.elementsEqual(DecisionText.escaped(name).utf8) }
                }
                let kinds = Dictionary(grouping: device.paths) { LeakGraph.kind($0.to, outside: $0.outside) }.mapValues { Set($0.map(\.to)).count }
                for path in device.paths {
                    for node in [FleetNode.app(path.from)] + path.via { #expect(shows(node), "\(node.description.debugDescription)") }
                    let kind = LeakGraph.kind(path.to, outside: path.outside), count = kinds[kind] ?? 0
                    if count == 1 {
                        #expect(shows(path.to), "\(path.to.description.debugDescription)")
                    } else {
                        #expect(drawn.contains(kind == .outside ? "\(count) outside apps" : "\(count) inside apps"))
                    }
                }
            }
        }
        if FleetReportEndToEndTests.canRender {
            // One Graphviz process per 100 cases (200 graphs): one at the fast size.
            for start in stride(from: 0, to: cases.count, by: 100) {
                let batch = cases[start..<min(start + 100, cases.count)]
                try Self.checkRendered(batch.flatMap(\.sources), labels: batch.flatMap(\.labels))
            }
        }
    }

    // MARK: regressions, one per item of the issue

    /// A one-path report of `device`, its path from `from` through `via` to `to`.
    static func report(device: String, from: String = "com.acme.hr", via: String = "com.acme.viewer", to: String = "com.acme.out", file: String = "fleet.json") -> DeviceReport {
        let setting = FleetSetting(side: .sender, app: bundle(from), policy: "P", via: "by label L", key: "k", value: "v", file: file, line: 1)
        let hops = [ReportHop(from: .app(bundle(from)), to: .app(bundle(via)), channel: .documentInteraction, url: nil, rules: [], file: file, line: 1, settings: [setting]),
                    ReportHop(from: .app(bundle(via)), to: .app(bundle(to)), channel: .documentInteraction, url: nil, rules: [], file: file, line: 2, settings: [setting])]
        return DeviceReport(device: device, zone: nil, paths: [ReportPath(device: device, from: bundle(from), to: .app(bundle(to)), outside: true, hops: hops)])
    }

    /// Graphviz decodes HTML character references in a quoted string: `&#8238;` became a real U+202E, `&lt;b&gt;` a
    /// `<b>`, `&#10;` a line break in a device's cluster label and in the title's file names. They show as written.
    @Test(.enabled(if: FleetReportEndToEndTests.canRender))
    func dotShowsCharacterReferencesAsWritten() throws {
        let name = "a&#8238;b &lt;b&gt; c&#10;d &amp; &#x202E;e"
        let dot = DOTReport.report([Self.report(device: name, via: "com.acme.&amp;")], subject: .diff(old: "old&#10;\(name).json", new: "new.json"))
        try Self.checkRendered([dot], labels: ["device " + name, "com.acme.&amp;", "leak paths opened and closed, old&#10;\(name).json → new.json"])
        #expect(try !FleetReportEndToEndTests.render(dot).svg.unicodeScalars.contains("\u{202E}"))
    }

    /// A quoted string over 16,384 bytes made `dot` refuse the whole graph. A 20,000-character device name, node name
    /// (one made of a single grapheme cluster of 20,001 scalars too) and file name now render without a word on stderr,
    /// elided in the middle with their length.
    @Test(.enabled(if: FleetReportEndToEndTests.canRender))
    func dotRendersTwentyThousandCharacterNames() throws {
        var random = Generator(state: 20_000)
        let long = String(repeating: "x", count: 20_000)
        let hostile = HostileNames.long(20_000, &random)
        let cluster = "e" + String(repeating: "\u{301}", count: 20_000)
        let devices = [Self.report(device: long, via: "com.acme." + long), Self.report(device: hostile, via: cluster, file: hostile)]
        let sources = [DOTReport.report(devices, subject: .diff(old: long + ".json", new: hostile)),
                       DOTReport.report(devices, subject: .paths(from: long, to: hostile))]
        for source in sources {
            for string in Self.quotedStrings(source) { #expect(string.utf8.count <= DOTText.maxQuotedBytes) }
        }
        #expect(DOTText.maxQuotedBytes <= 16_384)
        let shown = Self.shownInDOT("device " + long)
        #expect(shown.count <= String.shownNameLimit && shown.contains("…(20007 characters)…"))
        try Self.checkRendered(sources, labels: [shown, Self.shownInDOT("com.acme." + long), Self.shownInDOT(cluster), Self.shownInDOT("device " + hostile)])
    }

    /// SARIF message text ignored SARIF's syntax: a name `{0}` was a placeholder (and the tool's own `\u{1B}` escapes
    /// added single braces), `[text](1)` an embedded link. Braces are doubled and brackets escaped, in the streamed and
    /// the straightforward writer alike, in every message and step.
    @Test func sarifMessageTextHasNoPlaceholderNorLink() throws {
        let name = "{0} [here](1) \u{1B}"
        var path = Self.report(device: name, file: name).paths[0]
        path.hops[1].url = "[u](2)"
        path.state = .accepted
        path.entry = FleetBaseline.Entry(device: name, from: path.from, to: path.to, reason: "{1}[r](3)", expires: BaselineDate("2099-12-31")!, line: 1)
        let devices = [DeviceReport(device: name, zone: nil, paths: [path])]
        let log = SARIFReport.straightforward(devices, subject: .paths(from: "all", to: nil))
        var stream = SARIFReport.Stream()
        var bytes = stream.start()
        stream.append(path, opened: false, to: &bytes)
        bytes += stream.end()
        #expect(String(decoding: bytes, as: UTF8.self) == log)
        let texts = Self.messageTexts(try Self.checkSARIF(log))
        #expect(texts.contains { $0.hasPrefix("device {{0}} \\[here\\](1) \\u{{1B}}: ") })
        #expect(texts.contains { $0.contains("Accepted until 2099-12-31: {{1}}\\[r\\](3).") })
        #expect(texts.contains { $0.contains(" by document-interaction \\[u\\](2): ") })
        for text in texts { #expect(Self.decoded(text) != nil, "\(text)") }
    }

    /// `fleet lint --format sarif` wrote a policy name's bidirectional override raw into its message (and no brace or
    /// bracket escaped); it goes through the SARIF escaper as every other SARIF writer's text does.
    @Test func fleetLintSARIFShowsControlsAsEscapes() throws {
        let fleet = try String(contentsOf: BuiltBinary.packageRoot.appendingPathComponent("Examples/fleet/lint-mistakes.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"name\": \"Legacy\"", with: "\"name\": \"Leg\\u202eacy {0} [x](1)\"")
        let file = try FleetReportEndToEndTests.temporary("lint.json", fleet)
        let run = try BuiltBinary.run(["fleet", "lint", "--fleet", file, "--format", "sarif"])
        #expect(run.status == 2)
        #expect(!run.stdout.unicodeScalars.contains("\u{202E}"))
        let texts = Self.messageTexts(try Self.checkSARIF(run.stdout, allowBreaks: true))
        #expect(texts.contains { $0.contains("the container policy \"Leg\\u{{202E}}acy {{0}} \\[x\\](1)\" is for com.acme.legacy") })
    }

    /// The SARIF result's location was the first hop's line while the Markdown's "granted by" names the hop that leaks
    /// (the last). Each result is now placed where its last code-flow step is, the line "granted by" names.
    @Test func sarifResultIsAtTheHopThatLeaks() throws {
        let arguments = ["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--device", "employee-iphone", "--from", "all", "--format"]
        let sarif = try BuiltBinary.run(arguments + ["sarif"]), markdown = try BuiltBinary.run(arguments + ["markdown"])
        let log = try #require(try Self.checkSARIF(sarif.stdout) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        #expect(results.count > 1)
        func place(_ location: Any?) -> (String, Int)? {
            guard let physical = (location as? [String: Any])?["physicalLocation"] as? [String: Any],
                  let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String,
                  let line = (physical["region"] as? [String: Any])?["startLine"] as? Int else { return nil }
            return (uri, line)
        }
        var moved = 0
        for result in results {
            let primary = try #require(place((result["locations"] as? [Any])?.first))
            let flow = try #require((((result["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?["locations"]) as? [[String: Any]])
            let steps = flow.compactMap { place($0["location"]) }
            #expect(steps.count == flow.count)
            let first = try #require(steps.first), last = try #require(steps.last)
            #expect(primary == last, "\(primary) is not the last hop's \(last)")
            if first != last { moved += 1 }
            // The Markdown's row for the same path names that line in its "granted by".
            let text = try #require((result["message"] as? [String: Any])?["text"] as? String)
            let ends = try #require(text.firstMatch(of: #/documents from (\S+) reach (.+?)(?:, outside the zone of trust,)? in [0-9]+ hops?:/#))
            let row = markdown.stdout.split(separator: "\n").first { $0.hasPrefix("| `\(ends.1)` | `\(ends.2)` |") }
            #expect(row?.contains("line \(primary.1))") == true, "\(row ?? "no row") for \(ends.1) → \(ends.2), line \(primary.1)")
        }
        #expect(moved > 0)
    }

    /// Mermaid labels showed a name whole however long; they show at most ``MermaidText/maxCharacters`` characters
    /// (and ``MermaidText/maxScalars`` scalars) of it, elided in the middle with its length, the table keeping it whole.
    @Test func mermaidElidesLongNames() {
        let long = "com.acme." + String(repeating: "y", count: 20_000)
        let cluster = "e" + String(repeating: "\u{301}", count: 20_000)
        let graph = MarkdownReport.graph(Self.report(device: "d", via: long, to: cluster))
        let labels = Self.checkMermaid(graph)
        #expect(graph.utf8.count < 4_000)
        #expect(labels.contains { $0.hasPrefix("com.acme.yyy") && $0.contains("…(20009 characters)…") && $0.count <= MermaidText.maxCharacters })
        #expect(labels.contains { $0.unicodeScalars.count <= MermaidText.maxScalars && Self.holds($0, "…(1 characters)…") })
    }

    /// Mermaid refuses a diagram over 50,000 characters (`maxTextSize`): with 50 edges between names whose labels are
    /// long once escaped, the diagram draws as themselves the apps that fit in ``MermaidText/maxDiagramBytes`` and the
    /// rest as one node, every path counted on the edges into its destination's node.
    @Test func mermaidDiagramStaysWithinMermaidsTextSize() {
        let paths = (0..<60).map { number in
            Self.report(device: "d", from: String(repeating: "\u{1B}", count: 200) + "\(number)", via: String(repeating: "\u{202E}<", count: 80) + "\(number)",
                        to: "com.acme.out\(number)").paths[0]
        }
        let graph = MarkdownReport.graph(DeviceReport(device: "d", zone: nil, paths: paths))
        // Unbounded, the 50 edges' nodes would take about 150 KB.
        #expect(graph.utf8.count <= MermaidText.maxDiagramBytes + 100 && graph.utf8.count <= 50_000)
        let labels = Self.checkMermaid(graph)
        #expect(labels.count > 10)
        #expect(!graph.contains("more edges not drawn"))
        #expect(labels.contains("60 outside apps") && labels.contains { $0.hasSuffix(" other apps") })
        #expect(LeakGraphTests.edges(graph).filter { $0.to == "60 outside apps" }.reduce(0) { $0 + $1.paths } == 60)
    }
}
