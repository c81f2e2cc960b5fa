import OpenInAppConnect
import OpenInCore
import OpenInIntune
import OpenInKit

extension RuleID {
    /// Looks up a rule id by name, among every vendor's rules.
    /// - Returns: `nil` when no rule has that id.
    public init?(parsing text: String) {
        guard let info = (RuleInfo.all + RuleInfo.intune).first(where: { ExactText.same($0.id.rawValue, text) }) else { return nil }
        self = info.id
    }
}
