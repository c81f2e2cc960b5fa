/// The keys the library reads from an Info.plist.
enum InfoPlistKeys {
    /// The dictionary AppConnect's keys live in.
    static let section = "MI_APP_CONNECT"
    /// The scheme-blocking override in that dictionary.
    static let disableSchemeBlocking = AppConfig.disableSchemeBlockingKey
}

/// Whether a key as written is meant as a key the library reads.
///
/// The library compares keys exactly. A key that differs only in letter
/// case, spaces or separators (`mi_ac_disable_scheme_blocking`,
/// `MI-AC-DISABLE-SCHEME-BLOCKING`, `MI_AC_DISABLE_SCHEME_BLOCKING `), or
/// whose letters and digits are at most two edits away
/// (`MI_AC_DISABLE_SCHEME_BLOCKNG`), is almost certainly meant as that key,
/// and is silently never read. The keys checked are long, so two edits do
/// not reach another plausible key.
enum KeySpelling {
    /// Whether `written` is `known` or a spelling of it the library would miss.
    static func matches(_ written: String, _ known: String) -> Bool {
        written == known || Suggestion.editDistance(Array(normalized(written)), Array(normalized(known))) <= 2
    }

    /// Whether `written` is a spelling of `known` that the library would miss.
    static func isMisspelling(_ written: String, of known: String) -> Bool {
        written != known && matches(written, known)
    }

    /// The key's letters and digits, upper-cased.
    private static func normalized(_ key: String) -> String {
        String(key.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }).uppercased()
    }
}
