import OpenInCore
import OpenInFleet
import OpenInKit

/// OI012 `invalid-url-scheme`, OI013 `duplicate-url-scheme` and OI014
/// `unresolved-build-setting`: the app's own URL schemes in an Info.plist
/// (`CFBundleURLTypes`, each entry's `CFBundleURLSchemes`).
///
/// openin-check reads these schemes as the app's own (rule 9: opening one is
/// not Open In), and `eval` rejects the file for the first two kinds of error
/// below, so lint reports them all at once:
///
/// - OI012: a scheme that is not a URL scheme once its references are
///   resolved (non-ASCII, a `_` or space, a trailing `:`, a digit first).
/// - OI014: a `$(NAME)` or `${NAME}` reference with no value (lint's
///   `--build-setting` gives values, as `eval`'s does), an unsupported
///   modifier, or a reference that is not closed.
/// - OI013: the same scheme twice (schemes ignore letter case): harmless to
///   the decision, but usually a copy meant to be another scheme.
enum URLSchemeChecks: DocumentCheck {
    package static func findings(in document: PolicyDocument, among documents: [PolicyDocument]) -> [LintFinding] {
        var findings: [LintFinding] = []
        var seen: [String: Written<String>] = [:]
        for scheme in document.urlSchemes {
            let written = scheme.written
            if let problem = scheme.problem {
                findings.append(unresolved(problem, written))
                continue
            }
            guard let resolved = scheme.resolved else { continue }
            if let problem = InfoPlist.problem(in: resolved, written: written.value) {
                findings.append(LintFinding(.invalidURLScheme, at: written.location, problem,
                                            fix: "write the scheme as ASCII letters, digits, '+', '-' and '.', starting with a letter (e.g. \(suggestion(for: resolved)))"))
                continue
            }
            let key = resolved.lowercased()
            if let earlier = seen[key] {
                findings.append(LintFinding(.duplicateURLScheme, at: written.location,
                                            "the scheme \(JSONWriter.quoted(resolved)) is already declared at \(earlier.location.keyPath) (schemes ignore letter case)",
                                            fix: "remove this one, or write the other scheme it was meant to be"))
            } else {
                seen[key] = written
            }
        }
        return findings
    }

    private static func unresolved(_ problem: BuildSettings.Problem, _ written: Written<String>) -> LintFinding {
        let fix: String
        if case .unresolved(_, let name) = problem {
            fix = "lint the built app's Info.plist (inside the .app, where Xcode has resolved it), or give the value with --build-setting \(name)=VALUE"
        } else {
            fix = "write $(NAME) or ${NAME}, with at most the modifiers :lower, :upper and :rfc1034identifier"
        }
        return LintFinding(.unresolvedBuildSetting, at: written.location,
                           "\(problem.description(in: written.value)): openin-check cannot read this scheme, and eval rejects the file until it can",
                           fix: fix)
    }

    /// A scheme close to `text` that is valid: letters and digits kept, everything else a `-`.
    private static func suggestion(for text: String) -> String {
        var scheme = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") ? $0 : "-" })
        while scheme.hasSuffix("-") { scheme.removeLast() }
        if !(scheme.first?.isLetter ?? false) { scheme = "app" + scheme }
        return scheme.lowercased()
    }
}
