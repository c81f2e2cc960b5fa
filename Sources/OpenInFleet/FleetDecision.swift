import OpenInCore
import OpenInKit

/// How a document (or a copy) moves from one app of a fleet to another: the Open In channels and
/// `paste`; and `keyboard`, what the app's user types reaching a keyboard extension.
///
/// Open From is not a channel of its own here: it is the receiving side of a share, decided
/// in the receiver (``FleetDecision/receiver``).
public enum FleetChannel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `UIDocumentInteractionController` to `target`.
    case documentInteraction = "document-interaction"
    /// Quick Look, to `target`.
    case quickLook = "quick-look"
    /// An app extension of `target`.
    case appExtension = "app-extension"
    /// The share sheet; `target` (optional) is the app the user picks.
    case activityView = "activity-view"
    /// The sender's own `openURL:`; the `url`'s handler receives it.
    case openURL = "open-url"
    /// A `mailto:` link tapped in a web or text view.
    case mailLink = "mail-link"
    /// `MFMailComposeViewController`.
    case mailCompose = "mail-compose"
    /// Drag and drop to `target`.
    case dragAndDrop = "drag-and-drop"
    /// A copy made in the sender (`from`), pasted into `target`: the sender's `copy` decision.
    case paste
    /// Typing in the sender (`from`) with a keyboard; `target` (optional) is the keyboard extension,
    /// `com.apple.keyboard` or none for the system keyboard. The sender alone decides (its app
    /// configuration's `MI_AC_IOS_ALLOW_CUSTOM_KEYBOARDS`, else the app's own answer): a keyboard
    /// extension is not an app receiving a document, and fleet paths do not follow it.
    case keyboard
    /// Copying in the sender (`from`): its copy decision and who may paste the copy (its audience); no receiver decides.
    case copy
    /// Printing from the sender (`from`); no receiver.
    case print
    /// Intune's "Save copies of org data": the sender saves a copy to a `location`. Intune only.
    case saveAs = "save-as"
    /// Intune's "Open data into Org documents": the app (`from`) opens data from a `location`. Intune only.
    case openIntoOrgDocument = "open-into-org-document"

    /// Reads a channel from its name, byte for byte.
    /// - Throws: ``InputError/unknownChannel(_:)`` (the error names the single-app channels; see ``FleetChannel/names``).
    public init(parsing text: String) throws(FleetError) {
        guard let channel = FleetChannel.allCases.first(where: { ExactText.same($0.rawValue, text) }) else {
            let names = FleetChannel.allCases.map(\.rawValue)
            let hint: String
            if ExactText.same(text, "open-from") {
                hint = " open-from is the receiving side of a share: write the request from the sending app (from) with the channel it uses, and the receiver's Open From is decided with it."
            } else {
                hint = Suggestion.phrase(for: text, among: names)
            }
            throw FleetError("unknown fleet channel \(JSONWriter.quoted(text)).\(hint) Fleet channels: \(FleetChannel.names)")
        }
        self = channel
    }

    /// The channels' names, comma-separated.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public var description: String { rawValue }

    /// The Intune location channel this is (`save-as`, `open-into-org-document`), or `nil`.
    public var locationChannel: LocationChannel? {
        switch self {
        case .saveAs: .saveAs
        case .openIntoOrgDocument: .openIntoOrgDocument
        default: nil
        }
    }

    /// The single-app channel the sender's decision is made on (`paste` is the sender's `copy`);
    /// `nil` for Intune's location channels, which name a location rather than an app.
    public var senderChannel: Channel? {
        switch self {
        case .documentInteraction: .documentInteraction
        case .quickLook: .quickLook
        case .appExtension: .appExtension
        case .activityView: .activityView
        case .openURL: .openURL
        case .mailLink: .mailLink
        case .mailCompose: .mailCompose
        case .dragAndDrop: .dragAndDrop
        case .paste, .copy: .copy
        case .keyboard: .keyboard
        case .print: .print
        case .saveAs, .openIntoOrgDocument: nil
        }
    }

    /// Whether the receiver's Open From decides too: a document handed to another app (Open In's
    /// channels). Not drag and drop (its own policy, set in the sender) nor paste (the pasteboard
    /// policy "does not impact whether your app is allowed to paste content from the pasteboard
    /// into your app": the SDK guide, "Pasteboard policy API details").
    public var hasReceiverPart: Bool {
        switch self {
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose: true
        case .dragAndDrop, .paste, .keyboard, .copy, .print, .saveAs, .openIntoOrgDocument: false
        }
    }
}

