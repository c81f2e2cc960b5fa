import Foundation
@testable import OpenInCore
@testable import OpenInFleet
import OpenInPolicy
@testable import OpenInReports
import Testing

/// Issue 41: every Mermaid block the reporters write is a flowchart mermaid.js draws as written, checked by
/// ``MermaidFlowchart`` (Mermaid's flowchart lexer and grammar, restated from flow.jison): first hand-written
/// flowcharts, each row able to fail, then the goldens, the 1,000-app `fleet paths`, `fleet diff` and the labels
/// Mermaid would misread.
@Suite struct MermaidFlowchartGrammarTests {
    /// A hand-written flowchart and what the recognizer must make of it.
    struct Row: Sendable, CustomTestStringConvertible {
        var note: String
        var source: String
        /// Accepted rows: `id: label shown` for each node named here.
        var labels: [String: String] = [:]
        /// Accepted rows: `from → to: label (type, stroke)` for each edge, in order; nil to leave edges unchecked.
        var edges: [String]?
        /// Accepted rows: the direction; refused rows: a word of the refusal; misread rows: a word of the misrender.
        var expect = ""
        /// Accepted rows: each edge's arrow, in order; nil to leave them unchecked.
        var types: [String]?

        var testDescription: String { note }
    }

    /// Flowcharts mermaid.js accepts: each construct the writer uses, and the lexer's pitfalls read as Mermaid reads them.
    static let accepted: [Row] = [
        Row(note: "the writer's shape: header, quoted labels, classes, edges with labels",
            source: "flowchart LR\n    n1[\"com.acme.hr\"]:::source\n    n2[\"3 outside apps\"]:::outside\n    n1 -->|\"3 paths\"| n2\n"
                + "    classDef outside fill:#fde2e1,stroke:#b42318,color:#7a271a\n    classDef source fill:#e0eaff,stroke:#1849a9\n",
            labels: ["n1": "com.acme.hr", "n2": "3 outside apps"], edges: ["n1 → n2: 3 paths (string, normal)"], expect: "LR"),
        Row(note: "graph TD, statements separated by semicolons", source: "graph TD;A-->B;B---C;",
            labels: ["A": "A", "C": "C"], edges: ["A → B:  (text, normal)", "B → C:  (text, normal)"], expect: "TB"),
        Row(note: "no direction is top to bottom", source: "flowchart\nA --> B\n", edges: ["A → B:  (text, normal)"], expect: "TB"),
        Row(note: "node shapes and unquoted texts",
            source: "flowchart RL\nA[square] --> B(round)\nC([stadium]) --> D[[subroutine]]\nE[(cylinder)] --> F((circle))\n"
                + "G>odd] --> H{diamond}\nI{{hexagon}} --> J[/lean right/]\nK[\\lean left\\] --> L[/trapezoid\\]\n",
            labels: ["A": "square", "B": "round", "C": "stadium", "D": "subroutine", "E": "cylinder", "F": "circle", "G": "odd", "H": "diamond",
                     "I": "hexagon", "J": "lean right", "K": "lean left", "L": "trapezoid"], expect: "RL"),
        Row(note: "entity codes in a quoted label", source: "flowchart LR\n    n1[\"a #quot;b#quot; #35;1 #60;x#62; #92;u#123;1B#125;\"]\n",
            labels: ["n1": "a \"b\" #1 <x> \\u{1B}"], expect: "LR"),
        Row(note: "edge forms: text between strokes, thick, dotted, open with a label, invisible",
            source: "flowchart LR\nA -- text --> B\nB == thick ==> C\nC -. dotted .-> D\nD ---|open| E\nE -.-> F\nF ==> G\nG ~~~ H\n",
            edges: ["A → B: text (text, normal)", "B → C: thick (text, thick)", "C → D: dotted (text, dotted)", "D → E: open (text, normal)",
                    "E → F:  (text, dotted)", "F → G:  (text, thick)", "G → H:  (text, invisible)"], expect: "LR"),
        Row(note: "a subgraph closed by end, with a direction inside", source: "flowchart TB\nsubgraph one [Title]\n  direction LR\n  a1-->a2\nend\na2 --> b\n",
            edges: ["a1 → a2:  (text, normal)", "a2 → b:  (text, normal)"], expect: "TB"),
        Row(note: "classDef, class, style and linkStyle",
            source: "flowchart LR\nA-->B\nclassDef hot fill:#f96,stroke:#333\nclass A hot\nstyle B fill:#bbf,stroke-width:4px\nlinkStyle 0 stroke:#ff3,stroke-width:4px\n",
            edges: ["A → B:  (text, normal)"], expect: "LR"),
        Row(note: "comments", source: "%% before\nflowchart LR\n%% a comment\nA-->B\n    %% indented\n", edges: ["A → B:  (text, normal)"], expect: "LR"),
        Row(note: "& joins nodes on either side of an edge", source: "flowchart LR\nA & B --> C\n", edges: ["A → C:  (text, normal)", "B → C:  (text, normal)"], expect: "LR"),
        Row(note: "pitfall: ---o is a circle end, so A---oB is an edge to B", source: "flowchart LR\nA---oB\n", labels: ["B": "B"], edges: ["A → B:  (text, normal)"], expect: "LR"),
        Row(note: "end and graph inside words are ids; default is one", source: "flowchart LR\nendpoint --> backend\ngraphs --> default\n",
            edges: ["endpoint → backend:  (text, normal)", "graphs → default:  (text, normal)"], expect: "LR"),
        Row(note: "letters outside ASCII in ids", source: "flowchart LR\n\u{C4}pfel --> \u{65E5}\u{672C}\n", edges: ["\u{C4}pfel → \u{65E5}\u{672C}:  (text, normal)"], expect: "LR"),
        Row(note: "a quoted edge label keeps |, [ and ] inside its quotes", source: "flowchart LR\nA -->|\"a|b [c]\"| B\n", edges: ["A → B: a|b [c] (string, normal)"], expect: "LR"),
        Row(note: "CRLF line ends", source: "flowchart LR\r\nA --> B\r\n", edges: ["A → B:  (text, normal)"], expect: "LR"),
        // Cases of Mermaid's own tests (flow-text.spec.js), with what they expect.
        Row(note: "spec: a backtick in an edge label", source: "graph TD;A--x|text including `|B;", edges: ["A → B: text including ` (text, normal)"], expect: "TB",
            types: ["arrow_cross"]),
        Row(note: "spec: v alone is an id after --x", source: "graph TD;A--xv(my text);", labels: ["v": "my text"], expect: "TB", types: ["arrow_cross"]),
        Row(note: "spec: v at the end of an id", source: "graph TD;A--xcsv(my text);", labels: ["csv": "my text"], expect: "TB", types: ["arrow_cross"]),
        Row(note: "spec: v as a text", source: "graph TD;V-->a[v]", labels: ["a": "v"], expect: "TB", types: ["arrow_point"]),
        Row(note: "spec: a keyword in an edge label", source: "graph TD;A--x|text including graph space|B;", edges: ["A → B: text including graph space (text, normal)"], expect: "TB"),
    ]

