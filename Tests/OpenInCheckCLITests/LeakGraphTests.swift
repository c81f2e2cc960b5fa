import Foundation
@testable import OpenInPolicy
@testable import OpenInReports
import Testing

/// Issue 41: the graphs grouped so they read at any size: the Mermaid diagram of `fleet paths` and `fleet diff`
/// (at most 50 edges) and `fleet paths --format dot` beyond `--max-edges` (rendered by `dot -Tsvg` in under 5 s at
/// 1,000 apps).
@Suite struct LeakGraphTests {
    /// A path of `device` through the apps of `chain` (source first) to `to`.
    static func path(_ chain: [String], to: FleetNode, outside: Bool = true) -> ReportPath {
        let nodes = chain.map { FleetNode.app(DOTSARIFMermaidEscapingTests.bundle($0)) } + [to]
        let hops = zip(nodes, nodes.dropFirst()).map { ReportHop(from: $0, to: $1, channel: .documentInteraction, url: nil, rules: [], file: "f.json", line: 1, settings: []) }
        return ReportPath(device: "d", from: DOTSARIFMermaidEscapingTests.bundle(chain[0]), to: to, outside: outside, hops: hops)
    }

    static func app(_ name: String) -> FleetNode { .app(DOTSARIFMermaidEscapingTests.bundle(name)) }

    /// The edges of a Mermaid diagram: (from label, to label, paths).
    static func edges(_ graph: String) -> [(from: String, to: String, paths: Int)] {
        var labels: [String: String] = [:]
        for match in graph.matches(of: /(?m)^    (n[0-9]+)\["([^"]*)"\]/) { labels[String(match.1)] = DOTSARIFMermaidEscapingTests.mermaidDecoded(String(match.2)) }
        return graph.matches(of: /(?m)^    (n[0-9]+) -->\|"([0-9]+) paths?"\| (n[0-9]+)$/).map { (labels[String($0.1)] ?? "?", labels[String($0.3)] ?? "?", Int($0.2)!) }
    }

    @Test("destinations one node per kind, a lone destination by its name, each edge its count of paths")
    func destinationsGroupedByKind() {
        let paths = [Self.path(["com.a"], to: Self.app("com.x")), Self.path(["com.a"], to: Self.app("com.y")), Self.path(["com.a"], to: .anyOtherApp),
                     Self.path(["com.b", "com.a"], to: Self.app("com.x")), Self.path(["com.b", "com.a"], to: Self.app("com.z"))]
        let graph = MarkdownReport.graph(DeviceReport(device: "d", paths: paths))
        _ = DOTSARIFMermaidEscapingTests.checkMermaid(graph)
        let drawn = Self.edges(graph).map { "\($0.from) → \($0.to): \($0.paths)" }
        #expect(drawn == ["com.a → 3 outside apps: 4", "com.a → any other app: 1", "com.b → com.a: 2"], "\(graph)")
        #expect(!graph.contains("com.x") && !graph.contains("more edges not drawn"))
        // One destination of its kind: named. Inside the zone (`--to` an inside app): not styled outside.
        let one = MarkdownReport.graph(DeviceReport(device: "d", paths: [Self.path(["com.a", "com.b"], to: Self.app("com.c"), outside: false)]))
        #expect(Self.edges(one).map { "\($0.from) → \($0.to): \($0.paths)" } == ["com.a → com.b: 1", "com.b → com.c: 1"])
        #expect(one.contains("[\"com.c\"]\n") && one.contains("[\"com.a\"]:::source\n"))
    }

