import OpenInCore
import OpenInFleet
import OpenInKit

/// Labels that look alike but are other bytes.
///
/// The server matches a policy's label to a device's by name, byte for byte, and so does the fleet.
/// A label written with a Cyrillic `е`, a trailing space, a zero-width joiner or a decomposed `é`
/// matches no device that carries the label it looks like: the policy silently misses those
/// devices and their apps fall to the global policy. Such a label has the same *skeleton* as the
/// one it copies; a label one edit from a carried one is more likely a typo.
enum LabelSpelling {
    /// The label with look-alikes folded: invisible format characters and white space dropped,
    /// full-width and letter-like symbols folded as ``KeySpelling`` folds them, Cyrillic and Greek
    /// letters that look like Latin ones mapped to those. Skeletons are compared as Swift strings
    /// (canonical equivalence), so a decomposed `é` and a composed one have one skeleton.
    static func skeleton(_ label: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in label.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format { continue }
            folded.append(fold(scalar))
        }
        return String(folded)
    }

    /// What makes `written` another label than `carried`, for a message: its first non-ASCII
    /// character, else its first character that differs, else what `carried` has that it lacks.
    package static func difference(_ written: String, from carried: String) -> String {
        if let scalar = ExactText.firstNonASCII(in: written) { return "it holds \(ExactText.describe(scalar))" }
        let a = Array(written.unicodeScalars), b = Array(carried.unicodeScalars)
        let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        if index < a.count { return "it holds \(ExactText.describe(a[index]))" }
        if index < b.count { return "it lacks \(ExactText.describe(b[index]))" }
        return "its bytes differ"
    }

    /// Labels longer than this are not searched for one-edit neighbours (the search is quadratic in a label's length).
    static let longestTypoSearched = 64

    /// Every string one deletion from `label` (and `label` itself): two labels one edit apart
    /// (an insertion, deletion or substitution) share one of these.
    static func deletions(_ label: String) -> [String] {
        let scalars = Array(label.unicodeScalars)
        guard scalars.count <= longestTypoSearched else { return [label] }
        var result = [label]
        for index in scalars.indices {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[..<index])
            view.append(contentsOf: scalars[(index + 1)...])
            result.append(String(view))
        }
        return result
    }

    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xFF01...0xFF5E: return Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar
        case 0x212A: return "K"
        case 0x212B: return "\u{C5}"
        case 0x2126: return "\u{3A9}"
        default: return confusables[scalar] ?? scalar
        }
    }

    /// Cyrillic and Greek letters drawn like Latin ones.
    private static let confusables: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{430}": "a", "\u{435}": "e", "\u{43E}": "o", "\u{440}": "p", "\u{441}": "c", "\u{443}": "y", "\u{445}": "x",
        "\u{456}": "i", "\u{458}": "j", "\u{455}": "s", "\u{4CF}": "l",
        "\u{410}": "A", "\u{412}": "B", "\u{415}": "E", "\u{41A}": "K", "\u{41C}": "M", "\u{41D}": "H", "\u{41E}": "O",
        "\u{420}": "P", "\u{421}": "C", "\u{422}": "T", "\u{425}": "X", "\u{406}": "I", "\u{408}": "J", "\u{405}": "S",
        "\u{391}": "A", "\u{392}": "B", "\u{395}": "E", "\u{396}": "Z", "\u{397}": "H", "\u{399}": "I", "\u{39A}": "K",
        "\u{39C}": "M", "\u{39D}": "N", "\u{39F}": "O", "\u{3A1}": "P", "\u{3A4}": "T", "\u{3A5}": "Y", "\u{3A7}": "X",
        "\u{3BF}": "o", "\u{3BD}": "v", "\u{3B9}": "i",
    ]
}
