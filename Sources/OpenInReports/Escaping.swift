extension String {
    /// This text with each character that `replacement` maps replaced by its text, the others kept.
    ///
    /// Characters are grapheme clusters: `"\r\n"` is one character.
    func escapingCharacters(_ replacement: (Character) -> String?) -> String {
        var result = ""
        for character in self {
            if let text = replacement(character) { result += text } else { result.append(character) }
        }
        return result
    }

    /// This text with each Unicode scalar that `replacement` maps replaced by its text, the others kept.
    func escapingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { result += text } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}

extension String {
    /// The most characters of a name that the outputs people read show before eliding it in the middle.
    ///
    /// A character (a grapheme cluster) can hold any number of scalars, so a writer with a byte limit bounds the
    /// scalars too (``Swift/String/elidedInTheMiddle(limit:scalars:)``): escaped, a scalar is at most 11 bytes.
    package static let shownNameLimit = 1_000

    /// This text if it has at most `limit` characters, else its first and last characters around
    /// `…(N characters)…`, N the whole text's count, so that the result has about `limit` characters.
    ///
    /// Characters are grapheme clusters, so no cluster is cut; the count says how long the name really is,
    /// and a machine-readable output keeps the whole name beside it.
    package func elidedInTheMiddle(limit: Int = String.shownNameLimit) -> String {
        // A byte count at most the limit means a character count at most the limit: checked without a walk first.
        if utf8.count <= limit { return self }
        let total = count
        if total <= limit { return self }
        let marker = "…(\(total) characters)…"
        let keep = Swift.max(2, limit - marker.count)
        let head = prefix(keep - keep / 2), tail = suffix(keep / 2)
        return head + marker + tail
    }
}
