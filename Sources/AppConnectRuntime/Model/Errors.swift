/// Thrown when an app reads a gated ``AppConnect`` property before the library is ready.
///
/// The SDK throws an `NSException` named `ACPropertyAccessException` (AppConnect for iOS SDK Developer Guide: AppConnect ready API details:
/// "If isReady is NO, an attempt to access an instance property throws an
/// exception"). Only `secureServicesAvailability` is readable at any time.
public struct ACPropertyAccessException: Error, Sendable, Hashable, CustomStringConvertible {
    /// The property the app tried to read, e.g. `openInPolicy`.
    public let property: String
    /// Why the property cannot be read.
    public let reason: Reason

    /// Why a property cannot be read.
    public enum Reason: String, Sendable, Hashable {
        /// The library has not called `appConnectIsReady:` yet.
        case notReady = "not-ready"
        /// The library was stopped (or the app quit), so it holds no policy.
        case stopped
    }

    /// Creates the exception for `property`.
    public init(property: String, reason: Reason) {
        self.property = property
        self.reason = reason
    }

    /// The exception's name, as the SDK gives it.
    public static let name = "ACPropertyAccessException"

    public var description: String {
        switch reason {
        case .notReady:
            "\(ACPropertyAccessException.name): \(property) read before appConnectIsReady: (wait for the ready callback)"
        case .stopped:
            "\(ACPropertyAccessException.name): \(property) read after the library stopped"
        }
    }
}

/// A call the ``AppConnect`` runtime refuses, with what to do instead.
public enum AppConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `authStateApplied:message:` with ACPOLICY_UNSUPPORTED: an app must support authorization.
    case authStateUnsupported
    /// `start(launchOptions:)` on an instance that was already started.
    case alreadyStarted
    /// `start(launchOptions:)` while another instance runs on the same device.
    case anotherInstanceRunning
    /// A call that needs a started library, on one that was never started.
    case notStarted(String)
    /// A call on a library that was stopped or whose app quit.
    case stopped(String)

    public var description: String {
        switch self {
        case .authStateUnsupported:
            "ACPOLICY_UNSUPPORTED is not allowed for the auth state: an app must support authorization; pass ACPOLICY_APPLIED or ACPOLICY_ERROR"
        case .alreadyStarted:
            "this instance was already started: to restart the library, create a new AppConnect"
        case .anotherInstanceRunning:
            "another AppConnect instance is running on this device: stop it first, or call terminateApp() on the device to model a relaunch"
        case .notStarted:
            "the library is not started: call start(launchOptions:) first"
        case .stopped:
            "the library is stopped: create a new AppConnect and start it"
        }
    }
}
