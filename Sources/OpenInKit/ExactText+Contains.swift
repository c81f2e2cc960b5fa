extension ExactText {
    /// Whether `text` holds `needle` as a run of UTF-8 bytes (not as canonically equivalent characters).
    ///
    /// The library's own substring search: `StringProtocol.contains(_:)` and its kin come from
    /// `_StringProcessing`, which links the regular-expression parser into the binary (about 1 MB) and
    /// compares characters, not bytes.
    package static func contains<S: StringProtocol>(_ text: S, _ needle: String) -> Bool {
        contains(bytes: Array(text.utf8), Array(needle.utf8))
    }

    /// Whether `haystack` holds `needle` as a run of bytes (Knuth–Morris–Pratt: linear in both, whatever
    /// the input holds).
    package static func contains(bytes haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        guard haystack.count >= needle.count else { return false }
        // failure[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0, needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        for byte in haystack {
            while matched > 0, byte != needle[matched] { matched = failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }
}
