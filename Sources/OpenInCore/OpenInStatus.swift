import OpenInKit

/// The Open In policy status the server sends: the SDK's `ACOpenInPolicy`.
///
/// The raw values are the SDK's: `ACOPENINPOLICY_UNAUTHORIZED = 0`,
/// `ACOPENINPOLICY_AUTHORIZED = 1`, `ACOPENINPOLICY_WHITELIST = 2`. The server
/// setting "All AppConnect apps" arrives as ``whitelist`` listing every
/// authorized AppConnect app.
public enum OpenInStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `ACOPENINPOLICY_UNAUTHORIZED`: the app is not allowed to use Open In.
    case unauthorized = 0
    /// `ACOPENINPOLICY_AUTHORIZED`: the app is allowed to use Open In.
    case authorized = 1
    /// `ACOPENINPOLICY_WHITELIST`: Open In only to apps in the whitelist.
    case whitelist = 2

    /// The SDK constant name, e.g. `ACOPENINPOLICY_WHITELIST`.
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACOPENINPOLICY_UNAUTHORIZED"
        case .authorized: "ACOPENINPOLICY_AUTHORIZED"
        case .whitelist: "ACOPENINPOLICY_WHITELIST"
        }
    }

    /// The short lowercase name used in files and tables: `unauthorized`, `authorized`, `whitelist`.
    public var name: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .authorized: "authorized"
        case .whitelist: "whitelist"
        }
    }

    /// The SDK constant name's suffix, as the tables write it: `UNAUTHORIZED`, `AUTHORIZED`, `WHITELIST`.
    public var description: String {
        switch self {
        case .unauthorized: "UNAUTHORIZED"
        case .authorized: "AUTHORIZED"
        case .whitelist: "WHITELIST"
        }
    }

    /// The header's constant name, e.g. `ACOpenInPolicyWhitelist` (`ACTypes.h`, `ACOpenInPolicy`).
    public var headerName: String {
        switch self {
        case .unauthorized: "ACOpenInPolicyUnauthorized"
        case .authorized: "ACOpenInPolicyAuthorized"
        case .whitelist: "ACOpenInPolicyWhitelist"
        }
    }

    /// Reads a status from its short name, the guide's constant name, the header's
    /// constant name or its number (`whitelist`, `ACOPENINPOLICY_WHITELIST`,
    /// `ACOpenInPolicyWhitelist`, `2`).
    ///
    /// Names are compared byte for byte with ASCII letter case ignored; a name
    /// holding a non-ASCII character is never one of them (the error names the character).
    ///
    /// `appconnect` ("All AppConnect apps") is not a status of its own: see
    /// ``PolicySetting``.
    /// - Throws: ``InputError/unknownPolicy(_:)`` for anything else.
    public init(parsing text: String) throws(InputError) {
        for status in OpenInStatus.allCases
        where ExactText.sameIgnoringASCIICase(text, status.name) || ExactText.sameIgnoringASCIICase(text, status.sdkName)
            || ExactText.sameIgnoringASCIICase(text, status.headerName) || ExactText.same(text, String(status.rawValue)) {
            self = status
            return
        }
        throw .unknownPolicy(text)
    }
}

/// What a policy source says about Open In: a status, or "All AppConnect apps".
///
/// "All AppConnect apps" is delivered to the app as ``OpenInStatus/whitelist``
/// with the device's AppConnect apps as the whitelist; this type keeps the
/// difference so tools can name it.
public enum PolicySetting: Sendable, Hashable {
    /// One of the three SDK statuses, with the whitelist given explicitly.
    case status(OpenInStatus)
    /// "All AppConnect apps": WHITELIST of the device's AppConnect apps.
    case allAppConnectApps

    /// Reads `unauthorized`, `authorized`, `whitelist`, `appconnect`, an SDK
    /// constant name (`ACOPENINPOLICY_WHITELIST` or `ACOpenInPolicyWhitelist`) or
    /// `0`/`1`/`2` (ASCII letters in any case, every other byte exactly).
    /// - Throws: ``InputError/unknownPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        if ExactText.sameIgnoringASCIICase(text, "appconnect") {
            self = .allAppConnectApps
        } else {
            self = .status(try OpenInStatus(parsing: text))
        }
    }
}
