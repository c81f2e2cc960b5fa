// swift-format-ignore-file: AlwaysUseLowerCamelCase
// The enumerations and constants of the AppConnect for iOS SDK as Swift imports
// them from its public headers (AppConnect.framework/Headers, the 2013-2018
// headers: `ACTypes.h`, `ACError.h`, `AppConnectInterface.h`, `ACCompatibility.h`).
//
// Import rules applied:
// - `typedef NS_ENUM(NSInteger, T) { TFoo = 0, … }` becomes `enum T: Int` with
//   the common prefix `T` stripped and the rest lowerCamelCased: `ACOpenInPolicyWhitelist`
//   is `ACOpenInPolicy.whitelist`. The imported enums add no `description`,
//   so an app's own `CustomStringConvertible` extension is the only one.
// - An anonymous `NS_ENUM(NSInteger) { … }` becomes one global `Int` constant per
//   value (`ACErrorNoError`).
// - `extern NSString * const X` becomes a global `let X: String`.
// - `#define OLD_NAME NewName` (ACCompatibility.h) is offered as a global of the
//   enum type, so older spellings (`ACOPENINPOLICY_WHITELIST`) still compile.
//
// These are Swift value types: `Sendable`, with the SDK's raw values.

/// `ACLogLevel` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACLogLevel)`): how much is logged.
public enum ACLogLevel: Int, Sendable {
    /// `ACLogLevelError = 0`: error messages.
    case error = 0
    /// `ACLogLevelWarning = 1`: warning messages.
    case warning = 1
    /// `ACLogLevelStatus = 2`: significant status messages; the level of a stopped library.
    case status = 2
    /// `ACLogLevelInfo = 3`: additional informational messages.
    case info = 3
    /// `ACLogLevelVerbose = 4`: verbose messages, which may include sensitive information.
    case verbose = 4
    /// `ACLogLevelDebug = 5`: debug messages, which may include sensitive information.
    case debug = 5
}

/// `ACPolicyState` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACPolicyState)`): how an app acknowledges a change.
public enum ACPolicyState: Int, Sendable {
    /// `ACPolicyStateUnsupported = 0`: the app does not support the policy (never allowed for the auth state).
    case unsupported = 0
    /// `ACPolicyStateApplied = 1`: the app applied the change.
    case applied = 1
    /// `ACPolicyStateError = 2`: the app failed to apply the change.
    case error = 2
}

/// `ACManagedPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACManagedPolicy)`): whether Ivanti manages the app.
public enum ACManagedPolicy: Int, Sendable {
    /// `ACManagedPolicyUnknown = 0`: the library has not determined it yet.
    case unknown = 0
    /// `ACManagedPolicyUnmanaged = 1`: the app is not managed.
    case unmanaged = 1
    /// `ACManagedPolicyManaged = 2`: the app is managed.
    case managed = 2
}

/// `ACAuthState` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACAuthState)`): the user's authorization.
public enum ACAuthState: Int, Sendable {
    /// `ACAuthStateUnauthorized = 0`: no access to sensitive data or views.
    case unauthorized = 0
    /// `ACAuthStateAuthorized = 1`: the only state with access to sensitive data and views.
    case authorized = 1
    /// `ACAuthStateRetired = 2`: the app erases its sensitive data.
    case retired = 2
}

/// `ACPasteboardPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACPasteboardPolicy)`).
public enum ACPasteboardPolicy: Int, Sendable {
    /// `ACPasteboardPolicyUnauthorized = 0`: the app cannot write to the pasteboard.
    case unauthorized = 0
    /// `ACPasteboardPolicyAuthorized = 1`: the app writes to the pasteboard every app reads.
    case authorized = 1
    /// `ACPasteboardPolicySecureCopy = 2`: what the app copies is readable by authorized AppConnect apps only.
    case secureCopy = 2
}