    @Test("beyond 50 edges: the apps that carry most paths drawn, ties by name, the rest one node; every path still counted")
    func hubsKeptTheRestMerged() {
        // 80 sources, each to its own outside app and to any other app: 160 edges ungrouped. com.s00 carries the most.
        var paths: [ReportPath] = []
        for number in 0..<80 {
            let name = String(format: "com.s%02d", number)
            paths.append(Self.path([name], to: Self.app(name + ".out")))
            paths.append(Self.path([name], to: .anyOtherApp))
        }
        paths.append(Self.path(["com.s00"], to: Self.app("com.extra")))
        for order in [paths, paths.reversed()] {
            let graph = MarkdownReport.graph(DeviceReport(device: "d", paths: order))
            _ = DOTSARIFMermaidEscapingTests.checkMermaid(graph)
            let edges = Self.edges(graph)
            #expect(edges.count <= MarkdownReport.maxEdges && edges.count >= 40, "\(edges.count)")
            // Every path ends on one destination node: the counts into them add up to the paths.
            #expect(edges.filter { $0.to == "81 outside apps" || $0.to == "any other app" }.reduce(0) { $0 + $1.paths } == paths.count)
            let kept = Set(edges.map(\.from)).subtracting(["56 other apps"])
            // Two edges per app: 24 kept (48 edges), the other 56 apps one node with its two edges.
            #expect(kept.count == 24, "\(kept.sorted())")
            #expect(kept.contains("com.s00") && kept.contains("com.s23") && !kept.contains("com.s24"))
            #expect(edges.contains { $0.from == "56 other apps" && $0.to == "any other app" && $0.paths == 56 })
            #expect(graph == MarkdownReport.graph(DeviceReport(device: "d", paths: paths)), "the order paths come in does not change the graph")
        }
    }

    @Test("a chain between two merged apps is not drawn, its paths counted on the edges around it")
    func edgesWithinTheMergedNodeAreLeftOut() {
        var graph = LeakGraph()
        let names = ["com.hub", "com.p", "com.q"]
        // com.hub carries 3 paths; com.p → com.q → outside once: with one app kept, p → q is inside "2 other apps".
        for _ in 0..<2 { graph.add([0, 3], kind: .outside) { names[$0 < 3 ? $0 : 0] } }
        graph.add([1, 2, 0, 4], kind: .outside) { $0 < 3 ? names[$0] : "com.out\($0)" }
        let drawing = graph.drawing(maxEdges: 2)
        #expect(drawing.nodes.map(\.label) == ["com.hub", "2 other apps", "2 outside apps"])
        #expect(drawing.edges.map { "\($0.from)→\($0.to):\($0.paths)" } == ["1→3:3", "2→1:1"])
    }

    /// Hostile names stay themselves in the grouped diagram, merged node and counts included.
    @Test func hostileNamesInTheGroupedGraph() {
        var random = HostileNames.Generator(state: 0x6EA9)
        for _ in 0..<HostileNames.cases(fast: 20, soak: 400) {
            let names = (0..<Int.random(in: 1...70, using: &random)).map { _ in "com." + HostileNames.name(&random) }
            var graph = LeakGraph()
            for (index, _) in names.enumerated() {
                graph.add([index, 1_000 + index], kind: .outside) { $0 < 1_000 ? names[$0] : "x" }
                if index > 0 { graph.add([index, 0, 2_000], kind: .anyOther) { $0 < 1_000 ? names[$0] : FleetNode.anyOtherAppName } }
            }
            let text = graph.mermaid(maxEdges: MarkdownReport.maxEdges, maxBytes: MermaidText.maxDiagramBytes)
            let labels = DOTSARIFMermaidEscapingTests.checkMermaid(text)
            #expect(text.split(separator: "\n").filter { $0.contains(" -->|") }.count <= MarkdownReport.maxEdges)
            for name in names.prefix(1) {
                let shown = name.elidedInTheMiddle(limit: MermaidText.maxCharacters, scalars: MermaidText.maxScalars)
                #expect(labels.contains { $0.utf8.elementsEqual(DecisionText.escaped(shown).utf8) }, "the hub \(name.debugDescription)")
            }
            #expect(!text.contains("more edges not drawn"))
        }
    }
}

/// `fleet paths --format dot` within what Graphviz draws quickly: grouped beyond `--max-edges`.
@Suite struct DOTLimitsEndToEndTests {
    /// The edges of a DOT text and their labels.
    static func edgeLabels(_ dot: String) -> [String] {
        dot.matches(of: /(?m)^        d[0-9]+n[0-9]+ -> d[0-9]+n[0-9]+ \[label="([^"]*)"/).map { String($0.1) }
    }

