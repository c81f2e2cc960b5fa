import OpenInKit

/// The way an app tries to share: the class or call iOS uses.
public enum Channel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `UIDocumentInteractionController` (the Open In menu).
    case documentInteraction = "document-interaction"
    /// `QLPreviewController`, which uses `UIDocumentInteractionController`.
    case quickLook = "quick-look"
    /// Sharing to an app extension.
    case appExtension = "app-extension"
    /// `UIActivityViewController` (the share sheet).
    case activityView = "activity-view"
    /// The app's own `openURL:` call.
    case openURL = "open-url"
    /// A `mailto:` link tapped in a `UIWebView`, `WKWebView` or `UITextView`.
    case mailLink = "mail-link"
    /// Presenting `MFMailComposeViewController`.
    case mailCompose = "mail-compose"
    /// Dragging content to another app.
    case dragAndDrop = "drag-and-drop"
    /// Another app sends a document to this app (Open From); the request names the `source`.
    case openFrom = "open-from"
    /// Copying to the general pasteboard; `target` (optional) is an app the user pastes into.
    case copy
    /// Printing.
    case print
    /// Pasting into this app what the user copied elsewhere; the request may name the `source` app.
    case paste
    /// Typing with a keyboard; `target` (optional) is the keyboard extension, `com.apple.keyboard` or none for the system keyboard.
    case keyboard

    /// Reads a channel from its name, byte for byte (`quick-loo\u{212A}` is no channel).
    /// - Throws: ``InputError/unknownChannel(_:)``.
    public init(parsing text: String) throws(InputError) {
        guard let channel = Channel.allCases.first(where: { ExactText.same($0.rawValue, text) }) else { throw .unknownChannel(text) }
        self = channel
    }

    public var description: String { rawValue }

    /// Whether the channel names the receiving app in `target` (and needs it).
    public var requiresTarget: Bool {
        switch self {
        case .documentInteraction, .quickLook, .appExtension, .dragAndDrop: true
        case .activityView, .openURL, .mailLink, .mailCompose, .openFrom, .copy, .print, .paste, .keyboard: false
        }
    }

    /// Whether the channel is one of the eight Open In channels (the Open In policy governs it).
    public var isOpenIn: Bool {
        switch self {
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose, .dragAndDrop: true
        case .openFrom, .copy, .print, .paste, .keyboard: false
        }
    }

    /// The policy key that sets this channel's control, for the channels beyond Open In
    /// (`openFromPolicy`, `pasteboardPolicy`, `printPolicy`); `nil` for the Open In channels.
    public var controlKey: String? {
        switch self {
        case .openFrom: "openFromPolicy"
        case .copy: "pasteboardPolicy"
        case .print: "printPolicy"
        case .documentInteraction, .quickLook, .appExtension, .activityView, .openURL, .mailLink, .mailCompose, .dragAndDrop, .paste, .keyboard: nil
        }
    }

    /// Whether the channel names the sending app in `source` (`open-from`, `paste`).
    public var takesSource: Bool { self == .openFrom || self == .paste }

    /// What a request on this channel carries, for error messages.
    var fieldHint: String {
        switch self {
        case .documentInteraction, .quickLook, .appExtension, .dragAndDrop: "give the receiving app as target"
        case .activityView: "target (optional) is the app the user picked; it takes no url"
        case .openURL: "give the url; the app that handles it comes from the device's scheme handlers"
        case .mailLink: "give the tapped mailto: url (optional); the target is native Mail"
        case .mailCompose: "it takes neither target nor url; the target is native Mail"
        case .openFrom: "give the sending app as source (leave it out when unknown); it takes neither target nor url"
        case .copy: "target (optional) is an app the user pastes into; it takes neither url nor source"
        case .print: "it takes neither target, url nor source"
        case .paste: "give the app the copy came from as source (leave it out when unknown); it takes neither target nor url"
        case .keyboard: "target (optional) is the keyboard extension's bundle ID (com.apple.keyboard or none: the system keyboard); it takes neither url nor source"
        }
    }
}

/// One attempt to share: a channel, and the target app, URL or source app it names.
public struct ShareRequest: Sendable, Hashable {
    /// How the app shares.
    public let channel: Channel
    /// The receiving app (document interaction, Quick Look, extensions, drag and
    /// drop), or the app the user picked in the share sheet.
    public var target: BundleID? {
        switch route {
        case .document(let target), .dragAndDrop(let target): target
        case .activityView(let target), .copy(let target), .keyboard(let target): target
        case .mailto, .otherURL, .mailView, .openFrom, .print, .paste: nil
        }
    }
    /// The app that sends a document to this app (`open-from`), or whose copy is pasted (`paste`), when known.
    public var source: BundleID? {
        switch route {
        case .openFrom(let source), .paste(let source): source
        default: nil
        }
    }
    /// The URL opened (`open-url`) or tapped (`mail-link`).
    public var url: ShareURL? {
        switch route {
        case .mailto(let url), .otherURL(let url): url
        case .mailView(let url): url
        case .document, .dragAndDrop, .activityView, .openFrom, .copy, .print, .paste, .keyboard: nil
        }
    }
    /// The shared file's name, from which a dummy file name is made when one is substituted.
    public let document: String?
    /// The request's path through the rules, with what that path needs unwrapped.
    package let route: Route

