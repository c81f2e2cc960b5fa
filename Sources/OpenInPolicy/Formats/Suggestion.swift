/// "Did you mean …?" for a mistyped verb, option, key or value.
///
/// Shared by the format readers (unknown keys) and the CLI (verbs, options):
/// `package`, not public API.
package enum Suggestion {
    /// The candidate closest to `input`, if it is close enough to be a likely typo.
    ///
    /// Close enough: at most 2 edits (insertions, deletions, substitutions or
    /// swaps of neighbours) and fewer edits than half the input's length, or
    /// `input` is a prefix of exactly one candidate (an abbreviation), or, for an
    /// input of 6 characters or more, a singular for a plural (all but its last two
    /// characters begin exactly one candidate up to 3 characters longer).
    package static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = Array(input.lowercased())
        var best: (candidate: String, distance: Int)? = nil
        for candidate in candidates {
            // More than 2 characters longer or shorter cannot be within 2 edits; this keeps huge inputs cheap.
            guard abs(candidate.count - typed.count) <= 2 else { continue }
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= 2, distance * 2 < typed.count, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        if let best { return best.candidate }
        let lowered = input.lowercased()
        let prefixed = candidates.filter { lowered.count >= 3 && $0.lowercased().hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        // A singular for a plural (`containerPolicy` for `containerPolicies`): all but the last two
        // characters of the input begin exactly one candidate no more than 3 characters longer.
        guard typed.count >= 6 else { return nil }
        let stem = String(typed.dropLast(2))
        let stemmed = candidates.filter { $0.lowercased().hasPrefix(stem) && $0.count <= typed.count + 3 && $0.count >= typed.count }
        return stemmed.count == 1 ? stemmed[0] : nil
    }

    /// " Did you mean 'x'?" or the empty string.
    package static func phrase(for input: String, among candidates: [String]) -> String {
        closest(to: input, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance: Levenshtein plus swaps of neighbouring characters.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let rowBefore = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rowBefore[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
