import OpenInCore
import OpenInKit

/// One setting behind an end-to-end decision: which policy value lets a document through (or, for
/// a control the app's own policy leaves out, where the value that applies comes from).
///
/// Each side that decides names its settings: the sender always, the receiver when it decides. A
/// setting says the app, the policy (a container policy's name, `global policy`, an app
/// configuration's name, or an Intune policy's `displayName`), how that policy reaches the app on
/// the device (``via``), the key path and value as the file writes them, and the file and line.
public struct FleetSetting: Sendable, Hashable {
    /// Which side of the request the setting decides.
    public enum Side: String, Sendable, Hashable, CustomStringConvertible {
        /// The sending app.
        case sender
        /// The receiving app.
        case receiver

        public var description: String { rawValue }
    }

    /// Which side the setting decides.
    public var side: Side
    /// The app whose policy holds it.
    public var app: BundleID
    /// The policy: a container policy's name, `global policy`, an app configuration's name, an Intune
    /// policy's `displayName`; for an app no policy manages, what says so.
    public var policy: String
    /// How the policy reaches the app on the device: `container policy by label L`, `global default`
    /// (with the container policy that leaves the control out, when one applies), `app configuration
    /// by label L`, `Intune targeting`, `not an AppConnect app`, …
    public var via: String
    /// The key path in the file (`containerPolicies[2].openInPolicy`, `value[0].allowedOutboundDataTransferDestinations`).
    public var key: String
    /// The value as the file writes it (for a default, the value that applies and why).
    public var value: String
    /// The file, when known.
    public var file: String?
    /// The 1-based line of the value (for a default, of the object it comes from), when known.
    public var line: Int?

    /// Creates a setting.
    public init(side: Side, app: BundleID, policy: String, via: String, key: String, value: String, file: String? = nil, line: Int? = nil) {
        self.side = side
        self.app = app
        self.policy = policy
        self.via = via
        self.key = key
        self.value = value
        self.file = file
        self.line = line
    }

    /// `FILE:LINE`, or as much of it as is known (empty when neither is).
    public var place: String {
        switch (file, line) {
        case (let file?, let line?): "\(file):\(line)"
        case (let file?, nil): file
        case (nil, let line?): "line \(line)"
        default: ""
        }
    }
}
