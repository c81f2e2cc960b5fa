import OpenInPolicy

/// A simulated iOS device with the Ivanti client and the server behind it: the
/// side of the world a test drives.
///
/// A test pushes server changes, answers the library's check-in and changes
/// device facts here; the app's ``AppConnect`` instance sees the effects
/// exactly as a managed app would, and the device records every event in
/// ``timeline`` and every acknowledgment in ``acknowledgments``.
///
/// The device also keeps what the AppConnect library remembers about the app
/// between launches (the values it last delivered), which is why a later
/// launch often sees only `appConnectIsReady:` (AppConnect for iOS SDK Developer Guide: AppConnect ready API details).
///
/// All methods are safe to call from any thread or task. Callbacks are
/// delivered one at a time, in the order the changes happened, on the calling
/// thread; when another thread is already delivering, that thread delivers
/// them too, after its own, before it returns.
public final class SimulatedDevice: Sendable {
    let world: Locked<World>

    /// Creates a device.
    /// - Parameters:
    ///   - server: what the server says about the app.
    ///   - facts: what is installed on the device (Email+, scheme handlers, AppConnect apps).
    ///   - ivantiClient: whether the Ivanti client app is installed.
    ///   - timelineLimit: how many of the latest events ``timeline`` keeps
    ///     (at least 1; default ``defaultTimelineLimit``); older ones are counted, not kept.
    public init(server: ServerState = ServerState(), facts: DeviceFacts = DeviceFacts(), ivantiClient: IvantiClient = .installed,
                timelineLimit: Int = SimulatedDevice.defaultTimelineLimit) {
        var server = server
        server.follow(appConnectApps: facts.appConnectApps)
        world = Locked(World(server: server, facts: facts, ivantiClient: ivantiClient, timelineLimit: max(1, timelineLimit)))
    }

    /// How many events a device's ``timeline`` keeps unless told otherwise: the latest 10,000.
    public static let defaultTimelineLimit = 10_000

    // MARK: The server

    /// What the server currently says about the app.
    public var server: ServerState { world.withLock { $0.server } }

    /// Applies server changes together, as one update.
    ///
    /// A running, ready library updates its properties at once (a decision
    /// never sees half of the update) and then calls the change callbacks of
    /// the values that changed, in ``ServerState``'s order. Otherwise the
    /// server keeps the values, and the library hears of them at its next
    /// check-in. A library that retired takes no more values (see
    /// ``AppConnect/retire()``).
    public func push(_ changes: [ServerChange]) {
        let drain = world.withLock { world -> Bool in
            for change in changes { world.record(.server(change)) }
            for change in changes { world.server.apply(change) }
            world.server.follow(appConnectApps: world.facts.appConnectApps)
            return world.updateRunningLibrary()
        }
        if drain { deliverQueued() }
    }

    /// Applies server changes together, as one update (see ``push(_:)-([ServerChange])``).
    public func push(_ changes: ServerChange...) { push(changes) }

    /// The Ivanti client answers the library's check-in: the started library
    /// becomes ready, calls `appConnectIsReady:`, then the change callbacks of
    /// every value that differs from what it delivered at the last launch (all
    /// of them when it knows nothing of the app).
    /// - Returns: `false`, and nothing happens, when no started library waits for its check-in.
    @discardableResult
    public func checkIn() -> Bool {
        let (answered, drain) = world.withLock { world -> (Bool, Bool) in
            guard let id = world.runningID, var instance = world.instances[id], instance.phase == .started else {
                world.record(.checkIn(answered: false))
                return (false, false)
            }
            world.record(.checkIn(answered: true))
            instance.phase = .ready
            instance.becameReady = true
            instance.values = world.server
            world.instances[id] = instance
            let callbacks = [.isReady] + world.server.changeCallbacks(since: world.memory)
            world.memory = world.server
            return (true, world.enqueue(callbacks, for: id))
        }
        if drain { deliverQueued() }
        return answered
    }

    // MARK: The device

    /// Whether the Ivanti client app is installed.
    public var ivantiClient: IvantiClient { world.withLock { $0.ivantiClient } }

    /// What is installed on the device.
    public var facts: DeviceFacts { world.withLock { $0.facts } }