    /// Creates a request, checking that the channel has what it needs and nothing it does not take.
    /// - Throws: ``InputError/missingTarget(_:)``, ``InputError/missingURL(_:)``,
    ///   ``InputError/unexpectedField(_:_:)`` or ``InputError/notMailto(_:)``.
    public init(channel: Channel, target: BundleID? = nil, url: ShareURL? = nil, document: String? = nil) throws(InputError) {
        switch channel {
        case .documentInteraction, .quickLook, .appExtension, .dragAndDrop:
            guard let target else { throw .missingTarget(channel) }
            if url != nil { throw .unexpectedField("url", channel) }
            route = channel == .dragAndDrop ? .dragAndDrop(target) : .document(target)
        case .activityView:
            if url != nil { throw .unexpectedField("url", channel) }
            route = .activityView(target)
        case .openURL:
            guard let url else { throw .missingURL(channel) }
            if target != nil { throw .unexpectedField("target", channel) }
            route = url.isMailto ? .mailto(url) : .otherURL(url)
        case .mailLink:
            if target != nil { throw .unexpectedField("target", channel) }
            if let url, !url.isMailto { throw .notMailto(url.rawValue) }
            route = .mailView(url)
        case .mailCompose:
            if target != nil { throw .unexpectedField("target", channel) }
            if url != nil { throw .unexpectedField("url", channel) }
            route = .mailView(nil)
        case .openFrom:
            if target != nil { throw .unexpectedField("target", channel) }
            if url != nil { throw .unexpectedField("url", channel) }
            route = .openFrom(nil)
        case .copy:
            if url != nil { throw .unexpectedField("url", channel) }
            route = .copy(target)
        case .print:
            if target != nil { throw .unexpectedField("target", channel) }
            if url != nil { throw .unexpectedField("url", channel) }
            route = .print
        case .paste:
            if target != nil { throw .unexpectedField("target", channel) }
            if url != nil { throw .unexpectedField("url", channel) }
            route = .paste(nil)
        case .keyboard:
            if url != nil { throw .unexpectedField("url", channel) }
            route = .keyboard(target)
        }
        self.channel = channel
        self.document = document
    }

    /// Creates a request that may name the sending app of `open-from`, or the app a pasted copy came from, in `source`.
    ///
    /// (A separate initialiser, so the one without a source — what the Open In
    /// channels use, the JSON Lines fast path included — carries no extra argument.)
    /// - Throws: as ``init(channel:target:url:document:)``, and
    ///   ``InputError/unexpectedField(_:_:)`` for a source on any channel but `open-from` and `paste`.
    public init(channel: Channel, target: BundleID? = nil, url: ShareURL? = nil, source: BundleID?, document: String? = nil) throws(InputError) {
        guard let source else {
            try self.init(channel: channel, target: target, url: url, document: document)
            return
        }
        guard channel.takesSource else { throw .unexpectedField("source", channel) }
        if target != nil { throw .unexpectedField("target", channel) }
        if url != nil { throw .unexpectedField("url", channel) }
        self.init(channel: channel, route: channel == .paste ? .paste(source) : .openFrom(source), document: document)
    }

    /// A request whose route is already worked out.
    private init(channel: Channel, route: Route, document: String?) {
        self.channel = channel
        self.route = route
        self.document = document
    }

    /// Creates a request from strings, validating each part.
    /// - Throws: ``InputError`` for an unknown channel, a malformed bundle ID or
    ///   URL, or a field the channel needs or does not take.
    public init(channel: String, target: String? = nil, url: String? = nil, source: String? = nil, document: String? = nil) throws(InputError) {
        let channel = try Channel(parsing: channel)
        let target = try target.map { text throws(InputError) in try BundleID(text) }
        let url = try url.map { text throws(InputError) in try ShareURL(text) }
        let source = try source.map { text throws(InputError) in try BundleID(text) }
        try self.init(channel: channel, target: target, url: url, source: source, document: document)
    }
}

/// Which of the channel rules (7 to 17) a request reaches, with its payload.
package enum Route: Sendable, Hashable {
    case activityView(BundleID?)
    case mailto(ShareURL)
    case otherURL(ShareURL)
    case mailView(ShareURL?)
    case document(BundleID)
    case dragAndDrop(BundleID)
    case openFrom(BundleID?)
    case copy(BundleID?)
    case print
    case paste(BundleID?)
    case keyboard(BundleID?)
}
