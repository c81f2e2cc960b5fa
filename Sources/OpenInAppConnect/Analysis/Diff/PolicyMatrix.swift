import OpenInCore
import OpenInFleet
import OpenInKit

/// `matrix`: a policy at a glance, channels × kinds of target, each cell an outcome.
///
/// The library chooses the example that stands for each kind of target (the
/// policy's own where it has them, made up otherwise) and decides every cell;
/// the CLI prints ``render()``.
public struct PolicyMatrix {
    /// One column: a kind of target, and the example that stands for it.
    struct Column {
        package let header: [String]
        let legendName: String
        /// The example, as the legend shows it; `nil` when the policy has none and none can be made up.
        let example: String?
        /// The channels that take this kind of target.
        package let channels: Set<Channel>
        /// What the legend says when there is no example.
        var missing = "none: the whitelist lists no app besides native Mail"
        /// The request for a channel, or `nil` when the channel does not take this kind of target.
        package let request: (Channel) -> ShareRequest?
    }

    let inputs: PolicyInputs
    package let name: String
    /// The policy with made-up handlers and schemes added where the policy has none.
    private(set) var policy: Policy
    private(set) var appColumns: [Column] = []
    private(set) var urlColumns: [Column] = []
    private(set) var inputColumns: [Column] = []
    /// The device's mail app when it is not native Mail.
    private(set) var thirdPartyMailApp: BundleID?

    static let appChannels: [Channel] = [.documentInteraction, .quickLook, .appExtension, .activityView, .dragAndDrop]
    static let urlChannels: [Channel] = [.openURL, .mailLink, .mailCompose]
    static let inputChannels: [Channel] = [.keyboard, .paste]

