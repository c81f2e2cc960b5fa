/// Everything a policy source says, before it becomes a ``Policy``.
///
/// Policy files (``PolicyFile``) read into this value; a caller may then
/// change or add to it (the CLI's `--config`, `--scheme-handler`, … flags do)
/// and ask for the ``policy``. It keeps the ``PolicySetting``, so "All
/// AppConnect apps" still means the device's AppConnect apps after they change.
public struct PolicyInputs: Sendable, Hashable {
    /// The Open In policy: a status, or "All AppConnect apps".
    public var setting: PolicySetting
    /// The whitelist (used under WHITELIST; "All AppConnect apps" uses `device.appConnectApps`).
    public var whitelist: Whitelist
    /// The server's app-specific configuration: string key-value pairs.
    public var config: [String: String]
    /// The `MI_APP_CONNECT` overrides of the app's Info.plist.
    public var infoPlist: InfoPlistOverrides
    /// What is installed on the device.
    public var device: DeviceFacts
    /// Facts about the app itself.
    public var app: AppFacts
    /// The server's drag-and-drop policy, when given.
    public var dragAndDrop: DragAndDropPolicy?
    /// Whether AppConnect enforces policy.
    public var enforcing: Bool
    /// The Open From policy, when the source sets it (`openFromPolicy`, `openFromWhitelist`).
    public var openFrom: OpenFromPolicy? = nil
    /// The pasteboard policy, when the source sets it (`pasteboardPolicy`).
    public var pasteboard: PasteboardPolicy? = nil
    /// The print policy, when the source sets it (`printPolicy`).
    public var print: PrintPolicy? = nil

    /// Creates inputs; everything but the setting has the engine's default.
    public init(
        setting: PolicySetting,
        whitelist: Whitelist = .empty,
        config: [String: String] = [:],
        infoPlist: InfoPlistOverrides = InfoPlistOverrides(),
        device: DeviceFacts = DeviceFacts(),
        app: AppFacts = AppFacts(),
        dragAndDrop: DragAndDropPolicy? = nil,
        enforcing: Bool = true
    ) {
        self.setting = setting
        self.whitelist = whitelist
        self.config = config
        self.infoPlist = infoPlist
        self.device = device
        self.app = app
        self.dragAndDrop = dragAndDrop
        self.enforcing = enforcing
    }

    /// The policy requests are decided under.
    public var policy: Policy {
        var policy = Policy(setting: setting, whitelist: whitelist, config: AppConfig(config), infoPlist: infoPlist,
                            device: device, app: app, dragAndDrop: dragAndDrop, enforcing: enforcing)
        policy.openFrom = openFrom
        policy.pasteboard = pasteboard
        policy.print = print
        return policy
    }
}
