import OpenInPolicy

/// An enumeration of the AppConnect SDK, with the SDK's raw values and constant names.
///
/// Values print as their SDK constant name (`ACPOLICY_APPLIED`), the way a
/// developer reads them in the SDK headers and the server log.
public protocol SDKEnumeration: RawRepresentable, CaseIterable, Sendable, Hashable, CustomStringConvertible
where RawValue == Int {
    /// The prefix every constant of the enumeration shares, e.g. `ACPOLICY_`.
    static var sdkPrefix: String { get }
    /// The SDK type name, e.g. `ACPolicyState`.
    static var sdkTypeName: String { get }
    /// The SDK constant name, e.g. `ACPOLICY_APPLIED`.
    var sdkName: String { get }
    /// The constant's name in the SDK header (`ACTypes.h`), e.g. `ACPolicyStateApplied`.
    var headerName: String { get }
}

extension SDKEnumeration {
    /// The constant name without its prefix, lowercased: `applied`.
    public var name: String { String(sdkName.dropFirst(Self.sdkPrefix.count)).lowercased() }

    public var description: String { sdkName }

    /// The constant's name in the SDK header (`ACTypes.h`), e.g. `ACPolicyStateApplied`.
    public var headerName: String {
        var name = ""
        for word in String(sdkName.dropFirst(Self.sdkPrefix.count)).lowercased().split(separator: "_") {
            name += word.prefix(1).uppercased() + word.dropFirst()
        }
        return Self.sdkTypeName + name
    }

    /// Reads a value from its short name (`applied`), the guide's constant
    /// name (`ACPOLICY_APPLIED`), the header's (`ACPolicyStateApplied`) or its
    /// number (`1`).
    ///
    /// Names are compared byte for byte with ASCII letter case ignored; a name
    /// holding any non-ASCII character (a Kelvin sign for `K`, which Swift's
    /// `lowercased()` turns into `k`) is none of them.
    /// - Returns: `nil` for anything else.
    public init?(parsing text: String) {
        let folded = ExactText.asciiLowercased(text)
        for value in Self.allCases {
            let spellings = [value.name, value.sdkName, value.headerName, String(value.rawValue)]
            guard spellings.contains(where: { ExactText.same(folded, ExactText.asciiLowercased($0)) }) else { continue }
            self = value
            return
        }
        return nil
    }

    /// The accepted spellings, for error messages:
    /// `unsupported, applied, error (or the ACPOLICY_… or ACPolicyState… constant, or 0 to 2)`.
    public static var choices: String {
        let names = allCases.map(\.name).joined(separator: ", ")
        let numbers = allCases.map(\.rawValue)
        return "\(names) (or the \(sdkPrefix)… or \(sdkTypeName)… constant, or \(numbers.min() ?? 0) to \(numbers.max() ?? 0))"
    }
}

/// `ACPolicyState`: how the app reports applying a change in an acknowledgment.
public enum ACPolicyState: Int, SDKEnumeration {
    /// `ACPOLICY_UNSUPPORTED`: the app does not support the policy.
    case unsupported = 0
    /// `ACPOLICY_APPLIED`: the app applied the change.
    case applied = 1
    /// `ACPOLICY_ERROR`: the app failed to apply the change.
    case error = 2

    public static let sdkPrefix = "ACPOLICY_"
    public static let sdkTypeName = "ACPolicyState"
    public var sdkName: String {
        switch self {
        case .unsupported: "ACPOLICY_UNSUPPORTED"
        case .applied: "ACPOLICY_APPLIED"
        case .error: "ACPOLICY_ERROR"
        }
    }
}

/// `ACManagedPolicy`: whether Ivanti manages the app (AppConnect for iOS SDK Developer Guide: Dual-mode API details).
public enum ACManagedPolicy: Int, SDKEnumeration {
    /// `ACMANAGEDPOLICY_UNKNOWN`: the library has not yet determined it.
    case unknown = 0
    /// `ACMANAGEDPOLICY_UNMANAGED`: the app is not managed by Ivanti.
    case unmanaged = 1
    /// `ACMANAGEDPOLICY_MANAGED`: the app is managed by Ivanti.
    case managed = 2

    public static let sdkPrefix = "ACMANAGEDPOLICY_"
    public static let sdkTypeName = "ACManagedPolicy"
    public var sdkName: String {
        switch self {
        case .unknown: "ACMANAGEDPOLICY_UNKNOWN"
        case .unmanaged: "ACMANAGEDPOLICY_UNMANAGED"
        case .managed: "ACMANAGEDPOLICY_MANAGED"
        }
    }
}

/// `ACAuthState`: the user's authorization status.
public enum ACAuthState: Int, SDKEnumeration {
    /// `ACAUTHSTATE_UNAUTHORIZED`: the user may not use the app.
    case unauthorized = 0
    /// `ACAUTHSTATE_AUTHORIZED`: the user may use the app.
    case authorized = 1
    /// `ACAUTHSTATE_RETIRED`: the app is retired; it removes its sensitive data.
    case retired = 2

    public static let sdkPrefix = "ACAUTHSTATE_"
    public static let sdkTypeName = "ACAuthState"
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACAUTHSTATE_UNAUTHORIZED"
        case .authorized: "ACAUTHSTATE_AUTHORIZED"
        case .retired: "ACAUTHSTATE_RETIRED"
        }
    }
}

