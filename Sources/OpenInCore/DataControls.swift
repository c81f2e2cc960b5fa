import OpenInKit

/// The Open From policy status the server sends: the SDK's `ACOpenFromPolicy`.
///
/// The raw values are the header's: `ACOpenFromPolicyUnauthorized = 0`,
/// `ACOpenFromPolicyAuthorized = 1`, `ACOpenFromPolicyWhitelist = 2`
/// (`ACTypes.h`). The server setting "All AppConnect apps" arrives as
/// ``whitelist`` listing the device's AppConnect apps.
public enum OpenFromStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `ACOpenFromPolicyUnauthorized`: no app may send documents to this app.
    case unauthorized = 0
    /// `ACOpenFromPolicyAuthorized`: every app may send documents to this app.
    case authorized = 1
    /// `ACOpenFromPolicyWhitelist`: only apps in the Open From whitelist may.
    case whitelist = 2

    /// The header's constant name, e.g. `ACOpenFromPolicyWhitelist`.
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACOpenFromPolicyUnauthorized"
        case .authorized: "ACOpenFromPolicyAuthorized"
        case .whitelist: "ACOpenFromPolicyWhitelist"
        }
    }

    /// The suffix as tables write it: `UNAUTHORIZED`, `AUTHORIZED`, `WHITELIST`.
    public var description: String {
        switch self {
        case .unauthorized: "UNAUTHORIZED"
        case .authorized: "AUTHORIZED"
        case .whitelist: "WHITELIST"
        }
    }

    /// Each case's name and raw value, as ``init(parsing:)`` matches them (made once).
    static let names: [(name: String, raw: Int)] = allCases.map { ($0.description, $0.rawValue) }

    /// Reads a status from its short name, constant name (`ACOpenFromPolicyWhitelist`
    /// or `ACOPENFROMPOLICY_WHITELIST`) or number; names are case-insensitive.
    /// - Throws: ``InputError/unknownOpenFromPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let value = DataControlName.match(text, prefix: "acopenfrompolicy", cases: OpenFromStatus.names)
                .flatMap(OpenFromStatus.init(rawValue:)) else { throw .unknownOpenFromPolicy(text) }
        self = value
    }
}

/// The server's pasteboard policy: the SDK's `ACPasteboardPolicy`.
public enum PasteboardPolicy: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `ACPasteboardPolicyUnauthorized`: the app cannot write to the pasteboard.
    case unauthorized = 0
    /// `ACPasteboardPolicyAuthorized`: what the app copies is readable by every app.
    case authorized = 1
    /// `ACPasteboardPolicySecureCopy`: what the app copies is readable by authorized AppConnect apps only.
    case secureCopy = 2

    /// The header's constant name, e.g. `ACPasteboardPolicySecureCopy`.
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACPasteboardPolicyUnauthorized"
        case .authorized: "ACPasteboardPolicyAuthorized"
        case .secureCopy: "ACPasteboardPolicySecureCopy"
        }
    }

    /// The suffix as tables write it: `UNAUTHORIZED`, `AUTHORIZED`, `SECURECOPY`.
    public var description: String {
        switch self {
        case .unauthorized: "UNAUTHORIZED"
        case .authorized: "AUTHORIZED"
        case .secureCopy: "SECURECOPY"
        }
    }

    /// Each case's name and raw value, as ``init(parsing:)`` matches them (made once).
    static let names: [(name: String, raw: Int)] = allCases.map { ($0.description, $0.rawValue) }

    /// Reads `unauthorized`, `authorized`, `securecopy`, a constant name
    /// (`ACPasteboardPolicySecureCopy`, `ACPASTEBOARDPOLICY_SECURECOPY`) or `0`/`1`/`2`.
    /// - Throws: ``InputError/unknownPasteboardPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let value = DataControlName.match(text, prefix: "acpasteboardpolicy", cases: PasteboardPolicy.names)
                .flatMap(PasteboardPolicy.init(rawValue:)) else { throw .unknownPasteboardPolicy(text) }
        self = value
    }
}

