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

    /// Reads a status from its short name, SDK constant name or number (`whitelist`,
    /// `ACOPENINPOLICY_WHITELIST`, `2`); names are case-insensitive.
    ///
    /// `appconnect` ("All AppConnect apps") is not a status of its own: see
    /// ``PolicySetting``.
    /// - Throws: ``InputError/unknownPolicy(_:)`` for anything else.
    public init(parsing text: String) throws(InputError) {
        switch text.lowercased() {
        case "unauthorized", "acopeninpolicy_unauthorized", "0": self = .unauthorized
        case "authorized", "acopeninpolicy_authorized", "1": self = .authorized
        case "whitelist", "acopeninpolicy_whitelist", "2": self = .whitelist
        default: throw .unknownPolicy(text)
        }
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
    /// constant name or `0`/`1`/`2` (names case-insensitive).
    /// - Throws: ``InputError/unknownPolicy(_:)``.
    public init(parsing text: String) throws(InputError) {
        if text.lowercased() == "appconnect" {
            self = .allAppConnectApps
        } else {
            self = .status(try OpenInStatus(parsing: text))
        }
    }
}
