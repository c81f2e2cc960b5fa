/// The flags that set what the library names by key: the library's sentences name a
/// setting as `(policy key device.emailPlusInstalled)` or `(request key source)`, and the
/// CLI, which owns its flags, adds the one that sets it.
extension PolicyOptions {
    /// The flag for a policy or request key, with its value's form; nil for a key no flag sets.
    static func flag(forKey key: Substring) -> String? {
        let handlers = "device.schemeHandlers."
        if key.hasPrefix(handlers) { return "--scheme-handler \(key.dropFirst(handlers.count))=BUNDLE_ID" }
        switch key {
        case "device.emailPlusInstalled": return "--email-plus-installed"
        case "device.secureServicesAvailable": return "--secure-services available|unavailable"
        case "device.appConnectApps": return "--appconnect-app BUNDLE_ID"
        case "config": return "--config KEY=VALUE"
        case "source": return "--source BUNDLE_ID"
        case "target": return "--target BUNDLE_ID"
        case "url": return "--url URL"
        default: return nil
        }
    }

    /// `sentence` with the flag added to each `(policy key K)` or `(request key K)` it holds:
    /// `(policy key device.emailPlusInstalled, flag --email-plus-installed)`.
    static func withFlags(_ sentence: String) -> String {
        let markers = ["(policy key ", "(request key "]
        var result = ""
        var rest = Substring(sentence)
        while !rest.isEmpty {
            guard let marker = markers.first(where: { rest.hasPrefix($0) }) else {
                result.append(rest.removeFirst())
                continue
            }
            let afterMarker = rest.dropFirst(marker.count)
            guard let close = afterMarker.firstIndex(of: ")") else { break }
            let key = afterMarker[..<close]
            result += rest[..<close]
            if let flag = flag(forKey: key) { result += ", flag \(flag)" }
            rest = rest[close...]
        }
        return result + rest
    }
}
