/// The dual-mode state of the AppConnect for iOS SDK Developer Guide: Dual-mode API details: whether the app behaves as an AppConnect app or a regular one.
public enum DualModeState: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// First launch, nothing persisted yet: the choice is not made.
    case undecided
    /// The library could not be started (no Ivanti client): the app runs as a regular app and decides later.
    case appConnectNotAvailable = "appconnect-not-available"
    /// The user asked for AppConnect Mode; the app waits for the managed policy.
    case pendingAppConnectMode = "pending-appconnect-mode"
    /// The app is managed and behaves as an AppConnect app.
    case appConnectMode = "appconnect-mode"
    /// The app behaves as a regular app and does not start the library.
    case nonAppConnectMode = "non-appconnect-mode"

    /// The state's name in AppConnect for iOS SDK Developer Guide: Dual-mode API details: `Undecided`, `AppConnect Not Available`, `Pending AppConnect Mode`, …
    public var description: String {
        switch self {
        case .undecided: "Undecided"
        case .appConnectNotAvailable: "AppConnect Not Available"
        case .pendingAppConnectMode: "Pending AppConnect Mode"
        case .appConnectMode: "AppConnect Mode"
        case .nonAppConnectMode: "Non-AppConnect Mode"
        }
    }
}

/// The data encryption state a dual-mode app persists next to its dual-mode state.
public enum DataEncryptionState: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// The app's data is not encrypted (regular apps, and the first launch).
    case unencrypted
    /// The app uses secure file I/O.
    case encrypted

    /// `Unencrypted` or `Encrypted`.
    public var description: String { self == .encrypted ? "Encrypted" : "Unencrypted" }
}

/// What a dual-mode app persists across launches.
public struct DualModeRecord: Sendable, Hashable, Codable {
    /// The dual-mode state.
    public var state: DualModeState
    /// The data encryption state.
    public var dataEncryption: DataEncryptionState

    /// Creates a record; the defaults are the first launch's (step 1 of the launch sequence).
    public init(state: DualModeState = .undecided, dataEncryption: DataEncryptionState = .unencrypted) {
        self.state = state
        self.dataEncryption = dataEncryption
    }
}

/// What a dual-mode app does about its mode, as the call sequences of the AppConnect for iOS SDK Developer Guide: Dual-mode API details describe it.
public enum DualModeEvent: Sendable, Hashable {
    /// Launch step 1: the persisted states, or the first launch's defaults when `persisted` is false.
    case loaded(DualModeRecord, persisted: Bool)
    /// The dual-mode state changes and is persisted.
    case stateChanged(DualModeState)
    /// The data encryption state changes and is persisted.
    case dataEncryptionChanged(DataEncryptionState)
    /// The app performs its retire actions: it removes its sensitive data.
    case retireActions
    /// The user asks for a mode (AppConnect Mode or Non-AppConnect Mode).
    case switchRequested(DualModeState)
    /// The request cannot be carried out now (the reason says why); nothing changes.
    case switchIgnored(String)
    /// The app tells the user how a request for AppConnect Mode ended.
    case switchFinished(DualModeState, succeeded: Bool)
    /// Persisting failed: the app goes on with the state in memory.
    case storeFailed(DualModeStoreError)
}
