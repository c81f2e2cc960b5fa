import OpenInCore
import OpenInFleet
import OpenInKit

extension OpenInStatus {
    /// Whether `target` counts as listed under this status: always under AUTHORIZED, never
    /// under UNAUTHORIZED, under WHITELIST when `whitelist` lists it (the whole pair for native
    /// Mail). The one definition behind ``Policy/lists(_:)``, ``Policy/mailAllowed`` and the
    /// evaluator's prepared policy.
    @inline(__always)
    package func lists(_ target: BundleID, in whitelist: Whitelist) -> Bool {
        switch self {
        case .authorized: true
        case .unauthorized: false
        case .whitelist: whitelist.lists(target)
        }
    }
}