    /// Flowcharts mermaid.js refuses (GitHub shows an error instead of the graph).
    static let refused: [Row] = [
        Row(note: "an id that is the keyword end", source: "flowchart LR\nend --> B\n", expect: "Parse error"),
        Row(note: "an id that is the keyword style", source: "flowchart LR\nA --> style\n", expect: "Parse error"),
        Row(note: "an id that is the keyword graph", source: "flowchart LR\nA --> graph\n", expect: "Parse error"),
        Row(note: "an id that is the keyword subgraph", source: "flowchart LR\nA --> subgraph\n", expect: "Parse error"),
        Row(note: "an id that is the keyword class", source: "flowchart LR\nclass --> B\n", expect: "Parse error"),
        Row(note: "an id that is the keyword click", source: "flowchart LR\nA --> click\n", expect: "Parse error"),
        Row(note: "end.x: end is a word of its own", source: "flowchart LR\nA --> end.x\n", expect: "Parse error"),
        Row(note: "an unbalanced bracket", source: "flowchart LR\nA[label --> B\n", expect: "Parse error"),
        Row(note: "a | in an unquoted edge label", source: "flowchart LR\nA -->|a|b| B\n", expect: "error"),
        Row(note: "a raw \" inside a quoted label", source: "flowchart LR\nA[\"say \"hi\" now\"] --> B\n", expect: "Parse error"),
        Row(note: "parentheses in an unquoted label", source: "flowchart LR\nA[f(x)] --> B\n", expect: "Parse error"),
        Row(note: "@ in an unquoted label", source: "flowchart LR\nA[a@b] --> B\n", expect: "error"),
        Row(note: "a subgraph without end", source: "flowchart LR\nsubgraph one\nA --> B\n", expect: "Parse error"),
        Row(note: "no header", source: "A --> B\n", expect: "not a flowchart"),
        Row(note: "spec: parentheses in a square text", source: "graph TD; A[This is a () in text];", expect: "got PS"),
        Row(note: "spec: a string and text in one label", source: "graph TD;A(this node has \"string\" and text)-->|this link has \"string\" and text|C;", expect: "got STR"),
        Row(note: "spec: nested quotation marks", source: "graph TD; A[\"This is a \"()\" in text\"];", expect: "got PS"),
        Row(note: "spec: a closing parenthesis in a square text", source: "graph TD; node[hello ) world] --> works", expect: "got PE"),
        Row(note: "an unknown direction", source: "flowchart XY\nA --> B\n", expect: "Lexical error"),
        Row(note: "a second header", source: "flowchart LR\nflowchart LR\nA --> B\n", expect: "Parse error"),
        Row(note: "linkStyle of an edge that does not exist", source: "flowchart LR\nA --> B\nlinkStyle 3 stroke:#f00\n", expect: "out of bounds"),
        Row(note: "over 50,000 characters", source: "flowchart LR\n" + String(repeating: "    n1[\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]\n", count: 900),
            expect: "Maximum text size"),
        Row(note: "over 500 edges", source: "flowchart LR\n" + (0...500).map { "    n\($0) --> n\($0 + 1)\n" }.joined(), expect: "Edge limit"),
    ]