    /// Changes something on the device.
    ///
    /// Installing or removing AppConnect apps changes the whitelist of an "All
    /// AppConnect apps" setting: a running, ready library updates
    /// `openInWhitelist` (or `openFromWhitelist`) and calls the change
    /// callback, as for any whitelist change.
    ///
    /// Showing AppConnect's own user interface makes a running, ready library
    /// call `applicationWillResignActiveForAppConnect:`; dismissing it calls
    /// `applicationDidBecomeActiveFromAppConnect:` only when the app resigned
    /// active for AppConnect before (AppConnectInterface.h: it "only occurs
    /// after an AppConnect event ... caused the app to resign active").
    /// - Throws: ``InputError/malformedScheme(_:)`` for a scheme handler whose
    ///   scheme is not a URL scheme; the device is then unchanged.
    public func update(_ event: DeviceEvent) throws(InputError) {
        if case .schemeHandler(let scheme, let handler) = event {
            var check = DeviceFacts()
            try check.setHandler(handler, for: scheme)
        }
        let drain = world.withLock { world -> Bool in
            world.record(.device(event))
            switch event {
            case .ivantiClient(let client): world.ivantiClient = client
            case .emailPlusInstalled(let installed): world.facts.emailPlusInstalled = installed
            case .webAtWorkInstalled(let installed): world.facts.webAtWorkInstalled = installed
            case .schemeHandler(let scheme, let handler): try? world.facts.setHandler(handler, for: scheme)
            case .appConnectApps(let apps):
                world.facts.appConnectApps = apps
                world.server.follow(appConnectApps: apps)
                return world.updateRunningLibrary()
            case .appConnectUIShown:
                guard let id = world.runningID, world.instances[id]?.phase == .ready else { return false }
                world.instances[id]?.resignedForAppConnect = true
                return world.enqueue([.willResignActive], for: id)
            case .appConnectUIDismissed:
                guard let id = world.runningID, world.instances[id]?.phase == .ready,
                      world.instances[id]?.resignedForAppConnect == true else { return false }
                world.instances[id]?.resignedForAppConnect = false
                return world.enqueue([.didBecomeActive], for: id)
            }
            return false
        }
        if drain { deliverQueued() }
    }

    /// The app process ends without stopping the library (a relaunch follows
    /// with a new ``AppConnect``). The library keeps what it knows of the app.
    public func terminateApp() {
        world.withLock { world in
            world.record(.quit)
            if let id = world.runningID { world.instances[id]?.phase = .stopped }
            world.running = nil
        }
    }

    // MARK: What the device saw

    /// The latest events, in order: every event so far, up to the device's
    /// `timelineLimit` (``defaultTimelineLimit`` unless set); older ones are
    /// dropped so that a long simulation keeps bounded memory (see ``recordedEventCount``).
    public var timeline: [TimelineEvent] { world.withLock { $0.timeline.events } }

    /// How many events the device has recorded, including those dropped from ``timeline``.
    public var recordedEventCount: Int { world.withLock { $0.timeline.recordedCount } }

    /// The events recorded since the device had recorded `count` events (a past
    /// ``recordedEventCount``), in order; those already dropped from ``timeline`` are left out.
    public func events(since count: Int) -> [TimelineEvent] { world.withLock { $0.timeline.events(since: count) } }

    /// The acknowledgments the server received, in order (automatic ones included).
    public var acknowledgments: [Acknowledgment] { world.withLock { $0.acknowledgments } }

    /// The acknowledgments the library still waits for: change callbacks the
    /// app implements and has not acknowledged yet, in delivery order.
    public var awaitedAcknowledgments: [AcknowledgmentKind] { world.withLock { $0.awaited } }

    /// How many times an app process has started on this device.
    public var launchCount: Int { world.withLock { $0.launches } }

    /// Records the start of an app process; returns its number.
    @discardableResult
    func recordLaunch() -> Int {
        world.withLock { world in
            world.launches += 1
            world.record(.launch(world.launches))
            return world.launches
        }
    }

    /// Records an event the runtime does not produce itself (scenario reads, dual-mode steps).
    func record(_ event: TimelineEvent) { world.withLock { $0.record(event) } }

    // MARK: Delivery

    /// Delivers queued callbacks one at a time until the queue is empty.
    ///
    /// Only one thread delivers at a time (``World/draining``); callbacks
    /// queued meanwhile by other threads, or by the delegate itself, are
    /// delivered by this loop in queue order. No lock is held while the
    /// delegate runs, so it may call back into the runtime.
    func deliverQueued() {
        while let delivery = world.withLock({ $0.nextDelivery() }) {
            let implemented = DeliveryProbe.isImplemented {
                delivery.callback.deliver(to: delivery.target.delegate, from: delivery.target)
            }
            if !implemented {
                world.withLock { $0.noteNotImplemented(delivery) }
            }
        }
    }
}

/// A callback waiting to be delivered.
struct Delivery: Sendable {
    let target: AppConnect
    let instanceID: Int
    let callback: DelegateCallback
    /// Which recorded event its timeline entry is, counting from the device's first (set when delivery begins).
    var timelineIndex = 0
}

/// The lifecycle phase of one AppConnect instance.
enum Phase: Sendable, Hashable {
    /// Created, `start(launchOptions:)` not called.
    case created
    /// Started, waiting for its check-in.
    case started
    /// Ready: properties readable, policy enforced (in AppConnect Mode).
    case ready
    /// Stopped by the app, or the app quit.
    case stopped
}

