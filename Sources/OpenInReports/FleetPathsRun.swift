import OpenInPolicy

extension PathsWriter {
    /// The `from` value that asks for every app: each fleet app installed on the device, in file order.
    public static let everyApp = ReportSubject.everyApp

    /// A writer of the paths from `from` (an app, or ``everyApp``) to `to` (an app, `outside`, or `nil` for outside)
    /// in `format` to `sink`, both checked against the apps the fleet knows (`names`).
    /// - Throws: `FleetError` for a malformed bundle ID, an app the fleet does not know (with "Did you mean"), or a
    ///   `to` spelled like the keyword `outside`.
    public init(from: String, to: String?, names: FleetAppNames, format: FleetPathsFormat, sink: any ReportSink) throws(FleetError) {
        var app: BundleID? = nil
        if !ExactText.same(from, Self.everyApp) {
            do throws(InputError) { app = try BundleID(from) } catch { throw FleetError("--from: \(error.description) (or give \(Self.everyApp), for every app)") }
        }
        var target: BundleID? = nil
        if let to, !ExactText.same(to, "outside") {
            do throws(InputError) { target = try BundleID(to) } catch { throw FleetError("--to: \(error.description) (or give outside)") }
        }
        var targetIsOther = false
        do throws(FleetAppNames.Unknown) {
            if let app { try names.checkSender(app, what: "--from", orAll: true) }
            if let target { targetIsOther = try names.checkReceiver(target, what: "--to") == .anyOtherApp }
        } catch {
            throw FleetError(error.message)
        }
        // A gate must not pass on a misspelt keyword: `--to outsde` would otherwise ask only for the paths
        // to an unlisted app (any other app) and miss every fleet app outside the zone.
        if let to, targetIsOther, Suggestion.editDistance(Array(to.lowercased()), Array("outside")) <= 2 {
            throw FleetError("--to: '\(to)' is not an app of the fleet and is spelled like the keyword outside: write --to outside (exactly, lower case) for every app outside the zone of trust, or give an app's bundle ID")
        }
        self.init(app: app, from: from, to: to, target: target, targetIsOther: targetIsOther, names: names, format: format, sink: sink)
    }

    /// Writes the paths of `devices` (at most `maxHops` hops each, when given): one block (text) or record (JSON) per
    /// device and starting app, each written as soon as it is made, so the output for every app is never held whole
    /// (memory: the device's graph, every app's search result, and one app's paths at a time); the report formats
    /// (Markdown, SARIF, DOT) close the report at the end.
    /// - Returns: whether the gate fails: a path reaches the `to` set (or, without one, outside), or with a baseline
    ///   a path to outside is new or expired.
    /// - Throws: `FleetError` when a search cannot run; nothing more is written then.
    public mutating func write(_ devices: [AnalyzedDevice], maxHops: Int?) throws(FleetError) -> Bool {
        /// Each search of `device` (the one app's, or every starting app's over one graph), given to `body` in turn.
        func searches(_ device: AnalyzedDevice, _ body: (FleetReach) throws(FleetError) -> Void) throws(FleetError) {
            if let app { try body(try device.reach(from: app, maxHops: maxHops)) } else { try device.forEachReach(maxHops: maxHops, body) }
        }
        if format == .markdown {
            // Markdown leads with every device's counts: a first pass searches without deciding a hop.
            for device in devices { try searches(device) { (reach) throws(FleetError) in count(device, app: reach.from, reach) } }
            writeHeader()
        }
        for (index, device) in devices.enumerated() {
            try searches(device) { (reach) throws(FleetError) in
                // Text and JSON from each search's tree, each hop written once; the report formats decide only the hops they show.
                if format.report != nil {
                    try emitReport(device, app: reach.from, reach)
                } else {
                    try emit(device, app: reach.from, reach: reach, last: index == devices.count - 1)
                }
            }
        }
        return finish()
    }
}

extension FleetPathsFormat {
    /// Whether this is a report of the paths to outside (Markdown, SARIF, DOT) rather than of every path (text, JSON).
    public var isReport: Bool { report != nil }

    /// The SARIF version ``sarif`` writes.
    public static let sarifVersion = SARIFLog.version
}
