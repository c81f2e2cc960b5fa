import OpenInCore
import OpenInFleet
import OpenInKit

/// OI005 `malformed-bundle-id`: whitelist entries that are not bundle IDs.
///
/// Administrators type whitelists by hand, one per line or separated by
/// semicolons; pasted into one entry, a whole list is one string that
/// matches no app. A bundle ID is letters, digits, `-` and `_` in segments
/// separated by single dots (``BundleID``).
enum MalformedBundleIDCheck: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        guard let whitelist = document.whitelist else { return [] }
        return whitelist.entries.compactMap { entry in
            guard let problem = BundleID.problem(in: entry.value) else { return nil }
            return finding(entry, problem: problem, kind: document.kind)
        }
    }

    private static func finding(_ entry: Written<String>, problem: String, kind: PolicyDocument.Kind) -> LintFinding {
        let text = entry.value, quoted = JSONWriter.quoted(entry.value)
        // Split at the ASCII separators only, scalar by scalar: a look-alike such as U+037E GREEK QUESTION MARK
        // is no separator to the library, so its entry is reported as not a bundle ID, naming the character.
        let parts = text.unicodeScalars.split { $0 == ";" || $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            .map { String(String.UnicodeScalarView($0)) }
        // Several IDs joined in one entry: every part must look like one (reverse DNS, with a dot), or
        // "com.acme notes" would be read as the two apps "com.acme" and "notes".
        if parts.count > 1, parts.allSatisfy({ BundleID.problem(in: $0) == nil && $0.contains(".") }) {
            let separators = Set(text.unicodeScalars.filter { $0 == ";" || $0 == "," || $0 == "\n" || $0 == "\r" })
            let joiner = separators.contains(";") ? "';'" : separators.contains(",") ? "','" : separators.isEmpty ? "spaces" : "line breaks"
            let fix = kind == .appConnectPlist
                ? "separate the IDs with ';' only: \(parts.joined(separator: ";"))"
                : "write one ID per entry: \(parts.map(JSONWriter.quoted).joined(separator: ", "))"
            return LintFinding(.malformedBundleID, at: entry.location,
                               "\(quoted) holds \(parts.count) bundle IDs joined by \(joiner) in one entry, so it matches no app", fix: fix)
        }
        if parts.count == 1, BundleID.problem(in: parts[0]) == nil {
            return LintFinding(.malformedBundleID, at: entry.location,
                               "\(quoted) has a space or separator at its start or end, so it matches no app",
                               fix: "write \(JSONWriter.quoted(parts[0]))")
        }
        // A word or two separated by spaces, not IDs: propose the parts joined by dots only when that is an ID.
        if parts.count > 1, text.contains("."), !text.contains(";"), !text.contains(","), BundleID.problem(in: parts.joined(separator: ".")) == nil {
            let joined = parts.joined(separator: ".")
            return LintFinding(.malformedBundleID, at: entry.location, "\(quoted) is not a bundle ID: \(problem)",
                               fix: "write the app's bundle ID as the app declares it (CFBundleIdentifier), e.g. \(JSONWriter.quoted(joined)) if the space stands for a dot")
        }
        if text.isEmpty {
            return LintFinding(.malformedBundleID, at: entry.location, "the entry is empty", fix: "remove the empty entry")
        }
        return LintFinding(.malformedBundleID, at: entry.location, "\(quoted) is not a bundle ID: \(problem)",
                           fix: "write the app's bundle ID: letters, digits, '-' and '_' in segments separated by single dots, e.g. com.example.app")
    }
}