/// What one AppConnect instance holds.
struct InstanceState: Sendable {
    /// The instance itself. Weak: the device keeps only the running instance
    /// alive (``World/running``, like the SDK's shared instance until `stop`),
    /// so a stopped instance the app lets go is freed with its delegate.
    weak var target: AppConnect?
    /// The app's Info.plist overrides and facts, for decisions.
    let infoPlist: InfoPlistOverrides
    let app: AppFacts
    var phase: Phase = .created
    /// Whether it ever became ready: `isReady` stays true for the life of the app.
    var becameReady = false
    /// The library's copy of the server's values (meaningful once ready).
    var values = ServerState()
    /// Whether the app called `retire`: the library keeps its retired values and takes no new ones.
    var retired = false
    /// Whether the app resigned active for AppConnect's own screen and has not become active again.
    var resignedForAppConnect = false
    /// Whether the app runs in AppConnect Mode: always for an AppConnect app;
    /// for a dual-mode app, once its dual-mode state is AppConnect Mode.
    var appConnectMode: Bool
    /// The log level after `stop`, or the server's while ready.
    var logLevel: ACLogLevel {
        phase == .ready ? values.logLevel : .status
    }
}

/// Everything the device knows, behind one lock.
struct World: Sendable {
    var server: ServerState
    var facts: DeviceFacts
    var ivantiClient: IvantiClient
    /// What the library last delivered to the app; `nil` when it knows nothing
    /// of the app (first launch, or after `retire`).
    var memory: ServerState?
    var instances: [Int: InstanceState] = [:]
    var nextInstanceID = 1
    /// The instance that is started and not stopped, if any.
    var runningID: Int? { running?.id }
    /// The running instance, kept alive by the device until it stops or the app quits.
    var running: AppConnect?
    var launches = 0
    var timeline: EventRing
    var acknowledgments: [Acknowledgment] = []
    var awaited: [AcknowledgmentKind] = []
    var queue: [Delivery] = []
    var queueHead = 0
    var draining = false

    init(server: ServerState, facts: DeviceFacts, ivantiClient: IvantiClient, timelineLimit: Int) {
        timeline = EventRing(capacity: timelineLimit)
        self.server = server
        self.facts = facts
        self.ivantiClient = ivantiClient
    }

    mutating func record(_ event: TimelineEvent) { timeline.append(event) }

    /// Gives the running, ready (and not retired) library the server's
    /// current values, and queues the change callbacks of what changed.
    /// - Returns: whether the caller must deliver them.
    mutating func updateRunningLibrary() -> Bool {
        guard let id = runningID, var instance = instances[id], instance.phase == .ready, !instance.retired else { return false }
        let callbacks = server.changeCallbacks(since: instance.values)
        instance.values = server
        instances[id] = instance
        memory = server
        return enqueue(callbacks, for: id)
    }

    /// Queues callbacks for an instance.
    /// - Returns: whether the caller must deliver them (no other thread is delivering).
    mutating func enqueue(_ callbacks: [DelegateCallback], for id: Int) -> Bool {
        guard let target = instances[id]?.target else { return false }
        for callback in callbacks { queue.append(Delivery(target: target, instanceID: id, callback: callback)) }
        if draining || queueHead == queue.count { return false }
        draining = true
        return true
    }

    /// Takes the next callback to deliver and records it; ends delivery when the queue is empty.
    ///
    /// Callbacks for an instance that stopped since they were queued are
    /// dropped: a stopped library calls nobody.
    mutating func nextDelivery() -> Delivery? {
        while queueHead < queue.count {
            var delivery = queue[queueHead]
            queueHead += 1
            guard instances[delivery.instanceID]?.phase == .ready else { continue }
            record(.callback(delivery.callback, implemented: true))
            delivery.timelineIndex = timeline.recordedCount - 1
            if let kind = delivery.callback.kind.acknowledgment { awaited.append(kind) }
            return delivery
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        draining = false
        return nil
    }

    /// The delegate does not implement the delivered callback: correct its
    /// entry, and acknowledge a change callback ACPOLICY_UNSUPPORTED for the app.
    mutating func noteNotImplemented(_ delivery: Delivery) {
        // Once dropped from the ring, the entry needs no correction.
        timeline[delivery.timelineIndex] = .callback(delivery.callback, implemented: false)
        guard let kind = delivery.callback.kind.acknowledgment else { return }
        receive(Acknowledgment(kind, .unsupported, message: Acknowledgment.unsupportedMessage(for: delivery.callback.kind), automatic: true))
    }

    /// The server receives an acknowledgment.
    mutating func receive(_ acknowledgment: Acknowledgment) {
        record(.acknowledgment(acknowledgment))
        acknowledgments.append(acknowledgment)
        if let index = awaited.firstIndex(of: acknowledgment.kind) { awaited.remove(at: index) }
    }
}
