import OpenInPolicy

/// How much of a report the places that show it take: GitHub code scanning for SARIF. The limits cut only the
/// report formats; text and JSON are never cut and list every path.
package struct ReportLimits: Sendable, Equatable {
    /// SARIF: the most results a run keeps (`--max-results`). GitHub code scanning takes at most 25,000 per run.
    package var maxResults: Int
    /// SARIF: the most bytes the whole log takes, uncompressed. GitHub code scanning takes at most 10 MB gzipped
    /// per upload; the writer does not compress, so it bounds the uncompressed size instead: gzip's output is at
    /// most its input plus 18 bytes and 5 per 64 KiB block stored as it is, so a log of 9,500,000 bytes gzips to
    /// under 9,501,000, whatever it holds.
    package var maxSARIFBytes: Int

    /// GitHub code scanning's limit on results per run.
    package static let defaultMaxResults = 25_000
    /// The uncompressed bound that keeps a SARIF log under 10 MB gzipped (see ``maxSARIFBytes``).
    package static let defaultMaxSARIFBytes = 9_500_000

    /// The limits GitHub sets.
    package init(maxResults: Int = defaultMaxResults, maxSARIFBytes: Int = defaultMaxSARIFBytes) {
        self.maxResults = maxResults
        self.maxSARIFBytes = maxSARIFBytes
    }
}
