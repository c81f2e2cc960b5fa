import AppConnectTesting
import AppConnect
import Foundation
import Testing

/// The header's members, spelled and typed as Swift imports them: this file
/// compiling is most of the test; the expectations check raw values and
/// behaviour that types cannot.
extension AppConnectDoubleTests {
    @Suite struct Surface {
        @Test func enumsHaveTheHeadersRawValues() {
            #expect([ACLogLevel.error, .warning, .status, .info, .verbose, .debug].map(\.rawValue) == [0, 1, 2, 3, 4, 5])
            #expect([ACPolicyState.unsupported, .applied, .error].map(\.rawValue) == [0, 1, 2])
            #expect([ACManagedPolicy.unknown, .unmanaged, .managed].map(\.rawValue) == [0, 1, 2])
            #expect([ACAuthState.unauthorized, .authorized, .retired].map(\.rawValue) == [0, 1, 2])
            #expect([ACPasteboardPolicy.unauthorized, .authorized, .secureCopy].map(\.rawValue) == [0, 1, 2])
            #expect([ACOpenInPolicy.unauthorized, .authorized, .whitelist].map(\.rawValue) == [0, 1, 2])
            #expect([ACOpenFromPolicy.unauthorized, .authorized, .whitelist].map(\.rawValue) == [0, 1, 2])
            #expect([ACPrintPolicy.unauthorized, .authorized].map(\.rawValue) == [0, 1])
            #expect([ACSecureFileIOPolicy.optional, .required].map(\.rawValue) == [0, 1])
            #expect([ACSecureServicesAvailability.unavailable, .available].map(\.rawValue) == [0, 1])
            #expect([ACErrorNoError, ACErrorNoKeys, ACErrorInvalidArg, ACErrorInternal] as [Int] == [0, 1, 6, 444])
            #expect(ACOPENINPOLICY_WHITELIST == .whitelist && ACPOLICY_APPLIED == .applied && ACE_INVALID_ARG == ACErrorInvalidArg)
            #expect(ACPropertyAccessException == "ACPropertyAccessException")
        }

        @Test func everyMemberHasTheImportedType() {
            let harness = try! AppConnectHarnessFixture.make()
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter { !$0.isRequired })
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            guard let ac = AppConnect.sharedInstance() else {
                Issue.record("sharedInstance() is nil after initWith")
                return
            }
            let _: () -> String = AppConnect.version
            let _: () -> Bool = AppConnect.shouldStartAppConnect
            let _: () -> ACLogLevel = AppConnect.logLevel
            let _: (ACLogLevel, String) -> Void = AppConnect.log(at:message:)
            let _: (any AppConnectDelegate) -> Void = AppConnect.initWith
            let _: () -> AppConnect? = AppConnect.sharedInstance
            let _: ([AnyHashable: Any]?) -> Void = ac.start(launchOptions:)
            let _: () -> Void = ac.retire
            let _: () -> Void = ac.stop
            let _: Bool = ac.isReady
            let _: (ACPolicyState, String?) -> Void = ac.authStateApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.configApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.openInPolicyApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.openFromPolicyApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.pasteboardPolicyApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.printPolicyApplied(_:message:)
            let _: (ACPolicyState, String?) -> Void = ac.secureFileIOPolicyApplied(_:message:)
            let _: (String?, ((Bool) -> Void)?) -> Void = ac.displayMessage(_:withCompletion:)
            let _: (String) throws -> ACSensitiveData = ac.derivedAppKey(withIdentifier:)
            let _: (String) throws -> ACSensitiveData = ac.derivedSharedKey(withIdentifier:)
            let _: (Bool) -> Void = ac.allowLocalCaching(forTunneledRequests:)
            let _: () -> Void = ac.enableAppExtensionSupport
            ac.start(launchOptions: nil)
            harness.checkIn()
            let _: ACManagedPolicy = ac.managedPolicy
            let _: ACAuthState = ac.authState
            let _: String? = ac.authMessage
            let _: ACPasteboardPolicy = ac.pasteboardPolicy
            let _: ACOpenInPolicy = ac.openInPolicy
            let _: Set<String> = ac.openInWhitelist
            let _: ACOpenFromPolicy = ac.openFromPolicy
            let _: Set<String> = ac.openFromWhitelist
            let _: [Any] = ac.excludedAppleActivityTypes
            let _: ACPrintPolicy = ac.printPolicy
            let _: ACSecureFileIOPolicy = ac.secureFileIOPolicy
            let _: [AnyHashable: Any] = ac.config
            let _: ACSecureServicesAvailability = ac.secureServicesAvailability
            let _: (any AppConnectDelegate)? = ac.appConnectDelegate
            let _: NSObject = ac
            #expect(ac.appConnectDelegate === delegate)
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func sharedInstanceIsNilBeforeInitWithAndAfterStop() throws {
            let harness = try AppConnectHarnessFixture.make()
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter { !$0.isRequired })
            #expect(AppConnect.sharedInstance() == nil)
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            #expect(AppConnect.sharedInstance() === ac)
            ac.start(launchOptions: nil)
            harness.checkIn()
            ac.stop()
            #expect(AppConnect.sharedInstance() == nil)
            #expect(ac.appConnectDelegate == nil, "-stop sets the delegate to nil")
            #expect(AppConnect.logLevel() == .status, "a stopped library's log level is ACLogLevelStatus")
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }

        @Test func derivedKeysAreDeterministicAndFailAsTheHeaderSays() throws {
            let harness = try AppConnectHarnessFixture.make()
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            let aes = try ac.derivedAppKey(withIdentifier: "aes")
            #expect(aes.length == 32)
            #expect(bytes(aes) == bytes(try ac.derivedAppKey(withIdentifier: "aes")), "the same app and identifier give the same key")
            #expect(bytes(aes) != bytes(try ac.derivedAppKey(withIdentifier: "hmac")))
            #expect(bytes(aes) != bytes(try ac.derivedSharedKey(withIdentifier: "aes")))
            #expect(bytes(try ac.derivedSharedKey(withIdentifier: "aes")) == bytes(try ac.derivedSharedKey(withIdentifier: "aes")))
            do {
                _ = try ac.derivedAppKey(withIdentifier: "")
                Issue.record("an empty identifier must fail")
            } catch let error as NSError {
                #expect(error.domain == ACErrorDomain && error.code == ACErrorInvalidArg)
            }
            try harness.push(.secureServicesAvailability(.unavailable))
            do {
                _ = try ac.derivedSharedKey(withIdentifier: "aes")
                Issue.record("no key while secure services are unavailable")
            } catch let error as NSError {
                #expect(error.domain == ACErrorDomain && error.code == ACErrorNoError)
            }
        }

        @Test func displayMessageReachesTheIvantiClient() throws {
            let harness = try AppConnectHarnessFixture.make()
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            var shown: Bool?
            ac.displayMessage("Signed out", withCompletion: { shown = $0 })
            ac.displayMessage(nil, withCompletion: { _ in Issue.record("a nil message does nothing") })
            #expect(shown == true)
            #expect(harness.displayedMessages == ["Signed out"])
        }

        @Test("-allowLocalCachingForTunneledRequests: is recorded in order and changes no decision")
        func localCachingForTunneledRequestsIsRecorded() throws {
            let harness = try AppConnectHarnessFixture.make()
            AppConnect.initWith(RequiredOnly())
            let ac = try #require(AppConnect.sharedInstance())
            ac.allowLocalCaching(forTunneledRequests: true)
            ac.allowLocalCaching(forTunneledRequests: false)
            #expect(harness.localCachingForTunneledRequests == [true, false])
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }
}

extension AppConnectDoubleTests {
    @Suite struct SensitiveDataAndQueries {
        @Test func sensitiveDataBehavesAsNSData() throws {
            let harness = try AppConnectHarness()
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            let key = try ac.derivedAppKey(withIdentifier: "aes")
            let data = Data(referencing: key)
            #expect(data.count == 32)
            #expect(Array(data) == bytes(key))
            #expect(key.isEqual(to: data))
            var buffer = [UInt8](repeating: 0, count: 32)
            key.getBytes(&buffer, length: 32)
            #expect(buffer == bytes(key))
        }

        @Test func queriesInAdvanceFollowTheEvaluator() throws {
            let harness = try AppConnectHarness([.openInPolicy(.unauthorized, whitelist: [])])
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            #expect(!ac.isURLAllowed(URL(string: "mailto:a@example.com")!), "started, not ready: fail closed")
            harness.checkIn()
            #expect(!ac.isURLAllowed(URL(string: "mailto:a@example.com")!))
            #expect(!ac.isOpenInAllowed(to: "com.example.viewer"))
            #expect(!ac.isOpenInAllowed(to: "not a bundle id"))
            try harness.push(.openInPolicy(.authorized, whitelist: []))
            #expect(ac.isURLAllowed(URL(string: "mailto:a@example.com")!))
            #expect(ac.isOpenInAllowed(to: "com.example.viewer"))
            #expect(!ac.isOpenFromAllowed(from: "com.example.scanner"), "the server's default Open From policy is UNAUTHORIZED")
            try harness.push(.openFromPolicy(.whitelist, whitelist: ["com.example.scanner"]))
            #expect(ac.isOpenFromAllowed(from: "com.example.scanner"))
            #expect(!ac.isOpenFromAllowed(from: "com.example.other"))
            #expect(!ac.isOpenFromAllowed(from: nil), "an unknown sender is never taken as listed")
            #expect(!ac.isOpenFromAllowed(from: "not a bundle id"))
            #expect(harness.shareDecisions.isEmpty, "asking records no share")
            #expect(try harness.share(channel: "open-from", source: "com.example.scanner").isAllowed, "the share decides as asked")
            #expect(try !harness.share(channel: "open-from", source: "com.example.other").isAllowed)
            ac.stop()
            #expect(harness.misuses.isEmpty)
        }
    }
}

extension AppConnectDoubleTests {
    @Suite struct Logging {
        @Test func classLevelLoggingFollowsTheServersLevelAndOutlivesStop() throws {
            let harness = try AppConnectHarness([.logLevel(.info)])
            harness.appDoesNotImplement(AppConnectHarness.Callback.allCases.filter { !$0.isRequired })
            #expect(AppConnect.logLevel() == .status, "no library yet")
            let delegate = RequiredOnly()
            AppConnect.initWith(delegate)
            let ac = try #require(AppConnect.sharedInstance())
            ac.start(launchOptions: nil)
            harness.checkIn()
            #expect(AppConnect.logLevel() == .info)
            AppConnect.log(at: .info, message: "shown")
            AppConnect.log(at: .debug, message: "hidden")
            ac.stop()
            #expect(AppConnect.logLevel() == .status)
            AppConnect.log(at: .error, message: "after stop")
            let timeline = harness.timeline
            #expect(timeline.contains("log ACLOGLEVEL_INFO \"shown\"\n"))
            #expect(timeline.contains("log ACLOGLEVEL_DEBUG \"hidden\"  (below the log level: not logged)"))
            #expect(timeline.contains("log ACLOGLEVEL_ERROR \"after stop\"\n"))
            #expect(harness.problems.isEmpty, "\(harness.problems)")
        }
    }
}
