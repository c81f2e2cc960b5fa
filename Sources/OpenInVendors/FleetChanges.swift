import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// What `fleet diff` finds between two fleets of either vendor, chosen in one place: two AppConnect
/// fleets compare effective policies, flows, leak paths and controls (``FleetDiff``); with Intune on a
/// side, or every flow asked for, each flow is decided under each side's rules and the changes grouped
/// by what the receiving app can read (``CrossVendorDiff``).
public enum FleetChanges {
    /// Two AppConnect fleets: what opens and closes.
    case fleet([FleetChange])
    /// Every end-to-end flow that decides differently, with the two sides' vendor names, and the device profiles
    /// and apps the two sides' policies reach differently (``CrossVendorDiff/reach(old:new:device:)``).
    case flows([FlowChange], old: String, new: String, reach: [ReachChange] = [])

    /// The changes from `old` to `new` (on the device named `device` alone, when given); `everyFlow`
    /// compares flow by flow even two AppConnect fleets.
    /// - Throws: ``FleetError`` for an unknown device or a fleet that cannot be resolved.
    public static func compare(old: FleetAnalysis, new: FleetAnalysis, device: String?, everyFlow: Bool) throws(FleetError) -> FleetChanges {
        if let before = old.appConnect, let after = new.appConnect, !everyFlow {
            return .fleet(try FleetDiff.compare(old: before, new: after, device: device))
        }
        let (before, after) = (old.source, new.source)
        return .flows(try CrossVendorDiff.compare(old: before, new: after, device: device), old: before.vendor, new: after.vendor,
                      reach: try CrossVendorDiff.reach(old: before, new: after, device: device))
    }

    /// Whether something opens: a flow, path or control (AppConnect), or a flow the receiving app can now read.
    public var opensSomething: Bool {
        switch self {
        case .fleet(let changes): changes.contains(where: \.opened)
        case .flows(let changes, _, _, _): changes.contains { $0.group == .newlyAllowed }
        }
    }
}
