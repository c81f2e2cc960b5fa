@testable import OpenInAppConnect
@testable import OpenInCore
@testable import OpenInFleet
@testable import OpenInIntune
import OpenInKit
@testable import OpenInVendors

// The reference walk of the translation's keyed search, kept with the tests that compare with it.
extension PolicyTranslation {
    /// Calls `body` with every flow the translation opens, on every device both sides name: each
    /// request ``CrossVendorDiff`` compares (every managed sender × receiver × channel, `paste`,
    /// `open-url` on each scheme, the mail channels, `keyboard`), decided end to end before and after.
    /// A flow is opened when the receiving app can read what it could not (denied, a dummy file or an
    /// encrypted delivery becomes allowed or redirected: ``FlowChange/Group/newlyAllowed``), when a
    /// readable delivery goes to another app, or when the source cannot decide the request (a control
    /// it does not set) and the translation delivers it readable. Sender by sender, in the order of
    /// ``CrossVendorDiff``'s requests; `endOfSender` after each sender's flows.
    /// - Complexity: O(devices × apps² × channels) end-to-end decisions, memory O(apps + channels)
    ///   beyond the two fleets (one sender's requests at a time).
    static func eachOpenedFlow(from old: VendorFleet, to new: VendorFleet, _ body: (OpenedFlow) -> Void, endOfSender: () -> Void = {}) {
        let newNames = Set(new.deviceNames.map(ExactKey.init))
        for name in old.deviceNames where newNames.contains(ExactKey(name)) {
            // A translated device that cannot be resolved decides nothing, so delivers nothing.
            guard let after = try? FlowSides(new, name) else { continue }
            let before = Result { () throws(FleetError) in try FlowSides(old, name) }
            let device = DeviceRequests(old: old, new: new, device: name)
            for sender in device.senders {
                for request in device.requests(from: sender) {
                    if let flow = openedFlow(request, on: name, from: old, before, to: new, after) { body(flow) }
                }
                endOfSender()
            }
        }
    }

    /// The reference walk of ``eachOpenedFlowGroup(from:to:_:)``: every request decided before and after
    /// (``eachOpenedFlow(from:to:_:endOfSender:)``), grouped.
    static func eachOpenedFlowGroupByRequest(from old: VendorFleet, to new: VendorFleet, _ body: (OpenedFlowGroup) -> Void) {
        var groups = FlowGroups()
        eachOpenedFlow(from: old, to: new, { groups.add($0) }, endOfSender: {
            for group in groups.groups { body(group) }
            groups = FlowGroups()
        })
    }
}