    /// Flowcharts mermaid.js accepts but draws otherwise than written.
    static let misread: [Row] = [
        Row(note: "a label holding direction LR: the line is a direction statement", source: "flowchart LR\n    n1[\"set direction LR\"]\n    n1 --> n2\n", expect: "direction"),
        Row(note: "style, :, # and ; on a line: encodeEntities drops the ; of an entity code", source: "flowchart LR\n    n1[\"style:x#60;\"]\n", expect: "encodeEntities"),
        Row(note: "fa:fa-… is an icon", source: "flowchart LR\n    n1[\"fa:fa-user\"]\n", expect: "icon"),
        Row(note: "\\n is a line break", source: "flowchart LR\n    n1[\"a\\nb\"]\n", expect: "line break"),
        Row(note: "raw HTML in a label", source: "flowchart LR\n    n1[\"<b>bold</b>\"]\n", expect: "HTML"),
        Row(note: "a raw & in a label", source: "flowchart LR\n    n1[\"a &lt; b\"]\n", expect: "raw &"),
        Row(note: "an entity code no browser decodes", source: "flowchart LR\n    n1[\"#foo;\"]\n", expect: "no character reference"),
        Row(note: "a class no classDef defines", source: "flowchart LR\n    n1[\"a\"]:::ghost\n", expect: "no classDef"),
        Row(note: "start and end arrows that do not match", source: "flowchart LR\nA x-- text --> B\n", expect: "different strokes"),
        Row(note: "a raw \" closing a quoted label early: the rest is unquoted text", source: "flowchart LR\nA[\"say \"hi\"\"] --> B\n", expect: "unquoted text"),
    ]

    /// `from → to: text (type, stroke)`.
    static func describe(_ edge: MermaidFlowchart.Edge) -> String {
        "\(edge.from) → \(edge.to): \(MermaidFlowchart.Diagram.shown(edge.text)) (\(edge.labelType), \(edge.stroke))"
    }