/// The server's print policy: the SDK's `ACPrintPolicy`.
public enum PrintPolicy: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `ACPrintPolicyUnauthorized`: the app may not print.
    case unauthorized = 0
    /// `ACPrintPolicyAuthorized`: the app may print.
    case authorized = 1

    /// The header's constant name, e.g. `ACPrintPolicyAuthorized`.
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACPrintPolicyUnauthorized"
        case .authorized: "ACPrintPolicyAuthorized"
        }
    }

    /// The suffix as tables write it: `UNAUTHORIZED`, `AUTHORIZED`.
    public var description: String {
        switch self {
        case .unauthorized: "UNAUTHORIZED"
        case .authorized: "AUTHORIZED"
        }
    }

    /// Each case's name and raw value, as ``init(parsing:)`` matches them (made once).
    static let names: [(name: String, raw: Int)] = allCases.map { ($0.description, $0.rawValue) }

    /// Reads `unauthorized`, `authorized`, a constant name (`ACPrintPolicyAuthorized`,
    /// `ACPRINTPOLICY_AUTHORIZED`) or `0`/`1`.
    /// - Throws: ``InputError/unknownPrintPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let value = DataControlName.match(text, prefix: "acprintpolicy", cases: PrintPolicy.names)
                .flatMap(PrintPolicy.init(rawValue:)) else { throw .unknownPrintPolicy(text) }
        self = value
    }
}

/// Who can read what an allowed copy puts on the general pasteboard.
public enum CopyAudience: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every app, AppConnect or not (AUTHORIZED, or AppConnect not enforcing).
    case allApps = "all-apps"
    /// Authorized AppConnect apps only (SECURECOPY).
    case appConnectApps = "appconnect-apps"
    /// Apps an Intune app protection policy manages only ("Policy managed apps").
    case managedApps = "managed-apps"

    public var description: String { rawValue }
}

/// Reading the value names of the data-loss-prevention enums.
enum DataControlName {
    /// The raw value `text` names: a short name (`securecopy`), the header's
    /// constant (`prefix` + name, `ACPasteboardPolicySecureCopy`), the guide's
    /// style (`prefix` + `_` + name) or the number; names are case-insensitive.
    static func match(_ text: String, prefix: String, cases: [(name: String, raw: Int)]) -> Int? {
        // Compared as bytes, not by canonical equivalence: only these exact spellings (in any letter case) count,
        // ASCII folding only (Swift lowercases U+212A KELVIN SIGN to "k"); no spelling is made to compare it.
        for (name, raw) in cases {
            if ExactText.sameIgnoringASCIICase(text, name) || ExactText.sameIgnoringASCIICase(text, joining: prefix, name)
                || ExactText.sameIgnoringASCIICase(text, joining: prefix, "_", name) || ExactText.same(text, String(raw)) {
                return raw
            }
        }
        return nil
    }
}

extension DataControlName {
    /// `. Did you mean 'x'?` for a likely typo of one of `names`, else empty.
    static func didYouMean(_ value: String, among names: [String]) -> String {
        Suggestion.closest(to: value, among: names).map { ". Did you mean '\($0)'?" } ?? ""
    }
}

/// How to set each policy key a new channel needs, for ``InputError/policyKeyNotSet(_:_:)``: in the
/// policy file only. A front end adds its own way (the CLI its flag, a decision table its context setting).
enum PolicyKeyHint {
    static func hint(for key: String) -> String {
        switch key {
        case "openFromPolicy":
            "add \"openFromPolicy\": \"unauthorized\", \"authorized\", \"whitelist\" or \"appconnect\" to a JSON policy file (an AppConnect.plist cannot set it)"
        case "pasteboardPolicy":
            "add \"pasteboardPolicy\": \"unauthorized\", \"authorized\" or \"securecopy\" to a JSON policy file (an AppConnect.plist cannot set it)"
        case "printPolicy":
            "add \"printPolicy\": \"unauthorized\" or \"authorized\" to a JSON policy file (an AppConnect.plist cannot set it)"
        case "device.secureServicesAvailable":
            "under securecopy a copy depends on the device's secure services: add \"device\": {\"secureServicesAvailable\": true or false} to the policy file"
        default:
            "add it to the policy file"
        }
    }
}
