public import AppConnect
// The SDK's enums share their names with the runtime's: these scoped imports make the SDK's win here.
public import enum AppConnect.ACAuthState
public import enum AppConnect.ACManagedPolicy
public import enum AppConnect.ACOpenInPolicy
public import enum AppConnect.ACOpenFromPolicy
public import enum AppConnect.ACPasteboardPolicy
public import enum AppConnect.ACPrintPolicy
public import enum AppConnect.ACSecureFileIOPolicy
public import enum AppConnect.ACSecureServicesAvailability
public import enum AppConnect.ACLogLevel
public import enum AppConnect.ACPolicyState
public import protocol AppConnect.AppConnectDelegate
public import class AppConnect.AppConnect
internal import AppConnectRuntime
internal import OpenInPolicy
import Foundation

/// The test side of the `AppConnect` double: the simulated device and server
/// behind `AppConnect.sharedInstance()`, and what happened on them.
///
/// Create one at the start of a test, before the app calls
/// `AppConnect.initWith(_:)`: it starts the double over, as on a freshly
/// installed app. Each harness has its own double, and `AppConnect`'s class
/// methods (`sharedInstance()`, `initWith(_:)`…) answer, in the code a test
/// runs, from that test's harness: tests that use the double run in parallel,
/// across suites and files, as Swift Testing runs them, with no flag
/// (see `run(_:)` for app code the test does not run itself).
///
/// A first test, for an app that implements only the callbacks it needs (the harness still reports a
/// method that nearly matches a callback, which the SDK would never call):
///
/// ```swift
/// let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])], callbacks: .declaredByTheApp)
/// harness.launch(NotesAppDelegate())   // AppConnect.initWith, start, then the check-in: ready and every change callback
/// #expect(harness.problems.isEmpty)
/// ```
///
/// The strict default (``Callbacks/all``) also expects every optional callback the SDK delivers:
///
/// ```swift
/// let harness = try AppConnectHarness([.openInPolicy(.whitelist, whitelist: ["com.example.viewer"])])
/// let app = NotesAppDelegate()
/// app.application(didFinishLaunchingWithOptions: [:])   // the app's own AppConnect.initWith + start
/// harness.checkIn()                                     // ready, then every change callback
/// #expect(harness.problems.isEmpty)
/// ```
public final class AppConnectHarness {
    /// Whether the Ivanti client app is on the device.
    public enum IvantiClient: Sendable, Hashable {
        /// Installed.
        case installed
        /// Never installed.
        case notInstalled
        /// Installed once, deleted since.
        case deleted
    }

    /// A change the server makes (or the device, for secure services).
    public enum Change: Sendable, Hashable {
        /// A new authorization state and message.
        case authState(ACAuthState, message: String)
        /// A new managed policy.
        case managedPolicy(ACManagedPolicy)
        /// A new Open In policy with its whitelist of bundle IDs.
        case openInPolicy(ACOpenInPolicy, whitelist: Set<String>)
        /// The Open In setting "All AppConnect apps": WHITELIST of the device's AppConnect apps, as they change.
        case openInAllAppConnectApps
        /// A new Open From policy with its whitelist of bundle IDs.
        case openFromPolicy(ACOpenFromPolicy, whitelist: Set<String>)
        /// The Open From setting "All AppConnect apps": WHITELIST of the device's AppConnect apps, as they change.
        case openFromAllAppConnectApps
        /// New Apple activity types to exclude from the share sheet.
        case excludedAppleActivityTypes([String])
        /// A new app-specific configuration (the whole dictionary).
        case config([String: String])
        /// A new pasteboard policy.
        case pasteboardPolicy(ACPasteboardPolicy)
        /// A new print policy.
        case printPolicy(ACPrintPolicy)
        /// A new secure file I/O policy.
        case secureFileIOPolicy(ACSecureFileIOPolicy)
        /// Secure services become available or unavailable.
        case secureServicesAvailability(ACSecureServicesAvailability)
        /// A new log level.
        case logLevel(ACLogLevel)
    }

