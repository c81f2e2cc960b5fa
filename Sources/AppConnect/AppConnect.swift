package import AppConnectRuntime
internal import OpenInPolicy
import Foundation

/// `AppConnect` (AppConnectInterface.h: `@interface AppConnect : NSObject`): the
/// AppConnect library as an app calls it, with the SDK's Swift names and types,
/// running on the simulated device of openin-check's AppConnect runtime.
///
/// This is a test double: link it instead of the SDK in a Linux test target and
/// the app's code compiles unchanged. Every decision and lifecycle rule is the
/// runtime's; this class only translates. Where the SDK raises an
/// Objective-C exception (a property read before ready) or leaves the result
/// undefined (a call after `stop`), the double records a misuse, returns a
/// fail-closed value and goes on; in strict mode it traps instead.
public final class AppConnect: NSObject {
    /// The runtime's instance this one drives.
    package let runtime: AppConnectRuntime.AppConnect
    private let world: DoubleWorld
    private let stateLock = NSLock()
    // Guarded by `stateLock`.
    private var stopped = false
    private weak var _delegate: (any AppConnectDelegate)?

    private init(delegate: any AppConnectDelegate, world: DoubleWorld) {
        self.world = world
        let bridge = RuntimeBridge(world: world)
        runtime = AppConnectRuntime.AppConnect(delegate: bridge, device: world.device, infoPlist: world.infoPlist, app: world.app)
        _delegate = delegate
        super.init()
        bridge.owner = self
    }

    // MARK: Class methods

    /// `+(NSString *)version`: the version of the library; the double says it is the double.
    public class func version() -> String { "openin-check AppConnect double" }

    /// `+(BOOL)shouldStartAppConnect`: whether a dual-mode app should start the library (the runtime's answer).
    public class func shouldStartAppConnect() -> Bool {
        AppConnectRuntime.AppConnect.shouldStartAppConnect(on: DoubleWorld.current.device)
    }

    /// `+(ACLogLevel)logLevel`: the current log level; `.status` when the library is stopped or not created.
    public class func logLevel() -> ACLogLevel {
        guard let instance = DoubleWorld.current.sharedInstance else { return .status }
        return sdk(instance.runtime.logLevel, or: .status)
    }

    /// `+(void)initWithDelegate:(id<AppConnectDelegate>)appConnectDelegate`: creates the shared instance.
    ///
    /// Called while a shared instance exists, it records a misuse (the header
    /// asks for one call) and gives the existing instance the new delegate.
    public class func initWith(_ appConnectDelegate: any AppConnectDelegate) {
        let world = DoubleWorld.current
        world.recordDelegateType(type(of: appConnectDelegate))
        if let existing = world.sharedInstance {
            world.misuse("initWithDelegate:", "called while the shared instance exists (call it once, or again only after -stop); "
                + "the existing instance keeps running with the new delegate")
            existing.appConnectDelegate = appConnectDelegate
            return
        }
        world.install(AppConnect(delegate: appConnectDelegate, world: world))
    }

    /// `+(nullable AppConnect *)sharedInstance`: the instance `initWith(_:)` created; `nil` before it and after `stop()`.
    public class func sharedInstance() -> AppConnect? { DoubleWorld.current.sharedInstance }

    /// `+(void)logAtLevel:message:`: logs `message` when `logLevel` is at most the current level.
    ///
    /// Works after `stop()` (the runtime logs through the last instance); before
    /// any instance exists there is nothing to log to, and the call does nothing.
    public class func log(at logLevel: ACLogLevel, message: String) {
        guard let instance = DoubleWorld.current.lastInstance else { return }
        instance.runtime.log(runtimeValue(logLevel, or: .error), message)
    }

    /// `+(void)logAtLevel:format:args:`: like ``log(at:message:)`` with a `String(format:)` format and its arguments.
    public class func log(at logLevel: ACLogLevel, format: String, args: CVaListPointer) {
        log(at: logLevel, message: NSString(format: format, arguments: args) as String)
    }

    // MARK: Lifecycle

    /// `appConnectDelegate`: the delegate, held weakly as the SDK does; `stop()` sets it to nil.
    public weak var appConnectDelegate: (any AppConnectDelegate)? {
        get { stateLock.withLock { _delegate } }
        set { stateLock.withLock { _delegate = newValue } }
    }

    private var isStopped: Bool { stateLock.withLock { stopped } }

