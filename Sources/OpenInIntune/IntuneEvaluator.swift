import OpenInCore
import OpenInFleet
import OpenInKit

/// What Intune decides a share request with: the sending app's policy, and the facts of the device
/// and of the apps on it that Intune depends on.
public struct IntuneContext: Sendable, Hashable {
    /// The sending app's app protection policy, or `nil` when no policy targets the app (it is unmanaged).
    public var policy: IntunePolicy?
    /// The app the policy applies to (the sending app; for `paste` and `keyboard`, the app the user
    /// pastes or types into), when known. A paste from the app itself is not between apps.
    public var app: BundleID?
    /// The sending app's Intune App SDK version, when known.
    public var senderSDKVersion: IntuneSDKVersion?
    /// The *policy-managed* apps on the device: apps with the Intune App SDK that a policy targets
    /// (the sending app's or another one for the same user). Compared ignoring ASCII case.
    public var managedApps: [BundleID] = [] { didSet { managedIndex = ManagedIndex() } }
    /// `managedApps` by `IntuneBundleID/key(_:)`, when a device index made it: one set shared by every
    /// context on the device, so `isManaged(_:)` is a lookup, not a walk of the list (`nil`: walk it).
    var managedIndex = ManagedIndex()
    /// The apps the device's MDM manages (for "Policy managed apps with OS sharing").
    public var mdmManagedApps: [BundleID] = []
    /// Whether the device is MDM-enrolled.
    public var mdmEnrolled = false
    /// Whether the sending app has the `IntuneMAMUPN` app configuration (the enrolled user's UPN).
    public var intuneMAMUPN = false
    /// The app that handles each URL scheme (lowercase scheme).
    package private(set) var schemeHandlers: [ExactKey: BundleID] = [:]
    /// The sending app's own URL schemes (lowercase).
    public private(set) var ownSchemes: [String] = []
    /// `ownSchemes` as byte-exact keys, so adding and asking are lookups, not walks of the list.
    private var ownSchemeKeys = DerivedKeys()

    /// A context for an app under `policy` (or unmanaged, when `nil`).
    public init(policy: IntunePolicy?) { self.policy = policy }

    /// Records that `handler` opens URLs with `scheme` (compared case-insensitively).
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public mutating func setHandler(_ handler: BundleID, for scheme: String) throws(InputError) {
        schemeHandlers[ExactKey(try URLScheme.normalize(scheme))] = handler
    }

    /// Adds one of the sending app's own URL schemes.
    /// - Throws: ``InputError/malformedScheme(_:)``.
    public mutating func addOwnScheme(_ scheme: String) throws(InputError) {
        let normalized = try URLScheme.normalize(scheme)
        if ownSchemeKeys.keys.insert(ExactKey(normalized)).inserted { ownSchemes.append(normalized) }
    }

    /// The app that handles `scheme` (lowercase), when the facts name one.
    public func handler(forScheme scheme: String) -> BundleID? { schemeHandlers[ExactKey(scheme)] }

    /// Whether `app` is policy-managed on this device.
    public func isManaged(_ app: BundleID) -> Bool {
        if let keys = managedIndex.keys { return keys.contains(IntuneBundleID.key(app)) }
        return IntuneBundleID.contains(managedApps, app)
    }

    /// Whether `app` is managed by the device's MDM.
    func isMDMManaged(_ app: BundleID) -> Bool { IntuneBundleID.contains(mdmManagedApps, app) }

    /// Whether `scheme` is one of the sending app's own.
    package func isOwn(_ scheme: String) -> Bool { ownSchemeKeys.keys.contains(ExactKey(scheme)) }
}

/// Byte-exact keys derived from a list beside them (which the value compares by): equal whatever they
/// hold, so a value compares by its list, not by its lookup table.
struct DerivedKeys: Sendable, Hashable {
    package var keys: Set<ExactKey> = []
    package static func == (_: DerivedKeys, _: DerivedKeys) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

/// The keys of a context's managed apps, derived from them: equal whatever it holds, so two contexts
/// compare by what they say, not by whether an index was made.
struct ManagedIndex: Sendable, Hashable {
    package var keys: Set<ExactKey>? = nil
    package static func == (_: ManagedIndex, _: ManagedIndex) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

/// Decides share requests as an app under a Microsoft Intune app protection policy experiences them:
/// the Intune rule units in order, first match decides (`Rules/intune/`).
///
/// A second evaluator beside ``Evaluator`` (the AppConnect one), giving the same ``Decision``: an
/// Intune decision has no AppConnect callbacks, and its Open In UI is always `enabled` (Intune never
/// asks the app to hide its Open In items: it filters or encrypts).
///
/// ```swift
/// var policy = IntunePolicy(displayName: "BYOD")
/// policy.send = .managedApps
/// let decision = IntuneEvaluator(context: IntuneContext(policy: policy))
///     .decide(try ShareRequest(channel: "document-interaction", target: "com.getdropbox.Dropbox"))
/// // deliver-encrypted, rule intune.send.unmanaged-target-encrypted
/// ```
public struct IntuneEvaluator: Sendable {
    /// The policy and facts requests are decided under.
    public let context: IntuneContext

    /// Creates an evaluator for `context`.
    public init(context: IntuneContext) { self.context = context }

    /// Decides one request.
    /// - Complexity: O(n) in the policy's lists and the device's managed apps.
    public func decide(_ request: ShareRequest) -> Decision {
        Self.unit(for: request, context).decide(request, context)
    }

    /// Decides a request that names a location: "Save copies of org data" (`save-as`) or "Open data
    /// into Org documents" (`open-into-org-document`), under the app's own policy; an app no policy
    /// targets is unmanaged (rule 1).
    /// - Complexity: O(n) in the policy's location lists.
    public func decide(_ request: LocationRequest) -> Decision {
        guard let policy = context.policy else { return .intune(.allow, to: nil, IntuneUnmanagedSenderRule.allow) }
        switch request.channel {
        case .saveAs: return IntuneSaveAsRule.decide(request, policy)
        case .openIntoOrgDocument: return IntuneOpenIntoOrgDocumentRule.decide(request, policy)
        }
    }

    /// The unit that decides `request`: rule 1 for an app no policy targets, otherwise the unit of
    /// the request's route. An exhaustive `switch`, so the compiler checks that every route (every
    /// ``Channel``) has an Intune rule; it picks the unit the catalog's first match would
    /// (`IntuneEvaluatorTotalityTests` checks both agree).
    package static func unit(for request: ShareRequest, _ context: IntuneContext) -> any IntuneRuleUnit.Type {
        if context.policy == nil { return IntuneUnmanagedSenderRule.self }
        switch request.route {
        case .document, .activityView: return IntuneShareRule.self
        case .mailto, .otherURL: return IntuneURLRule.self
        case .mailView: return request.channel == .mailLink ? IntuneURLRule.self : IntuneMailComposeRule.self
        case .dragAndDrop: return IntuneDragAndDropRule.self
        case .openFrom: return IntuneReceiveRule.self
        case .copy: return IntuneCopyRule.self
        case .print: return IntunePrintRule.self
        case .paste: return IntunePasteRule.self
        case .keyboard: return IntuneKeyboardRule.self
        }
    }
}
