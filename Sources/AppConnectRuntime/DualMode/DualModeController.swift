import OpenInPolicy

/// A dual-mode app's handling of its mode: the three call sequences of
/// AppConnect for iOS SDK Developer Guide: Dual-mode API details (launch; the user asks for Non-AppConnect Mode; the user asks
/// for AppConnect Mode), with the dual-mode and data encryption states
/// persisted in a ``DualModeStore``.
///
/// The controller starts and stops the library for the app and is the
/// library's delegate: it handles `appConnect:managedPolicyChangedTo:` itself
/// (and passes it on to the app's delegate when that implements it), and
/// passes every other callback to the app's delegate unchanged, so what the
/// app does not implement is acknowledged ACPOLICY_UNSUPPORTED as usual.
///
/// ```swift
/// let controller = DualModeController(device: device, store: FileDualModeStore(path: statePath), delegate: app)
/// try controller.launch(launchOptions: options)   // Undecided → starts the library if shouldStartAppConnect
/// device.checkIn()                                 // MANAGED → AppConnect Mode, persisted
/// try controller.requestNonAppConnectMode()        // retire actions, Unencrypted, Non-AppConnect Mode, retire + stop
/// ```
///
/// Outside AppConnect Mode nothing is enforced: ``share(_:)`` allows every
/// request. Mode changes are user actions; make them one at a time.
public final class DualModeController: Sendable {
    /// The device the app runs on.
    public let device: SimulatedDevice
    /// Where the states are persisted.
    public let store: any DualModeStore
    /// The app's own delegate, which receives the library's callbacks.
    public let delegate: any AppConnectDelegate
    /// The app's Info.plist overrides.
    public let infoPlist: InfoPlistOverrides
    /// Facts about the app.
    public let app: AppFacts
    private let onEvent: (@Sendable (DualModeEvent) -> Void)?
    private let current: Locked<Current>

    private struct Current {
        var record = DualModeRecord()
        /// The library the app last created; it decides share requests even when not started or stopped.
        var library: AppConnect?
        /// Whether the user asked for AppConnect Mode and waits to hear how it ended.
        var switching = false
    }

    /// Creates a controller; nothing happens until ``launch(launchOptions:)``.
    /// - Parameters:
    ///   - device: the simulated device the app runs on.
    ///   - store: where the dual-mode and data encryption states persist.
    ///   - delegate: the app's delegate, which receives every callback but
    ///     `appConnect:managedPolicyChangedTo:`.
    ///   - infoPlist: the app's Info.plist overrides.
    ///   - app: the app's facts (its own URL schemes).
    ///   - onEvent: called for every ``DualModeEvent`` (the app removes
    ///     its sensitive data on ``DualModeEvent/retireActions``, encrypts its data
    ///     on ``DualModeEvent/dataEncryptionChanged(_:)``, tells the user on
    ///     ``DualModeEvent/switchFinished(_:succeeded:)``).
    public init(device: SimulatedDevice, store: any DualModeStore, delegate: any AppConnectDelegate,
                infoPlist: InfoPlistOverrides = InfoPlistOverrides(), app: AppFacts = AppFacts(),
                onEvent: (@Sendable (DualModeEvent) -> Void)? = nil) {
        self.device = device
        self.store = store
        self.delegate = delegate
        self.infoPlist = infoPlist
        self.app = app
        self.onEvent = onEvent
        current = Locked(Current())
    }

    /// The dual-mode state.
    public var state: DualModeState { current.withLock { $0.record.state } }
    /// The data encryption state.
    public var dataEncryption: DataEncryptionState { current.withLock { $0.record.dataEncryption } }
    /// Whether the app uses secure file I/O: in AppConnect Mode with its data Encrypted.
    public var usesSecureFileIO: Bool { current.withLock { $0.record.state == .appConnectMode && $0.record.dataEncryption == .encrypted } }
    /// The running library (started and not stopped), or `nil`.
    public var appConnect: AppConnect? {
        guard let library = current.withLock({ $0.library }), library.isRunning else { return nil }
        return library
    }
    /// The library the app created last, running or not (scenario reads go to it).
    var lastLibrary: AppConnect? { current.withLock { $0.library } }

    /// Whether policy is enforced now: the library is ready and the app is in AppConnect Mode.
    public var isEnforcing: Bool { current.withLock { $0.library }?.isEnforcing ?? false }

    // MARK: The three call sequences

    /// The launch sequence (AppConnect for iOS SDK Developer Guide: Dual-mode API details, "API call sequence when the app launches").
    ///
    /// 1. Load the persisted states; on the first launch, Undecided and Unencrypted.
    /// 2. Unless in Non-AppConnect Mode, start the library if `shouldStartAppConnect`
    ///    says so; otherwise, from Undecided, change to AppConnect Not Available.
    /// 3. Not started: continue as a regular app.
    /// 4. Started in AppConnect Mode: wait for ready, then enforce (secure file I/O when Encrypted).
    /// 5. Started in another state: wait for `appConnect:managedPolicyChangedTo:`
    ///    (MANAGED → AppConnect Mode; UNMANAGED → Non-AppConnect Mode, retire, stop).
    /// - Throws: ``DualModeStoreError`` when the persisted states cannot be read (nothing is started then).
    public func launch(launchOptions: [String: String]? = nil) throws(DualModeStoreError) {
        let loaded = try store.load()
        let record = loaded ?? DualModeRecord()
        current.withLock { $0 = Current(record: record) }
        report(.loaded(record, persisted: loaded != nil))

        let library = makeLibrary(appConnectMode: record.state == .appConnectMode)
        if record.state != .nonAppConnectMode && AppConnect.shouldStartAppConnect(on: device) {
            try? library.start(launchOptions: launchOptions)
        } else if record.state == .undecided {
            setState(.appConnectNotAvailable)
        }
    }

