import OpenInPolicy

/// The AppConnect library as an app sees it: start it, wait for ready, read
/// the policies, acknowledge changes, and make share requests it decides.
///
/// One instance is one run of the library, like the SDK's shared instance
/// between `initWithDelegate:` and `stop`: to restart the library, create a
/// new instance. The instance runs on a ``SimulatedDevice``, which a test
/// drives with server pushes and check-ins.
///
/// ```swift
/// let device = SimulatedDevice(server: ServerState(openInPolicy: .whitelist,
///                                                  openInWhitelist: Whitelist([try BundleID("com.example.viewer")])))
/// let appConnect = AppConnect(delegate: NotesApp(), device: device)
/// try appConnect.start(launchOptions: nil)      // not ready: properties throw ACPropertyAccessException
/// device.checkIn()                              // appConnectIsReady:, then every change callback
/// let decision = appConnect.share(try ShareRequest(channel: "document-interaction", target: "com.example.viewer"))
/// ```
///
/// Every method is safe to call from any thread or task. A share request is
/// decided against one consistent snapshot of the policy, whitelist and
/// config: a server update is either entirely visible to it or not at all.
public final class AppConnect: Sendable {
    /// The app's delegate; the runtime keeps it for the instance's life.
    public let delegate: any AppConnectDelegate
    /// The device the library runs on.
    public let device: SimulatedDevice
    /// The app's `MI_APP_CONNECT` Info.plist overrides.
    public let infoPlist: InfoPlistOverrides
    /// Facts about the app (its own URL schemes).
    public let app: AppFacts
    let id: Int

    /// Creates an instance for an AppConnect app (always in AppConnect Mode once ready).
    public convenience init(delegate: any AppConnectDelegate, device: SimulatedDevice,
                            infoPlist: InfoPlistOverrides = InfoPlistOverrides(), app: AppFacts = AppFacts()) {
        self.init(delegate: delegate, device: device, infoPlist: infoPlist, app: app, appConnectMode: true)
    }

    /// Creates an instance; a dual-mode app starts outside AppConnect Mode until its state says otherwise.
    init(delegate: any AppConnectDelegate, device: SimulatedDevice, infoPlist: InfoPlistOverrides, app: AppFacts,
         appConnectMode: Bool) {
        self.delegate = delegate
        self.device = device
        self.infoPlist = infoPlist
        self.app = app
        id = device.world.withLock { world in
            defer { world.nextInstanceID += 1 }
            return world.nextInstanceID
        }
        let instance = InstanceState(target: self, infoPlist: infoPlist, app: app, appConnectMode: appConnectMode)
        device.world.withLock { $0.instances[id] = instance }
    }

    // MARK: Lifecycle

    /// `+shouldStartAppConnect`: whether a dual-mode app should start the library.
    ///
    /// Yes when the Ivanti client is installed, or was installed and is now
    /// deleted and the app had run in AppConnect Mode (the library still knows
    /// the app as managed) (AppConnect for iOS SDK Developer Guide: Dual-mode API details).
    public static func shouldStartAppConnect(on device: SimulatedDevice) -> Bool {
        device.world.withLock { world in
            let answer = switch world.ivantiClient {
            case .installed: true
            case .notInstalled: false
            case .deleted: world.memory?.managedPolicy == .managed
            }
            world.record(.call(.shouldStartAppConnect(answer)))
            return answer
        }
    }

    /// `-startWithLaunchOptions:`: starts the library, not ready until the Ivanti client answers its check-in.
    /// - Parameter launchOptions: the app's launch options; `nil` when restarting the library.
    /// - Throws: ``AppConnectError/alreadyStarted`` or ``AppConnectError/anotherInstanceRunning``.
    public func start(launchOptions: [String: String]? = nil) throws(AppConnectError) {
        let call = "startWithLaunchOptions:"
        try device.world.withLock { world throws(AppConnectError) in
            guard world.instances[id]?.phase == .created else { throw world.refuse(call, .alreadyStarted) }
            if world.runningID != nil { throw world.refuse(call, .anotherInstanceRunning) }
            world.record(.call(.start(launchOptions: launchOptions)))
            world.instances[id]?.phase = .started
            world.running = self
        }
    }

