import OpenInCore
import OpenInFleet
import OpenInKit

/// A lint check: a stable code and name, a severity, and what it looks for.
///
/// Codes never change meaning and are never reused; scripts may filter on
/// them. ``all`` lists every check in code order.
public struct LintCheck: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The stable code, e.g. `OI001`.
    public let code: String
    /// The stable name, e.g. `mail-pair-half`.
    public let name: String
    /// How serious a finding of this check is.
    public let severity: LintSeverity
    /// One line: what the check looks for.
    public let summary: String

    package init(_ code: String, _ name: String, _ severity: LintSeverity, _ summary: String) {
        self.code = code
        self.name = name
        self.severity = severity
        self.summary = summary
    }

    /// `OI001 mail-pair-half`.
    public var description: String { "\(code) \(name)" }

    public static func < (lhs: LintCheck, rhs: LintCheck) -> Bool { lhs.code < rhs.code }

    /// The file cannot be read as a policy file, AppConnect.plist or Info.plist: the reader's own error.
    public static let invalidInput = LintCheck(
        "OI000", "invalid-input", .error,
        "The file cannot be read: its syntax, a key or a value is not what the format accepts, so no decision can use it.")
    /// One ID of the native Mail pair without the other.
    public static let mailPairHalf = LintCheck(
        "OI001", "mail-pair-half", .error,
        "The whitelist holds one of com.apple.UIKit.activity.Mail and com.apple.mobilemail but not the other: native Mail needs both, so it stays blocked.")
    /// Two whitelist entries that differ only in letter case.
    public static let caseDuplicate = LintCheck(
        "OI002", "case-duplicate", .warning,
        "Two whitelist entries differ only in letter case: IDs are case sensitive, so at most one of them is the real app.")
    /// A whitelist entry that differs only in letter case from a well-known ID.
    public static let wellKnownIDCase = LintCheck(
        "OI003", "well-known-id-case", .error,
        "A whitelist entry differs only in letter case from a well-known ID (the Mail pair, Email+): it matches no app.")
    /// A whitelist that the policy ignores.
    public static let whitelistIgnored = LintCheck(
        "OI004", "whitelist-ignored", .warning,
        "A whitelist is given while the Open In policy is not WHITELIST, so it is ignored.")
    /// A whitelist entry that is not a bundle ID.
    public static let malformedBundleID = LintCheck(
        "OI005", "malformed-bundle-id", .error,
        "A whitelist entry is not a bundle ID: a space, an empty segment, a forbidden character, or several IDs joined in one entry.")
    /// An override whose value is read as off.
    public static let overrideValueIgnored = LintCheck(
        "OI006", "override-value-ignored", .error,
        "An override key has a value that is neither on nor plainly off (True, YES, 1, a string where a Boolean is expected), so the override is not on.")
    /// An override key that is spelled differently from the key the library reads.
    public static let overrideKeyMisspelled = LintCheck(
        "OI007", "override-key-misspelled", .error,
        "A key is spelled close to MI_APP_CONNECT, MI_AC_DISABLE_SCHEME_BLOCKING or MI_AC_DISABLE_OPEN_IN_ENFORCEMENT (letter case, separators, up to two typos) but not exactly, so the library never reads it.")
    /// Open In enforcement turned off by the server.
    public static let enforcementDisabled = LintCheck(
        "OI008", "enforcement-disabled", .error,
        "MI_AC_DISABLE_OPEN_IN_ENFORCEMENT is on: the library stops enforcing Open In, and documents can go to every app.")
    /// The scheme-blocking override set in both the Info.plist and the config.
    public static let overrideInBoth = LintCheck(
        "OI009", "override-in-both", .warning,
        "MI_AC_DISABLE_SCHEME_BLOCKING is on in both the Info.plist and the server config: removing one alone does not restore scheme blocking.")
    /// Email+ whitelisted while native Mail is not.
    public static let emailPlusWithoutMail = LintCheck(
        "OI010", "email-plus-without-mail", .info,
        "Email+ is in the whitelist while native Mail is not: mail links and the compose sheet stay blocked.")
    /// The same ID twice.
    public static let duplicateID = LintCheck(
        "OI011", "duplicate-id", .info,
        "The same bundle ID is in the whitelist twice.")

    /// An Info.plist URL scheme that is not a URL scheme.
    public static let invalidURLScheme = LintCheck(
        "OI012", "invalid-url-scheme", .error,
        "An Info.plist URL scheme (CFBundleURLTypes) is not a URL scheme: non-ASCII, a character other than letters, digits, '+', '-' and '.', or a trailing ':'.")
    /// The same Info.plist URL scheme twice.
    public static let duplicateURLScheme = LintCheck(
        "OI013", "duplicate-url-scheme", .warning,
        "The Info.plist declares the same URL scheme twice (schemes ignore letter case): usually a copy meant to be another scheme.")
    /// A build-setting reference openin-check cannot resolve.
    public static let unresolvedBuildSetting = LintCheck(
        "OI014", "unresolved-build-setting", .error,
        "An Info.plist URL scheme holds a build-setting reference ($(NAME)) with no value, or one openin-check cannot read: lint the built Info.plist or give --build-setting.")
    /// The device's mail app (its `mailto` handler) is not in the whitelist.
    public static let mailAppUnlisted = LintCheck(
        "OI015", "mail-app-unlisted", .warning,
        "The device's mail app (its mailto handler) is an app other than native Mail that the whitelist does not list: mailto: from openURL: and from links is blocked.")
    /// An Open From whitelist that the Open From policy never reads.
    public static let openFromWhitelistIgnored = LintCheck(
        "OI016", "open-from-whitelist-ignored", .warning,
        "An Open From whitelist is given while the Open From policy is not WHITELIST (or is not set), so it is ignored.")
    /// An Open From policy of WHITELIST with no app in its whitelist.
    public static let openFromWhitelistEmpty = LintCheck(
        "OI017", "open-from-whitelist-empty", .warning,
        "The Open From policy is WHITELIST but its whitelist is missing or empty: no app can send documents to this app.")
    /// SECURECOPY without saying whether the device's secure services are available.
    public static let secureServicesNotGiven = LintCheck(
        "OI018", "secure-services-not-given", .warning,
        "The pasteboard policy is SECURECOPY but device.secureServicesAvailable is not given: copy requests cannot be decided.")

    /// `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` set to something other than the string `true` or `false`.
    public static let customKeyboardsValue = LintCheck(
        "OI019", "custom-keyboards-value", .error,
        "MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS is not the string \"true\" or \"false\": custom keyboards are refused (or, for a value that is not a string, the file is rejected).")
    /// A key that looks like `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS` but is not its bytes.
    public static let customKeyboardsKeyMisspelled = LintCheck(
        "OI020", "custom-keyboards-key-misspelled", .error,
        "A config key looks like MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS but is not its bytes: the library never reads it, so the app decides about custom keyboards.")

    /// An excluded activity type that differs only in letter case from one of Apple's.
    public static let excludedActivityCase = LintCheck(
        "OI021", "excluded-activity-case", .error,
        "An excludedAppleActivityTypes entry differs only in letter case from one of Apple's activity types: types are compared byte for byte, so it excludes nothing.")
    /// The Web DLP setting 'not allowed' with Web@Work not installed.
    public static let webLinksBlocked = LintCheck(
        "OI022", "web-links-blocked", .info,
        "The Web DLP setting is 'not allowed' and the device facts do not say Web@Work is installed: every http or https link the app opens is denied.")
    /// An Open In policy of WHITELIST with no app in its whitelist.
    public static let whitelistEmpty = LintCheck(
        "OI023", "whitelist-empty", .warning,
        "The Open In policy is WHITELIST but its whitelist is missing or empty: every app is blocked, native Mail included.")

    /// Every check, in code order.
    public static let all: [LintCheck] = [
        invalidInput, mailPairHalf, caseDuplicate, wellKnownIDCase, whitelistIgnored, malformedBundleID,
        overrideValueIgnored, overrideKeyMisspelled, enforcementDisabled, overrideInBoth, emailPlusWithoutMail, duplicateID,
        invalidURLScheme, duplicateURLScheme, unresolvedBuildSetting, mailAppUnlisted,
        openFromWhitelistIgnored, openFromWhitelistEmpty, secureServicesNotGiven,
        customKeyboardsValue, customKeyboardsKeyMisspelled, excludedActivityCase, webLinksBlocked, whitelistEmpty,
    ]
}
