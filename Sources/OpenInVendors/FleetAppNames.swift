import OpenInAppConnect
import OpenInCore
import OpenInFleet
import OpenInIntune
import OpenInKit

/// The apps a fleet knows (either vendor), for checking the bundle IDs typed on `fleet paths` and
/// `fleet eval`: a misspelt `--from` or `--to` must never pass a leak gate as "not installed" or
/// "no path" (a check that checked nothing).
///
/// - A sender (`--from`, a request's `from`) must be an app the fleet knows: its documents are the
///   question. An app the fleet does not manage is asked about by listing it (AppConnect: under
///   `apps` with `"appconnect": false`; Intune: under the devices file's `apps`).
/// - A receiver (`--to`, a request's `target`) the fleet does not know is "any other app", unless it
///   is one or two edits from an app the fleet knows: then it is taken for a typo (an error with
///   "Did you mean").
/// - An app the fleet knows that a device does not install is a statement naming the devices that do.
public struct FleetAppNames {
    /// What a typed receiver is.
    public enum Receiver: Equatable {
        /// An app the fleet knows, or native Mail.
        case known
        /// An app the fleet does not know: "any other app".
        case anyOtherApp
    }

    /// Every app the fleet knows, in file order: its listed apps, then every device's installed apps
    /// and scheme handlers (and, for Intune, every app a policy targets), each once.
    public let known: [BundleID]
    /// ``known`` by ``key(_:)``: a lookup per typed ID, not a walk of every app.
    let knownKeys: Set<String>
    /// Each device profile's installed apps, by ``key(_:)``, in file order.
    package let installed: [(device: String, apps: Set<String>)]
    /// Whether bundle IDs name the same app ignoring ASCII case (Intune) or byte for byte (AppConnect).
    let ignoringCase: Bool
    /// The file the apps come from, for messages.
    package let file: String
    /// How to make an app known, for messages.
    let howToList: String
    /// The indexes the "Did you mean" questions use, made at the first question.
    package let questions = Questions()

    /// The indexes of ``known`` that answer "Did you mean" without walking every app (a stream can
    /// name an unknown app on every line): made once, at the first question, as most runs ask none.
    package final class Questions {
        package var near: Suggestion.NearIndex<UInt8>?
        package var senders: Suggestion.Candidates?
        /// Each device profile's positions in ``installed``, by the bytes of its name.
        package var devicesByName: [[UInt8]: [Int]]?
        /// The last ``whereInstalled(_:)`` answer: a stream line asks it once per device.
        package var lastWhere: (key: String, text: String)?
    }

    /// The key two bundle IDs are the same app by: the ID itself (AppConnect), or with ASCII letters
    /// lowercased (Intune). IDs are ASCII, so `String` equality of keys is byte equality.
    package static func key(_ id: BundleID, ignoringCase: Bool) -> String { ignoringCase ? ExactText.asciiLowercased(id.rawValue) : id.rawValue }

    package func key(_ id: BundleID) -> String { Self.key(id, ignoringCase: ignoringCase) }

    package init(_ fleet: Fleet, file: String) {
        var known: [BundleID] = [], keys: Set<String> = []
        func add(_ id: BundleID) { if keys.insert(id.rawValue).inserted { known.append(id) } }
        for app in fleet.apps { add(app.bundleID) }
        for device in fleet.devices {
            for id in device.installed { add(id) }
            for id in device.facts.schemeHandlers.values.sorted() { add(id) }
        }
        self.known = known
        knownKeys = keys
        installed = fleet.devices.map { ($0.name, Set($0.installed.map(\.rawValue))) }
        ignoringCase = false
        self.file = file
        howToList = "list it under apps with \"appconnect\": false"
    }

    package init(_ fleet: IntuneFleet, policies: String, devicesFile: String?) {
        var known: [BundleID] = [], keys: Set<String> = []
        func add(_ id: BundleID) { if keys.insert(Self.key(id, ignoringCase: true)).inserted { known.append(id) } }
        for app in fleet.apps { add(app.bundleID) }
        for device in fleet.devices {
            for id in device.installed { add(id) }
            for handler in device.schemeHandlers { add(handler.app) }
        }
        for policy in fleet.policies {
            for id in policy.apps { add(id) }
        }
        self.known = known
        knownKeys = keys
        installed = fleet.devices.map { ($0.name, Set($0.installed.map { Self.key($0, ignoringCase: true) })) }
        ignoringCase = true
        file = "the policies in \(policies) or the devices file \(devicesFile ?? "")"
        howToList = "list it under the devices file's apps"
    }

