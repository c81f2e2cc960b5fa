@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing

/// The spelling check's work is bounded by the known key's length: a key much longer than every
/// known key cannot be a typo of one, and is dismissed by a scan that stops past the limit
/// (a 15 MiB key took 11 s of edit distance; the time is measured in the benchmark, not here).
@Suite struct KeySpellingBoundsTests {
    static let known = AppConfig.disableSchemeBlockingKey

    @Test func theScanStopsPastTheLimit() {
        // 26 letters in the known key; a 15 MiB key is given up on after 29 letters and digits.
        #expect(KeySpelling.normalized(Self.known, atMost: .max) == "MIACDISABLESCHEMEBLOCKING")
        #expect(KeySpelling.normalized(String(repeating: "K", count: 28), atMost: 27) == nil)
        #expect(KeySpelling.normalized(String(repeating: "K", count: 27), atMost: 27)?.count == 27)
        #expect(KeySpelling.normalized(String(repeating: "k", count: 15 << 20), atMost: 27) == nil)
    }

    @Test func spellingsWithinTwoEditsStillMatchAndLongerKeysDoNot() {
        #expect(KeySpelling.isMisspelling("MI_AC_DISABLE_SCHEME_BLOCKINGXX", of: Self.known))
        #expect(KeySpelling.isMisspelling("MI.AC.DISABLE.SCHEME.BLOCKING", of: Self.known))
        #expect(KeySpelling.isMisspelling("MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING", of: Self.known))
        #expect(!KeySpelling.isMisspelling("MI_AC_DISABLE_SCHEME_BLOCKINGXXX", of: Self.known))
        #expect(!KeySpelling.isMisspelling(Self.known + String(repeating: "_", count: 1_000) + "XYZ", of: Self.known))
        #expect(!KeySpelling.isMisspelling(String(repeating: "MI_AC_DISABLE_SCHEME_BLOCKING", count: 500_000), of: Self.known))
        #expect(KeySpelling.matches(Self.known, Self.known))
    }
}