    /// `-stop`: shuts the library down. The log level is ACLOGLEVEL_STATUS from now on; logging still works.
    /// - Throws: ``AppConnectError/notStarted(_:)`` or ``AppConnectError/stopped(_:)``.
    public func stop() throws(AppConnectError) {
        try device.world.withLock { world throws(AppConnectError) in
            try world.checkRunning(id, "stop")
            world.record(.call(.stop))
            world.instances[id]?.phase = .stopped
            world.running = nil
        }
    }

    /// `-retire`: the app retires itself.
    ///
    /// As AppConnectInterface.h's `-retire` says, the authState becomes
    /// ACAUTHSTATE_RETIRED with a message that the app retired itself
    /// (``ServerState/retiredMessage``), and every other policy returns to its
    /// default, which erases the app-specific config; as the AppConnect for
    /// iOS SDK Developer Guide (Dual-mode API details) says, the managed
    /// policy becomes ACMANAGEDPOLICY_UNKNOWN. The defaults are ours and fail
    /// closed: Open In, Open From, pasteboard and print UNAUTHORIZED, empty
    /// whitelists, no config (see ``ServerState``'s `retired()`), so a share
    /// made after `retire` is decided under them.
    ///
    /// Our choices where the sources are silent: no change callback is called
    /// (the app asked for it); the retired library takes no more values from
    /// the server or the device's AppConnect apps; the library forgets what it
    /// delivered, so the next start is like a first launch. A dual-mode app
    /// calls ``stop()`` right after.
    /// - Throws: ``AppConnectError/notStarted(_:)`` or ``AppConnectError/stopped(_:)``.
    public func retire() throws(AppConnectError) {
        try device.world.withLock { world throws(AppConnectError) in
            try world.checkRunning(id, "retire")
            world.record(.call(.retire))
            world.memory = nil
            guard var instance = world.instances[id] else { return }
            instance.retired = true
            instance.values = world.server.retired()
            world.instances[id] = instance
        }
    }

    /// `isReady`: whether the library called `appConnectIsReady:`; stays true for the life of the instance.
    public var isReady: Bool { device.world.withLock { $0.instances[id]?.becameReady ?? false } }

    /// Whether the library is started and not stopped.
    var isRunning: Bool {
        device.world.withLock { world in
            let phase = world.instances[id]?.phase
            return phase == .started || phase == .ready
        }
    }

    /// Whether the library enforces policy now: started, ready, not stopped, and in AppConnect Mode.
    public var isEnforcing: Bool { device.world.withLock { $0.isEnforcing(id) } }

    /// Sets whether a dual-mode app is in AppConnect Mode.
    func setAppConnectMode(_ on: Bool) { device.world.withLock { $0.instances[id]?.appConnectMode = on } }

    // MARK: Instance properties (AppConnect for iOS SDK Developer Guide: AppConnect ready API details: they throw before ready)