    /// The apps a fleet of either vendor knows.
    public init(_ analysis: FleetAnalysis, file: String, devicesFile: String?) {
        self.init(analysis.source, file: file, devicesFile: devicesFile)
    }

    /// The apps the policies of either vendor know.
    package init(_ vendor: VendorFleet, file: String, devicesFile: String?) {
        switch vendor {
        case .appConnect(let fleet): self.init(fleet, file: file)
        case .intune(let fleet): self.init(fleet, policies: file, devicesFile: devicesFile)
        }
    }

    /// Whether `a` and `b` name the same app: ignoring ASCII case (Intune), or byte for byte (AppConnect).
    public func same(_ a: BundleID, _ b: BundleID) -> Bool {
        ignoringCase ? ExactText.sameIgnoringASCIICase(a.rawValue, b.rawValue) : a == b
    }

    /// Whether the fleet knows `id` (native Mail is known to every fleet).
    public func isKnown(_ id: BundleID) -> Bool { id.isNativeMail || knownKeys.contains(key(id)) }

    /// Checks a sender the user typed.
    /// - Parameter what: how the message names it (`--from`, `"from"`).
    /// - Throws: a message naming the file, the nearest app and the fix, when the fleet does not know it.
    public func checkSender(_ id: BundleID, what: String, orAll: Bool = false) throws(FleetAppNames.Unknown) {
        if isKnown(id) { return }
        if questions.senders == nil { questions.senders = Suggestion.Candidates(known.map(\.rawValue)) }
        var message = "\(what): \(id) is not an app of \(file)."
        message += questions.senders?.phrase(for: id.rawValue) ?? ""
        message += " Give one of its apps\(orAll ? " (or all, for every app)" : "")\(listing()); to ask about an app it does not manage, \(howToList)"
        throw Unknown(message: message)
    }

    /// Checks a receiver the user typed: an app the fleet knows, or "any other app".
    /// - Throws: a message with "Did you mean" when an unknown ID is one or two edits from an app the fleet knows.
    public func checkReceiver(_ id: BundleID, what: String) throws(FleetAppNames.Unknown) -> Receiver {
        if isKnown(id) { return .known }
        if let near = nearest(to: id) {
            throw Unknown(message: "\(what): \(id) is not an app of \(file). Did you mean '\(near)'? An ID the fleet does not know stands for any other app, but one within two edits of one of its apps is taken for a typo: correct it, or, if it is another app, \(howToList)")
        }
        return .anyOtherApp
    }

    /// The known app one or two edits (insertions, deletions, substitutions, swaps of neighbours) from
    /// `id`, the nearest first; letter case counts for AppConnect (IDs are case sensitive) and not for Intune.
    /// IDs are ASCII, so their bytes are their characters.
    /// - Complexity: O(*p*) for the prefixes *p* of known apps within two edits of `id` (`Suggestion.NearIndex`),
    ///   not O(apps); the index is made at the first question, O(apps log apps).
    public func nearest(to id: BundleID) -> BundleID? {
        if questions.near == nil { questions.near = Suggestion.NearIndex(known.map { Array(key($0).utf8) }) }
        return questions.near?.nearest(Array(key(id).utf8)).map { known[$0.index] }
    }

    /// Checks a request's sender and target (`from`, `target`), as a line of a stream or flags name them.
    /// - Throws: ``Unknown`` as ``checkSender(_:what:orAll:)`` and ``checkReceiver(_:what:)``.
    public func check(_ request: FleetRequest, flags: Bool) throws(FleetAppNames.Unknown) {
        try checkSender(request.from, what: flags ? "--from" : "\"from\"")
        // A keyboard's target is a keyboard extension, not an app of the fleet.
        if let target = request.target, request.channel != .keyboard { _ = try checkReceiver(target, what: flags ? "--target" : "\"target\"") }
    }

    /// The devices that install `id`, in file order.
    public func devices(installing id: BundleID) -> [String] {
        let key = key(id)
        return installed.filter { $0.apps.contains(key) }.map(\.device)
    }

    private func listing() -> String {
        let names = known.prefix(12).map(\.rawValue)
        return names.isEmpty ? ": it lists none" : known.count <= 12 ? ": " + names.joined(separator: ", ") : ": \(names.joined(separator: ", ")) and \(known.count - 12) more"
    }

    /// A typed bundle ID the fleet does not know, as an error message.
    public struct Unknown: Error {
        /// What is wrong with the ID, and the fix.
        public let message: String
    }
}
