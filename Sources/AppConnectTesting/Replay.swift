import AppConnect
import class AppConnect.AppConnect
// The SDK's enums share their names with the runtime's: these scoped imports make the SDK's win here.
import enum AppConnect.ACLogLevel
import enum AppConnect.ACPolicyState
internal import AppConnectRuntime
import Foundation

extension AppConnectHarness {
    /// Replays an `openin-check simulate` scenario against the app's real delegate.
    ///
    /// Server, device, check-in, share, copy, read, ack, log, stop, retire and
    /// quit lines act as in `simulate`, through the double. A `launch` line
    /// ends the app process that created a library, if any, and calls `launch` with empty
    /// launch options: the app's own launch code (`AppConnect.initWith`,
    /// `start(launchOptions:)`, dual-mode choices) runs; unless the line says
    /// `waiting`, the Ivanti client then answers the check-in. The scenario's
    /// `app` profile and its `app acknowledges` and `switch-mode` lines script
    /// the simulated app: the real delegate answers for itself, so they are
    /// skipped and listed in ``Replay/skipped``.
    /// - Parameters:
    ///   - text: the scenario.
    ///   - name: its name, for error messages (a file name).
    ///   - launch: the app's launch, e.g. its `application(_:didFinishLaunchingWithOptions:)`.
    /// - Throws: ``HarnessError`` for a scenario that does not parse (with its line).
    public func replay(_ text: String, name: String = "scenario",
                       launch: ([AnyHashable: Any]) -> Void) throws(HarnessError) -> Replay {
        let scenario: Scenario
        do throws(ScenarioError) {
            scenario = try Scenario.parse(text, name: name)
        } catch {
            throw HarnessError(description: error.description)
        }
        let world = self.world
        var entries: [Timeline.Entry] = []
        var skipped: [String] = []
        var launched = false
        if !scenario.app.implements.isEmpty || scenario.app.dualMode {
            skipped.append("`app` lines: they describe the simulated app; the real delegate implements what it implements")
        }
        run {
        for step in scenario.steps {
            let before = device.recordedEventCount
            let instance = world.sharedInstance ?? world.lastInstance
            switch step.action {
            case .acknowledges:
                skipped.append("line \(step.line): `app acknowledges` scripts the simulated app; the real delegate answers for itself")
            case .switchMode:
                skipped.append("line \(step.line): `switch-mode` drives the simulated dual-mode app; call the app's own mode switch")
            case .server(let changes):
                device.push(changes)
            case .device(let event):
                // The parser validated the event, so it cannot fail here.
                try? device.update(event)
            case .launch(let waiting):
                if launched || world.lastInstance != nil { world.endProcess() }
                launched = true
                launch([:])
                if !waiting { device.checkIn() }
            case .checkIn:
                device.checkIn()
            case .quit:
                world.endProcess()
            case .share(let request):
                _ = instance?.runtime.share(request)
            case .copy:
                _ = instance?.runtime.copyToPasteboard()
            case .read(let property):
                if let instance, !read(property.rawValue, on: instance) {
                    skipped.append("line \(step.line): `read \(property.rawValue)`: the double does not read this property")
                }
            case .ack(let kind, let state, let message):
                if let instance, !acknowledge(kind.rawValue, ACPolicyState(rawValue: state.rawValue) ?? .error, message, on: instance) {
                    skipped.append("line \(step.line): `ack \(kind.rawValue)`: the double has no such acknowledgment")
                }
            case .log(let level, let message):
                AppConnect.log(at: ACLogLevel(rawValue: level.rawValue) ?? .error, message: message)
            case .stop:
                instance?.stop()
            case .retire:
                instance?.retire()
            }
            entries += device.events(since: before).map { Timeline.Entry(line: step.line, event: $0) }
        }
        }
        let timeline = Timeline(scenario: scenario.name, entries: entries, awaitedAcknowledgments: device.awaitedAcknowledgments)
        return Replay(timeline: timeline.text, skipped: skipped)
    }

    /// Reads a property through the double (a gated read before ready records a misuse).
    ///
    /// By the scenario's name for it, so a property the runtime adds is a skipped line until the double reads it.
    /// - Returns: `false` for a property the double does not read.
    private func read(_ property: String, on instance: AppConnect) -> Bool {
        switch property {
        case "isReady": _ = instance.isReady
        case "managedPolicy": _ = instance.managedPolicy
        case "authState": _ = instance.authState
        case "authMessage": _ = instance.authMessage
        case "pasteboardPolicy": _ = instance.pasteboardPolicy
        case "openInPolicy": _ = instance.openInPolicy
        case "openInWhitelist": _ = instance.openInWhitelist
        case "openFromPolicy": _ = instance.openFromPolicy
        case "openFromWhitelist": _ = instance.openFromWhitelist
        case "excludedAppleActivityTypes": _ = instance.excludedAppleActivityTypes
        case "printPolicy": _ = instance.printPolicy
        case "secureFileIOPolicy": _ = instance.secureFileIOPolicy
        case "config": _ = instance.config
        case "secureServicesAvailability": _ = instance.secureServicesAvailability
        case "logLevel": _ = AppConnect.logLevel()
        default: return false
        }
        return true
    }

    /// Acknowledges through the double, by the scenario's name for the acknowledgment.
    /// - Returns: `false` for an acknowledgment the double does not have.
    private func acknowledge(_ kind: String, _ state: ACPolicyState, _ message: String, on instance: AppConnect) -> Bool {
        switch kind {
        case "authState": instance.authStateApplied(state, message: message)
        case "config": instance.configApplied(state, message: message)
        case "openInPolicy": instance.openInPolicyApplied(state, message: message)
        case "openFromPolicy": instance.openFromPolicyApplied(state, message: message)
        case "pasteboardPolicy": instance.pasteboardPolicyApplied(state, message: message)
        case "printPolicy": instance.printPolicyApplied(state, message: message)
        case "secureFileIOPolicy": instance.secureFileIOPolicyApplied(state, message: message)
        default: return false
        }
        return true
    }
}
