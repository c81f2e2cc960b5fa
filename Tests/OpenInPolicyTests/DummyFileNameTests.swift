import Testing
@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
@testable import OpenInVendors
import OpenInPolicy

@Suite("Dummy file names")
struct DummyFileNameTests {
    static let target = BundleID.emailPlus

    @Test func deterministic() throws {
        let a = DummyFileName.make(target: Self.target, document: "Board minutes.docx")
        #expect(a == DummyFileName.make(target: Self.target, document: "Board minutes.docx"))
        #expect(a != DummyFileName.make(target: Self.target, document: "Board minutes.pdf"))
        #expect(a != DummyFileName.make(target: try BundleID("com.example.other"), document: "Board minutes.docx"))
    }

    @Test(arguments: ["Q3 layoffs - CONFIDENTIAL.xlsx", "patient-records.pdf", "a.docx", "salaries", ".env", "x.acblocked.txt"])
    func revealsNeitherNameNorExtension(_ document: String) {
        let name = DummyFileName.make(target: Self.target, document: document)
        #expect(name.hasSuffix(".\(DummyFileName.fileExtension)"))
        let stem = name.dropLast(DummyFileName.fileExtension.count + 1)
        #expect(stem.hasPrefix("AppConnect-Blocked-"))
        let hex = stem.dropFirst("AppConnect-Blocked-".count)
        #expect(hex.count == 16 && hex.allSatisfy(\.isHexDigit))
        // Everything but 16 hex digits is fixed, so neither the name nor its extension can show through.
        #expect(!name.contains(document))
        if let dot = document.lastIndex(of: "."), document[dot...] != ".\(DummyFileName.fileExtension)" {
            #expect(!name.hasSuffix(String(document[dot...])))
        }
    }

    @Test func substitutedDecisionsCarryTheName() throws {
        let policy = Policy(status: .unauthorized)
        let decision = try Evaluator(policy: policy).decideOrThrow(channel: "document-interaction", target: "com.example.viewer", document: "secret.pdf")
        #expect(decision.outcome == .substituteDummyFile)
        #expect(decision.dummyFileName == DummyFileName.make(target: try BundleID("com.example.viewer"), document: "secret.pdf"))
        let allowed = try Evaluator(policy: Policy(status: .authorized)).decideOrThrow(channel: "quick-look", target: "com.example.viewer", document: "secret.pdf")
        #expect(allowed.dummyFileName == nil)
    }
}
