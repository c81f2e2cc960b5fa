import OpenInPolicy

/// Where a reporter writes its bytes: standard output, a file, or memory.
///
/// The command line's standard output is one; ``ReportBuffer`` keeps what is written in memory,
/// for a server that sends a report on, or a test that reads it.
public protocol ReportSink: AnyObject {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Writes `bytes` as they are.
    func write(bytes: UnsafeBufferPointer<UInt8>)
}

extension ReportSink {
    /// Writes `bytes` as they are.
    package func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(bytes: $0) }
    }
}

/// A sink that keeps every byte written, in memory.
public final class ReportBuffer: ReportSink {
    /// Everything written, in order.
    public private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    public init() {}

    /// Everything written, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) { bytes += text.utf8 }

    /// Appends `bytes`.
    public func write(bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }
}

/// One output format of one kind of report: a value in, bytes out.
///
/// A kind of report is a value type (``FleetLintReport``, ``PolicyLintReport``); each format that
/// writes it is a reporter, listed in a ``ReporterRegistry`` under its ``name`` (the `--format`
/// value that chooses it). Adding a format is one reporter and one ``ReporterRegistry/register(_:)``.
///
/// ```swift
/// struct CSVLint: Reporter {
///     let name = "csv"
///     func write(_ report: FleetLintReport, to sink: any ReportSink) {
///         for finding in report.findings { sink.write("\(finding.code),\(finding.line ?? 0)\n") }
///     }
/// }
/// var registry = ReporterRegistry.standard
/// registry.register(CSVLint())
/// ```
public protocol Reporter<Report>: Sendable {
    /// The value this reporter writes.
    associatedtype Report
    /// The format's name: the `--format` value that chooses it, e.g. `sarif`.
    var name: String { get }
    /// Writes `report` in this format to `sink`.
    func write(_ report: Report, to sink: any ReportSink)
}

/// A reporter with its report type kept and its own type forgotten, as a registry holds it.
public struct AnyReporter<Report>: Reporter {
    /// The format's name.
    public let name: String
    private let writer: @Sendable (Report, any ReportSink) -> Void

    /// Wraps `reporter`.
    public init<Wrapped: Reporter>(_ reporter: Wrapped) where Wrapped.Report == Report {
        name = reporter.name
        writer = { report, sink in reporter.write(report, to: sink) }
    }

    /// Writes `report` as the wrapped reporter does.
    public func write(_ report: Report, to sink: any ReportSink) { writer(report, sink) }
}

/// The output formats of every kind of report, each kind's in the order help lists them.
///
/// A value: the command line is given one (``standard`` unless a caller adds formats), so what a
/// run can write is decided where it starts, with nothing global to change under it.
public struct ReporterRegistry: Sendable {
    /// Per report type, its reporters in order.
    private var kinds: [ObjectIdentifier: any Sendable] = [:]

    /// A registry with no reporter.
    public init() {}

    /// Adds `reporter` after the formats of its report kind; one of the same name is replaced in place.
    public mutating func register<R: Reporter>(_ reporter: R) {
        let key = ObjectIdentifier(R.Report.self)
        var list = kinds[key] as? [AnyReporter<R.Report>] ?? []
        let erased = reporter as? AnyReporter<R.Report> ?? AnyReporter(reporter)
        if let index = list.firstIndex(where: { $0.name == reporter.name }) { list[index] = erased } else { list.append(erased) }
        kinds[key] = list
    }

    /// The reporters of `kind`, in order.
    public func reporters<Report>(for kind: Report.Type) -> [AnyReporter<Report>] {
        kinds[ObjectIdentifier(kind)] as? [AnyReporter<Report>] ?? []
    }

    /// The reporter of `kind` called `name`, if any.
    public func reporter<Report>(named name: String, for kind: Report.Type) -> AnyReporter<Report>? {
        reporters(for: kind).first { $0.name == name }
    }

    /// The format names of `kind`, in order.
    public func names<Report>(for kind: Report.Type) -> [String] {
        reporters(for: kind).map(\.name)
    }
}

extension ReporterRegistry {
    /// Every format the command line writes, each kind's in the order its help lists them.
    public static let standard: ReporterRegistry = {
        var registry = ReporterRegistry()
        registry.registerFleetLint()
        registry.registerPolicyLint()
        return registry
    }()

    /// `text, json or jsonl`: the names of `kind`'s formats as a usage message lists them.
    func choices<Report>(for kind: Report.Type) -> String {
        let names = names(for: kind)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// Output held until it may be written (a one-app `fleet paths` prints nothing if any device fails), in
/// pieces of at most 64 KiB: holding it costs its size, with no doubling copies of the whole.
final class HeldOutput: ReportSink {
    private var pieces: [[UInt8]] = []
    private static let pieceSize = 64 * 1024

    /// Holds `text` as UTF-8.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// Holds `bytes`.
    func write(bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        while !rest.isEmpty {
            if pieces.isEmpty || pieces[pieces.count - 1].count == Self.pieceSize {
                pieces.append([])
                pieces[pieces.count - 1].reserveCapacity(Self.pieceSize)
            }
            let room = Self.pieceSize - pieces[pieces.count - 1].count
            pieces[pieces.count - 1].append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
        }
    }

    /// Writes everything held to `sink`, in order, and holds nothing more.
    func release(to sink: any ReportSink) {
        for piece in pieces { piece.withUnsafeBufferPointer { sink.write(bytes: $0) } }
        pieces = []
    }
}
