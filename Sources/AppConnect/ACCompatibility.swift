// swift-format-ignore-file: AlwaysUseLowerCamelCase
// ACCompatibility.h: the SDK's older constant names, `#define`d to the new
// ones (`#define ACOPENINPOLICY_WHITELIST ACOpenInPolicyWhitelist`), so apps
// written against the pre-2017 headers keep compiling. Each is a global of
// the enum type here.

/// `ACLOGLEVEL_ERROR` (ACCompatibility.h): `ACLogLevel.error`.
public var ACLOGLEVEL_ERROR: ACLogLevel { .error }
/// `ACLOGLEVEL_WARNING` (ACCompatibility.h): `ACLogLevel.warning`.
public var ACLOGLEVEL_WARNING: ACLogLevel { .warning }
/// `ACLOGLEVEL_STATUS` (ACCompatibility.h): `ACLogLevel.status`.
public var ACLOGLEVEL_STATUS: ACLogLevel { .status }
/// `ACLOGLEVEL_INFO` (ACCompatibility.h): `ACLogLevel.info`.
public var ACLOGLEVEL_INFO: ACLogLevel { .info }
/// `ACLOGLEVEL_VERBOSE` (ACCompatibility.h): `ACLogLevel.verbose`.
public var ACLOGLEVEL_VERBOSE: ACLogLevel { .verbose }
/// `ACLOGLEVEL_DEBUG` (ACCompatibility.h): `ACLogLevel.debug`.
public var ACLOGLEVEL_DEBUG: ACLogLevel { .debug }
/// `ACPOLICY_UNSUPPORTED` (ACCompatibility.h): `ACPolicyState.unsupported`.
public var ACPOLICY_UNSUPPORTED: ACPolicyState { .unsupported }
/// `ACPOLICY_APPLIED` (ACCompatibility.h): `ACPolicyState.applied`.
public var ACPOLICY_APPLIED: ACPolicyState { .applied }
/// `ACPOLICY_ERROR` (ACCompatibility.h): `ACPolicyState.error`.
public var ACPOLICY_ERROR: ACPolicyState { .error }
/// `ACMANAGEDPOLICY_UNKNOWN` (ACCompatibility.h): `ACManagedPolicy.unknown`.
public var ACMANAGEDPOLICY_UNKNOWN: ACManagedPolicy { .unknown }
/// `ACMANAGEDPOLICY_UNMANAGED` (ACCompatibility.h): `ACManagedPolicy.unmanaged`.
public var ACMANAGEDPOLICY_UNMANAGED: ACManagedPolicy { .unmanaged }
/// `ACMANAGEDPOLICY_MANAGED` (ACCompatibility.h): `ACManagedPolicy.managed`.
public var ACMANAGEDPOLICY_MANAGED: ACManagedPolicy { .managed }
/// `ACAUTHSTATE_UNAUTHORIZED` (ACCompatibility.h): `ACAuthState.unauthorized`.
public var ACAUTHSTATE_UNAUTHORIZED: ACAuthState { .unauthorized }
/// `ACAUTHSTATE_AUTHORIZED` (ACCompatibility.h): `ACAuthState.authorized`.
public var ACAUTHSTATE_AUTHORIZED: ACAuthState { .authorized }
/// `ACAUTHSTATE_RETIRED` (ACCompatibility.h): `ACAuthState.retired`.
public var ACAUTHSTATE_RETIRED: ACAuthState { .retired }
/// `ACPASTEBOARDPOLICY_UNAUTHORIZED` (ACCompatibility.h): `ACPasteboardPolicy.unauthorized`.
public var ACPASTEBOARDPOLICY_UNAUTHORIZED: ACPasteboardPolicy { .unauthorized }
/// `ACPASTEBOARDPOLICY_AUTHORIZED` (ACCompatibility.h): `ACPasteboardPolicy.authorized`.
public var ACPASTEBOARDPOLICY_AUTHORIZED: ACPasteboardPolicy { .authorized }
/// `ACPASTEBOARDPOLICY_SECURECOPY` (ACCompatibility.h): `ACPasteboardPolicy.secureCopy`.
public var ACPASTEBOARDPOLICY_SECURECOPY: ACPasteboardPolicy { .secureCopy }
/// `ACOPENINPOLICY_UNAUTHORIZED` (ACCompatibility.h): `ACOpenInPolicy.unauthorized`.
public var ACOPENINPOLICY_UNAUTHORIZED: ACOpenInPolicy { .unauthorized }
/// `ACOPENINPOLICY_AUTHORIZED` (ACCompatibility.h): `ACOpenInPolicy.authorized`.
public var ACOPENINPOLICY_AUTHORIZED: ACOpenInPolicy { .authorized }
/// `ACOPENINPOLICY_WHITELIST` (ACCompatibility.h): `ACOpenInPolicy.whitelist`.
public var ACOPENINPOLICY_WHITELIST: ACOpenInPolicy { .whitelist }
/// `ACOPENFROMPOLICY_UNAUTHORIZED` (ACCompatibility.h): `ACOpenFromPolicy.unauthorized`.
public var ACOPENFROMPOLICY_UNAUTHORIZED: ACOpenFromPolicy { .unauthorized }
/// `ACOPENFROMPOLICY_AUTHORIZED` (ACCompatibility.h): `ACOpenFromPolicy.authorized`.
public var ACOPENFROMPOLICY_AUTHORIZED: ACOpenFromPolicy { .authorized }
/// `ACOPENFROMPOLICY_WHITELIST` (ACCompatibility.h): `ACOpenFromPolicy.whitelist`.
public var ACOPENFROMPOLICY_WHITELIST: ACOpenFromPolicy { .whitelist }
/// `ACPRINTPOLICY_UNAUTHORIZED` (ACCompatibility.h): `ACPrintPolicy.unauthorized`.
public var ACPRINTPOLICY_UNAUTHORIZED: ACPrintPolicy { .unauthorized }
/// `ACPRINTPOLICY_AUTHORIZED` (ACCompatibility.h): `ACPrintPolicy.authorized`.
public var ACPRINTPOLICY_AUTHORIZED: ACPrintPolicy { .authorized }
/// `ACSECUREFILEIOPOLICY_OPTIONAL` (ACCompatibility.h): `ACSecureFileIOPolicy.optional`.
public var ACSECUREFILEIOPOLICY_OPTIONAL: ACSecureFileIOPolicy { .optional }
/// `ACSECUREFILEIOPOLICY_REQUIRED` (ACCompatibility.h): `ACSecureFileIOPolicy.required`.
public var ACSECUREFILEIOPOLICY_REQUIRED: ACSecureFileIOPolicy { .required }
/// `ACSECURESERVICESAVAILABILITY_UNAVAILABLE` (ACCompatibility.h): `ACSecureServicesAvailability.unavailable`.
public var ACSECURESERVICESAVAILABILITY_UNAVAILABLE: ACSecureServicesAvailability { .unavailable }
/// `ACSECURESERVICESAVAILABILITY_AVAILABLE` (ACCompatibility.h): `ACSecureServicesAvailability.available`.
public var ACSECURESERVICESAVAILABILITY_AVAILABLE: ACSecureServicesAvailability { .available }
/// `kACUIApplicationClassName` (ACCompatibility.h): ``ACUIApplicationClassName``.
public var kACUIApplicationClassName: String { ACUIApplicationClassName }
/// `ACE_NO_ERROR` (ACCompatibility.h): `ACErrorNoError`.
public var ACE_NO_ERROR: Int { ACErrorNoError }
/// `ACE_NO_KEYS_ERROR` (ACCompatibility.h): `ACErrorNoKeys`.
public var ACE_NO_KEYS_ERROR: Int { ACErrorNoKeys }
/// `ACE_FILE_TOO_BIG_ERROR` (ACCompatibility.h): `ACErrorFileTooBig`.
public var ACE_FILE_TOO_BIG_ERROR: Int { ACErrorFileTooBig }
/// `ACE_NEGATIVE_FILE_LEN_ERROR` (ACCompatibility.h): `ACErrorNegativeFileLen`.
public var ACE_NEGATIVE_FILE_LEN_ERROR: Int { ACErrorNegativeFileLen }
/// `ACE_LOW_MEMORY_ERROR` (ACCompatibility.h): `ACErrorLowMemory`.
public var ACE_LOW_MEMORY_ERROR: Int { ACErrorLowMemory }
/// `ACE_BAD_KEY_OR_CORRUPT_DATA_ERROR` (ACCompatibility.h): `ACErrorBadKeyOrCorruptData`.
public var ACE_BAD_KEY_OR_CORRUPT_DATA_ERROR: Int { ACErrorBadKeyOrCorruptData }
/// `ACE_INVALID_ARG` (ACCompatibility.h): `ACErrorInvalidArg`.
public var ACE_INVALID_ARG: Int { ACErrorInvalidArg }
/// `ACE_REGULAR_FILE_ONLY_ERROR` (ACCompatibility.h): `ACErrorRegularFileOnly`.
public var ACE_REGULAR_FILE_ONLY_ERROR: Int { ACErrorRegularFileOnly }
/// `ACE_INTERNAL_ERROR` (ACCompatibility.h): `ACErrorInternal`.
public var ACE_INTERNAL_ERROR: Int { ACErrorInternal }
