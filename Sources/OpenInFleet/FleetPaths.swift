import OpenInCore
import OpenInKit

/// A place a document can be on a device: one of its apps, or "any other app" (an app the fleet does not list).
public enum FleetNode: Sendable, Hashable, CustomStringConvertible {
    /// An app, by bundle ID.
    case app(BundleID)
    /// Any app the fleet does not list (installed or not): AppConnect does not manage it.
    case anyOtherApp

    /// The app's bundle ID, or `any other app`.
    public var description: String {
        switch self {
        case .app(let id): id.rawValue
        case .anyOtherApp: FleetNode.anyOtherAppName
        }
    }

    /// How output names "any other app".
    public static let anyOtherAppName = "any other app"
}

/// One step of a path: a request from one node that delivers to the next, with its end-to-end decision
/// (either vendor's) and the settings that let it through.
public struct FleetHop: Sendable {
    /// Where the document is.
    public let from: FleetNode
    /// Where the request delivers it.
    public let to: FleetNode
    /// The request and its end-to-end decision (channel, sender rule, receiver rule).
    public let decision: FleetDecision

    /// The request.
    public var request: FleetRequest { decision.request }
    /// The channel.
    public var channel: FleetChannel { decision.request.channel }
    /// The rules that let the document go: the sender's, then the receiver's when it decides.
    public var rules: [RuleID] { decision.rules }
    /// The settings that let the document go, sender's first (``FleetDecision/settings``).
    public var settings: [FleetSetting] { decision.settings }

    package init(from: FleetNode, to: FleetNode, decision: FleetDecision) {
        self.from = from
        self.to = to
        self.decision = decision
    }
}

/// The shortest chain of hops from the starting app to one node, and the apps that deliver to it directly.
public struct FleetPath: Sendable {
    /// The node reached.
    public let to: FleetNode
    /// The hops, first to last (at least one): the shortest chain.
    public let hops: [FleetHop]
    /// Every node reached from the start (the start included) that delivers to ``to`` in one hop:
    /// the last hops of all its routes, in node order, at most ``deliveredByLimit`` of them.
    public let deliveredBy: [FleetNode]
    /// How many nodes deliver to ``to`` in one hop (``deliveredBy`` lists the first ``deliveredByLimit``).
    public let deliveredByCount: Int

    /// The most nodes ``deliveredBy`` lists: on a dense fleet every reached app that AppConnect (or
    /// Intune) does not manage delivers to most apps, and listing them all for every destination of
    /// every start would be cubic output.
    public static let deliveredByLimit = 10
}