/// `ACOpenInPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACOpenInPolicy)`).
public enum ACOpenInPolicy: Int, Sendable {
    /// `ACOpenInPolicyUnauthorized = 0`: the app may not use Open In.
    case unauthorized = 0
    /// `ACOpenInPolicyAuthorized = 1`: the app may share with every app.
    case authorized = 1
    /// `ACOpenInPolicyWhitelist = 2`: the app may share with the apps of the whitelist only.
    case whitelist = 2
}

/// `ACOpenFromPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACOpenFromPolicy)`).
public enum ACOpenFromPolicy: Int, Sendable {
    /// `ACOpenFromPolicyUnauthorized = 0`: the app may not receive documents from other apps.
    case unauthorized = 0
    /// `ACOpenFromPolicyAuthorized = 1`: the app may receive documents from every app.
    case authorized = 1
    /// `ACOpenFromPolicyWhitelist = 2`: the app may receive documents from the apps of the whitelist only.
    case whitelist = 2
}

/// `ACPrintPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACPrintPolicy)`).
public enum ACPrintPolicy: Int, Sendable {
    /// `ACPrintPolicyUnauthorized = 0`: the app may not print.
    case unauthorized = 0
    /// `ACPrintPolicyAuthorized = 1`: the app may print.
    case authorized = 1
}

/// `ACSecureFileIOPolicy` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACSecureFileIOPolicy)`).
public enum ACSecureFileIOPolicy: Int, Sendable {
    /// `ACSecureFileIOPolicyOptional = 0`: secure file storage is optional.
    case optional = 0
    /// `ACSecureFileIOPolicyRequired = 1`: sensitive files go to AppConnect secure file storage only.
    case required = 1
}

/// `ACSecureServicesAvailability` (ACTypes.h: `typedef NS_ENUM(NSInteger, ACSecureServicesAvailability)`).
public enum ACSecureServicesAvailability: Int, Sendable {
    /// `ACSecureServicesAvailabilityUnavailable = 0`: secure file I/O and derived keys fail.
    case unavailable = 0
    /// `ACSecureServicesAvailabilityAvailable = 1`.
    case available = 1
}

// MARK: Constants

/// `ACUIApplicationClassName` (AppConnectInterface.h: `extern NSString * const ACUIApplicationClassName`):
/// the principal class an AppConnect app names in `UIApplicationMain`.
public let ACUIApplicationClassName = "AppConnectUIApplication"

/// `ACPropertyAccessException` (AppConnectInterface.h: `extern NSString * const ACPropertyAccessException`):
/// the name of the exception the SDK raises for a property read before ready. The double records a misuse instead.
public let ACPropertyAccessException = "ACPropertyAccessException"

/// `ACErrorDomain` (ACError.h: `extern NSString * const ACErrorDomain`): the domain of the SDK's `NSError`s.
public let ACErrorDomain = "ACErrorDomain"

// ACError.h: `NS_ENUM(NSInteger) { ACErrorNoError = 0, ACErrorNoKeys, …, ACErrorInternal = 444 }`, anonymous,
// so each value imports as a global `Int`.

/// `ACErrorNoError = 0` (ACError.h); also the code of a derived-key error when secure services are unavailable.
public var ACErrorNoError: Int { 0 }
/// `ACErrorNoKeys = 1` (ACError.h).
public var ACErrorNoKeys: Int { 1 }
/// `ACErrorFileTooBig = 2` (ACError.h).
public var ACErrorFileTooBig: Int { 2 }
/// `ACErrorNegativeFileLen = 3` (ACError.h).
public var ACErrorNegativeFileLen: Int { 3 }
/// `ACErrorLowMemory = 4` (ACError.h).
public var ACErrorLowMemory: Int { 4 }
/// `ACErrorBadKeyOrCorruptData = 5` (ACError.h).
public var ACErrorBadKeyOrCorruptData: Int { 5 }
/// `ACErrorInvalidArg = 6` (ACError.h): a nil or empty identifier.
public var ACErrorInvalidArg: Int { 6 }
/// `ACErrorRegularFileOnly = 7` (ACError.h).
public var ACErrorRegularFileOnly: Int { 7 }
/// `ACErrorInternal = 444` (ACError.h).
public var ACErrorInternal: Int { 444 }
