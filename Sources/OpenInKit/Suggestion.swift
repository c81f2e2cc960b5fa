/// "Did you mean …?" for a mistyped verb, option, key or value.
///
/// Shared by the format readers (unknown keys) and the command line (verbs, options); public for
/// a program that reads its own input and suggests the same way.
public enum Suggestion {
    /// The candidate closest to `input`, if it is close enough to be a likely typo.
    ///
    /// Close enough: at most 2 edits (insertions, deletions, substitutions or
    /// swaps of neighbours) and fewer edits than half the input's length, or
    /// `input` is a prefix of exactly one candidate (an abbreviation), or, for an
    /// input of 6 characters or more, a singular for a plural (all but its last two
    /// characters begin exactly one candidate up to 3 characters longer).
    public static func closest(to input: String, among candidates: [String]) -> String? {
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
    public static func phrase(for input: String, among candidates: [String]) -> String {
        closest(to: input, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance: Levenshtein plus swaps of neighbouring characters.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows made once and rotated (a stream asks this for every line that names an unknown channel).
        var rowBefore = [Int](repeating: 0, count: b.count + 1)
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        for i in 1...a.count {
            swap(&rowBefore, &previousRow)
            swap(&previousRow, &row)
            row[0] = i
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

extension Suggestion {
    /// Candidates prepared once for many "Did you mean" questions, so that a question is not a walk
    /// of every candidate: a stream that names a thousand unknown IDs against a fleet of 30,000 apps
    /// asks a thousand questions.
    ///
    /// The keys are sorted once; a question walks the trie they form (implicitly: a node is a range
    /// of the sorted keys sharing a prefix) carrying the edit-distance rows, and leaves a branch as
    /// soon as every entry of its row is over the bound (a row never goes below its smallest entry,
    /// swaps included). It walks first with the bound 1, and only when nothing is within one edit
    /// with the bound 2: the nearest candidate is the same either way (every candidate within one edit
    /// is found by the first walk), and a typo one edit from a candidate, the usual case, visits only
    /// the prefixes within one edit of it, not the many more within two where the keys are dense.
    /// The rows live in one buffer made per question (one row per depth), so a visited prefix costs
    /// one row's arithmetic and no allocation.
    /// - Complexity: O(*n* log *n*) to make for *n* candidates; a question O((*m* + log *n*) · *p*)
    ///   for the *p* prefixes within one edit of the typed text (within two when none is within one)
    ///   and an input of *m* elements, not O(*n*).
    package struct NearIndex<Element: Comparable> {
        /// The keys, sorted; ``order`` holds each one's position in the candidates given.
        private let keys: [[Element]]
        private let order: [Int]

        /// Indexes `keys` (a candidate's position in `keys` is what the questions answer with).
        package init(_ keys: [[Element]]) {
            let sorted = keys.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) || (keys[$0] == keys[$1] && $0 < $1) }
            self.keys = sorted.map { keys[$0] }
            order = sorted
        }

        /// The candidate nearest `typed` within two edits (insertions, deletions, substitutions,
        /// swaps of neighbours, as ``Suggestion/editDistance(_:_:)`` counts), the earliest given among
        /// the nearest, with its distance; `nil` when none is within two.
        package func nearest(_ typed: [Element]) -> (index: Int, distance: Int)? {
            for bound in 1...2 {
                if let found = nearest(typed, within: bound) { return found }
            }
            return nil
        }

        /// The candidate nearest `typed` within `bound` edits, the earliest given among the nearest.
        /// Made for bytes (the fleet's bundle IDs) and characters (names) ahead of time: the walk is
        /// generic, and a caller in another module would otherwise run it through value witnesses.
        @_specialize(where Element == UInt8)
        @_specialize(where Element == Character)
        package func nearest(_ typed: [Element], within bound: Int) -> (index: Int, distance: Int)? {
            guard !keys.isEmpty else { return nil }
            let width = typed.count + 1
            // A prefix longer than the input by more than the bound is over it in every entry: depths stop there.
            let depths = typed.count + bound + 2
            var walk = Walk(typed: typed, bound: bound, width: width, rows: [Int](repeating: 0, count: width * depths),
                            path: [Element](), best: nil)
            for j in 0..<width { walk.rows[j] = j }
            walk.path.reserveCapacity(depths)
            descend(&walk, depth: 0, range: 0..<keys.count)
            return walk.best
        }

        /// How many candidates begin with `prefix` (counted up to 2: the walk stops there), and the
        /// earliest given of those counted.
        func uniqueBeginning(with prefix: [Element]) -> Int? {
            var low = 0, high = keys.count
            // The first key not before `prefix`; the keys that begin with it follow in one run.
            while low < high {
                let middle = (low + high) / 2
                if keys[middle].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
            }
            guard low < keys.count, keys[low].starts(with: prefix) else { return nil }
            return low + 1 < keys.count && keys[low + 1].starts(with: prefix) ? nil : order[low]
        }

        /// One question's state: row `d` of `rows` (at `d * width`) is the edit-distance row of the
        /// prefix of depth `d` on the path walked.
        private struct Walk {
            let typed: [Element]
            let bound: Int
            let width: Int
            var rows: [Int]
            var path: [Element]
            var best: (index: Int, distance: Int)?
        }

        /// Works out the row at `next` (depth `depth + 1`, the prefix ending in `element`) from the two
        /// rows before it, and returns its smallest entry.
        @inline(__always)
        private static func row(of element: Element, after previous: Element?, typed: [Element], at next: Int, width: Int, depth: Int,
                                rows: inout [Int]) -> Int {
            let m = typed.count
            let here = next - width, before = here - width
            return rows.withUnsafeMutableBufferPointer { rows in
                typed.withUnsafeBufferPointer { typed in
                    rows[next] = depth + 1
                    var smallest = depth + 1
                    for j in stride(from: 1, through: m, by: 1) {
                        let cost = typed[j - 1] == element ? 0 : 1
                        var value = min(rows[here + j] + 1, rows[next + j - 1] + 1, rows[here + j - 1] + cost)
                        if let previous, j > 1, typed[j - 1] == previous, typed[j - 2] == element {
                            value = min(value, rows[before + j - 2] + 1)
                        }
                        rows[next + j] = value
                        smallest = min(smallest, value)
                    }
                    return smallest
                }
            }
        }

        private func descend(_ walk: inout Walk, depth: Int, range: Range<Int>) {
            let m = walk.typed.count
            let here = depth * walk.width
            var start = range.lowerBound
            // A key that ends here (at most one run of equal keys: shorter keys sort first).
            while start < range.upperBound, keys[start].count == depth {
                let distance = walk.rows[here + m]
                if distance <= walk.bound, walk.best.map({ distance < $0.distance || (distance == $0.distance && order[start] < $0.index) }) ?? true {
                    walk.best = (order[start], distance)
                }
                start += 1
            }
            let next = here + walk.width
            guard next + walk.width <= walk.rows.count else { return }
            while start < range.upperBound {
                let element = keys[start][depth]
                // The end of this child's run: the first key whose element at `depth` comes after.
                var low = start + 1, high = range.upperBound
                while low < high {
                    let middle = (low + high) / 2
                    if element < keys[middle][depth] { high = middle } else { low = middle + 1 }
                }
                let previous: Element? = depth > 0 ? walk.path[depth - 1] : nil
                let smallest = Self.row(of: element, after: previous, typed: walk.typed, at: next, width: walk.width, depth: depth, rows: &walk.rows)
                if smallest <= walk.bound {
                    walk.path.append(element)
                    descend(&walk, depth: depth + 1, range: start..<low)
                    walk.path.removeLast()
                }
                start = low
            }
        }
    }
}

extension Suggestion {
    /// Candidates for many ``closest(to:among:)`` questions, each answered as that function answers
    /// it but without walking every candidate (``NearIndex``; the plural rule looks up the four
    /// lengths it allows in a second order, by length).
    package struct Candidates {
        private let names: [String]
        private let near: NearIndex<Character>
        /// The candidates' positions by their length, then their lowercased text.
        private let byLength: [Int]
        private let lowered: [[Character]]
        private let lengths: [Int]

        package init(_ names: [String]) {
            self.names = names
            let lowered = names.map { Array($0.lowercased()) }
            let lengths = names.map(\.count)
            near = NearIndex(lowered)
            byLength = names.indices.sorted {
                lengths[$0] != lengths[$1] ? lengths[$0] < lengths[$1] : lowered[$0].lexicographicallyPrecedes(lowered[$1]) || (lowered[$0] == lowered[$1] && $0 < $1)
            }
            self.lowered = lowered
            self.lengths = lengths
        }

        /// What ``Suggestion/closest(to:among:)`` answers for `input` among these candidates.
        package func closest(to input: String) -> String? {
            let typed = Array(input.lowercased())
            if let found = near.nearest(typed), found.distance * 2 < typed.count { return names[found.index] }
            if typed.count >= 3, let only = near.uniqueBeginning(with: typed) { return names[only] }
            guard typed.count >= 6 else { return nil }
            let stem = Array(typed.dropLast(2))
            var found: [Int] = []
            for length in typed.count...(typed.count + 3) {
                found += beginning(with: stem, length: length, upTo: 2 - found.count)
                if found.count > 1 { return nil }
            }
            return found.first.map { names[$0] }
        }

        /// Up to `limit` candidates of `length` whose lowercased text begins with `prefix`.
        private func beginning(with prefix: [Character], length: Int, upTo limit: Int) -> [Int] {
            var low = 0, high = byLength.count
            while low < high {
                let middle = (low + high) / 2
                let position = byLength[middle]
                if lengths[position] < length || (lengths[position] == length && lowered[position].lexicographicallyPrecedes(prefix)) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            var found: [Int] = []
            while low < byLength.count, found.count < limit, lengths[byLength[low]] == length, lowered[byLength[low]].starts(with: prefix) {
                found.append(byLength[low])
                low += 1
            }
            return found
        }

        /// " Did you mean 'x'?" or the empty string, as ``Suggestion/phrase(for:among:)``.
        package func phrase(for input: String) -> String {
            closest(to: input).map { " Did you mean '\($0)'?" } ?? ""
        }
    }
}