    @Test(arguments: accepted)
    func accepts(_ row: Row) throws {
        let diagram = try MermaidFlowchart.parse(row.source)
        #expect(diagram.direction == row.expect)
        #expect(diagram.misrenders.isEmpty, "\(diagram.misrenders)")
        for (id, label) in row.labels {
            #expect(diagram.vertex(id).map { MermaidFlowchart.Diagram.shown($0.text) } == label, "\(id)")
        }
        if let edges = row.edges { #expect(diagram.edges.map(Self.describe) == edges) }
        if let types = row.types { #expect(diagram.edges.map(\.type) == types) }
        if row.note.hasPrefix("a subgraph") { #expect(diagram.subgraphs.count == 1) }
        if row.note.hasPrefix("classDef") {
            #expect(diagram.vertex("A")?.classes == ["hot"] && diagram.classes["hot"] == ["fill:#f96", "stroke:#333"])
        }
        if row.note.hasPrefix("node shapes") {
            #expect(diagram.vertices.compactMap(\.shape) == ["square", "round", "stadium", "subroutine", "cylinder", "circle", "odd", "diamond", "hexagon",
                                                             "lean_right", "lean_left", "trapezoid"])
        }
    }

    @Test(arguments: refused)
    func refuses(_ row: Row) {
        #expect {
            _ = try MermaidFlowchart.parse(row.source)
        } throws: { error in
            (error as? MermaidFlowchart.Refusal)?.description.contains(row.expect) == true
        }
    }

    @Test(arguments: misread)
    func flagsWhatMermaidDrawsOtherwise(_ row: Row) throws {
        let diagram = try MermaidFlowchart.parse(row.source)
        #expect(diagram.misrenders.contains { $0.contains(row.expect) }, "\(diagram.misrenders)")
    }

    /// The grammar's tables build as jison builds them: every production reachable from `start` used in some state.
    @Test func grammarTablesAreComplete() {
        let tables = MermaidFlowchart.tables
        #expect(tables.actions.count > 100)
        #expect(tables.productions.count == 1 + MermaidFlowchart.grammar.split(separator: "\n").reduce(0) { $0 + $1.split(separator: "|", omittingEmptySubsequences: false).count })
        var reduced = Set<Int>()
        for state in tables.actions {
            for action in state.values {
                if case .reduce(let number) = action { reduced.insert(number) }
            }
        }
        let unused = Set(["ending", "endToken", "spaceListNewline"])
        for (number, production) in tables.productions.enumerated().dropFirst() where !unused.contains(tables.names[production.lhs]) {
            #expect(reduced.contains(number), "\(production.key) is never reduced")
        }
    }

    // MARK: the writers' diagrams

