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