    /// At 1,000 generated apps (161,600 paths; 1,469 edges drawn whole, which `dot -Tsvg` takes about 40 s to lay
    /// out): the default `--max-edges` groups the cluster, every path still counted, and `dot -Tsvg` renders it in
    /// under 5 s. Under CI=true it runs (`.ci/run` installs Graphviz).
    @Test(.enabled(if: FleetReportEndToEndTests.canRender))
    func dotAtAThousandAppsRendersWithinFiveSeconds() throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", ReportLimitsEndToEndTests.fleet1000, "--from", "all", "--format", "dot"])
        #expect(run.status == 2 && run.stderr == "")
        let labels = Self.edgeLabels(run.stdout)
        #expect(labels.count <= ReportLimits.defaultMaxDOTEdges && labels.count > 20)
        #expect(run.stdout.contains("other apps\"") && run.stdout.contains("outside apps\""))
        // Each path's last edge goes into one destination node (outside apps, any other app).
        let ends = Set(run.stdout.matches(of: /(?m)^        (d1n[0-9]+) \[label="(?:[0-9]+ outside apps|any other app)"/).map { String($0.1) })
        #expect(ends.count == 2)
        var total = 0
        for match in run.stdout.matches(of: /(?m)^        d1n[0-9]+ -> (d1n[0-9]+) \[label="([0-9]+) paths?"\];$/) where ends.contains(String(match.1)) { total += Int(match.2)! }
        #expect(total == 161_600)
        let start = Date()
        let rendered = try FleetReportEndToEndTests.render(run.stdout)
        let seconds = Date().timeIntervalSince(start)
        #expect(rendered.status == 0 && rendered.stderr == "")
        #expect(rendered.svg.contains("<svg") && rendered.svg.contains("cluster_1"))
        #expect(seconds < 5, "dot -Tsvg took \(seconds) s")
    }

    /// `--max-edges N` bounds every cluster; below it the DOT is drawn whole as before (the goldens).
    @Test(.enabled(if: FleetReportEndToEndTests.canRender))
    func maxEdgesBoundsEachCluster() throws {
        let arguments = ["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all", "--format", "dot"]
        let whole = try BuiltBinary.run(arguments)
        #expect(Self.edgeLabels(whole.stdout).contains("document-interaction"))
        let grouped = try BuiltBinary.run(arguments + ["--max-edges", "3"])
        #expect(grouped.status == whole.status && grouped.stderr == "")
        for cluster in grouped.stdout.components(separatedBy: "subgraph cluster_").dropFirst() {
            let labels = Self.edgeLabels(cluster)
            #expect(!labels.isEmpty && labels.count <= 3 && labels.allSatisfy { $0.hasSuffix(" path") || $0.hasSuffix(" paths") }, "\(labels)")
        }
        let rendered = try FleetReportEndToEndTests.render(grouped.stdout)
        #expect(rendered.status == 0 && rendered.stderr == "")
        #expect(try BuiltBinary.run(arguments + ["--max-edges", "1000"]).stdout == whole.stdout)
    }

    @Test(arguments: [
        (["--max-edges", "2", "--format", "dot"], "'--max-edges' must be a whole number of edges, at least 3, not '2'"),
        (["--max-edges", "many", "--format", "dot"], "'--max-edges' must be a whole number of edges, at least 3, not 'many'"),
        (["--max-edges", "100", "--format", "markdown"], "'--max-edges' groups DOT: it does not go with --format markdown"),
        (["--max-edges", "100"], "'--max-edges' groups DOT: it does not go with --format text"),
    ])
    func maxEdgesIsCheckedAsAUsage(_ extra: [String], _ message: String) throws {
        let run = try BuiltBinary.run(["fleet", "paths", "--fleet", FleetReportEndToEndTests.acme, "--from", "all"] + extra)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
