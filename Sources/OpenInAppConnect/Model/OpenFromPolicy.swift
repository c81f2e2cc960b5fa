import OpenInCore
import OpenInFleet
import OpenInKit

/// The server's Open From policy: a status and its whitelist, or "All AppConnect apps".
public struct OpenFromPolicy: Sendable, Hashable {
    /// What the server chose.
    public enum Setting: Sendable, Hashable {
        /// One of the three statuses, with the whitelist given explicitly.
        case status(OpenFromStatus)
        /// "All AppConnect apps": WHITELIST of the device's AppConnect apps.
        case allAppConnectApps

        /// Reads `unauthorized`, `authorized`, `whitelist`, `appconnect`, a constant name or `0`/`1`/`2`.
        /// - Throws: ``InputError/unknownOpenFromPolicy(_:)``.
        public init(parsing text: String) throws(InputError) {
            self = text.lowercased().utf8.elementsEqual("appconnect".utf8) ? .allAppConnectApps : .status(try OpenFromStatus(parsing: text))
        }
    }

    /// The server's choice.
    public var setting: Setting
    /// The Open From whitelist as the server gives it (used under ``OpenFromStatus/whitelist`` only).
    public var whitelist: Whitelist

    /// Creates an Open From policy.
    public init(_ setting: Setting, whitelist: Whitelist = .empty) {
        self.setting = setting
        self.whitelist = whitelist
    }

    /// Creates an Open From policy from a status.
    public init(status: OpenFromStatus, whitelist: Whitelist = .empty) {
        self.init(.status(status), whitelist: whitelist)
    }

    /// The status the app sees: "All AppConnect apps" is WHITELIST.
    public var status: OpenFromStatus {
        switch setting {
        case .status(let status): status
        case .allAppConnectApps: .whitelist
        }
    }

    /// The whitelist the app sees: the device's AppConnect apps under "All AppConnect apps".
    public func effectiveWhitelist(appConnectApps: Set<BundleID>) -> Whitelist {
        setting == .allAppConnectApps ? Whitelist(appConnectApps) : whitelist
    }
}