    /// The matrix of the policy `inputs`, named `name` (its file) in the header.
    public init(inputs: PolicyInputs, name: String) {
        self.name = name
        var inputs = inputs
        let base = inputs.policy
        // The smallest ID in one pass: sorting the whole list for its first entry is O(n log n).
        let firstListed = base.whitelist.lazy.filter { !$0.isNativeMail }.min()
        var madeUp: Set<String> = []

        // A listed app: the whitelist's first, or any app when the whitelist is not used.
        let listed: BundleID?
        if let first = firstListed {
            listed = first
        } else if base.status != .whitelist {
            listed = Self.known("com.example.listed")
            madeUp.insert("listed")
        } else {
            listed = nil
        }
        var unlistedName = "com.example.unlisted"
        while base.whitelist.contains(Self.known(unlistedName)) { unlistedName += "-app" }
        let unlisted = Self.known(unlistedName)

        // Schemes: the policy's own where it has them, otherwise made up and added to the copy.
        let handlers = base.device.schemeHandlers.filter { scheme, _ in
            !["http", "https", "mailto"].contains(scheme) && !base.app.urlSchemes.contains(scheme)
        }
        func freshScheme(_ stem: String) -> String {
            var scheme = stem
            while handlers[scheme] != nil || base.app.urlSchemes.contains(scheme) { scheme += "-x" }
            return scheme
        }
        let ownScheme: String
        if let first = base.app.urlSchemes.sorted().first {
            ownScheme = first
        } else {
            ownScheme = freshScheme("x-own-app")
            try? inputs.stated.app.addScheme(ownScheme)
            madeUp.insert("own")
        }
        var listedHandler = handlers.filter { base.lists($0.value) }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
        if listedHandler == nil, let listed {
            listedHandler = (freshScheme("x-listed-handler"), listed)
            madeUp.insert("handler listed")
        }
        var unlistedHandler = handlers.filter { !base.lists($0.value) }.min { $0.key < $1.key }.map { ($0.key, $0.value) }
        if unlistedHandler == nil {
            unlistedHandler = (freshScheme("x-unlisted-handler"), unlisted)
            madeUp.insert("handler unlisted")
        }
        for (scheme, handler) in [listedHandler, unlistedHandler].compactMap({ $0 }) {
            try? inputs.stated.device.setHandler(handler, for: scheme)
        }
        let unknownScheme = freshScheme("x-unknown")
        self.inputs = inputs
        policy = inputs.policy

        func note(_ key: String) -> String { madeUp.contains(key) ? "  (made up: the policy names none)" : "" }
        let mailto = Self.url("mailto:someone@example.com")
        let emailPlus = policy.device.emailPlusTarget
        let emailPlusState = policy.device.emailPlusInstalled ? "installed" : "not installed"

        func targetColumn(_ header: [String], _ legend: String, _ target: BundleID?, _ example: String?) -> Column {
            Column(header: header, legendName: legend, example: example, channels: Set(Self.appChannels)) { channel in
                guard Self.appChannels.contains(channel), let target else { return nil }
                return try? ShareRequest(channel: channel, target: target)
            }
        }
        appColumns = [
            targetColumn(["listed", "app"], "listed app", listed,
                         listed.map { $0.rawValue + (base.status == .whitelist ? "" : "  (any app: the whitelist is not used)") + note("listed") }),
            targetColumn(["unlisted", "app"], "unlisted app", unlisted, unlisted.rawValue + "  (stands for any app not in the whitelist)"),
            targetColumn(["native", "Mail"], "native Mail", .mailActivity,
                         "\(BundleID.mailActivity)" + (policy.device.handler(forScheme: "mailto").map { $0.isNativeMail } ?? true ? "; \(mailto)" : "")),
            targetColumn(["", "Email+"], "Email+", emailPlus, "\(emailPlus) (\(emailPlusState))"),
        ]
        // An activity the server excludes from the share sheet: a column only when the policy excludes one.
        if let excluded = base.excludedActivityTypes.min() {
            let count = base.excludedActivityTypes.count
            appColumns.append(Column(header: ["excluded", "activity"], legendName: "excluded activity",
                                     example: excluded.rawValue + "  (excludedAppleActivityTypes\(count > 1 ? ", 1 of \(count)" : ""))",
                                     channels: [.activityView]) { channel in
                channel == .activityView ? try? ShareRequest(channel: .activityView, target: excluded) : nil
            })
        }

        func urlColumn(_ header: [String], _ legend: String, _ url: ShareURL?, _ example: String?) -> Column {
            Column(header: header, legendName: legend, example: example, channels: [.openURL],
                   missing: "none: no scheme handler is listed, and the whitelist lists no app to make one up") { channel in
                guard channel == .openURL, let url else { return nil }
                return try? ShareRequest(channel: .openURL, url: url)
            }
        }
        // mailto: and mail links go to the device's mail app (its mailto handler); the compose sheet is always native Mail.
        let mailApp = policy.device.handler(forScheme: "mailto").flatMap { $0.isNativeMail ? nil : $0 }
        thirdPartyMailApp = mailApp
        let mailColumn = Column(header: mailApp == nil ? ["native Mail", "(mailto:)"] : ["mail app", "(mailto:)"],
                                legendName: "mail app",
                                example: mailApp.map { "mailto: → \($0) (the device's mailto handler; mail-compose is always native Mail)" },
                                channels: Set(Self.urlChannels)) { channel in
            switch channel {
            case .openURL, .mailLink: try? ShareRequest(channel: channel, url: mailto)
            case .mailCompose: try? ShareRequest(channel: .mailCompose)
            default: nil
            }
        }
        urlColumns = [
            mailColumn,
            urlColumn(["own", "scheme"], "own scheme", Self.url("\(ownScheme)://open"), "\(ownScheme):" + note("own")),
            urlColumn(["handler", "listed"], "handler listed", listedHandler.map { Self.url("\($0.0)://open") },
                      listedHandler.map { "\($0.0): → \($0.1)" + note("handler listed") }),
            urlColumn(["handler", "unlisted"], "handler unlisted", unlistedHandler.map { Self.url("\($0.0)://open") },
                      unlistedHandler.map { "\($0.0): → \($0.1)" + note("handler unlisted") }),
            urlColumn(["handler", "unknown"], "handler unknown", Self.url("\(unknownScheme)://open"), "\(unknownScheme): (no app handles it)"),
            urlColumn(["web", "URL"], "web URL", Self.url("https://www.example.com/"), "https://www.example.com/" + Self.webDLPNote(policy)),
        ]

        // What comes into the app by typing and pasting: no control of Open In governs either.
        let keyboardKey = policy.config[AppConfig.allowCustomKeyboardsKey]
        let keyboardSetting = keyboardKey.map { "\(AppConfig.allowCustomKeyboardsKey) is \(JSONWriter.quoted($0))" }
            ?? "\(AppConfig.allowCustomKeyboardsKey) not set; the app \(policy.app.allowsCustomKeyboards ? "allows" : "refuses") custom keyboards"
        let customKeyboard = Self.known("com.example.custom-keyboard")
        func inputColumn(_ header: [String], _ legend: String, _ channel: Channel, _ example: String,
                         _ make: @escaping () -> ShareRequest?) -> Column {
            Column(header: header, legendName: legend, example: example, channels: [channel]) { asked in asked == channel ? make() : nil }
        }
        inputColumns = [
            inputColumn(["system", "keyboard"], "system keyboard", .keyboard, BundleID.systemKeyboard.rawValue) {
                try? ShareRequest(channel: .keyboard, target: .systemKeyboard)
            },
            inputColumn(["custom", "keyboard"], "custom keyboard", .keyboard, "\(customKeyboard)  (\(keyboardSetting))") {
                try? ShareRequest(channel: .keyboard, target: customKeyboard)
            },
            inputColumn(["paste from", "another app"], "paste from another app", .paste,
                        "\(unlisted)  (the pasteboard policy governs copying out, not pasting in)") {
                try? ShareRequest(channel: .paste, source: unlisted)
            },
            inputColumn(["paste from", "unknown app"], "paste from unknown app", .paste, "the request names no source") {
                try? ShareRequest(channel: .paste)
            },
        ]
    }

