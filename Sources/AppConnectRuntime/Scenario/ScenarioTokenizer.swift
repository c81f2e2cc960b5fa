/// Splits a scenario line into words: spaces separate, `"…"` quotes (with
/// `\"` and `\\`), `#` outside quotes starts a comment.
enum ScenarioTokenizer {
    /// A word, and whether any of it was quoted (a quoted word is never a keyword).
    struct Word: Sendable, Hashable {
        var text: String
        var quoted: Bool
    }

    /// The words of `line`.
    /// - Throws: a message when a quote is not closed or an escape is unknown.
    static func words(_ line: Substring) throws(TokenError) -> [Word] {
        var words: [Word] = []
        var current: Word?
        var inQuotes = false
        var escaping = false
        for character in line {
            if escaping {
                guard character == "\"" || character == "\\" else {
                    throw TokenError("unknown escape '\\\(character)' in quotes: write \\\" for a quote and \\\\ for a backslash")
                }
                current?.text.append(character)
                escaping = false
            } else if inQuotes {
                switch character {
                case "\\": escaping = true
                case "\"": inQuotes = false
                default: current?.text.append(character)
                }
            } else {
                switch character {
                case "#":
                    if let word = current { words.append(word) }
                    return words
                case " ", "\t":
                    if let word = current { words.append(word) }
                    current = nil
                case "\"":
                    if current == nil { current = Word(text: "", quoted: true) }
                    current?.quoted = true
                    inQuotes = true
                default:
                    if current == nil { current = Word(text: "", quoted: false) }
                    current?.text.append(character)
                }
            }
        }
        if inQuotes || escaping { throw TokenError("a quote is not closed: end the quoted text with \"") }
        if let word = current { words.append(word) }
        return words
    }

    /// Why a line cannot be split into words.
    struct TokenError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
