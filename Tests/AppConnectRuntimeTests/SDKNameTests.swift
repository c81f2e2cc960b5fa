import AppConnectRuntime
import OpenInPolicy
import Testing

/// Issue 11 item 7 and issue 16: every enum reads the guide's and the header's constant
/// names, byte for byte with ASCII case ignored, and no look-alike of them.
@Suite struct SDKNameTests {
    @Test func theHeadersNamesAreAccepted() throws {
        #expect(ACPolicyState(parsing: "ACPolicyStateApplied") == .applied)
        #expect(ACManagedPolicy(parsing: "ACManagedPolicyUnknown") == .unknown)
        #expect(ACAuthState(parsing: "ACAuthStateRetired") == .retired)
        #expect(ACLogLevel(parsing: "ACLogLevelVerbose") == .verbose)
        #expect(ACPasteboardPolicy(parsing: "ACPasteboardPolicySecureCopy") == .secureCopy)
        #expect(ACSecureServicesAvailability(parsing: "ACSecureServicesAvailabilityAvailable") == .available)
        #expect(ACAuthState(parsing: "ACAUTHSTATE_RETIRED") == .retired)
        #expect(ACAuthState(parsing: "retired") == .retired)
        #expect(ACAuthState(parsing: "2") == .retired)
        #expect(try OpenInStatus(parsing: "ACOpenInPolicyWhitelist") == .whitelist)
        #expect(try OpenInStatus(parsing: "ACOPENINPOLICY_WHITELIST") == .whitelist)
    }

    @Test func aLookAlikeOfANameIsNone() {
        // U+212A KELVIN SIGN lowercases to "k", so Swift's lowercased() would read these as the names.
        #expect(ACManagedPolicy(parsing: "ACManagedPolicyUn\u{212A}nown") == nil)
        #expect(ACManagedPolicy(parsing: "ACMANAGEDPOLICY_UN\u{212A}NOWN") == nil)
        #expect(ACManagedPolicy(parsing: "un\u{212A}nown") == nil)
        #expect(ACPolicyState(parsing: "applied\u{200F}") == nil)
        #expect(throws: InputError.unknownPolicy("whitelis\u{0074}\u{0301}")) { try OpenInStatus(parsing: "whitelis\u{0074}\u{0301}") }
    }
}
