internal import AppConnectRuntime
internal import OpenInPolicy
import Foundation

// Extensions, not in the AppConnect SDK: questions an app asks before it shows
// a menu item, in the manner of Intune's `IntuneMAMPolicy`. Each answer is the
// runtime evaluator's decision on the request made now; asking records nothing
// and calls no delegate method. Code that must also build against the real SDK
// keeps these calls out of its shipping target.
extension AppConnect {
    /// Extension (not in the SDK): whether sharing a document with the app `bundleID` through Open In is allowed now.
    ///
    /// `false` for a malformed bundle ID, and whenever the decision is not `allow`.
    public func isOpenInAllowed(to bundleID: String) -> Bool {
        guard let target = try? BundleID(bundleID) else { return false }
        return runtime.isOpenInAllowed(to: target)
    }

    /// Extension (not in the SDK): whether the app may receive a document from the app `bundleID` now (Open From);
    /// `nil` for a sender the app cannot name.
    ///
    /// `false` for a malformed bundle ID, and whenever the decision is not `allow`.
    public func isOpenFromAllowed(from bundleID: String?) -> Bool {
        guard let bundleID else { return runtime.isOpenFromAllowed(from: nil) }
        guard let source = try? BundleID(bundleID) else { return false }
        return runtime.isOpenFromAllowed(from: source)
    }

    /// Extension (not in the SDK): whether the app's own `openURL:` of `url` is allowed now.
    ///
    /// `false` for a URL the runtime cannot read, and whenever the decision is not `allow`.
    public func isURLAllowed(_ url: URL) -> Bool {
        guard let shareURL = try? ShareURL(url.absoluteString) else { return false }
        return runtime.isURLAllowed(shareURL)
    }
}
