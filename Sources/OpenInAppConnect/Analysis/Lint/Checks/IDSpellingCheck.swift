import OpenInCore
import OpenInFleet
import OpenInKit

/// OI002 `case-duplicate`, OI003 `well-known-id-case` and OI011 `duplicate-id`:
/// whitelist entries that repeat another, exactly or up to letter case.
///
/// Bundle IDs are compared exactly and case-sensitively (the admin portal
/// treats IDs as case sensitive: Rules/mail-pair.md, "Our choices"), so `com.apple.MobileMail`
/// matches no app, and of `com.example.Notes` and `com.example.notes` at most
/// one is real.
enum IDSpellingCheck: DocumentCheck {
    /// The IDs an administrator types most, with what they are.
    static let wellKnown: [(id: BundleID, what: String)] = [
        (.mailActivity, "the Mail share activity"),
        (.mobileMail, "native Mail"),
        (.emailPlus, "Email+"),
    ]

    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let whitelist = document.whitelist else { return [] }
        var known = wellKnown.map { (id: $0.id.rawValue, what: $0.what) }
        for id in document.emailPlusBundleIDs where !known.contains(where: { $0.id == id }) {
            known.append((id, "Email+"))
        }
        var findings: [LintFinding] = []
        var seen: [String: Written<String>] = [:]
        var seenFolded: [String: Written<String>] = [:]
        for entry in whitelist.entries {
            let folded = entry.value.lowercased()
            defer {
                if seen[entry.value] == nil { seen[entry.value] = entry }
                if seenFolded[folded] == nil { seenFolded[folded] = entry }
            }
            if let earlier = seen[entry.value] {
                findings.append(LintFinding(
                    .duplicateID, at: entry.location,
                    "\(entry.value) is listed twice, first at \(earlier.location.keyPath)",
                    fix: "remove this entry"))
                continue
            }
            if let match = known.first(where: { $0.id != entry.value && $0.id.lowercased() == folded }) {
                findings.append(LintFinding(
                    .wellKnownIDCase, at: entry.location,
                    "\(JSONWriter.quoted(entry.value)) differs only in letter case from \(match.id) (\(match.what)): bundle IDs are case sensitive, so this entry matches no app",
                    fix: "write \(match.id)"))
                continue
            }
            if let earlier = seenFolded[folded], !known.contains(where: { $0.id.lowercased() == folded }) {
                findings.append(LintFinding(
                    .caseDuplicate, at: entry.location,
                    "\(JSONWriter.quoted(entry.value)) differs only in letter case from \(JSONWriter.quoted(earlier.value)) at \(earlier.location.keyPath): bundle IDs are case sensitive, so at most one of them names the real app",
                    fix: "keep the spelling of the app's actual bundle ID and remove the other"))
            }
        }
        return findings
    }
}
