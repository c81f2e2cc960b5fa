import OpenInCore
import OpenInFleet
import OpenInKit

extension FleetGraph {
    /// Whether `x` delivers to `y`: what `row(x, among: [y]).contains(y)` answers, without the set-up
    /// of a whole row (the sender's checks, its whitelist as a node set), for a sender whose policy is
    /// unchanged and whose row was already made once (so those checks passed): `fleet fixes` asks it
    /// when a change alters only what `y` accepts, for every other node.
    ///
    /// The same steps as the row: the targeted requests to `y` decided by the sender (drag and drop
    /// and paste deliver with no receiving side; the other targeted channels need the receiver's Open
    /// From when it is an authorized app), then the custom schemes `y` handles and the mail requests,
    /// each landing on `y` or not.
    /// - Throws: ``FleetError`` when the receiver's decision needs a control its policy does not set, as the row does.
    package func delivers(_ x: Int, to y: Int) throws(FleetError) -> Bool {
        guard x != y else { return false }
        let prepared = sides[x].prepared
        let from = ids[x]
        func receiverAllows() throws(FleetError) -> Bool {
            if !authorized[y] { return true }
            if lacks[y] & FleetGraph.bit(.openFrom) != 0 {
                try device.check(sides[y].policy, needs: .openFrom, for: try! FleetRequest(from: from, channel: .documentInteraction, target: ids[y]))
            }
            return Evaluator.decide(openFrom[x], sides[y].prepared).outcome == .allow
        }
        var delivering: UInt8 = 0
        for c in FleetGraph.targetedChannels.indices {
            let outcome = Evaluator.decide(targeted(y, c), prepared).outcome
            if outcome == .allow || outcome == .redirect { delivering |= 1 << UInt8(c) }
        }
        if delivering & 0b11_0000 != 0 { return true }
        if delivering & 0b00_1111 != 0 { return try receiverAllows() }
        for position in schemesLandingOn[y] + mailPositions {
            let (channel, request, _) = untargeted[position]
            let decision = Evaluator.decide(request, prepared)
            guard let target = device.receiving(decision, channel: channel, request: request, from: from), landing(target) == y else { continue }
            return try receiverAllows()
        }
        return false
    }
}