    /// `managedPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var managedPolicy: ACManagedPolicy { get throws(ACPropertyAccessException) { try read("managedPolicy", \.managedPolicy) } }
    /// `authState`. - Throws: ``ACPropertyAccessException`` before ready.
    public var authState: ACAuthState { get throws(ACPropertyAccessException) { try read("authState", \.authState) } }
    /// `authMessage`. - Throws: ``ACPropertyAccessException`` before ready.
    public var authMessage: String { get throws(ACPropertyAccessException) { try read("authMessage", \.authMessage) } }
    /// `pasteboardPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var pasteboardPolicy: ACPasteboardPolicy {
        get throws(ACPropertyAccessException) { try read("pasteboardPolicy", \.pasteboardPolicy) }
    }
    /// `openInPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var openInPolicy: OpenInStatus { get throws(ACPropertyAccessException) { try read("openInPolicy", \.openInPolicy) } }
    /// `openInWhitelist`. - Throws: ``ACPropertyAccessException`` before ready.
    public var openInWhitelist: Whitelist {
        get throws(ACPropertyAccessException) { try read("openInWhitelist", \.openInWhitelist) }
    }
    /// `openFromPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var openFromPolicy: ACOpenFromPolicy {
        get throws(ACPropertyAccessException) { try read("openFromPolicy", \.openFromPolicy) }
    }
    /// `openFromWhitelist`: the apps allowed to send documents to this app.
    /// - Throws: ``ACPropertyAccessException`` before ready.
    public var openFromWhitelist: Whitelist {
        get throws(ACPropertyAccessException) { try read("openFromWhitelist", \.openFromWhitelist) }
    }
    /// `excludedAppleActivityTypes`: the Apple activity types to exclude from
    /// `UIActivityViewController`, as the server sends them.
    /// - Throws: ``ACPropertyAccessException`` before ready.
    public var excludedAppleActivityTypes: [String] {
        get throws(ACPropertyAccessException) { try read("excludedAppleActivityTypes", \.excludedAppleActivityTypes) }
    }
    /// `printPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var printPolicy: ACPrintPolicy { get throws(ACPropertyAccessException) { try read("printPolicy", \.printPolicy) } }
    /// `secureFileIOPolicy`. - Throws: ``ACPropertyAccessException`` before ready.
    public var secureFileIOPolicy: ACSecureFileIOPolicy {
        get throws(ACPropertyAccessException) { try read("secureFileIOPolicy", \.secureFileIOPolicy) }
    }
    /// `config`: the app-specific configuration, an empty dictionary when none is set.
    /// - Throws: ``ACPropertyAccessException`` before ready.
    public var config: [String: String] { get throws(ACPropertyAccessException) { try read("config", \.config) } }

    /// `secureServicesAvailability`: readable at any time (AppConnect for iOS SDK Developer Guide: AppConnect ready API details).
    public var secureServicesAvailability: ACSecureServicesAvailability {
        device.world.withLock { $0.server.secureServicesAvailability }
    }

    /// `+logLevel`: readable at any time; ACLOGLEVEL_STATUS unless the library is ready.
    public var logLevel: ACLogLevel { device.world.withLock { $0.instances[id]?.logLevel ?? .status } }

    private func read<Value>(_ property: String, _ value: (ServerState) -> Value) throws(ACPropertyAccessException) -> Value {
        let result = device.world.withLock { world -> Result<Value, ACPropertyAccessException> in
            guard let instance = world.instances[id] else { return .failure(.init(property: property, reason: .notReady)) }
            switch instance.phase {
            case .ready: return .success(value(instance.values))
            case .stopped: return .failure(.init(property: property, reason: .stopped))
            case .created, .started: return .failure(.init(property: property, reason: .notReady))
            }
        }
        return try result.get()
    }

    // MARK: Acknowledgments (AppConnect for iOS SDK Developer Guide: AppConnect-related notifications)

    /// `-authStateApplied:message:`.
    /// - Throws: ``AppConnectError/authStateUnsupported`` for ACPOLICY_UNSUPPORTED (an app must
    ///   support authorization), or ``AppConnectError/stopped(_:)``; the server receives nothing then.
    public func authStateApplied(_ state: ACPolicyState, message: String) throws(AppConnectError) {
        try acknowledge(.authState, state, message)
    }

    /// `-configApplied:message:`.
    public func configApplied(_ state: ACPolicyState, message: String) { try? acknowledge(.config, state, message) }
    /// `-openInPolicyApplied:message:`.
    public func openInPolicyApplied(_ state: ACPolicyState, message: String) { try? acknowledge(.openInPolicy, state, message) }
    /// `-openFromPolicyApplied:message:`.
    public func openFromPolicyApplied(_ state: ACPolicyState, message: String) { try? acknowledge(.openFromPolicy, state, message) }
    /// `-pasteboardPolicyApplied:message:`.
    public func pasteboardPolicyApplied(_ state: ACPolicyState, message: String) {
        try? acknowledge(.pasteboardPolicy, state, message)
    }
    /// `-printPolicyApplied:message:`.
    public func printPolicyApplied(_ state: ACPolicyState, message: String) { try? acknowledge(.printPolicy, state, message) }
    /// `-secureFileIOPolicyApplied:message:`.
    public func secureFileIOPolicyApplied(_ state: ACPolicyState, message: String) {
        try? acknowledge(.secureFileIOPolicy, state, message)
    }

    /// Sends an acknowledgment of any kind: what the seven `…Applied(_:message:)` methods do.
    ///
    /// A refused acknowledgment is recorded in the device's timeline and never reaches the server.
    /// - Throws: ``AppConnectError/authStateUnsupported``, ``AppConnectError/notStarted(_:)`` or
    ///   ``AppConnectError/stopped(_:)``.
    public func acknowledge(_ kind: AcknowledgmentKind, _ state: ACPolicyState, _ message: String) throws(AppConnectError) {
        try device.world.withLock { world throws(AppConnectError) in
            try world.checkRunning(id, kind.selector)
            if kind == .authState && state == .unsupported { throw world.refuse(kind.selector, .authStateUnsupported) }
            world.receive(Acknowledgment(kind, state, message: message))
        }
    }

    // MARK: Logging

    /// `+logAtLevel:format:`: logs when `level` is at most the current ``logLevel``; works after ``stop()``.
    public func log(_ level: ACLogLevel, _ message: String) {
        device.world.withLock { world in
            let current = world.instances[id]?.logLevel ?? .status
            world.record(.log(level, message, logged: level <= current))
        }
    }

    // MARK: Sharing

    /// Decides a share request against the current policy, and calls the
    /// delegate's blocked-attempt callback when the decision names one (only if
    /// the app implements it).
    ///
    /// Not enforcing (not started, not ready yet, stopped, or not in AppConnect
    /// Mode) means every request is allowed (Rules/enforcement-off.md).
    public func share(_ request: ShareRequest) -> Decision {
        let (decision, drain) = device.world.withLock { world -> (Decision, Bool) in
            let decision = Evaluator(policy: world.policy(for: id)).decide(request)
            world.record(.share(request, decision))
            return (decision, world.enqueue(decision.callbacks.map(DelegateCallback.init), for: id))
        }
        if drain { device.deliverQueued() }
        return decision
    }

    /// The policy a share request made now is decided under: one consistent
    /// snapshot of the library's values, the device's facts and this app's.
    public var currentPolicy: Policy { device.world.withLock { $0.policy(for: id) } }

    /// The user copies to the pasteboard: a `copy` request, decided by the
    /// evaluator like any share (Rules/copy-and-print.md), with its callback
    /// delivered the same way.
    ///
    /// `blocked` under ACPASTEBOARDPOLICY_UNAUTHORIZED, with
    /// `appConnect:copyAttemptedWhenUnauthorized:`; `allowed` under AUTHORIZED
    /// (or when not enforcing); under SECURECOPY `secure-copy`, or `failed`
    /// (nothing copied, no callback) while secure services are unavailable
    /// (AppConnectInterface.h, `-appConnect:secureServicesAvailabilityChangedTo:`:
    /// "When secure services are not available, writing to the general
    /// pasteboard will fail").
    public func copyToPasteboard() -> CopyOutcome {
        let (outcome, drain) = device.world.withLock { world -> (CopyOutcome, Bool) in
            // A copy names no app: it cannot fail to build.
            let request = try! ShareRequest(channel: .copy)
            let decision = Evaluator(policy: world.policy(for: id)).decide(request)
            let outcome = CopyOutcome(decision)
            world.record(.copy(outcome, decision))
            return (outcome, world.enqueue(decision.callbacks.map(DelegateCallback.init), for: id))
        }
        if drain { device.deliverQueued() }
        return outcome
    }
}

