import OpenInPolicy

// Extensions, not in the AppConnect SDK: questions an app asks before it shows
// a menu item, in the manner of Intune's `IntuneMAMPolicy`. The answer is the
// evaluator's decision on the same request made now, against the same policy
// snapshot a share would use; asking records nothing and calls no delegate.
extension AppConnect {
    /// Extension (not in the SDK): whether sharing a document to `target` through the Open In menu is allowed now.
    ///
    /// `true` only when the decision is `allow`: a redirect or a dummy file is not
    /// what the user asked for.
    public func isOpenInAllowed(to target: BundleID) -> Bool {
        guard let request = try? ShareRequest(channel: .documentInteraction, target: target) else { return false }
        return Evaluator(policy: currentPolicy).decide(request).outcome == .allow
    }

    /// Extension (not in the SDK): whether the app may receive a document from `source` now (Open From);
    /// `nil` for a sender the app cannot name.
    public func isOpenFromAllowed(from source: BundleID?) -> Bool {
        guard let request = try? ShareRequest(channel: .openFrom, source: source) else { return false }
        return Evaluator(policy: currentPolicy).decide(request).outcome == .allow
    }

    /// Extension (not in the SDK): whether the app's own `openURL:` of `url` is allowed now.
    public func isURLAllowed(_ url: ShareURL) -> Bool {
        guard let request = try? ShareRequest(channel: .openURL, url: url) else { return false }
        return Evaluator(policy: currentPolicy).decide(request).outcome == .allow
    }
}
