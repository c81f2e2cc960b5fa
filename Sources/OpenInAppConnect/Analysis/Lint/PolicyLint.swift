import OpenInCore
import OpenInFleet
import OpenInKit

/// Finds an administrator's mistakes in policy files, `AppConnect.plist`s and
/// Info.plists before they reach a device.
///
/// Each finding names its check (a stable code such as `OI001`), a severity,
/// where it is, what is wrong and how to fix it. See ``LintCheck/all`` for the
/// checks.
///
/// ```swift
/// let document = PolicyDocument(policyJSON: bytes, file: "policy.json")
/// for finding in PolicyLint.lint([document]) { print(finding.check, finding.message) }
/// ```
public enum PolicyLint {
    /// Lints documents that describe one app together.
    ///
    /// Each document is checked alone; then an Info.plist among them applies
    /// to every policy file and `AppConnect.plist` beside it (for
    /// ``LintCheck/overrideInBoth``). The strict reader's error for a document
    /// is reported as ``LintCheck/invalidInput`` unless another error already
    /// names the same line (or, in a plist, which has no lines, the key path
    /// the reader's message starts with).
    /// - Returns: the findings, by document in the order given, then by line and column, then by code.
    public static func lint(_ documents: [PolicyDocument]) -> [LintFinding] {
        var all: [(document: Int, order: Int, finding: LintFinding)] = []
        for (index, document) in documents.enumerated() {
            var findings: [LintFinding] = []
            for check in checks { findings += check.findings(in: document, among: documents) }
            for error in document.readErrors {
                let covered = findings.contains { $0.severity == .error && $0.location.covers(error) }
                if !covered {
                    findings.append(LintFinding(.invalidInput, at: error.location, error.value,
                                                fix: "correct it as the message says: until then no decision can be made with this file"))
                }
            }
            all += findings.enumerated().map { (index, $0.offset, $0.element) }
        }
        all.sort { a, b in
            let left = (a.document, a.finding.location.line ?? 0, a.finding.location.column ?? 0, a.finding.check.code, a.order)
            let right = (b.document, b.finding.location.line ?? 0, b.finding.location.column ?? 0, b.finding.check.code, b.order)
            return left < right
        }
        return all.map(\.finding)
    }

    /// Every check, in code order.
    package static let checks: [any DocumentCheck.Type] = [
        MailPairCheck.self, IDSpellingCheck.self, WhitelistIgnoredCheck.self, MalformedBundleIDCheck.self,
        OverrideChecks.self, OverrideInBothCheck.self, URLSchemeChecks.self, MailAppCheck.self, DataControlChecks.self, CustomKeyboardsCheck.self, WebAndActivityChecks.self,
        WhitelistEmptyCheck.self,
    ]
}

/// One or more lint checks over a document.
package protocol DocumentCheck: Sendable {
    /// The findings in `document`; `documents` are all the documents linted together, `document` included.
    static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding]
}