extension CopyOutcome {
    /// What the user sees of a `copy` decision.
    init(_ decision: Decision) {
        switch decision.outcome {
        case .allow: self = decision.audience == .appConnectApps ? .secureCopy : .allowed
        case .redirect, .substituteDummyFile, .deny, .deliverEncrypted:
            // Refused with the copy callback (UNAUTHORIZED), or silently (secure copy without secure services).
            self = decision.callbacks.isEmpty ? .failed : .blocked
        }
    }
}

extension DelegateCallback {
    /// The delegate callback for an engine decision's callback.
    init(_ callback: Callback) {
        switch callback {
        case .openInAttemptedWhenBlocked(let policy): self = .openInAttemptedWhenBlocked(policy)
        case .openURLAttemptedWhenUnauthorized(let url): self = .openURLAttemptedWhenUnauthorized(url)
        case .dragAndDropToNonAppConnectApp: self = .dragAndDropToNonAppConnectApp
        case .copyAttemptedWhenUnauthorized(let policy): self = .copyAttemptedWhenUnauthorized(ACPasteboardPolicy(policy))
        case .openFromAttemptedWhenBlocked(let status, let source):
            self = .openFromAttemptedWhenBlocked(ACOpenFromPolicy(status), sourceApplication: source)
        }
    }
}