    /// The user asks for Non-AppConnect Mode (AppConnect for iOS SDK Developer Guide: Dual-mode API details, "API call sequence
    /// when user requests Non-AppConnect Mode"): retire actions, Unencrypted
    /// (persisted), Non-AppConnect Mode (persisted), then `retire` and `stop`
    /// on the running library.
    public func requestNonAppConnectMode() {
        report(.switchRequested(.nonAppConnectMode))
        report(.retireActions)
        setDataEncryption(.unencrypted)
        setState(.nonAppConnectMode)
        current.withLock { $0.switching = false }
        if let library = appConnect {
            library.setAppConnectMode(false)
            try? library.retire()
            try? library.stop()
        }
    }

    /// The user asks for AppConnect Mode (AppConnect for iOS SDK Developer Guide: Dual-mode API details, "API call sequence when
    /// user requests AppConnect Mode"): Pending AppConnect Mode (persisted),
    /// then the library restarts with `nil` launch options and the app waits
    /// for `appConnect:managedPolicyChangedTo:`.
    ///
    /// Ignored (with a ``DualModeEvent/switchIgnored(_:)``) while the library runs.
    public func requestAppConnectMode() {
        report(.switchRequested(.appConnectMode))
        if appConnect != nil {
            report(.switchIgnored("the library is running: the app is in \(state) already"))
            return
        }
        setState(.pendingAppConnectMode)
        current.withLock { $0.switching = true }
        try? makeLibrary(appConnectMode: false).start(launchOptions: nil)
    }

    /// Decides a share request: enforced only in AppConnect Mode with the library ready.
    public func share(_ request: ShareRequest) -> Decision {
        let library = current.withLock { $0.library } ?? makeLibrary(appConnectMode: false)
        return library.share(request)
    }

    /// The user copies to the pasteboard: enforced only in AppConnect Mode with the library ready.
    public func copyToPasteboard() -> CopyOutcome {
        let library = current.withLock { $0.library } ?? makeLibrary(appConnectMode: false)
        return library.copyToPasteboard()
    }

    // MARK: Callbacks

    /// `appConnect:managedPolicyChangedTo:` while undecided, unavailable or pending (launch step 5, and the AppConnect Mode request).
    fileprivate func managedPolicyChanged(_ appConnect: AppConnect, to policy: ACManagedPolicy) {
        let (state, switching) = current.withLock { ($0.record.state, $0.switching) }
        guard [.undecided, .appConnectNotAvailable, .pendingAppConnectMode].contains(state) else { return }
        switch policy {
        case .managed:
            setState(.appConnectMode)
            appConnect.setAppConnectMode(true)
            updateDataEncryption(appConnect)
            if (try? appConnect.authState) == .retired { report(.retireActions) }
            finishSwitch(switching, .appConnectMode, succeeded: true)
        case .unmanaged:
            setState(.nonAppConnectMode)
            try? appConnect.retire()
            try? appConnect.stop()
            finishSwitch(switching, .nonAppConnectMode, succeeded: false)
        case .unknown:
            break
        }
    }

    /// In AppConnect Mode: Encrypted once secure services are available and secure file I/O is required.
    fileprivate func updateDataEncryption(_ appConnect: AppConnect) {
        guard state == .appConnectMode, dataEncryption == .unencrypted,
              appConnect.secureServicesAvailability == .available,
              (try? appConnect.secureFileIOPolicy) == .required else { return }
        setDataEncryption(.encrypted)
    }

    // MARK: Helpers

    private func makeLibrary(appConnectMode: Bool) -> AppConnect {
        let library = AppConnect(delegate: DualModeDelegate(controller: self, app: delegate), device: device,
                                 infoPlist: infoPlist, app: app, appConnectMode: appConnectMode)
        current.withLock { $0.library = library }
        return library
    }

    private func finishSwitch(_ switching: Bool, _ state: DualModeState, succeeded: Bool) {
        guard switching else { return }
        current.withLock { $0.switching = false }
        report(.switchFinished(state, succeeded: succeeded))
    }

    private func setState(_ state: DualModeState) {
        let record = current.withLock { current -> DualModeRecord in
            current.record.state = state
            return current.record
        }
        report(.stateChanged(state))
        persist(record)
    }

    private func setDataEncryption(_ encryption: DataEncryptionState) {
        let record = current.withLock { current -> DualModeRecord in
            current.record.dataEncryption = encryption
            return current.record
        }
        report(.dataEncryptionChanged(encryption))
        persist(record)
    }

