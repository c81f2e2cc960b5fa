package import AppConnectRuntime
package import OpenInPolicy
import Foundation

/// A call the SDK would not accept, recorded instead of raised.
///
/// "Where" is told three ways: the call (`openInPolicy`,
/// `authStateApplied:message:`), the number of device timeline events before
/// it, and the delegate callback being delivered at the time, if any.
package struct Misuse: Sendable, Hashable, CustomStringConvertible {
    /// The SDK member called, as the header spells it.
    package let call: String
    /// What is wrong, and what the SDK would do.
    package let problem: String
    /// How many device timeline events happened before the call.
    package let afterEvent: Int
    /// The selector of the delegate callback being delivered during the call, if any.
    package let during: String?

    package var description: String {
        var text = "\(call): \(problem) (after timeline event \(afterEvent)"
        if let during { text += ", inside \(during)" }
        return text + ")"
    }
}

/// Everything the double keeps between calls: the simulated device, what it
/// recorded, and the shared instance. One per process, like the SDK's singleton;
/// the test harness replaces its contents for each test.
package final class DoubleWorld: @unchecked Sendable {
    /// The process's double.
    package static let shared = DoubleWorld()

    private let lock = NSLock()
    // Every stored property below is read and written under `lock` only.
    private var _device = SimulatedDevice()
    private var _infoPlist = InfoPlistOverrides()
    private var _app = AppFacts()
    private var _appIdentifier = "com.example.app"
    private var _strict = false
    private var _misuses: [Misuse] = []
    private var _problems: [String] = []
    private var _displayedMessages: [String] = []
    private var _localCachingForTunneledRequests: [Bool] = []
    private var _shared: AppConnect?
    private var _last: AppConnect?
    private var _delegateTypes: [any AppConnectDelegate.Type] = []

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Starts over on `device`, as a freshly installed app: no shared instance, nothing recorded.
    package func reset(device: SimulatedDevice, infoPlist: InfoPlistOverrides = InfoPlistOverrides(), app: AppFacts = AppFacts(),
                       appIdentifier: String = "com.example.app", strict: Bool = false) {
        locked {
            _device = device
            _infoPlist = infoPlist
            _app = app
            _appIdentifier = appIdentifier
            _strict = strict
            _misuses = []
            _problems = []
            _displayedMessages = []
            _localCachingForTunneledRequests = []
            _shared = nil
            _last = nil
            _delegateTypes = []
        }
    }

    /// The app process ends: the shared instance is gone (a new process starts with none).
    package func endProcess() {
        let device = locked { () -> SimulatedDevice in
            _shared = nil
            _last = nil
            return _device
        }
        device.terminateApp()
    }

    package var device: SimulatedDevice { locked { _device } }
    package var infoPlist: InfoPlistOverrides { locked { _infoPlist } }
    package var app: AppFacts { locked { _app } }
    package var appIdentifier: String { locked { _appIdentifier } }
    /// Strict mode: a misuse traps, as the SDK's uncaught exception would end the app.
    package var strict: Bool {
        get { locked { _strict } }
        set { locked { _strict = newValue } }
    }
    package var misuses: [Misuse] { locked { _misuses } }
    package var problems: [String] { locked { _problems } }
    package var displayedMessages: [String] { locked { _displayedMessages } }
    /// The flags the app passed to `-allowLocalCachingForTunneledRequests:`, in order (AppTunnel: recorded, no behaviour).
    package var localCachingForTunneledRequests: [Bool] { locked { _localCachingForTunneledRequests } }

    /// The shared instance: set by `initWith`, cleared by `stop` and by the end of the process.
    package var sharedInstance: AppConnect? { locked { _shared } }
    /// The last instance created in this process (still answers logging after `stop`).
    package var lastInstance: AppConnect? { locked { _last } }

    /// The types of the delegates given to `initWith(_:)` since the last reset, each once, in order:
    /// the test harness looks at their methods for near misses of the SDK's callbacks.
    package var delegateTypes: [any AppConnectDelegate.Type] { locked { _delegateTypes } }

    /// Records the type of a delegate given to `initWith(_:)`.
    func recordDelegateType(_ type: any AppConnectDelegate.Type) {
        locked {
            if !_delegateTypes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) { _delegateTypes.append(type) }
        }
    }

    func install(_ instance: AppConnect) {
        locked {
            _shared = instance
            _last = instance
        }
    }

    func uninstall(_ instance: AppConnect) {
        locked { if _shared === instance { _shared = nil } }
    }

    /// Records a misuse; traps in strict mode.
    func misuse(_ call: String, _ problem: String) {
        let device = self.device
        let misuse = Misuse(call: call, problem: problem, afterEvent: device.recordedEventCount, during: Delivering.selector)
        let strict = locked {
            _misuses.append(misuse)
            return _strict
        }
        if strict { fatalError("AppConnect double, strict mode: \(misuse)") }
    }

    func problem(_ text: String) { locked { _problems.append(text) } }
    func displayed(_ message: String) { locked { _displayedMessages.append(message) } }
    func allowedLocalCaching(_ flag: Bool) { locked { _localCachingForTunneledRequests.append(flag) } }
}

/// The delegate callback being delivered on this thread, for misuse records.
enum Delivering {
    @TaskLocal static var selector: String?
}
