import OpenInPolicy

/// A device's leak paths drawn grouped, so that a graph reads at any size: the Mermaid diagram of `fleet paths` and
/// `fleet diff --format markdown`, and `fleet paths --format dot` beyond `--max-edges`.
///
/// - The destinations are grouped by kind: one node for the apps outside the zone of trust (`N outside apps`),
///   one for "any other app", one for the apps inside it (`N inside apps`, only with `--to` an inside app); a
///   group of one destination is named by that destination.
/// - The apps paths start from or pass through (sources and hubs) are ranked by the paths they carry, most first,
///   ties by name (byte order of UTF-8); the first K are drawn as themselves and the rest as one node
///   (`M other apps`), K the most that keeps the graph within its edges (and, for Mermaid, its bytes).
/// - Each edge is labelled with the number of paths that take it (`3 paths`); an edge between two apps merged
///   into `other apps` is not drawn (the paths are counted on the edges around it).
///
/// Memory is per distinct node and edge, never per path: the streamed writers add paths as their searches end.
package struct LeakGraph {
    /// A kind of destination: each is one node of the graph.
    package enum Kind: Int, CaseIterable {
        case inside, outside, anyOther
    }

    /// The apps paths start from or pass through, by the caller's key: name, paths carried, whether one starts there.
    private var local: [Int: Int] = [:]
    private var names: [String] = []
    private var carried: [Int] = []
    private var isSource: [Bool] = []
    /// The distinct destinations of each kind (by the caller's key) and the name of one of them.
    private var members: [Set<Int>] = Array(repeating: [], count: Kind.allCases.count)
    private var memberName: [String] = Array(repeating: "", count: Kind.allCases.count)
    /// Paths per edge: from an app (local index) to an app or a kind (`Kind` as `groupBase + rawValue`).
    private var edges: [Int: Int] = [:]
    private static let groupBase = 1 << 30

    /// An empty graph.
    package init() {}

    /// Whether no path was added.
    package var isEmpty: Bool { edges.isEmpty }

    /// Adds one path: `chain` the caller's keys of its nodes, source first and destination last (at least two),
    /// `name` each key's name.
    package mutating func add(_ chain: [Int], kind: Kind, name: (Int) -> String) {
        guard chain.count >= 2 else { return }
        var previous = -1
        for (position, key) in chain.enumerated() {
            if position == chain.count - 1 {
                if members[kind.rawValue].insert(key).inserted, members[kind.rawValue].count == 1 { memberName[kind.rawValue] = name(key) }
                edges[previous << 32 | (Self.groupBase + kind.rawValue), default: 0] += 1
                break
            }
            let index: Int
            if let known = local[key] {
                index = known
            } else {
                index = names.count
                local[key] = index
                names.append(name(key))
                carried.append(0)
                isSource.append(false)
            }
            carried[index] += 1
            if position == 0 { isSource[index] = true } else { edges[previous << 32 | index, default: 0] += 1 }
            previous = index
        }
    }

    /// The kind of a destination: "any other app", outside the zone of trust, or inside it.
    package static func kind(_ node: FleetNode, outside: Bool) -> Kind { node == .anyOtherApp ? .anyOther : outside ? .outside : .inside }

    /// One node drawn: its label and style (`outside`, `source` or none).
    struct Node {
        package var label: String
        var style: String?
    }

    /// The graph drawn: nodes (`1...`), edges between them with their path counts, and how many apps were merged.
    struct Drawing {
        package var nodes: [Node] = []
        var edges: [(from: Int, to: Int, paths: Int)] = []
        package var merged = 0
    }

    /// The apps, most paths carried first, ties by name.
    private func ranked() -> [Int] {
        names.indices.sorted { a, b in
            if carried[a] != carried[b] { return carried[a] > carried[b] }
            if !names[a].utf8.elementsEqual(names[b].utf8) { return names[a].utf8.lexicographicallyPrecedes(names[b].utf8) }
            return a < b
        }
    }

    /// The graph with the first `kept` apps of `order` drawn as themselves.
    private func drawing(kept: Int, order: [Int]) -> Drawing {
        var drawing = Drawing()
        var node = Array(repeating: 0, count: names.count)
        for (rank, index) in order.enumerated() where rank < kept {
            drawing.nodes.append(Node(label: names[index], style: isSource[index] ? "source" : nil))
            node[index] = drawing.nodes.count
        }
        var other = 0
        if kept < order.count {
            let rest = order[kept...]
            drawing.merged = rest.count
            drawing.nodes.append(Node(label: "\(rest.count) other apps", style: rest.contains { isSource[$0] } ? "source" : nil))
            other = drawing.nodes.count
            for index in rest { node[index] = other }
        }
        var group = Array(repeating: 0, count: Kind.allCases.count)
        for kind in Kind.allCases where !members[kind.rawValue].isEmpty {
            let count = members[kind.rawValue].count
            let label = switch kind {
            case .anyOther: FleetNode.anyOtherAppName
            case .outside: count == 1 ? memberName[kind.rawValue] : "\(count) outside apps"
            case .inside: count == 1 ? memberName[kind.rawValue] : "\(count) inside apps"
            }
            drawing.nodes.append(Node(label: label, style: kind == .inside ? nil : "outside"))
            group[kind.rawValue] = drawing.nodes.count
        }
        var counts: [Int: Int] = [:]
        for (key, paths) in edges {
            let from = node[key >> 32], target = key & 0xFFFF_FFFF
            let to = target >= Self.groupBase ? group[target - Self.groupBase] : node[target]
            if from == to { continue }
            counts[from << 32 | to, default: 0] += paths
        }
        drawing.edges = counts.map { (from: $0.key >> 32, to: $0.key & 0xFFFF_FFFF, paths: $0.value) }.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        return drawing
    }

    /// The graph with as many apps drawn as themselves as keep it within `maxEdges` edges and `fits`; with none
    /// (every app one node) when even that does not.
    func drawing(maxEdges: Int, fits: (Drawing) -> Bool = { _ in true }) -> Drawing {
        let order = ranked()
        let whole = drawing(kept: order.count, order: order)
        if whole.edges.count <= maxEdges && fits(whole) { return whole }
        // Merging an app never adds an edge: the most apps kept is found by bisection.
        var (low, high) = (0, order.count - 1)
        var best = drawing(kept: 0, order: order)
        while low <= high {
            let middle = (low + high) / 2
            let candidate = drawing(kept: middle, order: order)
            if candidate.edges.count <= maxEdges && fits(candidate) {
                best = candidate
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    /// An edge's label: its count of paths.
    package static func label(_ paths: Int) -> String { paths == 1 ? "1 path" : "\(paths) paths" }

    /// The Mermaid diagram (``MermaidText/flowchart(edges:total:maxBytes:node:)``): at most `maxEdges` edges, within `maxBytes`.
    func mermaid(maxEdges: Int, maxBytes: Int) -> String {
        if isEmpty { return "" }
        func text(_ drawing: Drawing) -> (text: String, drawn: Int) {
            MermaidText.flowchartDrawn(edges: drawing.edges.map { ($0.from, $0.to, Self.label($0.paths)) }, total: drawing.edges.count, maxBytes: maxBytes) { id in
                (drawing.nodes[id - 1].label, drawing.nodes[id - 1].style)
            }
        }
        let drawing = drawing(maxEdges: maxEdges) { text($0).drawn == $0.edges.count }
        return text(drawing).text
    }

    /// The DOT statements of one device's cluster `d` (nodes `d<d>n<i>`), styled as ``DOTReport`` styles nodes.
    package func dot(cluster d: Int, maxEdges: Int) -> String {
        let drawing = drawing(maxEdges: maxEdges)
        var text = ""
        for (index, node) in drawing.nodes.enumerated() {
            var attributes = "label=\(DOTText.quoted(node.label))"
            if node.style == "outside" {
                attributes += ", style=\"rounded,filled\", fillcolor=\"#fde2e1\", color=\"#b42318\""
            } else if node.style == "source" {
                attributes += ", style=\"rounded,filled\", fillcolor=\"#e0eaff\", color=\"#1849a9\""
            }
            text += "        d\(d)n\(index + 1) [\(attributes)];\n"
        }
        for edge in drawing.edges {
            text += "        d\(d)n\(edge.from) -> d\(d)n\(edge.to) [label=\(DOTText.quoted(Self.label(edge.paths)))];\n"
        }
        return text
    }
}
