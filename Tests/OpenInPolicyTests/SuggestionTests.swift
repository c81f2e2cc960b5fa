@testable import OpenInPolicy
import Testing

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
}