    private func persist(_ record: DualModeRecord) {
        do throws(DualModeStoreError) {
            try store.save(record)
        } catch {
            report(.storeFailed(error))
        }
    }

    private func report(_ event: DualModeEvent) {
        device.record(.dualMode(event))
        onEvent?(event)
    }
}

/// The library's delegate for a dual-mode app: the controller's handling, then the app's delegate.
///
/// Unchecked: `controller` is weak (the device keeps libraries, and so this
/// delegate, after the controller is gone) and is only written in `init`;
/// loading a weak reference is thread-safe.
private final class DualModeDelegate: AppConnectDelegate, @unchecked Sendable {
    private(set) weak var controller: DualModeController?
    let app: any AppConnectDelegate

    init(controller: DualModeController, app: any AppConnectDelegate) {
        self.controller = controller
        self.app = app
    }

    func appConnectIsReady(_ appConnect: AppConnect) { app.appConnectIsReady(appConnect) }
    func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String) {
        app.appConnect(appConnect, authStateChangedTo: newAuthState, withMessage: message)
    }
    func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        controller?.managedPolicyChanged(appConnect, to: newManagedPolicy)
        // The controller implements this callback; the app hears it too if it implements it.
        _ = DeliveryProbe.isImplemented { app.appConnect(appConnect, managedPolicyChangedTo: newManagedPolicy) }
    }
    func appConnect(_ appConnect: AppConnect, configChangedTo newConfig: [String: String]) {
        app.appConnect(appConnect, configChangedTo: newConfig)
    }
    func appConnect(_ appConnect: AppConnect, openInPolicyChangedTo newOpenInPolicy: OpenInStatus, whitelist newWhitelist: Whitelist) {
        app.appConnect(appConnect, openInPolicyChangedTo: newOpenInPolicy, whitelist: newWhitelist)
    }
    func appConnect(_ appConnect: AppConnect, openInAttemptedWhenACOpenInPolicyBlocked openInPolicy: OpenInStatus) {
        app.appConnect(appConnect, openInAttemptedWhenACOpenInPolicyBlocked: openInPolicy)
    }
    func appConnect(_ appConnect: AppConnect, openFromPolicyChangedTo newOpenFromPolicy: ACOpenFromPolicy, whitelist newWhitelist: Whitelist) {
        app.appConnect(appConnect, openFromPolicyChangedTo: newOpenFromPolicy, whitelist: newWhitelist)
    }
    func appConnect(_ appConnect: AppConnect, openFromAttemptedWhenACOpenFromPolicyBlocked openFromPolicy: ACOpenFromPolicy,
                    sourceApplication: BundleID?) {
        app.appConnect(appConnect, openFromAttemptedWhenACOpenFromPolicyBlocked: openFromPolicy, sourceApplication: sourceApplication)
    }
    func appConnect(_ appConnect: AppConnect, openURLAttemptedWhenUnauthorizedForURL url: ShareURL) {
        app.appConnect(appConnect, openURLAttemptedWhenUnauthorizedForURL: url)
    }
    func appConnectAttemptedDragAndDropToNonAppConnectApp(_ appConnect: AppConnect) {
        app.appConnectAttemptedDragAndDropToNonAppConnectApp(appConnect)
    }
    func appConnect(_ appConnect: AppConnect, pasteboardPolicyChangedTo newPasteboardPolicy: ACPasteboardPolicy) {
        app.appConnect(appConnect, pasteboardPolicyChangedTo: newPasteboardPolicy)
    }
    func appConnect(_ appConnect: AppConnect, copyAttemptedWhenUnauthorized pasteboardPolicy: ACPasteboardPolicy) {
        app.appConnect(appConnect, copyAttemptedWhenUnauthorized: pasteboardPolicy)
    }
    func appConnect(_ appConnect: AppConnect, printPolicyChangedTo newPrintPolicy: ACPrintPolicy) {
        app.appConnect(appConnect, printPolicyChangedTo: newPrintPolicy)
    }
    func appConnect(_ appConnect: AppConnect, secureServicesAvailabilityChangedTo availability: ACSecureServicesAvailability) {
        controller?.updateDataEncryption(appConnect)
        app.appConnect(appConnect, secureServicesAvailabilityChangedTo: availability)
    }
    func appConnect(_ appConnect: AppConnect, secureFileIOPolicyChangedTo newSecureFileIOPolicy: ACSecureFileIOPolicy) {
        controller?.updateDataEncryption(appConnect)
        app.appConnect(appConnect, secureFileIOPolicyChangedTo: newSecureFileIOPolicy)
    }
    func appConnect(_ appConnect: AppConnect, logLevelChangedTo newLogLevel: ACLogLevel) {
        app.appConnect(appConnect, logLevelChangedTo: newLogLevel)
    }
    func applicationWillResignActive(forAppConnect appConnect: AppConnect) { app.applicationWillResignActive(forAppConnect: appConnect) }
    func applicationDidBecomeActive(fromAppConnect appConnect: AppConnect) { app.applicationDidBecomeActive(fromAppConnect: appConnect) }
}
