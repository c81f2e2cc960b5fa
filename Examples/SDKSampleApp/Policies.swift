// The dual-mode part of a sample app, transliterated statement by statement
// from the Objective-C of the AppConnect for iOS SDK Developer Guide: Dual-mode
// API details (the sample's Policies.m: -initPrivateWithLaunchOptions:,
// -appConnect:managedPolicyChangedTo:, -switchToNonACMode:, -attemptSwitchToACMode:).
// Comments quote the guide's steps; each Swift statement is one of its statements.
import AppConnect
import Foundation

/// The app's dual-mode state (the guide's `DMS_…` values).
public enum DualModeState: String, Sendable {
    /// `DMS_Undecided`: first launch, nothing persisted.
    case undecided
    /// `DMS_ACNotAvailable`: the library was not started; decide at a later launch.
    case acNotAvailable
    /// `DMS_PendingACMode`: the user asked for AppConnect Mode; waiting for the managed policy.
    case pendingACMode
    /// `DMS_ACMode`: AppConnect Mode.
    case acMode
    /// `DMS_NonACMode`: Non-AppConnect Mode; the library is never started.
    case nonACMode
}

/// Where the app persists its states (`NSUserDefaults` in the guide's sample).
public protocol DualModeStateStore: AnyObject {
    /// The persisted dual-mode state, nil before the first launch persisted one.
    var dualModeState: DualModeState? { get set }
    /// The persisted data encryption state.
    var encrypted: Bool { get set }
}

/// The dual-mode controller: starts AppConnect or not, and switches modes.
public final class Policies: NSObject, AppConnectDelegate {
    private let store: DualModeStateStore
    private var _state: DualModeState
    private var _encrypted: Bool
    private var _ac: AppConnect?
    /// What the app told the user.
    public private(set) var notices: [String] = []
    /// Whether the app removed its sensitive data (retire actions).
    public private(set) var retiredData = false

    /// The current dual-mode state.
    public var state: DualModeState { _state }
    /// Whether the app encrypts its data with secure file I/O.
    public var encrypted: Bool { _encrypted }
    /// The running library, if started.
    public var appConnect: AppConnect? { _ac }

    /// `-initPrivateWithLaunchOptions:`.
    public init(launchOptions: [AnyHashable: Any]?, store: DualModeStateStore) {
        self.store = store
        // 1. Gets its persisted dual-mode state and data encryption state. On the first launch, because no
        //    persisted states exist, the app sets the dual-mode state to Undecided and the encryption state to Unencrypted.
        _state = store.dualModeState ?? .undecided
        _encrypted = store.encrypted
        super.init()
        // 2. Determines whether to start the AppConnect library.
        // Do not start the AppConnect library when the dual-mode state is Non-AppConnect Mode.
        // Otherwise, start it only if shouldStartAppConnect() says you should.
        if .nonACMode != _state && AppConnect.shouldStartAppConnect() {
            AppConnect.initWith(self)
            _ac = AppConnect.sharedInstance()
            _ac?.start(launchOptions: launchOptions)
        } else if .undecided == _state {
            // Change the state to AppConnect Not Available.
            // Persistently store the state, and continue as a regular app
            setState(.acNotAvailable)
        }
    }

    private func setState(_ state: DualModeState) {
        _state = state
        store.dualModeState = state
    }

    private func setEncrypted(_ encrypted: Bool) {
        _encrypted = encrypted
        store.encrypted = encrypted
    }

    private func performRetireActions() {
        retiredData = true
    }

    // MARK: AppConnectDelegate

    public func appConnectIsReady(_ appConnect: AppConnect) {}

    public func appConnect(_ appConnect: AppConnect, authStateChangedTo newAuthState: ACAuthState, withMessage message: String?) {
        if newAuthState == .retired { performRetireActions() }
        appConnect.authStateApplied(.applied, message: nil)
    }

    /// `-appConnect:managedPolicyChangedTo:`.
    public func appConnect(_ appConnect: AppConnect, managedPolicyChangedTo newManagedPolicy: ACManagedPolicy) {
        if newManagedPolicy == .managed {
            if .acMode != _state {
                let wasPending = .pendingACMode == _state
                // The app changes its dual-mode state to AppConnect Mode. The app persistently stores the state.
                setState(.acMode)
                // If secure services are available, and the secure file I/O policy is required, the app sets the
                // data encryption state to Encrypted.
                if appConnect.secureServicesAvailability == .available && appConnect.secureFileIOPolicy == .required {
                    setEncrypted(true)
                }
                // Also, when changing to AppConnect Mode, the app checks if the authorization status is retired.
                if appConnect.authState == .retired {
                    performRetireActions()
                }
                // Finally, the app notifies the user of the successful change to AppConnect Mode.
                if wasPending { notices.append("Now in AppConnect Mode") }
            }
        } else if newManagedPolicy == .unmanaged {
            let wasPending = .pendingACMode == _state
            // The app changes to Non-AppConnect Mode, and persistently stores the new dual-mode state.
            setState(.nonACMode)
            // It calls -retire, and then stops the AppConnect library:
            _ac?.retire()
            _ac?.stop()
            _ac = nil
            // The app notifies the user of the failure to change to AppConnect Mode.
            if wasPending { notices.append("AppConnect Mode is not available") }
        }
    }

    /// `-switchToNonACMode:`: the user asks for Non-AppConnect Mode.
    public func switchToNonACMode() {
        // 1. Performs its usual retire actions.
        performRetireActions()
        // 2. Sets the data encryption state to Unencrypted. It persistently saves the state.
        setEncrypted(false)
        // 3. Persistently saves its dual-mode state as Non-AppConnect Mode.
        setState(.nonACMode)
        // 4. Calls the -retire method on the AppConnect singleton object, and then stops the AppConnect library.
        _ac?.retire()
        _ac?.stop()
        _ac = nil
    }

    /// `-attemptSwitchToACMode:`: the user asks for AppConnect Mode.
    public func attemptSwitchToACMode() {
        // 1. Changes to the Pending AppConnect Mode state, and persistently stores the state.
        setState(.pendingACMode)
        // 2. Starts the AppConnect library, using -startWithLaunchOptions:.
        AppConnect.initWith(self)
        _ac = AppConnect.sharedInstance()
        _ac?.start(launchOptions: nil)
        // 3. Waits for the AppConnect library to call -appConnect:managedPolicyChangedTo:.
    }
}
