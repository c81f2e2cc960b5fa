import Foundation

/// The keys the library reads from an Info.plist.
enum InfoPlistKeys {
    /// The dictionary AppConnect's keys live in.
    static let section = "MI_APP_CONNECT"
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
enum KeySpelling {
    /// Whether `written` is `known` (the same bytes) or a spelling of it the library would miss.
    static func matches(_ written: String, _ known: String) -> Bool {
        ExactText.same(written, known) || looksLike(written, known)
    }

    /// Whether `written` is a spelling of `known` that the library would miss: not its bytes, but like it.
    static func isMisspelling(_ written: String, of known: String) -> Bool {
        !ExactText.same(written, known) && looksLike(written, known)
    }

    /// What makes `written` another key than `known`, for a message: its first non-ASCII character, if any.
    static func difference(_ written: String) -> String {
        ExactText.firstNonASCII(in: written).map { " (it holds \(ExactText.describe($0)), not an ASCII character)" } ?? ""
    }

    private static func looksLike(_ written: String, _ known: String) -> Bool {
        written == known || Suggestion.editDistance(Array(normalized(written)), Array(normalized(known))) <= 2
    }

    /// The key's letters and digits after compatibility normalisation (NFKC), upper-cased.
    private static func normalized(_ key: String) -> String {
        String(key.precomposedStringWithCompatibilityMapping.unicodeScalars.filter {
            $0.properties.isAlphabetic || ("0"..."9").contains($0)
        }).uppercased()
    }
}
