import OpenInPolicy

/// How much of a report the places that show it take: GitHub code scanning for SARIF. The limits cut only the
/// report formats; text and JSON are never cut and list every path.
public struct ReportLimits: Sendable, Equatable {
    /// SARIF: the most results a run keeps (`--max-results`). GitHub code scanning takes at most 25,000 per run.
    public var maxResults: Int
    /// SARIF: the most bytes the whole log takes, uncompressed. GitHub code scanning takes at most 10 MB gzipped
    /// per upload; the writer does not compress, so it bounds the uncompressed size instead: gzip's output is at
    /// most its input plus 18 bytes and 5 per 64 KiB block stored as it is, so a log of 9,500,000 bytes gzips to
    /// under 9,501,000, whatever it holds.
    public var maxSARIFBytes: Int

    /// Markdown: the most bytes it takes (`--max-bytes`), so it fits a pull-request comment (GitHub takes 65,536
    /// characters; a character is at least one byte of UTF-8, so this many bytes are at most that many characters).
    public var maxMarkdownBytes: Int
    /// Markdown: list the accepted paths too (`--show accepted`); by default they are counted.
    public var showAccepted: Bool
    /// DOT (`fleet paths`): the most edges a device's cluster draws each path on (`--max-edges`); beyond, the cluster is
    /// the grouped graph (`LeakGraph`) within as many edges.
    public var maxDOTEdges = defaultMaxDOTEdges

    /// GitHub's limit on a pull-request comment, in characters.
    public static let defaultMaxMarkdownBytes = 65_536
    /// The least `--max-bytes`: room for the title and the note that says what was cut.
    public static let leastMarkdownBytes = 4_096
    /// GitHub code scanning's limit on results per run.
    public static let defaultMaxResults = 25_000
    /// The uncompressed bound that keeps a SARIF log under 10 MB gzipped (see ``maxSARIFBytes``).
    public static let defaultMaxSARIFBytes = 9_500_000

    /// The default `--max-edges`: `dot -Tsvg` draws the 1,000-app generated fleet's paths in well under 5 seconds.
    public static let defaultMaxDOTEdges = 200
    /// The least `--max-edges`: room for an edge to each kind of destination (`LeakGraph.Kind`).
    public static let leastDOTEdges = LeakGraph.Kind.allCases.count

    /// The options that set these limits, as `read(_:_:format:)` reads them.
    public static let options = ["--max-results", "--max-bytes", "--show", "--max-edges"]

    /// Reads one of ``options`` given `text` for a report of `format` (`markdown`, `sarif`, `dot`, …): `nil`, or
    /// what is wrong (a usage error: not a whole number, too small, or not for that format).
    public mutating func read(_ option: String, _ text: String, format: String) -> String? {
        var problem: String? = nil
        func count(_ what: String, least: Int, for wanted: String, _ verb: String) -> Int? {
            guard let count = Int(text), count >= least else {
                problem = "'\(option)' must be a whole number of \(what), at least \(least), not '\(text)'"
                return nil
            }
            guard format == wanted else {
                problem = "'\(option)' \(verb): it does not go with --format \(format)"
                return nil
            }
            return count
        }
        switch option {
        case "--max-results": count("results", least: 1, for: "sarif", "cuts SARIF").map { maxResults = $0 }
        case "--max-bytes": count("bytes", least: Self.leastMarkdownBytes, for: "markdown", "cuts Markdown").map { maxMarkdownBytes = $0 }
        case "--max-edges": count("edges", least: Self.leastDOTEdges, for: "dot", "groups DOT").map { maxDOTEdges = $0 }
        default:
            if text != "accepted" {
                problem = "'--show' takes accepted (the accepted paths), not '\(text)'"
            } else if format != "markdown" {
                problem = "'--show accepted' lists accepted paths in Markdown: it does not go with --format \(format), which lists them all"
            } else {
                showAccepted = true
            }
        }
        return problem
    }

    /// The limits GitHub sets.
    public init(maxResults: Int = defaultMaxResults, maxSARIFBytes: Int = defaultMaxSARIFBytes, maxMarkdownBytes: Int = defaultMaxMarkdownBytes,
                 showAccepted: Bool = false) {
        self.maxResults = maxResults
        self.maxSARIFBytes = maxSARIFBytes
        self.maxMarkdownBytes = maxMarkdownBytes
        self.showAccepted = showAccepted
    }
}

/// What a Markdown report may still write within ``ReportLimits/maxMarkdownBytes``: whole pieces (a line, a table
/// row, a diagram) while they fit, room always kept for the note that says what was cut. Once a piece does not
/// fit, nothing more is written.
struct MarkdownBudget {
    package let limit: Int
    /// The room kept for the cut note.
    static let reserve = 1_024
    /// The room a table's rows leave for the device's diagram: an eighth of the limit, at most 8,192 bytes.
    var diagramRoom: Int { Swift.min(8_192, limit / 8) }
    package private(set) var written = 0
    package private(set) var cut = false

    /// A budget of `limit` bytes.
    package init(_ limit: Int) { self.limit = limit }

    /// Whether a piece of `count` bytes fits, leaving `keep` bytes more; takes its room when it does, and
    /// otherwise ends the report's pieces.
    package mutating func take(_ count: Int, keep: Int = 0) -> Bool {
        if cut { return false }
        if written + count + keep + Self.reserve > limit {
            cut = true
            return false
        }
        written += count
        return true
    }

    /// Takes the room of a piece that ends the section being written (its diagram, its count of accepted paths)
    /// when it fits, even once rows were cut: the rows left it that room.
    mutating func takeClosing(_ count: Int) -> Bool {
        if written + count + Self.reserve > limit { return false }
        written += count
        return true
    }

    /// The bytes a closing piece may take now.
    var room: Int { limit - Self.reserve - written }

    /// The note after a cut report: what was left out and how to get every path.
    static func note(limit: Int, left: Int, of total: Int, what: String, devices: Int) -> String {
        var text = "\n---\n\n**Cut to stay within \(limit) bytes** (`--max-bytes`; a pull-request comment takes 65,536 characters): "
        text += "\(left) of \(total) \(what) not listed"
        if devices > 0 { text += ", \(devices) device\(devices == 1 ? "" : "s") not shown" }
        text += ". Every path: the same command with `--format json` or `--format text`, which are never cut.\n"
        return text
    }
}
