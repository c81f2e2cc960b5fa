/// Builds a row's policy and request from its input cells.
enum RowInputs {
    /// A row's inputs as built when the row is parsed: a policy and a request, or why they are invalid.
    enum Built: Sendable, Hashable {
        case valid(Policy, ShareRequest)
        /// An Intune row (`policy` is `intune`): the sending app's context and the request.
        case intune(IntuneContext, ShareRequest)
        case invalid(InputError)
        /// A fleet table's row (``FleetTables``).
        case fleet(FleetTables.Row)

        init(_ result: Result<(Policy, ShareRequest), InputError>) {
            switch result {
            case .success(let (policy, request)): self = .valid(policy, request)
            case .failure(let error): self = .invalid(error)
            }
        }
    }

    /// The policy and request of a row, or the input error that makes them invalid.
    /// - Throws: ``TableError`` when a cell is not in the table format (an unknown setting, a missing `=`).
    static func build(_ cells: [String: String], at place: Place) throws(TableError) -> Result<(Policy, ShareRequest), InputError> {
        let settings = try Settings(parsing: cells["context"] ?? "-", at: place)
        do {
            return .success(try inputs(cells, settings, at: place))
        } catch let error as InputError {
            return .failure(error)
        } catch let error as TableError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private static func inputs(_ cells: [String: String], _ settings: Settings, at place: Place) throws -> (Policy, ShareRequest) {
        func value(_ column: String) -> String? {
            guard let text = cells[column], !text.isEmpty, text != "-" else { return nil }
            return text
        }
        let setting = try PolicySetting(parsing: cells["policy"] ?? "")
        let whitelistText = value("whitelist")
        if setting == .allAppConnectApps, whitelistText != nil {
            throw place.error("the appconnect policy takes its whitelist from the device: move the IDs to the context as appconnect-apps=ID,ID")
        }
        let whitelist = try Whitelist(parsing: (whitelistText ?? "").split { $0 == "," || $0 == " " }.map(String.init))
        var device = DeviceFacts()
        device.emailPlusInstalled = settings.emailPlus
        if !settings.emailPlusIDs.isEmpty { device.emailPlusBundleIDs = try settings.emailPlusIDs.map { try BundleID($0) } }
        for (scheme, handler) in settings.handlers { try device.setHandler(try BundleID(handler), for: scheme) }
        device.appConnectApps = Set(try settings.appConnectApps.map { try BundleID($0) })
        var app = AppFacts()
        for scheme in settings.appSchemes { try app.addScheme(scheme) }
        device.secureServicesAvailable = try settings.secureServices.map { text throws(TableError) in
            switch text {
            case "available": true
            case "unavailable": false
            default: throw place.error("context setting 'secure-services=\(text)': write secure-services=available or secure-services=unavailable")
            }
        }
        let stated = Policy(
            status: .unauthorized, whitelist: whitelist, config: AppConfig(settings.config),
            infoPlist: InfoPlistOverrides(disableSchemeBlocking: settings.plistOverride),
            device: device, app: app,
            dragAndDrop: try settings.dragAndDrop.map { try DragAndDropPolicy(parsing: $0) },
            enforcing: settings.enforcing)
        var policy = PolicyInputs(setting: setting, stated: stated).policy
        let openFromList = try settings.openFromWhitelist.map { try Whitelist(parsing: $0) }
        if let text = settings.openFrom {
            let openFrom = try OpenFromPolicy.Setting(parsing: text)
            if openFrom == .allAppConnectApps, openFromList != nil {
                throw place.error("open-from=appconnect takes its whitelist from the device: move the IDs to appconnect-apps=ID,ID")
            }
            policy.openFrom = OpenFromPolicy(openFrom, whitelist: openFromList ?? .empty)
        }
        policy.pasteboard = try settings.pasteboard.map { try PasteboardPolicy(parsing: $0) }
        policy.print = try settings.print.map { try PrintPolicy(parsing: $0) }
        let request = try ShareRequest(channel: cells["channel"] ?? "", target: value("target"), url: value("url"),
                                       source: value("source"), document: value("document"))
        // A request the policy cannot decide (a control it does not set) is an error row, as in eval.
        try policy.check(request)
        return (policy, request)
    }

    /// The `context` cell's settings.
    struct Settings {
        var enforcing = true
        var emailPlus = false
        var emailPlusIDs: [String] = []
        var plistOverride = false
        var config: [String: String] = [:]
        var handlers: [(String, String)] = []
        var appSchemes: [String] = []
        var dragAndDrop: String?
        var appConnectApps: [String] = []
        var openFrom: String?
        var openFromWhitelist: [String]?
        var pasteboard: String?
        var print: String?
        var secureServices: String?

        static let names = ["not-enforcing", "email-plus", "email-plus-id=", "plist-override", "config:KEY=VALUE",
                            "handler:SCHEME=ID", "app-scheme=", "dnd=", "appconnect-apps=",
                            "open-from=", "open-from-whitelist=", "pasteboard=", "print=", "secure-services="]

        init(parsing text: String, at place: Place) throws(TableError) {
            guard text != "-" else { return }
            for item in text.split(separator: ";") {
                let setting = item.trimmingSpaces
                if setting.isEmpty { continue }
                func argument(after prefix: String) throws(TableError) -> String {
                    let rest = String(setting.dropFirst(prefix.count).trimmingSpaces)
                    if rest.isEmpty { throw place.error("context setting '\(setting)' needs a value after '\(prefix)'") }
                    return rest
                }
                func pair(after prefix: String) throws(TableError) -> (String, String) {
                    let rest = try argument(after: prefix)
                    guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else {
                        throw place.error("context setting '\(setting)' needs the form \(prefix)NAME=VALUE")
                    }
                    return (String(rest[..<equals]), String(rest[rest.index(after: equals)...]))
                }
                if setting == "not-enforcing" {
                    enforcing = false
                } else if setting == "email-plus" {
                    emailPlus = true
                } else if setting == "plist-override" {
                    plistOverride = true
                } else if setting.hasPrefix("email-plus-id=") {
                    emailPlusIDs.append(try argument(after: "email-plus-id="))
                } else if setting.hasPrefix("config:") {
                    let (key, value) = try pair(after: "config:")
                    config[key] = value
                } else if setting.hasPrefix("handler:") {
                    handlers.append(try pair(after: "handler:"))
                } else if setting.hasPrefix("app-scheme=") {
                    appSchemes.append(try argument(after: "app-scheme="))
                } else if setting.hasPrefix("dnd=") {
                    dragAndDrop = try argument(after: "dnd=")
                } else if setting.hasPrefix("open-from-whitelist=") {
                    openFromWhitelist = (openFromWhitelist ?? []) + (try argument(after: "open-from-whitelist=")).split { $0 == "," || $0 == " " }.map(String.init)
                } else if setting.hasPrefix("open-from=") {
                    openFrom = try argument(after: "open-from=")
                } else if setting.hasPrefix("pasteboard=") {
                    pasteboard = try argument(after: "pasteboard=")
                } else if setting.hasPrefix("print=") {
                    print = try argument(after: "print=")
                } else if setting.hasPrefix("secure-services=") {
                    secureServices = try argument(after: "secure-services=")
                } else if setting.hasPrefix("appconnect-apps=") {
                    appConnectApps += try argument(after: "appconnect-apps=").split { $0 == "," || $0 == " " }.map(String.init)
                } else {
                    let name = String(setting.prefix { $0 != "=" && $0 != ":" })
                    throw place.error("unknown context setting '\(setting)': settings are \(Settings.names.joined(separator: ", ")).\(Suggestion.phrase(for: name, among: Settings.names))")
                }
            }
        }
    }
}
