import OpenInCore
import OpenInKit

/// One hop of an AppConnect graph whose decisions cannot throw, as ``FleetHopFinder`` finds it: the
/// request that delivers (the first of ``FleetDevice/candidateRequests(from:)`` that does, as
/// ``FleetDevice/paths(_:)`` takes it), its rules, and where its settings are, without the decision
/// record or the settings themselves (a writer makes the text of each part of them once).
package struct FleetHopShape: Sendable {
    /// The nodes the hop goes from and to.
    package let from: Int32, to: Int32
    /// The request: below ``FleetHopFinder/targetedCount``, the targeted channel of that position
    /// (``FleetHopFinder/request(_:)``); above, one of the requests that name no target.
    package let request: Int32
    /// The sender's rule, and the receiver's when it decides.
    package let senderRule: RuleID
    package let receiverRule: RuleID?
    /// The sender's settings without its whitelist's entries (``FleetHopFinder/senderPart(_:)``).
    package let senderPart: Int32
    /// The node whose Open From decides (`-1`: none).
    package let receiverNode: Int32
    /// The app the request delivers to.
    package let receiving: BundleID

    package init(from: Int32, to: Int32, request: Int32, senderRule: RuleID, receiverRule: RuleID?, senderPart: Int32, receiverNode: Int32, receiving: BundleID) {
        (self.from, self.to, self.request, self.senderRule, self.receiverRule) = (from, to, request, senderRule, receiverRule)
        (self.senderPart, self.receiverNode, self.receiving) = (senderPart, receiverNode, receiving)
    }
}

/// One whitelist entry among a hop's settings: its whitelist's template (``template(_:)``), key path, value and line.
package struct FleetHopEntry {
    package let template: Int
    package let key: String, value: String
    package let line: Int?

    package init(template: Int, key: String, value: String, line: Int?) {
        (self.template, self.key, self.value, self.line) = (template, key, value, line)
    }
}

/// A vendor's fast source of a device's hops, for writers that print every hop of many paths: each
/// hop's shape (its request, rules and the parts of its settings made once) rather than a decision.
/// The vendor seam offers one when it has it (``FleetVendorDevice``); a writer without one decides
/// each hop (``FleetHop``).
package protocol FleetHopSource {
    /// Whether the source is for the graph `reach` was searched on.
    func isFor(_ reach: FleetReach) -> Bool
    /// The device's nodes.
    var nodes: [FleetNode] { get }
    /// The nodes' bundle IDs.
    var ids: [BundleID] { get }
    /// The number of requests that name a target (they come first).
    var targetedCount: Int { get }
    /// The number of requests a sender makes.
    var requestCount: Int { get }
    /// The request at `position`.
    func request(_ position: Int) -> (channel: FleetChannel, url: ShareURL?, targeted: Bool)
    /// The hop from node `x` to node `y`, decided.
    func hop(from x: Int, to y: Int) throws(FleetError) -> FleetHop?
    /// The hop from node `x` to node `y` as a shape, or `nil` when the source cannot give one.
    mutating func shape(from x: Int, to y: Int) -> FleetHopShape?
    /// A sender part's settings: those before the whitelist entries, and those after.
    func senderPart(_ id: Int) -> (before: [FleetSetting], after: [FleetSetting])
    /// The receiving node's settings that do not depend on the sender.
    mutating func receiverBase(_ node: Int) -> [FleetSetting]
    /// The whitelist entries behind `shape` on `side`, appended to `found`.
    mutating func entries(_ shape: FleetHopShape, side: FleetSetting.Side, into found: inout [FleetHopEntry])
    /// An entry's template setting.
    func template(_ id: Int) -> FleetSetting
}
