import OpenInCore
import OpenInFleet
import OpenInKit

/// The keys the library reads from an Info.plist.
enum InfoPlistKeys {
    /// The dictionary AppConnect's keys live in.
    package static let section = "MI_APP_CONNECT"
    /// The scheme-blocking override in that dictionary.
    static let disableSchemeBlocking = AppConfig.disableSchemeBlockingKey
}

/// Whether a key as written is meant as a key the library reads.
///
/// The library compares keys byte for byte. A key that is not those bytes
/// but looks like them — canonically or compatibly equivalent Unicode
/// (`MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING`, KELVIN SIGN for `K`; full-width
/// letters), a different letter case, spaces or separators
/// (`mi_ac_disable_scheme_blocking`, `MI-AC-DISABLE-SCHEME-BLOCKING`), or
/// letters and digits at most two edits away (`MI_AC_DISABLE_SCHEME_BLOCKNG`,
/// a Cyrillic `К`) — is almost certainly meant as that key, and is silently
/// never read. The keys checked are long, so two edits do not reach another
/// plausible key.
package enum KeySpelling {
    /// Whether `written` is `known` (the same bytes) or a spelling of it the library would miss.
    static func matches(_ written: String, _ known: String) -> Bool {
        ExactText.same(written, known) || looksLike(written, known)
    }

    /// Whether `written` is a spelling of `known` that the library would miss: not its bytes, but like it.
    static func isMisspelling(_ written: String, of known: String) -> Bool {
        !ExactText.same(written, known) && looksLike(written, known)
    }

    /// What makes `written` another key than `known`, for a message: its first non-ASCII character, if any.
    package static func difference(_ written: String) -> String {
        ExactText.firstNonASCII(in: written).map { " (it holds \(ExactText.describe($0)), not an ASCII character)" } ?? ""
    }

    /// How many edits apart a spelling may be.
    static let maxEdits = 2

    /// - Complexity: O(n) in `written`'s length to count its letters and digits, then, only when
    ///   their count is within ``maxEdits`` of `known`'s, the edit distance: O(m²) in `known`'s
    ///   length. A key far longer than every known key is no spelling of one, and costs a scan.
    private static func looksLike(_ written: String, _ known: String) -> Bool {
        let target = normalized(known, atMost: Int.max) ?? ""
        // More letters and digits than `known` has plus two edits cannot be two edits away.
        guard let folded = normalized(written, atMost: target.unicodeScalars.count + maxEdits) else { return false }
        return written == known || Suggestion.editDistance(Array(folded), Array(target)) <= maxEdits
    }

    /// The key's letters and digits after folding look-alikes, upper-cased.
    ///
    /// The folding is the part of compatibility normalisation (NFKC) that keys
    /// meet: full-width ASCII (`\u{FF21}` for `A`) and the letter-like
    /// symbols that are canonically letters (KELVIN SIGN, ANGSTROM SIGN, OHM
    /// SIGN). Other compatibility characters (mathematical alphanumerics,
    /// ligatures) are not folded; they still count as one edit each.
    /// `nil` when the key has more than `limit` letters and digits (the scan stops there).
    static func normalized(_ key: String, atMost limit: Int) -> String? {
        var folded = String.UnicodeScalarView()
        var count = 0
        for scalar in key.unicodeScalars {
            let mapped = fold(scalar)
            if mapped.properties.isAlphabetic || ("0"..."9").contains(mapped) {
                count += 1
                if count > limit { return nil }
                folded.append(mapped)
            }
        }
        return String(folded).uppercased()
    }

    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xFF01...0xFF5E: Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar
        case 0x212A: "K"
        case 0x212B: "\u{C5}"
        case 0x2126: "\u{3A9}"
        default: scalar
        }
    }
}