    /// Which of the SDK's optional callbacks ``problems`` expects the app to implement.
    public enum Callbacks: Sendable, Hashable {
        /// Every one the SDK delivers (the strict default): a delivered callback that reaches no
        /// method of the app is a problem unless declared with ``appDoesNotImplement(_:)``.
        case all
        /// The ones the app declares: a callback it has no method for is not a problem, but a method
        /// that nearly matches one (the callback's name with other parameter types, or a label a few
        /// letters off, such as `newWhitelist:` for `whitelist:`) is, since the SDK would never call it.
        /// The harness finds the app's methods in the test binary's symbol table (Linux, unstripped
        /// builds: what `swift test` makes); where it cannot, that is a problem, never a pass.
        case declaredByTheApp
    }

    /// A delegate callback of the SDK, by its selector.
    public enum Callback: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `appConnectIsReady:` (required).
        case isReady = "appConnectIsReady:"
        /// `appConnect:authStateChangedTo:withMessage:` (required).
        case authStateChanged = "appConnect:authStateChangedTo:withMessage:"
        /// `appConnect:managedPolicyChangedTo:`.
        case managedPolicyChanged = "appConnect:managedPolicyChangedTo:"
        /// `appConnect:configChangedTo:`.
        case configChanged = "appConnect:configChangedTo:"
        /// `appConnect:openInPolicyChangedTo:whitelist:`.
        case openInPolicyChanged = "appConnect:openInPolicyChangedTo:whitelist:"
        /// `appConnect:openFromPolicyChangedTo:whitelist:` (the runtime never sends it yet).
        case openFromPolicyChanged = "appConnect:openFromPolicyChangedTo:whitelist:"
        /// `appConnect:pasteboardPolicyChangedTo:`.
        case pasteboardPolicyChanged = "appConnect:pasteboardPolicyChangedTo:"
        /// `appConnect:printPolicyChangedTo:`.
        case printPolicyChanged = "appConnect:printPolicyChangedTo:"
        /// `appConnect:secureFileIOPolicyChangedTo:`.
        case secureFileIOPolicyChanged = "appConnect:secureFileIOPolicyChangedTo:"
        /// `appConnect:logLevelChangedTo:`.
        case logLevelChanged = "appConnect:logLevelChangedTo:"
        /// `appConnect:secureServicesAvailabilityChangedTo:`.
        case secureServicesAvailabilityChanged = "appConnect:secureServicesAvailabilityChangedTo:"
        /// `appConnect:copyAttemptedWhenUnauthorized:`.
        case copyAttemptedWhenUnauthorized = "appConnect:copyAttemptedWhenUnauthorized:"
        /// `appConnect:openURLAttemptedWhenUnauthorizedForURL:`.
        case openURLAttemptedWhenUnauthorized = "appConnect:openURLAttemptedWhenUnauthorizedForURL:"
        /// `appConnect:openInAttemptedWhenACOpenInPolicyBlocked:`.
        case openInAttemptedWhenBlocked = "appConnect:openInAttemptedWhenACOpenInPolicyBlocked:"
        /// `appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:` (the runtime never sends it yet).
        case openFromAttemptedWhenBlocked = "appConnect:openFromAttemptedWhenACOpenFromPolicyBlocked:sourceApplication:"
        /// `appConnectAttemptedDragAndDropToNonAppConnectApp:`.
        case dragAndDropToNonAppConnectApp = "appConnectAttemptedDragAndDropToNonAppConnectApp:"
        /// `applicationWillResignActiveForAppConnect:`.
        case willResignActive = "applicationWillResignActiveForAppConnect:"
        /// `applicationDidBecomeActiveFromAppConnect:`.
        case didBecomeActive = "applicationDidBecomeActiveFromAppConnect:"