    /// Checks one ```mermaid block of ours: mermaid.js accepts it and draws it as written (no misrender), left to
    /// right, every node given a quoted label and every edge a quoted label, every class defined; returns it.
    @discardableResult
    static func drawn(_ block: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> MermaidFlowchart.Diagram? {
        do {
            let diagram = try MermaidFlowchart.parse(block)
            #expect(diagram.misrenders.isEmpty, "\(diagram.misrenders)", sourceLocation: sourceLocation)
            #expect(diagram.direction == "LR", sourceLocation: sourceLocation)
            #expect(!diagram.vertices.isEmpty && !diagram.edges.isEmpty, sourceLocation: sourceLocation)
            for vertex in diagram.vertices {
                #expect(vertex.labelled && vertex.labelType == "string", "\(vertex)", sourceLocation: sourceLocation)
            }
            for edge in diagram.edges {
                #expect(edge.labelType == "string" && edge.type == "arrow_point" && edge.text.contains(#/^[0-9]+ paths?$/#), "\(edge)", sourceLocation: sourceLocation)
            }
            #expect(Set(diagram.classes.keys) == ["outside", "source"], sourceLocation: sourceLocation)
            return diagram
        } catch {
            Issue.record("mermaid.js refuses the diagram: \(error)\n\(block)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The labels a diagram shows, nodes then edges.
    static func shownLabels(_ diagram: MermaidFlowchart.Diagram) -> [String] {
        diagram.vertices.map { MermaidFlowchart.Diagram.shown($0.text) } + diagram.edges.map { MermaidFlowchart.Diagram.shown($0.text) }
    }

    /// The goldens and the fleet walkthrough: every ```mermaid block is one mermaid.js draws as written, and shows
    /// the labels the writer's shape checker decodes.
    @Test func goldenDiagramsAreFlowchartsMermaidDraws() throws {
        let root = BuiltBinary.packageRoot
        var files: [URL] = [root.appendingPathComponent("Sources/OpenInPolicy/OpenInPolicy.docc/FleetWalkthrough.md")]
        for folder in ["Tests/Expected", "Tests/Golden"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "md" || url.pathExtension == "txt" { files.append(url) }
            }
        }
        var blocks = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for block in MermaidFlowchart.blocks(inMarkdown: text) {
                blocks += 1
                guard let diagram = Self.drawn(block) else { continue }
                let decoded = DOTSARIFMermaidEscapingTests.checkMermaid("```mermaid\n" + block + "```\n")
                #expect(Self.shownLabels(diagram).sorted() == decoded.sorted(), "\(file.lastPathComponent)")
            }
        }
        // Seven in the fleet-report goldens, one in the walkthrough (the one shown inside a longer fence is not a block).
        #expect(blocks == 8)
    }

    /// At 1,000 generated apps (161,600 paths): the diagram of `fleet paths --from all --format markdown` is drawn as
    /// written, grouped within 50 edges, at the default size and cut to 20,000 bytes.
    @Test func thousandAppsPathsDiagramIsDrawn() throws {
        for extra in [[], ["--max-bytes", "20000"]] {
            let run = try BuiltBinary.run(["fleet", "paths", "--fleet", ReportLimitsEndToEndTests.fleet1000, "--from", "all", "--format", "markdown"] + extra)
            #expect(run.status == 2 && run.stderr == "")
            let blocks = MermaidFlowchart.blocks(inMarkdown: run.stdout)
            #expect(blocks.count == 1)
            for block in blocks {
                let diagram = try #require(Self.drawn(block))
                #expect(diagram.edges.count <= MarkdownReport.maxEdges && diagram.edges.count > 1)
                let labels = Self.shownLabels(diagram)
                #expect(labels.contains { $0.hasSuffix(" outside apps") } && labels.contains("any other app"), "\(labels)")
            }
        }
    }

    /// `fleet diff --format markdown`: the examples' change with the baseline, and a diff that opens 20,000 paths on
    /// one device (the report cut to a comment's size), each diagram drawn as written.
    @Test func diffDiagramsAreDrawn() throws {
        let run = try BuiltBinary.run(["fleet", "diff", FleetReportEndToEndTests.acme, "Examples/fleet/acme-contractors.json", "--baseline", FleetReportEndToEndTests.baseline,
                                       "--format", "markdown"])
        let blocks = MermaidFlowchart.blocks(inMarkdown: run.stdout)
        #expect(blocks.count == 1)
        for block in blocks { Self.drawn(block) }
        var device = DOTSARIFMermaidEscapingTests.report(device: "bench")
        let model = device.paths[0]
        device.paths = (0..<20_000).map { index in
            var path = model
            path.from = DOTSARIFMermaidEscapingTests.bundle("com.acme.src\(index % 300)")
            path.to = .app(DOTSARIFMermaidEscapingTests.bundle("com.acme.out\(index)"))
            path.state = index % 4 == 3 ? .accepted : .new
            return path
        }
        let text = MarkdownReport.report([device], subject: .diff(old: "old.json", new: "new.json"), baseline: nil)
        #expect(text.utf8.count <= 65_536)
        let many = MermaidFlowchart.blocks(inMarkdown: text)
        #expect(many.count == 1)
        for block in many {
            let diagram = try #require(Self.drawn(block))
            #expect(diagram.edges.count <= MarkdownReport.maxEdges && Self.shownLabels(diagram).contains { $0.hasSuffix(" other apps") })
        }
    }

    /// Names Mermaid would misread in a label: `direction LR` (the line became a direction statement and the node lost
    /// its label), `fa:fa-user` (an icon), `style:…#…` (encodeEntities dropped the `;` of an entity code). Each shows
    /// as itself.
    @Test(arguments: ["com.acme.direction LR", "set direction\u{A0}TB now", "fa:fa-user", "fab:fa-github", "style:x<y", "classDef:#a;b", "lifestyle x:y#z"])
    func labelsMermaidWouldMisreadShowAsWritten(_ name: String) throws {
        let graph = MarkdownReport.graph(DOTSARIFMermaidEscapingTests.report(device: "d", via: name))
        let block = try #require(MermaidFlowchart.blocks(inMarkdown: graph).first)
        let diagram = try #require(Self.drawn(block))
        #expect(Self.shownLabels(diagram).contains(DecisionText.escaped(name)), "\(Self.shownLabels(diagram))")
    }
}
