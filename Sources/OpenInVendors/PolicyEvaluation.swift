import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// How `eval --policy` decides on a policy input: as one app's policy (the AppConnect engine, ``Evaluator``), or as
/// policies decided end to end on device profiles (Intune app protection policies, through ``FleetAnalysis``).
///
/// The input is read once; what it holds is told here, so a command decides on the shape it is given and never on a vendor.
public enum PolicyEvaluation: Sendable, Equatable {
    /// One app's policy, decided by the single-app engine.
    case app
    /// One app's policy when it reads as one; otherwise (it holds Intune app protection policies) a fleet.
    case appElseFleet
    /// Policies decided end to end per device profile: ``FleetLoader/load(_:devices:options:note:)`` loads them.
    case fleet

    /// An option given for the other shape of input, in a sentence naming it and the fix.
    public struct Misplaced: Error, Sendable, CustomStringConvertible {
        /// What is wrong and how to fix it.
        public let description: String
    }

    /// How `file` is decided, when the options named in `fleetOptions` (`--devices`, `--from`, … as given) are given.
    ///
    /// A fleet option makes the input a fleet, and must find one; an export folder holding iOS app protection policies
    /// is one; a file is one app's policy unless it does not read as one and holds Intune policies.
    /// - Throws: ``Misplaced`` when a fleet option is given and the input holds no policies decided as a fleet.
    public static func of(_ file: FleetLoader.File, fleetOptions: [String]) throws(Misplaced) -> PolicyEvaluation {
        let holdsFleet = file.vendor == .intune
        if let flag = fleetOptions.first {
            guard holdsFleet else { throw Misplaced(description: "'\(flag)' is for an Intune app protection policy (Graph JSON), and \(file.path) is not one") }
            return .fleet
        }
        if file.bytes == nil { return file.holdsIntunePolicies ? .fleet : .app }
        return holdsFleet ? .appElseFleet : .app
    }

    /// The message for `flag`, an option of one app's policy, given with `file`, which is decided as a fleet.
    public static func misplaced(appOption flag: String, file: FleetLoader.File) -> Misplaced {
        Misplaced(description: "'\(flag)' is an AppConnect option, and \(file.path) holds Intune app protection policies: give the facts in --devices FILE")
    }
}
