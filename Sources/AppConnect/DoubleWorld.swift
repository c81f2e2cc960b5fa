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
/// recorded, and the shared instance.
///
/// The SDK has one library per process; tests that run at the same time each need their own. So
/// each test harness owns a world, and the class methods (`AppConnect.sharedInstance()`,
/// `initWith(_:)`…) answer from ``current``: the world of the harness of the test that is
/// running the code (see ``Registry``). Code that runs with no harness alive uses ``shared``.
package final class DoubleWorld: @unchecked Sendable {
    /// The world of code that runs when no harness is alive (an app's code outside tests, as the SDK's
    /// singleton before any test starts one).
    package static let shared = DoubleWorld()

    /// Creates an empty world.
    package init() {}

    /// The world the class methods act on: the one bound with ``bound`` if any, else the one the
    /// registry resolves for the running test (`Registry.resolve()`), else ``shared``.
    package static var current: DoubleWorld { bound ?? Registry.resolve() ?? shared }

    /// A world bound to a task and its child tasks (`DoubleWorld.$bound.withValue(world) { … }`).
    @TaskLocal package static var bound: DoubleWorld?

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

extension DoubleWorld {
    /// Which world belongs to the code that runs: the harnesses alive, each with the test it was
    /// made in and its task.
    ///
    /// Swift Testing runs tests in parallel, across suites and files, and a test's own code (and
    /// the app code it calls, synchronously or on the main actor) runs in the test's task or its
    /// child tasks, where the running test is known (`Test.current`, through ``testKey``).
    /// A harness is registered under that key; code resolves to the harness of its test. Two
    /// harnesses of one test (parameterized cases run in parallel, or one test that makes a second
    /// harness) are told apart by the task that made them: in the same task, the newer one is the
    /// app's (the older one reports it was replaced). XCTest runs a process's tests one at a
    /// time: with no running test known, the only harness alive is the one.
    ///
    /// When the code cannot be placed (no running test known, from a detached task or a dispatch
    /// queue, while harnesses of other tests are alive), there is no right answer: the call gets
    /// an empty world (no shared instance) and every harness alive reports it in its problems.
    package enum Registry {
        /// One live harness's world.
        package final class Entry: @unchecked Sendable {
            package let world: DoubleWorld
            let test: AnyHashable?
            let task: Int?
            let order: Int
            init(world: DoubleWorld, test: AnyHashable?, task: Int?, order: Int) {
                (self.world, self.test, self.task, self.order) = (world, test, task, order)
            }
        }

        private final class Weak {
            weak var entry: Entry?
            init(_ entry: Entry) { self.entry = entry }
        }

        private static let lock = NSLock()
        // Read and written under `lock` only.
        nonisolated(unsafe) private static var entries: [Weak] = []
        nonisolated(unsafe) private static var counter = 0
        nonisolated(unsafe) private static var _testKey: (@Sendable () -> AnyHashable?)? = nil

        /// The running test's identity, when the test framework tells it (set by the test harness
        /// module, which can import Swift Testing; `nil` outside a test).
        package static var testKey: (@Sendable () -> AnyHashable?)? {
            get { lock.withLock { _testKey } }
            set { lock.withLock { _testKey = newValue } }
        }

        /// The current task's identity, if the code runs in a task.
        static var taskKey: Int? { withUnsafeCurrentTask { $0?.hashValue } }

        /// Registers `world` for the running test and task; the world stays registered while the
        /// returned entry is alive (the harness holds it).
        package static func register(_ world: DoubleWorld) -> Entry {
            let test = testKey?()
            let task = taskKey
            return lock.withLock {
                counter += 1
                let entry = Entry(world: world, test: test, task: task, order: counter)
                entries.removeAll { $0.entry == nil }
                entries.append(Weak(entry))
                return entry
            }
        }

        /// The world for code running now, or `nil` when no harness is alive.
        static func resolve() -> DoubleWorld? {
            let test = testKey?()
            let task = taskKey
            let live = lock.withLock { entries.compactMap(\.entry) }
            if live.isEmpty { return nil }
            var candidates = live
            if let test {
                // A running test sees its own harnesses only; with none, the double as if no harness were alive.
                candidates = live.filter { $0.test == test }
                if candidates.isEmpty { return nil }
            }
            if let chosen = choose(candidates, task: task) { return chosen.world }
            let why = test == nil
                ? "no running test is known there (a detached task, a dispatch queue or a thread of its own) and \(candidates.count) harnesses are alive"
                : "the running test has \(candidates.count) harnesses, made in other tasks than this one"
            let problem = "AppConnect was called from code the double cannot place (\(why)), so it answered as if the app had "
                + "created no library: call it from the task that made the harness (the test function, or a Task or MainActor.run "
                + "it starts), or wrap the code in harness.run { … }"
            // Reported to the harnesses it could belong to: the running test's, or with no test known, every one.
            for entry in candidates { entry.world.problem(problem) }
            return DoubleWorld()
        }

        /// One entry among `candidates`: the only one; the one made in `task`; or, when they were all
        /// made in one task, the newest.
        private static func choose(_ candidates: [Entry], task: Int?) -> Entry? {
            if candidates.count == 1 { return candidates[0] }
            let inTask = candidates.filter { $0.task == task }
            if inTask.count == 1 { return inTask[0] }
            let pool = inTask.isEmpty ? candidates : inTask
            guard let first = pool.first, pool.allSatisfy({ $0.task == first.task && $0.test == first.test }) else { return nil }
            return pool.max { $0.order < $1.order }
        }

        /// Whether a newer harness made in the same test and task took over from `entry`.
        package static func isReplaced(_ entry: Entry) -> Bool {
            lock.withLock {
                entries.contains { other in
                    guard let other = other.entry else { return false }
                    return other.order > entry.order && other.test == entry.test && other.task == entry.task
                }
            }
        }
    }
}
