import OpenInPolicy

extension SARIFReport {
    /// A log within ``ReportLimits``: at most ``ReportLimits/maxResults`` results and ``ReportLimits/maxSARIFBytes``
    /// bytes. When the paths offered do not fit, the most severe are kept: paths not in the baseline (or every path,
    /// without one) before expired ones, expired ones before accepted ones (which code scanning shows suppressed);
    /// among equals, the first offered. The results kept are written in the order offered; the rest are counted in
    /// the run's `properties` and a tool execution notification that says how to get every path.
    ///
    /// Memory: the kept results' bytes (at most the byte limit), and a rank and index per result kept.
    struct Capped {
        package let limits: ReportLimits
        private var stream = Stream()
        private let header: [UInt8]
        /// The results kept, in the order offered (an evicted one left empty).
        private var kept: [[UInt8]] = []
        /// Per rank (0 most severe), the indices in ``kept`` of its results, and their bytes with the separator before each.
        private var byRank: [[Int]] = [[], [], []]
        private var rankBytes = [0, 0, 0]
        private var keptCount = 0
        /// The log's bytes so far: the header, each kept result with its separator, and room for the end.
        private var total: Int
        /// Results left out, by the state the baseline gave them (`unjudged`: no baseline, or not a path to outside).
        package private(set) var omitted: [String: Int] = [:]
        package private(set) var offered = 0
        /// The most severe rank found full: a result of it did not fit with nothing less severe kept to make room, so
        /// none of it or below is written again (only counted).
        private var fullFrom = 3

        /// Room kept for the log's end with its notification and properties.
        static let endReserve = 2_048

        /// A log with no result offered yet.
        package init(_ limits: ReportLimits) {
            self.limits = limits
            header = stream.start()
            total = header.count + Self.endReserve
        }

        /// The rank of a result by its path's state: 0 new (or not judged), 1 expired, 2 accepted.
        static func rank(_ state: FleetBaseline.State?) -> Int {
            switch state {
            case .accepted?: 2
            case .expired?: 1
            default: 0
            }
        }

        private mutating func omit(_ state: FleetBaseline.State?) { omitted[state?.rawValue ?? "unjudged", default: 0] += 1 }

        /// Offers one result: kept when it fits, or when it is more severe than results it can replace.
        mutating func offer(_ path: ReportPath, opened: Bool) {
            offered += 1
            let rank = Self.rank(path.state)
            let worse = (rank + 1)..<3
            let worseCount = worse.reduce(0) { $0 + byRank[$1].count }
            // Full of results at least as severe: left out without being written.
            if keptCount - worseCount >= limits.maxResults || rank >= fullFrom {
                omit(path.state)
                return
            }
            var bytes: [UInt8] = []
            stream.appendResult(path, opened: opened, to: &bytes)
            let size = bytes.count + Stream.nextResult.count
            let worseBytes = worse.reduce(0) { $0 + rankBytes[$1] }
            if total - worseBytes + size > limits.maxSARIFBytes {
                if worseBytes == 0 { fullFrom = rank }
                omit(path.state)
                return
            }
            // Room made by leaving out the least severe, latest kept results.
            while keptCount >= limits.maxResults || total + size > limits.maxSARIFBytes {
                let least = worse.last { !byRank[$0].isEmpty }!
                let index = byRank[least].removeLast()
                let freed = kept[index].count + Stream.nextResult.count
                rankBytes[least] -= freed
                total -= freed
                keptCount -= 1
                kept[index] = []
                omit(least == 2 ? .accepted : .expired)
            }
            byRank[rank].append(kept.count)
            rankBytes[rank] += size
            total += size
            keptCount += 1
            kept.append(bytes)
        }

        /// The number of results left out.
        var omittedCount: Int { omitted.values.reduce(0, +) }

        /// Writes the log: the header, the results kept, and the end (with what was left out, when anything was).
        package func finish(to sink: any ReportSink) {
            var bytes = header
            var first = true
            for result in kept where !result.isEmpty {
                bytes += first ? Stream.firstResult : Stream.nextResult
                first = false
                bytes += result
                if bytes.count >= 1 << 16 {
                    sink.write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            bytes += end(empty: first)
            sink.write(bytes)
        }

        /// The end of the log: with nothing left out, ``SARIFLog/end(empty:)``; otherwise the run's `invocations`
        /// (a notification of what was left out) and `properties` (the counts) after its results.
        func end(empty: Bool) -> [UInt8] {
            let left = omittedCount
            if left == 0 { return SARIFLog.end(empty: empty) }
            var bytes = Array((empty ? "]" : "\n      ]").utf8)
            let states = ["new", "expired", "accepted", "unjudged"].compactMap { state in omitted[state].map { (state, $0) } }
            let which = states.map { "\($0.1) \($0.0 == "unjudged" ? "not judged" : $0.0)" }
            let breakdown = states.map(\.0) == ["unjudged"] ? "" : " (\(which.joined(separator: ", ")); the most severe kept: new, then expired, then accepted paths)"
            let text = "\(left) of \(offered) results left out\(breakdown), to stay within GitHub code scanning's limits: at most \(limits.maxResults) results "
                + "(--max-results) and \(limits.maxSARIFBytes) bytes uncompressed per run. Every path: the same command with --format json or text, which are never cut."
            let notification = JSONObject(members: [
                .init("level", .string("warning")),
                .init("message", .object(JSONObject(["text": .string(SARIFText.message(text))]))),
            ])
            let invocation = JSONObject(members: [
                .init("executionSuccessful", .bool(true)),
                .init("toolExecutionNotifications", .array(JSONArray([.object(notification)]))),
            ])
            var counts: [JSONObject.Member] = [
                .init("resultsOffered", .number(JSONNumber(offered))), .init("resultsOmitted", .number(JSONNumber(left))),
                .init("maxResults", .number(JSONNumber(limits.maxResults))), .init("maxBytes", .number(JSONNumber(limits.maxSARIFBytes))),
            ]
            counts.append(.init("resultsOmittedByState", .object(JSONObject(members: states.map { .init($0.0, .number(JSONNumber($0.1))) }))))
            for (key, value) in [("invocations", JSONValue.array(JSONArray([.object(invocation)]))), ("properties", .object(JSONObject(members: counts)))] {
                bytes += ",\n      \"\(key)\": ".utf8
                JSONWriter.append(value, to: &bytes, pretty: true, level: 3)
            }
            bytes += "\n    }\n  ]\n}\n".utf8
            return bytes
        }
    }
}