extension ACPasteboardPolicy {
    /// The runtime's value for the engine's.
    init(_ policy: PasteboardPolicy) {
        switch policy {
        case .unauthorized: self = .unauthorized
        case .authorized: self = .authorized
        case .secureCopy: self = .secureCopy
        }
    }

    /// The engine's value for the runtime's.
    var engineValue: PasteboardPolicy {
        switch self {
        case .unauthorized: .unauthorized
        case .authorized: .authorized
        case .secureCopy: .secureCopy
        }
    }
}

extension ACOpenFromPolicy {
    /// The runtime's value for the engine's.
    init(_ status: OpenFromStatus) {
        switch status {
        case .unauthorized: self = .unauthorized
        case .authorized: self = .authorized
        case .whitelist: self = .whitelist
        }
    }

    /// The engine's value for the runtime's.
    var engineValue: OpenFromStatus {
        switch self {
        case .unauthorized: .unauthorized
        case .authorized: .authorized
        case .whitelist: .whitelist
        }
    }
}

extension ACPrintPolicy {
    /// The engine's value for the runtime's.
    var engineValue: PrintPolicy {
        switch self {
        case .unauthorized: .unauthorized
        case .authorized: .authorized
        }
    }
}

extension World {
    /// Whether instance `id` enforces: ready (so started and not stopped) and in AppConnect Mode.
    func isEnforcing(_ id: Int) -> Bool {
        guard let instance = instances[id] else { return false }
        return instance.phase == .ready && instance.appConnectMode
    }

    /// The engine's policy for instance `id` now.
    ///
    /// Every control comes from the library's values: Open In, Open From
    /// ("All AppConnect apps" as the engine's own setting, so its whitelist is
    /// the device's AppConnect apps, the ones the library follows), pasteboard,
    /// print, `excludedAppleActivityTypes` and the Web DLP setting; the device's
    /// secure services and Web@Work come from the device as they are now.
    ///
    /// Between `start` and the ready callback an app in AppConnect Mode holds no
    /// policy yet; the runtime fails closed and decides as UNAUTHORIZED — Open
    /// In, Open From, pasteboard and print — with empty whitelists and config
    /// until the library is ready (our choice: the guide says only that the
    /// properties cannot be read before ready).
    func policy(for id: Int) -> Policy {
        let instance = instances[id]
        var device = facts
        device.secureServicesAvailable = server.secureServicesAvailability == .available
        if let instance, instance.phase == .started, instance.appConnectMode {
            var policy = Policy(status: .unauthorized, infoPlist: instance.infoPlist, device: device, app: instance.app, enforcing: true)
            policy.openFrom = OpenFromPolicy(status: .unauthorized)
            policy.pasteboard = .unauthorized
            policy.print = .unauthorized
            return policy
        }
        let values = instance?.values ?? ServerState()
        var policy = Policy(
            status: values.openInPolicy,
            whitelist: values.openInWhitelist,
            config: AppConfig(values.config),
            infoPlist: instance?.infoPlist ?? InfoPlistOverrides(),
            device: device,
            app: instance?.app ?? AppFacts(),
            dragAndDrop: values.dragAndDropPolicy,
            enforcing: isEnforcing(id))
        policy.openFrom = values.openFromAllAppConnectApps
            ? OpenFromPolicy(.allAppConnectApps)
            : OpenFromPolicy(status: values.openFromPolicy.engineValue, whitelist: values.openFromWhitelist)
        policy.pasteboard = values.pasteboardPolicy.engineValue
        policy.print = values.printPolicy.engineValue
        policy.webDLP = values.webDLP
        // A string that is no bundle ID can equal no request's target: leaving it out changes no decision.
        policy.excludedActivityTypes = values.excludedAppleActivityTypes.compactMap { try? BundleID($0) }
        return policy
    }

    /// Records a refused call and returns the error to throw.
    mutating func refuse(_ call: String, _ error: AppConnectError) -> AppConnectError {
        record(.refused(call, error))
        return error
    }

    /// Throws (and records) unless instance `id` is started and not stopped.
    mutating func checkRunning(_ id: Int, _ call: String) throws(AppConnectError) {
        switch instances[id]?.phase {
        case .started, .ready: return
        case .stopped: throw refuse(call, .stopped(call))
        case .created, nil: throw refuse(call, .notStarted(call))
        }
    }
}
