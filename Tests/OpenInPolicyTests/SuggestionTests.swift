@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy
import Testing
import OpenInTestSupport

@Suite struct SuggestionTests {
    @Test func closeTyposAreSuggested() {
        #expect(Suggestion.closest(to: "--polcy", among: ["--policy", "--format"]) == "--policy")
        #expect(Suggestion.closest(to: "evla", among: ["eval", "matrix"]) == "eval")
        #expect(Suggestion.closest(to: "matr", among: ["eval", "matrix"]) == "matrix")
    }

    @Test func farInputsAreNot() {
        #expect(Suggestion.closest(to: "--zzzzzz", among: ["--policy", "--format"]) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["eval"]) == nil)
    }

    @Test func editDistanceCountsSwapsAsOne() {
        #expect(Suggestion.editDistance(Array("eval"), Array("evla")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
    }

    /// Random words over a small alphabet, so that many are within two edits of each other.
    static func words(_ count: Int, seed: UInt64, alphabet: [Character] = Array("abAB.-1")) -> [String] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in String((0..<(1 + generator.below(9))).map { _ in generator.pick(alphabet) }) }
    }

    @Test("the index answers as the walk of every candidate: the nearest within two edits, the earliest of ties")
    func nearIndexAgreesWithTheWalk() {
        let candidates = Self.words(600, seed: 7)
        let index = Suggestion.NearIndex(candidates.map { Array($0) })
        var answered = 0
        for typed in Self.words(Soak.size(1_500), seed: 8) + candidates.prefix(50) {
            var best: (index: Int, distance: Int)? = nil
            for (position, candidate) in candidates.enumerated() {
                let distance = Suggestion.editDistance(Array(typed), Array(candidate))
                if distance <= 2, distance < (best?.distance ?? 3) { best = (position, distance) }
            }
            let found = index.nearest(Array(typed))
            #expect(found?.index == best?.index && found?.distance == best?.distance, "\(typed)")
            if best != nil { answered += 1 }
        }
        #expect(answered > Soak.least(500), "too few near candidates: the test would test little")
    }

    @Test("prepared candidates suggest what closest(to:among:) suggests: near, abbreviation, singular for plural")
    func preparedCandidatesAgreeWithClosest() {
        let candidates = Self.words(400, seed: 9, alphabet: Array("abcAB.")) + ["containerPolicies", "deviceProfiles", "devices", "Devices"]
        let prepared = Suggestion.Candidates(candidates)
        let typed = Self.words(1_000, seed: 10, alphabet: Array("abcAB.")) + ["containerPolicy", "deviceProfile", "device", "dev", "conta", "xyz"]
        var suggested = 0
        for input in typed {
            let expected = Suggestion.closest(to: input, among: candidates)
            #expect(prepared.closest(to: input) == expected, "\(input)")
            if expected != nil { suggested += 1 }
        }
        #expect(suggested > 300)
        #expect(prepared.closest(to: "containerPolicy") == "containerPolicies")
    }
}