    /// Records a misuse when the instance is stopped; returns whether it is live.
    private func live(_ call: String) -> Bool {
        guard isStopped else { return true }
        world.misuse(call, "called after -stop (the header: all other methods must not be called and have undefined results)")
        return false
    }

    /// `-(void)startWithLaunchOptions:(nullable NSDictionary *)launchOptions`: starts the library; it is ready after its check-in.
    public func start(launchOptions: [AnyHashable: Any]? = nil) {
        guard live("startWithLaunchOptions:") else { return }
        let options = launchOptions.map { options in
            Dictionary(options.map { ("\($0.key.base)", "\($0.value)") }, uniquingKeysWith: { first, _ in first })
        }
        do throws(AppConnectError) {
            try runtime.start(launchOptions: options)
        } catch {
            world.misuse("startWithLaunchOptions:", error.description)
        }
    }

    /// `-(void)stop`: shuts the library down, clears the delegate and the shared instance.
    public func stop() {
        guard live("stop") else { return }
        do throws(AppConnectError) {
            try runtime.stop()
        } catch {
            world.misuse("stop", error.description)
        }
        stateLock.withLock {
            stopped = true
            _delegate = nil
        }
        world.uninstall(self)
    }

    /// `-(void)retire`: the library forgets the app; a dual-mode app calls `stop()` right after.
    public func retire() {
        guard live("retire") else { return }
        do throws(AppConnectError) {
            try runtime.retire()
        } catch {
            world.misuse("retire", error.description)
        }
    }

    // MARK: Properties

    /// `ready` (`getter=isReady`): whether the properties can be read.
    public var isReady: Bool {
        guard live("isReady") else { return false }
        return runtime.isReady
    }

    /// Reads a gated property: a misuse and `fallback` before ready or after stop.
    private func gated<Value>(_ name: String, fallback: Value,
                              _ read: (AppConnectRuntime.AppConnect) throws(ACPropertyAccessExceptionError) -> Value) -> Value {
        guard live(name) else { return fallback }
        do throws(ACPropertyAccessExceptionError) {
            return try read(runtime)
        } catch {
            world.misuse(name, "read before the library is ready: the SDK raises ACPropertyAccessException (\(error))")
            return fallback
        }
    }

