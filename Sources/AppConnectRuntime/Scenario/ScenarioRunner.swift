import OpenInPolicy

/// Replays a ``Scenario`` on a fresh ``SimulatedDevice`` and returns its ``Timeline``.
///
/// Each statement runs to completion, callbacks included, before the next;
/// every event it causes is tied to its line. Refused calls (an
/// `authStateApplied` with ACPOLICY_UNSUPPORTED, a second `stop`) are events
/// in the timeline, not failures: a parsed scenario always runs.
///
/// - A `launch` ends the running app process, if any (the timeline shows it
///   quit), and starts a new one: an AppConnect app creates its library and
///   calls `startWithLaunchOptions:`; a dual-mode app follows the launch sequence of
///   the AppConnect for iOS SDK Developer Guide: Dual-mode API details. Unless the line says `waiting`, the Ivanti client then
///   answers the check-in.
/// - A dual-mode app keeps its dual-mode state in an in-memory store that
///   lasts for the whole scenario, as a file would across launches.
public enum ScenarioRunner {
    /// Runs `scenario`.
    public static func run(_ scenario: Scenario) -> Timeline {
        var run = Run(scenario: scenario)
        var entries: [Timeline.Entry] = []
        for step in scenario.steps {
            let before = run.device.recordedEventCount
            run.perform(step.action)
            entries += run.device.events(since: before).map { Timeline.Entry(line: step.line, event: $0) }
        }
        return Timeline(scenario: scenario.name, entries: entries, awaitedAcknowledgments: run.device.awaitedAcknowledgments)
    }

    /// The state of one replay.
    private struct Run {
        let scenario: Scenario
        let device = SimulatedDevice()
        let app: ScriptedApp
        let store = InMemoryDualModeStore()
        /// The running app process's library (AppConnect apps) or controller (dual-mode apps).
        var library: AppConnect?
        var controller: DualModeController?

        init(scenario: Scenario) {
            self.scenario = scenario
            app = ScriptedApp(implements: scenario.app.implements)
        }

        /// The library the app would call now: the running one, or the last one it created.
        var currentLibrary: AppConnect? { controller?.lastLibrary ?? library }

        mutating func perform(_ action: Scenario.Action) {
            switch action {
            case .acknowledges(let kind, let reply):
                app.setReply(reply, for: kind)
            case .server(let changes):
                device.push(changes)
            case .device(let event):
                // The parser validated the event (scheme handlers included), so it cannot fail here.
                try? device.update(event)
            case .launch(let waiting):
                launch(waiting: waiting)
            case .checkIn:
                device.checkIn()
            case .quit:
                device.terminateApp()
                library = nil
                controller = nil
            case .share(let request):
                _ = controller?.share(request) ?? library?.share(request)
            case .copy:
                _ = controller?.copyToPasteboard() ?? library?.copyToPasteboard()
            case .read(let property):
                if let library = currentLibrary { device.record(.read(property, property.read(from: library))) }
            case .ack(let kind, let state, let message):
                try? currentLibrary?.acknowledge(kind, state, message)
            case .log(let level, let message):
                currentLibrary?.log(level, message)
            case .stop:
                try? currentLibrary?.stop()
            case .retire:
                try? currentLibrary?.retire()
            case .switchMode(let mode, let waiting):
                guard let controller else { return }
                if mode == .appConnectMode {
                    controller.requestAppConnectMode()
                    if !waiting, let started = controller.appConnect, !started.isReady { device.checkIn() }
                } else {
                    controller.requestNonAppConnectMode()
                }
            }
        }

        mutating func launch(waiting: Bool) {
            if library != nil || controller != nil { device.terminateApp() }
            library = nil
            controller = nil
            device.recordLaunch()
            let profile = scenario.app
            if profile.dualMode {
                let controller = DualModeController(device: device, store: store, delegate: app,
                                                    infoPlist: profile.infoPlist, app: profile.facts)
                self.controller = controller
                // The in-memory store cannot fail to load.
                try? controller.launch(launchOptions: [:])
                if !waiting, controller.appConnect != nil { device.checkIn() }
            } else {
                let library = AppConnect(delegate: app, device: device, infoPlist: profile.infoPlist, app: profile.facts)
                self.library = library
                try? library.start(launchOptions: [:])
                if !waiting { device.checkIn() }
            }
        }
    }
}