/// One end-to-end request: an app of the fleet (`from`) shares on a channel, to a target or URL.
public struct FleetRequest: Sendable, Hashable {
    /// The sending app (for `paste`, the app the copy was made in).
    public let from: BundleID
    /// The channel.
    public let channel: FleetChannel
    /// The sender's request, as the single-app evaluator decides it; `nil` on Intune's location channels.
    public let senderRequest: ShareRequest?
    /// The request on an Intune location channel (`save-as`, `open-into-org-document`), with its location.
    public let locationRequest: LocationRequest?

    /// The receiving app named in the request, if any.
    public var target: BundleID? { senderRequest?.target }
    /// The URL opened or tapped, if any.
    public var url: ShareURL? { senderRequest?.url }
    /// The shared file's name, if given.
    public var document: String? { senderRequest?.document }
    /// The location of a `save-as` or `open-into-org-document` request.
    public var location: DataLocation? { locationRequest?.location }

    /// Creates a request, checking that the channel has what it needs (a `paste` names its `target`, a
    /// `copy` none;
    /// `save-as` and `open-into-org-document` name a `location` and nothing else).
    /// - Throws: ``InputError`` as ``ShareRequest/init(channel:target:url:document:)``, and
    ///   ``InputError/intuneLocation(_:)`` for a missing, unknown or unexpected location.
    public init(from: BundleID, channel: FleetChannel, target: BundleID? = nil, url: ShareURL? = nil, document: String? = nil,
                location: String? = nil) throws(InputError) {
        if channel == .paste, target == nil { throw .missingTarget(.copy) }
        // A fleet's copy names no target: its audience says who may paste it; a copy pasted into an app is `paste`.
        if channel == .copy, target != nil { throw .unexpectedField("target", .copy) }
        self.from = from
        self.channel = channel
        if let locationChannel = channel.locationChannel {
            if target != nil || url != nil {
                throw .intuneLocation("channel \(channel) names a location, not a \(target != nil ? "target" : "url"): give --location (\"location\")")
            }
            senderRequest = nil
            locationRequest = try LocationRequest(channel: locationChannel, location: location)
        } else {
            if location != nil {
                throw .intuneLocation("channel \(channel) takes no location: only save-as and open-into-org-document do")
            }
            senderRequest = try ShareRequest(channel: channel.senderChannel!, target: target, url: url, document: document)
            locationRequest = nil
        }
    }

    /// A request from `from` whose sender's part is an already-checked request on `channel`'s sender channel.
    package init(from: BundleID, channel: FleetChannel, checked senderRequest: ShareRequest) {
        self.from = from
        self.channel = channel
        self.senderRequest = senderRequest
        locationRequest = nil
    }
}

/// The end-to-end answer for one request on one device, for a fleet of either vendor: the sender's
/// decision, the receiver's, the outcome of both, and the settings behind them (``settings``).
public struct FleetDecision: Sendable {
    /// The device profile's name.
    public let device: String
    /// The request.
    public let request: FleetRequest
    /// The end-to-end outcome: the sender's, unless the receiver refuses (allowed only if both allow).
    public let outcome: Outcome
    /// The sender's decision (its rule, outcome and callbacks in the sender), by the vendor's evaluator.
    public let sender: Decision
    /// The receiver's decision (AppConnect: its Open From, with its callbacks in the receiver; Intune:
    /// "Receive data from other apps", or its clipboard level for a paste), when the receiver decides; `nil` otherwise.
    public let receiver: Decision?
    /// The app that receives what the sender lets go, when known.
    public let receiverApp: BundleID?
    /// What the vendor decided under (AppConnect: the sender's and receiver's effective policies; Intune: their
    /// app protection policies), for working out ``settings`` when asked; `nil` when nothing is known.
    package let sides: (any FleetDecisionSides)?
    /// The settings, when the decider worked them out already (the path finder, from each app's settings made once).
    package var madeSettings: [FleetSetting]? = nil

    package init(device: String, request: FleetRequest, outcome: Outcome, sender: Decision, receiver: Decision?, receiverApp: BundleID?,
         sides: (any FleetDecisionSides)?) {
        self.device = device
        self.request = request
        self.outcome = outcome
        self.sender = sender
        self.receiver = receiver
        self.receiverApp = receiverApp
        self.sides = sides
    }

    /// Whether something reaches ``receiverApp`` (allowed, or redirected to it).
    public var delivers: Bool { outcome == .allow || outcome == .redirect }

    /// The rules that decided: the sender's, then the receiver's when it decides.
    public var rules: [RuleID] { [sender.rule] + (receiver.map { [$0.rule] } ?? []) }

    /// The settings behind the decision, sender's first: for each side that decides, the policy
    /// value its rule read (with the policy, how it reaches the app on the device, the key path, the
    /// value, the file and line), and, where a control is absent, where its default comes from.
    /// Worked out when asked (decisions made in bulk do not pay for it).
    public var settings: [FleetSetting] {
        if let madeSettings { return madeSettings }
        return sides?.settings(of: self) ?? []
    }
}