    /// `managedPolicy`; `.unknown` (and a misuse) before ready.
    public var managedPolicy: ACManagedPolicy {
        gated("managedPolicy", fallback: .unknown) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.managedPolicy, or: .unknown)
        }
    }
    /// `authState`; `.unauthorized` (and a misuse) before ready.
    public var authState: ACAuthState {
        gated("authState", fallback: .unauthorized) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.authState, or: .unauthorized)
        }
    }
    /// `authMessage` (nullable); `nil` (and a misuse) before ready.
    public var authMessage: String? {
        gated("authMessage", fallback: nil) { runtime throws(ACPropertyAccessExceptionError) in try runtime.authMessage }
    }
    /// `pasteboardPolicy`; `.unauthorized` (and a misuse) before ready.
    public var pasteboardPolicy: ACPasteboardPolicy {
        gated("pasteboardPolicy", fallback: .unauthorized) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.pasteboardPolicy, or: .unauthorized)
        }
    }
    /// `openInPolicy`; `.unauthorized` (and a misuse) before ready.
    public var openInPolicy: ACOpenInPolicy {
        gated("openInPolicy", fallback: .unauthorized) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.openInPolicy, or: .unauthorized)
        }
    }
    /// `openInWhitelist` (`NSSet<NSString*> *`); empty (and a misuse) before ready.
    public var openInWhitelist: Set<String> {
        gated("openInWhitelist", fallback: []) { runtime throws(ACPropertyAccessExceptionError) in
            Set(try runtime.openInWhitelist.ids.map(\.rawValue))
        }
    }
    /// `openFromPolicy`; `.unauthorized` (and a misuse) before ready.
    public var openFromPolicy: ACOpenFromPolicy {
        gated("openFromPolicy", fallback: .unauthorized) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.openFromPolicy, or: .unauthorized)
        }
    }
    /// `openFromWhitelist` (`NSSet<NSString*> *`); empty (and a misuse) before ready.
    public var openFromWhitelist: Set<String> {
        gated("openFromWhitelist", fallback: []) { runtime throws(ACPropertyAccessExceptionError) in
            Set(try runtime.openFromWhitelist.ids.map(\.rawValue))
        }
    }
    /// `excludedAppleActivityTypes` (untyped `NSArray *` of the activity type strings); empty (and a misuse) before ready.
    public var excludedAppleActivityTypes: [Any] {
        gated("excludedAppleActivityTypes", fallback: []) { runtime throws(ACPropertyAccessExceptionError) in
            try runtime.excludedAppleActivityTypes.map { $0 as Any }
        }
    }
    /// `printPolicy`; `.unauthorized` (and a misuse) before ready.
    public var printPolicy: ACPrintPolicy {
        gated("printPolicy", fallback: .unauthorized) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.printPolicy, or: .unauthorized)
        }
    }
    /// `secureFileIOPolicy`; `.required` (and a misuse) before ready.
    public var secureFileIOPolicy: ACSecureFileIOPolicy {
        gated("secureFileIOPolicy", fallback: .required) { runtime throws(ACPropertyAccessExceptionError) in
            sdk(try runtime.secureFileIOPolicy, or: .required)
        }
    }
    /// `config` (`NSDictionary *`): the app-specific configuration; empty (and a misuse) before ready.
    public var config: [AnyHashable: Any] {
        gated("config", fallback: [:]) { runtime throws(ACPropertyAccessExceptionError) in
            sdkConfig(try runtime.config)
        }
    }
    /// `secureServicesAvailability`: readable at any time.
    public var secureServicesAvailability: ACSecureServicesAvailability {
        guard live("secureServicesAvailability") else { return .unavailable }
        return sdk(runtime.secureServicesAvailability, or: .unavailable)
    }

    // MARK: Acknowledgments

    private func acknowledge(_ kind: AcknowledgmentKind, _ state: ACPolicyState, _ message: String?) {
        guard live(kind.selector) else { return }
        do throws(AppConnectError) {
            try runtime.acknowledge(kind, runtimeValue(state, or: .error), message ?? "")
        } catch {
            world.misuse(kind.selector, error.description)
        }
    }

    /// `-authStateApplied:message:`; `.unsupported` is a misuse (every app supports every auth state).
    public func authStateApplied(_ policyState: ACPolicyState, message: String?) { acknowledge(.authState, policyState, message) }
    /// `-configApplied:message:`.
    public func configApplied(_ policyState: ACPolicyState, message: String?) { acknowledge(.config, policyState, message) }
    /// `-openInPolicyApplied:message:`.
    public func openInPolicyApplied(_ policyState: ACPolicyState, message: String?) { acknowledge(.openInPolicy, policyState, message) }
    /// `-openFromPolicyApplied:message:`.
    public func openFromPolicyApplied(_ policyState: ACPolicyState, message: String?) {
        acknowledge(.openFromPolicy, policyState, message)
    }
    /// `-pasteboardPolicyApplied:message:`.
    public func pasteboardPolicyApplied(_ policyState: ACPolicyState, message: String?) {
        acknowledge(.pasteboardPolicy, policyState, message)
    }
    /// `-printPolicyApplied:message:`.
    public func printPolicyApplied(_ policyState: ACPolicyState, message: String?) { acknowledge(.printPolicy, policyState, message) }
    /// `-secureFileIOPolicyApplied:message:`.
    public func secureFileIOPolicyApplied(_ policyState: ACPolicyState, message: String?) {
        acknowledge(.secureFileIOPolicy, policyState, message)
    }

    // MARK: Messages, keys, tunneling

    /// `-displayMessage:` (deprecated in the header): like ``displayMessage(_:withCompletion:)`` without completion.
    @available(*, deprecated, message: "Use -displayMessage:withCompletion: instead")
    public func displayMessage(_ message: String?) { displayMessage(message, withCompletion: nil) }

    /// `-displayMessage:withCompletion:`: the Ivanti client shows `message`; a `nil` message does nothing.
    ///
    /// The double records the message for the harness and calls `completion`
    /// with `true` when the Ivanti client is installed, `false` otherwise.
    public func displayMessage(_ message: String?, withCompletion completion: ((Bool) -> Void)? = nil) {
        guard live("displayMessage:withCompletion:"), let message else { return }
        world.displayed(message)
        completion?(runtime.device.ivantiClient == .installed)
    }

    /// `-derivedAppKeyWithIdentifier:error:`: a 32-byte key for this app and `identifier`.
    ///
    /// The double's key is a deterministic fake (the same app and identifier
    /// give the same bytes), never a real key.
    /// - Throws: an `NSError` in ``ACErrorDomain``: code ``ACErrorNoError`` when
    ///   secure services are unavailable (as the header documents), ``ACErrorInvalidArg``
    ///   for an empty identifier.
    public func derivedAppKey(withIdentifier identifier: String) throws -> ACSensitiveData {
        try derivedKey("derivedAppKeyWithIdentifier:error:", identifier, scope: "app " + world.appIdentifier)
    }

    /// `-derivedSharedKeyWithIdentifier:error:`: a 32-byte key every AppConnect app on the device derives alike.
    /// - Throws: as ``derivedAppKey(withIdentifier:)``.
    public func derivedSharedKey(withIdentifier identifier: String) throws -> ACSensitiveData {
        try derivedKey("derivedSharedKeyWithIdentifier:error:", identifier, scope: "shared")
    }

    /// `-derivedAppKey:withIndex:` (deprecated): fills `pKey`'s 32 bytes; returns `nil` or the error.
    @available(*, deprecated, message: "Use -derivedAppKeyWithIdentifier:error: instead")
    public func derivedAppKey(_ pKey: UnsafeMutablePointer<UInt8>, withIndex index: String) -> (any Error)? {
        fill(pKey) { try derivedAppKey(withIdentifier: index) }
    }

    /// `-derivedSharedKey:withIndex:` (deprecated): fills `pKey`'s 32 bytes; returns `nil` or the error.
    @available(*, deprecated, message: "Use -derivedSharedKeyWithIdentifier:error: instead")
    public func derivedSharedKey(_ pKey: UnsafeMutablePointer<UInt8>, withIndex index: String) -> (any Error)? {
        fill(pKey) { try derivedSharedKey(withIdentifier: index) }
    }

    private func fill(_ pKey: UnsafeMutablePointer<UInt8>, _ derive: () throws -> ACSensitiveData) -> (any Error)? {
        do {
            let key = try derive()
            for (offset, byte) in key.keyBytes.enumerated() { pKey[offset] = byte }
            return nil
        } catch {
            return error
        }
    }

    private func derivedKey(_ call: String, _ identifier: String, scope: String) throws -> ACSensitiveData {
        guard live(call) else { throw NSError(domain: ACErrorDomain, code: ACErrorInternal) }
        guard !identifier.isEmpty else { throw NSError(domain: ACErrorDomain, code: ACErrorInvalidArg) }
        guard runtime.secureServicesAvailability == .available else { throw NSError(domain: ACErrorDomain, code: ACErrorNoError) }
        return ACSensitiveData(fakeKeyFor: Array(scope.utf8) + [0] + Array(identifier.utf8))
    }

    /// `-(void)allowLocalCachingForTunneledRequests:(BOOL)flag` (AppTunnel): the double has no tunnel, so the
    /// call changes nothing; it is recorded, so a test can check what the app asked for.
    public func allowLocalCaching(forTunneledRequests flag: Bool) {
        guard live("allowLocalCachingForTunneledRequests:") else { return }
        world.allowedLocalCaching(flag)
    }

    /// `-enableAppExtensionSupport`: the double has no app extensions; the call does nothing.
    public func enableAppExtensionSupport() { _ = live("enableAppExtensionSupport") }
}

// MARK: Conversions between the runtime's types and the SDK's

/// The runtime's name for the exception its gated getters throw (it shares the SDK constant's name).
package typealias ACPropertyAccessExceptionError = AppConnectRuntime.ACPropertyAccessException

/// The SDK enum value with the runtime value's raw value (they share raw values by construction).
func sdk<From: RawRepresentable<Int>, To: RawRepresentable<Int>>(_ value: From, or fallback: To) -> To {
    To(rawValue: value.rawValue) ?? fallback
}

/// The runtime enum value with the SDK value's raw value.
func runtimeValue<From: RawRepresentable<Int>, To: RawRepresentable<Int>>(_ value: From, or fallback: To) -> To {
    To(rawValue: value.rawValue) ?? fallback
}

/// The runtime's `[String: String]` configuration as the SDK's `NSDictionary`.
func sdkConfig(_ config: [String: String]) -> [AnyHashable: Any] {
    var result: [AnyHashable: Any] = [:]
    for (key, value) in config { result[AnyHashable(key)] = value }
    return result
}