        /// The selector.
        public var description: String { rawValue }
        /// Whether the protocol requires it (the compiler then checks the app implements it).
        public var isRequired: Bool { self == .isReady || self == .authStateChanged }
    }

    /// An acknowledgment the server received.
    public struct Acknowledgment: Sendable, Hashable, CustomStringConvertible {
        /// The SDK method, e.g. `openInPolicyApplied:message:`.
        public let selector: String
        /// The state acknowledged.
        public let state: ACPolicyState
        /// The message (`""` for a nil message).
        public let message: String
        /// Whether the library sent it for the app (the app implements no method for the change).
        public let automatic: Bool
        public var description: String { "\(selector) \(state) \"\(message)\"\(automatic ? " (automatic)" : "")" }
    }

    /// A call the SDK would have refused with an exception or left undefined.
    public struct Misuse: Sendable, Hashable, CustomStringConvertible {
        /// The SDK member called, e.g. `openInPolicy` or `authStateApplied:message:`.
        public let call: String
        /// What is wrong.
        public let problem: String
        /// How many timeline events came before it.
        public let afterEvent: Int
        /// The delegate callback being delivered at the time, if any.
        public let during: String?
        public let description: String
    }

    /// A share request's decision.
    public struct ShareResult: Sendable, Hashable, CustomStringConvertible {
        /// `allow`, `redirect`, `substitute-dummy-file` or `deny`.
        public let outcome: String
        /// The app that receives the content, if any.
        public let target: String?
        /// The delegate callback the library calls, if any (its selector).
        public let callback: String?
        /// The rule that decided.
        public let rule: String
        /// Why, in one line.
        public let reason: String
        public var description: String { "\(outcome) by \(rule): \(reason)" }
        /// Whether the content goes where the user asked.
        public var isAllowed: Bool { outcome == "allow" }
    }

    /// What a replayed scenario did.
    public struct Replay: Sendable, Hashable {
        /// The events, as `openin-check simulate` prints them.
        public let timeline: String
        /// The scenario lines not replayed against a real delegate, with why.
        public let skipped: [String]
    }

    /// A harness input that cannot be used, with what and how to fix it.
    public struct HarnessError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The explanation.
        public let description: String
    }

    let device: SimulatedDevice
    /// This harness's double: its own, so tests that run at the same time do not share one.
    let world = DoubleWorld()
    /// Keeps `world` registered as the world of the test that made the harness (see `DoubleWorld.Registry`).
    private var registration: DoubleWorld.Registry.Entry!
    private var skipped: Set<Callback> = []
    /// Which optional callbacks the app is expected to implement.
    public var callbacks: Callbacks
    /// The delegate ``launch(_:)`` started, kept alive as the app keeps its own (the SDK holds it weakly).
    private var launched: (any AppConnectDelegate)?

    /// Declares optional callbacks the app deliberately does not implement: their
    /// deliveries to a default leave ``problems`` (they stay in ``callbacksNotImplemented``).
    ///
    /// Every other delivered callback that reaches no method of the app is a
    /// problem, so a method with the SDK's name but another signature cannot
    /// pass unnoticed.
    public func appDoesNotImplement(_ callbacks: some Sequence<Callback>) { skipped.formUnion(callbacks) }

    /// Starts the double over on a new device whose server says `changes` (over the runtime's defaults).
    /// - Parameters:
    ///   - changes: the server's values before the app starts.
    ///   - ivantiClient: whether the Ivanti client is installed.
    ///   - appConnectApps: the bundle IDs of the AppConnect apps on the device.
    ///   - emailPlusInstalled: whether Email+ is installed.
    ///   - schemeHandlers: URL scheme → bundle ID of the app on the device that handles it.
    ///   - appURLSchemes: the app's own URL schemes (opening one is not Open In).
    ///   - disableSchemeBlocking: the app's Info.plist `MI_APP_CONNECT` override of that name.
    ///   - appIdentifier: the app's bundle ID (seeds its derived app keys).
    ///   - strict: trap on a misuse, as the SDK's exception would end the app.
    ///   - callbacks: which optional callbacks ``problems`` expects the app to implement: ``Callbacks/all``
    ///     (the default), or ``Callbacks/declaredByTheApp`` for an app that implements only what it needs.
    /// - Throws: ``HarnessError`` for a malformed bundle ID or URL scheme.
    public init(_ changes: [Change] = [], ivantiClient: IvantiClient = .installed, appConnectApps: Set<String> = [],
                emailPlusInstalled: Bool = false, schemeHandlers: [String: String] = [:], appURLSchemes: Set<String> = [],
                disableSchemeBlocking: Bool = false, appIdentifier: String = "com.example.app",
                strict: Bool = false, callbacks: Callbacks = .all) throws(HarnessError) {
        self.callbacks = callbacks
        var server = ServerState()
        for change in changes { server.apply(try Self.runtimeChange(change)) }
        var facts = DeviceFacts()
        facts.emailPlusInstalled = emailPlusInstalled
        facts.appConnectApps = try Self.bundleIDs(appConnectApps, "appConnectApps")
        let app: AppFacts
        for (scheme, handler) in schemeHandlers {
            guard let id = try Self.bundleIDs([handler], "schemeHandlers[\(scheme)]").first else { continue }
            do throws(InputError) {
                try facts.setHandler(id, for: scheme)
            } catch {
                throw HarnessError(description: "schemeHandlers: \(error)")
            }
        }
        do throws(InputError) {
            app = try AppFacts(urlSchemes: appURLSchemes)
        } catch {
            throw HarnessError(description: "appURLSchemes: \(error)")
        }
        device = SimulatedDevice(server: server, facts: facts, ivantiClient: Self.runtimeClient(ivantiClient))
        world.reset(device: device, infoPlist: InfoPlistOverrides(disableSchemeBlocking: disableSchemeBlocking),
                    app: app, appIdentifier: appIdentifier, strict: strict)
        RunningTest.install()
        registration = DoubleWorld.Registry.register(world)
    }

    /// Runs `body` with this harness's double as the one `AppConnect`'s class methods answer from
    /// (`AppConnect.sharedInstance()`, `initWith(_:)`…), in `body` and the tasks it starts.
    ///
    /// Code that runs in the test's own task needs no call: the double finds the harness of the running
    /// test. Use it for app code run elsewhere, such as from a detached task.
    public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = DoubleWorld.$bound.withValue(world) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// As `run(_:)`, for asynchronous code.
    public func runAsync<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await DoubleWorld.$bound.withValue(world) { try await body() }
    }

    // MARK: Driving

    /// Launches an app whose delegate is `delegate`: `AppConnect.initWith(_:)`, `start(launchOptions:)`, then
    /// ``checkIn()`` (ready, then every change callback, as on a first launch). The harness keeps the
    /// delegate alive, as an app keeps its own.
    ///
    /// ```swift
    /// let harness = try AppConnectHarness(callbacks: .declaredByTheApp)
    /// harness.launch(MyAppConnectDelegate())
    /// #expect(harness.problems.isEmpty)
    /// ```
    public func launch(_ delegate: any AppConnectDelegate) {
        launched = delegate
        run {
            AppConnect.initWith(delegate)
            AppConnect.sharedInstance()?.start(launchOptions: nil)
            checkIn()
        }
    }

    /// Strict mode: a misuse traps instead of being recorded.
    public var strict: Bool {
        get { world.strict }
        set { world.strict = newValue }
    }

    /// The server changes values, together; a ready library calls the change callbacks at once.
    /// - Throws: ``HarnessError`` for a malformed bundle ID (nothing is pushed then).
    public func push(_ changes: Change...) throws(HarnessError) {
        var converted: [ServerChange] = []
        for change in changes { converted.append(try Self.runtimeChange(change)) }
        run { device.push(converted) }
    }

    /// The Ivanti client answers the library's check-in: ready, then the change callbacks.
    /// - Returns: `false` when no started library waited for it.
    @discardableResult
    public func checkIn() -> Bool { run { device.checkIn() } }

    /// Installs the Ivanti client.
    public func installIvantiClient() { run { try? device.update(.ivantiClient(.installed)) } }
    /// Deletes the Ivanti client (after it was installed).
    public func deleteIvantiClient() { run { try? device.update(.ivantiClient(.deleted)) } }
    /// AppConnect shows its own UI (the app resigns active).
    public func showAppConnectUI() { run { try? device.update(.appConnectUIShown) } }
    /// AppConnect's UI goes away (the app becomes active again).
    public func dismissAppConnectUI() { run { try? device.update(.appConnectUIDismissed) } }

    /// The app process ends without stopping the library; the next launch starts with no shared instance.
    public func quitApp() { world.endProcess() }

    /// The library for share requests: the shared instance, or the last one (stopped: it decides as unmanaged).
    private func library(_ what: String) throws(HarnessError) -> AppConnectRuntime.AppConnect {
        guard let instance = world.sharedInstance ?? world.lastInstance else {
            throw HarnessError(description: "\(what): the app has not called AppConnect.initWith(_:) in this process yet")
        }
        return instance.runtime
    }

    /// The user shares: the library decides, and calls the blocked-attempt callback the decision names.
    /// - Parameters: as `openin-check eval`: a channel (`document-interaction`, `open-url`, `open-from`, …), and its
    ///   target, url, source (the sending app, for `open-from`), document.
    /// - Throws: ``HarnessError`` for a malformed request, or when the app has created no library.
    @discardableResult
    public func share(channel: String, target: String? = nil, url: String? = nil, source: String? = nil,
                      document: String? = nil) throws(HarnessError) -> ShareResult {
        let request: ShareRequest
        do throws(InputError) {
            request = try ShareRequest(channel: channel, target: target, url: url, source: source, document: document)
        } catch {
            throw HarnessError(description: "share: \(error)")
        }
        let library = try library("share")
        return Self.result(run { library.share(request) })
    }

    /// The user taps Copy: `allowed`, `secure-copy` or `blocked`.
    /// - Throws: ``HarnessError`` when the app has created no library.
    @discardableResult
    public func copy() throws(HarnessError) -> String {
        let library = try library("copy")
        return run { library.copyToPasteboard().rawValue }
    }

    // MARK: What happened

    /// The acknowledgments the server received, in order (automatic ones included).
    public var acknowledgments: [Acknowledgment] {
        device.acknowledgments.map {
            Acknowledgment(selector: $0.kind.selector, state: ACPolicyState(rawValue: $0.state.rawValue) ?? .error,
                           message: $0.message, automatic: $0.automatic)
        }
    }

    /// The acknowledgments the library still waits for (their selectors), in delivery order.
    public var awaitedAcknowledgments: [String] { device.awaitedAcknowledgments.map(\.selector) }

    /// The delegate callbacks delivered, by selector, in order.
    public var deliveredCallbacks: [String] { deliveries.map(\.callback.kind.selector) }

    /// Every delegate callback delivered on the device, and whether the app's own method ran.
    private var deliveries: [(callback: DelegateCallback, implemented: Bool)] {
        device.timeline.compactMap { event in
            if case .callback(let callback, let implemented) = event { (callback, implemented) } else { nil }
        }
    }

    /// One line per delivered callback that reached no method of the app (a default ran instead).
    ///
    /// A method with the SDK's name and a different signature lands here: the
    /// SDK would not call it either.
    public var callbacksNotImplemented: [String] { notImplementedLines(skipping: []) }

    private func notImplementedLines(skipping: Set<Callback>) -> [String] {
        let skippedSelectors = Set(skipping.map(\.rawValue))
        return deliveries.filter { !$0.implemented && !skippedSelectors.contains($0.callback.kind.selector) }.map {
            "the app implements no method the SDK would call for \($0.callback.kind.selector)"
                + ($0.callback.kind.acknowledgment.map { " (the library acknowledged \($0.selector) ACPolicyStateUnsupported for it)" } ?? "")
        }
    }

    /// The misuses recorded, in order.
    public var misuses: [Misuse] {
        world.misuses.map {
            Misuse(call: $0.call, problem: $0.problem, afterEvent: $0.afterEvent, during: $0.during, description: $0.description)
        }
    }

    /// The share decisions made, in order.
    public var shareDecisions: [ShareResult] {
        device.timeline.compactMap { event in
            if case .share(_, let decision) = event { Self.result(decision) } else { nil }
        }
    }

    /// The messages the app asked the Ivanti client to display.
    public var displayedMessages: [String] { world.displayedMessages }
    /// The flags the app passed to `-allowLocalCachingForTunneledRequests:`, in order (AppTunnel: recorded, nothing else happens).
    public var localCachingForTunneledRequests: [Bool] { world.localCachingForTunneledRequests }

    /// Everything a test should look at: misuses; under ``Callbacks/all``, delivered callbacks that reached
    /// no method of the app (except those declared with ``appDoesNotImplement(_:)``); under
    /// ``Callbacks/declaredByTheApp``, the app's methods that nearly match a callback; and the double's own problems.
    /// Empty when the app used the SDK as the header asks.
    public var problems: [String] {
        let callbackProblems = switch callbacks {
        case .all: notImplementedLines(skipping: skipped)
        case .declaredByTheApp: nearMissLines
        }
        var problems = misuses.map(\.description) + callbackProblems + world.problems
        if DoubleWorld.Registry.isReplaced(registration) {
            problems.append("another AppConnectHarness made later in this test (\(RunningTest.name)) took over: AppConnect.sharedInstance() "
                + "and the app's calls now reach the newer one, so this one saw only what came before. Make one harness per test, "
                + "or look at the newer harness's results")
        }
        return problems
    }

    /// The methods of the delegates given to `AppConnect.initWith(_:)` that nearly match an SDK callback,
    /// or why they cannot be listed.
    private var nearMissLines: [String] {
        world.delegateTypes.flatMap { type -> [String] in
            let name = String(reflecting: type)
            guard let methods = DeclaredMethods.of(type) else {
                return ["cannot list the methods of \(name) (the test binary has no symbol table to read: a stripped build, or not Linux), "
                    + "so methods that nearly match an SDK callback cannot be found: use AppConnectHarness(callbacks: .all) with appDoesNotImplement(_:)"]
            }
            guard methods.contains(where: { $0.name == "appConnectIsReady" }) else {
                return ["found none of the methods of \(name) in the test binary's symbol table (not even appConnectIsReady(_:), which every delegate has), "
                    + "so methods that nearly match an SDK callback cannot be found: use AppConnectHarness(callbacks: .all) with appDoesNotImplement(_:)"]
            }
            return NearMisses.lines(typeName: name, methods: methods)
        }
    }

    /// Every event on the device so far, as `openin-check simulate` prints a timeline.
    public var timeline: String {
        Timeline(scenario: "harness", entries: device.timeline.map { Timeline.Entry(line: 0, event: $0) },
                 awaitedAcknowledgments: device.awaitedAcknowledgments).text
    }

    // MARK: Conversions

    private static func bundleIDs(_ strings: Set<String>, _ what: String) throws(HarnessError) -> Set<BundleID> {
        var ids = Set<BundleID>()
        for string in strings {
            do throws(InputError) {
                ids.insert(try BundleID(string))
            } catch {
                throw HarnessError(description: "\(what): \(error)")
            }
        }
        return ids
    }

    static func runtimeChange(_ change: Change) throws(HarnessError) -> ServerChange {
        switch change {
        case .authState(let state, let message): .authState(runtime(state, or: .unauthorized), message: message)
        case .managedPolicy(let policy): .managedPolicy(runtime(policy, or: .unknown))
        case .openInPolicy(let policy, let whitelist):
            .openInPolicy(runtime(policy, or: .unauthorized), whitelist: Whitelist(try bundleIDs(whitelist, "openInPolicy whitelist")))
        case .openFromPolicy(let policy, let whitelist):
            .openFromPolicy(runtime(policy, or: .unauthorized), whitelist: Whitelist(try bundleIDs(whitelist, "openFromPolicy whitelist")))
        case .excludedAppleActivityTypes(let types): .excludedAppleActivityTypes(types)
        case .openInAllAppConnectApps: .openInAllAppConnectApps
        case .openFromAllAppConnectApps: .openFromAllAppConnectApps
        case .config(let config): .config(config)
        case .pasteboardPolicy(let policy): .pasteboardPolicy(runtime(policy, or: .unauthorized))
        case .printPolicy(let policy): .printPolicy(runtime(policy, or: .unauthorized))
        case .secureFileIOPolicy(let policy): .secureFileIOPolicy(runtime(policy, or: .required))
        case .secureServicesAvailability(let availability): .secureServicesAvailability(runtime(availability, or: .unavailable))
        case .logLevel(let level): .logLevel(runtime(level, or: .status))
        }
    }

    /// The runtime's value with the same raw value (the SDK's and the runtime's share them by construction).
    private static func runtime<From: RawRepresentable<Int>, To: RawRepresentable<Int>>(_ value: From, or fallback: To) -> To {
        To(rawValue: value.rawValue) ?? fallback
    }

    private static func runtimeClient(_ client: IvantiClient) -> AppConnectRuntime.IvantiClient {
        switch client {
        case .installed: .installed
        case .notInstalled: .notInstalled
        case .deleted: .deleted
        }
    }

    static func result(_ decision: Decision) -> ShareResult {
        ShareResult(outcome: decision.outcome.rawValue, target: decision.target?.rawValue,
                    callback: decision.callback?.selector, rule: decision.rule.description, reason: decision.reason)
    }
}