    /// `  (Web DLP: …)` after the web URL's example when the policy gives the Web DLP setting; else nothing.
    private static func webDLPNote(_ policy: Policy) -> String {
        guard let webDLP = policy.webDLP else { return "" }
        let webAtWork = policy.device.webAtWorkInstalled ? "Web@Work \(policy.device.webAtWorkTarget) installed" : "Web@Work not installed"
        return "  (Web DLP: \(webDLP == .allowed ? "allowed" : "not allowed"); \(webAtWork))"
    }

    /// The whole text: header, the two grids, and the legend.
    public func render() -> String {
        var text = "Policy \(name): \(settingDescription)\n"
        text += "Open In UI: \(policy.openInUI)"
        if !policy.enforcing { text += "; AppConnect is not enforcing" }
        if let dragAndDrop = policy.dragAndDrop { text += "; drag-and-drop policy: \(dragAndDrop.rawValue)" }
        if let webDLP = policy.webDLP { text += "; Web DLP: \(webDLP == .allowed ? "allowed" : "not allowed")" }
        text += "\n"
        var overrides: [String] = []
        if policy.config.disablesOpenInEnforcement { overrides.append("the app config disables Open In enforcement") }
        if policy.infoPlist.disableSchemeBlocking { overrides.append("the Info.plist disables scheme blocking") }
        if policy.config.disablesSchemeBlocking { overrides.append("the app config disables scheme blocking") }
        if !overrides.isEmpty { text += "Overrides: " + overrides.joined(separator: "; ") + "\n" }
        text += "\n"
        text += grid(title: "Sharing to an app", channels: Self.appChannels, columns: appColumns) + "\n"
        text += grid(title: "Opening a URL or Mail", channels: Self.urlChannels, columns: urlColumns) + "\n"
        text += grid(title: "Typing and pasting", channels: Self.inputChannels, columns: inputColumns) + "\n"
        text += """
            Outcomes: allow = delivered to the target; redirect = delivered to Email+ or Web@Work instead;
              dummy = the target receives a dummy file it cannot open (substitute-dummy-file);
              deny = nothing is delivered; * = the library calls a callback on the app's delegate;
              · = the channel does not take this kind of target; - = the policy has no such target.

            Examples:

            """
        let mailColumn = thirdPartyMailApp == nil ? [] : urlColumns.prefix(1)
        let examples = (appColumns + mailColumn + urlColumns.dropFirst() + inputColumns).map { ($0.legendName, $0.example ?? $0.missing) }
        let width = examples.map(\.0.count).max() ?? 0
        for (name, example) in examples {
            text += "  " + name + String(repeating: " ", count: width - name.count + 2) + example + "\n"
        }
        if setsDataControls { text += "\n" + beyondOpenIn() }
        return text
    }

