import Testing
@testable import OpenInCheckCLI
import OpenInReports

/// Long names are shown elided in the middle, with their length, within a bound of characters.
@Suite struct ElisionTests {
    @Test func shortNamesAreKept() {
        #expect("com.acme.mail".elidedInTheMiddle() == "com.acme.mail")
        let exactly = String(repeating: "é", count: String.shownNameLimit)
        #expect(exactly.elidedInTheMiddle() == exactly)
    }

    @Test func longNamesKeepBothEndsAndSayTheLength() {
        let name = "com.start." + String(repeating: "x", count: 200_000) + ".end"
        let shown = name.elidedInTheMiddle()
        #expect(shown.count <= String.shownNameLimit)
        #expect(shown.hasPrefix("com.start.xx"))
        #expect(shown.hasSuffix("xx.end"))
        #expect(shown.contains("…(\(name.count) characters)…"))
    }

    @Test func noGraphemeClusterIsCut() {
        let name = String(repeating: "e\u{301}👩‍👩‍👧", count: 2_000)
        let shown = name.elidedInTheMiddle(limit: 101)
        #expect(shown.count <= 101)
        let kept = shown.split(separator: "…")
        // Both ends are whole clusters of the original.
        #expect(kept.first!.allSatisfy { $0 == "e\u{301}" || $0 == "👩‍👩‍👧" })
        #expect(kept.last!.allSatisfy { $0 == "e\u{301}" || $0 == "👩‍👩‍👧" })
    }
}
