import Foundation
import Testing

/// The app's own URL schemes from its Info.plist (`CFBundleURLTypes`), built or
/// from the source tree with `--build-setting`, pinned by running the built binary.
@Suite struct InfoPlistEndToEndTests {
    static let unauthorized = "Examples/policies/unauthorized.json"
    static let built = "Examples/TravelDocs.app/Info.plist"
    static let source = "Examples/TravelDocs/Info.plist"
    static let ownURL = ["--channel", "open-url", "--url", "accom.example.traveldocs://trip/42"]

    /// `eval` of one `openURL:` under UNAUTHORIZED with `plist` (an Info.plist made by Foundation) and `extra` flags.
    static func eval(_ plist: Any, _ extra: [String] = [], url: String = "acme://x") throws -> BinaryRun {
        let path = try TemporaryFile.plist(plist, binary: false, name: "Info.plist")
        return try BuiltBinary.run(["eval", "--policy", unauthorized, "--info-plist", path, "--channel", "open-url", "--url", url] + extra)
    }

    /// The error `eval` prints for `plist`, with the temporary file's path replaced by `Info.plist`.
    static func error(_ plist: Any, _ extra: [String] = []) throws -> (stderr: String, status: Int32, stdout: String) {
        let path = try TemporaryFile.plist(plist, binary: false, name: "Info.plist")
        let run = try BuiltBinary.run(["eval", "--policy", unauthorized, "--info-plist", path, "--channel", "open-url", "--url", "acme://x"] + extra)
        return (run.stderr.replacingOccurrences(of: path, with: "Info.plist"), run.status, run.stdout)
    }

    /// An Info.plist and the message `eval` gives for it (property lists are not `Sendable`, but these are never mutated).
    struct BadCase: @unchecked Sendable, CustomTestStringConvertible {
        let plist: [String: Any]
        let message: String
        init(_ plist: [String: Any], _ message: String) {
            self.plist = plist
            self.message = message
        }
        var testDescription: String { message }
    }

    static func urlTypes(_ types: Any) -> [String: Any] { ["CFBundleIdentifier": "com.example.app", "CFBundleURLTypes": types] }

    // MARK: Done when

