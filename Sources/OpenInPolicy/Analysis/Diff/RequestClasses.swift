/// The finite set of requests that can tell two policies apart.
///
/// The evaluator never looks at a request's strings as such; it asks a few
/// questions about them, and two requests that get the same answers under both
/// policies get the same decisions (up to the request's own target, URL and
/// document, which both policies echo alike). So one representative of every
/// combination of answers is enough:
///
/// - **Targets** are read only through exact membership: in either whitelist,
///   in either device's AppConnect apps, and whether the ID is one of the Mail
///   pair. Every ID in any of those sets, both Mail IDs, Email+'s IDs and the
///   scheme handlers of both policies each get a class, and one fresh ID in
///   none of them stands for every other app (a case variant such as
///   `com.apple.MobileMail` is just another unlisted ID).
/// - **URLs** are read only through their lowercased scheme: is it `mailto`,
///   one of the app's own schemes, `http`/`https`, and which app handles it.
///   `mailto`, both web schemes, every own or handled scheme of either policy,
///   and one fresh scheme that neither policy knows each get a class.
/// - **Channels**: every channel. The activity view decides without looking
///   at its target, and `mail-link`/`mail-compose` without looking at the
///   URL; they get a class each (the activity view with and without a target).
/// - **Documents** only feed the dummy file name, which is a function of the
///   request alone, so both policies make the same one.
///
/// Everything else a decision reads (status, config, Info.plist override,
/// Email+ installed, drag-and-drop policy, enforcing) belongs to the policy
/// and is the same for every request.
enum RequestClasses {
    /// The URL a class of `open-url` uses for `scheme`.
    static func sampleURL(scheme: String) -> ShareURL {
        let text = switch scheme {
        case "mailto": "mailto:someone@example.com"
        case "http", "https": "\(scheme)://example.com/"
        default: "\(scheme)://share"
        }
        do { return try ShareURL(text) } catch { preconditionFailure("built-in sample URL \(text) is invalid: \(error)") }
    }

    /// Every request class for `old` and `new`, in a stable order: by channel,
    /// then target or scheme, with the fresh ID and the fresh scheme last.
    static func make(old: Policy, new: Policy) -> [ShareRequest] {
        let targets = targets(old, new)
        let schemes = schemes(old, new)
        var classes: [ShareRequest] = []
        for channel in Channel.allCases {
            switch channel {
            case .documentInteraction, .quickLook, .appExtension, .dragAndDrop:
                for target in targets { classes.append(request(channel, target: target)) }
            case .activityView:
                classes.append(request(channel))
                classes.append(request(channel, target: targets[targets.count - 1]))
            case .openURL:
                for scheme in schemes { classes.append(request(channel, url: sampleURL(scheme: scheme))) }
            case .mailLink:
                classes.append(request(channel, url: sampleURL(scheme: "mailto")))
            case .mailCompose:
                classes.append(request(channel))
            case .openFrom, .copy, .print:
                // Only where both policies can decide the channel: see `PolicyDiff.undecidable`.
                guard old.missingKey(for: channel) == nil, new.missingKey(for: channel) == nil else { continue }
                classes += beyondOpenIn(channel, targets: targets)
            }
        }
        return classes
    }

    /// The classes of a channel beyond Open In: Open From reads its source only through
    /// membership of the Open From whitelist, copy its paste target only through membership
    /// of the AppConnect apps, and print nothing; an unknown source and a copy with no paste
    /// target are classes of their own.
    static func beyondOpenIn(_ channel: Channel, targets: [BundleID]) -> [ShareRequest] {
        switch channel {
        case .openFrom:
            return [openFromRequest(source: nil)] + targets.map { openFromRequest(source: $0) }
        case .copy:
            return [request(channel)] + targets.map { request(channel, target: $0) }
        case .print:
            return [request(channel)]
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose, .dragAndDrop:
            return []
        }
    }

    private static func openFromRequest(source: BundleID?) -> ShareRequest {
        do {
            return try ShareRequest(channel: .openFrom, source: source)
        } catch {
            preconditionFailure("request class for open-from is invalid: \(error)")
        }
    }

    /// Every ID either policy names, the Mail pair and Email+, sorted, then one fresh unlisted ID.
    static func targets(_ old: Policy, _ new: Policy) -> [BundleID] {
        var known: Set<BundleID> = [.mailActivity, .mobileMail, .emailPlus]
        for policy in [old, new] {
            known.formUnion(policy.whitelist.ids)
            known.formUnion(policy.device.appConnectApps)
            known.formUnion(policy.device.emailPlusBundleIDs)
            known.formUnion(policy.device.schemeHandlers.values)
            known.formUnion(policy.openFrom?.whitelist.ids ?? [])
        }
        return known.sorted() + [freshID(avoiding: Set(known.map(\.rawValue)))]
    }

    /// `mailto`, `http`, `https`, every own or handled scheme of either policy, sorted, then one fresh scheme.
    static func schemes(_ old: Policy, _ new: Policy) -> [String] {
        var known: Set<String> = ["http", "https"]
        for policy in [old, new] {
            known.formUnion(policy.app.urlSchemes)
            known.formUnion(policy.device.schemeHandlers.keys)
        }
        known.remove("mailto")
        return ["mailto"] + known.sorted() + [freshName(avoiding: known, base: "x-unhandled")]
    }

    /// `base`, or `base-2`, `base-3`… : the first that is not in `taken`.
    private static func freshName(avoiding taken: Set<String>, base: String) -> String {
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// An ID no policy names: it stands for every other app.
    private static func freshID(avoiding taken: Set<String>) -> BundleID {
        let text = freshName(avoiding: taken, base: "com.example.unlisted-app")
        do { return try BundleID(text) } catch { preconditionFailure("fresh bundle ID \(text) is invalid: \(error)") }
    }

    private static func request(_ channel: Channel, target: BundleID? = nil, url: ShareURL? = nil) -> ShareRequest {
        do {
            return try ShareRequest(channel: channel, target: target, url: url)
        } catch {
            preconditionFailure("request class for \(channel) is invalid: \(error)")
        }
    }
}