    private var settingDescription: String {
        switch inputs.setting {
        case .allAppConnectApps:
            "\"All AppConnect apps\" (WHITELIST of the device's \(policy.whitelist.count == 1 ? "1 AppConnect app" : "\(policy.whitelist.count) AppConnect apps"))"
        case .status(let status):
            status == .whitelist ? "WHITELIST of \(policy.whitelist.count == 1 ? "1 bundle ID" : "\(policy.whitelist.count) bundle IDs")" : "\(status) (\(status.sdkName))"
        }
    }

    /// A grid with a two-line header, the title on the header's second line.
    private func grid(title: String, channels: [Channel], columns: [Column]) -> String {
        let evaluator = Evaluator(policy: policy)
        var rows: [[String]] = [[""] + columns.map(\.header[0]), [title] + columns.map(\.header[1])]
        for channel in channels {
            rows.append([channel.rawValue] + columns.map { column in
                guard let request = column.request(channel) else { return column.channels.contains(channel) ? "-" : "·" }
                return Self.cell(evaluator.decide(request))
            })
        }
        return Self.layout(rows)
    }

    /// Rows as aligned columns, trailing spaces removed.
    static func layout(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { index in rows.map { $0[index].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined().trailingSpacesRemoved + "\n"
        }.joined()
    }

    package static func cell(_ decision: Decision) -> String {
        let word = switch decision.outcome {
        case .substituteDummyFile: "dummy"
        case .deliverEncrypted: "encrypted"
        case .allow, .redirect, .deny: decision.outcome.rawValue
        }
        return decision.callbacks.isEmpty ? word : word + "*"
    }

    private static func known(_ id: String) -> BundleID {
        guard let value = try? BundleID(id) else { preconditionFailure("invalid built-in bundle ID \(id)") }
        return value
    }

    private static func url(_ text: String) -> ShareURL {
        guard let value = try? ShareURL(text) else { preconditionFailure("invalid built-in URL \(text)") }
        return value
    }
}

private extension String {
    var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// The matrix's parts, for output formats other than ``PolicyMatrix/render()`` (the CLI's `--format markdown`).
extension PolicyMatrix {
    /// The policy's name and setting, then its Open In UI state, then any overrides.
    package var headerLines: [String] {
        render().split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.map(String.init)
    }

    /// Each grid's title, column headers (both lines joined) and one row of cells per channel.
    package var grids: [(title: String, headers: [String], rows: [(channel: Channel, cells: [String])])] {
        let evaluator = Evaluator(policy: policy)
        return [("Sharing to an app", Self.appChannels, appColumns), ("Opening a URL or Mail", Self.urlChannels, urlColumns),
                ("Typing and pasting", Self.inputChannels, inputColumns)].map { title, channels, columns in
            (title, columns.map { $0.header.filter { !$0.isEmpty }.joined(separator: " ") }, channels.map { channel in
                (channel, columns.map { column in
                    guard let request = column.request(channel) else { return column.channels.contains(channel) ? "-" : "·" }
                    return Self.cell(evaluator.decide(request))
                })
            })
        }
    }

    /// The legend's examples: a column's name and the example behind it.
    package var examples: [(name: String, example: String)] {
        (appColumns + urlColumns.dropFirst() + inputColumns).map { ($0.legendName, $0.example ?? $0.missing) }
    }
}
