import OpenInCore
import OpenInFleet
import OpenInKit

/// What a policy source says: the ``Policy`` it states, and whether its Open In
/// setting is "All AppConnect apps", which a policy alone cannot keep.
///
/// Policy files (``PolicyFile``) read into this value; a caller may then
/// change or add to ``stated`` (the CLI's `--config`, `--scheme-handler`, …
/// flags do) and ask for the ``policy``. Keeping the ``PolicySetting`` means
/// "All AppConnect apps" still lists the device's AppConnect apps after they
/// change. Where the app's schemes were declared travels in the policy itself
/// (``AppFacts/schemeOrigins``).
public struct PolicyInputs: Sendable, Hashable {
    /// The policy as the source states it. Under "All AppConnect apps" its status
    /// is WHITELIST and its whitelist is not used: ``policy`` lists `device.appConnectApps`.
    public var stated: Policy
    /// Whether the source says "All AppConnect apps".
    private var allAppConnectApps: Bool

    /// Creates inputs with `setting`; the rest is `stated`, by default the engine's defaults.
    public init(setting: PolicySetting, stated: Policy = Policy(status: .unauthorized)) {
        self.stated = stated
        allAppConnectApps = false
        self.setting = setting
    }

    /// Inputs that state `policy`, with its status as the setting.
    public init(_ policy: Policy) {
        stated = policy
        allAppConnectApps = false
    }

    /// The Open In policy: the stated status, or "All AppConnect apps".
    public var setting: PolicySetting {
        get { allAppConnectApps ? .allAppConnectApps : .status(stated.status) }
        set {
            switch newValue {
            case .status(let status):
                allAppConnectApps = false
                stated.status = status
            case .allAppConnectApps:
                allAppConnectApps = true
                stated.status = .whitelist
            }
        }
    }

    /// The policy requests are decided under: ``stated``, with the device's
    /// AppConnect apps as the whitelist under "All AppConnect apps".
    public var policy: Policy {
        guard allAppConnectApps else { return stated }
        var policy = stated
        policy.whitelist = Whitelist(policy.device.appConnectApps)
        return policy
    }
}
