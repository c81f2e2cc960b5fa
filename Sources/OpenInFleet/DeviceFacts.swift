import OpenInCore
import OpenInKit

/// Rules on device facts that the fleet file's device profiles and the Intune devices file share
/// (one reader of scheme handlers, ``schemeHandlers(_:)``, and these).
package enum DeviceFactsRules {
    /// A scheme handler must be an app the profile installs, or native Mail (on every device):
    /// otherwise `eval` would deliver to an app `paths` never reaches.
    /// `listed` says whether the profile installs it (as the vendor compares bundle IDs).
    package static func refuseHandlerNotInstalled(_ app: BundleID, _ cursor: JSONCursor, listed: Bool, installed: [BundleID]) throws(FormatError) {
        if app.isNativeMail || listed { return }
        throw cursor.error("\(app) handles the scheme but is not installed on the device: add it to installed, or name an installed app\(Suggestion.phrase(for: app.rawValue, among: installed.map(\.rawValue)).isEmpty ? "" : "." + Suggestion.phrase(for: app.rawValue, among: installed.map(\.rawValue)))")
    }

    /// A device's `schemeHandlers` (`{"SCHEME": "BUNDLE_ID"}`), the one reader of them for policy
    /// files, fleet device profiles and the Intune devices file: each handler a valid bundle ID, each
    /// scheme a valid URL scheme given once (schemes ignore case, so `Boxfile` and `boxfile` are one
    /// scheme, and two handlers for it would leave the later silently winning).
    package static func schemeHandlers(_ field: JSONCursor) throws(FormatError) -> [(scheme: String, app: BundleID, cursor: JSONCursor, keyPosition: JSONPosition?)] {
        var handlers: [(scheme: String, app: BundleID, cursor: JSONCursor, keyPosition: JSONPosition?)] = []
        var seen: [String: String] = [:]
        for (scheme, cursor, keyPosition) in try field.anyMembers(what: "URL scheme to bundle ID") {
            let handlerText = try cursor.string()
            let handler: BundleID
            do throws(InputError) {
                handler = try BundleID(handlerText)
            } catch {
                throw cursor.error(error.description)
            }
            let normalized: String
            do throws(InputError) {
                normalized = try URLScheme.normalize(scheme)
            } catch {
                throw FormatError("\(cursor.path): \(error.description)", at: keyPosition)
            }
            if let earlier = seen[normalized] {
                throw FormatError("\(cursor.path): the scheme is given twice (also as \(Printable.quoted(earlier)); schemes ignore case): give it once", at: keyPosition)
            }
            seen[normalized] = scheme
            handlers.append((scheme, handler, cursor, keyPosition))
        }
        return handlers
    }
}