    @Test func theBuiltBinaryInfoPlistMakesTheOwnSchemeAllowedWithoutAppScheme() throws {
        let bytes = try Data(contentsOf: BuiltBinary.packageRoot.appendingPathComponent(Self.built))
        #expect(bytes.starts(with: Array("bplist00".utf8)), "the built example is a binary property list")
        let run = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.built] + Self.ownURL + ["--explain"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasPrefix("allow: delivered\n"))
        #expect(run.stdout.contains("  rule        open-url.own-scheme\n"))
        #expect(run.stdout.contains("- 'accom.example.traveldocs' is declared by the Info.plist Examples/TravelDocs.app/Info.plist at CFBundleURLTypes[0].CFBundleURLSchemes[0]\n"))
        // The second URL type's scheme too; and without the Info.plist the same URL is denied.
        let second = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.built, "--channel", "open-url", "--url", "TravelDocs://open"])
        #expect(second.status == 0)
        #expect(second.stdout.contains("  rule        open-url.own-scheme\n"))
        let without = try BuiltBinary.run(["eval", "--policy", Self.unauthorized] + Self.ownURL)
        #expect(without.status == 2)
        #expect(without.stdout.contains("  rule        open-url.unknown-handler\n"))
    }

    @Test func theSourceTreeInfoPlistNeedsTheBuildSetting() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.source,
                                       "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.traveldocs"] + Self.ownURL + ["--explain"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.contains("  rule        open-url.own-scheme\n"))
        #expect(run.stdout.contains(#"- 'accom.example.traveldocs' is declared by the Info.plist Examples/TravelDocs/Info.plist at CFBundleURLTypes[0].CFBundleURLSchemes[0] (written "ac$(PRODUCT_BUNDLE_IDENTIFIER)")"#))

        let missing = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.source] + Self.ownURL)
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == #"Error: Examples/TravelDocs/Info.plist: CFBundleURLTypes[0].CFBundleURLSchemes[0]: the build setting reference $(PRODUCT_BUNDLE_IDENTIFIER) in "ac$(PRODUCT_BUNDLE_IDENTIFIER)" is not resolved: pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE"# + "\n")
    }

    @Test func aDifferentBundleIDGivesADifferentSchemeSoTheURLIsNotOwn() throws {
        let run = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.source,
                                       "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.other"] + Self.ownURL)
        #expect(run.status == 2)
        #expect(run.stdout.contains("  rule        open-url.unknown-handler\n"))
    }

    // MARK: Sources of schemes, and --explain

    @Test func infoPlistSchemesAddToTheFlagsAndExplainNamesEach() throws {
        let plist = Self.urlTypes([["CFBundleURLSchemes": ["acme"]]])
        let fromFlag = try Self.eval(plist, ["--app-scheme", "other", "--explain"], url: "other://x")
        #expect(fromFlag.status == 0)
        #expect(fromFlag.stdout.contains("- 'other' is declared by the flag --app-scheme other\n"))
        let both = try Self.eval(plist, ["--app-scheme", "ACME", "--explain"])
        #expect(both.status == 0)
        #expect(both.stdout.contains("- 'acme' is declared by the Info.plist "))
        #expect(both.stdout.contains(" at CFBundleURLTypes[0].CFBundleURLSchemes[0]\n           - 'acme' is declared by the flag --app-scheme ACME\n"))
    }

    @Test func thePolicyFilesInfoPlistDeclaresSchemesAndTheInfoPlistFlagReplacesThem() throws {
        let policy = try TemporaryFile.write(#"""
            {"openInPolicy": "unauthorized",
             "infoPlist": {"CFBundleURLTypes": [{"CFBundleURLSchemes": ["ac$(PRODUCT_BUNDLE_IDENTIFIER)"]}]},
             "app": {"urlSchemes": ["kept"]}}
            """#, name: "policy.json")
        let url = ["--channel", "open-url", "--url", "accom.example.a://x", "--explain"]
        let read = try BuiltBinary.run(["eval", "--policy", policy, "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.a"] + url)
        #expect(read.status == 0)
        #expect(read.stdout.contains(#"- 'accom.example.a' is declared by the policy file's infoPlist at CFBundleURLTypes[0].CFBundleURLSchemes[0] (written "ac$(PRODUCT_BUNDLE_IDENTIFIER)")"#))
        let unresolved = try BuiltBinary.run(["eval", "--policy", policy] + url)
        #expect(unresolved.status == 1)
        #expect(unresolved.stderr == "Error: \(policy):2:61: infoPlist.CFBundleURLTypes[0].CFBundleURLSchemes[0]: the build setting reference $(PRODUCT_BUNDLE_IDENTIFIER) in \"ac$(PRODUCT_BUNDLE_IDENTIFIER)\" is not resolved: pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE\n")
        // --info-plist replaces the file's infoPlist, schemes included; app.urlSchemes stay.
        let replaced = try BuiltBinary.run(["eval", "--policy", policy, "--info-plist", Self.built, "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.a"] + url)
        #expect(replaced.status == 2)
        #expect(replaced.stdout.contains("  rule        open-url.unknown-handler\n"))
        let kept = try BuiltBinary.run(["eval", "--policy", policy, "--info-plist", Self.built, "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.a",
                                        "--channel", "open-url", "--url", "kept://x"])
        #expect(kept.status == 0)
    }

    @Test func modifiersAndBothReferenceForms() throws {
        let plist = Self.urlTypes([["CFBundleURLSchemes": ["$(PRODUCT_NAME:rfc1034identifier:lower)", "${PRODUCT_NAME:rfc1034identifier:upper}x"]]])
        let name = ["--build-setting", "PRODUCT_NAME=Travel Docs_2"]
        #expect(try Self.eval(plist, name, url: "travel-docs-2://x").status == 0)
        #expect(try Self.eval(plist, name, url: "travel-docs-2x://x").status == 0)
        #expect(try Self.eval(plist, name, url: "travel://x").status == 2)
    }

    // MARK: Bad input: each error, exactly

    @Test(arguments: [
        BadCase(urlTypes(["CFBundleURLSchemes": ["acme"]]),
         "CFBundleURLTypes: must be an <array> of URL types (each a <dict> with CFBundleURLSchemes), not a <dict>"),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme"]], "other"]),
         #"CFBundleURLTypes[1]: must be a <dict> (a URL type with CFBundleURLSchemes), not a <string> ("other")"#),
        BadCase(urlTypes([["CFBundleURLName": "com.example.app"]]),
         "CFBundleURLTypes[0]: has no CFBundleURLSchemes: add the array of this URL type's schemes, or remove the entry"),
        BadCase(urlTypes([["CFBundleURLSchemes": "acme"]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes: must be an <array> of <string> schemes, not a <string> ("acme")"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme", 7]]]),
         "CFBundleURLTypes[0].CFBundleURLSchemes[1]: must be a <string> (a URL scheme), not an <integer> (7)"),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme", true]]]),
         "CFBundleURLTypes[0].CFBundleURLSchemes[1]: must be a <string> (a URL scheme), not <true/>"),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acm\u{E9}"]]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme "acmé" holds the non-ASCII character 'é' (U+00E9): a URL scheme is ASCII letters, digits, '+', '-' and '.'"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme\u{212A}"]]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme "acmeK" holds the non-ASCII character 'K' (U+212A): a URL scheme is ASCII letters, digits, '+', '-' and '.'"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme\u{202E}"]]]),
         "CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme holds the non-ASCII character U+202E, which does not print: a URL scheme is ASCII letters, digits, '+', '-' and '.'"),
        BadCase(urlTypes([["CFBundleURLSchemes": ["my_app"]]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme "my_app" is not a URL scheme: a scheme is a letter followed by letters, digits, '+', '-' or '.'"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["acme:"]]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme "acme:" ends with ':': write the scheme alone, without the colon"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["$(PRODUCT_NAME:c99extidentifier)"]]]),
         "CFBundleURLTypes[0].CFBundleURLSchemes[0]: the build setting reference $(PRODUCT_NAME:c99extidentifier) uses the modifier ':c99extidentifier', which openin-check does not apply (it applies :lower, :upper and :rfc1034identifier)"),
        BadCase(urlTypes([["CFBundleURLSchemes": ["ac$(PRODUCT_NAME"]]]),
         #"CFBundleURLTypes[0].CFBundleURLSchemes[0]: $(PRODUCT_NAME in "ac$(PRODUCT_NAME" is not a build setting reference openin-check can read: write $(NAME) or ${NAME}, NAME being letters, digits and '_', optionally followed by :lower, :upper or :rfc1034identifier"#),
        BadCase(urlTypes([["CFBundleURLSchemes": ["${EXECUTABLE_NAME}"]]]),
         "CFBundleURLTypes[0].CFBundleURLSchemes[0]: the build setting reference ${EXECUTABLE_NAME} is not resolved: pass the built app's Info.plist (the one inside the .app, where Xcode has resolved it), or give the value with --build-setting EXECUTABLE_NAME=VALUE"),
    ])
    func badInfoPlistIsAClearErrorWithTheKeyPath(bad: BadCase) throws {
        let run = try Self.error(bad.plist, ["--build-setting", "PRODUCT_NAME=Travel"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: Info.plist: \(bad.message)\n")
    }

    @Test func aSchemeThatIsInvalidOnlyOnceResolvedIsAnError() throws {
        let run = try Self.error(Self.urlTypes([["CFBundleURLSchemes": ["ac$(PRODUCT_BUNDLE_IDENTIFIER)"]]]),
                                 ["--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.my_app"])
        #expect(run.status == 1)
        #expect(run.stderr == #"Error: Info.plist: CFBundleURLTypes[0].CFBundleURLSchemes[0]: the scheme "accom.example.my_app" (written "ac$(PRODUCT_BUNDLE_IDENTIFIER)") is not a URL scheme: a scheme is a letter followed by letters, digits, '+', '-' or '.'"# + "\n")
    }

    @Test func aBuildSettingThatIsNotANameIsAnError() throws {
        let bad = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", Self.source, "--build-setting", "PRODUCT NAME=x"] + Self.ownURL)
        #expect(bad.status == 1)
        #expect(bad.stderr == "Error: --build-setting PRODUCT NAME=x: 'PRODUCT NAME' is not a build setting name: use letters, digits and '_'\n")
        let noEquals = try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--build-setting", "PRODUCT_NAME"] + Self.ownURL)
        #expect(noEquals.status == 64)
        #expect(noEquals.stderr.hasPrefix("Error: 'PRODUCT_NAME' is not of the form NAME=VALUE (for --build-setting)\n"))
    }

    /// Keys are the SDK's bytes: a key that only looks like `MI_AC_DISABLE_SCHEME_BLOCKING`
    /// (KELVIN SIGN for K, canonically equivalent) is not the override.
    @Test func aUnicodeEquivalentKeyIsNotTheOverride() throws {
        let plist: [String: Any] = ["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING": true]]
        let run = try Self.eval(plist, url: "mailto:someone@example.com")
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix("deny: nothing is delivered\n"))
        let real = try Self.eval(["MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": true]], url: "mailto:someone@example.com")
        #expect(real.status == 0)
    }

    // MARK: lint

    @Test func lintReportsEveryURLSchemeProblemAtOnce() throws {
        let plist: [String: Any] = [
            "CFBundleURLTypes": [["CFBundleURLSchemes": ["acme", "ac$(PRODUCT_BUNDLE_IDENTIFIER)", "my_app"]],
                                 ["CFBundleURLSchemes": ["ACME"]]],
            "MI_APP_CONNECT": ["MI_AC_DISABLE_SCHEME_BLOCKING": "NO"],
        ]
        let path = try TemporaryFile.plist(plist, binary: true, name: "Info.plist")
        let run = try BuiltBinary.run(["lint", path])
        #expect(run.status == 2)
        let text = run.stdout.replacingOccurrences(of: path, with: "Info.plist")
        #expect(text == """
            Info.plist: error OI006 override-value-ignored: MI_APP_CONNECT.MI_AC_DISABLE_SCHEME_BLOCKING: MI_AC_DISABLE_SCHEME_BLOCKING is "NO", not a Boolean: the Info.plist key takes the boolean YES, and openin-check rejects the file until it is one
                fix: make it the boolean YES (<true/> in XML; true, unquoted, in a policy file's infoPlist), or remove the key
            Info.plist: error OI012 invalid-url-scheme: CFBundleURLTypes[0].CFBundleURLSchemes[2]: the scheme "my_app" is not a URL scheme: a scheme is a letter followed by letters, digits, '+', '-' or '.'
                fix: write the scheme as ASCII letters, digits, '+', '-' and '.', starting with a letter (e.g. my-app)
            Info.plist: warning OI013 duplicate-url-scheme: CFBundleURLTypes[1].CFBundleURLSchemes[0]: the scheme "ACME" is already declared at CFBundleURLTypes[0].CFBundleURLSchemes[0] (schemes ignore letter case)
                fix: remove this one, or write the other scheme it was meant to be
            Info.plist: error OI014 unresolved-build-setting: CFBundleURLTypes[0].CFBundleURLSchemes[1]: the build setting reference $(PRODUCT_BUNDLE_IDENTIFIER) in "ac$(PRODUCT_BUNDLE_IDENTIFIER)" is not resolved: openin-check cannot read this scheme, and eval rejects the file until it can
                fix: lint the built app's Info.plist (inside the .app, where Xcode has resolved it), or give the value with --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE

            lint: 3 errors, 1 warning, 0 info in 1 file

            """)
        // eval rejects the same file (its first problem), so lint and eval agree.
        #expect(try BuiltBinary.run(["eval", "--policy", Self.unauthorized, "--info-plist", path, "--channel", "copy"]).status == 1)
    }

    @Test func lintReadsAPolicyFilesInfoPlistSchemesWithLinesAndBuildSettings() throws {
        let policy = try TemporaryFile.write("""
            {"openInPolicy": "unauthorized",
             "infoPlist": {"CFBundleURLTypes": [{"CFBundleURLSchemes": ["ac$(PRODUCT_BUNDLE_IDENTIFIER)", "x_y"]}, {"CFBundleURLSchemes": ["AC$(PRODUCT_BUNDLE_IDENTIFIER)"]}]}}
            """, name: "policy.json")
        let run = try BuiltBinary.run(["lint", "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.a", policy])
        #expect(run.status == 2)
        #expect(run.stdout.replacingOccurrences(of: policy, with: "policy.json") == """
            policy.json:2:95: error OI012 invalid-url-scheme: infoPlist.CFBundleURLTypes[0].CFBundleURLSchemes[1]: the scheme "x_y" is not a URL scheme: a scheme is a letter followed by letters, digits, '+', '-' or '.'
                fix: write the scheme as ASCII letters, digits, '+', '-' and '.', starting with a letter (e.g. x-y)
            policy.json:2:128: warning OI013 duplicate-url-scheme: infoPlist.CFBundleURLTypes[1].CFBundleURLSchemes[0]: the scheme "ACcom.a" is already declared at infoPlist.CFBundleURLTypes[0].CFBundleURLSchemes[0] (schemes ignore letter case)
                fix: remove this one, or write the other scheme it was meant to be

            lint: 1 error, 1 warning, 0 info in 1 file

            """)
        let unresolved = try BuiltBinary.run(["lint", policy])
        #expect(unresolved.stdout.replacingOccurrences(of: policy, with: "policy.json").hasPrefix(
            "policy.json:2:61: error OI014 unresolved-build-setting: infoPlist.CFBundleURLTypes[0].CFBundleURLSchemes[0]: "))
        #expect(unresolved.stdout.hasSuffix("lint: 3 errors, 0 warnings, 0 info in 1 file\n"))
    }

    @Test func lintOfTheExamplesAgreesWithEval() throws {
        #expect(try BuiltBinary.run(["lint", Self.built]).stdout == "lint: no findings in 1 file\n")
        let source = try BuiltBinary.run(["lint", Self.source])
        #expect(source.status == 2)
        #expect(source.stdout.contains("error OI014 unresolved-build-setting: CFBundleURLTypes[0].CFBundleURLSchemes[0]: "))
        let resolved = try BuiltBinary.run(["lint", "--build-setting", "PRODUCT_BUNDLE_IDENTIFIER=com.example.traveldocs", Self.source])
        #expect(resolved.status == 0)
        #expect(resolved.stdout == "lint: no findings in 1 file\n")
    }
}