/// `ACLogLevel`: how much the library and the app log.
///
/// The order is the SDK header's (Ivanti's "Log messages API details"):
/// ERROR 0, WARNING 1, STATUS 2, INFO 3, VERBOSE 4, DEBUG 5. A message is
/// logged when its level is at most the current level.
public enum ACLogLevel: Int, SDKEnumeration, Comparable {
    /// `ACLOGLEVEL_ERROR`: errors only.
    case error = 0
    /// `ACLOGLEVEL_WARNING`: suspicious events that are not quite failures.
    case warning = 1
    /// `ACLOGLEVEL_STATUS`: significant status messages; the level of a stopped library.
    case status = 2
    /// `ACLOGLEVEL_INFO`: additional information.
    case info = 3
    /// `ACLOGLEVEL_VERBOSE`: verbose messages, which may be sensitive.
    case verbose = 4
    /// `ACLOGLEVEL_DEBUG`: debug messages, which may be sensitive.
    case debug = 5

    public static let sdkPrefix = "ACLOGLEVEL_"
    public static let sdkTypeName = "ACLogLevel"
    public var sdkName: String {
        switch self {
        case .error: "ACLOGLEVEL_ERROR"
        case .warning: "ACLOGLEVEL_WARNING"
        case .status: "ACLOGLEVEL_STATUS"
        case .info: "ACLOGLEVEL_INFO"
        case .verbose: "ACLOGLEVEL_VERBOSE"
        case .debug: "ACLOGLEVEL_DEBUG"
        }
    }

    public static func < (lhs: ACLogLevel, rhs: ACLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `ACPasteboardPolicy`: whether the app may write to the pasteboard.
public enum ACPasteboardPolicy: Int, SDKEnumeration {
    /// `ACPASTEBOARDPOLICY_UNAUTHORIZED`: the app may not write to the pasteboard.
    case unauthorized = 0
    /// `ACPASTEBOARDPOLICY_AUTHORIZED`: the app may write to the pasteboard every app reads.
    case authorized = 1
    /// `ACPASTEBOARDPOLICY_SECURECOPY`: what the app copies is readable by authorized AppConnect apps only.
    case secureCopy = 2

    public static let sdkPrefix = "ACPASTEBOARDPOLICY_"
    public static let sdkTypeName = "ACPasteboardPolicy"
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACPASTEBOARDPOLICY_UNAUTHORIZED"
        case .authorized: "ACPASTEBOARDPOLICY_AUTHORIZED"
        case .secureCopy: "ACPASTEBOARDPOLICY_SECURECOPY"
        }
    }
    public var headerName: String {
        switch self {
        case .unauthorized: "ACPasteboardPolicyUnauthorized"
        case .authorized: "ACPasteboardPolicyAuthorized"
        case .secureCopy: "ACPasteboardPolicySecureCopy"
        }
    }
}

/// `ACOpenFromPolicy`: which apps may send documents to this app (Open From).
public enum ACOpenFromPolicy: Int, SDKEnumeration {
    /// `ACOPENFROMPOLICY_UNAUTHORIZED`: no app may send documents to this app.
    case unauthorized = 0
    /// `ACOPENFROMPOLICY_AUTHORIZED`: every app may.
    case authorized = 1
    /// `ACOPENFROMPOLICY_WHITELIST`: only the apps of `openFromWhitelist` may.
    case whitelist = 2

    public static let sdkPrefix = "ACOPENFROMPOLICY_"
    public static let sdkTypeName = "ACOpenFromPolicy"
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACOPENFROMPOLICY_UNAUTHORIZED"
        case .authorized: "ACOPENFROMPOLICY_AUTHORIZED"
        case .whitelist: "ACOPENFROMPOLICY_WHITELIST"
        }
    }
}

/// `ACPrintPolicy`: whether the app may print.
public enum ACPrintPolicy: Int, SDKEnumeration {
    /// `ACPRINTPOLICY_UNAUTHORIZED`: the app may not print.
    case unauthorized = 0
    /// `ACPRINTPOLICY_AUTHORIZED`: the app may print.
    case authorized = 1

    public static let sdkPrefix = "ACPRINTPOLICY_"
    public static let sdkTypeName = "ACPrintPolicy"
    public var sdkName: String {
        switch self {
        case .unauthorized: "ACPRINTPOLICY_UNAUTHORIZED"
        case .authorized: "ACPRINTPOLICY_AUTHORIZED"
        }
    }
}

/// `ACSecureFileIOPolicy`: whether the app must encrypt its files with the secure file I/O APIs.
public enum ACSecureFileIOPolicy: Int, SDKEnumeration {
    /// `ACSECUREFILEIOPOLICY_OPTIONAL`: secure file I/O is optional.
    case optional = 0
    /// `ACSECUREFILEIOPOLICY_REQUIRED`: secure file I/O is required (what Ivanti servers send).
    case required = 1

    public static let sdkPrefix = "ACSECUREFILEIOPOLICY_"
    public static let sdkTypeName = "ACSecureFileIOPolicy"
    public var sdkName: String {
        switch self {
        case .optional: "ACSECUREFILEIOPOLICY_OPTIONAL"
        case .required: "ACSECUREFILEIOPOLICY_REQUIRED"
        }
    }
}

/// `ACSecureServicesAvailability`: whether secure services (secure file I/O, secure copy) are available now.
public enum ACSecureServicesAvailability: Int, SDKEnumeration {
    /// `ACSECURESERVICESAVAILABILITY_UNAVAILABLE`.
    case unavailable = 0
    /// `ACSECURESERVICESAVAILABILITY_AVAILABLE`.
    case available = 1

    public static let sdkPrefix = "ACSECURESERVICESAVAILABILITY_"
    public static let sdkTypeName = "ACSecureServicesAvailability"
    public var sdkName: String {
        switch self {
        case .unavailable: "ACSECURESERVICESAVAILABILITY_UNAVAILABLE"
        case .available: "ACSECURESERVICESAVAILABILITY_AVAILABLE"
        }
    }
}
