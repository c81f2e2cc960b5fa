@testable import OpenInCheckCLI
import OpenInPolicy
import Testing

/// Flags that name a key set it by its bytes, as the files do: `--config` once merged into a
/// Swift `[String: String]`, where a look-alike key (KELVIN SIGN for `K`) overwrote the
/// file's exact key and turned a `deny` into an `allow`.
@Suite struct FlagKeyBytesTests {
    /// A policy under UNAUTHORIZED whose configuration sets the override to exactly "false".
    static func policy() throws -> String {
        try TemporaryFile.write(#"{"openInPolicy": "ACOPENINPOLICY_UNAUTHORIZED", "config": {"MI_AC_DISABLE_SCHEME_BLOCKING": "false", "e\u0301": "1"}}"#, name: "config-false.json")
    }

    static func eval(_ flags: [String]) throws -> (status: OpenInCheckCLI.ExitStatus, stdout: String, stderr: String) {
        let console = Console.memory()
        let status = CLI.run(arguments: ["eval", "--policy", try policy(), "--channel", "open-url", "--url", "mailto:a@b.c"] + flags, console: console)
        return (status, console.stdout.text, console.stderr.text)
    }

    @Test func theExactKeyOverridesTheFile() throws {
        let run = try Self.eval(["--config", "MI_AC_DISABLE_SCHEME_BLOCKING=true"])
        #expect(run.status == .success)
        #expect(run.stdout.hasPrefix("allow: delivered to com.apple.mobilemail"))
    }

    @Test(arguments: [
        ("MI_AC_DISABLE_SCHEME_BLOC\u{212A}ING", "(it holds 'K' (U+212A KELVIN SIGN), not an ASCII character): keys are matched byte for byte, so the SDK would never read it"),
        ("MI_AC_DISABLE_SCHEME_BLOCKNG", "is not MI_AC_DISABLE_SCHEME_BLOCKING: keys are matched byte for byte"),
        ("mi_ac_disable_scheme_blocking", "is not MI_AC_DISABLE_SCHEME_BLOCKING: keys are matched byte for byte"),
        ("MI_AC_DISABLE_OPEN_IN_ENFORCEMEN\u{0422}", "is not MI_AC_DISABLE_OPEN_IN_ENFORCEMENT"),
        ("\u{E9}", "the key \"\u{E9}\" and the key \"e\u{301}\" already set are different bytes that look the same"),
    ])
    func aLookAlikeKeyIsAnErrorNotAnOverride(_ key: String, _ message: String) throws {
        let run = try Self.eval(["--config", "\(key)=true"])
        #expect(run.status == .invalidInput)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: --config \(key)=true: "), "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func twoFlagsWithLookAlikeKeysAreAnError() throws {
        let run = try Self.eval(["--config", "caf\u{E9}=1", "--config", "cafe\u{301}=2"])
        #expect(run.status == .invalidInput)
        #expect(run.stderr.contains("the key \"cafe\u{301}\" and the key \"caf\u{E9}\" already set are different bytes that look the same"), "\(run.stderr)")
    }

    /// The other flags that name a key take ASCII names only, where bytes and canonical equivalence agree.
    @Test func buildSettingNamesAndSchemesAreASCII() throws {
        let setting = try Self.eval(["--build-setting", "NAME\u{212A}=x"])
        #expect(setting.status == .invalidInput)
        #expect(setting.stderr.contains("is not a build setting name: use letters, digits and '_'"), "\(setting.stderr)")
        let scheme = try Self.eval(["--scheme-handler", "mail\u{212A}=com.example.app"])
        #expect(scheme.status == .invalidInput)
        #expect(scheme.stderr.hasPrefix("Error: --scheme-handler mail\u{212A}=com.example.app: "), "\(scheme.stderr)")
    }
}
