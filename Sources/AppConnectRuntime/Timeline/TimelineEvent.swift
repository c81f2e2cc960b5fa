import OpenInPolicy

/// One thing that happened between the server, the device, the library and the app.
///
/// A ``SimulatedDevice`` records these in order; a ``Timeline`` ties them to
/// scenario lines and renders them as text or JSON.
public enum TimelineEvent: Sendable, Hashable {
    /// The app process starts: launch number `n` on this device.
    case launch(Int)
    /// The app process ends without stopping the library.
    case quit
    /// The server changes a value.
    case server(ServerChange)
    /// Something changes on the device.
    case device(DeviceEvent)
    /// The app calls the library.
    case call(LibraryCall)
    /// The Ivanti client answers the library's check-in; `answered` is false when no started library waited.
    case checkIn(answered: Bool)
    /// The library calls the app's delegate; `implemented` is false when the app does not implement the method.
    case callback(DelegateCallback, implemented: Bool)
    /// The server receives an acknowledgment.
    case acknowledgment(Acknowledgment)
    /// The runtime refused a call (the call's selector, and why).
    case refused(String, AppConnectError)
    /// The app reads an instance property: its value as text, or the exception.
    case read(AppConnectProperty, Result<String, ACPropertyAccessException>)
    /// A share request and the decision on it.
    case share(ShareRequest, Decision)
    /// The user copies to the pasteboard: what happened, and the evaluator's decision on the `copy` request.
    case copy(CopyOutcome, Decision)
    /// The app logs a message; `logged` is false when the current level filters it out.
    case log(ACLogLevel, String, logged: Bool)
    /// A dual-mode app acts on its dual-mode state.
    case dualMode(DualModeEvent)
}

/// A call the app makes on the library (acknowledgments and reads have their own events).
public enum LibraryCall: Sendable, Hashable {
    /// `+shouldStartAppConnect`, with its answer.
    case shouldStartAppConnect(Bool)
    /// `-startWithLaunchOptions:`; `nil` when restarting (AppConnect for iOS SDK Developer Guide: Dual-mode API details).
    case start(launchOptions: [String: String]?)
    /// `-stop`.
    case stop
    /// `-retire`.
    case retire
}

/// A change on the simulated device.
public enum DeviceEvent: Sendable, Hashable {
    /// The Ivanti client app is installed, not installed, or deleted after being installed.
    case ivantiClient(IvantiClient)
    /// Email+ is installed or removed.
    case emailPlusInstalled(Bool)
    /// Web@Work is installed or removed.
    case webAtWorkInstalled(Bool)
    /// An app handles a URL scheme.
    case schemeHandler(String, BundleID)
    /// The installed AppConnect apps.
    case appConnectApps(Set<BundleID>)
    /// AppConnect shows its own user interface (passcode, sign-in): the app resigns active.
    case appConnectUIShown
    /// AppConnect's user interface is gone: the app becomes active again.
    case appConnectUIDismissed
}

/// Whether the Ivanti client app (Mobile@Work, Ivanti Go) is on the device.
public enum IvantiClient: String, Sendable, Hashable, CaseIterable {
    /// Installed.
    case installed
    /// Never installed.
    case notInstalled = "not-installed"
    /// Installed once, deleted since.
    case deleted
}

/// What happens when the user copies to the pasteboard.
public enum CopyOutcome: String, Sendable, Hashable, CaseIterable {
    /// Copied to the general pasteboard.
    case allowed
    /// Copied so that only authorized AppConnect apps can read it (ACPASTEBOARDPOLICY_SECURECOPY).
    case secureCopy = "secure-copy"
    /// Not copied (ACPASTEBOARDPOLICY_UNAUTHORIZED).
    case blocked
    /// Not copied: ACPASTEBOARDPOLICY_SECURECOPY needs secure services, and they are unavailable.
    case failed
}
