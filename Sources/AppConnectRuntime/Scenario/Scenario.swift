import OpenInPolicy

/// A scenario: the life of one managed app on one device, line by line —
/// launches, server pushes, device changes, user actions and app calls.
///
/// ``ScenarioRunner`` replays it and returns the ``Timeline`` of callbacks,
/// acknowledgments and decisions. The text format (one statement a line,
/// `#` comments) is documented in <doc:Scenarios> and parsed by
/// ``parse(_:name:)``.
public struct Scenario: Sendable, Hashable {
    /// Where the scenario comes from (a path), for error messages and the timeline.
    public let name: String
    /// The app the scenario runs.
    public let app: AppProfile
    /// The statements, in order.
    public let steps: [Step]

    /// Creates a scenario from parts.
    public init(name: String, app: AppProfile, steps: [Step]) {
        self.name = name
        self.app = app
        self.steps = steps
    }

    /// One statement and its 1-based line.
    public struct Step: Sendable, Hashable {
        /// The line the statement is on.
        public let line: Int
        /// What it does.
        public let action: Action

        /// Creates a step.
        public init(line: Int, action: Action) {
            self.line = line
            self.action = action
        }
    }

    /// What a statement does.
    public enum Action: Sendable, Hashable {
        /// `app acknowledges KIND STATE ["message"]` / `… never`: how the app answers a kind of change from now on.
        case acknowledges(AcknowledgmentKind, ScriptedApp.Reply)
        /// `server …`: the server changes values (together). "All AppConnect apps"
        /// (`server openInPolicy appconnect`) is already WHITELIST of the device's AppConnect apps here.
        case server([ServerChange])
        /// `device …`: something changes on the device.
        case device(DeviceEvent)
        /// `launch [waiting]`: a new app process; without `waiting` the Ivanti client answers the check-in at once.
        case launch(waiting: Bool)
        /// `check-in`: the Ivanti client answers the library's check-in.
        case checkIn
        /// `quit`: the app process ends without stopping the library.
        case quit
        /// `share CHANNEL [target=ID] [url=URL] [source=ID] [document=NAME]`.
        case share(ShareRequest)
        /// `copy`: the user copies to the pasteboard.
        case copy
        /// `read PROPERTY`: the app reads an instance property.
        case read(AppConnectProperty)
        /// `ack KIND STATE ["message"]`: the app acknowledges.
        case ack(AcknowledgmentKind, ACPolicyState, String)
        /// `log LEVEL "message"`.
        case log(ACLogLevel, String)
        /// `stop`.
        case stop
        /// `retire`.
        case retire
        /// `switch-mode appconnect|non-appconnect [waiting]` (dual-mode apps).
        case switchMode(DualModeState, waiting: Bool)
    }
}

/// The app a scenario runs: what it implements, and how it is built.
public struct AppProfile: Sendable, Hashable {
    /// The optional callbacks it implements (the two required ones always are).
    public var implements: Set<DelegateCallback.Kind>
    /// Whether it is a dual-mode app (its launches follow AppConnect for iOS SDK Developer Guide: Dual-mode API details).
    public var dualMode: Bool
    /// Its Info.plist overrides.
    public var infoPlist: InfoPlistOverrides
    /// Its own URL schemes.
    public var facts: AppFacts

    /// Creates a profile: by default an AppConnect app implementing only the required callbacks.
    public init(implements: Set<DelegateCallback.Kind> = [], dualMode: Bool = false,
                infoPlist: InfoPlistOverrides = InfoPlistOverrides(), facts: AppFacts = AppFacts()) {
        self.implements = implements
        self.dualMode = dualMode
        self.infoPlist = infoPlist
        self.facts = facts
    }
}

/// Why a scenario cannot be run: where (the scenario's name and 1-based line;
/// no line when the problem is the file itself), what, and how to fix it.
public typealias ScenarioError = FormatError
